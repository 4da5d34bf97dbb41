"""The command line: logs, determinism across processes, exit codes for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app

runner = CliRunner()


def _simulate_in_subprocess(hashseed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    code = "from ruleproof.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "simulate", "dawn-under", "--players", "4", "--seed", "1"],
        capture_output=True, text=True, env=env, check=True)
    return done.stdout


@pytest.mark.slow
def test_simulate_plays_to_a_winner_and_is_byte_identical_across_processes() -> None:
    first = _simulate_in_subprocess("1")
    second = _simulate_in_subprocess("12345")
    assert first == second
    assert first.splitlines()[-1].startswith("Winner: P")
    assert "opens grave" in first


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "chess"], "unknown game 'chess'"),
    (["simulate", "dawn-under", "--players", "2", "--preset", "du-cs"], "3 to 6 players"),
    (["simulate", "dawn-under", "--players", "7"], "3 to 6 players"),
    (["check", "dawn-under", "--players", "7"], "3 to 6 players"),
    (["check", "dawn-under", "--option", "after_match=sometimes"], "after_match"),
    (["check", "go"], "unknown game 'go'"),
    (["clauses", "xx-yy"], "unknown document"),
    (["scenario", "does-not-exist.toml"], "does-not-exist.toml: cannot read file"),
    (["check", "--expansion", "gruft", "-o", "expansion=none"], "chosen twice"),
    # a flag that would be ignored is refused, not dropped silently
    (["ambiguities", "--write"], "--write only works with --search"),
    (["ambiguities", "--witnesses", "w"], "--witnesses only works with --discover"),
    (["ambiguities", "--workers", "2"], "--workers only works with --discover"),
    (["ambiguities", "--search", "--discover"], "give one"),
])
def test_bad_input_is_one_line_with_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_malformed_board_file_names_file_line_and_grave(tmp_path: Path) -> None:
    from ruleproof.spec import spec_path

    text = spec_path("dawn_under", "boards", "default.toml").read_text()
    bad = tmp_path / "board.toml"
    bad.write_text(text.replace("neighbours = [1, 4, 5]", "neighbours = [1, 4, 5, 12]", 1))
    result = runner.invoke(app, ["simulate", "dawn-under", "--board", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:" in result.output and "grave 0: neighbour 12" in result.output


def test_malformed_scenario_reports_line(tmp_path: Path) -> None:
    bad = tmp_path / "s.toml"
    bad.write_text('game = "dawn-under"\nplayers = 3\nactions = ["open x"]\n')
    result = runner.invoke(app, ["scenario", str(bad)])
    assert result.exit_code == 2 and f"{bad}:3:12: unknown action 'open x'" in result.output


@pytest.mark.slow
def test_check_json_lists_results() -> None:
    result = runner.invoke(app, ["check", "dawn-under", "--players", "3", "--profile", "ci",
                                 "--json"])
    data = json.loads(result.output)
    assert [rs["rule_set"] for rs in data["rule_sets"]] == ["du-en", "shared by every rule set"]
    props = [p for rs in data["rule_sets"] for p in rs["properties"]]
    names = {p["property"] for p in props}
    assert "the stakes never run out, or exactly when they can" in names
    assert {p["method"] for p in props} >= {"hypothesis", "z3", "sampled", "scenario"}
    assert result.exit_code == (0 if data["passed"] else 1)


def test_clauses_lists_where_each_clause_is_implemented() -> None:
    result = runner.invoke(app, ["clauses", "du-en"], env={"COLUMNS": "250"})
    assert result.exit_code == 0
    assert "du-en:ch4.just-opened" in result.output and "model/dawn_under/engine.py" in \
        result.output
    assert "UNCITED" not in result.output
    result = runner.invoke(app, ["clauses", "gruft-en", "--uncited"], env={"COLUMNS": "250"})
    assert result.exit_code == 0 and "\n0 clauses" in result.output  # the expansion is modelled
    result = runner.invoke(app, ["clauses", "du-cs", "--uncited"], env={"COLUMNS": "250"})
    assert result.exit_code == 0 and "du-cs:" in result.output


def test_scenario_command_runs_shipped_files() -> None:
    from ruleproof.properties.dawn_under.checks import shipped_scenarios

    result = runner.invoke(app, ["scenario", *map(str, shipped_scenarios())])
    assert result.exit_code == 0, result.output
    passed = [ln for ln in result.output.splitlines() if ln.startswith("pass ")]
    assert f"{len(passed)} scenario(s) passed" in result.output
    assert len(passed) == len(shipped_scenarios())


def test_scenario_under_another_rule_set_shows_the_difference() -> None:
    from ruleproof.properties.dawn_under.checks import shipped_scenarios

    path = next(p for p in shipped_scenarios() if p.stem == "ch1-match-continue-garlic")
    result = runner.invoke(app, ["scenario", str(path), "--preset", "du-cs"])
    assert result.exit_code == 1
    assert "expected P1 to act, but P2 is to move" in result.output
    same = runner.invoke(app, ["scenario", str(path), "--option", "after_match=may-continue"])
    assert same.exit_code == 0, same.output


def test_scenario_options_do_not_apply_to_dracula_files() -> None:
    from ruleproof.properties.dracula.scenarios import shipped_scenarios as dracula_scenarios

    path = dracula_scenarios()[0]
    result = runner.invoke(app, ["scenario", str(path), "--preset", "du-cs"])
    assert result.exit_code == 2 and "unknown preset 'du-cs'" in result.output
    assert "known: dracula-en" in result.output


def test_scenario_batch_goes_on_and_exits_with_the_worst(tmp_path: Path) -> None:
    from ruleproof.properties.scenarios import shipped

    good = str(shipped()[0])
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "t"\ngame = "dawn-under"\nplayers = 3\nactions = ["open ²"]\n',
                   encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(bad), good, "/dev/zero"])
    assert result.exit_code == 2
    assert f"error: {bad}:4:12:" in result.output and "pass " in result.output
    assert "error: /dev/zero: file is larger than" in result.output
    assert "0 of 3 scenarios failed, 2 malformed" in result.output


def test_dracula_scenarios_take_presets_options_and_print_their_log() -> None:
    from ruleproof.properties.dracula.scenarios import scenario_dir

    path = scenario_dir() / "amb-crucifix-breath.toml"
    result = runner.invoke(app, ["scenario", "-v", str(path), "--preset", "dracula-en"])
    assert result.exit_code == 0, result.output
    assert "Dracula" in result.output.split("\n", 1)[1]  # the game log follows the verdict
    other = runner.invoke(app, ["scenario", str(path), "--option",
                                "crucifix_exception=dark-of-night"])
    assert other.exit_code == 1  # the file's expectations hold only under its own reading


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "dawn-under", "--max-steps", "-5"], "--max-steps must be"),
    (["simulate", "dawn-under", "--seed", "99999999999999999999999"], "--seed must be"),
    (["simulate", "dawn-under", "--cards", "x.toml"], "--cards: dawn-under has no parameter"),
    (["simulate", "dawn-under", "--board", "/dev/zero"], "file is larger than"),
    (["simulate", "dracula", "--cards", "/dev/zero"], "file is larger than"),
    (["check", "dawn-under", "--players", "1000"], "got 1000"),
    (["prove", "--jobs", "1000"], "--jobs must be"),
    (["prove", "--jobs", "0"], "--jobs must be"),
    (["check", "--workers", "0"], "--workers must be 1..64"),
    (["check", "--workers", "2", "--jobs", "3"], "--workers 2 and --jobs 3 disagree"),
])
def test_numbers_and_files_out_of_range_are_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["simulate", "dawn-under", "--max-steps", "nan"],
                                  ["prove", "--jobs", "inf"],
                                  ["simulate", "dawn-under", "--seed", "1.5"]])
def test_non_integers_are_refused_by_the_option_parser(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("args", [["simulate", "dawn-under", "--max-steps", "nan"],
                                  ["simulate", "dawn-under", "--bogus"],
                                  ["check", "--jobs", "x"]])
def test_usage_errors_are_one_line_with_exit_code_2(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "ruleproof", *args], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [
    ["stats", "dawn-under", "-n", "2", "--plot", "/nonexistent-folder/x.png"],
    ["render", "spec/dawn_under/scenarios/ch3-garlic.toml", "--html", "/tmp"],
    ["conform-framework", "--openspiel", "json:loads"],
    ["conform-framework", "--openspiel", ":"],
    ["explore", "du-2p-1v", "--max-seconds", "nan"],
    ["simulate", "dawn-under", "--names", ",,,"],
])
def test_unusable_paths_and_targets_are_one_line_with_exit_code_2(args: list[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "ruleproof", *args], capture_output=True,
                          text=True, check=False, cwd=root)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1


def test_discover_witnesses_folder_checked_before_the_discovery_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--witnesses naming an existing file (or a path under one) fails at once, naming the
    flag, instead of after the whole discovery run."""
    import ruleproof.properties.contracts.discovery as discovery

    def no_run(*args: object, **kwargs: object) -> object:
        raise AssertionError("the discovery ran before --witnesses was checked")

    monkeypatch.setattr(discovery, "discover", no_run)
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    for target in (a_file, a_file / "sub"):
        res = runner.invoke(app, ["ambiguities", "--discover", "--profile", "ci",
                                  "--witnesses", str(target)])
        assert res.exit_code == 2, res.output
        assert res.output.count("\n") == 1 and "--witnesses" in res.output


