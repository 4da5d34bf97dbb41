"""Bad input found by attacking the newest parts (Liar's Dice, the generic parameters, plugins,
COLUMNS, the Python API): each case is one line naming what is wrong, exit code 2, no
traceback; or the typed error with the state left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app

runner = CliRunner()


def _one_line_exit_2(args: list[str], message: str) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert message in result.output and len(result.output.strip().splitlines()) == 1, \
        result.output
    return result.output


@pytest.mark.parametrize(("args", "message"), [
    # the generic parameters every game lists (truncation, reduced) reach the registry's
    # make_game, which checks them, instead of the plugin's, which has no such keyword
    (["simulate", "liars-dice", "-P", "truncation=abc"], "parameter truncation must be"),
    (["simulate", "liars-dice", "-P", "reduced=ld-1d2"], "no reduced_game capability"),
    (["simulate", "dracula", "-P", "reduced=ld-1d2"], "ld-1d2 is a set-up of liars-dice"),
    (["render", "--random", "kuhn-poker", "-P", "truncation=x", "--html", "x.html"],
     "parameter truncation must be"),
])
def test_the_generic_parameters_are_checked_not_a_traceback(args: list[str],
                                                            message: str) -> None:
    _one_line_exit_2(args, message)


def test_simulate_and_render_take_the_generic_parameters(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "liars-dice", "-P", "truncation=loss",
                                 "--max-steps", "2"])
    assert result.exit_code == 0, result.output
    assert "cut off" in result.output
    result = runner.invoke(app, ["simulate", "dracula", "-P", "reduced=dr-1x2"])
    assert result.exit_code == 0, result.output
    assert "wins" in result.output
    page = tmp_path / "r.html"
    result = runner.invoke(app, ["render", "--random", "dracula", "-P", "reduced=dr-1x2",
                                 "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert page.stat().st_size > 0


LD_1D2 = Path(__file__).resolve().parents[1] / "spec" / "liars_dice" / "reduced" / "ld-1d2.toml"


@pytest.mark.parametrize(("old", "new", "message"), [
    # a misspelt count was ignored: the full game (five dice each) was explored instead
    ("[count.dice]", "[count.die]", "count die: not a reducible count (known: dice, sides)"),
    # the provenance of a reduction was not checked against the game's full values
    ("full = 5", "full = 7", "count dice: full value is 5"),
    ("full = 6", "full = 3", "count sides: full value is 6"),
    # a size in the options was dropped silently ([count.NAME] sets it)
    ("players = 2", 'players = 2\noptions = {dice = "3"}', "options dice: a reduced set-up"),
    ("players = 2", 'players = 2\noptions = {order = "face"}', "options order: a reduced set-up"),
])
def test_a_reduced_liars_dice_file_with_a_wrong_count_is_one_line(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    text = LD_1D2.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert str(bad) in _one_line_exit_2(["explore", str(bad), "--max-states", "50"], message)


@pytest.mark.parametrize("name", ["../../escaped", "a/b", "..", ".hidden", "x y", "a\\\\b"])
def test_a_reduced_set_up_name_that_is_not_a_plain_name_is_refused(tmp_path: Path,
                                                                   name: str) -> None:
    # the name makes the default folder of the counterexample traces (explore-NAME): a name
    # with '../' wrote them outside it, wherever the path led
    text = LD_1D2.read_text(encoding="utf-8").replace('name = "ld-1d2"', f'name = "{name}"')
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    out = _one_line_exit_2(["explore", str(bad)], "'name' must be")
    assert f"{bad}:5:" in out


@pytest.mark.parametrize("seed", ["-1", "99999999999999999999999"])
def test_explore_simulate_takes_the_seeds_every_other_command_takes(seed: str) -> None:
    # 'simulate --seed -1' was refused, 'explore --simulate 2 --seed -1' ran
    _one_line_exit_2(["explore", "ld-1d2", "--simulate", "2", "--seed", seed],
                     "--seed must be a number in 0..9223372036854775807")


@pytest.mark.parametrize("args", [
    # random.Random(-1) deals as random.Random(1): perft printed 'deal seed -1' for seed 1's deal
    ["perft", "liars-dice:ld-wp", "--players", "2", "--seed", "-1", "--depth", "1"],
    ["conform", "--engine", "python examples/engines/dawn_under_ref.py", "--game", "dawn-under",
     "--seed", "-1"],
    ["conform-framework", "--openspiel", "liars_dice", "--game", "liars-dice", "--seed", "-1"],
])
def test_a_negative_seed_is_refused_everywhere(args: list[str]) -> None:
    _one_line_exit_2(args, "--seed must be a number in 0..9223372036854775807")
