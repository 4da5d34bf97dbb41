"""Regression tests for the hostile review of conform/replay (one-line errors, honest traces)."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from reference_engines import load_engine
from typer.testing import CliRunner

from ruleproof.cli.conformance import register

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "examples" / "engines" / "dawn_under_ref.py"
DU_REF = load_engine("dawn_under_ref.py")
DRACULA_REF = load_engine("dracula_ref.py")
runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, no_args_is_help=True)
    register(app)
    return app


def test_conform_flags_no_player_count_allows_is_one_error_line(tmp_path: Path) -> None:
    result = runner.invoke(_app(), ["conform", "--engine", f"{sys.executable} {REF}",
                                    "-o", "expansion=gruft", "--preset", "2p", "--budget", "5",
                                    "--out", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "no player count allows" in result.output and "expansion=gruft" in result.output
    assert "--preset 2p" in result.output


@pytest.mark.parametrize("args", [["--players", "3"], ["-o", "expansion=gruft"]])
def test_conform_engine_declaring_nothing_that_fits_is_unsupported(args: list[str],
                                                                  tmp_path: Path) -> None:
    engine = f"{sys.executable} {REF} --presets 2p"
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "5", *args,
                                    "--out", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 3, result.output
    assert "UNSUPPORTED" in result.output and "presets ['2p']" in result.output


def test_option_given_twice_with_different_values_is_refused() -> None:
    from ruleproof.cli.clitools import option_pairs
    from ruleproof.errors import MalformedInput

    assert option_pairs(["expansion=gruft", "expansion=gruft"]) == {"expansion": "gruft"}
    with pytest.raises(MalformedInput, match="given twice"):
        option_pairs(["expansion=gruft", "expansion=none"])
    with pytest.raises(MalformedInput, match="given twice"):
        option_pairs(["rat-plague=x", "rat_plague=y"])
    result = runner.invoke(_app(), ["conform", "--engine", f"{sys.executable} {REF}",
                                    "-o", "expansion=gruft", "-o", "expansion=none"])
    assert result.exit_code == 2 and "given twice" in result.output, result.output


def test_expansion_spelling_is_refused_alike_in_conform_and_in_a_trace(tmp_path: Path) -> None:
    result = runner.invoke(_app(), ["conform", "--engine", f"{sys.executable} {REF}",
                                    "-o", "expansion=GRUFT", "--budget", "3"])
    assert result.exit_code == 2, result.output
    assert "unknown expansion 'GRUFT'; known: none, gruft" in result.output
    shipped = ROOT / "spec" / "dawn_under" / "traces" / "dawn-under-mutant-gruft-count-on-fourth.jsonl"
    trace = tmp_path / "upper.jsonl"
    trace.write_text(shipped.read_text(encoding="utf-8").replace(
        '"expansion": "gruft"', '"expansion": "GRUFT"', 1), encoding="utf-8")
    replayed = runner.invoke(_app(), ["replay", str(trace)])
    assert replayed.exit_code == 2, replayed.output
    assert f"{trace}:1:" in replayed.output and "unknown expansion 'GRUFT'" in replayed.output


def test_replay_of_a_header_only_trace_checks_nothing_and_fails(tmp_path: Path) -> None:


    from ruleproof.properties.conformance.games import model_of



    DAWN_UNDER = model_of("dawn-under")
    from ruleproof.properties.conformance.trace import dump_lines, header_object

    empty = tmp_path / "empty.jsonl"
    empty.write_text(dump_lines([header_object("dawn-under", 3, {}, seed=4)]), encoding="utf-8")
    result = runner.invoke(_app(), ["replay", str(empty)])
    assert result.exit_code == 1 and "nothing was checked" in result.output, result.output
    result = runner.invoke(_app(), ["replay", "--json", str(empty)])
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["passed"] is False
    assert "no actions" in data["results"][0]["unchecked"]
    # a header that records the opening state is checked: that passes, a wrong one fails
    public = DAWN_UNDER.public_state(DAWN_UNDER.start(3, {}, 4, None))
    checked = tmp_path / "checked.jsonl"
    checked.write_text(dump_lines([header_object("dawn-under", 3, {}, seed=4, extra={
        "state": {"lids": public["lids"]}})]), encoding="utf-8")
    assert runner.invoke(_app(), ["replay", str(checked)]).exit_code == 0


Handle = Callable[[dict[str, Any]], dict[str, Any]]


def _rewriting(new_handle: Callable[[], Handle],
               rewrite: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]) -> Any:
    """An engine factory: a fresh reference engine (``new_handle()``) whose answers
    ``rewrite(message, answer)`` changes."""
    from ruleproof.properties.conformance.engine import MessageEngine

    def make() -> Any:
        inner = new_handle()
        return MessageEngine(lambda msg: rewrite(msg, inner(msg)))
    return make


def _reported(cmd: str, key: str, change: Any) -> Callable[[dict[str, Any], dict[str, Any]],
                                                            dict[str, Any]]:
    """A rewrite: ``change`` applied to ``answer[key]`` of the successful answers to ``cmd``."""
    def rewrite(msg: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        if msg.get("cmd") == cmd and answer.get("ok"):
            answer[key] = change(dict(answer[key]))
        return answer
    return rewrite


def _proxy(change: Any) -> Any:
    """An engine factory: the reference engine whose reported state ``change`` rewrites."""
    return _rewriting(lambda: DU_REF.DawnUnderEngine().handle, _reported("state", "state", change))


def _drop(name: str) -> Any:
    return lambda s: {k: v for k, v in s.items() if k != name}


def _set(name: str, value: Any) -> Any:
    return lambda s: {**s, name: value}


@pytest.mark.parametrize("change", [
    _drop("gruft"), _set("gruft", "x"), _set("rows", {}), _set("phase", ["open"]),
    _set("unheard_of", 1), _set("stakes_path", 10 ** 400), _set("phase", "x" * 900_000),
], ids=["drop-gruft", "gruft-str", "rows-obj", "phase-list", "unknown", "huge-int",
        "huge-str"])
def test_a_saved_trace_replays_the_divergence_of_a_mistyped_report(change: Any,
                                                                   tmp_path: Path) -> None:
    from ruleproof.properties.conformance.differential import conform, trace_text
    from ruleproof.properties.conformance.games import model_of

    DAWN_UNDER = model_of("dawn-under")

    result = conform(DAWN_UNDER, _proxy(change), players=3, options={"expansion": "gruft"},
                     budget=3.0, shrink_budget=0.5)
    assert result.divergence is not None and not result.conforms
    text = trace_text(result, DAWN_UNDER, "proxy")
    assert text is not None
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    replayed = runner.invoke(_app(), ["replay", str(path)])
    assert replayed.exit_code == 1, (replayed.output, text[:3000])
    assert "NONCONFORMING" in replayed.output
    assert result.divergence.kind.split("-")[0] in replayed.output or (
        result.divergence.kind == "engine-failure")


def test_an_engine_crashing_at_hello_gets_a_trace_replay_reads(tmp_path: Path) -> None:
    from ruleproof.properties.conformance.differential import conform, trace_text
    from ruleproof.properties.conformance.engine import MessageEngine
    from ruleproof.properties.conformance.games import model_of

    DAWN_UNDER = model_of("dawn-under")

    def handle(msg: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("boom at hello")

    result = conform(DAWN_UNDER, lambda: MessageEngine(handle), players=3, budget=2.0)
    text = trace_text(result, DAWN_UNDER, "crasher")
    assert text is not None
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    replayed = runner.invoke(_app(), ["replay", str(path)])
    assert replayed.exit_code == 1, replayed.output
    assert "engine-failure" in replayed.output and "boom at hello" in replayed.output


@pytest.mark.parametrize("bad", ["Ann\u0000a", "Ann\na", "\u202eanna", "   ", "Zo\u200be"])
def test_trace_names_with_control_characters_or_blank_are_refused(bad: str,
                                                                  tmp_path: Path) -> None:


    from ruleproof.properties.conformance.games import model_of



    DAWN_UNDER = model_of("dawn-under")
    from ruleproof.properties.conformance.trace import dump_lines, header_object

    setup = DAWN_UNDER.setup_of(3, {}, 4)
    first = DAWN_UNDER.legal(DAWN_UNDER.start(3, {}, None, setup))[0]
    setup["names"] = ["Anna", bad, "Eva"]
    path = tmp_path / "names.jsonl"
    path.write_text(dump_lines([header_object("dawn-under", 3, {}, setup=setup),
                                {"step": 1, "action": first}]), encoding="utf-8")
    result = runner.invoke(_app(), ["replay", str(path)])
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert line.startswith(f"error: {path}:1:") and "setup.names[1]" in line
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in line)


def test_conform_draws_only_names_a_trace_accepts() -> None:
    from ruleproof.properties.conformance.games import DEFAULT_NAMES, NAME_POOL, name_problem

    assert all(name_problem(n) is None for n in (*NAME_POOL, *DEFAULT_NAMES))


@pytest.mark.parametrize("version", [99, "1", True, None])
def test_an_unknown_protocol_version_in_hello_is_unsupported(version: Any) -> None:
    from ruleproof.properties.conformance.differential import conform
    from ruleproof.properties.conformance.games import model_of

    DAWN_UNDER = model_of("dawn-under")

    make = _rewriting(lambda: DU_REF.DawnUnderEngine().handle, lambda msg, answer: (
        {**answer, "protocol": version} if msg.get("cmd") == "hello" else answer))
    result = conform(DAWN_UNDER, make, players=3, budget=2.0)
    assert not result.conforms and result.unsupported, result.report()
    assert f"protocol {json.dumps(version)}" in result.unsupported


def test_check_refuses_an_expansion_given_two_ways_with_different_values() -> None:
    from ruleproof.errors import MalformedInput
    from ruleproof.properties.suite import rule_sets

    with pytest.raises(MalformedInput, match="chosen twice with different values"):
        rule_sets("dawn-under", expansion="gruft", options=(("expansion", "none"),))
    assert rule_sets("dawn-under", expansion="gruft", options=(("expansion", "gruft"),))


@pytest.mark.parametrize("change", [_drop("hand"), _set("hand", "x"), _set("hand", [10 ** 30])],
                         ids=["drop-hand", "hand-str", "hand-huge"])
def test_a_saved_trace_replays_a_mistyped_observation(change: Any, tmp_path: Path) -> None:
    from ruleproof.properties.conformance.differential import conform, trace_text
    from ruleproof.properties.conformance.games import model_of

    DRACULA = model_of("dracula")

    make = _rewriting(lambda: DRACULA_REF.DraculaEngine(None).handle,
                      _reported("observation", "observation", change))

    result = conform(DRACULA, make, budget=3.0, shrink_budget=0.5)
    assert result.divergence is not None and result.divergence.kind == "observation"
    text = trace_text(result, DRACULA, "proxy")
    assert text is not None
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    replayed = runner.invoke(_app(), ["replay", str(path)])
    assert replayed.exit_code == 1, (replayed.output, text[-2000:])
    assert "observation" in replayed.output and "hand" in replayed.output
