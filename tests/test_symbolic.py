"""The symbolic verification layer (issue 6): proofs, endings, no dead ends, no drift."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
import typer
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import ruleproof.model.dawn_under.engine as du_engine
from ruleproof.cli.prove import register
from ruleproof.model.dawn_under.state import Event, GarlicIn, State
from ruleproof.properties.dawn_under import symbolic as du
from ruleproof.properties.dracula import symbolic as dsym
from ruleproof.properties.symbolic.core import Env, Kind, Outcome, StepChecker, no_dead_end, prove_law

# --------------------------------------------------------------------------- proofs


@pytest.mark.parametrize(("preset", "players"), du.CONFIGS)
def test_dawn_under_laws_proved_or_documented(preset: str, players: int) -> None:
    system = du.system_for(preset, players)
    findings = set()
    for law in system.laws:
        outcome = prove_law(system, law, max_k=1)
        if law.expected == "holds":
            assert outcome.result == "proved", (law.name, outcome.detail)
            assert outcome.passed
            assert any(c.startswith("du-en:") for c in outcome.clauses)
        else:
            findings.add(law.name)
            assert outcome.result == "expected counterexample", (law.name, outcome.detail)
            assert "by transition 'stake'" in outcome.detail
    if preset == "du-cs":
        assert "stakes-held-at-most-2" in findings
        assert ("stakes-never-run-out" in findings) == (players >= 5)
        assert system.law("stakes-held-at-most-3").expected == "holds"
    else:
        assert findings == set()
        assert system.law("stakes-never-run-out").expected == "holds"


def test_dracula_laws_proved() -> None:
    system = dsym.system()
    for law in system.laws:
        outcome = prove_law(system, law)
        assert outcome.result == "proved", (law.name, outcome.detail)
        assert outcome.method.startswith("induction")
        assert any(c.startswith("dracula-en:") for c in outcome.clauses)


def test_broken_relation_gives_counterexample_naming_the_transition() -> None:
    system = du.system_for("du-en", 4)
    good = system.kind("stake-gift")

    def leaky(e: Env, q: Any) -> tuple[list[z3.BoolRef], Env]:
        guards, nxt = good.effect(e, q)
        nxt["path"] = nxt["path"] + 1  # a stake out of nowhere
        return guards, nxt

    bad = Kind(good.name, good.clauses, good.params, leaky, good.idle)
    broken = replace(system, kinds=tuple(bad if k.name == good.name else k
                                         for k in system.kinds))
    outcome = prove_law(broken, broken.law("stakes-conserved"), max_k=1)
    assert outcome.result == "counterexample"
    assert not outcome.passed
    assert "by transition 'stake-gift'" in outcome.detail
    assert prove_law(system, system.law("stakes-conserved"), max_k=1).result == "proved"


@pytest.mark.parametrize(("preset", "players"), [("du-en", 3), ("du-cs", 6), ("2p", 2)])
def test_no_dead_end_dawn_under(preset: str, players: int) -> None:
    outcome = no_dead_end(du.system_for(preset, players), du.MUST_HOLD_FOR_DEAD_END)
    assert outcome.result == "proved", outcome.detail


def test_no_dead_end_dracula() -> None:
    system = dsym.system()
    assert no_dead_end(system, [law.name for law in system.laws]).result == "proved"


# --------------------------------------------------------------------------- endings


@pytest.mark.parametrize(("preset", "players"), du.CONFIGS)
def test_dawn_under_endings_reached_with_replayed_witness(preset: str, players: int) -> None:
    for ending in du.DU_ENDINGS:
        outcome = du.check_du_ending(preset, players, ending)
        assert outcome.result == "reached", outcome.detail
        assert "abstract path:" in outcome.detail and "replayed" in outcome.detail


@pytest.mark.parametrize("witness", dsym.DRACULA_WITNESSES, ids=lambda w: w.name)
def test_dracula_endings_reached_with_replayed_witness(
        witness: dsym.DraculaWitness) -> None:
    outcome = dsym.check_dracula_ending(witness)
    assert outcome.result == "reached", outcome.detail


@pytest.mark.parametrize("players", [5, 6])
def test_du_cs_stake_shortage_is_a_real_position(players: int) -> None:
    outcome = du.check_stake_shortage(players)
    assert outcome.result == "expected counterexample", outcome.detail
    assert outcome.passed and "path is empty" in outcome.detail


def test_witness_files_are_current() -> None:
    for preset, n in du.CONFIGS:
        for ending in du.DU_ENDINGS:
            path = du.du_witness_path(preset, n, ending)
            assert path.read_text() == du.du_witness_text(preset, n, ending)
    for w in dsym.DRACULA_WITNESSES:
        assert dsym.dracula_witness_path(w).read_text() == dsym.dracula_witness_text(w)
    for n in (5, 6):
        assert du.stake_shortage_path(n).read_text() == du.stake_shortage_text(n)


# --------------------------------------------------------------------------- drift


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(config=st.sampled_from(du.CONFIGS), seed=st.integers(0, 10**6))
def test_no_drift_dawn_under(config: tuple[str, int], seed: int) -> None:
    preset, players = config
    outcome = du.du_drift(preset, players, games=1, steps=60, seed=seed)
    assert outcome.passed, outcome.detail


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_no_drift_dracula(seed: int) -> None:
    drift, dead = dsym.dracula_drift(games=1, steps=200, seed=seed)
    assert drift.passed, drift.detail
    assert dead.passed, dead.detail


def test_drift_check_catches_a_model_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """The garlic owner no longer gets the garlic back: the relation (du-en:ch3.garlic-back)
    is not followed, and the drift check says so."""
    original = du_engine._garlic_found

    def keeps_garlic(state: State, player: int, grave: int, garlic: GarlicIn,
                     events: list[Event]) -> State:
        new = original(state, player, grave, garlic, events)
        hand = tuple(h - 1 if p == garlic.owner else h for p, h in enumerate(new.garlic_hand))
        return replace(new, garlic_hand=hand)

    monkeypatch.setattr(du_engine, "_garlic_found", keeps_garlic)
    outcome = du.du_drift("du-en", 4, games=4, steps=400)
    assert not outcome.passed
    assert "classified garlic-" in outcome.detail
    assert "ggrave." in outcome.detail


def test_abstraction_reads_a_real_state() -> None:
    config = du.config_for("du-en", 4)
    state = du_engine.new_game(config, 3)
    x = du.abstract(state)
    system = du.system(du.shape_of(config))
    assert set(x) == set(system.variables)
    assert x["path"] == 13 and x["ph"] == du.OPEN
    solver = z3.Solver()
    env = system.env(0)
    solver.add(*[env[v] == x[v] for v in system.variables])
    solver.add(*[pred(env) for _name, _cl, pred in system.init])
    assert solver.check() == z3.sat
    checker = StepChecker(system)
    rng = random.Random(0)
    action = rng.choice(du_engine.legal_actions(state))
    new, events = du_engine.step(state, action)
    kind = du.classify(state, action, events)
    assert checker.check(kind, x, du.abstract(new))
    assert not checker.check("give", x, du.abstract(new))  # nothing is being handed over


# --------------------------------------------------------------------------- CLI


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command keeps 'prove' a subcommand
        """Placeholder."""

    return app


def test_cli_prove_dracula_json() -> None:
    result = CliRunner().invoke(_app(), ["prove", "dracula", "--json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["passed"] is True
    props = {r["property"] for r in data["results"]}
    assert "ending: both-at-once" in props and "no-dead-end" in props
    assert all(r["method"] for r in data["results"])


def test_cli_prove_table_and_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import ruleproof.cli.prove as cli_prove

    canned = [
        Outcome("stakes-conserved", "dawn-under du-cs 5p", "induction", "proved", True,
                ("du-en:content.stakes",), 0.1),
        Outcome("stakes-never-run-out", "dawn-under du-cs 5p", "k-induction up to k=2",
                "expected counterexample", True, ("du-en:ch2.stake",), 0.2,
                "step 1 -> 2 by transition 'stake'"),
    ]
    monkeypatch.setattr(cli_prove, "outcomes", lambda *_a, **_k: canned)
    runner = CliRunner()
    result = runner.invoke(_app(), ["prove", "dawn-under", "--preset", "du-cs", "--players", "5"])
    assert result.exit_code == 0, result.output
    assert "expected counterexample" in result.output
    assert "finding: dawn-under du-cs 5p: stakes-never-run-out" in result.output
    assert "2/2 passed" in result.output
    failing = [*canned, Outcome("x", "dracula", "induction", "counterexample", False)]
    monkeypatch.setattr(cli_prove, "outcomes", lambda *_a, **_k: failing)
    result = runner.invoke(_app(), ["prove", "dracula"])
    assert result.exit_code == 1 and "FAILED: dracula: x" in result.output
    assert runner.invoke(_app(), ["prove", "chess"]).exit_code == 2
    assert runner.invoke(_app(), ["prove", "dawn-under", "--preset", "2p",
                                  "--players", "4"]).exit_code == 2
