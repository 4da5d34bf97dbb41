"""Invariants of Dawn Under as named predicates, each citing the clauses it protects.

An invariant maps a state to a list of violations (empty list = holds). Conservation laws take
their totals from a :class:`Totals` baseline: for dealt games it is the component manifest
(60 vampires, 13 stakes, 66 lids...); for scenario start positions it is computed from the
start state, so that what is checked is conservation by the transitions.
"""

from __future__ import annotations

import hashlib
import inspect
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.model.dawn_under.engine import current_player, legal_actions
from ruleproof.model.dawn_under.gruft import (
    GruftEvent,
    GruftPhase,
    bats_per_player,
    count_in_play,
    part,
)
from ruleproof.model.dawn_under.gruft.state import Gruft
from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    Event,
    EventKind,
    GarlicIn,
    Phase,
    Row,
    State,
    VampireIn,
)


@dataclass(frozen=True)
class Totals:
    """Conserved quantities: vampires and lids per value, stakes, garlic per player."""

    vampires: tuple[tuple[int, int], ...]  # (colour, count), sorted
    lids: tuple[tuple[int, int], ...]  # (lid value, count) incl. RAT, sorted
    stakes: int
    garlic: tuple[int, ...]

    @cached_property
    def vampire_counts(self) -> dict[int, int]:
        """``vampires`` as a dict without zero counts (what the fast check compares)."""
        return {k: n for k, n in self.vampires if n}

    @cached_property
    def lid_counts(self) -> dict[int, int]:
        """``lids`` as a dict without zero counts."""
        return {k: n for k, n in self.lids if n}

    @staticmethod
    def of_manifest(config: Config) -> Totals:
        """Totals of a dealt game (du-en:content.vampires, du-en:content.lids,
        du-en:content.stakes, du-en:prep.garlic)."""
        return Totals(
            vampires=tuple((c, config.vampires_per_colour) for c in config.vampire_colours),
            lids=tuple(sorted([(c, config.lids_per_colour) for c in config.lid_colours]
                              + [(RAT, config.rat_lids)])),
            stakes=config.stakes,
            garlic=(config.garlic,) * config.players,
        )

    @staticmethod
    def of_state(state: State) -> Totals:
        """Totals as found in ``state`` (for explicit scenario positions)."""
        return Totals(tuple(sorted(vampire_counts(state).items())),
                      tuple(sorted(lid_counts(state).items())),
                      state.stakes_path + sum(state.stakes_held),
                      garlic_totals(state))


def vampire_counts(state: State) -> Counter[int]:
    """Vampires per colour in rows, graves and in transit."""
    counts: Counter[int] = Counter([v.colour for row in state.rows for v in row])
    counts.update([c.colour for c in state.contents if type(c) is VampireIn])
    if state.in_transit is not None:
        counts[state.in_transit] += 1
    return counts


def lid_counts(state: State) -> Counter[int]:
    """Lids per value on graves, in the reserve, removed rats and the rat lid of a plague."""
    counts: Counter[int] = Counter([lid for lid in state.lids if lid is not None])
    counts.update(state.reserve)
    in_front = state.plague is not None and not state.config.rat_lid_stays
    counts[RAT] += state.removed_rats + (1 if in_front else 0)
    return counts


def garlic_totals(state: State) -> tuple[int, ...]:
    """Garlic per player: in hand plus in graves."""
    in_graves = Counter(c.owner for c in state.contents if isinstance(c, GarlicIn))
    return tuple(h + in_graves[p] for p, h in enumerate(state.garlic_hand))


Invariant = Callable[[State, Totals], list[str]]


def vampires_conserved(state: State, totals: Totals) -> list[str]:
    """Vampires per colour in rows + graves (+ one in transit) are constant
    (du-en:content.vampires, du-en:prep.deal, du-en:ch2.gift)."""
    # fast path: count into a plain dict (every entry positive) and compare with the
    # totals' non-zero entries; the Counter below only words a violation
    counts: dict[int, int] = {}
    get = counts.get
    for row in state.rows:
        for v in row:
            c = v.colour
            counts[c] = get(c, 0) + 1
    for x in state.contents:
        if type(x) is VampireIn:
            c = x.colour
            counts[c] = get(c, 0) + 1
    if state.in_transit is not None:
        c = state.in_transit
        counts[c] = get(c, 0) + 1
    if counts == totals.vampire_counts:
        return []
    got = tuple(sorted((c, n) for c, n in vampire_counts(state).items() if n))
    want = tuple((c, n) for c, n in totals.vampires if n)
    return [] if got == want else [f"vampires per colour {dict(got)} != {dict(want)}"]


