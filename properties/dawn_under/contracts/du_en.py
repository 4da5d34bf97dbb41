"""Contracts of du-en, the English Dawn Under rulebook, written from each clause's text.

Each predicate reads the state vocabulary (graves, lids, rows, stakes, garlic, the running rat
plague, pending hand-overs) and says what its clause forbids, permits or requires; none of them
calls the engine. The clause ids are those of ``spec/dawn_under/sources/du-en.toml``.

States are :class:`ruleproof.model.dawn_under.state.State`; actions its action types.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ruleproof.model.dawn_under.gruft.state import Gruft, GruftPhase, part
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
    Row,
    State,
    Stop,
    VampireIn,
)
from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet
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

_NO_GRUFT = Gruft(bats=(), bats_out=())


def G(s: State) -> Gruft:
    """The expansion's part of a state (an empty one without the expansion)."""
    p = part(s)
    return p if p is not None else _NO_GRUFT
A = Any


# ----------------------------------------------------------------------------- vocabulary


def actor(s: S) -> int:
    """The player turning lids: the plague's current player, else the turn player."""
    return s.plague.current if s.plague is not None else s.turn_player


def left(s: S, p: int) -> int:
    """The left neighbour, clockwise (du-en:play.clockwise)."""
    return (p + 1) % s.config.players


def outer(row: Row, end: End) -> int | None:
    """Colour of the outermost vampire at ``end`` (None for an empty row)."""
    if not row:
        return None
    return row[0].colour if end is End.LEFT else row[-1].colour


def colours(row: Row) -> tuple[int, ...]:
    return tuple(v.colour for v in row)


def over(s: S) -> bool:
    return s.phase is Phase.OVER


def is_open(s: S, a: A) -> bool:
    return isinstance(a, OpenGrave) and s.phase is Phase.OPEN


def in_range(s: S, g: int) -> bool:
    return 0 <= g < len(s.lids)


def opened_content(s: S, a: A) -> Any:
    """What lies in the grave ``a`` opens (an opening of a colour lid only)."""
    return s.contents[a.grave] if in_range(s, a.grave) else None


def colour_lid(s: S, g: int) -> bool:
    return in_range(s, g) and s.lids[g] is not None and s.lids[g] != RAT


def deciding(s: S) -> bool:
    """An empty grave was just opened and awaits placement or garlic (chapter 1, 4)."""
    return s.phase is Phase.PLACE and s.pending is not None


def total_vampires(s: S) -> int:
    return sum(len(r) for r in s.rows) + sum(isinstance(c, VampireIn) for c in s.contents) + (
        1 if s.in_transit is not None else 0)


def base(cfg: Config) -> bool:
    """The basic rules (3-6 players; with the expansion too, gruft-en:play.base)."""
    return cfg.players >= 3


def du(cfg: Config) -> bool:
    """Any du-en rule set (3-6 players, the 2-player game, the expansion on top)."""
    return True


def two(cfg: Config) -> bool:
    return cfg.players == 2


def any_cfg(cfg: Config) -> bool:
    return True


def turn_passed(s: S, t: S) -> bool:
    """The turn went to another player outside any plague and the game goes on."""
    return not over(t) and t.plague is None and s.plague is None and not t.gifts and (
        t.turn_player != s.turn_player or (t.phase is Phase.OPEN and t.placed_this_turn == 0
        and s.placed_this_turn > 0))


def ends_turn(s: S, t: S) -> bool | None:
    """After a resolution that ends the turn: another player's turn begins (None if the game
    ended or hand-overs are still pending). Which player, the left neighbour, is the rule of
    du-en:play.clockwise, checked by its own contract for every turn that passes: the clauses
    naming a turn end do not restate it, so a wrong direction is blamed on play.clockwise."""
    if over(t) or t.gifts or t.plague is not None or t.phase is GruftPhase.COUNT_PLACE:
        return None  # (the expansion's Count is stood on a grave first, gruft-en:count.place)
    return t.turn_player != s.turn_player and t.phase in (Phase.OPEN, GruftPhase.COUNT_OPEN)


# ----------------------------------------------------------------------------- chapter 1


def _open_forbids(s: S, a: A) -> bool:
    if isinstance(a, Stop) and s.phase is Phase.OPEN and s.plague is None:
        # a turn begins by opening a grave (with the expansion: the Count's grave counts; it is
        # closed again once its vampire is in, gruft-en:count.empty, but a holder whose Count
        # stands on a grave during their own turn began it there, gruft-en:count.open-start)
        counted = G(s).post == s.turn_player and G(s).count_grave is not None
        return s.placed_this_turn == 0 and not G(s).open_graves and not counted
    if is_open(s, a):
        if _lidless_2p(s, a):
            return False  # the readings of du2p.lidless-grave (below)
        return not in_range(s, a.grave) or s.lids[a.grave] is None  # nothing to turn
    return False


def _lidless_2p(s: S, a: A) -> bool:
    """``a`` opens one of the graves the 2-player set-up leaves without a lid (not the grave
    of a running plague's rat): du-en:2p.lids says only that these graves "stay open"."""
    if s.config.players != 2 or not is_open(s, a) or not in_range(s, a.grave):
        return False
    if s.lids[a.grave] is not None:
        return False
    return s.plague is None or a.grave != s.plague.origin


def _lidless_unusable_forbids(s: S, a: A) -> bool:
    """Reading 'unusable': there is no lid to turn, so such a grave is never chosen."""
    return _lidless_2p(s, a)


def _lidless_wild_permits(s: S, a: A) -> bool:
    """Reading 'wild': a grave that stays open can be chosen like an opened one."""
    return _lidless_2p(s, a) and s.plague is None and s.phase is Phase.OPEN


LIDLESS = (Alternative("unusable", forbids=_lidless_unusable_forbids,
                       option=("lidless_grave", "unusable"),
                       what="a grave without a lid is never chosen"),
           Alternative("wild", permits=_lidless_wild_permits, option=("lidless_grave", "wild"),
                       what="a grave without a lid can be chosen like an opened grave"))


def _new_turn_opens(s: S, a: A, t: S) -> bool | None:
    """"When you have your turn, pick a grave and turn over the lid": a turn passes only once
    the old one's business is done, and the new one begins with an opening (with the
    expansion, at the Count's grave)."""
    if over(t) or t.turn_player == s.turn_player or t.gifts or t.plague is not None:
        return None
    return t.pending is None and t.phase in (Phase.OPEN, GruftPhase.COUNT_OPEN)


def _open_permits(s: S, a: A) -> bool:
    return (is_open(s, a) and s.plague is None and in_range(s, a.grave)
            and s.lids[a.grave] is not None)


def _open_reveals(s: S, a: A, t: S) -> bool | None:
    if not is_open(s, a) or not in_range(s, a.grave) or s.lids[a.grave] is None:
        return None
    g = a.grave
    return t.known[g] or t.lids[g] != s.lids[g] or t.lids[g] is None


