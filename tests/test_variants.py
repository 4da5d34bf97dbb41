"""Rule sets (du-en, du-cs, 2p), the 2-player game and the ambiguity register (issue: variants)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.cli.docgen import ambiguities_markdown
from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under import RAT, apply, legal_actions, make_config, new_game
from ruleproof.model.dawn_under.config import parse_options, preset_options, presets
from ruleproof.model.dawn_under.state import OpenGrave
from ruleproof.properties.dawn_under.ambiguities import (
    differential,
    find_witness,
    load_register,
    register,
    replay_witness,
)
from ruleproof.properties.dawn_under.invariants import Totals, violations
from ruleproof.properties.dawn_under.play import game_params
from ruleproof.properties.machine import run_machine
from ruleproof.spec import spec_path


@pytest.mark.parametrize(("preset", "players"), [
    ("du-cs", 3), ("du-cs", 4), ("du-cs", 5), ("du-cs", 6), ("2p", 2)])
def test_every_invariant_holds_under_each_preset(preset: str, players: int) -> None:
    ok, detail = run_machine("dawn-under", game_params(players, preset_options(preset), preset),
                             6, 300)
    assert ok, detail


def test_two_player_set_up() -> None:
    config = make_config(2, preset="2p")
    state = new_game(config, 4)
    assert [len(r) for r in state.rows] == [20, 20]
    assert sum(lid is None for lid in state.lids) == 20
    assert state.lids.count(RAT) == 4 and len(state.reserve) == 4
    assert {v.colour for r in state.rows for v in r} == set(config.vampire_colours)
    assert len(config.vampire_colours) == 4 and config.lid_colours == config.vampire_colours
    assert (config.gift_other_garlic, config.gift_own_garlic, config.gift_stake) == (2, 4, 4)
    assert not violations(state, Totals.of_manifest(config))


def test_lidless_graves_cannot_be_opened_by_default() -> None:
    state = new_game(make_config(2, preset="2p"), 4)
    lidless = next(g for g, lid in enumerate(state.lids) if lid is None)
    assert OpenGrave(lidless) not in legal_actions(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, OpenGrave(lidless))
    assert "du-en:2p.lids" in info.value.clauses
    wild = make_config(2, parse_options({"lidless_grave": "wild"}, base=preset_options("2p")),
                       preset="2p")
    assert OpenGrave(lidless) in legal_actions(new_game(wild, 4))


def test_presets_cover_their_player_counts() -> None:
    assert presets()["2p"].players == (2,)
    with pytest.raises(MalformedInput, match="the preset 2p"):
        make_config(2)
    with pytest.raises(MalformedInput, match="unknown preset"):
        make_config(4, preset="du-xx")


def test_register_has_at_least_fifteen_witnessed_entries() -> None:
    entries = register()
    witnessed = [e for e in entries if e.witness]
    assert len(witnessed) >= 15
    assert all(e.no_difference for e in entries if not e.witness)
    assert {"du.after-match", "du.gift-trigger", "du.second-rat", "du.received-end",
            "du2p.lidless-grave"} <= {e.id for e in entries}


@pytest.mark.parametrize("entry", [e for e in register() if e.witness], ids=lambda e: e.id)
def test_witness_replays_and_tells_readings_apart(entry: object) -> None:
    ok, detail = replay_witness(entry)  # type: ignore[arg-type]
    assert ok, detail


def test_witness_search_finds_a_short_witness() -> None:
    entry = next(e for e in register() if e.id == "du.after-match")
    ok, detail = find_witness(entry, 50)
    assert ok and "leads to different states" in detail


def test_differential_search_explains_every_divergence_with_the_register() -> None:
    seen, used, unexplained = differential("du-en", "du-cs", 4, 3, 300, register())
    assert seen > 0 and unexplained is None
    assert "du.after-match" in used


def test_removing_a_register_entry_makes_the_search_fail() -> None:
    reduced = tuple(e for e in register() if e.id != "du.after-match")
    _seen, _used, unexplained = differential("du-en", "du-cs", 4, 3, 300, reduced)
    assert unexplained is not None
    assert unexplained.actions  # a concrete, shrunk witness


def test_register_rejects_bad_entries(tmp_path: Path) -> None:
    text = spec_path("dawn_under", "ambiguities.toml").read_text(encoding="utf-8")
    bad = tmp_path / "reg.toml"
    bad.write_text(text.replace('value = "turn-ends"', 'value = "sometimes"', 1))
    with pytest.raises(MalformedInput, match=r"du\.after-match: reading .sometimes."):
        load_register(bad)
    bad.write_text(text.replace('"du-cs:prubeh.match-ends"]', '"du-cs:nope"]', 1))
    with pytest.raises(MalformedInput, match="unknown clause du-cs:nope"):
        load_register(bad)


def test_ambiguity_catalogue_is_generated_for_every_register() -> None:
    """The catalogue page is made at the site build from every game's register (not
    committed); every entry of the Dawn Under register is in it."""
    from ruleproof.properties.dawn_under.ambiguities import register

    text = ambiguities_markdown()
    assert all(f"## {e.id}" in text for e in register())


def test_ambiguities_command_lists_entries() -> None:
    result = CliRunner().invoke(app, ["ambiguities", "--json"])
    assert result.exit_code == 0, result.output
    assert "du.after-match" in result.output and '"replay": "pass"' in result.output


@pytest.mark.slow
def test_check_with_a_preset_passes() -> None:
    result = CliRunner().invoke(app, ["check", "dawn-under", "--preset", "du-cs", "--players",
                                      "5", "--profile", "ci"])
    assert result.exit_code == 0, result.output
    assert "CAN run out (finding)" not in result.output  # details only on failure
