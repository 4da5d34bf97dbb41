"""The Dracula game model: frozen state, typed actions and pure transition functions.

State machine: the state holds an *agenda*, a tuple of :class:`Step` s still to do in the
current turn (or set-up). The head of the agenda is either a decision of one player, a chance
step (pseudo-player :data:`model.CHANCE`) or an automatic step, which :func:`_settle` runs at
once. So every observable state waits for a player decision, a chance outcome, or is over.

Turn structure (dracula-en:play.turn-parts, dracula-en:play.alternate): start-turn, move
(steps, looks, meetings, own-card swaps), pay (play one action card), resolve the revealed card,
special action, barrier, end-turn (action-card cycle, next player).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ruleproof.errors import IllegalAction
from ruleproof.model import CHANCE

from .data import COLOURS, Board, CardSet, Kind, Side, default_board, default_cards
from .rules import (
    DraculaRules,
    Edge,
    barrier_violation,
    battle,
    deception_loss,
    life_after_gift,
    overpay,
)

TERMINAL = -2
"""Value of :func:`current_player` once the game is over."""

_LOC_NAMES = tuple("abcd"[i % 4] + str(i // 4 + 1) for i in range(12))


def loc_name(loc: int) -> str:
    """Name of location ``loc`` on the 3 x 4 board (``a1`` .. ``d3``)."""
    return _LOC_NAMES[loc]


def edge_name(edge: Edge) -> str:
    """Name of a border, ``a1-b1``."""
    return f"{loc_name(edge[0])}-{loc_name(edge[1])}"


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class ChooseCard:
    """Secretly put one encounter card among the six for the board (dracula-en:setup.secret-choice)."""

    card: str

    def __str__(self) -> str:
        return f"choose {self.card}"


@dataclass(frozen=True)
class Move:
    """Step to a neighbouring location (dracula-en:move.orthogonal)."""

    to: int

    def __str__(self) -> str:
        return f"move {loc_name(self.to)}"


@dataclass(frozen=True)
class Look:
    """Look at the encounter card where the figure stands (dracula-en:move.look-choice)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True)
class Stop:
    """Declare the move finished (dracula-en:pay.move-ends)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Meet:
    """On meeting the other figure: show both hands or not (dracula-en:meet.reveal-hands)."""

    reveal: bool

    def __str__(self) -> str:
        return "reveal" if self.reveal else "no-reveal"


@dataclass(frozen=True)
class Place:
    """Lay one of one's own encounter cards face down on the pending location
    (dracula-en:look.own-card, dracula-en:target.capture, dracula-en:enemy.win,
    dracula-en:empty.fill)."""

    card: str

    def __str__(self) -> str:
        return f"place {self.card}"


@dataclass(frozen=True)
class PlayCard:
    """Pay the move with an action card, using its special action or not
    (dracula-en:move.pay, dracula-en:empty.special-timing)."""

    card: str
    special: bool

    def __str__(self) -> str:
        return f"play {self.card}" + (" special" if self.special else "")


@dataclass(frozen=True)
class TakeBack:
    """Composure: take a played or set-aside action card into the current cards
    (dracula-en:special.composure)."""

    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True)
class Recall:
    """Take an own beaten enemy back from the discard pile into the hand (Pulse; Reinforcement
    under the ``move-and-hunter`` reading)."""

    card: str

    def __str__(self) -> str:
        return f"recall {self.card}"


@dataclass(frozen=True)
class TurnCard:
    """Resistance: turn the card at a location sideways (dracula-en:special.resistance)."""

    loc: int

    def __str__(self) -> str:
        return f"turn {loc_name(self.loc)}"


@dataclass(frozen=True)
class Fly:
    """Wings of Night: move Dracula to any location, without looking there
    (dracula-en:special.wings-of-night)."""

    loc: int

    def __str__(self) -> str:
        return f"fly {loc_name(self.loc)}"


@dataclass(frozen=True)
class Depths:
    """Depths of Night: look at the card at a location and exchange it if it is Dracula's
    (dracula-en:special.depths-of-night)."""

    loc: int

    def __str__(self) -> str:
        return f"depths {loc_name(self.loc)}"


@dataclass(frozen=True)
class Roar:
    """Roar: put a figure into the harbour (player aid)."""

    figure: Side

    def __str__(self) -> str:
        return f"roar {self.figure.slug}"


@dataclass(frozen=True)
class PlaceBarrier:
    """Place (first use) or move a barrier onto a border (dracula-en:pay.barrier-first)."""

    colour: str
    edge: Edge

    def __str__(self) -> str:
        return f"barrier {self.colour} {edge_name(self.edge)}"


@dataclass(frozen=True)
class SkipBarrier:
    """Leave the barriers as they are (option barrier_optional, or nothing is possible)."""

    def __str__(self) -> str:
        return "no-barrier"


@dataclass(frozen=True)
class GiveTarget:
    """Give a target from the hand to the opponent for two life markers
    (dracula-en:early-end.give-target)."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card}"