def _match_permits(s: S, a: A) -> bool:
    return (isinstance(a, PlaceVampire) and deciding(s) and a.grave == s.pending
            and s.contents[a.grave] is None and colour_lid(s, a.grave)
            and outer(s.rows[actor(s)], a.end) == s.lids[a.grave])


def _match_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceVampire) and deciding(s)):
        return None
    row = s.rows[actor(s)]
    placed = outer(row, a.end)
    rest = colours(row[1:] if a.end is End.LEFT else row[:-1])
    return (t.contents[a.grave] == VampireIn(placed) if placed is not None else False) and \
        colours(t.rows[actor(s)]) == rest


def _outermost_forbids(s: S, a: A) -> bool:
    """Only the outermost vampire at an end can be placed, and only in a grave of its colour."""
    if isinstance(a, PlaceAt):
        return deciding(s)  # only the two outermost are compared with the lid
    if not isinstance(a, PlaceVampire) or not deciding(s) or a.grave != s.pending:
        return False
    if not colour_lid(s, a.grave):
        return False
    return outer(s.rows[actor(s)], a.end) != s.lids[a.grave]


def _close_requires(s: S, a: A, t: S) -> bool | None:
    """After a grave is used its own lid goes back on it (same lid value)."""
    if isinstance(a, PlaceVampire | PlaceGarlic | LeaveEmpty) and deciding(s):
        return t.lids[a.grave] == s.lids[a.grave] or (t.plague is None and s.plague is not None)
    return None


def _continue_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceVampire) and deciding(s) and s.plague is None) or over(t):
        return None
    return t.turn_player == s.turn_player and t.phase is Phase.OPEN


def _stop_ends(s: S, a: A, t: S) -> bool | None:
    """Stopping after a placement ends the turn: the left neighbour plays."""
    if not (isinstance(a, Stop) and s.plague is None and s.phase is Phase.OPEN) or over(t):
        return None
    return ends_turn(s, t)


def _after_placement(s: S) -> bool:
    """A turn in which the player has put a vampire to rest and may turn the next lid."""
    return s.phase is Phase.OPEN and s.plague is None and s.placed_this_turn > 0


def _continue_permits(s: S, a: A) -> bool:
    """After a placement the player may open another grave ("you can immediately turn over
    the next lid")."""
    return _after_placement(s) and _open_permits(s, a)


def _may_stop_permits(s: S, a: A) -> bool:
    """Reading 'may stop': "can" turn the next lid, so the player may also end the turn."""
    return _after_placement(s) and isinstance(a, Stop)


def _must_go_on_forbids(s: S, a: A) -> bool:
    """Reading 'must go on': "keep doing so until you find a grave in which you can no longer
    put a vampire": the turn ends only at a grave that cannot be used."""
    return _after_placement(s) and isinstance(a, Stop)


def _two_match_permits(s: S, a: A) -> bool:
    return _match_permits(s, a)


def two_matching(s: S, a: A, t: S) -> bool:
    """Both outermost vampires of a row of two or more match the lid of the grave just opened
    (the situation of du-en:ch1.two-match)."""
    if not deciding(s) or s.pending is None or not colour_lid(s, s.pending):
        return False
    row = s.rows[actor(s)]
    return len(row) >= 2 and outer(row, End.LEFT) == outer(row, End.RIGHT) == s.lids[s.pending]


def _two_match_requires(s: S, a: A, t: S) -> bool | None:
    """The other matching vampire stays in the row (only one goes in)."""
    if not (isinstance(a, PlaceVampire) and deciding(s)):
        return None
    return len(t.rows[actor(s)]) == len(s.rows[actor(s)]) - 1


def _no_match_forbids(s: S, a: A) -> bool:
    if isinstance(a, PlaceAt):  # no vampire at all when neither outermost one matches
        row = s.rows[actor(s)]
        return deciding(s) and s.pending is not None and \
            s.lids[s.pending] not in (outer(row, End.LEFT), outer(row, End.RIGHT))
    return _outermost_forbids(s, a)


def _garlic_permits(s: S, a: A) -> bool:
    if not deciding(s) or getattr(a, "grave", None) != s.pending:
        return False
    row = s.rows[actor(s)]
    lid = s.lids[s.pending] if s.pending is not None else None
    no_match = all(outer(row, e) != lid for e in (End.LEFT, End.RIGHT))
    if isinstance(a, LeaveEmpty):
        return no_match
    return isinstance(a, PlaceGarlic) and no_match and s.garlic_hand[actor(s)] > 0


def _garlic_forbids(s: S, a: A) -> bool:
    if isinstance(a, PlaceGarlic) and deciding(s):
        # only "in that case" (no outermost vampire matches), and only with garlic left
        row = s.rows[actor(s)]
        lid = s.lids[s.pending] if s.pending is not None else None
        match = any(outer(row, e) == lid for e in (End.LEFT, End.RIGHT))
        return s.garlic_hand[actor(s)] == 0 or a.grave != s.pending or match
    # the opened empty grave is dealt with before anything else happens
    return deciding(s) and isinstance(a, OpenGrave | Stop | GiveVampire | ReceiveVampire)


def _matching(s: S, a: A) -> bool:
    """``a`` decides about the just-opened empty grave while an outermost vampire matches it."""
    if not (deciding(s) and getattr(a, "grave", None) == s.pending):
        return False
    if not colour_lid(s, a.grave) or s.contents[a.grave] is not None:
        return False
    row = s.rows[actor(s)]
    return any(outer(row, e) == s.lids[a.grave] for e in (End.LEFT, End.RIGHT))


def _must_place(in_plague: bool) -> Any:
    def forbids(s: S, a: A) -> bool:
        """Reading 'must': with a matching outermost vampire the vampire goes in, neither
        garlic nor an empty close."""
        return ((s.plague is not None) == in_plague and isinstance(a, PlaceGarlic | LeaveEmpty)
                and _matching(s, a))
    return forbids


def _may_leave(in_plague: bool) -> Any:
    def permits(s: S, a: A) -> bool:
        """Reading 'may': "can put him to rest", so the grave may also be left empty."""
        return (s.plague is not None) == in_plague and isinstance(a, LeaveEmpty) and \
            _matching(s, a)
    return permits


def _match_readings(in_plague: bool) -> tuple[Alternative, ...]:
    return (Alternative("must", forbids=_must_place(in_plague), option=("match_placement",
                                                                          "mandatory"),
                        what="a matching vampire must be put to rest"),
            Alternative("may", permits=_may_leave(in_plague),
                        option=("match_placement", "optional"),
                        what="the player may leave the grave empty instead"))


MATCH_QUESTION = ("When the opened grave is empty and its lid matches an outermost vampire, "
                  "must the player put that vampire to rest, or may they leave the grave "
                  "empty (the text says the player 'can' put him to rest)?")