def stakes_conserved(state: State, totals: Totals) -> list[str]:
    """Stakes on the path + in front of players are constant, the path never goes negative,
    and after resolution nobody holds the gift number of stakes
    (du-en:content.stakes, du-en:ch2.gift, du-en:ch2.stakes-back)."""
    out = []
    total = state.stakes_path + sum(state.stakes_held)
    if total != totals.stakes:
        out.append(f"stakes: path {state.stakes_path} + held {state.stakes_held} != {totals.stakes}")
    if state.stakes_path < 0:
        out.append(f"stakes on the path went negative: {state.stakes_path}")
    cfg = state.config
    limit = cfg.stakes_for_gift - 1 if cfg.options.gift_trigger == "third-stake" \
        else cfg.stakes_for_gift
    for p, held in enumerate(state.stakes_held):
        if held > limit:
            out.append(f"player {p} holds {held} stakes after resolution (at most {limit})")
    return out


def garlic_conserved(state: State, totals: Totals) -> list[str]:
    """Each player's garlic in hand + in graves stays 3 (du-en:prep.garlic,
    du-en:ch3.garlic-back), and no hand is negative."""
    hand = state.garlic_hand
    # fast path (a subclass of GarlicIn would only send the check down the exact path)
    owners = [x.owner for x in state.contents if type(x) is GarlicIn]
    if not owners:
        fine = hand == totals.garlic
    else:
        fine = tuple(h + owners.count(p) for p, h in enumerate(hand)) == totals.garlic
    if fine and (not hand or min(hand) >= 0):
        return []
    out = []
    if garlic_totals(state) != totals.garlic:
        out.append(f"garlic per player {garlic_totals(state)} != {totals.garlic}")
    if any(h < 0 for h in state.garlic_hand):
        out.append(f"negative garlic in hand: {state.garlic_hand}")
    return out


def lids_accounted(state: State, totals: Totals) -> list[str]:
    """All lids are on graves, in the reserve stack, removed (rats) or the rat lid in front of
    a player; per colour and rats (du-en:content.lids, du-en:ch4.cleanup, du-en:ch5.cleanup).
    Every removed rat consumed exactly one reserve lid, and the reserve holds no rat
    (du-en:prep.reserve)."""
    counts: dict[int, int] = {}
    get = counts.get
    for lid in state.lids:
        if lid is not None:
            counts[lid] = get(lid, 0) + 1
    for lid in state.reserve:
        counts[lid] = get(lid, 0) + 1
    in_front = state.plague is not None and not state.config.rat_lid_stays
    counts[RAT] = get(RAT, 0) + state.removed_rats + (1 if in_front else 0)
    if not counts[RAT]:
        del counts[RAT]
    if counts == totals.lid_counts and RAT not in state.reserve:
        return []
    out = []
    got = tuple(sorted((v, n) for v, n in lid_counts(state).items() if n))
    want = tuple((v, n) for v, n in totals.lids if n)
    if got != want:
        out.append(f"lids {dict(got)} != {dict(want)}")
    if RAT in state.reserve:
        out.append("a rat lid is in the reserve stack")
    return out


def row_well_formed(row: Row, config: Config) -> list[str]:
    """The open/covered pattern of one row (du-en:row.refill, du-en:row.four-or-fewer,
    du-en:ch3.flip-when-short)."""
    ups = [v.face_up for v in row]
    if len(row) <= config.all_open_at_most:
        return [] if all(ups) else ["a row of four or fewer has a face-down vampire"]
    covered = [i for i, up in enumerate(ups) if not up]
    if not covered:
        return []
    if covered != list(range(covered[0], covered[-1] + 1)):
        return ["face-down vampires are not one block in the middle"]
    need = config.open_per_side
    if covered[0] < need or len(row) - 1 - covered[-1] < need:
        return [f"an end shows fewer than {need} open vampires while face-down ones remain"]
    return []


def rows_show_open(state: State, totals: Totals) -> list[str]:
    """Every row shows the right open vampires (see :func:`row_well_formed`)."""
    limit = state.config.all_open_at_most
    for row in state.rows:  # fast path: short rows all face up
        if len(row) > limit or not all([v.face_up for v in row]):
            break
    else:
        return []
    return [f"row of player {p}: {msg}" for p, row in enumerate(state.rows)
            for msg in row_well_formed(row, state.config)]


