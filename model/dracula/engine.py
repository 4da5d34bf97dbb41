"""The Dracula state machine: legal actions, the transition, and the automatic steps between
decisions. The rules themselves live in one module per rule area, each citing its clauses:

* :mod:`.setup` -- starting position, secret choice and deal;
* :mod:`.moving` -- steps, looks, laying cards, barriers;
* :mod:`.meetings` -- meetings, and what a revealed card does (targets, battles, power symbols);
* :mod:`.cards` -- paying with action cards and their cycle;
* :mod:`.specials` -- the special actions;
* :mod:`.ending` -- proof, last life marker, target gift.

State machine: the state holds an *agenda*, a tuple of :class:`Step` s still to do in the
current turn (or set-up). The head of the agenda is either a decision of one player, a chance
step (pseudo-player :data:`model.CHANCE`) or an automatic step, which :func:`_settle` runs at
once. So every observable state waits for a player decision, a chance outcome, or is over.

Turn structure (dracula-en:play.turn-parts, dracula-en:play.alternate): start-turn, move
(steps, looks, meetings, own-card swaps), pay (play one action card), resolve the revealed card,
special action, barrier, end-turn (action-card cycle, next player).

This module re-exports the actions and the state, so ``from ruleproof.model.dracula.engine
import State, Move, ...`` keeps working.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.model import CHANCE

from .actions import (
    MEET_CHOICES,
    SKIP_BARRIER,
    Accept,
    Action,
    ChanceOutcome,
    ChooseCard,
    Depths,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlaceBarrier,
    PlayCard,
    Recall,
    Roar,
    SkipBarrier,
    Stop,
    TakeBack,
    TurnCard,
    chance_outcome,
    choose_card,
    edge_name,
    loc_name,
    place_card,
)
from .cards import _draw_action, _end_turn, _pay_options, _play, _set_aside
from .data import COLOURS, Board, CardSet
from .ending import (
    _accept,
    _gifts,
    _give,
    _loss,
    _rescue_options,
    hand_proves,
    is_terminal,
    winner,
)
from .meetings import _meet, _resolve
from .moving import (
    _barrier,
    _barrier_options,
    _barrier_step,
    _look,
    _move,
    _move_options,
    _place,
    _stop,
)
from .rules import DraculaRules, Edge, barrier_violation
from .setup import _choose, _deal, initial_state, scenario_state
from .specials import _auto_special, _deception, _do_special, _special_options
from .state import (
    CHANCE_KINDS,
    DECISION_KINDS,
    EMPTY_LOG,
    TERMINAL,
    Event,
    Log,
    State,
    Step,
    _log,
    _name,
    _pop,
    _publish,
    _push,
    _push_front,
    _with,
)

__all__ = [
    "CHANCE_KINDS", "DECISION_KINDS", "EMPTY_LOG", "TERMINAL", "Accept", "Action",
    "ChanceOutcome", "ChooseCard", "Depths", "Event", "Fly", "GiveTarget", "Log", "Look", "Meet",
    "Move", "Place", "PlaceBarrier", "PlayCard", "Recall", "Roar", "SkipBarrier", "State", "Step",
    "Stop", "TakeBack", "TurnCard", "apply", "current_player", "custom_start", "edge_name",
    "hand_proves", "is_terminal", "legal_actions", "loc_name", "new_game", "phase",
    "resolve_chance", "winner",
]


# --------------------------------------------------------------------------- new game


def new_game(seed: int, rules: DraculaRules | None = None, cards: CardSet | None = None,
             board: Board | None = None, *, resolve: bool = True,
             found: tuple[str, ...] = ()) -> State:
    """A new game; the action-card shuffles (chance) are resolved from ``seed`` (with
    ``resolve=False`` the state waits at the first chance node instead, for exhaustive
    exploration of every outcome). ``found``: targets already found before the start (a
    reduced set-up's; :func:`.setup.initial_state`, which raises ValueError on a bad one).

    Returns the state waiting for Dracula's secret choice of six encounter cards
    (dracula-en:setup.secret-choice); see :func:`.setup.initial_state` for the clauses.
    """
    s = _publish(_settle(initial_state(seed, rules, cards, board, found)))
    return resolve_chance(s) if resolve else s


def custom_start(rules: DraculaRules, cards: CardSet, board: Board, *,
                 board_cards: tuple[str | None, ...], to_move: int,
                 pos: tuple[int, int] | None = None, life: tuple[int, int] | None = None,
                 captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 enc_discard: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 current: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
                 barriers: tuple[Edge | None, ...] | None = None, breath: bool = False,
                 whisper: bool = False, vigilance: bool = False, turned: int | None = None,
                 seed: int = 0) -> State:
    """A position given explicitly (for scenarios), at the start of ``to_move``'s turn; see
    :func:`.setup.scenario_state`. Raises ValueError on an inconsistent position."""
    return _publish(_settle(scenario_state(
        rules, cards, board, board_cards=board_cards, to_move=to_move, pos=pos, life=life,
        captured=captured, enc_discard=enc_discard, current=current, barriers=barriers,
        breath=breath, whisper=whisper, vigilance=vigilance, turned=turned, seed=seed)))



# --------------------------------------------------------------------------- queries


def current_player(s: State) -> int:
    """Side to decide (0 Dracula, 1 Van Helsing), :data:`model.CHANCE`, or :data:`TERMINAL`."""
    if s.winner is not None or not s.agenda:
        return TERMINAL
    head = s.agenda[0]
    if head.kind in CHANCE_KINDS:
        return CHANCE
    return head.player


def phase(s: State) -> str:
    """Kind of the pending step (``over`` when terminal)."""
    if s.winner is not None or not s.agenda:
        return "over"
    return s.agenda[0].kind


def legal_actions(s: State) -> tuple[Action, ...]:
    """The legal actions of the side to move (or chance outcomes), in a deterministic order.

    Computed once per state and kept with it (the state is immutable, so they cannot change).

    Clauses: dracula-en:move.orthogonal, dracula-en:pay.no-crossing, dracula-en:move.revisit,
    dracula-en:move.look-choice, dracula-en:move.start-location, dracula-en:move.minimum,
    dracula-en:meet.allowed, dracula-en:pay.one-card, dracula-en:pay.end-of-move,
    dracula-en:pay.hand-limit, dracula-en:barriers.colour, dracula-en:barriers.grey,
    dracula-en:pay.barrier-first, dracula-en:special.vigilance, dracula-en:special.resistance.
    """
    legal = s._legal
    if legal is None:
        legal = _legal_actions(s)
        object.__setattr__(s, "_legal", legal)
    return legal


def _legal_actions(s: State) -> tuple[Action, ...]:
    if s.winner is not None or not s.agenda:
        return ()
    head = s.agenda[0]
    k = head.kind
    side = head.player
    if k == "choose":
        return tuple(map(choose_card, s.hand[side]))
    if k == "draw-action":
        return tuple(map(chance_outcome, s.adiscard[side]))
    if k == "deal":
        return tuple(map(chance_outcome, sorted(set(s.pool))))
    if k == "deception-draw":
        return tuple(map(chance_outcome, s.hand[0]))
    if k == "move":
        return (*_move_options(s), *_gifts(s, side))
    if k == "meet":
        return MEET_CHOICES
    if k in ("place", "depths-place"):
        return tuple(map(place_card, s.hand[side]))
    if k == "pay":
        return (*_pay_options(s, side), *_gifts(s, side))
    if k == "rescue":
        return _rescue_options(s, side)
    if k == "special-choice":
        return tuple(_special_options(s))
    if k == "barrier":
        out = _barrier_options(s, head.colours)
        if s.rules.barrier_optional or not out:
            out.append(SKIP_BARRIER)
        return tuple(out)
    return ()


def _illegal(s: State, a: Action) -> IllegalAction:
    """An IllegalAction with the most specific reason and clauses we can name."""
    k = phase(s)
    if k == "over":
        return IllegalAction(a, "the game is over", ("dracula-en:end.proof",))
    if isinstance(a, Move) and k == "move":
        here = s.pos[s.active]
        if a.to not in s.board.neighbours(here):
            return IllegalAction(a, f"{loc_name(a.to)} is not an orthogonal neighbour of "
                                    f"{loc_name(here)}", ("dracula-en:move.orthogonal",))
        if (min(here, a.to), max(here, a.to)) in s.barriers:
            return IllegalAction(a, "a barrier lies on that border", ("dracula-en:pay.no-crossing",))
        if s.active == 0 and s.turned == a.to:
            return IllegalAction(a, "Dracula may not go to the turned card",
                                 ("dracula-en:special.resistance",))
        return IllegalAction(a, "declining to look ends the move (option no_look_ends_move)",
                             ("dracula-en:look.no-look",))
    if isinstance(a, Look) and k == "move":
        if s.steps == 0:
            return IllegalAction(a, "the card where the turn began cannot be looked at yet",
                                 ("dracula-en:move.start-location", "dracula-en:setup.figures"))
        return IllegalAction(a, "nothing to look at here now (already looked, or empty)",
                             ("dracula-en:move.look-choice",))
    if isinstance(a, Stop) and k == "move":
        return IllegalAction(a, "the figure must move at least one step", ("dracula-en:move.minimum",))
    if isinstance(a, PlayCard):
        if k != "pay":
            return IllegalAction(a, "action cards are played only when the move is over",
                                 ("dracula-en:pay.end-of-move", "dracula-en:play.turn-parts"))
        if a.card not in s.current[s.active]:
            return IllegalAction(a, "not one of the current action cards",
                                 ("dracula-en:setup.action-cards", "dracula-en:cards.cycle"))
        if a.special and s.active == 0 and s.vigilance:
            return IllegalAction(a, "Vigilance blocks Dracula's special action",
                                 ("dracula-en:special.vigilance",))
        return IllegalAction(a, "this card has no special action", ("dracula-en:cards.special",))
    if isinstance(a, PlaceBarrier) and k == "barrier":
        colours = s.agenda[0].colours
        if a.colour not in colours:
            return IllegalAction(a, f"the played card allows {'/'.join(colours)} only",
                                 ("dracula-en:barriers.colour", "dracula-en:barriers.grey"))
        ci = COLOURS.index(a.colour)
        others = [e for i, e in enumerate(s.barriers) if i != ci and e is not None]
        if a.edge in others or a.edge == s.barriers[ci]:
            return IllegalAction(a, "a barrier already lies there", ("dracula-en:barriers.between",
                                                                      "dracula-en:pay.barrier-first"))
        why = barrier_violation(s.board, [*others, a.edge], s.rules.barrier_adjacency)
        return IllegalAction(a, "barrier placement not allowed",
                             (why or "dracula-en:pay.barrier-restrictions",))
    if isinstance(a, SkipBarrier) and k == "barrier":
        return IllegalAction(a, "the barrier must be placed or moved (option barrier_optional "
                                "is off)", ("dracula-en:empty.barrier-ends-turn",))
    if isinstance(a, Depths):
        return IllegalAction(a, "Depths of Night: not a location Dracula may pick (option depths)",
                             ("dracula-en:special.depths-of-night",))
    if isinstance(a, GiveTarget):
        return IllegalAction(a, "only a target from one's own hand, and only while life markers "
                                "can be taken back", ("dracula-en:early-end.give-target",))
    if isinstance(a, Place):
        return IllegalAction(a, "only a card from one's own hand, when a card must be laid",
                             ("dracula-en:look.own-card",))
    if isinstance(a, ChooseCard):
        return IllegalAction(a, "choose one of your own encounter cards during set-up",
                             ("dracula-en:setup.secret-choice",))
    return IllegalAction(a, f"not a legal action now (pending: {k})", ("dracula-en:play.turn-parts",))


# --------------------------------------------------------------------------- apply


def apply(s: State, a: Action) -> State:
    """The successor state after action ``a``.

    Raises:
        IllegalAction: if ``a`` is not in :func:`legal_actions` (``s`` is untouched); the
            clause ids name the rule that forbids it.
    """
    if a not in legal_actions(s):
        raise _illegal(s, a)
    s = _with(s, step=s.step + 1)
    return _publish(_settle(_TRANSITIONS[type(a)](s, s.agenda[0], a)))


def _give_target(s: State, head: Step, a: GiveTarget) -> State:
    s = _give(s, head.player, a.card)
    if s.winner is None and head.kind == "rescue":
        s = _push(s, Step("loss", head.player, head.n))
    return s


def _skip_barrier(s: State, head: Step, a: SkipBarrier) -> State:
    return _pop(_log(s, f"{_name(head.player)} leaves the barriers where they are"))


def _special_choice(s: State, head: Step, a: Action) -> State:
    return _do_special(_pop(s), a)


# What each kind of action does, given the state (already counted as one more step), the
# head of its agenda (the decision being taken) and the action.
_TRANSITIONS: dict[type, Callable[[State, Step, Any], State]] = {
    GiveTarget: _give_target,
    ChanceOutcome: lambda s, head, a: _chance(s, head, a.item),
    ChooseCard: lambda s, head, a: _choose(s, head, a.card),
    Move: lambda s, head, a: _move(s, a.to),
    Look: lambda s, head, a: _look(s),
    Stop: lambda s, head, a: _stop(s, head.player),
    Meet: lambda s, head, a: _pop(_meet(s, a.reveal)),
    Place: lambda s, head, a: _pop(_place(s, head.player, head.n, a.card)),
    PlayCard: lambda s, head, a: _play(s, a.card, a.special),
    Accept: lambda s, head, a: _accept(s, head.player),
    PlaceBarrier: lambda s, head, a: _pop(_barrier(s, head.player, a.colour, a.edge)),
    SkipBarrier: _skip_barrier,
    TakeBack: _special_choice,
    Recall: _special_choice,
    TurnCard: _special_choice,
    Fly: _special_choice,
    Roar: _special_choice,
    Depths: _special_choice,
}


def _chance(s: State, head: Step, item: str) -> State:
    """Chance outcomes: action-card draws (dracula-en:setup.action-cards, dracula-en:cards.cycle),
    the deal of the twelve chosen cards (dracula-en:setup.deal), Deception's random draw
    (dracula-en:special.deception)."""
    if head.kind == "draw-action":
        return _draw_action(s, head.player, item)
    if head.kind == "deal":
        return _deal(s, head.n, item)
    return _deception(s, item)


def _settle(s: State) -> State:
    """Run automatic steps until a decision, a chance step or the end."""
    while s.winner is None and s.agenda:
        head = s.agenda[0]
        k = head.kind
        if k in CHANCE_KINDS:
            if k == "deception-draw" and not s.hand[0]:
                s = _pop(_log(s, "Dracula has no encounter card in hand to draw"))
                continue
            if k == "draw-action" and not s.adiscard[head.player]:
                s = _pop(s)
                continue
            if k == "deal" and not s.pool:
                # only on a reduced board whose sides hold fewer encounter cards than half
                # its locations (ruleproof explore, spec/dracula/reduced/): the cards chosen
                # are dealt to the first locations, the rest start empty, as a location does
                # once a side runs out of cards (dracula-en:empty.leave-empty)
                s = _pop(_log(s, f"no chosen card is left to deal: {s.board.label(head.n)} "
                                 "starts empty"))
                continue
            return s
        if k == "choose" and (head.n <= 0 or not s.hand[head.player]):
            s = _pop(s)
            continue
        if k in ("place", "depths-place") and not s.hand[head.player]:
            s = _pop(_log(s, f"{_name(head.player)} has no encounter card left: "
                             f"{s.board.label(head.n)} stays empty (dracula-en:empty.leave-empty)"))
            continue
        if k == "special":
            s = _auto_special(s)
            continue
        if k in DECISION_KINDS:
            if k == "barrier" and s.agenda[0].colours == ():
                s = _pop(s)
                continue
            return s
        s = _auto(s, head)
    return s


def _auto(s: State, head: Step) -> State:
    """Run the automatic step ``head`` (the head of the agenda)."""
    k = head.kind
    side = head.player
    if k == "set-aside":
        return _set_aside(s, side)
    if k == "start-turn":
        return _start_turn(_pop(s), side)
    if k == "loss":
        return _loss(s, side, head.n)
    if k == "resolve":
        return _resolve(_pop(s))
    if k == "barrier-choice":
        return _barrier_step(_pop(s))
    if k == "end-turn":
        return _end_turn(_pop(s))
    raise AssertionError(f"unknown step {k}")


def _start_turn(s: State, side: int) -> State:
    """dracula-en:play.alternate; Resistance's card is turned back on Van Helsing's next turn
    (dracula-en:special.resistance)."""
    s = _with(s, turn=s.turn + 1, active=side, steps=0, can_look=False, revealed=None,
              played=None, use_special=False, battle_won=False)
    if side == 1 and s.turned is not None:
        s = _log(s, f"Van Helsing turns the card at {s.board.label(s.turned)} back")
        s = _with(s, turned=None)
    s = _log(s, f"--- turn {s.turn}: {_name(side)} at {s.board.label(s.pos[side])}, life markers "
                f"Dracula {s.life[0]}, Van Helsing {s.life[1]}")
    return _push_front(s, Step("move", side))


def resolve_chance(s: State) -> State:
    """Resolve pending chance steps with outcomes drawn from ``random.Random`` seeded by the
    state's seed and step counter (deterministic across processes)."""
    while not is_terminal(s) and current_player(s) == CHANCE:
        options = legal_actions(s)
        rng = random.Random(f"{s.seed}/{s.step}")
        s = apply(s, options[rng.randrange(len(options))])
    return s
