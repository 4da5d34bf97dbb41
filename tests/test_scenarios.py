"""One scenario format and one runner for every game: shipped files pass, expectations have
teeth (a planted wrong expectation fails), malformed files are reported at FILE:LINE:COL."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.properties.dawn_under.checks import shipped_scenarios
from ruleproof.properties.plugin import ENV_PLUGINS, plugin, plugins
from ruleproof.properties.scenarios import load, run_scenario, scenario_games, shipped

ALL = shipped()
DU_HEAD = 'title = "t"\ngame = "dawn-under"\nplayers = 3\n'
DR_TOP = 'title = "t"\ngame = "dracula"\n'
DR_HEAD = DR_TOP + '[setup]\nseed = 1\n'


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_scenario_passes_in_the_one_format(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.detail
    assert result.examples > 0 or "expect" in path.read_text(encoding="utf-8")


def test_both_games_are_shipped() -> None:
    from ruleproof.properties.scenarios import scenario_games

    games = {load(p).game for p in ALL}
    assert games == set(scenario_games()) and {"dawn-under", "dracula"} <= games
    assert len(ALL) >= 140
    assert "ch4-rulebook-rat-plague-example" in {p.stem for p in shipped_scenarios()}


def _write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("src", "old", "new", "message"), [
    ("dawn_under/scenarios/end-win-by-placing", '"winner" = "P1"', '"winner" = "P2"',
     "expected winner = 'P2', got 'P1'"),
    ("dracula/scenarios/end-all-five", 'winner = "dracula"', 'winner = "van-helsing"',
     "expected winner = 'van-helsing'"),
    ("dracula/scenarios/rule-no-crossing", '"dracula-en:pay.no-crossing"]',
     '"dracula-en:move.orthogonal"]', "not dracula-en:move.orthogonal"),
    ("dracula/scenarios/special-deception", '"hand.dracula excludes" = ["coffin3"]',
     '"hand.dracula contains" = ["coffin3"]', "expected hand.dracula contains"),
])
def test_a_planted_wrong_expectation_fails(tmp_path: Path, src: str, old: str, new: str,
                                           message: str) -> None:
    text = (next(p for p in ALL if str(p).endswith(src + ".toml"))).read_text(encoding="utf-8")
    assert old in text
    result = run_scenario(_write(tmp_path, text.replace(old, new)))
    assert not result.passed and message in result.detail, result.detail


def test_expectations_at_any_step_and_refusals_anywhere_for_dracula(tmp_path: Path) -> None:
    base = (DR_TOP + 'actions = ["choose coffin1 coffin2 vampire1 vampire2 vampire3 amulet",'
            ' "choose victim1 victim2 hunter1 hunter2 hunter3 crucifix", "look", '
            '"dracula: move b1"]\n[setup]\nseed = 1\n'
            '[[refused]]\naction = 3\nclauses = ["dracula-en:move.start-location"]\n'
            '[[check]]\nafter = 1\n[check.expect]\nto_move = "van-helsing"\n'
            '"seen.dracula contains" = ["Dracula secretly chooses coffin1 for the board"]\n'
            '"seen.van-helsing excludes" = ["Dracula secretly chooses coffin1 for the board"]\n'
            '"legal excludes" = ["look"]\n'
            '[expect]\n"at.dracula" = "b1"\n')
    result = run_scenario(_write(tmp_path, base))
    assert result.passed, result.detail
    assert "refused as expected" in result.detail
    wrong = run_scenario(_write(tmp_path, base.replace('to_move = "van-helsing"',
                                                       'to_move = "dracula"'), "w.toml"))
    assert not wrong.passed and "after 1 actions" in wrong.detail


def test_verbose_log_for_dracula_and_seen_fact(tmp_path: Path) -> None:
    path = next(p for p in ALL if p.stem == "special-deception")
    result = run_scenario(path)
    assert "Deception" in result.detail  # the game log is in the detail for every game
    sc = load(path)
    assert "seen" in sc.game_facts.facts


@pytest.mark.parametrize(("text", "message", "line", "col"), [
    ('title = "t"\ngame = "chess"\n', "game", 2, 8),
    (DU_HEAD.replace("players = 3", "players = 7"), "players", 3, 11),
    (DU_HEAD + 'actions = [\n  "open 1",\n  "opne 2",\n]\n', "unknown action 'opne 2'", 6, 3),
    (DU_HEAD + 'actions = ["open ²"]\n', "unknown action", 4, 12),
    (DU_HEAD + 'actions = ["open ٣"]\n', "unknown action", 4, 12),
    (DU_HEAD + 'actions = ["open 054"]\n', "unknown action", 4, 12),
    (DU_HEAD + 'actions = ["open  1"]\n', "canonical", 4, 12),
    (DU_HEAD + '[options]\nafter_match = "never"\n', "not one of may-continue", 5, 15),
    (DU_HEAD + "bogus = 1\n", "unknown key 'bogus'", 4, 1),
    (DU_HEAD + '[setup]\nrows = [["red", "mauve"], ["red"], ["red"]]\n',
     "'mauve' is not a colour", 5, 17),
    (DU_HEAD + "[setup]\nseed = 1.9\n", "seed", 5, 8),
    (DU_HEAD + '[setup]\nseed = "x"\n', "seed", 5, 8),
    (DU_HEAD + 'clauses = "du-en:ch1.open"\n', "clauses", 4, 11),
    (DU_HEAD + "clauses = [1]\n", "clauses.0", 4, 12),
    (DU_HEAD + 'clauses = ["du-en:made.up"]\n', "not in any clause registry", 4, 12),
    (DU_HEAD + 'actions = ["open 1"]\n[expect]\n"grave.-1" = "empty"\n', "grave", 6, 1),
    (DU_HEAD + 'actions = ["open 1"]\n[expect]\n"smell" = 1  # "to_move" in a comment\n',
     "unknown fact 'smell'", 6, 1),
    (DU_HEAD + 'actions = ["open 1"]\n[expect]\n"stakes.Zed" = 1\n', "not a player", 6, 1),
    (DU_HEAD + 'actions = ["open 1"]\n[[refused]]\naction = 2\nclauses = ["du-en:ch1.open"]\n',
     "not an action number", 6, 10),
    (DU_HEAD + "players = 3 3\n", "invalid TOML", 4, None),
    (DR_HEAD + "to_move = []\n", "to_move", 5, 11),
    (DR_HEAD + '[expect]\nbarriers = "red"\n', "unknown fact 'barriers'", 6, 1),
    (DR_TOP + 'actions = ["look"]\n[expect]\nlife = { dracula = 3 }\n', "life", 5, 8),
    ('title = "t"\ngame = "dawn-under"\nplayers = 3\n' + "x = " + "[" * 500 + "]" * 500 + "\n",
     "nested", None, None),
])
def test_malformed_scenarios_are_located(tmp_path: Path, text: str, message: str,
                                         line: int | None, col: int | None) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert message in info.value.what, info.value.one_line()
    assert info.value.file == str(path)
    if line is not None:
        assert info.value.line == line, info.value.one_line()
    if col is not None:
        assert info.value.col == col, info.value.one_line()
    assert "\n" not in info.value.one_line()


def test_every_problem_of_a_file_is_collected(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_HEAD + 'clauses = [1]\nactions = [2]\n[setup]\nseed = -1\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert info.value.line == 4 and len(info.value.more) == 2, info.value.more
    path = _write(tmp_path, DU_HEAD + 'actions = ["opne 1", "open 99"]\n[expect]\n"smell" = 1\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert len(info.value.more) == 2, info.value.more
    assert all(":4:" in m or ":6:" in m for m in info.value.more)


def test_long_values_are_cut_and_newlines_escaped(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_HEAD + 'actions = ["open ' + "9" * 5000 + '\\nx"]\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    one = info.value.one_line()
    assert "\n" not in one and len(one) < 600


def test_non_utf8_file_gets_a_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b'title = "t"\ngame = "dawn-under"\ntitle2 = "\xff"\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert (info.value.line, info.value.col) == (3, 11)


def test_device_and_oversized_files_are_refused_after_reading_the_limit() -> None:
    with pytest.raises(MalformedInput, match="larger than"):
        load(Path("/dev/zero"))


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(MalformedInput, match="FIFO"):
        load(fifo)


def test_forty_thousand_actions_parse_and_run(tmp_path: Path) -> None:
    # linear parsing: this used to take most of a minute; a test only sees that it completes
    actions = ", ".join(['"open 0"', '"leave 0"', '"stop"'] * 1)
    body = DU_HEAD + "actions = [" + ", ".join(['"stop"'] * 40_000) + "]\n"
    path = _write(tmp_path, body)
    sc = load(path)
    assert len(sc.actions) == 40_000 and actions


def test_every_problem_of_a_set_up_is_collected(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_HEAD + 'actions = ["stop"]\n[setup]\nstart = "Zed"\n'
                  'lids = { 70 = "red", 3 = "mauve" }\ncontents = { 4 = "ghost" }\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert "Zed" in info.value.what and info.value.line == 6
    assert len(info.value.more) == 3, info.value.more


def test_an_unknown_game_names_the_games_with_scenarios(tmp_path: Path) -> None:
    path = _write(tmp_path, 'title = "t"\ngame = "chess"\nactions = ["e4"]\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    from ruleproof.properties.scenarios import scenario_games

    assert info.value.one_line() == (f"{path}:2:8: unknown game 'chess'; known games: "
                                     f"{', '.join(scenario_games())}")


NO_SCENARIOS = replace(plugin("dracula"), name="no-scenarios", capabilities={}, sources=(),
                       spec_folder=Path("/nonexistent-game-folder"))
"""A registered game without the scenario capability (RULEPROOF_PLUGINS, below)."""


def test_a_game_without_the_scenario_capability_is_refused_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_PLUGINS, f"{__name__}:NO_SCENARIOS")
    assert "no-scenarios" in plugins() and "no-scenarios" not in scenario_games()
    path = _write(tmp_path, 'title = "t"\ngame = "no-scenarios"\nactions = ["look"]\n')
    with pytest.raises(MalformedInput) as info:
        load(path)
    assert (info.value.line, info.value.col) == (2, 8)
    assert "no-scenarios has no scenarios capability" in info.value.what