def graves_consistent(state: State, totals: Totals) -> list[str]:
    """A grave holds at most one thing; a vampire lies only under a lid of its colour
    (du-en:content.graves, du-en:ch1.match); only the rat's grave of a running plague is
    lidless and it is empty (du-en:ch4.rat)."""
    out = []
    if len(state.contents) != state.config.board.size:
        out.append("number of graves changed")
    gruft = part(state) is not None  # gruft-en:count.empty, gruft-en:bats.open: any colour goes in
    for g, content in enumerate(state.contents):
        if type(content) is not VampireIn or gruft:
            continue
        lid = state.lids[g]
        if lid is not None and lid != content.colour:
            names = state.config.colours
            shown = "a rat lid" if lid == RAT else f"a {names[lid]} lid"
            out.append(f"grave {g}: a {names[content.colour]} vampire under {shown}")
    if None in state.lids and state.config.players != 2:
        for g, lid in enumerate(state.lids):
            lidless_ok = state.plague is not None and state.plague.origin == g
            if lid is None and not lidless_ok:
                out.append(f"grave {g} has no lid outside a plague")
    if state.plague is not None:
        origin = state.plague.origin
        expected = RAT if state.config.rat_lid_stays else None
        # with the expansion a vampire put in without a match may lie under a rat lid
        occupied = state.contents[origin] is not None and not gruft
        if occupied or state.lids[origin] != expected:
            out.append(f"plague origin {origin} is not an empty grave under its rat lid")
    return out


def flow_consistent(state: State, totals: Totals,
                    legal: tuple[object, ...] | None = None) -> list[str]:
    """Turn bookkeeping: valid players; a PLACE decision concerns an open, empty, coloured
    grave (du-en:ch1.match); plague graves are neighbours of its origin
    (du-en:ch4.only-neighbours); the game is over exactly when a row is empty and its owner won
    (du-en:end.first-empty); a non-terminal state has a legal action (no dead ends).
    ``legal``: ``legal_actions(state)`` if the caller has it already."""
    out = []
    n = state.config.players
    empty_rows = [p for p, row in enumerate(state.rows) if not row]
    if state.phase is Phase.OVER:
        if state.winner is None or state.winner not in empty_rows:
            out.append(f"game over but winner {state.winner} has vampires left")
        return out
    if empty_rows:
        out.append(f"players {empty_rows} have no vampires but the game goes on")
    if not 0 <= current_player(state) < n:
        out.append(f"player to move {current_player(state)} is not a player")
    if state.phase is Phase.PLACE:
        g = state.pending
        wild = state.config.options.lidless_grave == "wild" and state.config.players == 2
        if (g is None or state.contents[g] is not None or state.lids[g] == RAT
                or (state.lids[g] is None and not wild)):
            out.append(f"PLACE decision on grave {g}, which is not an empty coloured grave")
    if state.plague is not None:
        nbrs = set(state.config.board.neighbours[state.plague.origin])
        if not set(state.plague.opened) <= nbrs:
            out.append(f"plague opened non-neighbours {set(state.plague.opened) - nbrs}")
        one_round = state.config.options.plague_round == "one-round"
        if one_round and not 1 <= state.plague.turns <= n:
            out.append(f"plague turn count {state.plague.turns} outside 1..{n}")
        if not 0 <= state.plague.idle < n:
            out.append(f"plague continues after {state.plague.idle} players in a row declined")
    if not (legal_actions(state) if legal is None else legal):
        out.append("non-terminal state without a legal action (dead end)")
    return out


def bats_conserved(state: State, totals: Totals) -> list[str]:
    """Expansion: two bats per player colour in play (fewer in a reduced configuration:
    ``bats_per_player``), each in front of its player, on a grave (a claim being answered) or
    back in the box; used bats never return (gruft-en:components.bats, gruft-en:prep.bats,
    gruft-en:bats.once)."""
    gp = part(state)
    if gp is None:
        if state.config.options.expansion == "gruft" or state.extension is not None:
            return ["the expansion is on but there are no bats, or bats without it"]
        return []
    n = state.config.players
    out = []
    if len(gp.bats) != n or len(gp.bats_out) != n:
        return [f"bats for {len(gp.bats)} players, {n} play"]
    want = bats_per_player(state.config)
    for p in range(n):
        on_grave = 1 if gp.bat is not None and gp.bat.owner == p and \
            state.phase is GruftPhase.BAT else 0
        if min(gp.bats[p], gp.bats_out[p]) < 0 or \
                gp.bats[p] + gp.bats_out[p] + on_grave != want:
            out.append(f"player {p}: {gp.bats[p]} bats in hand, {gp.bats_out[p]} out, "
                       f"{on_grave} on a grave (want {want})")
    if state.phase is GruftPhase.BAT and gp.bat is None:
        out.append("a bat is to be answered but none stands on a grave")
    return out