def _garlic_requires(s: S, a: A, t: S) -> bool | None:
    if isinstance(a, PlaceGarlic) and deciding(s):
        p = actor(s)
        return (t.contents[a.grave] == GarlicIn(p)
                and t.garlic_hand[p] == s.garlic_hand[p] - 1)
    if isinstance(a, LeaveEmpty) and deciding(s):
        return t.contents[a.grave] is None and t.garlic_hand == s.garlic_hand
    return None


def _no_match_ends(s: S, a: A, t: S) -> bool | None:
    if isinstance(a, PlaceGarlic | LeaveEmpty) and deciding(s) and s.plague is None:
        return ends_turn(s, t)
    return None


# ----------------------------------------------------------------------------- rows


def _row_changes_ok(before: Row, after: Row) -> bool:
    """A row changes only at its ends: one vampire off an end, or one added at an end."""
    b, a = colours(before), colours(after)
    if a == b:
        return True
    if len(a) == len(b) - 1:
        return a in (b[1:], b[:-1])
    if len(a) == len(b) + 1:
        return a[1:] == b or a[:-1] == b
    return False


def _order_requires(s: S, a: A, t: S) -> bool:
    """Rows change only at their ends (du-cs's wording: taken or added at one end or the
    other)."""
    return all(_row_changes_ok(b, c) for b, c in zip(s.rows, t.rows, strict=True))


def _subsequence(short: tuple[int, ...], long: tuple[int, ...]) -> bool:
    it = iter(long)
    return all(x in it for x in short)


def _keeps_order(s: S, a: A, t: S) -> bool:
    """"You can never change the order of your vampires": a row loses or gains vampires, but
    those it keeps stay in the same order."""
    for b, c in zip(s.rows, t.rows, strict=True):
        bc, cc = colours(b), colours(c)
        if not (_subsequence(cc, bc) if len(cc) <= len(bc) else _subsequence(bc, cc)):
            return False
    return True


def _open_run(row: Row, from_left: bool) -> int:
    run = 0
    for v in row if from_left else reversed(row):
        if not v.face_up:
            break
        run += 1
    return run


def _refill_requires(s: S, a: A, t: S) -> bool | None:
    """Every row that lost a vampire shows two open at each end again (rows of more than
    four; smaller rows are all open, du-en:row.four-or-fewer)."""
    cap = s.config.all_open_at_most
    need = s.config.open_per_side
    for b, c in zip(s.rows, t.rows, strict=True):
        if len(c) < len(b) and len(c) > cap and (
                _open_run(c, True) < need or _open_run(c, False) < need):
            return False
    return True


def _four_or_fewer(s: S, a: A, t: S) -> bool:
    cap = s.config.all_open_at_most
    return all(all(v.face_up for v in r) for r in t.rows if len(r) <= cap)


# Situations (``Contract.when``): where a clause's rule comes up, for clause coverage. The
# contracts below hold a verdict on transitions where it does not (rows that did not change,
# a stake gift nobody is owed); coverage counts them only where these hold.


def row_shrank(s: S, a: A, t: S) -> bool:
    """A vampire left a row (placed or handed over)."""
    return any(len(c) < len(b) for b, c in zip(s.rows, t.rows, strict=True))


def row_order_at_stake(s: S, a: A, t: S) -> bool:
    """A row of two or more vampires changed and still has two or more: an order to keep
    (du-en:row.order; a row of one that empties has none)."""
    return any(b != c and min(len(b), len(c)) >= 2 for b, c in zip(s.rows, t.rows, strict=True))


def row_grew(s: S, a: A, t: S) -> bool:
    """A row gained a vampire (a received one)."""
    return any(len(c) > len(b) for b, c in zip(s.rows, t.rows, strict=True))


def face_down_row_shrank(s: S, a: A, t: S) -> bool:
    """A vampire left a row that had a face-down vampire: the one case in which a row has
    one to turn up (du-en:row.refill)."""
    return any(len(c) < len(b) and not all(v.face_up for v in b)
               for b, c in zip(s.rows, t.rows, strict=True))


def face_down_row_changed(s: S, a: A, t: S) -> bool:
    """A row that had a face-down vampire changed."""
    return any(b != c and not all(v.face_up for v in b)
               for b, c in zip(s.rows, t.rows, strict=True))


def row_down_to_cap(s: S, a: A, t: S) -> bool:
    """A row that had a face-down vampire is down to the size at which all lie open
    (du-en:row.four-or-fewer)."""
    cap = s.config.all_open_at_most
    return any(len(c) <= cap and not all(v.face_up for v in b)
               for b, c in zip(s.rows, t.rows, strict=True))


def row_emptied(s: S, a: A, t: S) -> bool:
    """A player is rid of all their vampires, or the game ended, on this transition."""
    return (over(t) and not over(s)) or any(
        not c and b for b, c in zip(s.rows, t.rows, strict=True))


def stake_gift_given(s: S, a: A, t: S) -> bool:
    """A vampire of a stake gift (du-en:ch2.gift, as the pending gift records it) is handed
    over or received."""
    return _gift_clause(s) == "du-en:ch2.gift"


def stakes_returned(s: S, a: A, t: S) -> bool:
    """A player's held stakes went back to the path, or a player holds as many as earn the
    gift (du-en:ch2.stakes-back)."""
    return any(th < sh for sh, th in zip(s.stakes_held, t.stakes_held, strict=True)) or any(
        h >= s.config.stakes_for_gift for h in t.stakes_held)


def lids_seen(s: S, a: A, t: S) -> bool:
    """A grave was opened, or what the players know of the lids changed."""
    return is_open(s, a) or s.known != t.known


def _offsets(b: Row, c: Row) -> list[int]:
    """How index i of the new row ``c`` maps to index i + off of the old row ``b``: the row
    changed by one vampire off an end or onto an end (several offsets fit when colours repeat)."""
    bc, cc = colours(b), colours(c)
    out = []
    if cc == bc:
        out.append(0)
    if len(cc) == len(bc) - 1:
        if cc == bc[1:]:
            out.append(1)
        if cc == bc[:-1]:
            out.append(0)
    if len(cc) == len(bc) + 1:
        if cc[1:] == bc:
            out.append(-1)
        if cc[:-1] == bc:
            out.append(0)
    return out


def _flip_when_short(s: S, a: A, t: S) -> bool | None:
    """A face-down vampire is turned up only where its side has fewer than two open: a vampire
    turned up in this transition lies within the first two of its end's open run."""
    cap = s.config.all_open_at_most
    need = s.config.open_per_side
    for b, c in zip(s.rows, t.rows, strict=True):
        if len(c) <= cap:
            continue
        fits = False
        for off in _offsets(b, c):
            flipped = [i for i, v in enumerate(c)
                       if v.face_up and 0 <= i + off < len(b) and not b[i + off].face_up]
            if all(i < need or len(c) - 1 - i < need for i in flipped):
                fits = True
                break
        if not fits:
            return False
    return True


