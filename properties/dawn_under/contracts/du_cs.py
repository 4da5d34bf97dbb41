"""Contracts of du-cs, the Czech description of Dawn Under, written from the Czech text alone
(``spec/dawn_under/sources/du-cs.toml``). Where du-cs says less than du-en (who plays after a plague, whether
a player goes on inside a plague, the two-open rule for short rows) these contracts say less too;
where it says something else (the turn ends after a placement, the gift comes to a player who
already holds three stakes, the new plague goes left of the previous starter) they say that.

Only the state vocabulary is shared with du-en's module (small helpers, no du-en contract).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    End,
    GarlicIn,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    VampireIn,
)
from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import (
    _GARLIC_GIFT,
    _alias,
    _first_empty,
    _order_requires,
    actor,
    colour_lid,
    colours,
    deciding,
    face_down_row_shrank,
    in_range,
    is_open,
    left,
    lids_seen,
    opened_content,
    outer,
    over,
    row_emptied,
    row_grew,
    row_shrank,
)
from ruleproof.properties.dawn_under.moves import (
    GiveAt,
    GiveTo,
    HandOver,
    PlaceAt,
    ReceiveAside,
    ReceiveAt,
    StakeBack,
)

S = State
A = Any


def cs(cfg: Config) -> bool:
    """du-cs describes the 3-6 player base game only."""
    return cfg.players >= 3 and cfg.options.expansion == "none"


def _next_player(s: S, t: S) -> bool | None:
    """'The next player plays' (outside a plague, once nothing is owed)."""
    if over(t) or t.gifts or t.plague is not None or s.plague is not None:
        return None
    return t.turn_player == left(s, s.turn_player) and t.phase is Phase.OPEN


def _refill(s: S, a: A, t: S) -> bool:
    """Each side of every row shows at least two face-up vampires (all, if it has fewer)."""
    for row in t.rows:
        k = min(2, len(row))
        if not all(v.face_up for v in row[:k]) or not all(v.face_up for v in row[len(row) - k:]):
            return False
    return True


def _take_end(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, GiveVampire) and s.phase is Phase.GIVE and s.gifts):
        return None
    g = s.gifts[0].giver
    row = s.rows[g]
    rest = colours(row[1:] if a.end is End.LEFT else row[:-1])
    return colours(t.rows[g]) == rest and t.in_transit == outer(row, a.end)


def _take_permits(s: S, a: A) -> bool:
    return s.phase is Phase.GIVE and isinstance(a, GiveVampire)


def _add_permits(s: S, a: A) -> bool:
    return s.phase is Phase.RECEIVE and isinstance(a, ReceiveVampire)


def _received(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and s.gifts):
        return None
    r = s.gifts[0].receiver
    row = t.rows[r]
    if len(row) != len(s.rows[r]) + 1:
        return False
    v = row[0] if a.end is End.LEFT else row[-1]
    rest = row[1:] if a.end is End.LEFT else row[:-1]
    return v.colour == s.in_transit and v.face_up and colours(rest) == colours(s.rows[r])


def _open_permits(s: S, a: A) -> bool:
    if s.phase is not Phase.OPEN or s.plague is not None:
        return False
    return is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] is not None


def _at_turn_start_stop(s: S, a: A) -> bool:
    return (isinstance(a, Stop) and s.phase is Phase.OPEN and s.plague is None
            and s.placed_this_turn == 0)


def _may_pass_permits(s: S, a: A) -> bool:
    """Reading 'may-pass': "může hráč otevřít" -- the player may open a grave, or not."""
    return _at_turn_start_stop(s, a)


def _must_open_forbids(s: S, a: A) -> bool:
    """Reading 'must-open': each round the player opens one grave ("may" as "gets to")."""
    return _at_turn_start_stop(s, a)


def _open_forbids(s: S, a: A) -> bool:
    """One grave per round: no second opening in the same turn (outside a plague)."""
    return is_open(s, a) and s.plague is None and s.placed_this_turn > 0


def _reveal(s: S, a: A, t: S) -> bool | None:
    if not is_open(s, a) or not in_range(s, a.grave) or s.lids[a.grave] is None:
        return None
    g = a.grave
    return t.known[g] or t.lids[g] is None or t.lids[g] != s.lids[g]


def _matches(s: S) -> list[End]:
    g = s.pending
    if g is None or not colour_lid(s, g):
        return []
    row = s.rows[actor(s)]
    return [e for e in (End.LEFT, End.RIGHT) if outer(row, e) == s.lids[g]]


def _match_forbids(s: S, a: A) -> bool:
    """A matching vampire goes in (stated as what happens): no garlic, no leaving it empty; and
    things go only into the grave just opened (outside a plague)."""
    if isinstance(a, PlaceVampire | PlaceGarlic | LeaveEmpty):
        opened = s.plague.opened if s.plague is not None else ()
        if (not deciding(s) or a.grave != s.pending) and a.grave not in opened:
            return True  # only an opened grave is dealt with
    return deciding(s) and bool(_matches(s)) and isinstance(a, PlaceGarlic | LeaveEmpty)


def _match_permits(s: S, a: A) -> bool:
    return deciding(s) and isinstance(a, PlaceVampire) and a.grave == s.pending and \
        a.end in _matches(s)


def _match_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceVampire) and deciding(s)):
        return None
    row = s.rows[actor(s)]
    placed = outer(row, a.end)
    rest = colours(row[1:] if a.end is End.LEFT else row[:-1])
    return placed is not None and t.contents[a.grave] == VampireIn(placed) and \
        colours(t.rows[actor(s)]) == rest


def _after_match(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceVampire) and deciding(s)):
        return None
    return _next_player(s, t)


def _no_match_forbids(s: S, a: A) -> bool:
    return (deciding(s) and isinstance(a, PlaceVampire) and a.grave == s.pending
            and a.end not in _matches(s))


def _no_match_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, LeaveEmpty) and deciding(s)):
        return None
    return t.contents[a.grave] is None


def _garlic_permits(s: S, a: A) -> bool:
    if not deciding(s) or _matches(s) or getattr(a, "grave", None) != s.pending:
        return False
    return isinstance(a, LeaveEmpty) or (isinstance(a, PlaceGarlic)
                                         and s.garlic_hand[actor(s)] > 0)


def _garlic_forbids(s: S, a: A) -> bool:
    return deciding(s) and isinstance(a, PlaceGarlic) and s.garlic_hand[actor(s)] == 0


def _garlic_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceGarlic) and deciding(s)):
        return None
    p = actor(s)
    return t.contents[a.grave] == GarlicIn(p) and t.garlic_hand[p] == s.garlic_hand[p] - 1


def _after_no_match(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceGarlic | LeaveEmpty) and deciding(s)):
        return None
    return _next_player(s, t)


def _vampire_found(s: S, a: A) -> bool:
    return is_open(s, a) and colour_lid(s, a.grave) and isinstance(opened_content(s, a),
                                                                   VampireIn)


def _stake(s: S, a: A, t: S) -> bool | None:
    if not _vampire_found(s, a) or s.stakes_path == 0:
        return None  # no stake left to take: the text does not say
    p = actor(s)
    return t.stakes_held[p] == s.stakes_held[p] + 1 or (t.stakes_held[p] == 0 and bool(t.gifts))


def _gift_from_empty_path(s: S, a: A, t: S) -> bool | None:
    """Whether a vampire found with no stake left on the path brings the gift (None when a
    stake is left: the text covers that)."""
    if not _vampire_found(s, a) or s.stakes_path != 0 or t.winner is not None:
        return None
    return bool(t.gifts)


def _empty_path_no_stake(s: S, a: A, t: S) -> bool | None:
    """Reading 'no-stake': nothing is taken and nothing follows from it."""
    g = _gift_from_empty_path(s, a, t)
    return None if g is None else not g


EMPTY_PATH = (
    Alternative("no-stake", requires=_empty_path_no_stake, option=("empty_path", "no-stake"),
                what="nothing is taken, no gift"),
    Alternative("gift-now", requires=_gift_from_empty_path, option=("empty_path", "gift-now"),
                what="the empty path counts as the limit: the gift comes"),
)


def _after_stake(s: S, a: A, t: S) -> bool | None:
    if not _vampire_found(s, a):
        return None
    return _next_player(s, t)


def _gift_when(due: Any) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        """The gift: a vampire from every player, the stakes back to the common supply --
        when ``due(held)`` for the stakes held before this one."""
        if not _vampire_found(s, a):
            return None
        p = actor(s)
        if s.stakes_path == 0:
            return None  # the gift comes with a stake taken; with none left the text is silent
        if due(s.stakes_held[p]):
            want = sorted(q for q in range(s.config.players) if q != p)
            return sorted(g.giver for g in t.gifts) == want and t.stakes_held[p] == 0 and all(
                g.receiver == p for g in t.gifts)
        return not t.gifts
    return requires


GIFT_READINGS = (
    Alternative("holding-three", requires=_gift_when(lambda held: held >= 3),
                option=("gift_trigger", "holding-three"),
                what="a player who already has three stakes and takes another"),
    Alternative("third-stake", requires=_gift_when(lambda held: held + 1 == 3),
                option=("gift_trigger", "third-stake"),
                what="the player whose stake just taken is the third"),
)


def _garlic_found(s: S, a: A) -> GarlicIn | None:
    if is_open(s, a) and colour_lid(s, a.grave):
        c = opened_content(s, a)
        if isinstance(c, GarlicIn):
            return c
    return None


def _other_garlic(s: S, a: A, t: S) -> bool | None:
    found = _garlic_found(s, a)
    if found is None or found.owner == actor(s):
        return None
    return [g.giver for g in t.gifts] == [found.owner] and t.gifts[0].receiver == actor(s)


def _own_garlic(s: S, a: A, t: S) -> bool | None:
    found = _garlic_found(s, a)
    if found is None or found.owner != actor(s):
        return None
    want = sorted(q for q in range(s.config.players) if q != actor(s))
    return sorted(g.giver for g in t.gifts) == want and all(g.receiver == actor(s)
                                                            for g in t.gifts)


def _garlic_back(s: S, a: A, t: S) -> bool | None:
    found = _garlic_found(s, a)
    if found is None:
        return None
    return t.contents[a.grave] is None and \
        t.garlic_hand[found.owner] == s.garlic_hand[found.owner] + 1


def _after_gifts(garlic: bool) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        """The last hand-over ends the turn: after a garlic find's gift (``garlic``,
        du-cs:prubeh.garlic-ends) or after the stake gift (du-cs:prubeh.stake-ends), told apart
        by the clause the engine records on the pending gift. One predicate under garlic-ends
        for both made clause coverage count a stake gift as a garlic find; the verdicts of the
        two together are unchanged."""
        if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE
                and len(s.gifts) == 1):
            return None
        if (s.gifts[0].clause in _GARLIC_GIFT) is not garlic:
            return None
        return _next_player(s, t)
    return requires


def _rat_opened(s: S, a: A) -> bool:
    return is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] == RAT


def _rat(s: S, a: A, t: S) -> bool | None:
    if not _rat_opened(s, a) or over(t):
        return None
    p = t.plague
    if p is None:
        return all(s.lids[g] is None for g in s.config.board.neighbours[a.grave])
    return bool(p.origin == a.grave)


def _neighbours_permits(s: S, a: A) -> bool:
    p = s.plague
    if p is None or s.phase is not Phase.OPEN:
        return False
    if isinstance(a, Stop):
        return True
    return (is_open(s, a) and in_range(s, a.grave) and a.grave in s.config.board.neighbours[
        p.origin] and a.grave not in p.opened)


def _neighbours_forbids(s: S, a: A) -> bool:
    p = s.plague
    return p is not None and is_open(s, a) and a.grave not in s.config.board.neighbours[p.origin]


def _resolve(s: S, a: A, t: S) -> bool | None:
    """In a plague each opened grave is dealt with as an ordinary opening (its effects; who
    goes on is not said here)."""
    if s.plague is None:
        return None
    if _vampire_found(s, a):
        return _stake(s, a, t)
    if _garlic_found(s, a) is not None:
        return _garlic_back(s, a, t)
    return None


def _dealt_with(s: S, a: A, kinds: tuple[type, ...], occupied: bool) -> bool:
    """In a plague, ``a`` finishes dealing with a grave: a placement (``kinds``), or for an
    occupied grave the opening (a stake) or the last hand-over of its gift."""
    if s.plague is None:
        return False
    if not occupied:
        return isinstance(a, kinds) and deciding(s)
    if _vampire_found(s, a) or _garlic_found(s, a) is not None:
        return True
    return isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1


def _goes_on(kinds: tuple[type, ...], occupied: bool) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        """The same player goes on turning lids (or the plague is over)."""
        if not _dealt_with(s, a, kinds, occupied) or over(t) or t.gifts:
            return None
        assert s.plague is not None
        return t.plague is None or t.plague.current == s.plague.current
    return requires


def _next_plays(kinds: tuple[type, ...], occupied: bool) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        """'the next player plays': the plague passes on (or is over)."""
        if not _dealt_with(s, a, kinds, occupied) or over(t) or t.gifts:
            return None
        assert s.plague is not None
        return t.plague is None or t.plague.current != s.plague.current
    return requires


_PLACED = (PlaceVampire, PlaceGarlic, LeaveEmpty)

RESOLVE_OCCUPIED = (
    Alternative("continue", requires=_goes_on((), True), option=("plague_occupied", "continue"),
                what="after a stake or a garlic reward the player goes on"),
    Alternative("pass", requires=_next_plays((), True), option=("plague_occupied", "pass"),
                what="as in the ordinary case, the next player plays"),
)
RESOLVE_PLACED = (
    Alternative("goes-on", requires=_goes_on(_PLACED, False),
                what="after a placement or an empty grave the player goes on"),
    Alternative("next-player", requires=_next_plays(_PLACED, False),
                what="as in the ordinary case, the next player plays"),
)


def _lids_up_forbids(s: S, a: A) -> bool:
    return s.plague is not None and is_open(s, a) and a.grave in s.plague.opened


def _lids_up(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not is_open(s, a) or _rat_opened(s, a) or t.plague is None:
        return None
    return a.grave in t.plague.opened and t.known[a.grave]


def _rat_pass(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not isinstance(a, Stop) or t.plague is None or over(t):
        return None
    return t.plague.current == left(s, s.plague.current)


def _rat_end(s: S, a: A, t: S) -> bool | None:
    """The plague ends once all neighbouring graves are opened."""
    p = t.plague
    if p is not None and t.phase is Phase.OPEN and not over(t) and all(
            g in p.opened or t.lids[g] is None for g in t.config.board.neighbours[p.origin]):
        return False
    return None


def _all_declined(s: S, a: A, t: S) -> bool | None:
    """Reading 'until-all-pass': it ends when all players in a row have said they do not want
    to open the remaining graves."""
    if s.plague is None or not isinstance(a, Stop) or over(t):
        return None
    if s.plague.idle + 1 >= s.config.players:
        return t.plague is None
    return t.plague is not None


def _round_over(s: S, a: A, t: S) -> bool | None:
    """Reading 'one-round': it ends once every player has had the chance and declined (the
    round has come back to the starter)."""
    p = s.plague
    if p is None or not isinstance(a, Stop) or over(t):
        return None
    if left(s, p.current) == p.holder:
        return t.plague is None
    return None


def _cleanup(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or t.plague is not None or over(t):
        return None
    o = s.plague.origin
    return bool(s.reserve) and t.lids[o] == s.reserve[0] and t.reserve == s.reserve[1:]


def _new_rat(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or over(t):
        return None
    o = s.plague.origin
    ok_old = bool(s.reserve) and t.lids[o] == s.reserve[0]
    return ok_old and t.plague is not None and t.plague.origin == a.grave and \
        t.plague.opened == ()


def _new_starter(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or over(t) or t.plague is None:
        return None
    return t.plague.holder == left(s, s.plague.holder) and t.plague.current == t.plague.holder


def _turn_frame(s: S, a: A, t: S) -> bool | None:
    """A round is one opening: the turn passes only when the opened grave has been dealt with
    ('the next player plays'), or on a stop; inside a plague it stays put."""
    if isinstance(a, Stop) and s.plague is None and not over(t):
        return t.turn_player == left(s, s.turn_player)  # not opening passes the round
    if _rat_opened(s, a) and s.plague is None and t.plague is not None:
        # the finder may open the neighbours: the plague begins with them
        return t.plague.holder == actor(s) and t.plague.current == actor(s)
    if over(t) or t.turn_player == s.turn_player:
        return None
    if _rat_opened(s, a):
        return None
    if s.plague is not None and t.plague is not None:
        return False
    if s.plague is not None:
        return None  # the Czech text does not say who plays after a plague
    if t.turn_player != left(s, s.turn_player) or t.gifts:
        return False
    return (isinstance(a, PlaceVampire | PlaceGarlic | LeaveEmpty | Stop)
            or (isinstance(a, ReceiveVampire) and len(s.gifts) == 1)
            or (is_open(s, a) and in_range(s, a.grave) and s.contents[a.grave] is not None))


def _plague_frame(s: S, a: A, t: S) -> bool | None:
    """Inside a plague the next player carries on only when the current one does not want to
    open more (a stop)."""
    if s.plague is None or t.plague is None or over(t) or _rat_opened(s, a):
        return None
    if isinstance(a, Stop):
        return None
    return t.plague.holder == s.plague.holder


def _knowledge(s: S, a: A, t: S) -> bool:
    """Everyone sees an opened lid; a lid is seen only by being opened and stays seen while
    it lies on its grave (the lids of a plague are even left colour side up)."""
    g = a.grave if is_open(s, a) else None
    for i, (k0, k1) in enumerate(zip(s.known, t.known, strict=True)):
        if k1 and not k0 and i != g:
            return False
        if k0 and not k1 and t.lids[i] == s.lids[i]:
            return False
    return True


def _over_forbids(s: S, a: A) -> bool:
    return over(s)


# ----------------------------------------------------------------------------- component moves
# Moves the model has no action type for (properties/dawn_under/moves.py, issue #24).


def _ends_only_take(s: S, a: A) -> bool:
    """Vampires are always taken from one end of the row or the other."""
    return isinstance(a, GiveAt | PlaceAt)


def _ends_only_add(s: S, a: A) -> bool:
    """Received vampires are added at the start or the end of the row."""
    return isinstance(a, ReceiveAt | ReceiveAside)


def _to_finder(s: S, a: A) -> bool:
    """Every gift of the text names its receiver: the player who found the garlic or took the
    stake ("the player gets ... from")."""
    return isinstance(a, GiveTo)


def _round_is_opening(s: S, a: A) -> bool:
    """A round is opening a grave: nothing is handed over or given back of one's own accord
    (stakes go back with the gift)."""
    return isinstance(a, HandOver | StakeBack)


C = Contract
CONTRACTS = ContractSet(
    source="du-cs",
    contracts=(
        C("du-cs:popis.aim", forbids=_over_forbids, requires=_first_empty, applies=cs,
          when=row_emptied,
          what="whoever is rid of all vampires wins"),
        C("du-cs:prubeh.win", requires=_first_empty, applies=cs, when=row_emptied,
          what="the first rid of all vampires wins"),
        C("du-cs:priprava.refill", requires=_refill, applies=cs, when=face_down_row_shrank,
          what="each side of a row shows at least two face-up vampires"),
        C("du-cs:priprava.take-end", permits=_take_permits, requires=_take_end, applies=cs,
          what="a vampire is taken from an end of the row"),
        C("du-cs:priprava.take-end", requires=_order_requires, applies=cs, when=row_shrank,
          what="rows change only at their ends"),
        C("du-cs:priprava.add-end", permits=_add_permits, requires=_order_requires,
          applies=cs, when=row_grew, what="a vampire is added at an end of the row"),
        C("du-cs:prubeh.open", permits=_open_permits, forbids=_open_forbids, applies=cs,
          what="a player may open one grave per round",
          alternatives=(
              Alternative("may-pass", permits=_may_pass_permits,
                          option=("turn_start", "may-pass"),
                          what="a player may end the round without opening"),
              Alternative("must-open", forbids=_must_open_forbids,
                          option=("turn_start", "must-open"),
                          what="each round the player opens a grave")),
          question="'Each round the player can open one grave': may a player pass without "
                   "opening any grave?"),
        C("du-cs:prubeh.reveal", requires=_reveal, applies=cs,
          what="the lid's underside is shown to everyone"),
        C("du-cs:prubeh.reveal", requires=_knowledge, applies=cs, when=lids_seen,
          what="lids are seen only by opening, and stay seen"),
        C("du-cs:prubeh.open", requires=_turn_frame, applies=cs,
          what="the turn passes only once the opened grave is dealt with"),
        C("du-cs:prubeh.rat-pass", requires=_plague_frame, applies=cs,
          what="the plague stays with its starter; only a stop passes it on"),
        C("du-cs:prubeh.match", forbids=_match_forbids, permits=_match_permits,
          requires=_match_requires, applies=cs,
          what="an empty grave of an end vampire's colour takes that vampire"),
        C("du-cs:prubeh.match-ends", requires=_after_match, applies=cs,
          what="after a placement the next player plays"),
        C("du-cs:prubeh.no-match", forbids=_no_match_forbids, requires=_no_match_requires,
          applies=cs, what="no vampire into a grave of another colour"),
        C("du-cs:prubeh.no-match-garlic", forbids=_garlic_forbids, permits=_garlic_permits,
          requires=_garlic_requires, applies=cs, what="own garlic may go in before closing"),
        C("du-cs:prubeh.no-match-ends", requires=_after_no_match, applies=cs,
          what="then the next player plays"),
        C("du-cs:prubeh.stake", requires=_stake, applies=cs,
          what="a vampire in the grave: take a stake"),
        C("du-cs:prubeh.stake", applies=cs, alternatives=EMPTY_PATH,
          what="a vampire found when the path holds no stake",
          question="Players may keep three stakes under the Czech gift rule, so the 13 stakes "
                   "can run out: when a vampire is found and no stake is left on the path, is "
                   "nothing taken, or does the empty path bring the gift?"),
        C("du-cs:prubeh.stake-ends", requires=_after_stake, applies=cs,
          what="then the next player plays"),
        C("du-cs:prubeh.stake-ends", requires=_after_gifts(garlic=False), applies=cs,
          what="after the stake gift's last hand-over the next player plays"),
        C("du-cs:prubeh.gift", applies=cs,
          what="with three stakes: a vampire from every player, stakes back",
          alternatives=GIFT_READINGS,
          question="'If he already has three stakes, he gets a vampire from every player': "
                   "does the gift come with the third stake, or to a player who holds three "
                   "and takes another?"),
        C("du-cs:prubeh.other-garlic", requires=_other_garlic, applies=cs,
          what="garlic: one vampire from its owner"),
        C("du-cs:prubeh.own-garlic", requires=_own_garlic, applies=cs,
          what="own garlic: one vampire from every player"),
        C("du-cs:prubeh.received-ends", permits=_add_permits, requires=_received, applies=cs,
          what="received vampires face up at the start or end of the row"),
        C("du-cs:prubeh.garlic-back", requires=_garlic_back, applies=cs,
          what="the garlic goes back to its owner"),
        C("du-cs:prubeh.garlic-ends", requires=_after_gifts(garlic=True), applies=cs,
          what="after a garlic find the next player plays"),
        C("du-cs:prubeh.rat", requires=_rat, applies=cs, what="a rat sets off a plague"),
        C("du-cs:prubeh.rat-neighbours", permits=_neighbours_permits,
          forbids=_neighbours_forbids, applies=cs,
          what="in a plague the neighbours may be opened, not obliged"),
        C("du-cs:prubeh.rat-resolve", requires=_resolve, applies=cs,
          what="each grave opened in a plague is dealt with as usual"),
        C("du-cs:prubeh.rat-resolve", applies=cs,
          what="after an occupied grave in a plague: the player goes on or the next plays",
          alternatives=RESOLVE_OCCUPIED,
          question="In a plague each opened grave is dealt with 'as described above', where "
                   "every case ends with 'the next player plays'. After a stake or a garlic "
                   "reward in a plague, does the player go on or does the plague pass?"),
        C("du-cs:prubeh.rat-resolve", applies=cs,
          what="after a placement in a plague: the player goes on or the next plays",
          alternatives=RESOLVE_PLACED,
          question="In a plague, after putting a vampire or garlic into a grave or leaving it "
                   "empty ('as described above', where the next player plays), does the "
                   "player go on opening or does the plague pass?"),
        C("du-cs:prubeh.rat-lids-up", forbids=_lids_up_forbids, requires=_lids_up, applies=cs,
          what="opened graves show their lids, so they are not opened again"),
        C("du-cs:prubeh.rat-pass", requires=_rat_pass, applies=cs,
          what="who does not want to open more passes to the next player"),
        C("du-cs:prubeh.rat-end", requires=_rat_end, applies=cs,
          what="the plague ends when all are opened or everybody declined",
          alternatives=(
              Alternative("until-all-pass", requires=_all_declined,
                          option=("plague_round", "until-all-pass"),
                          what="it goes round until all players in a row decline"),
              Alternative("one-round", requires=_round_over,
                          option=("plague_round", "one-round"),
                          what="it ends once every player has had a chance")),
          question="The plague ends once 'all players have announced' they do not want to "
                   "open the remaining graves: after one round, or only when all players in "
                   "a row decline?"),
        C("du-cs:prubeh.rat-cleanup", requires=_cleanup, applies=cs,
          what="graves closed, a reserve lid where the rat lid was"),
        C("du-cs:prubeh.new-rat", requires=_new_rat, applies=cs,
          what="a new rat ends the plague and starts another"),
        C("du-cs:prubeh.new-starter", requires=_new_starter, applies=cs,
          what="the new plague begins left of the previous starter"),
        C("du-cs:priprava.take-end", forbids=_ends_only_take, applies=cs,
          what="no vampire is taken from inside the row"),
        C("du-cs:priprava.add-end", forbids=_ends_only_add, applies=cs,
          what="a received vampire joins an end of the row"),
        C("du-cs:prubeh.gift", forbids=_to_finder, applies=cs,
          what="gifts go to the player they are owed to"),
        C("du-cs:prubeh.open", forbids=_round_is_opening, applies=cs,
          what="a round is opening a grave"),
    ),
    uncovered={},
    alias=_alias,
)
_ = (OpenGrave,)