def count_consistent(state: State, totals: Totals) -> list[str]:
    """Expansion: one Count and one post, each in exactly one place: the post in the middle of
    the board or in front of one player; the Count on the post or on one closed grave kept for
    the post's player, a grave nobody else has opened and nobody opens in a plague
    (gruft-en:components.count, gruft-en:prep.count, gruft-en:count.guard,
    gruft-en:faq.count-plague); graves left open are consistent (gruft-en:play.keep-open).
    With the Count left in the box (a reduced configuration's ``count_figures`` 0) neither
    the Count nor the post ever leaves the middle and no turn counts placements for it."""
    gp = part(state)
    if gp is None:
        if isinstance(state.phase, GruftPhase):
            return ["a phase of the expansion in a game without the expansion"]
        return []
    out = []
    n = state.config.players
    if gp.post is not None and not 0 <= gp.post < n:
        out.append(f"the post stands in front of {gp.post}, not a player")
    g = gp.count_grave
    if not count_in_play(state.config) and (gp.post is not None or g is not None
                                            or gp.streak):
        out.append("the Count is in the box, yet the post, the Count or a run of "
                   "placements for it is in play")
    if g is not None:
        if gp.post is None:
            out.append(f"the Count stands on grave {g} but the post is in the middle")
        if not 0 <= g < state.config.board.size or state.lids[g] is None:
            out.append(f"the Count stands on grave {g}, which is no closed grave")
        if state.plague is not None and g in state.plague.opened:
            out.append(f"the Count's grave {g} was opened in a plague")
        holders_phase = state.phase in (GruftPhase.PUT, GruftPhase.COUNT_MOVE) \
            and gp.bat is None and state.pending == g and state.turn_player == gp.post
        if g in gp.open_graves and not holders_phase and state.phase is not Phase.OVER:
            out.append(f"the Count's grave {g} is open outside its holder's opening")
    if len(set(gp.open_graves)) != len(gp.open_graves):
        out.append(f"a grave is open twice: {gp.open_graves}")
    if state.phase is GruftPhase.COUNT_OPEN and (g is None or state.turn_player != gp.post):
        out.append("a Count opening without the Count on a grave of the player to move")
    return out


INVARIANTS: dict[str, Invariant] = {
    "vampires-conserved": vampires_conserved,
    "stakes-conserved": stakes_conserved,
    "garlic-conserved": garlic_conserved,
    "lids-accounted": lids_accounted,
    "rows-show-open": rows_show_open,
    "graves-consistent": graves_consistent,
    "flow-consistent": flow_consistent,
    "bats-conserved": bats_conserved,
    "count-consistent": count_consistent,
}

INVARIANT_CLAUSES: dict[str, tuple[str, ...]] = {
    "vampires-conserved": ("du-en:content.vampires", "du-en:prep.deal", "du-en:ch2.gift"),
    "stakes-conserved": ("du-en:content.stakes", "du-en:ch2.gift", "du-en:ch2.stakes-back"),
    "garlic-conserved": ("du-en:prep.garlic", "du-en:ch3.garlic-back"),
    "lids-accounted": ("du-en:content.lids", "du-en:prep.reserve", "du-en:ch4.cleanup",
                       "du-en:ch5.cleanup"),
    "rows-show-open": ("du-en:row.refill", "du-en:row.four-or-fewer",
                       "du-en:ch3.flip-when-short"),
    "graves-consistent": ("du-en:content.graves", "du-en:ch1.match", "du-en:ch4.rat"),
    "flow-consistent": ("du-en:ch1.match", "du-en:ch4.only-neighbours", "du-en:end.first-empty"),
    "bats-conserved": ("gruft-en:components.bats", "gruft-en:prep.bats", "gruft-en:bats.once"),
    "count-consistent": ("gruft-en:components.count", "gruft-en:prep.count",
                         "gruft-en:count.guard", "gruft-en:faq.count-plague"),
}


