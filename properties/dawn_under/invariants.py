"""Invariants of Dawn Under as named predicates, each citing the clauses it protects.

An invariant maps a state to a list of violations (empty list = holds). Conservation laws take
their totals from a :class:`Totals` baseline: for dealt games it is the component manifest
(60 vampires, 13 stakes, 66 lids...); for scenario start positions it is computed from the
start state, so that what is checked is conservation by the transitions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from ruleproof.model.api import GameState
from ruleproof.model.dawn_under.engine import current_player, legal_actions
from ruleproof.model.dawn_under.gruft import (
    GruftEvent,
    GruftPhase,
    bats_per_player,
    count_in_play,
    part,
)
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


def transition_violations(before: State, events: tuple[Event, ...], after: State) -> list[str]:
    """Expansion: properties of one transition. The grave kept by Count Rucola is opened by
    nobody but the post's player, and only through the Count's opening, never by turning its
    lid in a plague (gruft-en:count.guard, gruft-en:faq.count-plague,
    gruft-en:faq.rat-ignored); a player's used bats never come back (gruft-en:bats.once)."""
    gb, ga = part(before), part(after)
    if gb is None or ga is None:
        return []
    out = []
    kept = gb.count_grave
    for e in events:
        if kept is not None and e.grave == kept and e.kind in (EventKind.REVEAL,
                                                               GruftEvent.BAT_OPEN):
            out.append(f"player {e.player} opened grave {kept}, kept by the Count for "
                       f"player {gb.post}")
        if kept is not None and e.grave == kept and e.kind is GruftEvent.COUNT_OPEN \
                and (e.player != gb.post or before.plague is not None):
            out.append(f"the Count's grave {kept} opened by {e.player} or in a plague")
    if any(a < b for a, b in zip(ga.bats_out, gb.bats_out, strict=True)):
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
