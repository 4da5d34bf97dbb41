"""Differential testing: the reference engine conforms, every mutant is caught, failures reported."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ruleproof.errors import Nonconformance
from ruleproof.properties.conformance.differential import ConformResult, conform, play, trace_text
from ruleproof.properties.conformance.engine import (
    Engine,
    EngineFactory,
    EngineFailure,
    MessageEngine,
    SubprocessEngine,
    subprocess_factory,
)
from ruleproof.properties.conformance.games import DAWN_UNDER, DawnUnderAdapter, Stepped
from ruleproof.properties.conformance.pytest_helper import assert_conforms
from ruleproof.properties.conformance.replay import replay
from ruleproof.properties.conformance.trace import parse_trace

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "examples" / "engines" / "dawn_under_ref.py"


def _load_ref() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dawn_under_ref", REF)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref: Any = _load_ref()
MUTANTS: dict[str, str] = ref.MUTANTS

# The clause each mutant breaks: the report must name it.
BROKEN = {
    "gift-on-fourth-stake": "du-en:ch2.gift",
    "garlic-owner-gives-two": "du-en:ch3.other-garlic",
    "received-face-down": "du-en:ch3.received-open",
    "plague-opens-non-neighbours": "du-en:ch4.only-neighbours",
    "rat-lid-replaced-at-once": "du-en:ch4.rat",
    "turn-passes-after-placement": "du-en:ch1.continue",
    "garlic-back-to-finder": "du-en:ch3.garlic-back",
    "stakes-kept-after-gift": "du-en:ch2.stakes-back",
    "own-garlic-one-gift": "du-en:ch3.own-garlic",
    "one-open-per-side": "du-en:row.refill",
    "all-open-at-five": "du-en:row.four-or-fewer",
    "stop-before-opening": "du-en:ch1.open",
    "plague-turn-after-last-passer": "du-en:ch4.next-turn",
    "plague-short-round": "du-en:ch4.pass",
    "second-rat-no-hand-over": "du-en:ch5.hand-over",
    "reopen-in-plague": "du-en:ch4.stay-open",
    "garlic-without-stock": "du-en:ch1.garlic",
    "placement-optional": "du-en:ch1.match",
    "single-vampire-two-ends": "du-en:ch1.outermost",
    "counter-clockwise": "du-en:play.clockwise",
    "gifts-counter-clockwise": "du-en:ch2.gift",
    "stake-ends-plague": "du-en:ch4.occupied",
    "no-refill-after-give": "du-en:row.refill",
    "rat-grave-not-relidded": "du-en:ch4.cleanup",
    "path-not-decremented": "du-en:ch2.stake",
    "apply-without-check": "du-en:ch1.open",
}
SUBPROCESS_MUTANTS = ("counter-clockwise", "received-face-down", "garlic-owner-gives-two")


def in_process(mutant: str | None = None) -> EngineFactory:
    """A factory of in-process reference engines (optionally a mutant)."""

    def make() -> Engine:
        return MessageEngine(ref.DawnUnderEngine(mutant).handle)

    return make


def test_there_are_at_least_20_mutants_each_with_a_broken_clause() -> None:
    assert len(MUTANTS) >= 20
    assert set(BROKEN) == set(MUTANTS)


def test_reference_engine_conforms_in_process() -> None:
    result = conform(DAWN_UNDER, in_process(), budget=4.0, seed=1)
    assert result.conforms, result.report()
    assert result.examples >= 3 and result.steps > 1000


def test_reference_engine_conforms_under_other_rule_options() -> None:
    options = {"after_match": "turn-ends", "gift_trigger": "holding-three",
               "receiver_chooses_end": "false", "second_rat": "left-of-starter"}
    result = conform(DAWN_UNDER, in_process(), options=options, budget=2.0, seed=2)
    assert result.conforms, result.report()


def test_reference_engine_conforms_as_a_subprocess_via_the_pytest_helper() -> None:
    result = assert_conforms(f"{sys.executable} {REF}", players=4, budget=2.0)
    assert result.conforms and result.steps > 200


def _check_caught(mutant: str, result: ConformResult) -> None:
    assert not result.conforms, f"{mutant} was not caught"
    d = result.divergence
    assert d is not None and d.kind in ("state", "legal-actions", "accepted-illegal"), (
        result.report())
    assert BROKEN[mutant] in d.clauses, result.report()
    # The minimal trace replays to the same divergence against the model.
    text = trace_text(result, DAWN_UNDER, f"dawn_under_ref.py --mutant {mutant}")
    assert text is not None
    replayed = replay(parse_trace(text))
    assert replayed.divergence is not None
    kind = "illegal-action" if d.kind == "accepted-illegal" else d.kind
    assert (replayed.divergence.step, replayed.divergence.kind) == (d.step, kind)
    assert BROKEN[mutant] in replayed.divergence.clauses


@pytest.mark.parametrize("mutant", sorted(BROKEN))
def test_every_mutant_is_caught_in_process(mutant: str) -> None:
    result = conform(DAWN_UNDER, in_process(mutant), budget=10.0, shrink_budget=0.3, seed=0)
    _check_caught(mutant, result)
    assert result.detection_seconds is not None and result.detection_seconds < 10.0


@pytest.mark.parametrize("mutant", SUBPROCESS_MUTANTS)
def test_mutants_are_caught_through_the_subprocess_protocol(mutant: str) -> None:
    factory = subprocess_factory(f"{sys.executable} {REF} --mutant {mutant}")
    result = conform(DAWN_UNDER, factory, budget=10.0, shrink_budget=0.5, seed=0)
    _check_caught(mutant, result)


def test_pytest_helper_raises_nonconformance_and_saves_the_trace(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    with pytest.raises(Nonconformance, match=re.escape("du-en:ch3.garlic-back")):
        assert_conforms(in_process("garlic-back-to-finder"), budget=5.0, shrink_budget=0.3,
                        out=out)
    assert out.read_text().startswith('{"format": "ruleproof-trace"')


@pytest.mark.parametrize(("fault", "message"), [
    ("crash", "crashed"),
    ("hang", "engine hangs"),
    ("garbage", "not JSON"),
    ("flood", "prints too much"),
])
def test_engine_failures_are_reported_not_raised(fault: str, message: str) -> None:
    command = f"{sys.executable} {REF} --fault {fault} --fault-at 3"
    result = conform(DAWN_UNDER, subprocess_factory(command, timeout=0.5), players=3,
                     budget=5.0, shrink_budget=0.5, seed=0)
    d = result.divergence
    assert d is not None and d.kind == "engine-failure", result.report()
    assert message in d.detail
    # apply calls: probe, action 1, probe -> the third fails, right after action 1
    assert (d.step, d.action) == (1, "open 0")
    if fault == "crash":
        assert "simulated crash" in d.detail  # the tail of the engine's stderr
    text = trace_text(result, DAWN_UNDER, command)
    assert text is not None and "engine-failure" in text.splitlines()[0]


def test_in_process_engine_exceptions_are_engine_failures() -> None:
    def broken(request: dict[str, Any]) -> dict[str, Any]:
        if request["cmd"] == "apply":
            raise KeyError("boom")
        return ref.DawnUnderEngine().handle(request) if request["cmd"] != "state" else {
            "ok": True, "state": {"phase": "open"}}

    engine = MessageEngine(broken)
    with pytest.raises(EngineFailure, match="KeyError"):
        engine.apply("open 1")
    result = conform(DAWN_UNDER, lambda: MessageEngine(broken), players=3, budget=2.0,
                     shrink_budget=0.2)
    assert result.divergence is not None and result.divergence.kind == "state"
    assert result.divergence.step == 0


def test_subprocess_engine_quits_cleanly() -> None:
    engine = SubprocessEngine(f"{sys.executable} {REF}")
    setup = DAWN_UNDER.setup_of(3, {}, 0)
    engine.new_game("dawn-under", 3, {}, setup)
    assert engine.legal_actions()[:2] == ["open 0", "open 1"]
    assert engine.apply("place left 99") is not None  # rejected, with a reason
    engine.close()
    assert engine._proc.poll() is not None


def test_an_engine_refusing_a_legal_action_is_reported() -> None:
    def refuses_garlic() -> Engine:
        inner = ref.DawnUnderEngine()

        def handle(request: dict[str, Any]) -> dict[str, Any]:
            if request["cmd"] == "apply" and str(request["action"]).startswith("garlic"):
                return {"ok": False, "error": "illegal", "reason": "no garlic today"}
            answer: dict[str, Any] = inner.handle(request)
            return answer

        return MessageEngine(handle)

    result = conform(DAWN_UNDER, refuses_garlic, players=3, budget=5.0, shrink_budget=0.3)
    d = result.divergence
    assert d is not None and d.kind == "rejected" and d.action is not None
    assert d.action.startswith("garlic") and "no garlic today" in d.detail
    assert "du-en:ch1.garlic" in d.clauses


class _BrokenModel(DawnUnderAdapter):
    """An adapter with a bug: the search must surface it, not report 'no divergence'."""

    def apply(self, state: Any, action: str) -> Stepped:
        raise RuntimeError("bug in the model")


def test_a_bug_in_the_model_is_raised_not_hidden() -> None:
    with pytest.raises(RuntimeError, match="bug in the model"):
        conform(_BrokenModel(), in_process(), players=3, budget=3.0)


def test_reference_engine_follows_the_model_when_the_stakes_run_out() -> None:
    # Found by `ruleproof conform`: with gift_trigger=holding-three five players can hold all
    # 13 stakes; the model's reading (option empty_path, default no-stake) applies.
    options = {"gift_trigger": "holding-three"}
    played = play(DAWN_UNDER, in_process()(), 5, options, 266, lambda n: 0, 40)
    assert played.divergence is None
    state = DAWN_UNDER.start(5, options, None, played.setup)
    paths = []
    for _, action in played.actions:
        state = DAWN_UNDER.apply(state, action).state
        paths.append(DAWN_UNDER.public_state(state)["stakes_path"])
    assert 0 in paths and min(paths) == 0