def violations(state: State, totals: Totals,
               legal: tuple[object, ...] | None = None) -> list[str]:
    """All violations of all invariants, each prefixed with the invariant's name.
    ``legal``: ``legal_actions(state)`` if the caller has it already (flow-consistent's
    dead-end check then uses it instead of computing it again)."""
    out: list[str] = []
    for name, inv in INVARIANTS.items():
        found = flow_consistent(state, totals, legal) if inv is flow_consistent \
            else inv(state, totals)
        if found:
            out += [f"{name}: {msg}" for msg in found]
    return out


_COLOURS = 64
"""Colours (and lid values + 1) a digit sum (:func:`_sig`) can hold."""
_DIGIT = 1 << 12
"""Fewer items than this in a part: no digit of its sum overflows."""
_B = 1 << 16
"""The base of the digit sums: a sum of a few parts' digits (each below :data:`_DIGIT`)
stays below it, so equal sums mean equal counts per value."""
_MEMO_LIMIT = 1 << 17
"""Most parts :class:`FastInvariants` keeps a summary of (then it starts afresh)."""


def _sig(counts: dict[int, int], shift: int) -> int:
    """The digit sum of ``counts`` (value -> count): count times ``_B ** (value + shift)``;
    -1 if a value or count does not fit (the fast path then never accepts)."""
    sig = 0
    for value, count in counts.items():
        if not 0 <= value + shift < _COLOURS or not 0 <= count < _DIGIT:
            return -1
        sig += count * _B ** (value + shift)
    return sig


def _lids_summary(lids: tuple[int | None, ...]) -> tuple[int, tuple[int, ...]] | None:
    """``(digit sum of the lid values + 1, graves without a lid)``, or None: a lid value
    that is no small int (or too many graves)."""
    sig = 0
    lidless: list[int] = []
    for g, lid in enumerate(lids):
        if lid is None:
            lidless.append(g)
        elif type(lid) is not int or not 0 <= lid + 1 < _COLOURS:
            return None
        else:
            sig += _B ** (lid + 1)
    if len(lids) >= _DIGIT:
        return None
    return sig, tuple(lidless)


def _reserve_summary(reserve: tuple[int, ...]) -> tuple[int, bool] | None:
    """``(digit sum of the lid values + 1, a rat among them)``, or None (as
    :func:`_lids_summary`)."""
    sig = 0
    for lid in reserve:
        if type(lid) is not int or not 0 <= lid + 1 < _COLOURS:
            return None
        sig += _B ** (lid + 1)
    if len(reserve) >= _DIGIT:
        return None
    return sig, RAT in reserve


REFERENCE_DIGEST = "897e522f178fe5e4"
"""The digest (:func:`reference_digest`) of the nine invariants :class:`FastInvariants`
mirrors. When an invariant changes, the fused pass no longer decides anything (every state
takes the nine one by one: the same results, slower) until it is brought in line and this
digest updated (tests/test_explore_fast_paths.py fails meanwhile)."""


