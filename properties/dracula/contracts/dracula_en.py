"""Contracts of dracula-en, the Dracula rulebook (Kosmos 2003), written from each clause's text.

States are :class:`ruleproof.model.dracula.State` (the agenda's head is the pending decision:
``move``, ``meet``, ``place``, ``pay``, ``barrier``...); a transition is one decision and the
automatic steps after it (a payment resolves the revealed card, the overpayment and the barrier
choice), before chance. Card values come from the card data (``spec/dracula/cards.toml``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ruleproof.model.dracula import State
from ruleproof.model.dracula.data import COLOURS, Kind
from ruleproof.model.dracula.engine import (
    Depths,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlaceBarrier,
    PlayCard,
    Stop,
    TakeBack,
    TurnCard,
)
from ruleproof.properties.contracts.core import Contract, ContractSet

S = State
A = Any


def head(s: S) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def side(s: S) -> int:
    return int(s.active)


def over(t: S) -> bool:
    return t.winner is not None


def _edge(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))


def _blocked(s: S) -> set[tuple[int, int]]:
    return {e for e in s.barriers if e is not None}


def _played(s: S, a: A) -> Any:
    return s.cards.act(a.card) if isinstance(a, PlayCard) else None


def _loc(s: S) -> int:
    """The location of the revealed card (only asked when one is revealed)."""
    assert s.revealed is not None
    return s.revealed


def _revealed(s: S) -> Any:
    if s.revealed is None:
        return None
    card = s.board_cards[_loc(s)]
    return s.cards.enc(card) if card is not None else None


def _special_used(s: S, a: A, name: str) -> bool:
    c = _played(s, a)
    return c is not None and a.special and c.special == name


def _paying(s: S, a: A) -> bool:
    return isinstance(a, PlayCard) and head(s) == "pay"


def _plain_resolution(s: S, a: A) -> Any:
    """The revealed card when paying resolves it normally (no Inspiration)."""
    if not _paying(s, a) or _special_used(s, a, "inspiration"):
        return None
    return _revealed(s)


def _later(t: S) -> bool:
    """The special action is still to come (a card is laid first)."""
    return any(x.kind in ("special", "special-choice") for x in t.agenda)


def _life_lost(s: S, t: S, who: int) -> int:
    return s.life[who] - t.life[who]


def _pending_loss(t: S, who: int) -> bool:
    return any(x.kind in ("loss", "rescue") and x.player == who for x in t.agenda)


# ----------------------------------------------------------------------------- moving


def _orthogonal_forbids(s: S, a: A) -> bool:
    return isinstance(a, Move) and a.to not in s.board.neighbours(s.pos[side(s)])


def _move_permits(s: S, a: A) -> bool:
    if not (isinstance(a, Move) and head(s) == "move"):
        return False
    here = s.pos[side(s)]
    return (a.to in s.board.neighbours(here) and _edge(here, a.to) not in _blocked(s)
            and not (side(s) == 0 and s.turned == a.to))


def _no_crossing(s: S, a: A) -> bool:
    return isinstance(a, Move) and _edge(s.pos[side(s)], a.to) in _blocked(s)


def _moved(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Move) and head(s) == "move"):
        return None
    return t.pos[side(s)] == a.to and t.steps == s.steps + 1


def _look_permits(s: S, a: A) -> bool:
    return isinstance(a, Look) and head(s) == "move" and s.steps > 0 and \
        s.board_cards[s.pos[side(s)]] is not None


def _start_location(s: S, a: A) -> bool:
    return isinstance(a, Look) and head(s) == "move" and s.steps == 0


def _minimum(s: S, a: A) -> bool:
    if not (isinstance(a, Stop) and head(s) == "move" and s.steps == 0):
        return False
    here = s.pos[side(s)]
    free = [n for n in s.board.neighbours(here) if _edge(here, n) not in _blocked(s)
            and not (side(s) == 0 and s.turned == n)]
    return bool(free)


def _pay_after(s: S, a: A, t: S) -> bool | None:
    """A paid card leaves the current cards for its owner's discard pile."""
    if not _paying(s, a):
        return None
    p = side(s)
    return a.card not in t.current[p] and (a.card in t.adiscard[p] or a.card in t.current[p]
                                           or a.card in t.aside[p] or bool(t.agenda))


