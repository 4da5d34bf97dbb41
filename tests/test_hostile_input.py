"""Bad input found by attacking the newest parts (Liar's Dice, the generic parameters, plugins,
COLUMNS, the Python API): each case is one line naming what is wrong, exit code 2, no
traceback; or the typed error with the state left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import IllegalAction
from ruleproof.model.api import GameState

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


def _ld_states() -> tuple[GameState, GameState]:
    from ruleproof.properties.plugin import make_game

    chance = make_game("liars-dice", dice=1, sides=2).new_initial_state()
    decision = chance
    while decision.current_player() < 0:
        decision = decision.apply(decision.chance_outcomes()[0][0])
    return chance, decision


@pytest.mark.parametrize("bad", ["bid", "3", 1.5, 1.0, True, None, [0]])
@pytest.mark.parametrize("node", ["chance", "decision"])
def test_an_action_id_that_is_not_an_integer_is_an_illegal_action(bad: object,
                                                                  node: str) -> None:
    # 'bid' was a ValueError from int(); 1.0 and '3' were taken as ids 1 and 3; True at a
    # chance node was a MalformedInput, not the IllegalAction apply promises
    chance, decision = _ld_states()
    state = chance if node == "chance" else decision
    before = repr(state), state.history()
    with pytest.raises(IllegalAction, match=r"not an integer|not in 0"):
        state.apply(bad)  # type: ignore[arg-type]
    assert (repr(state), state.history()) == before


def test_a_chance_id_out_of_range_says_so_not_that_no_die_is_to_roll() -> None:
    chance, _ = _ld_states()
    with pytest.raises(IllegalAction) as err:
        chance.apply(10**6)
    assert "no die is to roll" not in str(err.value) and "ld-wp:round.roll" in str(err.value)


def test_numpy_integers_stay_action_ids() -> None:
    np = pytest.importorskip("numpy")
    _, decision = _ld_states()
    legal = decision.legal_actions()
    assert decision.apply(np.int64(legal[0])).history() == decision.apply(legal[0]).history()


@pytest.mark.parametrize("columns", ["99999999", "1" + "0" * 30, "9" * 5000, "0", "0000"])
@pytest.mark.parametrize("command", [["--help"], ["games"]])
def test_a_huge_columns_is_capped_not_a_flood_or_a_traceback(columns: str,
                                                             command: list[str]) -> None:
    # COLUMNS=99999999 padded every --help line to 10^8 spaces (500 MB in 30 s, still going);
    # 10^30 was an OverflowError in rich, 5000 digits a ValueError in int(); with COLUMNS=0
    # --help printed one empty line
    import os
    import subprocess
    import sys

    from ruleproof.cli.fit import MAX_COLUMNS

    done = subprocess.run([sys.executable, "-c", "from ruleproof.cli import main; main()",
                           *command], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, COLUMNS=columns))
    assert done.returncode == 0, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) > 5 and 40 <= max(len(line) for line in lines) <= MAX_COLUMNS


@pytest.mark.parametrize(("source", "expected"), [
    ("import sys\nsys.exit(3)\n", "cannot import {m}: SystemExit"),
    ("raise SystemExit('bye')\n", "cannot import {m}: SystemExit"),
])
def test_a_plugin_that_exits_while_imported_is_a_broken_plugin(
        source: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # sys.exit(3) in a plugin module ended every command with exit 3 and no word
    import uuid

    from ruleproof.properties.plugin import ENV_PLUGINS

    mod = f"exits{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{mod}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}:PLUGIN")
    done = runner.invoke(app, ["simulate", "kuhn-poker"])
    assert done.exit_code == 0, done.output
    warning = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and expected.format(m=mod) in warning[0], done.stderr


@pytest.mark.parametrize("value", ["\u0663", "3_0", "\u00b3"])
def test_a_whole_number_parameter_is_ascii_digits(value: str) -> None:
    # int() read '٣' (Arabic-Indic three) as 3 and '3_0' as 30: a game of 3 players ran
    _one_line_exit_2(["simulate", "liars-dice", "-P", f"players={value}"],
                     "parameter players must be a whole number")


def test_a_liars_dice_roll_is_ascii_digits(tmp_path: Path) -> None:
    # '٤٦' passed as the roll 4, 6 while '07' was refused
    opening = LD_1D2.parents[1] / "scenarios" / "opening.toml"
    bad = tmp_path / "roll.toml"
    bad.write_text(opening.read_text(encoding="utf-8").replace(
        'dice = ["46", "25"]', 'dice = ["\u0664\u0666", "25"]'), encoding="utf-8")
    _one_line_exit_2(["scenario", str(bad)], "is not a roll of 6-sided dice")


def test_explore_refuses_an_out_file_before_it_explores(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep me\n")
    # du-3p-1v takes minutes: a refusal after the search would not come back at once
    _one_line_exit_2(["explore", "du-3p-1v", "--out", str(afile)], "not a folder")
    assert afile.read_text() == "keep me\n"