def reference_digest() -> str:
    """SHA-256 (first 16 hex digits) of the source of every invariant of :data:`INVARIANTS`;
    "" when a source cannot be read."""
    try:
        text = "".join(inspect.getsource(f) for f in INVARIANTS.values())
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class FastInvariants:
    """:func:`violations` for one configuration, with a fused fast path: one pass over the
    state decides whether all nine invariants of :data:`INVARIANTS` hold; only when it
    cannot say so does it run them one by one (which then words every violation). The pass
    reads what each invariant reads and accepts only states each invariant accepts (it is
    stricter where that is simpler: a doubtful state takes the exact path), so
    :meth:`violations` returns what :func:`violations` returns for every state
    (tests/test_fast_paths.py compares them on every reachable state of several set-ups
    and on states broken on purpose). What the explorer calls for every distinct state
    (``properties/dawn_under/explore.py``): the nine invariants as nine calls each building
    its list cost about as much as a transition.

    Args:
        config: the configuration of every state checked.
        totals: the conserved totals (:class:`Totals`).

    Clauses: those of :data:`INVARIANT_CLAUSES` (the same invariants).
    """

    def __init__(self, config: Config, totals: Totals) -> None:
        self.config = config
        self.totals = totals
        self._same_config = config
        # the fused pass mirrors the nine invariants as they are (REFERENCE_DIGEST)
        self.mirrors = reference_digest() == REFERENCE_DIGEST
        self._vampires = totals.vampire_counts
        self._lids = totals.lid_counts
        self._stakes = totals.stakes
        self._garlic = totals.garlic
        self._stake_limit = (config.stakes_for_gift - 1
                             if config.options.gift_trigger == "third-stake"
                             else config.stakes_for_gift)
        self._players = config.players
        self._size = config.board.size
        self._all_open = config.all_open_at_most
        self._need = config.open_per_side
        self._rat_front = not config.rat_lid_stays
        self._origin_lid = RAT if config.rat_lid_stays else None
        self._wild = config.options.lidless_grave == "wild" and config.players == 2
        self._one_round = config.options.plague_round == "one-round"
        self._neighbours = tuple(frozenset(n) for n in config.board.neighbours)
        self._gruft_on = config.options.expansion == "gruft"
        # summaries of rows, contents, lids and reserves, by identity (each entry keeps its
        # part alive, so an id is not reused while its entry exists)
        self._memos: tuple[dict[int, tuple[object, Any]], ...] = ({}, {}, {}, {})
        # the conserved counts as digit sums (_sig); -1: not expressible (never fast)
        self._vampire_sig = _sig(totals.vampire_counts, 0)
        self._lid_sig = _sig(totals.lid_counts, 1)
        # the bats each player holds, has used or has on a grave: as dealt
        # (gruft-en:prep.bats), the total bats-conserved compares with
        self._bats: tuple[int, ...] | None = None
        if self._gruft_on and config.expansion is not None:
            dealt = config.expansion.initial(config)
            if isinstance(dealt, Gruft) and len(set(dealt.bats_out)) <= 1 \
                    and not any(dealt.bats_out):
                self._bats = dealt.bats
        # with the Count in the box (a reduced configuration) the post, the Count and a run of
        # placements for it must never appear: such a state takes the exact path
        self._count_on = self._gruft_on and count_in_play(config)

    def _rows_summary(self, rows: tuple[Row, ...]) -> tuple[int, bool] | None:
        """``(digit sum of the vampires' colours, some row empty)``, or None: a row
        breaks rows-show-open (du-en:row.refill, du-en:row.four-or-fewer,
        du-en:ch3.flip-when-short) or a colour is no small int."""
        lim = self._all_open
        need = self._need
        sig = 0
        some_empty = False
        total = 0
        for row in rows:
            size = len(row)
            if not size:
                some_empty = True
                continue
            total += size
            for v in row:
                c = v.colour
                if type(c) is not int or not 0 <= c < _COLOURS:
                    return None
                sig += _B ** c
            if size <= lim:
                for v in row:
                    if not v.face_up:
                        return None
            else:
                i = 0
                while i < size and row[i].face_up:
                    i += 1
                if i < size:
                    j = size - 1
                    while row[j].face_up:
                        j -= 1
                    if i < need or size - 1 - j < need:
                        return None
                    for k in range(i, j + 1):
                        if row[k].face_up:
                            return None
        if total >= _DIGIT:
            return None
        return sig, some_empty

    def _contents_summary(self, contents: tuple[object, ...]
                          ) -> tuple[int, tuple[int, ...] | None, tuple[tuple[int, int], ...]] | None:
        """``(digit sum of the vampires' colours in graves, garlic per owner or None for
        none, (grave, colour) of each vampire)``, or None: a content of another type, an owner
        who is not a player, a colour that is no small int."""
        n = self._players
        sig = 0
        adds: list[int] | None = None
        graves: list[tuple[int, int]] = []
        x: Any
        for g, x in enumerate(contents):
            if x is None:
                continue
            t = type(x)
            if t is VampireIn:
                c = x.colour
                if type(c) is not int or not 0 <= c < _COLOURS:
                    return None
                sig += _B ** c
                graves.append((g, c))
            elif t is GarlicIn:
                o = x.owner
                if type(o) is not int or not 0 <= o < n:
                    return None
                if adds is None:
                    adds = [0] * n
                adds[o] += 1
            else:
                return None
        if len(contents) >= _DIGIT:
            return None
        return sig, None if adds is None else tuple(adds), tuple(graves)

    def violations(self, state: State, legal: tuple[object, ...] | None = None) -> list[str]:
        """:func:`violations` of ``state`` (``legal``: its legal actions, if known)."""
        if self.holds(state, legal):
            return []
        return violations(state, self.totals, legal)

    def _room(self) -> None:
        """Before a summary is added: start the memos afresh once they hold more than
        :data:`_MEMO_LIMIT` parts (checked on a miss only: a hit adds nothing)."""
        memos = self._memos
        if sum(map(len, memos)) >= _MEMO_LIMIT:
            for m in memos:
                m.clear()

    def holds(self, state: State, legal: tuple[object, ...] | None = None) -> bool:
        """True only if every invariant of :data:`INVARIANTS` holds in ``state`` (False: not
        decided here; :func:`violations` decides)."""
        if not self.mirrors:
            return False
        config = state.config
        if config is not self._same_config:
            if config != self.config:
                return False
            self._same_config = config  # an equal configuration (e.g. of another game object)
        rows = state.rows
        contents = state.contents
        lids = state.lids
        n = self._players
        if len(rows) != n or len(contents) != self._size or len(lids) != self._size:
            return False
        # Per part (found by identity: a successor shares most parts with its parent), a
        # summary made once: counts as digit sums (see _sig), the rows' shape, garlic.
        rmemo, cmemo, lmemo, resmemo = self._memos
        hit = rmemo.get(id(rows))
        if hit is None or hit[0] is not rows:
            self._room()
            hit = rmemo[id(rows)] = (rows, self._rows_summary(rows))
        rsum = hit[1]
        hit = cmemo.get(id(contents))
        if hit is None or hit[0] is not contents:
            self._room()
            hit = cmemo[id(contents)] = (contents, self._contents_summary(contents))
        csum = hit[1]
        hit = lmemo.get(id(lids))
        if hit is None or hit[0] is not lids:
            self._room()
            hit = lmemo[id(lids)] = (lids, _lids_summary(lids))
        lsum = hit[1]
        reserve = state.reserve
        hit = resmemo.get(id(reserve))
        if hit is None or hit[0] is not reserve:
            self._room()
            hit = resmemo[id(reserve)] = (reserve, _reserve_summary(reserve))
        resum = hit[1]
        if rsum is None or csum is None or lsum is None or resum is None:
            return False
        # rows-show-open (du-en:row.refill, du-en:row.four-or-fewer): the rows' summary
        row_sig, some_empty = rsum
        content_sig, garlic_adds, vampire_graves = csum
        # vampires-conserved (du-en:content.vampires)
        transit = state.in_transit
        if transit is None:
            vsig = row_sig + content_sig
        elif type(transit) is int and 0 <= transit < _COLOURS:
            vsig = row_sig + content_sig + _B ** transit
        else:
            return False
        if vsig != self._vampire_sig:
            return False
        gruft_part = state.extension
        gp = gruft_part if isinstance(gruft_part, Gruft) else None
        if gp is None:
            # graves-consistent (du-en:ch1.match): a vampire under a lid of its colour
            for g, c in vampire_graves:
                lid = lids[g]
                if lid is not None and lid != c:
                    return False
        # garlic-conserved (du-en:prep.garlic, du-en:ch3.garlic-back)
        hand = state.garlic_hand
        if garlic_adds is None:
            if hand != self._garlic:
                return False
        elif tuple([h + a for h, a in zip(hand, garlic_adds, strict=False)]) != self._garlic \
                or len(hand) != n:
            return False
        if hand and min(hand) < 0:
            return False
        # stakes-conserved (du-en:content.stakes, du-en:ch2.gift)
        held = state.stakes_held
        path = state.stakes_path
        if path < 0 or path + sum(held) != self._stakes or (held and max(held) > self._stake_limit):
            return False
        # lids-accounted (du-en:content.lids, du-en:prep.reserve, du-en:ch4.cleanup): no rat
        # in the reserve, and lids on graves + reserve + rats out of play as dealt
        lid_sig, lidless = lsum
        reserve_sig, reserve_rat = resum
        plague = state.plague
        removed = state.removed_rats
        if reserve_rat or type(removed) is not int or not 0 <= removed < _DIGIT:
            return False
        rats = removed + (1 if plague is not None and self._rat_front else 0)
        if lid_sig + reserve_sig + rats != self._lid_sig:
            return False
        # graves-consistent (du-en:content.graves, du-en:ch4.rat)
        if lidless and n != 2:
            for g in lidless:
                if plague is None or plague.origin != g:
                    return False
        if plague is not None:
            origin = plague.origin
            if not 0 <= origin < self._size:
                return False
            if (contents[origin] is not None and gp is None) or \
                    lids[origin] != self._origin_lid:
                return False
        # flow-consistent (du-en:ch1.match, du-en:ch4.only-neighbours, du-en:end.first-empty)
        phase = state.phase
        if phase is Phase.OVER:
            w = state.winner
            if w is None or not 0 <= w < n or rows[w]:
                return False
        else:
            if some_empty:
                return False
            if not 0 <= current_player(state) < n:
                return False
            if phase is Phase.PLACE:
                pg = state.pending
                if pg is None or not 0 <= pg < self._size or contents[pg] is not None:
                    return False
                lid = lids[pg]
                if lid == RAT or (lid is None and not self._wild):
                    return False
            if plague is not None:
                if not self._neighbours[plague.origin].issuperset(plague.opened):
                    return False
                if self._one_round and not 1 <= plague.turns <= n:
                    return False
                if not 0 <= plague.idle < n:
                    return False
            if not (legal_actions(state) if legal is None else legal):
                return False
        # bats-conserved and count-consistent (the expansion)
        if gp is None:
            return not self._gruft_on and gruft_part is None and \
                not isinstance(phase, GruftPhase)
        bats = self._bats
        if bats is None:
            return False
        have, out = gp.bats, gp.bats_out
        if len(have) != n or len(out) != n:
            return False
        bat = gp.bat
        on = -1 if bat is None or phase is not GruftPhase.BAT else bat.owner
        for p in range(n):
            a, b = have[p], out[p]
            if a < 0 or b < 0 or a + b + (1 if p == on else 0) != bats[p]:
                return False
        if phase is GruftPhase.BAT and bat is None:
            return False
        post = gp.post
        if post is not None and not 0 <= post < n:
            return False
        cg = gp.count_grave
        if not self._count_on and (post is not None or cg is not None or gp.streak):
            return False
        opened = gp.open_graves
        if cg is not None:
            if post is None or not 0 <= cg < self._size or lids[cg] is None:
                return False
            if plague is not None and cg in plague.opened:
                return False
            if cg in opened and phase is not Phase.OVER and not (
                    (phase is GruftPhase.PUT or phase is GruftPhase.COUNT_MOVE)
                    and bat is None and state.pending == cg and state.turn_player == post):
                return False
        if len(set(opened)) != len(opened):
            return False
        return not (phase is GruftPhase.COUNT_OPEN and (cg is None or state.turn_player != post))