@dataclass(frozen=True)
class Accept:
    """Accept the loss of the last life marker without giving a target away."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class ChanceOutcome:
    """A chance outcome: the card dealt, drawn or picked at random."""

    item: str

    def __str__(self) -> str:
        return f"chance {self.item}"


Action = (ChooseCard | Move | Look | Stop | Meet | Place | PlayCard | TakeBack | Recall | TurnCard
          | Fly | Depths | Roar | PlaceBarrier | SkipBarrier | GiveTarget | Accept | ChanceOutcome)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Step:
    """One entry of the agenda.

    Attributes:
        kind: ``choose``, ``draw-action``, ``set-aside``, ``deal``, ``start-turn``, ``move``,
            ``meet``, ``place``, ``pay``, ``loss``, ``rescue``, ``resolve``, ``special``,
            ``special-choice``, ``barrier-choice``, ``depths-place``, ``deception-draw``,
            ``barrier``, ``end-turn``.
        player: the side concerned (int value of :class:`Side`).
        n: a count or a location index, by kind.
        colours: allowed barrier colours (``barrier`` steps).
    """

    kind: str
    player: int = 0
    n: int = 0
    colours: tuple[str, ...] = ()


CHANCE_KINDS = frozenset({"draw-action", "deal", "deception-draw"})
DECISION_KINDS = frozenset({"choose", "move", "meet", "place", "pay", "rescue",
                            "special-choice", "depths-place", "barrier"})


@dataclass(frozen=True)
class Event:
    """One log line: the omniscient text and what each side sees ('' = nothing)."""

    full: str
    seen: tuple[str, str]


@dataclass(frozen=True)
class State:
    """A complete, immutable Dracula game state. Per-side tuples are indexed by ``Side``.

    Attributes:
        rules, cards, board: options and data.
        seed: seed for chance outcomes (:func:`resolve_chance`); step: actions applied so far.
        agenda: steps still to do; the head is the pending decision.
        board_cards: the encounter card id at each of the 12 locations, or None (empty).
        pos: location of Dracula's and Van Helsing's figure.
        hand: encounter hands (sorted ids). pool: cards chosen for the deal, not yet dealt.
        enc_discard: beaten enemies, on their owner's pile (dracula-en:enemy.win).
        captured: opposing targets won by each side (dracula-en:target.capture).
        life: life markers. current / aside / adiscard: action cards (dracula-en:cards.cycle).
        barriers: border of each colour (COLOURS order) or None if not placed yet.
        known: per side, the card it knows to lie at each location (perfect recall).
        turn, active: turn number and side whose turn it is.
        steps, can_look: steps made this move; whether the card here may be looked at.
        revealed: location of a revealed opposing card awaiting resolution.
        played, use_special, battle_won: the card paid with this turn and its use.
        breath_turn, whisper_turn: turn in which Breath / Whisper of Night act (-1: none).
        vigilance: Dracula's next special action is blocked. turned: Resistance location.
        winner, reason: result once over. log: events (see :func:`observation`).
    """

    rules: DraculaRules
    cards: CardSet
    board: Board
    seed: int
    step: int
    agenda: tuple[Step, ...]
    board_cards: tuple[str | None, ...]
    pos: tuple[int, int]
    hand: tuple[tuple[str, ...], tuple[str, ...]]
    pool: tuple[str, ...]
    enc_discard: tuple[tuple[str, ...], tuple[str, ...]]
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    life: tuple[int, int]
    current: tuple[tuple[str, ...], tuple[str, ...]]
    aside: tuple[tuple[str, ...], tuple[str, ...]]
    adiscard: tuple[tuple[str, ...], tuple[str, ...]]
    barriers: tuple[Edge | None, ...]
    known: tuple[tuple[str | None, ...], tuple[str | None, ...]]
    turn: int = 0
    active: int = 0
    steps: int = 0
    can_look: bool = False
    revealed: int | None = None
    played: str | None = None
    use_special: bool = False
    battle_won: bool = False
    breath_turn: int = -1
    whisper_turn: int = -1
    vigilance: bool = False
    turned: int | None = None
    winner: int | None = None
    reason: str = ""
    log: tuple[Event, ...] = ()


# --------------------------------------------------------------------------- helpers


def _set(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
         value: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    v = tuple(sorted(value))
    return (v, t[1]) if side == 0 else (t[0], v)


def _add(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
         card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return _set(t, side, (*t[side], card))


def _remove(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
            card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    items = list(t[side])
    items.remove(card)
    return _set(t, side, items)


def _pair(t: tuple[int, int], side: int, value: int) -> tuple[int, int]:
    return (value, t[1]) if side == 0 else (t[0], value)


def _know(s: State, side: int, loc: int, card: str | None) -> tuple[
        tuple[str | None, ...], tuple[str | None, ...]]:
    row = list(s.known[side])
    row[loc] = card
    return (tuple(row), s.known[1]) if side == 0 else (s.known[0], tuple(row))


def _put(s: State, loc: int, card: str | None) -> tuple[str | None, ...]:
    b = list(s.board_cards)
    b[loc] = card
    return tuple(b)


def _log(s: State, full: str, dracula: str | None = None, helsing: str | None = None) -> State:
    """Append an event; by default both sides see the full text (public)."""
    d = full if dracula is None else dracula
    h = full if helsing is None else helsing
    return replace(s, log=(*s.log, Event(full, (d, h))))


def _private(s: State, side: int, full: str, other_sees: str = "") -> State:
    if side == 0:
        return _log(s, full, full, other_sees)
    return _log(s, full, other_sees, full)


def _name(side: int) -> str:
    return Side(side).label


def _is_target(s: State, card: str) -> bool:
    return s.cards.enc(card).kind is Kind.TARGET


def _remaining_targets(s: State, owner: int) -> tuple[str, ...]:
    """Targets of ``owner`` not yet won by the opponent."""
    won = set(s.captured[1 - owner])
    return tuple(c for c in s.cards.encounter_of(Side(owner))
                 if s.cards.enc(c).kind is Kind.TARGET and c not in won)


def hand_proves(s: State, finder: int) -> bool:
    """Whether all of the opponent's remaining targets are in the opponent's hand
    (dracula-en:end.hand-proof)."""
    owner = 1 - finder
    hand = set(s.hand[owner])
    return all(c in hand for c in _remaining_targets(s, owner))


def _win(s: State, side: int, reason: str) -> State:
    s = replace(s, winner=side, reason=reason, agenda=())
    return _log(s, f"{_name(side)} wins: {reason}")


def _check_captures(s: State, side: int) -> State:
    """Five targets won ends the game (dracula-en:target.all-five, dracula-en:end.all-captured)."""
    if len(s.captured[side]) >= 5:
        return _win(s, side, "found all five targets (dracula-en:end.all-captured)")
    return s


def _push(s: State, *steps: Step) -> State:
    return replace(s, agenda=(*steps, *s.agenda[1:]))


def _push_front(s: State, *steps: Step) -> State:
    return replace(s, agenda=(*steps, *s.agenda))


def _pop(s: State) -> State:
    return replace(s, agenda=s.agenda[1:])


def _special(s: State) -> str | None:
    """The special action in force this turn (played card, if its special is used)."""
    if s.played is None or not s.use_special:
        return None
    return s.cards.act(s.played).special


# --------------------------------------------------------------------------- new game


def new_game(seed: int, rules: DraculaRules | None = None, cards: CardSet | None = None,
             board: Board | None = None) -> State:
    """A new game; the action-card shuffles (chance) are resolved from ``seed``.

    Returns the state waiting for Dracula's secret choice of six encounter cards
    (dracula-en:setup.secret-choice). Clauses: dracula-en:setup.roles,
    dracula-en:setup.dracula-kit, dracula-en:setup.van-helsing-kit, dracula-en:setup.action-cards,
    dracula-en:setup.figures, dracula-en:setup.barriers-aside, dracula-en:contents.components,
    dracula-en:setup.first-game-hint (advice only; not enforced), dracula-en:end.no-targets-placed
    (any six cards may be chosen).
    """
    rules = rules or DraculaRules()
    cards = cards or default_cards()
    board = board or default_board()
    first = 0 if rules.first_player == "dracula" else 1
    agenda: list[Step] = []
    for side in (0, 1):
        agenda += [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    agenda += [Step("choose", 0, 6), Step("choose", 1, 6)]
    agenda += [Step("deal", 0, loc) for loc in range(board.size)]
    agenda += [Step("start-turn", first)]
    hands = (tuple(sorted(cards.encounter_of(Side.DRACULA))),
             tuple(sorted(cards.encounter_of(Side.VAN_HELSING))))
    acts = (tuple(sorted(cards.action_of(Side.DRACULA))),
            tuple(sorted(cards.action_of(Side.VAN_HELSING))))
    empty_known: tuple[str | None, ...] = (None,) * board.size
    s = State(rules=rules, cards=cards, board=board, seed=seed, step=0, agenda=tuple(agenda),
              board_cards=(None,) * board.size, pos=(board.harbour, board.carriage_station),
              hand=hands, pool=(), enc_discard=((), ()), captured=((), ()),
              life=(board.life_markers, board.life_markers), current=((), ()), aside=((), ()),
              adiscard=acts, barriers=(None,) * len(COLOURS), known=(empty_known, empty_known))
    s = _log(s, f"New game (seed {seed}): Dracula at {board.label(board.harbour)}, Van Helsing "
                f"at {board.label(board.carriage_station)}, {board.life_markers} life markers each")
    return resolve_chance(_settle(s))


def resolve_chance(s: State) -> State:
    """Resolve pending chance steps with outcomes drawn from ``random.Random`` seeded by the
    state's seed and step counter (deterministic across processes)."""
    while not is_terminal(s) and current_player(s) == CHANCE:
        options = legal_actions(s)
        rng = random.Random(f"{s.seed}/{s.step}")
        s = apply(s, options[rng.randrange(len(options))])
    return s


