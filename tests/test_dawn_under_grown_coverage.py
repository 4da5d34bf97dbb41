"""The Dawn Under set-ups grown for the clauses no smaller set-up fired (#30), explored to the
last state with every contract on: each fires the clauses it was chosen for, breaks no
contract, and has its pinned counts (the small one slow, about 20 s; the large ones in the
thorough marker, a few minutes each on a quiet machine, the expansion's about half an hour). The set-ups
without garlic fire no garlic clause: a stake gift's last hand-over is not counted as a garlic
find's (the contracts of du-en:ch3.ends and du-cs:prubeh.garlic-ends once spoke after both)."""

from __future__ import annotations

import pytest

from ruleproof.properties.explore.games import configuration, pinned_results
from ruleproof.properties.explore.search import explore

GROWN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # name: (clauses it was chosen for, clauses it must not fire)
    "du-3p-1v-s0-red2-lx-r0-g1": (("du-en:ch3.ends",), ()),
    "du-cs-3p-1v-s0-red2-lm-r0-g0": (
        ("du-cs:prubeh.stake", "du-cs:prubeh.stake-ends", "du-cs:prubeh.gift",
         "du-cs:prubeh.received-ends"),
        ("du-cs:prubeh.garlic-ends",)),  # no garlic: its gifts are the stake gift's
    "du-cs-3p-1v-s0-red2-lx-r0-g1": (("du-cs:prubeh.garlic-ends",), ()),
    # rows of five: a vampire leaves a row that still has a face-down one; no garlic
    "du-2p-1v-d0-v5-l1-r0-g0": (
        ("du-en:row.refill", "du-en:ch3.flip-when-short", "du-en:row.four-or-fewer",
         "du-en:qr.open-count"),
        ("du-en:2p.other-garlic", "du-en:ch3.garlic-back", "du-en:ch4.rat")),
    # the expansion with rows of two, one bat a player, the Count in the box: a bat on a
    # grave another bat filled; none of the Count's clauses (it is in the box)
    "gruft-3p-1v-s3-red2-lx-b1-c0-r0-g0": (
        ("gruft-en:bats.doubt-vampire", "gruft-en:bats.believed-vampire",
         "gruft-en:bats.close-ends"),
        ("gruft-en:count.get-three", "gruft-en:count.get-lost", "gruft-en:count.continue",
         "gruft-en:count.place", "gruft-en:count.guard", "gruft-en:count.open-start",
         "gruft-en:count.empty", "gruft-en:count.move", "gruft-en:count.empty-continue",
         "gruft-en:count.occupied", "gruft-en:count.no-penalty",
         "gruft-en:count.occupied-ends", "gruft-en:faq.count-plague")),
    # rows of four, no bats: three placements in a turn get the Count; no rat, so no plague
    # with the Count on a grave (gruft-en:faq.count-plague)
    "gruft-3p-1v-s3-red4-l3-b0-r0-g0": (
        ("gruft-en:count.get-three", "gruft-en:count.get-lost", "gruft-en:count.continue",
         "gruft-en:count.place", "gruft-en:count.guard", "gruft-en:count.open-start",
         "gruft-en:count.empty", "gruft-en:count.move", "gruft-en:count.empty-continue",
         "gruft-en:count.occupied", "gruft-en:count.no-penalty",
         "gruft-en:count.occupied-ends"),
        ("gruft-en:faq.count-plague",)),
}


TRAPS = {"du-2p-1v-d0-v5-l1-r0-g0"}
"""Set-ups whose pinned traps (states with no reachable ending) are a property of the
reduced board (two graves with a lid, both filled), pinned as found."""

LARGE = {"du-3p-1v-s0-red2-lx-r0-g1", "du-cs-3p-1v-s0-red2-lx-r0-g1", "du-2p-1v-d0-v5-l1-r0-g0",
         "gruft-3p-1v-s3-red2-lx-b1-c0-r0-g0", "gruft-3p-1v-s3-red4-l3-b0-r0-g0"}
"""278,775 states each, rows of five 225,112, the expansion's 1,532,703 and the Count's
14,308,731 (compact storage, no graph; hours with coverage): the thorough
profile's (``pytest -m thorough``, ``ruleproof explore --profile thorough``); CI's slow run
takes the small one (30,945 states)."""


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.thorough if n in LARGE else pytest.mark.slow)
    for n in sorted(GROWN)])
def test_grown_set_up_fires_its_clauses_and_keeps_its_pin(name: str) -> None:
    pin = next(e for e in pinned_results() if e.name == name and not e.symmetry)
    res = explore(configuration(name).path, coverage=True, contracts=True,
                  compact=pin.compact, keep_graph=not pin.compact)
    assert res.complete and res.distinct_states > 0
    assert res.violations == 0 and res.errors == 0, name
    allowed = {"cycle", "trap"} if name in TRAPS else {"cycle"}
    assert [f.message for f in res.findings if f.kind not in allowed] == [], name  # contracts too
    fired = res.fired or {}
    wanted, never = GROWN[name]
    assert [c for c in wanted if fired.get(c, 0) == 0] == [], name
    assert [c for c in never if fired.get(c, 0) > 0] == [], name
    assert (res.distinct_states, res.depth, res.terminal) == (
        pin.distinct_states, pin.depth, pin.terminal)
    if not pin.compact:  # a compact pin has no graph: traps not analysed
        assert res.traps == (pin.traps or 0), name
