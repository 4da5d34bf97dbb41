"""A game that gives fewer capabilities than the shipped ones still gets every generic tool,
each saying what it leaves out: found by adding a small game from docs/add-a-game.md (a
rule designer's first game, with no contracts at first and games of a few moves).

Kuhn poker stands in for such a game, with its contracts taken away by patching the lookups
the generic code makes (``contracts_of``, ``contract_set``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ruleproof.properties.contracts.checks as contract_checks
import ruleproof.properties.endless as endless
import ruleproof.properties.explore.games as explore_games
from ruleproof.cli import app
from ruleproof.properties.contracts.games import contracts_of
from ruleproof.properties.endless import CycleRules, ending_reachable
from ruleproof.properties.explore.simulate import simulate
from ruleproof.properties.plugin import RuleSet, Unsupported, plugin
from ruleproof.properties.suite import generic_checks

SETUP = "kuhn-3"


def _no_contract_set(source: str) -> Any:
    raise KeyError(source)


@pytest.fixture
def without_contracts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kuhn poker as a game whose plugin gives no contracts capability."""
    monkeypatch.setattr(explore_games, "contracts_of", lambda p: None)
    monkeypatch.setattr(explore_games, "contract_set", _no_contract_set)
    monkeypatch.setattr(contract_checks, "contracts_of", lambda p: None)


@pytest.mark.usefixtures("without_contracts")
def test_explore_turns_the_contracts_off_by_default_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["explore", SETUP])
    assert r.exit_code == 0, r.output
    assert "clause contracts not checked (kuhn-poker has no contracts capability)" in r.output
    assert "model errors 0" in r.output and "KeyError" not in r.output
    assert list(tmp_path.iterdir()) == []  # no finding, no trace


@pytest.mark.usefixtures("without_contracts")
def test_asking_for_contracts_the_game_lacks_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["explore", SETUP, "--contracts"])
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line and "kuhn-poker has no clause contracts of kuhn-wp" in line
    assert "--no-contracts" in line
    with pytest.raises(Unsupported, match="no clause contracts of kuhn-wp"):
        explore_games.explore_game(SETUP, contracts=True)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("without_contracts")
def test_simulation_and_coverage_work_from_the_engine_alone() -> None:
    """Clause coverage counts what speaks: without contracts, only the engine's citations
    (Kuhn's engine cites none, so nothing fires) -- no KeyError, no step skipped."""
    res = simulate(SETUP, behaviours=4, depth=50, contracts=False)
    assert res.steps > 0 and not res.findings, res.findings
    assert res.fired == {}
    game = explore_games.explore_game(SETUP)
    assert game.played is not None and game.rule_set is None
    state = explore_games.started_roots(game)[0].state
    succ = game.successors(state)
    assert game.fired(state, succ) == [() for _ in succ]


def test_the_same_calls_with_contracts_find_what_they_fire() -> None:
    """The control of the test above: with its contracts, Kuhn poker's simulation fires
    clauses, so the empty coverage above comes from the missing contracts."""
    res = simulate(SETUP, behaviours=4, depth=50, contracts=True)
    assert res.steps > 0 and res.fired


@pytest.mark.usefixtures("without_contracts")
def test_the_shared_group_lists_the_searches_it_cannot_run() -> None:
    checks, skipped = generic_checks(RuleSet("kuhn-poker", "shared by every rule set"))
    reasons = {s.name: s.reason for s in skipped}
    assert reasons == {"endless games": "kuhn-poker has no contracts capability",
                       "perfect recall": "kuhn-poker has no contracts capability"}
    assert not any("endless" in c.name or "recall" in c.name for c in checks)


def test_a_game_without_recall_lists_perfect_recall_as_skipped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cap = contracts_of(plugin("kuhn-poker"))
    assert cap is not None and cap.recall is not None
    monkeypatch.setattr(contract_checks, "contracts_of", lambda p: replace(cap, recall=None))
    checks, skipped = generic_checks(RuleSet("kuhn-poker", "shared by every rule set"))
    assert [s.name for s in skipped] == ["perfect recall"]
    assert "gives no recall" in skipped[0].reason
    assert any(c.name.startswith("endless games") for c in checks)


def test_a_game_shorter_than_the_sample_depth_is_still_sampled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default CycleRules (states sampled after 20-200 actions), a game of a few
    actions used to give no sample at all (and the endless-games check failed on zero work);
    now each sample is a state the game passed."""
    original = endless.play_of

    def default_rules(rs: Any) -> Any:
        return replace(original(rs), rules=CycleRules())

    monkeypatch.setattr(endless, "play_of", default_rules)
    rs = contracts_of(plugin("kuhn-poker"))
    assert rs is not None
    checked, ok, stuck = ending_reachable(rs.searched_rule_set, samples=6, tries=2, cap=20)
    assert checked == 6 and ok == 6 and stuck == []