# --------------------------------------------------------------------------- queries


def is_terminal(s: State) -> bool:
    """True once a side has won (dracula-en:end.proof, dracula-en:early-end.last-marker)."""
    return s.winner is not None


def winner(s: State) -> Side | None:
    """The winning side, or None while the game runs."""
    return None if s.winner is None else Side(s.winner)


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


def _gifts(s: State, side: int) -> list[Action]:
    if s.life[side] >= s.board.life_markers:
        return []
    return [GiveTarget(c) for c in s.hand[side] if _is_target(s, c)]


def _moves(s: State) -> list[int]:
    side = s.active
    here = s.pos[side]
    blocked = {e for e in s.barriers if e is not None}
    out = []
    for n in s.board.neighbours(here):
        if (min(here, n), max(here, n)) in blocked:
            continue
        if side == 0 and s.turned == n:
            continue
        out.append(n)
    return out


def _barrier_options(s: State, colours: tuple[str, ...]) -> list[Action]:
    out: list[Action] = []
    for colour in colours:
        ci = COLOURS.index(colour)
        others = [e for i, e in enumerate(s.barriers) if i != ci and e is not None]
        for edge in s.board.edges:
            if edge == s.barriers[ci] or edge in others:
                continue
            if barrier_violation(s.board, [*others, edge], s.rules.barrier_adjacency) is None:
                out.append(PlaceBarrier(colour, edge))
    return out