def _meet_permits(s: S, a: A) -> bool:
    return isinstance(a, Meet) and head(s) == "meet"


def _meet_arises(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Move) and head(s) == "move") or over(t):
        return None
    if a.to == s.pos[1 - side(s)]:
        return head(t) == "meet"
    return head(t) != "meet"


def _still_look(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Meet) and head(s) == "meet") or over(t):
        return None
    return t.can_look == s.can_look


def _no_look(s: S, a: A, t: S) -> bool | None:
    """Not looking leaves the card where it lies, unseen."""
    if not (isinstance(a, Move | Stop) and head(s) == "move"):
        return None
    return t.board_cards == s.board_cards or head(t) == "place"


def _own_card(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Look) and head(s) == "move"):
        return None
    loc = s.pos[side(s)]
    card = s.board_cards[loc]
    if card is None or int(s.cards.enc(card).owner) != side(s):
        return None
    return card in t.hand[side(s)] and t.board_cards[loc] is None and head(t) == "place"


def _opponent_card(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Look) and head(s) == "move"):
        return None
    loc = s.pos[side(s)]
    card = s.board_cards[loc]
    if card is None or int(s.cards.enc(card).owner) == side(s):
        return None
    return t.revealed == loc and head(t) == "pay"


def _bluff_permits(s: S, a: A) -> bool:
    return isinstance(a, Place) and head(s) in ("place", "depths-place") and \
        a.card in s.hand[s.agenda[0].player]


# ----------------------------------------------------------------------------- resolution


def _capture(s: S, a: A, t: S) -> bool | None:
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.TARGET or over(t):
        return None  # (an overpayment that costs the last marker ends the game first)
    return c.id in t.captured[side(s)] and t.board_cards[_loc(s)] is None


def _all_five(s: S, a: A, t: S) -> bool:
    for p in (0, 1):
        if len(t.captured[p]) >= 5 and len(s.captured[p]) < 5:
            return t.winner == p
    return True


def _battle(s: S, a: A) -> tuple[int, int] | None:
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.ENEMY:
        return None
    if side(s) == 1 and s.breath_turn == s.turn:  # Breath of Night raises it (own contract)
        return None
    mine = s.cards.act(a.card).strength
    return mine, c.strength


def _fight(s: S, a: A, t: S) -> bool | None:
    b = _battle(s, a)
    if over(t) and b is not None:
        return None
    if b is None:
        return None
    return _fought(s, t, *b)


def _fought(s: S, t: S, mine: int, enemy: int) -> bool:
    """The battle at the mover's location came out as strengths ``mine`` against ``enemy``
    say: the enemy beaten and discarded, or it stays and (if stronger) costs a life marker."""
    p = side(s)
    loc = _loc(s)
    card = s.board_cards[loc]
    if mine > enemy:
        return card in t.enc_discard[1 - p] and t.board_cards[loc] != card
    lost = _life_lost(s, t, p) >= 1 or _pending_loss(t, p) or over(t)
    if mine < enemy:
        return t.board_cards[loc] == card and lost
    return t.board_cards[loc] == card


def _win_battle(s: S, a: A, t: S) -> bool | None:
    b = _battle(s, a)
    if over(t) and b is not None:
        return None
    if b is None or b[0] <= b[1]:
        return None
    card = s.board_cards[_loc(s)]
    return card is not None and card in t.enc_discard[1 - side(s)]


def _lose_battle(s: S, a: A, t: S) -> bool | None:
    b = _battle(s, a)
    if over(t) and b is not None:
        return None
    if b is None or b[0] >= b[1]:
        return None
    p = side(s)
    return t.board_cards[_loc(s)] == s.board_cards[_loc(s)] and (
        _life_lost(s, t, p) >= 1 or _pending_loss(t, p) or over(t))


