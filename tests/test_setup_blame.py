"""Set-up fields blamed on their set-up clauses (issue #25): an engine that ignores or misreads
the start player, the seating, the expansion or the deal's lids is blamed on the clause of that
set-up field (mechanism ``set-up``), not on a turn clause."""

from __future__ import annotations

from typing import Any

import pytest
from reference_engines import load_engine

from ruleproof.properties.conformance.blame import MECHANISMS, SETUP
from ruleproof.properties.conformance.differential import play
from ruleproof.properties.conformance.engine import Engine, MessageEngine
from ruleproof.properties.conformance.games import model_of

DAWN_UNDER = model_of("dawn-under")
ref: Any = load_engine("dawn_under_ref.py")


def engine(mutant: str | None = None) -> Engine:
    return MessageEngine(ref.DawnUnderEngine(mutant).handle)


CASES = {
    # bug: (options, start player, names, the set-up clause blamed first, step)
    "ignores-start-player": ({}, 2, None, "du-en:play.start", 0),
    "seats-sorted-by-name": ({}, None, ["Zoe", "Anna", "anna", "Eva"], "du-en:prep.deal", 0),
    "ignores-expansion": ({"expansion": "gruft"}, None, None, "gruft-en:prep.base", 0),
    "lids-shifted": ({}, None, None, "du-en:prep.mix-rats", 1),  # seen at the first opening
}


@pytest.mark.parametrize("bug", sorted(CASES))
def test_a_set_up_field_misread_is_blamed_on_its_set_up_clause(bug: str) -> None:
    options, start, names, clause, step = CASES[bug]
    good = play(DAWN_UNDER, engine(), 4, options, 3, lambda n: 0, 40, start_player=start,
                names=names)
    assert good.divergence is None  # the same set-up and game: the correct engine conforms
    bad = play(DAWN_UNDER, engine(bug), 4, options, 3, lambda n: 0, 40, start_player=start,
               names=names)
    d = bad.divergence
    assert d is not None and d.kind == "state" and d.step == step, d
    assert d.blamed_by == SETUP and d.clauses[0] == clause, (d.clauses, d.blamed_by)


def test_the_set_up_clause_is_cited_as_the_rule_set_cites_it() -> None:
    d = play(DAWN_UNDER, engine("ignores-start-player"), 4, {"preset": "du-cs"}, 3,
             lambda n: 0, 40, start_player=1).divergence
    assert d is not None and d.blamed_by == SETUP
    assert "du-en:play.start" in d.clauses
    assert d.clauses == DAWN_UNDER.localise(("du-en:play.start",), {"preset": "du-cs"})


def test_a_rule_bug_is_still_blamed_on_its_rule_not_on_the_set_up() -> None:
    d = play(DAWN_UNDER, engine("counter-clockwise"), 3, {}, 0, lambda n: 0, 40).divergence
    assert d is not None and d.blamed_by != SETUP and d.clauses[0] == "du-en:play.clockwise"


def test_set_up_is_a_mechanism() -> None:
    assert SETUP in MECHANISMS and MECHANISMS.index(SETUP) < MECHANISMS.index("model")