def _special_options(s: State) -> list[Action]:
    sp = _special(s)
    side = s.active
    if sp == "composure":
        mine = s.cards.act
        return [TakeBack(c) for c in sorted((*s.aside[side], *s.adiscard[side]))
                if mine(c).special != "composure"]
    if sp == "resistance":
        return [TurnCard(loc) for loc in range(s.board.size)]
    if sp == "wings-of-night":
        return [Fly(loc) for loc in range(s.board.size)
                if loc != s.pos[0] and loc != s.turned]
    if sp == "pulse" or (sp == "reinforcement" and s.rules.reinforcement == "move-and-hunter"):
        return [Recall(c) for c in s.enc_discard[side]]
    if sp == "depths-of-night":
        if s.rules.depths == "known-own-only":
            return [Depths(loc) for loc in range(s.board.size)
                    if s.board_cards[loc] is not None and s.known[0][loc] == s.board_cards[loc]
                    and s.cards.enc(s.board_cards[loc] or "").owner is Side.DRACULA]
        return [Depths(loc) for loc in range(s.board.size) if s.board_cards[loc] is not None]
    if sp == "roar":
        figs = [Roar(Side.VAN_HELSING)]
        if s.turned != s.board.harbour:
            figs.insert(0, Roar(Side.DRACULA))
        return list(figs)
    return []


def legal_actions(s: State) -> tuple[Action, ...]:
    """The legal actions of the side to move (or chance outcomes), in a deterministic order.

    Clauses: dracula-en:move.orthogonal, dracula-en:pay.no-crossing, dracula-en:move.revisit,
    dracula-en:move.look-choice, dracula-en:move.start-location, dracula-en:move.minimum,
    dracula-en:meet.allowed, dracula-en:pay.one-card, dracula-en:pay.end-of-move,
    dracula-en:pay.hand-limit, dracula-en:barriers.colour, dracula-en:barriers.grey,
    dracula-en:pay.barrier-first, dracula-en:special.vigilance, dracula-en:special.resistance.
    """
    if s.winner is not None or not s.agenda:
        return ()
    head = s.agenda[0]
    k = head.kind
    side = head.player
    out: list[Action] = []
    if k == "choose":
        return tuple(ChooseCard(c) for c in s.hand[side])
    if k == "draw-action":
        return tuple(ChanceOutcome(c) for c in s.adiscard[side])
    if k == "deal":
        return tuple(ChanceOutcome(c) for c in sorted(set(s.pool)))
    if k == "deception-draw":
        return tuple(ChanceOutcome(c) for c in s.hand[0])
    if k == "move":
        moves = _moves(s)
        blocked_on = s.rules.no_look_ends_move and s.can_look and s.steps > 0
        if not blocked_on:
            out += [Move(n) for n in moves]
        if s.can_look:
            out.append(Look())
        if s.steps >= 1 or not moves:
            out.append(Stop())
        out += _gifts(s, side)
        return tuple(out)
    if k == "meet":
        return (Meet(True), Meet(False))
    if k in ("place", "depths-place"):
        return tuple(Place(c) for c in s.hand[side])
    if k == "pay":
        blocked = side == 0 and s.vigilance
        for c in s.current[side]:
            out.append(PlayCard(c, False))
            if s.cards.act(c).special is not None and not blocked:
                out.append(PlayCard(c, True))
        out += _gifts(s, side)
        return tuple(out)
    if k == "rescue":
        return (*[GiveTarget(c) for c in s.hand[side] if _is_target(s, c)], Accept())
    if k == "special-choice":
        return tuple(_special_options(s))
    if k == "barrier":
        out = _barrier_options(s, head.colours)
        if s.rules.barrier_optional or not out:
            out.append(SkipBarrier())
        return tuple(out)
    return ()


# --------------------------------------------------------------------------- apply


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


def apply(s: State, a: Action) -> State:
    """The successor state after action ``a``.

    Raises:
        IllegalAction: if ``a`` is not in :func:`legal_actions` (``s`` is untouched); the
            clause ids name the rule that forbids it.
    """
    if a not in legal_actions(s):
        raise _illegal(s, a)
    s = replace(s, step=s.step + 1)
    head = s.agenda[0]
    side = head.player
    if isinstance(a, GiveTarget):
        s = _give(s, side, a.card)
        if s.winner is None and head.kind == "rescue":
            s = _push(s, Step("loss", side, head.n))
        return _settle(s)
    if isinstance(a, ChanceOutcome):
        s = _chance(s, head, a.item)
    elif isinstance(a, ChooseCard):
        s = replace(s, hand=_remove(s.hand, side, a.card), pool=tuple(sorted((*s.pool, a.card))))
        s = _private(s, side, f"{_name(side)} secretly chooses {a.card} for the board",
                     f"{_name(side)} chooses a card")
        s = _push(s, Step("choose", side, head.n - 1)) if head.n > 1 else _pop(s)
    elif isinstance(a, Move):
        s = _move(s, a.to)
    elif isinstance(a, Look):
        s = _look(s)
    elif isinstance(a, Stop):
        s = _log(s, f"{_name(side)} ends the move after {s.steps} step(s)")
        s = _push(s, Step("pay", side))
    elif isinstance(a, Meet):
        s = _pop(_meet(s, a.reveal))
    elif isinstance(a, Place):
        s = _pop(_place(s, side, head.n, a.card))
    elif isinstance(a, PlayCard):
        s = _play(s, a.card, a.special)
    elif isinstance(a, Accept):
        s = _log(s, f"{_name(side)} gives up the last life marker")
        s = _win(replace(s, life=_pair(s.life, side, 0)), 1 - side,
                 f"{_name(side)} lost the last life marker (dracula-en:early-end.last-marker)")
    elif isinstance(a, PlaceBarrier):
        s = _pop(_barrier(s, side, a.colour, a.edge))
    elif isinstance(a, SkipBarrier):
        s = _pop(_log(s, f"{_name(side)} leaves the barriers where they are"))
    else:
        s = _do_special(_pop(s), a)
    return _settle(s)