def _draw_battle(s: S, a: A, t: S) -> bool | None:
    b = _battle(s, a)
    if over(t) and b is not None:
        return None
    if b is None or b[0] != b[1]:
        return None
    owed = max(0, s.steps - s.cards.act(a.card).move)
    return t.board_cards[_loc(s)] == s.board_cards[_loc(s)] and \
        _life_lost(s, t, side(s)) <= owed


def _power(s: S, a: A, t: S) -> bool | None:
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.POWER or over(t):
        return None
    if side(s) == 0 and s.cards.act(a.card).special == s.rules.crucifix_exception and a.special:
        return None
    p = side(s)
    return _life_lost(s, t, p) >= 1 or _pending_loss(t, p) or over(t)


def _power_exception(s: S, a: A, t: S) -> bool | None:
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.POWER or side(s) != 0:
        return None
    if not (a.special and s.cards.act(a.card).special == s.rules.crucifix_exception):
        return None
    owed = max(0, s.steps - s.cards.act(a.card).move)
    return bool(_life_lost(s, t, 0) <= owed)


def _power_replace(s: S, a: A, t: S) -> bool | None:
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.POWER or over(t):
        return None
    return bool(t.board_cards[_loc(s)] == c.id)


def _last_marker(s: S, a: A, t: S) -> bool:
    for p in (0, 1):
        if t.life[p] <= 0 < s.life[p]:
            return t.winner == 1 - p
    return True


def _leave_empty(s: S, a: A, t: S) -> bool:
    """A card appears on the board only when a player lays one -- or, before play, when the
    set-up deal lays a picked card face down on a location (dracula-en:setup.deal; a chance
    step that only games started before the deal, e.g. reduced explorations, go through)."""
    before = sum(c is not None for c in s.board_cards)
    after = sum(c is not None for c in t.board_cards)
    laid = isinstance(a, Place) or head(s) == "deal"
    return after <= before + (1 if laid else 0)


def _fill(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Move) and head(s) == "move") or over(t):
        return None
    if s.board_cards[a.to] is not None or not s.hand[side(s)]:
        return None
    return any(x.kind == "place" and x.n == a.to for x in t.agenda[:2])


def _special_optional(s: S, a: A) -> bool:
    return _paying(s, a) and not a.special and a.card in s.current[side(s)]


def _reachable(s: S, barriers: set[tuple[int, int]]) -> bool:
    n = s.board.size
    seen = {0}
    todo = deque([0])
    while todo:
        x = todo.popleft()
        for y in s.board.neighbours(x):
            if y not in seen and _edge(x, y) not in barriers:
                seen.add(y)
                todo.append(y)
    return len(seen) == n


def _barrier_restrictions(s: S, a: A, t: S) -> bool:
    return _reachable(t, _blocked(t))


def _dividing_forbids(s: S, a: A) -> bool:
    """A barrier may not be placed (or moved) where the barriers would cut the board in two."""
    if not isinstance(a, PlaceBarrier) or a.colour not in COLOURS:
        return False
    after = list(s.barriers)
    after[COLOURS.index(a.colour)] = a.edge
    return not _reachable(s, {e for e in after if e is not None})


def _barrier_ends_turn(s: S, a: A, t: S) -> bool | None:
    if head(s) != "barrier" or over(t) or head(t) == "barrier":
        return None
    return t.turn > s.turn or any(x.kind in ("start-turn", "draw-action") for x in t.agenda)


def _one_card(s: S, a: A) -> bool:
    return isinstance(a, PlayCard) and s.played is not None


def _end_of_move(s: S, a: A) -> bool:
    return isinstance(a, PlayCard) and head(s) != "pay"


def _move_ends(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Stop) and head(s) == "move") or over(t):
        return None
    return head(t) in ("pay", "rescue")


def _hand_limit_permits(s: S, a: A) -> bool:
    """Moving on beyond what the current cards pay is allowed (it costs life markers)."""
    return _move_permits(s, a)


def _overpay(s: S, a: A, t: S) -> bool | None:
    if not _paying(s, a):
        return None
    owed = max(0, s.steps - s.cards.act(a.card).move)
    if owed == 0:
        return None
    p = side(s)
    return _life_lost(s, t, p) >= min(owed, s.life[p]) or _pending_loss(t, p) or over(t)