@pytest.mark.parametrize(("args", "message"), [
    # a flag or -P parameter the game does not have: one line naming the game's parameters
    (["simulate", "dracula", "--board", "b.toml"],
     "--board: dracula has no parameter 'board'; its parameters: players, preset"),
    (["simulate", "dracula", "--expansion", "gruft"], "--expansion: dracula has no parameter"),
    (["simulate", "dawn-under", "-P", "cards=x.toml"], "-P cards: dawn-under has no parameter"),
    (["simulate", "dawn-under", "-P", "bogus=1"], "its parameters: players, preset, options"),
    (["simulate", "dawn-under", "-P", "players"], "-P expects NAME=VALUE"),
    (["simulate", "dawn-under", "-P", "players=x"], "parameter players must be a whole number"),
    (["simulate", "dawn-under", "-P", "players=3", "--players", "4"], "disagree"),
    (["simulate", "dawn-under", "-P", "preset=xx"], "'xx' is not one of du-en, du-cs, 2p"),
    (["simulate", "dawn-under", "--full-view"], "--full-view: dawn-under's log shows everything"),
    (["simulate", "dracula", "--names", "a,b"], "--names: dracula's log names its seats itself"),
    (["simulate", "dracula", "--players", "3"], "dracula is played by 2 players; got 3"),
    (["check", "dracula", "--board", "b.toml"], "--board: dracula has no parameter 'board'"),
    (["check", "dracula", "-P", "cards=x"], "-P cards: check narrows by"),
    (["check", "-P", "bogus=1"], "no registered game has the parameter 'bogus'"),
    (["render", "--random", "chess", "--html", "x.html"], "unknown game 'chess'; known games"),
    (["render", "--random", "dracula", "-P", "board=b.toml", "--html", "x.html"],
     "-P board: dracula has no parameter"),
    (["render", "--board", "no-such-file", "--svg", "x.svg"], "expected a game (dawn-under, "),
    (["render", "--board", "spec/dracula/board.toml", "--svg", "/tmp/x.svg", "-P", "players=3"],
     "are for --random"),
    (["scenario", "spec/dracula/scenarios/end-all-five.toml", "-P", "players=3"],
     "-P takes preset and options here"),
])
def test_game_parameters_come_from_the_plugin(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, \
        result.output


def test_p_and_the_shorthand_flags_are_one_spelling() -> None:
    short = runner.invoke(app, ["simulate", "dawn-under", "--players", "3", "--preset",
                                "du-cs", "-o", "after_match=turn-ends", "--seed", "2"])
    long = runner.invoke(app, ["simulate", "dawn-under", "-P", "players=3", "-P",
                               "preset=du-cs", "-P", "options=after_match=turn-ends",
                               "--seed", "2"])
    assert short.exit_code == long.exit_code == 0, short.output + long.output
    assert short.output == long.output and "Set-up (seed 2): 3 players" in short.output
    dracula = runner.invoke(app, ["simulate", "dracula", "-P",
                                  "options=first_player=van-helsing", "--seed", "1"])
    same = runner.invoke(app, ["simulate", "dracula", "-o", "first_player=van-helsing",
                               "--seed", "1"])
    assert dracula.exit_code == 0 and dracula.output == same.output
    scenario = runner.invoke(app, ["scenario", "spec/dawn_under/scenarios/ch1-match-continue-"
                                   "garlic.toml", "-P", "preset=du-cs"])
    assert scenario.exit_code == 1  # as --preset du-cs: the file's expectations are du-en's


def test_simulate_logs_a_game_without_a_winner_at_the_step_cap() -> None:
    result = runner.invoke(app, ["simulate", "dawn-under", "--seed", "4", "--max-steps", "7"])
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == "No winner after 7 actions (step cap 7)."
    result = runner.invoke(app, ["simulate", "dracula", "--seed", "4", "--max-steps", "7"])
    assert result.exit_code == 0 and result.output.splitlines()[-1] == \
        "No winner after 7 steps."


def test_version_and_install_hints_name_the_extra() -> None:
    from importlib.metadata import version

    from ruleproof.errors import missing_extra

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == f"ruleproof {version('ruleproof')}"
    hint = missing_extra(ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel"))
    assert hint.endswith('(install the openspiel extra: pip install ".[openspiel]" from the clone)')
    assert 'pip install ".[ray]"' in missing_extra(ModuleNotFoundError("x", name="ray.util"))
    assert missing_extra(ModuleNotFoundError("No module named 'zzz'", name="zzz")) == \
        "No module named 'zzz'"


def test_help_is_grouped_reflowed_and_complete() -> None:
    import typer.main

    from ruleproof.cli.clitools import HELP_PANELS, reflow

    group = typer.main.get_command(app)
    missing = [(name, p.opts) for name, cmd in group.commands.items()  # type: ignore[attr-defined]
               for p in cmd.params if type(p).__name__ == "TyperOption" and not p.help]
    assert missing == []
    assert reflow("One line\n    broken here.\n\n    Next.") == "One line broken here.\n\nNext."
    text = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    panels = [p for p, _ in HELP_PANELS]
    assert [text.index(p) for p in panels] == sorted(text.index(p) for p in panels)
    # a docstring's first paragraph is one line at 200 columns (it was cut mid-sentence)
    assert "reach every ending (bounded search plus a replayed witness)" in text
    # reST markup from the docstrings is not shown as typed (``-P NAME=VALUE`` was)
    assert "what `-P NAME=VALUE` takes" in text
    for name in group.commands:  # type: ignore[attr-defined]
        page = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "200"}).output
        assert "``" not in page, name


