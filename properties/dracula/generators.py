"""Dracula's tables for the question generators over structure (capability ``"generators"``,
:data:`GENERATORS`; the searches are :mod:`ruleproof.properties.discovery.generators`).

* **endings** and **orders**: the fifth target found on a move that also costs the last life
  marker. The text takes the target when the card is revealed (dracula-en:target.capture,
  dracula-en:target.all-five) and the life markers when the move is paid
  (dracula-en:pay.overpay); the engine pays first, so the player loses. The other reading's
  successor resolves the revealed card before the payment's loss. Both players proving at a
  meeting is settled by dracula-en:end.simultaneous (its other reading is killed).
* **totals**: life markers, encounter and action cards per side against the components
  (dracula-en:contents.components); two life markers taken back past four; Deception with no
  card in Dracula's hand.
* **chains**: a special action (Wings of Night, Roar, Reinforcement) that puts a figure onto
  the other figure's location (is that a meeting, dracula-en:meet.reveal-hands?) or onto an
  empty location (does the figure lay a card there, dracula-en:empty.fill?).
* **combinations**: two players, one preset, no expansion (dracula-en:setup.roles).
* **visibility**: what dracula-en says about who sees each part of the state.

The targeted policies play with the whole state in view: :func:`last_target_last_marker`
(both sides pick their targets for the board, hunt the opponent's, and with four found walk
on past any card's move number before taking the fifth), :func:`gift_hungry` (overpay, then
buy life markers back with targets), :func:`special_hungry` (use every special action, fly or
roar onto the other figure).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ruleproof.model.dracula.data import Kind
from ruleproof.model.dracula.engine import (
    Accept,
    ChooseCard,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlayCard,
    Roar,
    SkipBarrier,
    State,
    Step,
    Stop,
    TakeBack,
    TurnCard,
)
from ruleproof.properties.contracts.games import RuleSet
from ruleproof.properties.discovery.generators import (
    Combination,
    Count,
    Field,
    Policy,
    Question,
    View,
)


def _head(s: State) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _pick(legal: Sequence[Any], rng: random.Random, wanted: Sequence[Any]) -> Any:
    choice = [a for a in wanted if a in legal]
    return choice[rng.randrange(len(choice))] if choice else legal[rng.randrange(len(legal))]


def _kind(s: State, card: str | None) -> Kind | None:
    return None if card is None else s.cards.enc(card).kind


def _owner(s: State, card: str) -> int:
    return int(s.cards.enc(card).owner)


def _distances(s: State, start: int, side: int) -> dict[int, int]:
    """Steps from ``start`` to every location the figure of ``side`` can reach."""
    blocked = {e for e in s.barriers if e is not None}
    seen = {start: 0}
    todo = deque([start])
    while todo:
        loc = todo.popleft()
        for n in s.board.neighbours(loc):
            if n in seen or (min(loc, n), max(loc, n)) in blocked:
                continue
            if side == 0 and n == s.turned:
                continue
            seen[n] = seen[loc] + 1
            todo.append(n)
    return seen


# ----------------------------------------------------------------------------- policies


def last_target_last_marker(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Steer toward the fifth target found on a move that costs the last life marker (see
    the module docstring)."""
    head = _head(s)
    side = s.agenda[0].player if s.agenda else 0
    if head == "choose":
        mine = [a for a in legal if isinstance(a, ChooseCard)
                and _kind(s, a.card) is Kind.TARGET]
        return _pick(legal, rng, mine)
    if head == "meet":
        return _pick(legal, rng, [Meet(False)])
    if head in ("place", "depths-place"):
        return _pick(legal, rng, [a for a in legal if isinstance(a, Place)
                                  and _kind(s, a.card) is not Kind.TARGET])
    if head == "barrier":
        return _pick(legal, rng, [a for a in legal if isinstance(a, SkipBarrier)])
    if head == "rescue":
        return _pick(legal, rng, [a for a in legal if isinstance(a, Accept)])
    if head == "pay":
        cards = sorted((a for a in legal if isinstance(a, PlayCard) and not a.special),
                       key=lambda a: s.cards.act(a.card).move)
        if not cards:
            return legal[rng.randrange(len(legal))]
        last = len(s.captured[side]) == 4 and s.revealed is not None
        if last:
            return cards[0]  # the smallest move number: the most life markers owed
        fine = [a for a in cards if s.cards.act(a.card).move >= s.steps]
        return fine[-1] if fine else cards[-1]
    if head != "move":
        return legal[rng.randrange(len(legal))]
    here = s.pos[side]
    card = s.board_cards[here]
    target_here = (card is not None and _owner(s, card) != side
                   and _kind(s, card) is Kind.TARGET)
    found = len(s.captured[side])
    best = max((s.cards.act(c).move for c in s.current[side]), default=0)
    need = best + s.life[side] if found == 4 else 0
    if target_here and Look() in legal and s.steps >= need:
        return Look()
    moves = [a for a in legal if isinstance(a, Move)]
    if not moves:
        return _pick(legal, rng, [Stop()])
    targets = [loc for loc, c in enumerate(s.board_cards) if c is not None
               and _owner(s, c) != side and _kind(s, c) is Kind.TARGET]
    if not targets:
        return _pick(legal, rng, [Stop()] if s.steps else moves)
    if found < 4 and s.steps >= best:
        return _pick(legal, rng, [Stop()])
    dist = {m.to: _distances(s, m.to, side) for m in moves}
    goal = min(targets, key=lambda t: min(d.get(t, 99) for d in dist.values()))
    if found == 4 and s.steps + min(d.get(goal, 99) for d in dist.values()) + 1 < need:
        return moves[rng.randrange(len(moves))]  # walk on: the move must cost every marker
    return min(moves, key=lambda m: (dist[m.to].get(goal, 99), rng.random()))