def _underuse_permits(s: S, a: A) -> bool:
    return _paying(s, a) and a.card in s.current[side(s)] and \
        s.cards.act(a.card).move >= s.steps


def _then_functions(s: S, a: A, t: S) -> bool | None:
    if not _paying(s, a) or over(t) or t.turn > s.turn or t.active != s.active:
        return None
    return bool(t.played == a.card)


def _barrier_first(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, PlaceBarrier):
        return None
    return t.barriers[COLOURS.index(a.colour)] == a.edge


def _allowed_colours(s: S) -> tuple[str, ...]:
    return s.agenda[0].colours if head(s) == "barrier" else ()


def _colour_forbids(s: S, a: A) -> bool:
    return isinstance(a, PlaceBarrier) and a.colour not in _allowed_colours(s)


def _colour_permits(s: S, a: A) -> bool:
    return isinstance(a, PlaceBarrier) and a.colour in _allowed_colours(s)


def _grey_requires(s: S, a: A, t: S) -> bool | None:
    if not (_paying(s, a) and s.cards.act(a.card).bar == "grey") or over(t):
        return None
    steps = [x for x in t.agenda if x.kind == "barrier"]
    return all(set(x.colours) == set(COLOURS) for x in steps) or s.whisper_turn == s.turn \
        or _special_used(s, a, "eyes")


def _between(s: S, a: A) -> bool:
    return isinstance(a, PlaceBarrier) and tuple(a.edge) not in set(s.board.edges)


def _move_number_permits(s: S, a: A) -> bool:
    return _underuse_permits(s, a)


def _special_forbids(s: S, a: A) -> bool:
    return isinstance(a, PlayCard) and a.special and s.cards.act(a.card).special is None


def _discard(s: S, a: A, t: S) -> bool | None:
    return _pay_after(s, a, t)


def _cycle(s: S, a: A, t: S) -> bool | None:
    """When the current cards are used up, new ones come (set-aside, or a reshuffle)."""
    if over(t) or t.turn == s.turn:
        return None
    p = side(s)
    return bool(t.current[p]) or any(x.kind == "draw-action" for x in t.agenda)


def _set_aside_first(s: S, a: A, t: S) -> bool | None:
    """While a side still has cards set aside, its cards are not reshuffled: used-up current
    cards are followed by the set-aside five, not by a new draw."""
    p = side(s)
    if over(t) or not s.aside[p]:
        return None
    return not any(x.kind == "draw-action" and x.player == p for x in t.agenda)


def _first_player(s: S, a: A, t: S) -> bool | None:
    if s.turn != 0 or t.turn != 1:
        return None
    first = 0 if s.rules.first_player == "dracula" else 1
    return t.active == first


def _alternate(s: S, a: A, t: S) -> bool | None:
    if over(t) or t.turn != s.turn + 1 or s.turn == 0:
        return None
    extra = s.played is not None and s.cards.act(s.played).special == "rebellion"
    return t.active == 1 - s.active or extra or (
        _played(s, a) is not None and _played(s, a).special == "rebellion")


def _turn_parts(s: S, a: A) -> bool:
    return isinstance(a, Move | Look) and head(s) in ("pay", "barrier")


def _proof(s: S, a: A, t: S) -> bool | None:
    """Shown hands prove no opposing target is left on the board: the game ends, the prover
    wins (when both prove at once, dracula-en:end.simultaneous decides: not restated here)."""
    if not (isinstance(a, Meet) and a.reveal and head(s) == "meet"):
        return None
    mover = side(s)
    proving = []
    for finder in (mover, 1 - mover):
        other = 1 - finder
        targets = [c.id for c in s.cards.encounter if int(c.owner) == other
                   and c.kind is Kind.TARGET and c.id not in s.captured[finder]]
        if targets and all(c in s.hand[other] for c in targets):
            proving.append(finder)
    if len(proving) != 1:
        return None
    return t.winner == proving[0]


