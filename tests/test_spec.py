"""The clause registry, the manifest, the board loader and the citation links."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.board import default_board, load_board
from ruleproof.properties.citations import citations, model_citations
from ruleproof.spec import all_clause_ids, clause_registry, load_clause_registry, manifest, spec_path

BOARD = spec_path("dawn_under", "boards", "default.toml").read_text(encoding="utf-8")


def test_registry_loads_with_kinds_and_sections() -> None:
    reg = clause_registry("du-en")
    assert len(reg.clauses) >= 60
    assert {c.kind for c in reg} == {"setup", "legality", "effect", "turn-order", "end"}
    assert reg.get("du-en:ch4.just-opened").section.startswith("Chapter 4")


def test_every_cited_clause_id_is_registered() -> None:
    known = all_clause_ids()
    missing = {cid: where for cid, where in citations().items() if cid not in known}
    assert not missing


def test_every_base_game_clause_is_implemented_or_restated() -> None:
    cited = model_citations()
    uncited = [c.id for c in clause_registry("du-en")
               if c.id not in cited and not c.restates and not c.id.startswith("du-en:2p.")]
    assert uncited == []


def test_manifest_has_provenance() -> None:
    m = manifest("dawn_under")
    assert m.int("stakes") == 13 and m.facts["stakes"].provenance == "rulebook"
    assert m.facts["board"].provenance == "assumed"


def test_the_board_fact_names_the_board_the_model_loads() -> None:
    """``ruleproof assumed`` shows this fact's value; it once named a file that does not exist
    (boards/dawn-under-default.toml, the board's ``name`` rather than its file)."""
    value = manifest("dawn_under").facts["board"].value
    assert isinstance(value, str)
    assert spec_path("dawn_under", value).is_file()
    assert load_board(spec_path("dawn_under", value)) == default_board()


def test_default_board_satisfies_the_stated_constraints() -> None:
    b = default_board()
    assert b.size == 60 and b.provenance == "assumed"
    assert len(set(b.quarter_sizes())) == 4
    assert max(len(n) for n in b.neighbours) <= 8
    assert any(len(n) == 7 for n in b.neighbours)  # as in the rulebook's figure 4a


def _bad_board(tmp_path: Path, old: str, new: str) -> Path:
    assert old in BOARD
    path = tmp_path / "board.toml"
    path.write_text(BOARD.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ("neighbours = [1, 4, 5]", "neighbours = [1, 4]", "grave 5: neighbour 0 does not list 5 back"),
    ("neighbours = [1, 4, 5]", "neighbours = [1, 4, 5, 12]", "neighbour 12 lies in another quarter"),
    ("neighbours = [1, 4, 5]", "neighbours = [0, 1, 4, 5]", "own neighbour"),
    ("neighbours = [1, 4, 5]", "neighbours = [1, 4, 5, 99]", "neighbour 99 does not exist"),
    ('quarter = "north-west"', 'quarter = "middle"', "grave 0: quarter 'middle'"),
    ("id = 1\n", "id = 0\n", "grave 0: duplicate id"),
    ('provenance = "assumed"', 'provenance = "guess"', "provenance: Input should be"),
])
def test_bad_board_is_rejected_naming_grave_and_constraint(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    path = _bad_board(tmp_path, old, new)
    with pytest.raises(MalformedInput) as info:
        load_board(path)
    assert message in info.value.what
    assert info.value.file == str(path)


def test_board_error_carries_the_line_of_the_grave(tmp_path: Path) -> None:
    path = _bad_board(tmp_path, "neighbours = [45, 48, 49]", "neighbours = [45, 48]")
    with pytest.raises(MalformedInput) as info:
        load_board(path)
    line = info.value.line
    assert line is not None
    lines = path.read_text().splitlines()
    assert lines[line - 1].startswith("neighbours = [")  # the list holding the bad neighbour
    assert info.value.col is not None and lines[line - 1][info.value.col - 1].isdigit()


def test_toml_syntax_error_has_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "clauses.toml"
    path.write_text('document = "du-en"\n[[clause]]\nid = \n', encoding="utf-8")
    with pytest.raises(MalformedInput) as info:
        load_clause_registry(path)
    assert info.value.line == 3


def test_registry_rejects_duplicate_and_bad_kind(tmp_path: Path) -> None:
    entry = '[[clause]]\nid = "du-en:x.y"\nsection = "S"\nkind = "{kind}"\ntext = "t"\n'
    path = tmp_path / "clauses.toml"
    path.write_text('document = "du-en"\n' + entry.format(kind="effect") * 2, encoding="utf-8")
    with pytest.raises(MalformedInput, match="duplicate id"):
        load_clause_registry(path)
    path.write_text('document = "du-en"\n' + entry.format(kind="vibe"), encoding="utf-8")
    with pytest.raises(MalformedInput, match="kind 'vibe'") as info:
        load_clause_registry(path)
    assert info.value.line == 2
