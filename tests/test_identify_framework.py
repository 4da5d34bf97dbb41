"""``ruleproof conform --openspiel/--pettingzoo TARGET --identify`` (issue #25): the planted
targets of examples/interop_mutants/readings.py (the model wrapped for OpenSpiel or PettingZoo
but playing registered readings other than the defaults, without saying so) are identified as
exactly those readings, every other reading told apart by a game or left undecided; a target
with a new behaviour (examples/interop_mutants/) fits none, with the step."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # examples/ is not installed: import the targets from the clone
    sys.path.insert(0, str(ROOT))

pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
pytest.importorskip("pettingzoo", reason="needs the [pettingzoo] extra")

from ruleproof.cli import app  # noqa: E402
from ruleproof.interop.identify import identify_target, target_reading_space  # noqa: E402

READINGS = "examples.interop_mutants.readings"


def test_the_reading_space_comes_from_the_register_and_the_plugin() -> None:
    space = target_reading_space("dawn-under", {"players": 4})
    assert space["after_match"] == ("may-continue", "turn-ends")
    assert "gruft_three" not in space  # an expansion's readings only with the expansion
    assert "gruft_three" in target_reading_space("dawn-under", {"expansion": "gruft"})
    assert "after_match" not in target_reading_space(
        "dawn-under", {"options": {"after_match": "turn-ends"}})  # fixed: not searched
    assert target_reading_space("kuhn-poker", {}) == {}  # no registered reading


def test_a_dracula_target_under_a_non_default_reading_is_identified_on_the_command_line(
) -> None:
    result = CliRunner().invoke(app, [
        "conform", "--openspiel", f"{READINGS}:DRACULA_NO_BARRIER", "--game", "dracula",
        "--identify", "--budget", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["fits"] and data["readings"] == {"barrier_optional": "false"}, data
    assert data["games"] > 0 and data["steps"] > 0
    excluded = {(e["option"], e["value"]): e["game"] for e in data["excluded"]}
    # the default reading itself is excluded by a game, which shows a difference
    shown = excluded[("barrier_optional", "true")]
    assert shown["kind"] in ("legal", "player") and shown["step"] == len(shown["actions"])
    told = {(e["option"], e["value"]) for e in data["excluded"]} | {
        tuple(u.split("=")) for u in data["undecided"]}
    space = target_reading_space("dracula", {})
    # every other reading is accounted for: excluded by a game or not told apart
    assert told == {(k, v) for k, vs in space.items() for v in vs
                    if v != {"barrier_optional": "false"}.get(k, vs[0])}


def test_a_target_with_a_new_behaviour_fits_none_with_the_step() -> None:
    found = identify_target("dracula", "openspiel",
                            "examples.interop_mutants.dracula_no_look:GAME", budget=3)
    assert not found.fits and found.unexplained is not None, found.report()
    d = found.unexplained
    assert d.kind == "legal" and "look" in d.model, found.report()
    report = found.report()
    assert "FITS NONE of the registered readings of dracula" in report
    assert f"diverges at step {d.step}" in report and "look" in report


@pytest.mark.slow  # about 15 s each; CI runs pytest -m slow too
def test_an_openspiel_target_combining_two_readings_is_identified_as_both() -> None:
    found = identify_target("dawn-under", "openspiel", f"{READINGS}:TWO_READINGS",
                            params={"players": 4}, budget=20)
    assert found.fits, found.report()
    assert dict(found.readings) == {"after_match": "turn-ends", "turn_start": "may-pass"}
    excluded = {(e.option, e.value) for e in found.excluded}
    assert {("after_match", "may-continue"), ("turn_start", "must-open")} <= excluded


@pytest.mark.slow
def test_a_pettingzoo_target_under_a_non_default_reading_is_identified() -> None:
    found = identify_target("dawn-under", "pettingzoo", f"{READINGS}:ZOO_TURN_ENDS",
                            params={"players": 4}, budget=15)
    assert found.fits and dict(found.readings) == {"after_match": "turn-ends"}, found.report()
    back = next(e for e in found.excluded if e.option == "after_match")
    assert back.value == "may-continue" and back.witness.step <= 40, found.report()


@pytest.mark.slow
def test_a_dawn_under_target_with_a_new_behaviour_fits_none_on_the_command_line() -> None:
    result = CliRunner().invoke(app, [
        "conform", "--openspiel", "examples.interop_mutants.du_no_garlic:GAME", "--players",
        "3", "--identify", "--budget", "10"])
    assert result.exit_code == 1, result.output
    assert "FITS NONE of the registered readings of dawn-under" in result.output
    assert "garlic" in result.output


def test_a_target_that_cannot_be_loaded_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["conform", "--openspiel", "no_such_module:GAME",
                                      "--identify", "--budget", "2"])
    assert result.exit_code == 2 and "cannot import" in result.output, result.output


@pytest.mark.parametrize("identify", [[], ["--identify"]])
@pytest.mark.parametrize("args", [
    ["--openspiel", "liars_dice(numdice=2,dice_sides=6)", "--game", "liars-dice",
     "--players", "3"],  # another player count
    ["--openspiel", "liars_dice(numdice=2,dice_sides=6)", "--game", "dawn-under",
     "--players", "2"],  # another game (same player count)
    ["--pettingzoo", "ruleproof.interop.pettingzoo:env", "--game", "dracula",
     "--players", "3"],  # the target cannot be set up so: refused before it is loaded
])
def test_a_target_of_another_game_or_size_is_a_usage_error(identify: list[str],
                                                           args: list[str]) -> None:
    """Such a target diverged at the first step and got exit 1, as if it broke a rule."""
    result = CliRunner().invoke(app, ["conform", *args, *identify, "--budget", "5"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output


def test_openspiel_refusing_a_parameter_gives_one_line(tmp_path: Path) -> None:
    """OpenSpiel's native code printed its own 'OpenSpiel exception: ...' line to the error
    stream before ours (a subprocess: only it sees what native code writes)."""
    import subprocess

    done = subprocess.run([sys.executable, "-m", "ruleproof", "conform", "--openspiel",
                           "liars_dice(numdice=2,nosuch=3)", "--game", "liars-dice",
                           "--budget", "5"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and "nosuch" in lines[0], lines