def transition_violations(before: State, events: tuple[Event, ...], after: State) -> list[str]:
    """Expansion: properties of one transition. The grave kept by Count Rucola is opened by
    nobody but the post's player, and only through the Count's opening, never by turning its
    lid in a plague (gruft-en:count.guard, gruft-en:faq.count-plague,
    gruft-en:faq.rat-ignored); a player's used bats never come back (gruft-en:bats.once)."""
    gb, ga = before.extension, after.extension
    if not isinstance(gb, Gruft) or not isinstance(ga, Gruft):
        return []
    out = []
    kept = gb.count_grave
    if kept is not None:  # (no grave kept: no event can open it)
        for e in events:
            if e.grave == kept and e.kind in (EventKind.REVEAL, GruftEvent.BAT_OPEN):
                out.append(f"player {e.player} opened grave {kept}, kept by the Count for "
                           f"player {gb.post}")
            if e.grave == kept and e.kind is GruftEvent.COUNT_OPEN \
                    and (e.player != gb.post or before.plague is not None):
                out.append(f"the Count's grave {kept} opened by {e.player} or in a plague")
    # (the same tuple: no bat came back)
    if ga.bats_out is not gb.bats_out and any(
            a < b for a, b in zip(ga.bats_out, gb.bats_out, strict=True)):
        out.append("a used bat came back out of the box")
    return out


class InterfaceInvariants:
    """Dawn Under's invariants over the one game interface (the ``invariants`` capability,
    :class:`ruleproof.properties.play.GameInvariants`): :func:`violations` against the
    component manifest of the game's configuration (:meth:`Totals.of_manifest`) and
    :func:`transition_violations` on the events of the step (the interface's history payload).
    """

    def baseline(self, state: GameState) -> Totals:
        """The manifest totals of ``state``'s configuration."""
        return Totals.of_manifest(state.model.config)

    def violations(self, state: GameState, baseline: Totals) -> list[str]:
        """:func:`violations` of the engine state."""
        return violations(state.model, baseline)

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        """:func:`transition_violations` of the step, its events read from the history."""
        events = after.node.seen if after.node is not None else ()
        return transition_violations(before.model, events, after.model)


INTERFACE_INVARIANTS = InterfaceInvariants()
"""The ``invariants`` capability of the plugin record."""
