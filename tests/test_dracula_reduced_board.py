"""Reduced Dracula boards of several rows (#30): the knobs ``rows``/``columns`` of a reduced
file, location names that mean one index on every board, a deal with fewer chosen cards than
locations, the out-of-order probes of clause coverage, and the contract of
dracula-en:cards.strength. Fast; the grown set-ups themselves are explored in
tests/test_dracula_grown_coverage.py (slow)."""

from __future__ import annotations

import dataclasses
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.model.dracula.engine import Look, Move, PlaceBarrier, PlayCard
from ruleproof.properties.dracula.contracts.dracula_en import _no_strength
from ruleproof.properties.dracula.explore import out_of_order
from ruleproof.properties.explore.games import configuration, explore_game

TWO_BY_TWO = "dr-1x2-2x2-enemy"


def _copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = Path(configuration(name).path).read_text(encoding="utf-8")
    assert old in text, (name, old)
    out = tmp_path / f"{name}-{len(list(tmp_path.iterdir()))}.toml"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_two_rows_of_two_name_their_locations_as_the_notation_does() -> None:
    game = explore_game(TWO_BY_TWO)
    board = game.board  # type: ignore[attr-defined]
    assert (board.rows, board.columns, board.size) == (2, 2, 4)
    names = [board.name(i) for i in range(board.size)]
    assert names == ["a1", "b1", "c1", "d1"]
    # one name, one index: the action notation (replayed on the full board) and the board agree
    assert [str(Move(i)) for i in range(4)] == [f"move {n}" for n in names]
    assert [board.edge_name(e) for e in board.edges] == ["a1-b1", "a1-c1", "b1-d1", "c1-d1"]
    assert str(PlaceBarrier("red", (0, 2))) == "barrier red a1-c1"
    assert board.neighbours(0) == (1, 2) and board.neighbours(3) == (1, 2)
    assert (board.label(board.harbour), board.label(board.carriage_station)) == (
        "a1 (harbour)", "d1 (carriage station)")


@pytest.mark.parametrize(("old", "new", "what"), [
    ("columns = 2", "columns = 5", "'columns' must be 2..4"),
    ("columns = 2", "columns = 1", "'columns' must be 2..4"),
    ("columns = 2", "columns = true", "'columns' must be 2..4"),
    ("rows = 2", "rows = 0", "'rows' must be 1..3"),
    ("rows = 2", "rows = \"2\"", "'rows' must be 1..3"),
    ("life_markers = 1", "life_markers = 5", "'life_markers' must be 1..4"),
])
def test_a_bad_grid_is_refused_with_file_line_and_column(tmp_path: Path, old: str, new: str,
                                                         what: str) -> None:
    path = _copy(tmp_path, TWO_BY_TWO, old, new)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = lines.index(new) + 1
    col = new.index("=") + 3
    with pytest.raises(MalformedInput, match=what) as err:
        explore_game(str(path))
    assert (err.value.file, err.value.line, err.value.col) == (str(path), line, col)
    before = path.read_text(encoding="utf-8")
    res = CliRunner().invoke(app, ["explore", str(path), "--allow", "cycles"])
    assert res.exit_code == 2
    out = [x for x in res.output.splitlines() if x.strip()]
    assert len(out) == 1 and f"{path}:{line}:{col}: {what}" in out[0]
    assert path.read_text(encoding="utf-8") == before


def _first(name: str, kind: str) -> Any:
    """The first state (breadth first) whose next step is of ``kind``."""
    game = explore_game(name)
    todo = deque([game.roots()[0].state])
    while todo:
        s = todo.popleft()
        if s.agenda and s.agenda[0].kind == kind:
            return s
        todo.extend(t for _, t in game.successors(s))
    raise AssertionError(f"no {kind} step in {name}")


def test_fewer_chosen_cards_than_locations_leave_the_last_locations_empty() -> None:
    s = _first(TWO_BY_TWO, "move")
    assert sum(c is not None for c in s.board_cards) == 2  # one card a side chosen
    assert s.board_cards[2:] == (None, None)
    assert sum("starts empty" in e.full for e in s.log) == 2


def test_out_of_order_probes_try_each_part_of_a_turn_at_the_wrong_time() -> None:
    game = explore_game(TWO_BY_TWO)
    s = _first(TWO_BY_TWO, "move")
    moving = out_of_order(s)
    assert PlayCard(s.current[0][0], False) in moving  # a card before the move is over
    s = _first(TWO_BY_TWO, "barrier")
    probes = out_of_order(s)
    assert Move(s.board.neighbours(s.pos[s.active])[0]) in probes and Look() in probes
    assert PlaceBarrier("red", (0, 3)) in probes  # the diagonal: no border
    assert {p for p in probes if isinstance(p, PlaceBarrier) and p.edge != (0, 3)} == {
        PlaceBarrier(c, e) for c in ("red", "blue", "green", "yellow") for e in s.board.edges}
    refused = game.refused(s)
    assert "dracula-en:play.turn-parts" in refused and "dracula-en:barriers.between" in refused


REINFORCEMENT = ("chance wings-of-night; chance reinforcement; choose vampire1; choose hunter1; "
                 "chance vampire1; chance hunter1; move b1; no-reveal; look; play wings-of-night; "
                 "no-barrier; chance wings-of-night; move a1; look; play reinforcement")


def test_the_card_without_strength_beats_no_enemy_and_the_contract_bites() -> None:
    game = explore_game("dr-1x2-reinforcement", contracts=True)
    s = game.roots()[0].state
    actions = [x.strip() for x in REINFORCEMENT.split(";")]
    for text in actions[:-1]:
        s = dict(game.successors(s))[text]
    t = dict(game.successors(s))[actions[-1]]
    a = game.typed(actions[-1])
    assert s.cards.act("reinforcement").strength == 0
    assert _no_strength(s, a, t) is True
    card = s.board_cards[s.pos[1]]
    beaten = dataclasses.replace(t, board_cards=tuple(None if c == card else c
                                                      for c in t.board_cards),
                                 enc_discard=(t.enc_discard[0] + (card,), t.enc_discard[1]))
    assert _no_strength(s, a, beaten) is False
    assert game.step_violations(s, actions[-1], beaten)  # the explorer reports it
    # a card with a strength: the contract is silent
    strong = dataclasses.replace(a, card="wings-of-night")
    assert _no_strength(s, strong, t) is None


@pytest.mark.slow
def test_coverage_of_a_users_file_is_counted_for_that_file(tmp_path: Path) -> None:
    """``explore FILE --coverage`` looks the set-up up by the file it was given, not by the
    name inside it (which no shipped set-up has)."""
    path = _copy(tmp_path, "dr-1x2", 'name = "dr-1x2"', 'name = "my-1x2"')
    res = CliRunner().invoke(app, ["explore", str(path), "--allow", "cycles", "--coverage",
                                   "--no-contracts", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "unknown reduced configuration" not in res.output
    assert "dracula-en:move.orthogonal" in res.output