def test_every_problem_of_a_bad_file_is_reported(tmp_path: Path) -> None:
    from ruleproof.spec import spec_path

    good = (spec_path() / "dawn_under" / "scenarios" / "ch1-match-continue-garlic.toml"
            ).read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(good.replace("players = 3", 'players = "three"', 1)
                   .replace('title = "', 'title = 5 # "', 1), encoding="utf-8")
    res = CliRunner().invoke(app, ["scenario", str(bad)])
    assert res.exit_code == 2
    assert "bad.toml:1:9: title" in res.output and "also: " in res.output
    assert "bad.toml:3:11: players" in res.output


def test_a_scenario_that_sets_a_reading_is_not_called_default() -> None:
    from ruleproof.properties.scenarios import load
    from ruleproof.render.walk import scenario_walks
    from ruleproof.spec import spec_path

    path = spec_path() / "dracula" / "scenarios" / "amb-adjacency-corner.toml"
    assert [r.name for r in load(path).readings] == ["barrier_adjacency=corner"]
    notes = scenario_walks(path)[0].notes
    assert "reading: barrier_adjacency=corner" in notes and "reading: default" not in notes


def test_simulate_view_shows_one_side_once() -> None:
    both = CliRunner().invoke(app, ["simulate", "dracula", "-s", "1"])
    vh = CliRunner().invoke(app, ["simulate", "dracula", "-s", "1", "--view", "van-helsing"])
    dr = CliRunner().invoke(app, ["simulate", "dracula", "-s", "1", "--view", "Dracula"])
    assert both.exit_code == vh.exit_code == dr.exit_code == 0
    lines = both.output.splitlines()
    assert len(vh.output.splitlines()) == sum(x.startswith("[Van Helsing] ") for x in lines)
    assert not any(x.startswith("[") for x in vh.output.splitlines())
    assert "Dracula draws action card" in dr.output and "Dracula draws action card" \
        not in vh.output  # the hidden card is Dracula's to see
    bad = CliRunner().invoke(app, ["simulate", "dracula", "--view", "nobody"])
    assert bad.exit_code == 2 and "dracula, van-helsing, all" in bad.output