def _chance(s: State, head: Step, item: str) -> State:
    """Chance outcomes: action-card draws (dracula-en:setup.action-cards, dracula-en:cards.cycle),
    the deal of the twelve chosen cards (dracula-en:setup.deal), Deception's random draw."""
    side = head.player
    if head.kind == "draw-action":
        s = replace(s, adiscard=_remove(s.adiscard, side, item),
                    current=_add(s.current, side, item))
        s = _private(s, side, f"{_name(side)} draws action card {s.cards.act(item).name}",
                     f"{_name(side)} draws an action card")
    elif head.kind == "deal":
        pool = list(s.pool)
        pool.remove(item)
        s = replace(s, pool=tuple(pool), board_cards=_put(s, head.n, item))
        s = _log(s, f"{item} is dealt face down to {s.board.label(head.n)}",
                 f"a card is dealt face down to {s.board.label(head.n)}",
                 f"a card is dealt face down to {s.board.label(head.n)}")
    else:  # deception-draw (dracula-en:special.deception)
        s = _deception(s, item)
        return s
    return _pop(s)


def _give(s: State, side: int, card: str) -> State:
    """dracula-en:early-end.give-target: the card counts as won by the opponent."""
    other = 1 - side
    life = life_after_gift(s.life[side], s.board.life_markers)
    s = replace(s, hand=_remove(s.hand, side, card), captured=_add(s.captured, other, card),
                life=_pair(s.life, side, life))
    s = _log(s, f"{_name(side)} gives {card} to {_name(other)} and takes back life markers "
                f"(now {life})")
    return _check_captures(s, other)


def _move(s: State, to: int) -> State:
    """One step (dracula-en:move.orthogonal, dracula-en:move.revisit, dracula-en:meet.allowed,
    dracula-en:empty.fill)."""
    side = s.active
    s = replace(s, pos=_pair(s.pos, side, to), steps=s.steps + 1,
                can_look=s.board_cards[to] is not None)
    s = _log(s, f"{_name(side)} moves to {s.board.label(to)} (step {s.steps})")
    front: list[Step] = []
    if s.pos[1 - side] == to:
        front.append(Step("meet", side, to))
    if s.board_cards[to] is None:
        front.append(Step("place", side, to))
    return _push_front(s, *front)


def _look(s: State) -> State:
    """dracula-en:look.own-card (a bluff is placing the same card back,
    dracula-en:example.own-swap) and dracula-en:look.opponent-card (any opposing card ends the
    move, dracula-en:example.enemy-ends-move)."""
    side = s.active
    loc = s.pos[side]
    card = s.board_cards[loc]
    assert card is not None
    owner = int(s.cards.enc(card).owner)
    where = s.board.label(loc)
    if owner == side:
        s = replace(s, hand=_add(s.hand, side, card), board_cards=_put(s, loc, None),
                    can_look=False)
        s = _private(s, side, f"{_name(side)} looks at {where}: own card {card}, taken into hand",
                     f"{_name(side)} looks at {where}: an own card, taken into hand")
        return _push_front(s, Step("place", side, loc))
    s = replace(s, revealed=loc, can_look=False, known=_know(s, side, loc, card))
    s = replace(s, known=_know(s, 1 - side, loc, card))
    s = _log(s, f"{_name(side)} looks at {where} and reveals {_describe(s, card)}; the move ends "
                f"(dracula-en:look.opponent-card)")
    return _push(s, Step("pay", side))


def _describe(s: State, card: str) -> str:
    c = s.cards.enc(card)
    if c.kind is Kind.ENEMY:
        return f"{card} (strength {c.strength})"
    return card


def _meet(s: State, reveal: bool) -> State:
    """dracula-en:meet.reveal-hands, dracula-en:end.hand-proof, dracula-en:end.simultaneous;
    afterwards the mover still decides whether to look (dracula-en:meet.still-look)."""
    side = s.active
    if not reveal:
        return _log(s, f"{_name(side)} meets {_name(1 - side)} and does not ask to see hands")
    d, h = s.hand
    s = _log(s, f"{_name(side)} meets {_name(1 - side)}: hands shown. Dracula: "
                f"{', '.join(d) or '-'}; Van Helsing: {', '.join(h) or '-'}",
             f"hands shown at the meeting; Van Helsing's hand: {', '.join(h) or '-'}",
             f"hands shown at the meeting; Dracula's hand: {', '.join(d) or '-'}")
    for finder in (side, 1 - side):
        if hand_proves(s, finder):
            return _win(s, finder, "all remaining targets seen in the opponent's hand "
                                   "(dracula-en:end.hand-proof)")
    return s


def _place(s: State, side: int, loc: int, card: str) -> State:
    s = replace(s, hand=_remove(s.hand, side, card), board_cards=_put(s, loc, card))
    s = replace(s, known=_know(s, side, loc, card))
    s = replace(s, known=_know(s, 1 - side, loc, None))
    return _private(s, side, f"{_name(side)} lays {card} face down at {s.board.label(loc)}",
                    f"{_name(side)} lays a card face down at {s.board.label(loc)}")


