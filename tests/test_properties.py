"""The properties hold on the model, and have teeth: broken rules are caught."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import ruleproof.model.dawn_under.engine as engine
from ruleproof.cli import app
from ruleproof.model.dawn_under import Config, Options, make_config
from ruleproof.properties.dawn_under import proofs, sampling
from ruleproof.properties.machine import run_machine


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    ok, detail = run_machine("dawn-under", {"players": players}, games=5, max_steps=300)
    assert ok, detail


def test_z3_theorems_hold_for_du_en() -> None:
    config = make_config(4)
    assert proofs.deal_is_even(config, 3, 6)[0]
    assert proofs.stakes_never_run_out(config, 3, 6)[0]
    assert proofs.reserve_never_runs_out(config)[0]
    assert proofs.board_respects_constraints(config.board)[0]


def test_z3_reports_counterexamples() -> None:
    ok, detail = proofs.deal_is_even(make_config(4), 3, 7)
    assert not ok and "players=7" in detail
    holding = make_config(6, Options(gift_trigger="holding-three"))
    ok, detail = proofs.stakes_never_run_out(holding, 3, 6)
    assert not ok and "counterexample" in detail


def test_hidden_information_and_illegal_actions(config: Config) -> None:
    assert sampling.check_hidden_information(config.players, 2, 150, 2)[0]
    assert sampling.check_illegal_actions(config.players, 2, 150)[0]


@pytest.mark.slow
def test_gift_on_fourth_stake_makes_check_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_gift_due", lambda held, config: held >= 4)
    result = CliRunner().invoke(app, ["check", "dawn-under", "--players", "3",
                                      "--profile", "ci"])
    assert result.exit_code == 1, result.output
    assert "FAILED dawn-under du-en: invariants in random games, 3 players" in result.output
    assert "holds 3 stakes after resolution" in result.output
    assert "takes a wooden stake (now holds 3)" in result.output  # the readable game log


@pytest.mark.slow
def test_garlic_owner_giving_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = engine._start_gifts

    def no_gifts(state, gifts, events, **changes):  # type: ignore[no-untyped-def]
        return original(state, gifts[:0] if gifts and gifts[0].clause.endswith("garlic")
                        else gifts, events, **changes)

    monkeypatch.setattr(engine, "_start_gifts", no_gifts)
    ok, detail = run_machine("dawn-under", {"players": 4}, games=12, max_steps=400)
    assert not ok
    assert "takes the garlic back" in detail  # caught where the planted change acts