# ----------------------------------------------------------------------------- chapter 2


def _stake_requires(s: S, a: A, t: S) -> bool | None:
    if not is_open(s, a) or not colour_lid(s, a.grave) or a.grave in s.barred:
        return None
    if not isinstance(opened_content(s, a), VampireIn) or s.stakes_path == 0:
        return None  # an empty path: no source says (register entry du.empty-path)
    p = actor(s)
    took = t.stakes_held[p] == s.stakes_held[p] + 1 and t.stakes_path == s.stakes_path - 1
    back = (s.stakes_held[p] + 1 >= s.config.stakes_for_gift and t.stakes_held[p] == 0
            and t.stakes_path == s.stakes_path - 1 + s.stakes_held[p] + 1)
    return t.contents[a.grave] == s.contents[a.grave] and (took or back)


def _stake_ends(s: S, a: A, t: S) -> bool | None:
    if not is_open(s, a) or s.plague is not None or not colour_lid(s, a.grave):
        return None
    if not isinstance(opened_content(s, a), VampireIn):
        return None
    return ends_turn(s, t)


def _stake_gift(per: int) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        return _gift_requires(s, a, t, per)
    return requires


def _gift_requires(s: S, a: A, t: S, per: int = 1) -> bool | None:
    """The third stake: every other player owes ``per`` outermost vampires to the collector."""
    if not is_open(s, a) or not colour_lid(s, a.grave) or not isinstance(
            opened_content(s, a), VampireIn):
        return None
    p = actor(s)
    if s.stakes_held[p] + 1 != s.config.stakes_for_gift:
        return not t.gifts
    givers = sorted(g.giver for g in t.gifts)
    want = sorted(q for q in range(s.config.players) if q != p for _ in range(per))
    return givers == want and all(g.receiver == p for g in t.gifts)


def _stakes_back_at_once(s: S, a: A, t: S) -> bool | None:
    """Reading 'at-once': with the third stake the three go back to the path on the same
    step (the model)."""
    if not is_open(s, a) or not colour_lid(s, a.grave) or not isinstance(
            opened_content(s, a), VampireIn):
        return None
    p = actor(s)
    if s.stakes_held[p] + 1 != s.config.stakes_for_gift:
        return None
    return t.stakes_held[p] == 0


def _stakes_back_after(s: S, a: A, t: S) -> bool | None:
    """Reading 'after-gifts': "Then, put the 3 wooden stakes back": they may wait until the
    hand-overs are done (then nobody keeps three, the common part)."""
    verdict = _stakes_back_at_once(s, a, t)
    return None if verdict is None else (verdict or bool(t.gifts))


STAKES_BACK = (
    Alternative("at-once", requires=_stakes_back_at_once,
                what="the stakes go back on the step the third one is taken"),
    Alternative("after-gifts", requires=_stakes_back_after,
                what="the stakes go back once the gifts are handed over"),
)


def _nobody_keeps_three(s: S, a: A, t: S) -> bool | None:
    """Once no gift is being handed over, no player keeps three stakes (they went back)."""
    if over(t) or t.gifts:
        return None
    return all(h < s.config.stakes_for_gift for h in t.stakes_held)


# ----------------------------------------------------------------------------- chapter 3


def _barred_open(s: S, a: A) -> bool:
    """A 2-player opening of a grave barred to the actor (du-en:2p.reopen): read as a stake that
    ends the turn without using the grave (register entry du2p.reopen), so nothing in it is
    found."""
    return is_open(s, a) and s.plague is None and a.grave in s.barred


def _garlic_found(s: S, a: A) -> GarlicIn | None:
    if is_open(s, a) and colour_lid(s, a.grave) and not _barred_open(s, a):
        c = opened_content(s, a)
        if isinstance(c, GarlicIn):
            return c
    return None


def _other_garlic(per: int) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        found = _garlic_found(s, a)
        if found is None or found.owner == actor(s):
            return None
        return (sorted(g.giver for g in t.gifts) == [found.owner] * per
                and all(g.receiver == actor(s) for g in t.gifts))
    return requires


def _own_garlic(per: int) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        found = _garlic_found(s, a)
        if found is None or found.owner != actor(s):
            return None
        p = actor(s)
        want = sorted(q for q in range(s.config.players) if q != p for _ in range(per))
        return (sorted(g.giver for g in t.gifts) == want
                and all(g.receiver == p for g in t.gifts))
    return requires


def _garlic_back(s: S, a: A, t: S) -> bool | None:
    found = _garlic_found(s, a)
    if found is None:
        return None
    return (t.contents[a.grave] is None
            and t.garlic_hand[found.owner] == s.garlic_hand[found.owner] + 1)


def _no_place(s: S, a: A, t: S) -> bool | None:
    if _garlic_found(s, a) is None:
        return None
    return t.pending is None and t.phase is not Phase.PLACE


def _gift_done_ends(s: S, a: A, t: S) -> bool | None:
    """The last hand-over of a stake gift or a garlic find ends the turn (outside a plague)."""
    if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1
            and s.plague is None and G(s).bat is None):
        return None
    return ends_turn(s, t)


_GARLIC_GIFT = ("du-en:ch3.other-garlic", "du-en:ch3.own-garlic")


def _gift_of(garlic: bool) -> Callable[[S, A, S], bool | None]:
    """:func:`_gift_done_ends`, speaking only after a garlic find's gift (``garlic``:
    du-en:ch3.ends) or only after any other gift (du-en:ch2.ends: the stake gift), told apart
    by the clause the engine records on the pending gift. One predicate for both made each
    speak after the other's gift, so clause coverage (explore --coverage) counted a stake gift
    as du-en:ch3.ends firing; the verdicts of the two together are unchanged."""
    def done(s: S, a: A, t: S) -> bool | None:
        if not s.gifts or (s.gifts[0].clause in _GARLIC_GIFT) is not garlic:
            return None
        return _gift_done_ends(s, a, t)
    return done


def _receive_requires(s: S, a: A, t: S) -> bool | None:
    """The received vampire joins the receiver's row face up, at the end the decision names
    (the text names no end, register entry du.received-end: whoever decides puts it at one)."""
    if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and s.gifts):
        return None
    r = s.gifts[0].receiver
    row = t.rows[r]
    if len(row) != len(s.rows[r]) + 1 or s.in_transit is None:
        return False
    v = row[0] if a.end is End.LEFT else row[-1]
    rest = row[1:] if a.end is End.LEFT else row[:-1]
    return v.colour == s.in_transit and v.face_up and colours(rest) == colours(s.rows[r])


