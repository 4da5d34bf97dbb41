"""``ruleproof conform --identify`` (issue #25): which registered readings an engine follows,
each other reading excluded by a game, and a new behaviour reported as fitting none, with the
step. The planted engines are the reference engine with readings forced (it declares no
options in its handshake, so it is never told which reading to play)."""

from __future__ import annotations

from typing import Any

import pytest
from reference_engines import load_engine

from ruleproof.properties.conformance.engine import Engine, EngineFactory, MessageEngine
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.identify import identify, reading_space

DAWN_UNDER = model_of("dawn-under")
ref: Any = load_engine("dawn_under_ref.py")
FIXED = {"preset": "du-en"}


def planted(forced: dict[str, str], mutant: str | None = None) -> EngineFactory:
    """The reference engine playing ``forced`` readings whatever it is sent, declaring no
    options (and only du-en) in its handshake."""

    def make() -> Engine:
        engine = ref.DawnUnderEngine(mutant)

        def handle(msg: dict[str, Any]) -> dict[str, Any]:
            if msg.get("cmd") == "hello":
                return {"ok": True, "protocol": 1,
                        "supports": {"dawn-under": {"presets": ["du-en"], "players": [4]}}}
            if msg.get("cmd") == "new_game":
                msg = {**msg, "options": {**msg.get("options", {}), **forced}}
            answer: dict[str, Any] = engine.handle(msg)
            return answer

        return MessageEngine(handle)

    return make


def test_the_reading_space_is_the_register_s_options() -> None:
    space = reading_space(DAWN_UNDER, FIXED)
    assert space["after_match"] == ("may-continue", "turn-ends")
    assert "gruft_three" not in space  # an expansion's readings only with the expansion
    assert "gruft_three" in reading_space(DAWN_UNDER, {**FIXED, "expansion": "gruft"})


@pytest.mark.slow  # tens of seconds; CI runs pytest -m slow too
def test_a_non_default_reading_is_identified_and_the_others_excluded_by_a_game() -> None:
    found = identify(DAWN_UNDER, planted({"after_match": "turn-ends"}), players=4,
                     options=FIXED, budget=20, seed=0, max_steps=200, shrink_budget=1.0)
    assert found.fits, found.report()
    assert dict(found.readings) == {"after_match": "turn-ends"}, found.report()
    assert found.excluded, found.report()
    for e in found.excluded:
        assert e.witness.divergence is not None  # the game (maybe only its set-up) shows it
    assert "the engine follows after_match=turn-ends" in found.report()


@pytest.mark.slow
def test_two_readings_combined_are_identified_as_both() -> None:
    forced = {"after_match": "turn-ends", "turn_start": "may-pass"}
    found = identify(DAWN_UNDER, planted(forced), players=4, options=FIXED, budget=50, seed=0,
                     max_steps=200, shrink_budget=1.0)
    assert found.fits and dict(found.readings) == forced, found.report()


@pytest.mark.slow
def test_a_new_behaviour_fits_none_with_the_step() -> None:
    found = identify(DAWN_UNDER, planted({}, "counter-clockwise"), players=4, options=FIXED,
                     budget=15, seed=0, max_steps=200, shrink_budget=1.0)
    assert not found.fits and found.unexplained is not None, found.report()
    d = found.unexplained.divergence
    assert d is not None and d.step >= 1
    assert "FITS NONE of the registered readings" in found.report()
    assert f"diverges at step {d.step}" in found.report()


@pytest.mark.slow
@pytest.mark.parametrize("forced", [{}])
def test_the_default_engine_is_identified_as_the_default_readings(forced: dict[str, str]) -> None:
    found = identify(DAWN_UNDER, planted(forced), players=4, options=FIXED, budget=20, seed=0,
                     max_steps=200, shrink_budget=0.5)
    assert found.fits and not found.readings, found.report()


def test_identify_is_not_a_campaign() -> None:
    from typer.testing import CliRunner

    from ruleproof.cli import app

    result = CliRunner().invoke(app, ["conform", "--engine", "x", "--identify", "--seeds", "2"])
    assert result.exit_code == 2 and "--identify works without a campaign" in result.output


@pytest.mark.slow
def test_conform_identify_names_the_reading_of_a_planted_subprocess_engine() -> None:
    import json
    import sys
    from pathlib import Path

    from typer.testing import CliRunner

    from ruleproof.cli import app

    engine = Path(__file__).resolve().parents[1] / "examples" / "engines" / "dawn_under_ref.py"
    result = CliRunner().invoke(app, [
        "conform", "--engine", f"{sys.executable} {engine} --reading after_match=turn-ends",
        "--identify", "--players", "4", "--preset", "du-en", "--budget", "40", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["readings"] == {"after_match": "turn-ends"} and data["fits"]
    assert data["excluded"] and all(e["game"]["step"] is not None for e in data["excluded"])
