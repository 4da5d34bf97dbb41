"""``ruleproof conform``'s verdicts by exit code (issue #25): conforms 0, nonconforming 1, bad
input 2, unsupported 3, too slow to judge within the budget 4 -- slow is not wrong."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from reference_engines import load_engine
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.cli.conformance import EXIT_TOO_SLOW, verdict_code
from ruleproof.properties.conformance.differential import conform, suggested_budget
from ruleproof.properties.conformance.engine import Engine, EngineFactory, MessageEngine
from ruleproof.properties.conformance.games import model_of

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "examples" / "engines" / "dawn_under_ref.py"
DAWN_UNDER = model_of("dawn-under")
ref: Any = load_engine("dawn_under_ref.py")
runner = CliRunner()


def slow_engine(per_apply: float) -> EngineFactory:
    """The correct reference engine, taking ``per_apply`` seconds for every ``apply``."""

    def make() -> Engine:
        engine = ref.DawnUnderEngine(None)

        def handle(msg: dict[str, Any]) -> dict[str, Any]:
            if msg.get("cmd") == "apply":
                time.sleep(per_apply)
            answer: dict[str, Any] = engine.handle(msg)
            return answer

        return MessageEngine(handle)

    return make


def test_a_slow_but_correct_engine_is_too_slow_not_wrong() -> None:
    result = conform(DAWN_UNDER, slow_engine(0.02), players=3, budget=0.4, max_steps=30, seed=0)
    assert not result.conforms and result.divergence is None
    slow = result.too_slow
    assert slow is not None, result.report()
    assert verdict_code(result) == EXIT_TOO_SLOW == 4
    assert slow.per_action is not None and slow.per_action >= 0.02 and slow.actions > 0
    assert slow.game_length is not None and 1 <= slow.game_length <= 30
    assert slow.budget_needed is not None and slow.budget_needed > 0.4
    # the budget named is 1.5 times one game of that length at the measured rate, at least
    assert slow.budget_needed >= 1.5 * slow.game_length * slow.per_action
    report = result.report()
    assert report.startswith("dawn-under: TOO SLOW to judge within the budget (not a mismatch)")
    assert f"--budget {slow.budget_needed:g} would suffice" in report


@pytest.mark.slow
def test_the_budget_named_for_a_slow_engine_suffices() -> None:
    """Wall-clock dependent (a loaded machine may slow the second run): slow tests only."""
    result = conform(DAWN_UNDER, slow_engine(0.05), players=3, budget=0.5, max_steps=20, seed=0)
    slow = result.too_slow
    assert slow is not None and slow.budget_needed is not None, result.report()
    again = conform(DAWN_UNDER, slow_engine(0.05), players=3, budget=slow.budget_needed,
                    max_steps=20, seed=0)
    assert again.conforms and again.coverage.games >= 1, again.report()
    assert verdict_code(again) == 0


def test_a_fast_wrong_engine_is_still_nonconforming_not_slow() -> None:
    def make() -> Engine:
        return MessageEngine(ref.DawnUnderEngine("counter-clockwise").handle)

    result = conform(DAWN_UNDER, make, players=3, budget=10.0, shrink_budget=0.2, seed=0)
    assert result.divergence is not None and result.too_slow is None
    assert verdict_code(result) == 1


def test_suggested_budget_has_a_margin_and_rounds_up() -> None:
    assert suggested_budget(1.0, 0.15, 400, 1) == 92.0  # 1.5 * (1 + 60) = 91.5
    assert suggested_budget(0.0, 0.001, 10, 1) == 1.0
    assert suggested_budget(2.0, 0.5, 1000, 3) == 2300.0  # 1.5 * 1502 = 2253


def test_conform_exits_4_for_an_engine_too_slow_for_its_budget(tmp_path: Path) -> None:
    """The subprocess reference engine with ``--fault slow`` (1 s per action, correct)."""
    out = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["conform", "--engine", f"{sys.executable} {REF} --fault slow",
                                 "--players", "3", "--budget", "2.5", "--out", str(out),
                                 "--json"])
    assert result.exit_code == 4, result.output
    data = json.loads(result.output)
    assert data["exit"] == 4 and data["divergence"] is None and data["trace"] is None
    slow = data["too_slow"]
    assert slow["seconds_per_action"] >= 0.9 and slow["actions_measured"] >= 1
    assert slow["budget_needed"] > 2.5 and slow["game_length"] >= 1
    assert not out.exists()


def test_the_verdicts_are_in_conform_help() -> None:
    result = runner.invoke(app, ["conform", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = re.sub(r"\s+", " ", result.output.replace("│", " "))
    for words in ("0 conforms", "1 nonconforming", "2 usage or input error",
                  "3 the engine declined", "4 too slow to judge within the budget"):
        assert words in text, words


def test_the_quick_start_is_five_lines_that_run() -> None:
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    head = doc[:doc.index("## 1.")]
    assert "Quick start" in head
    block = head[head.index("```sh") + 5:head.index("```", head.index("```sh") + 5)]
    lines = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert len(lines) == 5 and all(lines), lines
    for line in lines:
        words = line.split()
        if words[0] != "ruleproof":
            continue
        command = words[1]
        help_text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        for flag in (w for w in words if w.startswith("--")):
            assert flag in help_text, (command, flag)
    perft = next(line for line in lines if line.startswith("ruleproof perft"))
    args = perft.split()[1:]
    args[args.index("--depth") + 1] = "1"
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "agree" in result.output, result.output