def _give_requires(s: S, a: A, t: S) -> bool | None:
    """A giver hands over one of their outermost vampires."""
    if not (isinstance(a, GiveVampire) and s.phase is Phase.GIVE and s.gifts):
        return None
    g = s.gifts[0].giver
    row = s.rows[g]
    given = outer(row, a.end)
    rest = colours(row[1:] if a.end is End.LEFT else row[:-1])
    return colours(t.rows[g]) == rest and t.in_transit == given


def _gift_forbids(s: S, a: A) -> bool:
    """A gift cannot be refused: while one is owed, only the hand-over happens (in whatever
    form: which vampire and where it goes are other clauses' questions); and nothing is handed
    over while no gift is owed."""
    if s.phase is Phase.GIVE:
        return not isinstance(a, GiveVampire | GiveAt | GiveTo)
    if s.phase is Phase.RECEIVE:
        return not isinstance(a, ReceiveVampire | ReceiveAt | ReceiveAside)
    return isinstance(a, GiveVampire | ReceiveVampire | GiveAt | GiveTo | ReceiveAt
                      | ReceiveAside | HandOver)


def _give_permits(s: S, a: A) -> bool:
    return _gift_permits(s, a)


def _gift_permits(s: S, a: A) -> bool:
    if s.phase is Phase.GIVE and isinstance(a, GiveVampire):
        return len(s.rows[s.gifts[0].giver]) > 1 or a.end is End.LEFT
    return False


def _receive_permits(s: S, a: A) -> bool:
    if s.phase is Phase.RECEIVE and isinstance(a, ReceiveVampire):
        return len(s.rows[s.gifts[0].receiver]) > 1 or a.end is End.LEFT
    return False


# ----------------------------------------------------------------------------- chapter 4, 5


def _rat_opened(s: S, a: A) -> bool:
    return is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] == RAT


def _rat_requires(s: S, a: A, t: S) -> bool | None:
    if not _rat_opened(s, a) or s.plague is not None or over(t):
        return None
    p = t.plague
    if p is None:  # begun and over at once: no neighbour has a lid to turn (ch4.end-all-opened)
        return all(s.lids[g] is None for g in s.config.board.neighbours[a.grave])
    lid_off = t.lids[a.grave] is None or s.config.rat_lid_stays
    return (p is not None and p.origin == a.grave and p.holder == actor(s) and lid_off
            and p.current == p.holder and p.opened == ())


def _neighbours_permits(s: S, a: A) -> bool:
    p = s.plague
    if p is None or s.phase is not Phase.OPEN:
        return False
    if isinstance(a, Stop):
        return True  # turning lids in a plague is optional
    return (is_open(s, a) and in_range(s, a.grave) and a.grave in s.config.board.neighbours[
        p.origin] and a.grave not in p.opened and s.lids[a.grave] is not None)


def _only_neighbours(s: S, a: A) -> bool:
    p = s.plague
    return (p is not None and is_open(s, a)
            and a.grave not in s.config.board.neighbours[p.origin])


def _plague_goes_on(s: S, a: A, t: S) -> bool | None:
    """In a plague, the player who placed, set garlic, took a stake or got vampires may go on:
    the plague's current player stays the same; the plague may end only because no
    neighbouring grave is left to open (du-en:ch4.end-all-opened)."""
    if s.plague is None or over(t) or isinstance(a, Stop):
        return None
    if _rat_opened(s, a):
        return None
    if t.plague is None:
        return not _neighbours_left(s, a)
    return t.plague.current == s.plague.current


def _neighbours_left(s: S, a: A) -> bool:
    """In a plague: a neighbouring grave with a lid is still unopened after ``a`` (with the
    expansion, graves open in the turn count as opened and the Count's grave cannot be
    opened, gruft-en:faq.count-plague)."""
    p = s.plague
    if p is None:
        return False
    opened = {*p.opened, *G(s).open_graves, *((a.grave,) if is_open(s, a) else ())}
    return any(g not in opened and s.lids[g] is not None and g != G(s).count_grave
               for g in s.config.board.neighbours[p.origin])  # (the Count's grave is kept)


