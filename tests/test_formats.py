"""Typed file formats: shipped JSON Schemas and docs/scenarios.md are in sync with the code,
positions come from the TOML structure (not from grepping), readers refuse bad files at
FILE:LINE:COL and stay within their limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.cli.docgen import scenarios_markdown
from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.board import load_board
from ruleproof.model.dawn_under.config import load_presets
from ruleproof.model.dracula.data import load_board as load_dracula_board
from ruleproof.model.dracula.data import load_cards
from ruleproof.properties.formats import every_schema, schema_text, schemas
from ruleproof.properties.scenarios import scenario_games
from ruleproof.spec import spec_path
from ruleproof.spec.formats import parse_toml, read_toml
from ruleproof.spec.tomlpos import Positions

runner = CliRunner()


SCHEMAS = every_schema()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_shipped_schema_is_in_sync(name: str) -> None:
    shipped = SCHEMAS[name][1]
    assert shipped.read_text(encoding="utf-8") == schema_text(name), \
        f"regenerate: ruleproof schema {name} > {shipped}"
    assert json.loads(shipped.read_text(encoding="utf-8"))["$schema"].startswith("https://")


def test_shared_formats_name_no_game_and_a_game_ships_its_own() -> None:
    from ruleproof.properties.plugin import plugins

    shared = {name: SCHEMAS[name][1] for name in schemas()}
    assert {p.parent for p in shared.values()} == {spec_path("schemas")}
    for name in shared:
        text = schema_text(name)
        assert not any(f'"{g}"' in text for g in plugins()), name
    for p in plugins().values():
        own = {name for name, (_m, where) in SCHEMAS.items() if where.parent.parent == p.spec_folder}
        assert all(name.startswith(f"{p.name}-") for name in own)


def test_schema_command_prints_and_lists() -> None:
    result = runner.invoke(app, ["schema", "scenario"])
    assert result.exit_code == 0 and result.output == schema_text("scenario")
    listing = runner.invoke(app, ["schema"])
    assert all(name in listing.output for name in SCHEMAS)
    for line in listing.output.splitlines():  # a whole sentence each, no reST markup
        assert line.endswith(".") and "``" not in line, line
    bad = runner.invoke(app, ["schema", "x" * 500])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


def test_docs_scenarios_lists_every_action_and_fact_of_every_game() -> None:
    text = scenarios_markdown()  # generated at the site build (and by ruleproof docs DIR)
    for game, facts in scenario_games().items():
        for name in facts.facts:
            assert f"`{name}" in text
        assert f"## {game}" in text


def test_positions_follow_structure_not_comments() -> None:
    text = ('# to_move is mentioned here\n'
            'actions = [\n  "a",  # "b" in a comment\n  "b",\n]\n'
            '[[reading]]\nname = "x"\n[[reading]]\nname = "y"\n[reading.expect]\n'
            '"to_move" = 1\nt = { "k.j" = [1, { z = 2 }] }\n')
    pos = Positions(text)
    assert pos.where(("actions", 1)) == (4, 3)
    assert pos.where(("reading", 1, "expect", "to_move")) == (11, 13)
    assert pos.where(("reading", 1, "expect", "to_move"), at_key=True) == (11, 1)
    assert pos.where(("reading", 1, "name")) == (9, 8)
    assert pos.where(("reading", 1, "expect", "t", "k.j", 1, "z")) == (12, 25)
    assert pos.where(("nothing", "here")) == (1, 1)


def test_parsing_is_linear_enough_for_big_files() -> None:
    text = "actions = [" + ", ".join(['"stop"'] * 40_000) + "]\n"
    doc = parse_toml(text, "big.toml")
    assert doc.where(("actions", 39_999))[0] == 1


def _copy(tmp_path: Path, src: Path, old: str, new: str) -> Path:
    text = src.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / src.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("src", "old", "new", "reader", "message"), [
    (("dracula", "cards.toml"), 'owner = "dracula"', "owner = 1", load_cards, "owner"),
    (("dracula", "cards.toml"), 'kind = { value = "enemy"', "kind = { value = [1]", load_cards,
     "kind.value"),
    (("dracula", "cards.toml"), "[[encounter]]", "encounter = [1]\n[[x]]", load_cards, "invalid"),
    (("dracula", "board.toml"), "value = 4\n", "value = 4.5\n", load_dracula_board,
     "columns.value"),
    (("dawn_under", "boards", "default.toml"), "y = 0", 'y = "0"', load_board, "y"),
    (("dawn_under", "boards", "default.toml"), "id = 0", "id = -1", load_board, "id"),
    (("dawn_under", "presets.toml"), "players = [3, 4, 5, 6]", 'players = "x"', load_presets,
     "players"),
    (("dawn_under", "presets.toml"), 'second_rat = "opponent"', 'second_rat = "never"',
     load_presets, "second_rat"),
])
def test_data_files_are_refused_at_the_value(tmp_path: Path, src: tuple[str, ...], old: str,
                                             new: str, reader: object, message: str) -> None:
    path = _copy(tmp_path, spec_path(*src), old, new)
    with pytest.raises(MalformedInput) as info:
        reader(path)  # type: ignore[operator]
    assert message in info.value.one_line()
    assert info.value.line is not None and info.value.file == str(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    if "invalid" not in message:
        assert new.split("=")[0].split("{")[0].strip().split(" ")[-1] in lines[info.value.line - 1] \
            or message.split(".")[0] in lines[info.value.line - 1]


@pytest.mark.parametrize("reader", [load_board, load_cards, load_dracula_board, load_presets,
                                    read_toml])
def test_readers_are_device_safe(reader: object) -> None:
    with pytest.raises(MalformedInput, match="larger than"):
        reader(Path("/dev/zero"))  # type: ignore[operator]


@pytest.mark.slow  # tens of seconds; CI runs pytest -m slow too
def test_shipped_files_validate_against_their_exported_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
    import tomllib

    from ruleproof.properties.scenarios import shipped

    cases = [("scenario", p) for p in shipped()] + [
        (f"{tomllib.loads(p.read_text(encoding='utf-8'))['game']}-scenario", p)
        for p in shipped()] + [
        ("dawn-under-board", spec_path("dawn_under", "boards", "default.toml")),
        ("dracula-cards", spec_path("dracula", "cards.toml")),
        ("dracula-board", spec_path("dracula", "board.toml")),
        ("presets", spec_path("dawn_under", "presets.toml")),
        ("presets", spec_path("dracula", "presets.toml"))]
    for name, path in cases:
        schema = json.loads(SCHEMAS[name][1].read_text(encoding="utf-8"))
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
    schema = json.loads(SCHEMAS["dawn-under-scenario"][1].read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"game": "dawn-under", "setup": {"seed": 1.9}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"game": "dracula", "setup": {}}, schema)
