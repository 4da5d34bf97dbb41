"""The command line around the game registry (#23): one line naming what is wrong, exit 2, for
the inputs a new user gets wrong, and ``ruleproof games`` listing what is registered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.properties.plugin import Selection, plugins, selection_refusals

runner = CliRunner()


def _one_error_line(done: object, *parts: str) -> None:
    stderr = done.stderr  # type: ignore[attr-defined]
    assert done.exit_code == 2, done.output  # type: ignore[attr-defined]
    assert stderr.startswith("error: ") and len(stderr.strip().splitlines()) == 1, stderr
    assert "Traceback" not in stderr
    for part in parts:
        assert part in stderr, stderr


def test_games_lists_every_registered_game_with_its_parameters_and_origin() -> None:
    done = runner.invoke(app, ["games", "--json"])
    assert done.exit_code == 0, done.output
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert set(rows) == set(plugins())
    for name, p in plugins().items():
        row = rows[name]
        assert row["title"] == p.title and row["players"] == list(p.game_type.players)
        assert [q["name"] for q in row["parameters"]] == [q.name for q in p.params]
        assert set(row["capabilities"]) >= set(p.capabilities)
        assert f"{p.package}.plugin:PLUGIN" in row["from"]
    text = runner.invoke(app, ["games"])
    assert text.exit_code == 0 and f"{len(rows)} games" in text.stdout


def test_the_param_help_points_to_the_games_command() -> None:
    import typer

    from ruleproof.cli.clitools import PARAM_HELP

    assert "`ruleproof games`" in PARAM_HELP
    assert "games" in typer.main.get_command(app).commands  # type: ignore[attr-defined]


def test_a_param_of_the_wrong_kind_keeps_its_flag() -> None:
    _one_error_line(runner.invoke(app, ["check", "kuhn-poker", "-P", "players=x"]),
                    "-P players: parameter players must be a whole number, got 'x'")


def test_check_names_the_games_a_selection_leaves_out() -> None:
    refusals = selection_refusals(Selection(players=(2,)))
    takers = [n for n, p in plugins().items() if not any(r.startswith(f"{n}: ") for r in refusals)]
    assert takers and refusals  # some games take two players, at least one refuses the count
    assert selection_refusals(Selection()) == []
    assert all(": " in r and r.split(": ")[0] in plugins() for r in refusals)


def test_check_prints_a_note_for_each_game_it_leaves_out() -> None:
    owner, preset = "kuhn-poker", "kuhn-wp"  # the quickest game to check
    assert preset in plugins()[owner].presets()
    done = runner.invoke(app, ["check", "--preset", preset, "--profile", "ci"])
    assert done.exit_code == 0, done.output
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: not checked: ")]
    others = [n for n in plugins() if n != owner]
    assert others and len(notes) == len(others)
    assert all(any(line.startswith(f"note: not checked: {n}: ") for line in notes)
               for n in others)


def test_ambiguities_of_a_game_without_a_register_names_the_capability(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleproof.properties.plugin import ENV_PLUGINS

    (tmp_path / "noreg_plugin.py").write_text(
        "from dataclasses import replace\n"
        "from pathlib import Path\n"
        "from ruleproof.properties.kuhn_poker.plugin import PLUGIN as KUHN\n"
        "PLUGIN = replace(KUHN, name='no-register', capabilities={}, sources=(),\n"
        "                 spec_folder=Path('/nonexistent-game-folder'))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, "noreg_plugin:PLUGIN")
    _one_error_line(runner.invoke(app, ["ambiguities", "no-register"]),
                    "no-register has no ambiguities capability")


def test_an_entry_of_an_empty_register_says_it_is_empty() -> None:
    from ruleproof.properties.contracts.register import entries, registers

    empty = [p.name for p, _cap in registers() if not entries(p.name)]
    if not empty:
        pytest.skip("every shipped register has entries")
    _one_error_line(runner.invoke(app, ["ambiguities", empty[0], "no-such-entry"]),
                    f"{empty[0]}'s ambiguity register is empty")


def test_a_winner_who_is_not_a_player_is_malformed_not_a_failed_scenario(
        tmp_path: Path) -> None:
    from ruleproof.properties.scenarios import scenario_games

    done = 0
    for name in scenario_games():
        p = plugins()[name]
        shipped = sorted((p.spec_folder / "scenarios").rglob("*.toml"))
        for path in shipped:
            text = path.read_text(encoding="utf-8")
            lines = [i for i, line in enumerate(text.splitlines()) if line.startswith("winner = ")]
            if not lines:
                continue
            bad = text.splitlines()
            bad[lines[0]] = 'winner = "P7"'
            target = tmp_path / f"{name}.toml"
            target.write_text("\n".join(bad) + "\n")
            result = runner.invoke(app, ["scenario", str(target)])
            _one_error_line(result, f"{target}:{lines[0] + 1}:10:", "'P7' is not a player")
            assert runner.invoke(app, ["scenario", str(path)]).exit_code == 0
            done += 1
            break
    assert done >= 2  # at least two games' scenarios were tried


def test_docs_build_names_the_missing_configuration_before_the_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no docs/ here
    _one_error_line(runner.invoke(app, ["docs", "--build", "--config-file",
                                        str(tmp_path / "none.yml")]),
                    f"{tmp_path / 'none.yml'}: --config-file")
    _one_error_line(runner.invoke(app, ["docs"]), "docs: DIRECTORY")


def test_conform_framework_targets_are_one_line(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    (tmp_path / "boomspiel.py").write_text('raise ZeroDivisionError("boom")\n')
    monkeypatch.chdir(tmp_path)
    _one_error_line(runner.invoke(app, ["conform-framework", "--openspiel", "boomspiel:GAME",
                                        "--game", "kuhn-poker"]),
                    "cannot import 'boomspiel': ZeroDivisionError: boom")
    _one_error_line(runner.invoke(app, ["conform-framework", "--openspiel", "no_such_game_x",
                                        "--game", "kuhn-poker"]),
                    "OpenSpiel has no game 'no_such_game_x'")
    by_name = runner.invoke(app, ["conform-framework", "--openspiel", "kuhn_poker", "--game",
                                  "kuhn-poker", "--games", "3", "--budget", "20"])
    assert by_name.exit_code == 0, by_name.output
    assert "kuhn_poker: conforms" in by_name.stdout