def _play(s: State, card: str, special: bool) -> State:
    """Pay the move (dracula-en:move.pay, dracula-en:pay.overpay, dracula-en:cards.discard,
    dracula-en:pay.then-functions, dracula-en:cards.play-after-move)."""
    side = s.active
    c = s.cards.act(card)
    s = replace(s, current=_remove(s.current, side, card), adiscard=_add(s.adiscard, side, card),
                played=card, use_special=special)
    owed = overpay(s.steps, c.move)
    strength = str(c.strength) if c.strength else "none"
    s = _log(s, f"{_name(side)} plays {c.name} (move {c.move}, strength {strength}, bar {c.bar})"
                + (" using its special action" if special else "")
                + (f"; {owed} step(s) over its move number" if owed else ""))
    rest = [Step("resolve", side), Step("special", side), Step("barrier-choice", side),
            Step("end-turn", side)]
    if owed:
        rest.insert(0, Step("loss", side, owed))
    return _push(s, *rest)


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
    k = head.kind
    side = head.player
    if k == "set-aside":
        return _pop(replace(s, aside=_set(s.aside, side, s.adiscard[side]),
                            adiscard=_set(s.adiscard, side, ())))
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
    s = replace(s, turn=s.turn + 1, active=side, steps=0, can_look=False, revealed=None,
                played=None, use_special=False, battle_won=False)
    if side == 1 and s.turned is not None:
        s = _log(s, f"Van Helsing turns the card at {s.board.label(s.turned)} back")
        s = replace(s, turned=None)
    s = _log(s, f"--- turn {s.turn}: {_name(side)} at {s.board.label(s.pos[side])}, life markers "
                f"Dracula {s.life[0]}, Van Helsing {s.life[1]}")
    return _push_front(s, Step("move", side))


def _loss(s: State, side: int, n: int) -> State:
    """Lose ``n`` life markers (dracula-en:power.last-marker, dracula-en:early-end.last-marker),
    offering the target gift first when the last marker is at stake
    (dracula-en:early-end.give-target)."""
    life = s.life[side]
    if life - n > 0:
        s = replace(s, life=_pair(s.life, side, life - n))
        return _pop(_log(s, f"{_name(side)} loses {n} life marker(s), {life - n} left"))
    can_give = life < s.board.life_markers and any(_is_target(s, c) for c in s.hand[side])
    if can_give:
        return _push(s, Step("rescue", side, n))
    s = replace(s, life=_pair(s.life, side, 0))
    s = _log(s, f"{_name(side)} loses {n} life marker(s), none left")
    return _win(s, 1 - side, f"{_name(side)} lost the last life marker "
                             "(dracula-en:early-end.last-marker)")


def _bonus(s: State, card: str) -> int:
    """Breath of Night: +1 to vampires Van Helsing meets in the turn after it was played
    (dracula-en:special.breath-of-night)."""
    c = s.cards.enc(card)
    if s.active == 1 and c.owner is Side.DRACULA and s.breath_turn == s.turn:
        return 1
    return 0


def _resolve(s: State) -> State:
    """Deal with the revealed card (dracula-en:target.capture, dracula-en:enemy.fight,
    dracula-en:enemy.win, dracula-en:enemy.lose, dracula-en:enemy.draw,
    dracula-en:power.lose-life, dracula-en:power.exception, dracula-en:power.replace,
    dracula-en:special.inspiration, dracula-en:special.dark-of-night, dracula-en:empty.battle,
    dracula-en:cards.battle-uses-strength)."""
    if s.revealed is None:
        return s
    side = s.active
    loc = s.revealed
    card = s.board_cards[loc]
    assert card is not None
    s = replace(s, revealed=None)
    where = s.board.label(loc)
    sp = _special(s)
    ec = s.cards.enc(card)
    if sp == "inspiration":
        return _log(s, f"Inspiration: {card} at {where} is ignored and turned face down")
    if ec.kind is Kind.TARGET:
        s = replace(s, board_cards=_put(s, loc, None), captured=_add(s.captured, side, card),
                    known=_know(s, side, loc, None))
        s = replace(s, known=_know(s, 1 - side, loc, None))
        s = _log(s, f"{_name(side)} takes target {card} from {where} "
                    f"({len(s.captured[side])} of 5)")
        s = _check_captures(s, side)
        if s.winner is not None:
            return s
        return _push_front(s, Step("place", side, loc))
    if ec.kind is Kind.ENEMY:
        assert s.played is not None
        mine = s.cards.act(s.played).strength
        bonus = _bonus(s, card)
        enemy = ec.strength + bonus
        won, lost = battle(mine, enemy)
        extra = " (+1 Breath of Night)" if bonus else ""
        if won:
            s = replace(s, board_cards=_put(s, loc, None), battle_won=True,
                        enc_discard=_add(s.enc_discard, int(ec.owner), card),
                        known=_know(s, side, loc, None))
            s = replace(s, known=_know(s, 1 - side, loc, None))
            s = _log(s, f"Battle at {where}: strength {mine} beats {card} ({enemy}{extra}); "
                        f"{card} goes to the discard pile")
            return _push_front(s, Step("place", side, loc))
        if lost:
            s = _log(s, f"Battle at {where}: strength {mine} loses to {card} ({enemy}{extra}); "
                        f"the card is turned face down again")
            return _push_front(s, Step("loss", side, 1))
        return _log(s, f"Battle at {where}: strength {mine} draws with {card} ({enemy}{extra}); "
                       f"the card stays face down")
    # power symbol
    if side == 0 and sp == s.rules.crucifix_exception:
        return _log(s, f"{card} at {where}: no life marker lost thanks to "
                       f"{s.cards.act(s.played or '').name} (option crucifix_exception)")
    s = _log(s, f"{card} at {where}: {_name(side)} loses a life marker; the card goes back face "
                "down")
    return _push_front(s, Step("loss", side, 1))