def _occupied_in_plague(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not is_open(s, a) or not colour_lid(s, a.grave):
        return None
    if opened_content(s, a) is None:
        return None
    return _plague_goes_on(s, a, t)


def _placement_in_plague(kind: tuple[type, ...]) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        if s.plague is None or not isinstance(a, kind) or not deciding(s):
            return None
        return _plague_goes_on(s, a, t)
    return requires


def _pass_requires(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not isinstance(a, Stop) or over(t):
        return None
    if t.plague is None:
        return True
    return t.plague.current == left(s, s.plague.current)


def _stay_open_forbids(s: S, a: A) -> bool:
    return s.plague is not None and is_open(s, a) and a.grave in s.plague.opened


def _stay_open_requires(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not is_open(s, a) or _rat_opened(s, a) or t.plague is None:
        return None
    return a.grave in t.plague.opened and set(s.plague.opened) <= set(t.plague.opened)


def _just_opened_forbids(s: S, a: A) -> bool:
    if s.plague is None or not isinstance(a, PlaceVampire | PlaceGarlic):
        return False
    return not (deciding(s) and a.grave == s.pending)


def _match_forbids(s: S, a: A) -> bool:
    """Nothing goes into a grave unless one was just opened and found empty."""
    if not isinstance(a, PlaceVampire | PlaceGarlic | LeaveEmpty):
        return False
    if s.phase in (Phase.OPEN, Phase.GIVE, Phase.RECEIVE):
        return True
    return deciding(s) and a.grave != s.pending


def _end_all_opened(s: S, a: A, t: S) -> bool | None:
    p = t.plague
    if p is None or over(t) or t.phase is not Phase.OPEN:
        return None  # the grave just opened is still being dealt with
    rest = [g for g in t.config.board.neighbours[p.origin] if g not in p.opened]
    if any(t.lids[g] is not None for g in rest):
        return True
    if t.config.players == 2 and rest:
        return None  # a neighbour without a lid: still to be opened or not (du2p.lidless-grave)
    return False


def _end_all_passed(s: S, a: A, t: S) -> bool | None:
    """The round has come back: the player on the holder's right stops, the plague is over."""
    p = s.plague
    if p is None or not isinstance(a, Stop) or over(t):
        return None
    if left(s, p.current) == p.holder:
        return t.plague is None
    return None


def _end_all_declined(s: S, a: A, t: S) -> bool | None:
    """Reading 'until-all-pass': "(and no longer want to turn any more lids)": the plague goes
    round until every player in a row has declined."""
    p = s.plague
    if p is None or not isinstance(a, Stop) or over(t):
        return None
    if p.idle + 1 >= s.config.players:
        return t.plague is None
    return t.plague is not None


def _end_only_when(s: S, a: A, t: S) -> bool | None:
    """A plague is over only once it has gone round (every player has had the chance to
    take part) or no neighbouring grave is left to open."""
    p = s.plague
    if p is None or t.plague is not None or over(t):
        return None
    return p.turns >= s.config.players or not _neighbours_left(s, a)


def _end_new_rat(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or over(t):
        return None
    return t.plague is not None and t.plague.origin == a.grave and t.plague.opened == ()


def _plague_ended(s: S, a: A, t: S) -> bool:
    return s.plague is not None and t.plague is None and not over(t)


def _cleanup(s: S, a: A, t: S) -> bool | None:
    if not _plague_ended(s, a, t):
        return None
    assert s.plague is not None
    o = s.plague.origin
    return (bool(s.reserve) and t.lids[o] == s.reserve[0] and t.reserve == s.reserve[1:]
            and not t.known[o] and t.removed_rats == s.removed_rats + 1)


def _next_turn(s: S, a: A, t: S) -> bool | None:
    if not _plague_ended(s, a, t) or t.gifts or t.phase is GruftPhase.COUNT_PLACE:
        return None
    assert s.plague is not None
    return t.turn_player == left(s, s.plague.holder) and t.phase in (Phase.OPEN,
                                                                     GruftPhase.COUNT_OPEN)


def _new_rat_holder(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or over(t) or t.plague is None:
        return None
    finder = s.plague.current
    want = left(s, finder) if finder == s.plague.holder else finder
    return t.plague.holder == want


def _ch5_cleanup(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or over(t):
        return None
    o = s.plague.origin
    return (bool(s.reserve) and t.lids[o] == s.reserve[0] and t.reserve == s.reserve[1:]
            and t.removed_rats == s.removed_rats + 1)


def _holder_starts(s: S, a: A, t: S) -> bool | None:
    if s.plague is None or not _rat_opened(s, a) or t.plague is None:
        return None
    return t.plague.current == t.plague.holder


# ----------------------------------------------------------------------------- end


def _first_empty(s: S, a: A, t: S) -> bool:
    empty = [p for p, r in enumerate(t.rows) if not r]
    if empty:
        return over(t) and t.winner in empty
    return not over(t)


def _over_forbids(s: S, a: A) -> bool:
    return over(s)


def _clockwise(s: S, a: A, t: S) -> bool | None:
    """A turn passes from one player to the left neighbour (outside plagues)."""
    if s.plague is not None or t.plague is not None or over(t):
        return None
    if t.turn_player == s.turn_player:
        return None
    return t.turn_player == left(s, s.turn_player)


def _turn_frame(s: S, a: A, t: S) -> bool | None:
    """The turn passes only at a turn end some clause names: a fruitless search (garlic or
    leaving empty), a stake (also the 2-player stake for a barred grave), the last hand-over of
    a gift, a stop, or the end of a plague."""
    if over(t) or t.turn_player == s.turn_player:
        return None
    if _rat_opened(s, a):
        if t.plague is None:  # a plague begun and over at once
            return t.turn_player == left(s, s.plague.holder if s.plague else s.turn_player)
        return t.turn_player == t.plague.holder
    if s.plague is not None and t.plague is not None:
        return False  # inside a plague the turn stays where it is
    if s.plague is not None:
        return None  # the plague ended: du-en:ch4.next-turn says who plays
    if t.turn_player != left(s, s.turn_player) or t.gifts:
        return False
    return (isinstance(a, PlaceGarlic | LeaveEmpty | Stop)
            or (isinstance(a, ReceiveVampire) and len(s.gifts) == 1)
            or (isinstance(a, OpenGrave) and in_range(s, a.grave)
            and s.contents[a.grave] is not None)
            or _barred_open(s, a)  # du-en:2p.reopen: the stake ends the turn
            or s.phase not in (Phase.OPEN, Phase.PLACE, Phase.GIVE, Phase.RECEIVE))


def _plague_frame(s: S, a: A, t: S) -> bool | None:
    """Inside a plague the turn to open passes only when the current player stops."""
    if s.plague is None or t.plague is None or over(t) or _rat_opened(s, a):
        return None
    if isinstance(a, Stop):
        return None
    return t.plague.current == s.plague.current and t.plague.holder == s.plague.holder


def _knowledge(s: S, a: A, t: S) -> bool:
    """A lid becomes known only by being opened, and stays known while it lies on its grave."""
    g = a.grave if is_open(s, a) else None
    for i, (k0, k1) in enumerate(zip(s.known, t.known, strict=True)):
        if k1 and not k0 and i != g:
            return False
        if k0 and not k1 and t.lids[i] == s.lids[i]:
            return False
    return True


def _close_at_end(s: S, a: A, t: S) -> bool | None:
    """When a turn ends no grave stays open: nothing awaits a decision, no plague runs."""
    if over(t) or t.turn_player == s.turn_player or t.gifts:
        return None
    return t.pending is None and t.phase in (Phase.OPEN, GruftPhase.COUNT_OPEN)


# ----------------------------------------------------------------------------- 2 players


def _rat_stays(s: S, a: A, t: S) -> bool | None:
    if not _rat_opened(s, a) or over(t) or t.plague is None:
        return None
    return bool(t.lids[a.grave] == RAT)


def _two_plague(s: S, a: A, t: S) -> bool | None:
    if not _rat_opened(s, a) or over(t) or t.plague is None:
        return None
    finder = actor(s)
    if s.plague is None:
        return t.plague.holder == finder
    return t.plague.holder == 1 - finder


def _barred_forbids(s: S, a: A) -> bool:
    """Reading 'forbidden': "you cannot in your next turn open that same grave again"."""
    return _barred_open(s, a)


def _reopen(s: S, a: A, t: S) -> bool | None:
    """A barred grave opened anyway: the actor takes a stake (or the stake brings the gift) and
    the grave's content stays as it was (the grave is not used)."""
    if not _barred_open(s, a) or s.stakes_path == 0:
        return None  # an empty path: no source says (register entry du.empty-path)
    p = actor(s)
    if s.lids[a.grave] == RAT:
        return None
    took = t.stakes_held[p] == s.stakes_held[p] + 1 and t.stakes_path == s.stakes_path - 1
    # (or it was the third stake: all of them back on the path, the gift due)
    back = (s.stakes_held[p] + 1 >= s.config.stakes_for_gift and t.stakes_held[p] == 0
            and t.stakes_path == s.stakes_path + s.stakes_held[p]
            and bool(t.gifts) and all(g.receiver == p for g in t.gifts))
    return (took or back) and t.contents[a.grave] == s.contents[a.grave]


def _alias(s: S, a: A) -> bool:
    """A one-vampire row's vampire is named by its left end only (action encoding)."""
    if isinstance(a, PlaceVampire | GiveVampire | ReceiveVampire) and a.end is End.RIGHT:
        if isinstance(a, PlaceVampire):
            return len(s.rows[actor(s)]) == 1
        if s.gifts:
            who = s.gifts[0].giver if isinstance(a, GiveVampire) else s.gifts[0].receiver
            return len(s.rows[who]) <= 1
    return False


def _conservation(s: S, a: A, t: S) -> bool:
    """Vampires are only moved, never created or destroyed (du-en:aim.win: rid of them by
    placing or handing over)."""
    return total_vampires(t) == total_vampires(s)


# ----------------------------------------------------------------------------- component moves
# Moves the model has no action type for (properties/dawn_under/moves.py, issue #24), judged
# from the clause text like the model's actions.


def _gift_clause(s: S) -> str:
    return s.gifts[0].clause if s.gifts and s.phase in (Phase.GIVE, Phase.RECEIVE) else ""


def _not_outermost(clause: str) -> Any:
    """The clause names the vampire handed over as one of the giver's outermost ones."""
    def forbids(s: S, a: A) -> bool:
        return isinstance(a, GiveAt) and s.phase is Phase.GIVE and _gift_clause(s) == clause
    return forbids


def _not_to_you(clause: str) -> Any:
    """The clause names who gets the vampire ("gives you", "you get ... from each")."""
    def forbids(s: S, a: A) -> bool:
        return isinstance(a, GiveTo) and s.phase is Phase.GIVE and _gift_clause(s) == clause
    return forbids


def _into_row_forbids(s: S, a: A) -> bool:
    """Received vampires are placed in the card row (not kept beside it)."""
    return isinstance(a, ReceiveAside) and s.phase is Phase.RECEIVE


def _turn_is_opening(s: S, a: A) -> bool:
    """A turn is opening graves (and, after a placement, stopping): nobody hands a vampire
    over or gives stakes back of their own accord."""
    return isinstance(a, HandOver | StakeBack) and s.phase is Phase.OPEN


def _stakes_back_forbids(s: S, a: A) -> bool:
    """Stakes go back to the path when the third is collected, not before."""
    return isinstance(a, StakeBack)


C = Contract
CONTRACTS = ContractSet(
    source="du-en",
    contracts=(
        C("du-en:aim.win", requires=_conservation, applies=du, when=row_shrank,
          what="vampires leave a row only into a grave or another row"),
        C("du-en:play.clockwise", requires=_clockwise, applies=du,
          what="a turn passes to the left neighbour"),
        C("du-en:play.clockwise", requires=_turn_frame, applies=du,
          what="the turn passes only at a turn end"),
        C("du-en:ch4.pass", requires=_plague_frame, applies=du,
          what="the plague passes only on a stop"),
        C("du-en:ch1.open", requires=_knowledge, applies=du, when=lids_seen,
          what="lids become known only by opening, and stay known"),
        C("du-en:ch1.open", forbids=_open_forbids, permits=_open_permits,
          requires=_open_reveals, applies=du,
          what="a turn opens a grave with a lid; its underside is shown to all"),
        C("du-en:2p.lids", applies=two, alternatives=LIDLESS,
          what="2 players: the graves left without a lid stay open",
          question="In the 2-player game twenty graves have no lid and 'stay open': can a "
                   "player choose such a grave (and put any vampire in), or is it never used?"),
        C("du-en:ch1.open", requires=_new_turn_opens, applies=du,
          what="a new turn begins with an opening, nothing of the old one pending"),
        C("du-en:ch1.match", forbids=_match_forbids, permits=_match_permits,
          requires=_match_requires, applies=du,
          what="a matching outermost vampire goes into the just-opened empty grave",
          alternatives=_match_readings(False), question=MATCH_QUESTION),
        C("du-en:ch1.outermost", forbids=_outermost_forbids, applies=du,
          what="only an outermost vampire of the lid's colour is placed"),
        C("du-en:ch1.close", requires=_close_requires, applies=du,
          what="a used grave keeps its own lid"),
        C("du-en:ch1.continue", permits=_continue_permits, requires=_continue_requires,
          applies=du, what="after a placement the same player may open again",
          alternatives=(
              Alternative("may-stop", permits=_may_stop_permits,
                          what="the player may end the turn after a placement"),
              Alternative("must-go-on", forbids=_must_go_on_forbids,
                          what="the player keeps turning lids until a grave cannot be used")),
          question="After putting a vampire to rest, may the player end the turn, or must "
                   "they keep turning lids until they find a grave they cannot use ('keep "
                   "doing so until ...')?"),
        C("du-en:ch1.continue", requires=_stop_ends, applies=du,
          what="stopping ends the turn"),
        C("du-en:ch1.two-match", permits=_two_match_permits, requires=_two_match_requires,
          applies=du, when=two_matching, what="with two matches one is chosen, the other stays"),
        C("du-en:row.refill", requires=_refill_requires, applies=du, when=face_down_row_shrank,
          what="a row that lost a vampire shows two open at each end"),
        C("du-en:row.four-or-fewer", requires=_four_or_fewer, applies=du, when=row_down_to_cap,
          what="rows of four or fewer lie open"),
        C("du-en:row.order", requires=_keeps_order, applies=du, when=row_order_at_stake,
          what="the vampires of a row keep their order"),
        C("du-en:ch1.no-match", forbids=_no_match_forbids, applies=du,
          what="no vampire into a grave of another colour"),
        C("du-en:ch1.garlic", forbids=_garlic_forbids, permits=_garlic_permits,
          requires=_garlic_requires, applies=du,
          what="without a match: own garlic or leave empty; no garlic left: leave empty"),
        C("du-en:ch1.no-match-ends", requires=_no_match_ends, applies=du,
          what="a fruitless search ends the turn"),
        C("du-en:ch2.stake", requires=_stake_requires, applies=du,
          what="an occupied grave: the vampire stays, a stake is taken"),
        C("du-en:ch2.ends", requires=_stake_ends, applies=du,
          what="after the stake the turn ends"),
        C("du-en:ch2.ends", requires=_gift_of(garlic=False), applies=du,
          what="after the stake gift the turn ends"),
        C("du-en:ch2.gift", forbids=_gift_forbids, permits=_gift_permits,
          requires=_gift_requires, applies=base,
          what="the third stake: every other player owes one outermost vampire"),
        C("du-en:ch2.gift", permits=_give_permits, requires=_give_requires, applies=du,
          when=stake_gift_given,
          what="a giver hands over an outermost vampire"),
        C("du-en:ch2.stakes-back", applies=du, alternatives=STAKES_BACK,
          what="after the gift the three stakes go back to the path",
          question="With the third stake the three go back to the path 'then': at once, or "
                   "once the other players have handed over their vampires? (no rule reads "
                   "the stakes in between: du.stakes-back-timing)"),
        C("du-en:ch2.stakes-back", requires=_nobody_keeps_three, applies=du,
          when=stakes_returned,
          what="nobody keeps three stakes once the gift is handed over"),
        C("du-en:ch3.other-garlic", requires=_other_garlic(1), applies=base,
          what="another's garlic: its owner owes one vampire"),
        C("du-en:ch3.own-garlic", requires=_own_garlic(1), applies=base,
          what="own garlic: every other player owes one vampire"),
        C("du-en:ch3.garlic-back", requires=_garlic_back, applies=du,
          what="the found garlic goes back to its owner"),
        C("du-en:ch3.no-place", requires=_no_place, applies=du,
          what="the emptied grave takes nothing this time"),
        C("du-en:ch3.ends", requires=_gift_of(garlic=True), applies=du,
          what="after the garlic's hand-overs the turn ends"),
        C("du-en:ch3.received-open", permits=_receive_permits, requires=_receive_requires,
          applies=du, what="a received vampire joins an end of the row face up"),
        C("du-en:ch3.flip-when-short", requires=_flip_when_short, applies=du,
          when=face_down_row_changed,
          what="face-down vampires are turned only when a side is short"),
        C("du-en:ch4.rat", requires=_rat_requires, applies=du,
          what="a rat lid starts a plague held by its finder"),
        C("du-en:ch4.neighbours", permits=_neighbours_permits, applies=du,
          what="in a plague neighbours may be opened; stopping is allowed"),
        C("du-en:ch4.only-neighbours", forbids=_only_neighbours, applies=du,
          what="no other grave is opened in a plague"),
        C("du-en:ch4.order", permits=_neighbours_permits, applies=du,
          what="any remaining neighbour, in any order"),
        C("du-en:ch4.match", requires=_placement_in_plague((PlaceVampire,)), applies=du,
          what="after a placement in a plague the player may go on",
          alternatives=_match_readings(True), question=MATCH_QUESTION),
        C("du-en:ch4.garlic", requires=_placement_in_plague((PlaceGarlic, LeaveEmpty)),
          applies=du, what="after garlic in a plague the player may go on"),
        C("du-en:ch4.occupied", requires=_occupied_in_plague, applies=du,
          what="an occupied grave in a plague: resolved, and the player may go on"),
        C("du-en:ch4.pass", requires=_pass_requires, applies=du,
          what="stopping passes the plague to the left"),
        C("du-en:ch4.stay-open", forbids=_stay_open_forbids, requires=_stay_open_requires,
          applies=du, what="graves opened in a plague stay open (not reopened)"),
        C("du-en:ch4.just-opened", forbids=_just_opened_forbids, applies=du,
          what="only the grave just opened takes garlic or a vampire"),
        C("du-en:ch4.end-all-opened", requires=_end_all_opened, applies=du,
          what="a plague with every neighbour opened is over"),
        C("du-en:ch4.end-all-passed", applies=du,
          what="the plague ends once every player had the chance and no one wants more",
          alternatives=(
              Alternative("one-round", requires=_end_all_passed,
                          option=("plague_round", "one-round"),
                          what="it ends when the round comes back to the holder"),
              Alternative("until-all-pass", requires=_end_all_declined,
                          option=("plague_round", "until-all-pass"),
                          what="it goes round until every player in a row declines")),
          question="Does a rat plague end once every player has had one chance, or does it "
                   "go round until every player in a row declines to turn more lids?"),
        C("du-en:ch4.end-all-passed", requires=_end_only_when, applies=du,
          what="a plague ends only after its round or with no neighbour left to open"),
        C("du-en:ch4.end-new-rat", requires=_end_new_rat, applies=du,
          what="a new rat ends the plague and starts a new one"),
        C("du-en:ch5.new-plague", requires=_end_new_rat, applies=du,
          what="a new rat ends the plague and starts a new one"),
        C("du-en:ch4.cleanup", requires=_cleanup, applies=du,
          what="the rat's grave gets the top reserve lid, unseen"),
        C("du-en:ch4.next-turn", requires=_next_turn, applies=du,
          what="after the plague the starter's left neighbour plays"),
        C("du-en:ch5.hand-over", requires=_new_rat_holder, applies=base,
          what="the finder holds the new plague, or its left neighbour if the finder "
               "started the old one"),
        C("du-en:ch5.cleanup", requires=_ch5_cleanup, applies=du,
          what="the old rat's grave gets the top reserve lid"),
        C("du-en:ch5.holder-starts", requires=_holder_starts, applies=du,
          what="the new holder begins"),
        C("du-en:end.first-empty", forbids=_over_forbids, requires=_first_empty,
          applies=any_cfg, when=row_emptied, what="a player without vampires ends and wins the game"),
        C("du-en:2p.other-garlic", requires=_other_garlic(2), applies=two,
          what="2 players: the opponent's garlic earns two vampires"),
        C("du-en:2p.own-garlic-stake", requires=_stake_gift(4), applies=two,
          what="2 players: the third stake earns four vampires"),
        C("du-en:2p.own-garlic-stake", requires=_own_garlic(4), applies=two,
          what="2 players: own garlic earns four vampires"),
        C("du-en:2p.rat-stays", requires=_rat_stays, applies=two,
          what="2 players: the rat lid stays on its grave"),
        C("du-en:2p.plague", requires=_two_plague, applies=two,
          what="2 players: the finder starts; a second rat goes to the opponent"),
        C("du-en:2p.reopen", applies=two,
          what="2 players: a barred grave is not opened, or costs a stake",
          alternatives=(
              Alternative("stake-and-end", requires=_reopen,
                          option=("reopen_rule", "stake-and-end"),
                          what="opening it anyway costs a stake and ends the turn"),
              Alternative("forbidden", forbids=_barred_forbids,
                          option=("reopen_rule", "forbidden"),
                          what="the grave cannot be opened this turn")),
          question="In the 2-player game, may a player open a grave that the opponent "
                   "reopened ('you cannot ... if you still do this, take a stake')?"),
        C("du-en:ch2.gift", forbids=_not_outermost("du-en:ch2.gift"), applies=du,
          what="the stake gift is an outermost vampire"),
        C("du-en:ch3.other-garlic", forbids=_not_outermost("du-en:ch3.other-garlic"),
          applies=du, what="the garlic's owner gives an outermost vampire"),
        C("du-en:ch2.gift", forbids=_not_to_you("du-en:ch2.gift"), applies=du,
          what="the stake gift goes to the stakes' collector"),
        C("du-en:ch3.other-garlic", forbids=_not_to_you("du-en:ch3.other-garlic"),
          applies=du, what="the garlic's owner gives to the finder"),
        C("du-en:ch3.own-garlic", forbids=_not_to_you("du-en:ch3.own-garlic"), applies=du,
          what="every other player gives to the finder"),
        C("du-en:ch3.received-open", forbids=_into_row_forbids, applies=du,
          what="received vampires go into the row"),
        C("du-en:ch1.open", forbids=_turn_is_opening, applies=du,
          what="a turn opens graves; nothing is handed over of one's own accord"),
        C("du-en:ch2.stakes-back", forbids=_stakes_back_forbids, applies=du,
          what="stakes go back only with the third"),
    ),
    uncovered={
        "du-en:play.start": "set-up parameter (who starts is chosen before play)",
    },
    alias=_alias,
)
