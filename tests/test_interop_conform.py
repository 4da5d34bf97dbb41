"""conform-framework: every planted OpenSpiel / PettingZoo mutant (examples/interop_mutants/)
is caught with the expected kind of divergence, the unmutated games conform, the divergence is
shrunk and saved as a trace, and the command's exit codes."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # examples/ is not installed: import the mutants from the clone
    sys.path.insert(0, str(ROOT))

pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
pytest.importorskip("pettingzoo", reason="needs the [pettingzoo] extra")

from ruleproof.cli import app  # noqa: E402
from ruleproof.interop.conform import conform_target  # noqa: E402
from ruleproof.model.registry import make_game  # noqa: E402

MUTANTS = [
    ("openspiel", "examples.interop_mutants.du_turn_ends:GAME", "dawn-under", {"players": 4}),
    ("openspiel", "examples.interop_mutants.du_even_odds:GAME", "dawn-under", {"players": 4}),
    ("openspiel", "examples.interop_mutants.du_no_garlic:GAME", "dawn-under", {"players": 3}),
    ("openspiel", "examples.interop_mutants.dracula_loser_wins:GAME", "dracula", {}),
    ("openspiel", "examples.interop_mutants.dracula_no_look:GAME", "dracula", {}),
    ("pettingzoo", "examples.interop_mutants.zoo_no_stop:ENV", "dawn-under", {"players": 4}),
]


@pytest.mark.parametrize(("framework", "target", "game", "params"), MUTANTS)
def test_every_mutant_is_caught(framework: str, target: str, game: str,
                                params: dict[str, object], tmp_path: Path) -> None:
    module = importlib.import_module(target.split(":")[0])
    out = tmp_path / "trace.jsonl"
    result = conform_target(make_game(game, **params), framework, target, games=10, budget=60,
                            shrink_budget=3, out=out)
    assert result.divergence is not None, f"{target} was not caught"
    assert result.divergence.kind in module.CAUGHT_AS
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["format"] == "ruleproof-trace" and lines[0]["target"] == target
    assert lines[-1]["divergence"]["kind"] == result.divergence.kind
    assert len(lines) == len(result.divergence.actions) + 2


def test_unmutated_games_conform() -> None:
    import ruleproof.interop.openspiel  # noqa: F401  (registers python_dawn_under)

    for framework, target, game, params in [
        ("openspiel", "ruleproof.interop.openspiel:DAWN_UNDER_NAME", "dawn-under",
         {"players": 4}),
        ("openspiel", "ruleproof.interop.openspiel:DRACULA_NAME", "dracula", {}),
        ("pettingzoo", "examples.interop_mutants.zoo_no_stop:CONFORMING", "dawn-under",
         {"players": 4}),
    ]:
        result = conform_target(make_game(game, **params), framework, target, games=3,
                                budget=60)
        assert result.divergence is None, result.divergence
        assert result.games == 3 and result.steps > 100


def test_shrinking_shortens_a_divergence() -> None:
    result = conform_target(make_game("dawn-under", players=4), "openspiel",
                            "examples.interop_mutants.du_turn_ends:GAME", games=5, budget=60,
                            shrink_budget=20)
    assert result.divergence is not None and result.shrunk_from is not None
    assert len(result.divergence.actions) < result.shrunk_from


def test_command_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "d.jsonl"
    caught = runner.invoke(app, ["conform-framework", "--openspiel",
                                 "examples.interop_mutants.dracula_no_look:GAME",
                                 "--game", "dracula", "--out", str(out), "--shrink-budget", "1"])
    assert caught.exit_code == 1 and "NONCONFORMING" in caught.output and out.exists()
    fine = runner.invoke(app, ["conform-framework", "--pettingzoo",
                               "examples.interop_mutants.zoo_no_stop:CONFORMING", "--games", "2",
                               "--json"])
    assert fine.exit_code == 0 and json.loads(fine.output)["conforms"] is True
    bad = runner.invoke(app, ["conform-framework", "--openspiel", "no_such_module:GAME"])
    assert bad.exit_code == 2
    both = runner.invoke(app, ["conform-framework"])
    assert both.exit_code == 2


@pytest.mark.parametrize(("flag", "target", "code"), [
    ("--openspiel", "examples.interop_mutants.du_turn_ends:GAME", 1),
    ("--pettingzoo", "examples.interop_mutants.zoo_no_stop:ENV", 1),
])
def test_conform_takes_framework_targets(flag: str, target: str, code: int,
                                         tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["conform", flag, target, "--game", "dawn-under",
                                      "--players", "4", "--budget", "60",
                                      "--shrink-budget", "3", "--out",
                                      str(tmp_path / "t.jsonl")])
    assert result.exit_code == code, result.output
    assert "NONCONFORMING" in result.output


def test_conform_wants_exactly_one_target() -> None:
    result = CliRunner().invoke(app, ["conform", "--game", "dawn-under"])
    assert result.exit_code == 2 and "exactly one of --engine" in result.output