def test_dawn_under_log_has_a_legend_of_its_row_notation() -> None:
    res = CliRunner().invoke(app, ["simulate", "dawn-under", "--players", "3", "--seed", "1"])
    assert res.exit_code == 0
    legend = res.output.splitlines()[1]
    assert "R red" in legend and "K black" in legend and ". a face-down vampire" in legend


def test_the_check_summary_counts_rule_sets_not_shared_groups() -> None:
    """The summary said 'over 2 rule sets' for kuhn-poker's one rule set (kuhn-wp) and its
    shared group, and 'over 26' for the 22 rule sets of the four games."""
    result = runner.invoke(app, ["check", "kuhn-poker", "--profile", "ci", "--jobs", "1"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "shared by every rule set" in result.output  # the group's row is still there
    assert "steps over 1 rule set of kuhn-poker)" in result.output.splitlines()[-1]


def test_a_one_action_scenario_says_one_action() -> None:
    from ruleproof.spec import spec_path

    one = spec_path("dracula", "scenarios", "end-give-fifth.toml")
    two = spec_path("dracula", "scenarios", "end-simultaneous.toml")
    result = runner.invoke(app, ["scenario", str(one), str(two)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "end-give-fifth.toml  (1 action)\n" in result.output  # was '(1 actions)'
    assert "end-simultaneous.toml  (2 actions)\n" in result.output