def _simultaneous(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, Meet) and a.reveal and head(s) == "meet"):
        return None
    mover = side(s)
    both = []
    for finder in (mover, 1 - mover):
        other = 1 - finder
        targets = [c.id for c in s.cards.encounter if int(c.owner) == other
                   and c.kind is Kind.TARGET and c.id not in s.captured[finder]]
        both.append(bool(targets) and all(c in s.hand[other] for c in targets))
    if all(both):
        return t.winner == mover
    return None


def _give_target(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, GiveTarget):
        return None
    p = s.agenda[0].player if s.agenda else side(s)
    gained = min(s.board.life_markers, s.life[p] + 2)
    # in a rescue: two markers back, then the loss that was at stake
    life_ok = (t.life[p] >= gained - s.agenda[0].n or over(t)) if head(s) == "rescue" \
        else t.life[p] == gained
    return a.card in t.captured[1 - p] and a.card not in t.hand[p] and life_ok


# ----------------------------------------------------------------------------- specials


def _inspiration(s: S, a: A, t: S) -> bool | None:
    if not (_special_used(s, a, "inspiration") and s.revealed is not None) or over(t):
        return None
    owed = max(0, s.steps - s.cards.act(a.card).move)
    return t.captured == s.captured and t.enc_discard == s.enc_discard and \
        _life_lost(s, t, side(s)) <= owed


def _composure_forbids(s: S, a: A) -> bool:
    return isinstance(a, TakeBack) and s.cards.act(a.card).special == "composure"


def _composure(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, TakeBack):
        return None
    return a.card in t.current[side(s)]


def _perception(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "perception") or over(t) or _later(t):
        return None
    return True if not _pending_loss(t, 1) else None


def _deception(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "deception") or over(t) or _later(t) or not s.hand[0]:
        return None
    return any(x.kind == "deception-draw" for x in t.agenda) or t.captured[1] != s.captured[1] \
        or t.life[1] != s.life[1] or _pending_loss(t, 1) or head(t) == "start-turn" or \
        t.turn > s.turn


def _reinforcement(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "reinforcement") or over(t) or _later(t):
        return None
    return t.pos[1] == s.board.carriage_station


def _vigilance(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "vigilance") or over(t) or _later(t):
        return None
    return bool(t.vigilance)


def _vigilance_forbids(s: S, a: A) -> bool:
    return isinstance(a, PlayCard) and a.special and side(s) == 0 and bool(s.vigilance)


def _resistance(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, TurnCard):
        return None
    return t.turned == a.loc


def _resistance_forbids(s: S, a: A) -> bool:
    return isinstance(a, Move) and side(s) == 0 and s.turned == a.to


def _breath(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "breath-of-night") or over(t) or _later(t):
        return None
    return t.breath_turn == s.turn + 1


def _breath_battle(s: S, a: A, t: S) -> bool | None:
    """In Van Helsing's turn after Breath of Night, the vampire he fights is one stronger."""
    c = _plain_resolution(s, a)
    if c is None or c.kind is not Kind.ENEMY or side(s) != 1 or s.breath_turn != s.turn:
        return None
    if over(t):
        return None
    return _fought(s, t, s.cards.act(a.card).strength, c.strength + 1)


def _whisper_no_barrier(s: S, a: A, t: S) -> bool | None:
    """In Van Helsing's turn after Whisper of Night he places or moves no barrier (the
    extra turn won with Rebellion is the next turn)."""
    if s.active != 1 or s.whisper_turn != s.turn or over(t) or t.turn != s.turn:
        return None
    return head(t) != "barrier"


def _rescue_first(s: S, a: A, t: S) -> bool | None:
    """A target card in hand may be handed over before the last life marker is lost: a step
    that takes a holder's last marker is not taken before that offer."""
    if head(s) == "rescue":
        return None  # the offer is being answered
    owed = max(0, s.steps - s.cards.act(a.card).move) if _paying(s, a) else 0
    for p in (0, 1):
        if s.life[p] == s.board.life_markers and p == side(s) and owed >= s.life[p]:
            continue  # all markers at once from full life: a gift would bring none back
        if t.life[p] <= 0 < s.life[p] and any(
                s.cards.enc(c).kind is Kind.TARGET for c in s.hand[p]):
            return False
    return None


