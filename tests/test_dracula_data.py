"""Dracula data: clause registry, card and board files with provenance, assumed values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleproof import spec
from ruleproof.errors import MalformedInput
from ruleproof.model.dracula import assumed_values, load_cards
from ruleproof.model.dracula.data import Kind, Side, default_board, default_cards, load_board

CARDS = spec.spec_path("dracula", "cards.toml")


def test_registry_loads_with_every_section() -> None:
    reg = spec.clause_registry("dracula-en")
    assert reg.document == "dracula-en"
    sections = {c.section for c in reg}
    for heading in ("Setup", "Barriers", "Early End", "Van Helsing's Cards", "Dracula's Cards",
                    "Detailed Example of a Turn", "End of the Game"):
        assert heading in sections
    specials = {c.id for c in reg if c.section in ("Van Helsing's Cards", "Dracula's Cards")}
    # one clause per card explained in the rulebook: 8 Van Helsing + 5 Dracula
    assert len(specials) == 13
    assert "dracula-en" in spec.shipped_documents()


def test_default_cards_composition() -> None:
    cards = default_cards()
    for side in Side:
        enc = [cards.enc(c) for c in cards.encounter_of(side)]
        assert [sum(1 for c in enc if c.kind is k) for k in Kind] == [9, 1, 5]
        assert all(1 <= c.strength <= 3 for c in enc if c.kind is Kind.ENEMY)
        acts = [cards.act(c) for c in cards.action_of(side)]
        assert len(acts) == 10
        assert sum(1 for a in acts if a.strength == 0) == 1
        assert sum(1 for a in acts if a.special is not None) == 8
    assert sum(1 for a in cards.action if a.bar == "grey") == 2


def test_rulebook_values_are_marked_rulebook() -> None:
    cards = default_cards()
    res = cards.act("resistance")
    assert (res.move, res.strength, res.bar) == (5, 2, "green")
    assert (cards.act("strength").move, cards.act("strength").strength) == (3, 4)
    assert cards.act("strength").special is None
    assert cards.act("deception").strength == 1 and cards.act("deception").move >= 4
    prov = {v.what: v.provenance for v in cards.values}
    assert prov["card resistance move"] == "rulebook"
    assert prov["card strength strength"] == "rulebook"
    assert prov["card vampire1 strength"] == "assumed"
    assert prov["card wings-of-night special"] == "public"


def test_board_geometry() -> None:
    board = default_board()
    assert board.size == 12 and len(board.edges) == 17
    assert board.name(board.harbour) == "a1" and board.name(board.carriage_station) == "d3"
    assert board.neighbours(board.parse("b2")) == tuple(
        board.parse(x) for x in ("b1", "a2", "c2", "b3"))
    assert board.parse_edge("b1-a1") == (0, 1)
    with pytest.raises(ValueError):
        board.parse_edge("a1-b2")


def _with(text: str, old: str, new: str, tmp_path: Path) -> Path:
    assert old in text
    p = tmp_path / "cards.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


def test_enemy_strength_nine_is_rejected_naming_file_line_card_field(tmp_path: Path) -> None:
    text = CARDS.read_text(encoding="utf-8")
    old = 'strength = { value = 1, provenance = "assumed"'
    p = _with(text, old, 'strength = { value = 9, provenance = "assumed"', tmp_path)
    with pytest.raises(MalformedInput) as err:
        load_cards(p)
    e = err.value
    assert e.file == str(p)
    assert "vampire1" in e.what and "'strength'" in e.what and "9" in e.what
    bad_line = p.read_text(encoding="utf-8").splitlines()[(e.line or 0) - 1]
    assert "value = 9" in bad_line
    assert re.match(rf"{re.escape(str(p))}:\d+:\d+: ", str(e))


@pytest.mark.parametrize(("old", "new", "field"), [
    ('bar = { value = "red"', 'bar = { value = "purple"', "bar"),
    ('move = { value = 3, provenance = "assumed"', 'move = { value = 0, provenance = "assumed"',
     "move"),
    ('strength = { value = 2, provenance = "assumed", source = "assumed: not given by any',
     'strength = { value = 5, provenance = "assumed", source = "assumed: not given by any',
     "strength"),
    ('special = { value = "pulse"', 'special = { value = "fireball"', "special"),
    ('kind = { value = "enemy", provenance = "rulebook"',
     'kind = { value = "enemy", provenance = "guessed"', "kind"),
])
def test_bad_action_card_values(tmp_path: Path, old: str, new: str, field: str) -> None:
    p = _with(CARDS.read_text(encoding="utf-8"), old, new, tmp_path)
    with pytest.raises(MalformedInput) as err:
        load_cards(p)
    assert f"'{field}'" in err.value.what or f".{field}." in err.value.what
    assert err.value.line is not None and err.value.col is not None


def test_wrong_deck_composition_is_rejected(tmp_path: Path) -> None:
    text = CARDS.read_text(encoding="utf-8")
    p = _with(text, 'id = "coffin5"\nowner = "dracula"\nkind = { value = "target"',
              'id = "coffin5"\nowner = "dracula"\nkind = { value = "power"', tmp_path)
    with pytest.raises(MalformedInput, match="9 enemy, 1 power and 5 target"):
        load_cards(p)


def test_user_card_file_with_other_values_is_used(tmp_path: Path) -> None:
    text = CARDS.read_text(encoding="utf-8")
    p = _with(text, 'strength = { value = 1, provenance = "assumed"',
              'strength = { value = 3, provenance = "public"', tmp_path)
    cards = load_cards(p)
    assert cards.enc("vampire1").strength == 3
    from ruleproof.model.dracula import new_game
    s = new_game(1, cards=cards)
    assert s.cards.enc("vampire1").strength == 3


def test_board_file_validation(tmp_path: Path) -> None:
    text = spec.spec_path("dracula", "board.toml").read_text(encoding="utf-8")
    p = tmp_path / "board.toml"
    p.write_text(text.replace('value = "d3"', 'value = "d1"'), encoding="utf-8")
    with pytest.raises(MalformedInput, match="opposite corners") as err:
        load_board(p)
    assert err.value.line is not None
    p.write_text(text.replace("value = 4\nprovenance = \"public\"",
                              "value = 5\nprovenance = \"public\""), encoding="utf-8")
    with pytest.raises(MalformedInput, match="12 locations"):
        load_board(p)


def test_assumed_values_cover_unknowns() -> None:
    rows = assumed_values()
    whats = [r[0] for r in rows]
    assert "card vampire1 strength" in whats and "card hunter9 strength" in whats
    assert "card pulse move" in whats and "card pulse bar" in whats
    assert any(w.startswith("rule option crucifix_exception") for w in whats)
    assert any("Reinforcement" in r[2] or "reinforcement" in r[0] for r in rows)
    assert all(len(r) == 3 and all(x.strip() for x in r) for r in rows)
    # rulebook values are not listed as assumed
    assert "card resistance move" not in whats
    assert assumed_values() == rows  # deterministic order