def gift_hungry(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Hand targets over for life markers whenever allowed, and overpay to lose markers."""
    gifts = [a for a in legal if isinstance(a, GiveTarget)]
    if gifts:
        return gifts[rng.randrange(len(gifts))]
    if _head(s) == "pay":
        cards = sorted((a for a in legal if isinstance(a, PlayCard)),
                       key=lambda a: s.cards.act(a.card).move)
        if cards and s.life[s.active] > 1:
            return cards[0]
    return legal[rng.randrange(len(legal))]


def special_hungry(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Use every special action; fly or roar so that the figures meet, fly to empty
    locations."""
    head = _head(s)
    if head == "pay":
        return _pick(legal, rng, [a for a in legal if isinstance(a, PlayCard) and a.special])
    if head == "special-choice":
        meet: list[Any] = [a for a in legal if isinstance(a, Fly) and (a.loc == s.pos[1] or
                                                            s.board_cards[a.loc] is None)]
        meet += [a for a in legal if isinstance(a, Roar)
                 and s.pos[1 - int(a.figure)] == s.board.harbour]
        return _pick(legal, rng, meet)
    return legal[rng.randrange(len(legal))]


# ----------------------------------------------------------------------------- endings, orders


def _target_first(s: State, a: PlayCard) -> State:
    """The successor of paying with ``a`` when the revealed card is dealt with before the
    life markers the payment owes (the other reading of the pay step's order)."""
    from ruleproof.model.dracula.engine import _TRANSITIONS, _settle
    from ruleproof.model.dracula.state import _publish, _with

    t = _with(s, step=s.step + 1)
    t = _TRANSITIONS[PlayCard](t, t.agenda[0], a)
    kinds = [x.kind for x in t.agenda]
    if "loss" in kinds and "resolve" in kinds and kinds.index("loss") < kinds.index("resolve"):
        agenda = list(t.agenda)
        i, j = kinds.index("loss"), kinds.index("resolve")
        agenda[i], agenda[j] = agenda[j], agenda[i]
        t = _with(t, agenda=tuple(agenda))
    return _publish(_settle(t))


def _fifth_on_last_marker(s: State, a: Any) -> bool:
    if not (isinstance(a, PlayCard) and _head(s) == "pay" and s.revealed is not None):
        return False
    side = s.active
    card = s.board_cards[s.revealed]
    owed = max(0, s.steps - s.cards.act(a.card).move)
    return (card is not None and _owner(s, card) != side and _kind(s, card) is Kind.TARGET
            and len(s.captured[side]) == 4 and 0 < s.life[side] <= owed)


def _endings(s: State, a: Any, t: State) -> list[Question]:
    out: list[Question] = []
    if _fifth_on_last_marker(s, a):
        out.append(Question(
            "ending: the fifth target found on a move that costs the last life marker",
            "A player reveals the opponent's last target at the end of a move longer than the "
            "card he pays with allows, so the payment costs his last life marker: does he win "
            "(the target is taken when revealed) or lose (the payment comes first)?",
            ("he loses: the payment comes first (the model)",
             "he wins: the target is taken when it is revealed"),
            ("dracula-en:target.all-five", "dracula-en:pay.overpay",
             "dracula-en:power.last-marker", "dracula-en:pay.then-functions"),
            (("the target first", _target_first(s, a)),)))
    if isinstance(a, Meet) and a.reveal and t.winner is not None and _both_prove(s):
        out.append(Question(
            "ending: both players prove at a meeting",
            "Both players see all remaining targets in the other's hand: who wins?",
            ("the player whose turn it is (the model)", "the other player"),
            ("dracula-en:end.simultaneous", "dracula-en:end.hand-proof"),
            (("the other player wins", replace(t, winner=1 - t.winner)),)))
    return out


def _both_prove(s: State) -> bool:
    from ruleproof.model.dracula.engine import hand_proves

    return hand_proves(s, 0) and hand_proves(s, 1)


# A special action in time (dracula-en:empty.special-timing: some take effect at once, others
# on the opponent's following turn; each card's clause says what it does): special -> (the
# state fields its effect is recorded in, whether the successor shows the effect, the
# successor with the effect applied). The effect of a special resolved at the step the engine
# resolves it; the other reading's successor has it later (the fields as before), or, when the
# engine's successor does not show it, now.
_Effect = tuple[tuple[str, ...], Any, Any]


def _carriage(s: State, a: Any, t: State) -> State:
    return replace(t, pos=(t.pos[0], s.board.carriage_station))


_TIMED: dict[str, tuple[type | None, str, _Effect]] = {
    "vigilance": (
        None, "dracula-en:special.vigilance",
        (("vigilance",), lambda s, a, t: bool(t.vigilance),
         lambda s, a, t: replace(t, vigilance=True))),
    "breath-of-night": (
        None, "dracula-en:special.breath-of-night",
        (("breath_turn",), lambda s, a, t: t.breath_turn == t.turn + 1,
         lambda s, a, t: replace(t, breath_turn=t.turn + 1))),
    "whisper-of-night": (
        None, "dracula-en:special.whisper-of-night",
        (("whisper_turn",), lambda s, a, t: t.whisper_turn == t.turn + 1,
         lambda s, a, t: replace(t, whisper_turn=t.turn + 1))),
    "reinforcement": (
        None, "dracula-en:special.reinforcement",
        (("pos",), lambda s, a, t: t.pos[1] == s.board.carriage_station, _carriage)),
    "composure": (
        TakeBack, "dracula-en:special.composure",
        (("current", "aside", "adiscard"), lambda s, a, t: a.card in t.current[1],
         lambda s, a, t: replace(
             t, current=(t.current[0], tuple(sorted({*t.current[1], a.card}))),
             aside=(t.aside[0], tuple(c for c in t.aside[1] if c != a.card)),
             adiscard=(t.adiscard[0], tuple(c for c in t.adiscard[1] if c != a.card))))),
    "resistance": (
        TurnCard, "dracula-en:special.resistance",
        (("turned",), lambda s, a, t: t.turned == a.loc,
         lambda s, a, t: replace(t, turned=a.loc))),
    "wings-of-night": (
        Fly, "dracula-en:special.wings-of-night",
        (("pos",), lambda s, a, t: t.pos[0] == a.loc,
         lambda s, a, t: replace(t, pos=(a.loc, t.pos[1])))),
}
"""Roar and Pulse are left out: what they do at all is the register's question
(dracula.aid-only-specials)."""


def _special_steps(s: State) -> bool:
    return any(x.kind in ("special", "special-choice") for x in s.agenda)


def _timing(s: State, a: Any, t: State) -> list[Question]:
    """The special action resolved at this transition (by the card's payment, or by the
    choice it offers), asked the other way round in time: the effect later (as on the
    opponent's following turn) when the engine shows it now; now when it does not."""
    card = a.card if isinstance(a, PlayCard) and _head(s) == "pay" and a.special else \
        s.played if _head(s) == "special-choice" and s.use_special else None
    if card is None or t.winner is not None or t.turn != s.turn or _special_steps(t) or \
            t.played != card:
        return []
    sp = s.cards.act(card).special
    if sp not in _TIMED:
        return []
    kind, clause, (fields, shows, applied) = _TIMED[sp]
    if (kind is None) != isinstance(a, PlayCard) or \
            (kind is not None and not isinstance(a, kind)):
        return []
    name = s.cards.act(card).name
    clauses = (clause, "dracula-en:empty.special-timing",
               "dracula-en:pay.then-functions")
    readings = ("at once, when it is resolved", "on the opponent's following turn")
    if shows(s, a, t):
        later = replace(t, **{f: getattr(s, f) for f in fields})
        return [Question(
            f"order: when {name}'s special action takes effect",
            f"Some special actions take effect at once, others on the opponent's following "
            f"turn, and the text does not list which: does {name}'s take effect when it is "
            "played, or only later?", (f"{readings[0]} (the model)", readings[1]), clauses,
            (("later", later),))]
    return [Question(
        f"order: {name}'s special action resolved after its turn",
        f"The engine does not show {name}'s special action when it resolves it (the card is "
        f"played with its special and the step is over): does {name}'s special take effect "
        "at once, or on the opponent's following turn?",
        (f"{readings[1]} (the model)", readings[0]), clauses,
        (("at once", applied(s, a, t)),))]


def _orders(s: State, a: Any, t: State) -> list[Question]:
    timing = _timing(s, a, t)
    if not _fifth_on_last_marker(s, a):
        return timing
    return [*timing, Question(
        "order: the revealed card and the payment's life markers, which comes first",
        "After a move, is the revealed card dealt with before or after the life markers the "
        "payment owes (it decides the game when the card is the fifth target and the marker "
        "the last)?", ("the payment first (the model)", "the revealed card first"),
        ("dracula-en:pay.then-functions", "dracula-en:look.opponent-card",
         "dracula-en:pay.overpay"), (("the revealed card first", _target_first(s, a)),))]


# ----------------------------------------------------------------------------- totals


def _life_back(s: State, a: Any, t: State) -> list[Question]:
    if not isinstance(a, GiveTarget):
        return []
    side = s.agenda[0].player if s.agenda else s.active
    if s.life[side] + 2 <= s.board.life_markers or t.winner is not None:
        return []
    life = list(t.life)
    life[side] = s.life[side] + 2
    return [Question("total: life markers taken back past the four a player owns",
                     "A player with three life markers hands over a target and 'takes back two "
                     "life markers': does he have four or five?",
                     ("four: a player owns four markers (the model)", "five"),
                     ("dracula-en:early-end.give-target", "dracula-en:contents.components"),
                     (("five markers", replace(t, life=(life[0], life[1]))),))]


def _deception_empty(s: State, a: Any, t: State) -> list[Question]:
    if not (isinstance(a, PlayCard) and a.special and _head(s) == "pay"
            and s.cards.act(a.card).special == "deception" and not s.hand[0]):
        return []
    return [Question("total: Deception with no card in Dracula's hand",
                     "Van Helsing plays Deception while Dracula holds no encounter card: "
                     "nothing happens, or may he draw from somewhere else?",
                     ("nothing happens (the model)", "another card is drawn"),
                     ("dracula-en:special.deception", "dracula-en:empty.leave-empty"))]


def _encounter(s: State, side: int) -> int:
    """Where a side's encounter cards are: hand, board, the deal, its discard pile, won by the
    opponent."""
    mine = {c.id for c in s.cards.encounter if int(c.owner) == side}
    on_board = sum(1 for c in s.board_cards if c is not None and c in mine)
    return (len(s.hand[side]) + on_board + sum(c in mine for c in s.pool)
            + len(s.enc_discard[side]) + sum(c in mine for c in s.captured[1 - side]))


def _counts(rs: RuleSet) -> list[Count]:
    return [Count("life markers of a side", 4, lambda s: max(s.life),
                  "dracula-en:contents.components"),
            Count("encounter cards of a side", 15, lambda s: max(_encounter(s, 0),
                                                                 _encounter(s, 1)),
                  "dracula-en:setup.dracula-kit"),
            Count("action cards of a side", 10, lambda s: max(
                len(s.current[p]) + len(s.aside[p]) + len(s.adiscard[p]) for p in (0, 1)),
                "dracula-en:contents.components"),
            Count("targets won by a side", 5, lambda s: max(map(len, s.captured)),
                  "dracula-en:target.all-five")]


# ----------------------------------------------------------------------------- chains


def _chains(s: State, a: Any, t: State) -> list[Question]:
    if isinstance(a, Move) or t.winner is not None or _head(s) not in ("pay",
                                                                        "special-choice"):
        return []
    out: list[Question] = []
    side = s.active
    moved = [p for p in (0, 1) if t.pos[p] != s.pos[p]]
    if moved and t.pos[0] == t.pos[1] and s.pos[0] != s.pos[1] and _head(t) != "meet":
        alt = replace(t, agenda=(Step("meet", side, t.pos[0]), *t.agenda))
        out.append(Question(
            "chain: a special action puts both figures on one location",
            "A special action (Wings of Night, Roar, Reinforcement) brings a figure onto the "
            "location of the other: is that a meeting, at which the active player may have "
            "both hands shown?", ("no meeting (the model)", "a meeting"),
            ("dracula-en:meet.allowed", "dracula-en:meet.reveal-hands",
             "dracula-en:special.wings-of-night", "dracula-en:special.reinforcement"),
            (("a meeting", alt),)))
    for p in moved:
        loc = t.pos[p]
        if t.board_cards[loc] is None and s.hand[p]:
            alt = replace(t, agenda=(Step("place", p, loc), *t.agenda))
            out.append(Question(
                "chain: a special action brings a figure to an empty location",
                "A figure arrives at an empty location by a special action (Wings of Night, "
                "Roar, Reinforcement): does its player lay one of his cards there, as one "
                "who 'later comes to an empty location'?",
                ("no card is laid (the model)", "a card is laid"),
                ("dracula-en:empty.fill", "dracula-en:special.wings-of-night",
                 "dracula-en:special.reinforcement"), (("a card is laid", alt),)))
            break
    return out


# ----------------------------------------------------------------------------- visibility


def _unknown_cards(s: State, owner: int | None = None) -> list[int]:
    return [loc for loc, c in enumerate(s.board_cards) if c is not None
            and s.known[0][loc] != c and s.known[1][loc] != c
            and (owner is None or _owner(s, c) == owner)]


def _perturb_board(s: State, owner: int) -> State | None:
    locs = _unknown_cards(s)
    if len(locs) < 2:
        return None
    b = list(s.board_cards)
    x, y = locs[0], next((loc for loc in locs[1:] if b[loc] != b[locs[0]]), None) or locs[1]
    b[x], b[y] = b[y], b[x]
    return replace(s, board_cards=tuple(b))


def _perturb_hand(s: State, owner: int) -> State | None:
    locs = _unknown_cards(s, owner)
    if not s.hand[owner] or not locs:
        return None
    loc = locs[0]
    mine = s.hand[owner][0]
    board = s.board_cards[loc]
    assert board is not None
    hand = tuple(sorted((*s.hand[owner][1:], board)))
    b = list(s.board_cards)
    b[loc] = mine
    hands = (hand, s.hand[1]) if owner == 0 else (s.hand[0], hand)
    return replace(s, hand=hands, board_cards=tuple(b))


def _pair(t: tuple[Any, Any], side: int, value: Any) -> tuple[Any, Any]:
    return (value, t[1]) if side == 0 else (t[0], value)


def _perturb_current(s: State, owner: int) -> State | None:
    if not s.current[owner] or not s.aside[owner]:
        return None
    cur, aside = list(s.current[owner]), list(s.aside[owner])
    cur[0], aside[0] = aside[0], cur[0]
    return replace(s, current=_pair(s.current, owner, tuple(sorted(cur))),
                   aside=_pair(s.aside, owner, tuple(sorted(aside))))


def _perturb_played(s: State, owner: int) -> State | None:
    """A played card swapped with one of the same side's unplayed cards."""
    if not s.adiscard[owner]:
        return None
    pile = "aside" if s.aside[owner] else "current"
    other = list(getattr(s, pile)[owner])
    if not other:
        return None
    played = list(s.adiscard[owner])
    played[0], other[0] = other[0], played[0]
    s = replace(s, adiscard=_pair(s.adiscard, owner, tuple(sorted(played))))
    if pile == "aside":
        return replace(s, aside=_pair(s.aside, owner, tuple(sorted(other))))
    return replace(s, current=_pair(s.current, owner, tuple(sorted(other))))


def _perturb_life(s: State, owner: int) -> State | None:
    if s.life[owner] <= 1:
        return None
    return replace(s, life=_pair(s.life, owner, s.life[owner] - 1))


def _perturb_special(s: State, owner: int) -> State | None:
    if s.played is None or s.active != owner or s.cards.act(s.played).special is None:
        return None
    return replace(s, use_special=not s.use_special)


def _perturb_pos(s: State, owner: int) -> State | None:
    other = next(n for n in s.board.neighbours(s.pos[owner]))
    return replace(s, pos=_pair(s.pos, owner, other))


def _perturb_revealed(s: State, owner: int) -> State | None:
    if s.revealed is None or s.active != owner:
        return None
    loc = s.revealed
    card = s.board_cards[loc]
    assert card is not None
    others = [c.id for c in s.cards.encounter if c.owner == s.cards.enc(card).owner
              and c.kind is s.cards.enc(card).kind and c.id != card
              and c.id not in s.board_cards]
    if not others:
        return None
    b = list(s.board_cards)
    b[loc] = others[0]
    return replace(s, board_cards=tuple(b))


def fields(rs: RuleSet) -> list[Field]:
    """The parts of a Dracula state and what dracula-en says of who sees them."""
    src = "dracula-en"
    return [
        Field("an encounter card face down on the board", "Who sees a card dealt or laid face "
              "down on a location?", _perturb_board, {src: View("hidden", "dracula-en:"
                                                                          "setup.deal")},
              owned=False),
        Field("the encounter cards a player holds", "Who sees the cards of a hand?",
              _perturb_hand, {src: View("owner", "dracula-en:look.own-card")}),
        Field("the current action cards of a player", "Who sees a player's current action "
              "cards?", _perturb_current, {src: View("owner", "dracula-en:setup.action-cards")}),
        Field("the set-aside action cards of a player",
              "May a player look at his set-aside action cards? Composure lets Van Helsing "
              "'look at all of his action cards, played or set aside', as if that were not "
              "allowed otherwise.", _perturb_current, {},
              ("the owner (the model)", "nobody until they are taken up")),
        Field("the played action cards of a player (the discard pile)",
              "Who may look through a player's discard pile of action cards? The text only "
              "says a played card goes onto it; Composure lets Van Helsing look at his played "
              "cards, as if that were not allowed otherwise.", _perturb_played, {},
              ("both players (the model)", "nobody")),
        Field("the life markers of a player", "Who sees how many life markers a player has?",
              _perturb_life, {src: View("public", "dracula-en:setup.barriers-aside")}),
        Field("where a figure stands", "Who sees the figures?", _perturb_pos,
              {src: View("public", "dracula-en:setup.figures")}),
        Field("a revealed opposing card", "Who sees a card revealed at the end of a move?",
              _perturb_revealed, {src: View("public", "dracula-en:look.opponent-card")}),
        Field("whether the played card's special action is used",
              "Must a player let the opponent know whether he uses the special action of the "
              "card he plays (Breath of Night's stronger vampires, for one, show only later)?",
              _perturb_special, {}, ("announced to both (the model)",
                                     "known to the player alone until it shows")),
    ]


# ----------------------------------------------------------------------------- the capability


POLICIES: dict[str, tuple[tuple[str, Policy], ...]] = {
    "endings": (("last target on the last marker", last_target_last_marker),),
    "orders": (("last target on the last marker", last_target_last_marker),
               ("special hungry", special_hungry)),
    "totals": (("gift hungry", gift_hungry),),
    "chains": (("special hungry", special_hungry),),
}


@dataclass(frozen=True)
class _Generators:
    """Dracula's capability ``"generators"`` (see
    :class:`ruleproof.properties.discovery.generators.GeneratorTables`)."""

    def policies(self, generator: str) -> Sequence[tuple[str, Policy]]:
        return POLICIES.get(generator, ())

    def questions(self, generator: str, rs: RuleSet, state: Any, action: Any, nxt: Any
                  ) -> Sequence[Question]:
        if not isinstance(state, State) or not isinstance(nxt, State):
            return ()
        if generator == "endings":
            return _endings(state, action, nxt)
        if generator == "orders":
            return _orders(state, action, nxt)
        if generator == "totals":
            return [*_life_back(state, action, nxt), *_deception_empty(state, action, nxt)]
        if generator == "chains":
            return _chains(state, action, nxt)
        return ()

    def counts(self, rs: RuleSet) -> Sequence[Count]:
        return _counts(rs)

    def combination(self, preset: str, players: int, expansion: str | None) -> Combination:
        return Combination("", ("dracula-en:setup.roles",), "", ())

    def fields(self, rs: RuleSet) -> Sequence[Field]:
        return fields(rs)


GENERATORS = _Generators()
"""The capability ``"generators"`` of Dracula's plugin record."""


# ----------------------------------------------------------------------------- witnesses


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def witness(rs: RuleSet, f: Any, facts: Sequence[str] = ()) -> str:
    """A scenario file replaying finding ``f``'s witness (seeded deal, the actions before its
    state, the finding's action when the engine takes it), expecting the facts the engine ends
    in.

    Raises:
        ValueError: the witness does not replay.
    """
    from ruleproof.properties.contracts.games import game_of, parse
    from ruleproof.properties.dracula.contracts import settle
    from ruleproof.properties.dracula.scenarios import FACTS as DRACULA_FACTS
    from ruleproof.properties.scenarios import RunContext

    game = game_of(rs)
    state = settle(game.new_seeded_state(f.seed))
    actions = list(f.prefix)
    for text in actions:
        state = settle(state.apply_typed(parse(game, text)))
    note = ""
    if f.action:
        try:
            a = parse(game, f.action)
        except Exception:
            a = None
        if a is not None and a in state.legal_typed_actions():
            actions.append(f.action)
            state = settle(state.apply_typed(a))
            note = f"the engine takes '{f.action}'"
        else:
            note = f"the engine has no such move as '{f.action}' here (not played)"
    names = ("dracula", "van-helsing")
    lines = [f"# Witness found by `ruleproof ambiguities --discover` ({f.search}): {f.key}."]
    lines += [f"# {f.question}", f"# Readings: {'; '.join(f.readings)}."]
    if note:
        lines.append(f"# At the end of these actions {note}.")
    lines += ['game = "dracula"', f"title = {_toml(f.key)}",
              f"clauses = {_toml(sorted(f.clauses))}", f"actions = {_toml(actions)}", "",
              "[setup]", f"seed = {f.seed}", "", "[expect]"]
    ctx = RunContext(names, [], None)
    m = state.model
    for key in ("to_move", "pending", "winner", *facts):
        base, _dot, arg = key.partition(".")
        fact = DRACULA_FACTS[base]
        value = fact.value(m, None if not arg else names.index(arg), ctx)
        lines.append(f"{_toml(key)} = {_toml(value)}")
    return "\n".join(lines) + "\n"