def _wings(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, Fly):
        return None
    return t.pos[0] == a.loc and t.known[0] == s.known[0]


def _whisper(s: S, a: A, t: S) -> bool | None:
    if not _special_used(s, a, "whisper-of-night") or over(t) or _later(t):
        return None
    return t.whisper_turn == s.turn + 1


def _whisper_forbids(s: S, a: A) -> bool:
    return isinstance(a, PlaceBarrier) and side(s) == 1 and s.whisper_turn == s.turn


def _depths_permits(s: S, a: A) -> bool:
    return isinstance(a, Depths) and head(s) == "special-choice"


def _dark(s: S, a: A, t: S) -> bool | None:
    """With Dark of Night the found card still counts as revealed: the move has ended."""
    if not _special_used(s, a, "dark-of-night") or over(t) or _later(t):
        return None
    return head(t) != "move" or t.turn > s.turn


def _rebellion(s: S, a: A, t: S) -> bool | None:
    if not (_special_used(s, a, "rebellion") and side(s) == 1) or over(t):
        return None
    b = _battle(s, a)
    if b is None or b[0] <= b[1]:
        return None
    return bool(t.battle_won)


def _example_choice(s: S, a: A, t: S) -> bool | None:
    return _overpay(s, a, t)


def _objective(s: S, a: A, t: S) -> bool:
    return _all_five(s, a, t)


def _over_forbids(s: S, a: A) -> bool:
    return s.winner is not None