def _auto_special(s: State) -> State:
    """Specials without a choice, or skip the special step (dracula-en:empty.special-timing,
    dracula-en:special.rebellion, dracula-en:special.perception, dracula-en:special.deception,
    dracula-en:special.reinforcement, dracula-en:special.vigilance,
    dracula-en:special.breath-of-night, dracula-en:special.whisper-of-night)."""
    sp = _special(s)
    if s.played is not None and s.cards.act(s.played).special is not None and not s.use_special:
        s = _log(s, f"{_name(s.active)} does not use the special action")
    if sp in (None, "inspiration", "dark-of-night", "eyes", "rebellion"):
        return _pop(s)
    if sp == "perception":
        d = ", ".join(s.hand[0]) or "-"
        s = _log(s, f"Perception: Van Helsing looks at Dracula's hand: {d}",
                 "Perception: Van Helsing looks at Dracula's hand", f"Perception: Dracula's hand: {d}")
        if hand_proves(s, 1):
            return _win(s, 1, "all remaining coffins seen in Dracula's hand "
                              "(dracula-en:special.perception, dracula-en:end.hand-proof)")
        return _pop(s)
    if sp == "deception":
        return _push(s, Step("deception-draw", 1))
    if sp == "vigilance":
        return _pop(_log(replace(s, vigilance=True), "Vigilance: Dracula's next special action "
                                                     "is blocked"))
    if sp == "breath-of-night":
        return _pop(_log(replace(s, breath_turn=s.turn + 1),
                         "Breath of Night: vampires are 1 stronger in Van Helsing's next turn"))
    if sp == "whisper-of-night":
        return _pop(_log(replace(s, whisper_turn=s.turn + 1),
                         "Whisper of Night: Van Helsing may not place or move a barrier in his "
                         "next turn"))
    if sp == "reinforcement":
        cs = s.board.carriage_station
        s = replace(s, pos=_pair(s.pos, 1, cs))
        s = _log(s, f"Reinforcement: Van Helsing returns to {s.board.label(cs)}")
        if s.rules.reinforcement == "move-and-hunter" and s.enc_discard[1]:
            return _push(s, Step("special-choice", 1))
        return _pop(s)
    if _special_options(s):
        return _push(s, Step("special-choice", s.active))
    return _pop(_log(s, f"{s.cards.act(s.played or '').name}: nothing to do"))


def _do_special(s: State, a: Action) -> State:
    """Specials with a choice (dracula-en:special.composure, dracula-en:special.resistance,
    dracula-en:special.wings-of-night, dracula-en:special.depths-of-night; Pulse and Roar from
    the player aid)."""
    side = s.active
    if isinstance(a, TakeBack):
        aside = list(s.aside[side])
        if a.card in aside:
            s = replace(s, aside=_remove(s.aside, side, a.card))
        else:
            s = replace(s, adiscard=_remove(s.adiscard, side, a.card))
        s = replace(s, current=_add(s.current, side, a.card))
        return _log(s, f"Composure: Van Helsing takes {s.cards.act(a.card).name} back into his "
                       "current cards")
    if isinstance(a, Recall):
        s = replace(s, enc_discard=_remove(s.enc_discard, side, a.card),
                    hand=_add(s.hand, side, a.card))
        return _log(s, f"{_name(side)} takes {a.card} back from the discard pile into the hand")
    if isinstance(a, TurnCard):
        s = replace(s, turned=a.loc)
        return _log(s, f"Resistance: Van Helsing turns the card at {s.board.label(a.loc)}; "
                       "Dracula may not go there")
    if isinstance(a, Fly):
        s = replace(s, pos=_pair(s.pos, 0, a.loc))
        return _log(s, f"Wings of Night: Dracula flies to {s.board.label(a.loc)} without "
                       "looking there")
    if isinstance(a, Roar):
        s = replace(s, pos=_pair(s.pos, int(a.figure), s.board.harbour))
        return _log(s, f"Roar: {a.figure.label}'s figure is put into the harbour")
    if isinstance(a, Depths):
        card = s.board_cards[a.loc]
        assert card is not None
        where = s.board.label(a.loc)
        if s.cards.enc(card).owner is Side.DRACULA:
            s = replace(s, hand=_add(s.hand, 0, card), board_cards=_put(s, a.loc, None))
            s = _private(s, 0, f"Depths of Night: Dracula takes his {card} from {where}",
                         f"Depths of Night: Dracula takes a card from {where}")
            return _push_front(s, Step("depths-place", 0, a.loc))
        s = replace(s, known=_know(s, 0, a.loc, card))
        return _private(s, 0, f"Depths of Night: Dracula looks at {where}: {card}, not his; "
                              "put back", f"Depths of Night: Dracula looks at the card at {where}")
    raise AssertionError(f"unexpected special action {a}")


def _deception(s: State, card: str) -> State:
    """dracula-en:special.deception (with dracula-en:special.breath-of-night)."""
    s = _pop(s)
    ec = s.cards.enc(card)
    if ec.kind is Kind.TARGET:
        s = replace(s, hand=_remove(s.hand, 0, card), captured=_add(s.captured, 1, card))
        s = _log(s, f"Deception: Van Helsing draws {card} from Dracula's hand and keeps it")
        return _check_captures(s, 1)
    if ec.kind is Kind.POWER:
        s = _log(s, f"Deception: Van Helsing draws the {card}; it goes back, he loses a life "
                    "marker")
        return _push_front(s, Step("loss", 1, 1))
    bonus = _bonus(s, card)
    n = deception_loss(ec.strength, bonus)
    s = _log(s, f"Deception: Van Helsing draws {card} (strength {ec.strength + bonus}); it goes "
                f"back" + ("; he loses a life marker" if n else "; no effect"))
    return _push_front(s, Step("loss", 1, n)) if n else s


