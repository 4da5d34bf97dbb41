"""``ruleproof perft`` (issue #25): action sequences and distinct states per depth from fixed
seeded set-ups, each count by the explorer and by a plain recursive count, which must agree;
the shipped tables (spec/<game>/perft/) recomputed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.properties.conformance import perft as pf
from ruleproof.properties.conformance.games import GameModel, model_of

runner = CliRunner()
RULE_SETS = pf.rule_sets()


def test_every_rule_set_ships_tables_of_three_set_ups() -> None:
    assert len({rs.game for rs in RULE_SETS}) >= 3
    for rs in RULE_SETS:
        data = pf.shipped(rs)
        assert data is not None, f"{rs.game}:{rs.name}: no table at {pf.table_path(rs)}"
        assert data["game"] == rs.game and data["rule_set"] == rs.name
        assert len(data["tables"]) == len(pf.SEEDS)
        for table in data["tables"]:
            depths = table["depths"]
            assert [d["depth"] for d in depths] == list(range(1, len(depths) + 1))
            assert depths[0]["sequences"] > 0 and depths[0]["states"] > 1
            assert sum(table["divide"].values()) == depths[-1]["sequences"]


@pytest.mark.parametrize("rs", RULE_SETS, ids=lambda rs: f"{rs.game}:{rs.name}")
def test_the_shipped_tables_are_recomputed_to_depth_2(rs: Any) -> None:
    assert pf.check(rs, 2) == []


@pytest.mark.slow
@pytest.mark.parametrize("rs", RULE_SETS, ids=lambda rs: f"{rs.game}:{rs.name}")
def test_the_shipped_tables_are_recomputed_to_their_depth(rs: Any) -> None:
    assert pf.check(rs) == []


def test_a_move_generator_that_drops_an_action_makes_the_methods_disagree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer walks the conformance capability's action strings, the recursive count the
    game interface's ids: a bug in one path shows as a disagreement."""
    rs = pf.find_rule_set("du-en")
    setup = pf.setups(rs, model_of(rs.game))[0]
    pf.perft(rs, 2, setup)  # agrees as shipped
    original = GameModel.legal

    def fewer(self: GameModel, state: Any) -> list[str]:
        return original(self, state)[:-1] or original(self, state)

    monkeypatch.setattr(GameModel, "legal", fewer)
    with pytest.raises(pf.Disagreement, match=r"sequences differ .* at depth 1: 59 vs 60"):
        pf.perft(rs, 2, setup)


def test_a_state_identity_that_forgets_a_field_makes_the_states_disagree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer merges states by fingerprint and expands one of each: an identity that
    merges different states loses successors the recursive count still walks."""
    rs = pf.find_rule_set("2p")
    setup = pf.setups(rs, model_of(rs.game))[0]

    def public_only(self: GameModel, state: Any) -> str:
        return json.dumps(self.public_state(state)["phase"])

    monkeypatch.setattr(GameModel, "state_identity", public_only)
    with pytest.raises(pf.Disagreement):
        pf.perft(rs, 3, setup)


def test_a_tampered_table_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = pf.find_rule_set("kuhn-wp")
    data = pf.shipped(rs)
    assert data is not None
    data["tables"][1]["depths"][1]["states"] += 1
    fake = tmp_path / "kuhn-wp.json"
    fake.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(pf, "table_path", lambda _: fake)
    problems = pf.check(rs)
    assert len(problems) == 1 and "seed 1" in problems[0], problems
    result = runner.invoke(app, ["perft", "kuhn-wp", "--check"])
    assert result.exit_code == 1 and "DIFFERS" in result.output, result.output


def test_perft_command_prints_counts_divide_and_json() -> None:
    result = runner.invoke(app, ["perft", "kuhn-poker:kuhn-wp", "--depth", "2", "--divide"])
    assert result.exit_code == 0, result.output
    assert "explorer and recursive count agree" in result.output
    assert "divide (sequences of 2 actions by the first action):" in result.output
    result = runner.invoke(app, ["perft", "2p", "--depth", "2", "--players", "2", "--seed", "7",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (table,) = data["tables"]
    assert table["seed"] == 7 and table["players"] == 2 and table["depths"][0]["sequences"] > 0
    result = runner.invoke(app, ["perft", "kuhn-wp", "--check"])
    assert result.exit_code == 0 and "agrees with the shipped tables" in result.output


def test_the_docs_show_the_shipped_tables() -> None:
    doc = Path(__file__).resolve().parents[1] / "docs" / "conformance.md"
    text = doc.read_text(encoding="utf-8")
    start, end = text.index(pf.DOCS_START), text.index(pf.DOCS_END) + len(pf.DOCS_END)
    fresh = pf.docs_tables()
    if os.environ.get("RULEPROOF_REGEN_DOCS"):
        text = text[:start] + fresh + text[end:]
        doc.write_text(text, encoding="utf-8")
    assert text[start:text.index(pf.DOCS_END) + len(pf.DOCS_END)] == fresh, (
        "regenerate with RULEPROOF_REGEN_DOCS=1")
    assert fresh.count("\n| `") == 3 * len(RULE_SETS)


@pytest.mark.parametrize("args", [["perft", "nope"], ["perft", "2p", "--depth", "0"],
                                  ["perft"], ["perft", "2p", "--players", "9"]])
def test_perft_bad_input_is_one_line_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output


def test_an_unknown_rule_set_names_every_game() -> None:
    """The list of known rule sets was cut at the line's end before the last games (Dracula has
    a rule set per reading): the line names every game, a few rule sets each."""
    result = runner.invoke(app, ["perft", "nope"])
    assert result.exit_code == 2
    line = result.output.strip()
    for rs in pf.rule_sets():
        assert f"{rs.game}: " in line, (rs.game, line)
    assert "…" not in line and "perft --list" in line