C = Contract
CONTRACTS = ContractSet(
    source="dracula-en",
    contracts=(
        C("dracula-en:objective.goal", forbids=_over_forbids, requires=_objective),
        C("dracula-en:objective.early", requires=_last_marker),
        C("dracula-en:cards.move-number", permits=_move_number_permits),
        C("dracula-en:cards.special", forbids=_special_forbids),
        C("dracula-en:cards.bar", forbids=_colour_forbids, permits=_colour_permits),
        C("dracula-en:cards.play-after-move", forbids=_end_of_move),
        C("dracula-en:cards.battle-uses-strength", requires=_fight),
        C("dracula-en:cards.discard", requires=_discard),
        C("dracula-en:cards.cycle", requires=_cycle),
        C("dracula-en:cards.cycle", requires=_set_aside_first,
          what="no reshuffle while cards are set aside"),
        C("dracula-en:play.first-player", requires=_first_player),
        C("dracula-en:play.alternate", requires=_alternate),
        C("dracula-en:play.turn-parts", forbids=_turn_parts),
        C("dracula-en:move.orthogonal", forbids=_orthogonal_forbids, permits=_move_permits,
          requires=_moved),
        C("dracula-en:move.look-choice", permits=_look_permits),
        C("dracula-en:move.revisit", permits=_move_permits),
        C("dracula-en:move.start-location", forbids=_start_location),
        C("dracula-en:move.pay", requires=_pay_after),
        C("dracula-en:move.minimum", forbids=_minimum),
        C("dracula-en:meet.allowed", permits=_move_permits, requires=_meet_arises),
        C("dracula-en:meet.reveal-hands", permits=_meet_permits),
        C("dracula-en:meet.still-look", requires=_still_look),
        C("dracula-en:look.no-look", requires=_no_look),
        C("dracula-en:look.own-card", permits=_bluff_permits, requires=_own_card),
        C("dracula-en:look.opponent-card", requires=_opponent_card),
        C("dracula-en:target.capture", requires=_capture),
        C("dracula-en:target.all-five", requires=_all_five),
        C("dracula-en:enemy.fight", requires=_fight),
        C("dracula-en:enemy.win", requires=_win_battle),
        C("dracula-en:enemy.lose", requires=_lose_battle),
        C("dracula-en:enemy.draw", requires=_draw_battle),
        C("dracula-en:power.lose-life", requires=_power),
        C("dracula-en:power.exception", requires=_power_exception),
        C("dracula-en:power.replace", requires=_power_replace),
        C("dracula-en:power.last-marker", requires=_last_marker),
        C("dracula-en:empty.leave-empty", requires=_leave_empty),
        C("dracula-en:empty.fill", requires=_fill),
        C("dracula-en:empty.battle", requires=_fight),
        C("dracula-en:empty.special-timing", permits=_special_optional),
        C("dracula-en:empty.barrier-ends-turn", requires=_barrier_ends_turn),
        C("dracula-en:pay.one-card", forbids=_one_card),
        C("dracula-en:pay.end-of-move", forbids=_end_of_move),
        C("dracula-en:pay.move-ends", requires=_move_ends),
        C("dracula-en:pay.hand-limit", permits=_hand_limit_permits),
        C("dracula-en:pay.overpay", requires=_overpay),
        C("dracula-en:pay.underuse", permits=_underuse_permits),
        C("dracula-en:pay.then-functions", requires=_then_functions),
        C("dracula-en:pay.no-crossing", forbids=_no_crossing),
        C("dracula-en:pay.barrier-restrictions", forbids=_dividing_forbids,
          requires=_barrier_restrictions),
        C("dracula-en:pay.barrier-first", requires=_barrier_first),
        C("dracula-en:barriers.colour", forbids=_colour_forbids, permits=_colour_permits),
        C("dracula-en:barriers.grey", requires=_grey_requires),
        C("dracula-en:barriers.between", forbids=_between),
        C("dracula-en:example.own-swap", permits=_bluff_permits),
        C("dracula-en:example.pass-without-look", permits=_move_permits),
        C("dracula-en:example.enemy-ends-move", requires=_opponent_card),
        C("dracula-en:example.choice", requires=_example_choice),
        C("dracula-en:end.proof", requires=_proof),
        C("dracula-en:end.all-captured", requires=_all_five),
        C("dracula-en:end.hand-proof", requires=_proof),
        C("dracula-en:end.simultaneous", requires=_simultaneous),
        C("dracula-en:early-end.last-marker", requires=_last_marker),
        C("dracula-en:early-end.give-target", requires=_give_target),
        C("dracula-en:early-end.give-target", requires=_rescue_first,
          what="the target may be handed over before the last marker is lost"),
        C("dracula-en:special.inspiration", requires=_inspiration),
        C("dracula-en:special.composure", forbids=_composure_forbids, requires=_composure),
        C("dracula-en:special.rebellion", requires=_rebellion),
        C("dracula-en:special.perception", requires=_perception),
        C("dracula-en:special.deception", requires=_deception),
        C("dracula-en:special.reinforcement", requires=_reinforcement),
        C("dracula-en:special.vigilance", forbids=_vigilance_forbids, requires=_vigilance),
        C("dracula-en:special.resistance", forbids=_resistance_forbids, requires=_resistance),
        C("dracula-en:special.breath-of-night", requires=_breath),
        C("dracula-en:special.breath-of-night", requires=_breath_battle,
          what="the vampire Van Helsing fights next turn is one stronger"),
        C("dracula-en:special.dark-of-night", requires=_dark),
        C("dracula-en:special.wings-of-night", requires=_wings),
        C("dracula-en:special.whisper-of-night", forbids=_whisper_forbids, requires=_whisper),
        C("dracula-en:special.whisper-of-night", requires=_whisper_no_barrier,
          what="no barrier step in Van Helsing's turn after Whisper of Night"),
        C("dracula-en:special.depths-of-night", permits=_depths_permits),
    ),
    uncovered={
        "dracula-en:cards.strength": "card data: strengths 1-4 and the one card without are "
                                     "checked by the card loader (spec/dracula/cards.toml)",
        "dracula-en:example.resistance-barrier": "card data: Resistance's bar colour is a value "
                                                 "of spec/dracula/cards.toml",
        "dracula-en:barriers.side-by-side": "its meaning is the rule option barrier_adjacency "
                                            "(spec/dracula/ambiguities.toml); no single reading "
                                            "to state",
    },
    config_of=lambda s: s.rules,
)