def _barrier_step(s: State) -> State:
    """Which barrier operations the played card allows (dracula-en:barriers.colour,
    dracula-en:barriers.grey, dracula-en:empty.barrier-ends-turn; Eyes from the player aid;
    Whisper of Night blocks Van Helsing's barrier, dracula-en:special.whisper-of-night)."""
    side = s.active
    if side == 1 and s.whisper_turn == s.turn:
        return _log(s, "Whisper of Night: Van Helsing may not place or move a barrier this turn")
    assert s.played is not None
    c = s.cards.act(s.played)
    if _special(s) == "eyes":
        others = tuple(x for x in COLOURS if x != "yellow")
        return _push_front(s, Step("barrier", side, 0, ("yellow",)),
                           Step("barrier", side, 1, others))
    colours = COLOURS if c.bar == "grey" else (c.bar,)
    return _push_front(s, Step("barrier", side, 0, colours))


def _barrier(s: State, side: int, colour: str, edge: Edge) -> State:
    ci = COLOURS.index(colour)
    verb = "places" if s.barriers[ci] is None else "moves"
    b = list(s.barriers)
    b[ci] = edge
    s = replace(s, barriers=tuple(b))
    return _log(s, f"{_name(side)} {verb} the {colour} barrier to {edge_name(edge)}")


def _end_turn(s: State) -> State:
    """Action-card cycle (dracula-en:cards.cycle), Vigilance bookkeeping and the next player
    (dracula-en:play.alternate, dracula-en:special.rebellion)."""
    side = s.active
    steps: list[Step] = []
    if not s.current[side]:
        if s.aside[side]:
            s = replace(s, current=_set(s.current, side, s.aside[side]),
                        aside=_set(s.aside, side, ()))
            s = _log(s, f"{_name(side)} takes up the five set-aside action cards")
        else:
            s = _log(s, f"{_name(side)} shuffles all action cards and draws five")
            steps = [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    if side == 0 and s.vigilance:
        used = s.played is not None and s.cards.act(s.played).special is not None
        if s.rules.vigilance_scope == "next-turn" or used:
            s = replace(s, vigilance=False)
    nxt = 1 - side
    if side == 1 and _special(s) == "rebellion" and (
            s.rules.rebellion_extra_turn == "always" or s.battle_won):
        nxt = 1
        s = _log(s, "Rebellion: Dracula misses his turn; Van Helsing moves again")
    return _push_front(s, *steps, Step("start-turn", nxt))


def custom_start(rules: DraculaRules, cards: CardSet, board: Board, *,
                 board_cards: tuple[str | None, ...], to_move: int,
                 pos: tuple[int, int] | None = None, life: tuple[int, int] | None = None,
                 captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 enc_discard: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 current: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
                 barriers: tuple[Edge | None, ...] | None = None, breath: bool = False,
                 whisper: bool = False, vigilance: bool = False, turned: int | None = None,
                 seed: int = 0) -> State:
    """A position given explicitly (for scenarios), at the start of ``to_move``'s turn.

    Hands are the owner's cards that are neither on the board, nor won by the opponent, nor on
    the discard pile; non-current action cards are set aside. ``breath``/``whisper`` make those
    effects act in this first turn. Raises ValueError on an inconsistent position.
    """
    used: list[str] = [c for c in board_cards if c is not None]
    used += [*captured[0], *captured[1], *enc_discard[0], *enc_discard[1]]
    if len(used) != len(set(used)):
        raise ValueError("an encounter card appears twice in the position")
    for c in used:
        cards.enc(c)
    hands = tuple(tuple(sorted(c for c in cards.encounter_of(side) if c not in used))
                  for side in (Side.DRACULA, Side.VAN_HELSING))
    if current is None:
        current = (cards.action_of(Side.DRACULA)[:5], cards.action_of(Side.VAN_HELSING)[:5])
    for side in (0, 1):
        for c in current[side]:
            if int(cards.act(c).owner) != side:
                raise ValueError(f"action card {c} does not belong to {_name(side)}")
    aside = tuple(tuple(sorted(c for c in cards.action_of(Side(side)) if c not in current[side]))
                  for side in (0, 1))
    barrier_list = barriers if barriers is not None else (None,) * len(COLOURS)
    placed = [e for e in barrier_list if e is not None]
    if barrier_violation(board, placed, rules.barrier_adjacency) is not None:
        raise ValueError("the barriers of the position break the barrier rules")
    empty_known: tuple[str | None, ...] = (None,) * board.size
    s = State(rules=rules, cards=cards, board=board, seed=seed, step=0,
              agenda=(Step("start-turn", to_move),), board_cards=tuple(board_cards),
              pos=pos or (board.harbour, board.carriage_station),
              hand=(hands[0], hands[1]), pool=(), enc_discard=enc_discard, captured=captured,
              life=life or (board.life_markers, board.life_markers),
              current=(tuple(sorted(current[0])), tuple(sorted(current[1]))),
              aside=(aside[0], aside[1]), adiscard=((), ()), barriers=tuple(barrier_list),
              known=(empty_known, empty_known), breath_turn=1 if breath else -1,
              whisper_turn=1 if whisper else -1, vigilance=vigilance, turned=turned)
    return _settle(_log(s, "Scenario start position"))
