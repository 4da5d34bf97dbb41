"""The Dracula set-ups grown for the clauses no smaller set-up fired (#30), explored to the
last state with every contract on: each fires the clauses it was chosen for, breaks no
contract, and has its pinned counts (slow: about a minute in all on a quiet machine)."""

from __future__ import annotations

import pytest

from ruleproof.properties.explore.games import configuration, pinned_results
from ruleproof.properties.explore.search import explore

GROWN: dict[str, tuple[str, ...]] = {
    # clauses that only forbid, fired by refusing an action tried out of order, and the card
    # without a battle strength (Reinforcement) in a battle
    "dr-1x2-reinforcement": ("dracula-en:cards.strength", "dracula-en:cards.play-after-move",
                             "dracula-en:pay.end-of-move", "dracula-en:play.turn-parts"),
    "dr-1x2-2x2-enemy": ("dracula-en:barriers.colour", "dracula-en:barriers.between",
                         "dracula-en:barriers.side-by-side", "dracula-en:pay.barrier-first",
                         "dracula-en:pay.no-crossing"),
    "dr-1x2-sym-l1-wings": ("dracula-en:power.lose-life", "dracula-en:power.exception"),
    "dr-1x2-sym-l1-dark": ("dracula-en:power.replace",),
    "dr-1x2-v2": ("dracula-en:pay.one-card",),
    # two life markers: a side below them may hand a target over; and Perception waiting
    # while a rescue is answered and the overpayment then takes the last marker (its proof
    # contract once failed there: the card is paid for before it functions)
    "dr-1x2-l2": ("dracula-en:early-end.give-target",),
    # four targets of each side found before the start: the one on the board is the fifth
    "dr-1x2-f4": ("dracula-en:objective.goal", "dracula-en:target.all-five",
                  "dracula-en:end.all-captured"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GROWN))
def test_grown_set_up_fires_its_clauses_and_keeps_its_pin(name: str) -> None:
    res = explore(configuration(name).path, coverage=True, contracts=True)
    assert res.complete and res.distinct_states > 0
    assert res.violations == 0 and res.errors == 0, name
    assert [f.message for f in res.findings if f.kind != "cycle"] == [], name  # contracts too
    fired = res.fired or {}
    assert [c for c in GROWN[name] if fired.get(c, 0) == 0] == [], name
    pin = next(e for e in pinned_results() if e.name == name and not e.symmetry)
    assert (res.distinct_states, res.depth, res.terminal) == (
        pin.distinct_states, pin.depth, pin.terminal)
