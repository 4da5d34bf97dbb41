"""Kuhn poker, the worked example of issue #23: a game that is a folder gets every subsystem
through its plugin record. Each subsystem is exercised by the game's name, through the command
line or the generic API: contracts and refinement, the hypothesis machine, statistics, endless
games and recall, scenarios, replay and conform (with the reference engine's mutants),
explore, render, simulate, docs, the ambiguity register and discovery, the symbolic layer,
OpenSpiel and PettingZoo, and a cross-check against OpenSpiel's own C++ ``kuhn_poker``.

Five of these found what the generic modules could not yet do for a game like this one
(a reduced file with nothing reduced, searches that sample deep in long games, the OpenSpiel
utility range and name clash, conform-framework's parameters); they pass now that those
modules take a game's own settings.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import make_game, plugin
from ruleproof.spec import game_folder

runner = CliRunner()
GAME = "kuhn-poker"
FOLDER = game_folder(GAME)
SCENARIOS = sorted((FOLDER / "scenarios").glob("*.toml"))
TRACES = FOLDER / "traces"
ENGINE = Path(__file__).resolve().parents[1] / "properties" / "kuhn_poker" / "reference_engine.py"
MUTANTS = ("fold-wins", "call-pays-one", "second-acts-first", "no-bet-after-pass")


def _cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def _engine(mutant: str | None = None) -> str:
    return shlex.join([sys.executable, str(ENGINE), *(["--mutant", mutant] if mutant else [])])


# ----------------------------------------------------------------------------- the record


def test_the_record_names_every_capability_that_applies() -> None:
    caps = set(plugin(GAME).capabilities)
    assert caps == {"contracts", "symbolic", "discovery", "ambiguities", "invariants", "machine",
                    "stats", "cycles", "scenarios", "render", "simulate", "docs", "explore",
                    "conformance", "mutants"}
    # left out, each with its reason in properties/kuhn_poker/plugin.py
    assert {"formats", "chance", "shrink"}.isdisjoint(caps)
    assert "formats" in (Path(plugin(GAME).make_game.__code__.co_filename).read_text())


def test_check_runs_every_generic_and_own_property_and_all_hold() -> None:
    result = _cli("check", GAME, "--profile", "ci", "-v")
    assert result.exit_code == 0, result.output
    for name in ("the game interface keeps its obligations", "symbolic layer (z3)",
                 "clause contracts of kuhn-wp", "hypothesis machine", "shipped scenarios",
                 "endless games", "perfect recall", "every kuhn-wp clause is cited"):
        assert name in result.output
    assert "skipped for kuhn-poker" not in result.output


def test_check_refuses_what_the_game_does_not_have() -> None:
    result = _cli("check", GAME, "--players", "3")
    assert result.exit_code == 2 and "one rule set (kuhn-wp)" in result.output
    result = _cli("simulate", "kuhn")
    assert result.exit_code == 2 and "known games" in result.output and GAME in result.output


# ----------------------------------------------------------------------------- contracts


def test_every_rule_clause_has_a_contract() -> None:
    from ruleproof.properties.contracts.core import contract_set, coverage

    cov = coverage(contract_set("kuhn-wp"))
    assert cov.ratio == 1.0 and not cov.unexplained and not cov.uncovered
    assert "kuhn-wp" in _cli("clauses", "--contracts").output


def _records_bet_as_pass() -> Any:
    """A planted model bug: the answer to a pass is recorded as a pass, whatever it was."""
    from ruleproof.model.kuhn_poker.game import KuhnPokerGame
    from ruleproof.model.kuhn_poker.rules import Hand, Move

    class Mutant(KuhnPokerGame):
        def model_step(self, m: Hand, action: Any) -> tuple[Hand, Any]:
            if m.moves == (Move.PASS,) and action is Move.BET:
                action = Move.PASS
            return super().model_step(m, action)

    return Mutant()


def test_refinement_holds_and_has_teeth() -> None:
    from ruleproof.properties.contracts.games import rule_set
    from ruleproof.properties.contracts.refinement import refinement_property

    rs = rule_set("kuhn-wp/2")
    ok, checked, detail, games, _steps = refinement_property(rs, 30)
    assert ok and checked > 30 and games == 30, detail
    assert "scenario transitions" in detail  # the shipped scenarios are replayed too
    bad = replace(rs, engine=_records_bet_as_pass())
    ok, _n, detail, _g, _s = refinement_property(bad, 30)
    assert not ok and re.search(r"contract kuhn-wp:rules\.(first|after-pass) ", detail), detail


def test_discovery_finds_nothing_open_and_would_see_a_missing_clause() -> None:
    from ruleproof.properties.contracts.core import contract_set
    from ruleproof.properties.contracts.discovery import discover

    assert discover("ci", ["kuhn-wp/2"]).findings == []
    weak = contract_set("kuhn-wp").without("kuhn-wp:rules.payoff")
    found = discover("ci", ["kuhn-wp/2"], sets_for=lambda rs: [weak]).findings
    assert any(f.kind == "effect" and "the pot pays" in f.key for f in found)


# ----------------------------------------------------------------------------- play


def test_machine_stats_endless_and_recall() -> None:
    from ruleproof.model.kuhn_poker.rules import Hand
    from ruleproof.properties.machine import run_machine
    from ruleproof.properties.play import model_mutant
    from ruleproof.properties.report import Tally

    tally = Tally()
    ok, detail = run_machine(GAME, {}, 20, 40, tally=tally)
    assert ok, detail
    assert tally.games > 20 and tally.finished > 20  # many hands per example

    def swap_cards(h: Hand, action: Any) -> Hand:
        from ruleproof.model.kuhn_poker.rules import act, deal

        new = deal(h, action.rank) if hasattr(action, "rank") else act(h, action)
        return Hand(new.cards[::-1], new.moves) if len(new.moves) == 1 else new

    ok, detail = run_machine(GAME, {}, 20, 40, apply=model_mutant(swap_cards))
    assert not ok and "cards-kept" in detail

    result = _cli("stats", GAME, "--games", "60")
    assert result.exit_code == 0, result.output
    assert "P1 (first)" in result.output and "kuhn-wp:rules.showdown" in result.output


def test_the_generic_shared_searches_serve_a_short_game() -> None:
    from ruleproof.properties.endless import endless_property
    from ruleproof.properties.recall import information_state, recall_property

    ok, checked, detail = endless_property("kuhn-wp/2", 8)
    assert ok and checked > 0, detail
    ok, compared, detail = recall_property("kuhn-wp/2", information_state, 4, every=1)
    assert ok and compared > 0, detail


# ----------------------------------------------------------------------------- scenarios


def test_shipped_scenarios_hold() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"fold", "showdown-call", "two-passes"} <= names
    result = _cli("scenario", *map(str, SCENARIOS), "-v")
    assert result.exit_code == 0, result.output
    assert "P2 folds: P1 takes the pot and wins 1" in result.output


@pytest.mark.parametrize(("name", "good", "bad"), [
    ("fold.toml", 'winner = "P1"', 'winner = "P2"'),
    ("showdown-call.toml", '"returns.P2" = 2', '"returns.P2" = 1'),
    ("two-passes.toml", 'shown = ["K", "Q"]', "shown = []"),
])
def test_a_planted_wrong_expectation_fails(tmp_path: Path, name: str, good: str,
                                           bad: str) -> None:
    text = (FOLDER / "scenarios" / name).read_text(encoding="utf-8")
    assert good in text
    wrong = tmp_path / name
    wrong.write_text(text.replace(good, bad), encoding="utf-8")
    result = _cli("scenario", str(wrong))
    assert result.exit_code == 1, result.output
    assert "expected" in result.output


def test_a_malformed_set_up_is_reported_at_its_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "kuhn-poker"\nactions = ["bet"]\n[setup]\ncards = ["K", "K"]\n',
                    encoding="utf-8")
    result = _cli("scenario", str(path))
    assert result.exit_code == 2 and f"{path}:4:" in result.output
    assert "K is dealt twice" in result.output


# ----------------------------------------------------------------------------- conformance


def test_replay_of_the_shipped_traces() -> None:
    assert _cli("replay", str(TRACES / "kuhn-poker-conforming.jsonl")).exit_code == 0
    for name, clause in (("kuhn-poker-mutant-fold-wins.jsonl", "kuhn-wp:rules.fold"),
                         ("kuhn-poker-illegal-action.jsonl", "kuhn-wp:rules.fold"),
                         ("kuhn-poker-observation-mismatch.jsonl", "kuhn-wp:rules.deal")):
        result = _cli("replay", str(TRACES / name))
        assert result.exit_code == 1, result.output
        assert "NONCONFORMING" in result.output and clause in result.output


def test_the_reference_engine_conforms() -> None:
    result = _cli("conform", "--engine", _engine(), "--game", GAME, "--budget", "3")
    assert result.exit_code == 0, result.output
    assert "no divergence" in result.output


@pytest.mark.parametrize("mutant", MUTANTS)
def test_each_planted_mutant_is_caught_and_blamed_on_a_kuhn_wp_clause(
        tmp_path: Path, mutant: str) -> None:
    out = tmp_path / "div.jsonl"
    result = _cli("conform", "--engine", _engine(mutant), "--game", GAME, "--budget", "10",
                  "--out", str(out))
    assert result.exit_code == 1, result.output
    assert re.search(r"\[kuhn-wp:rules\.[a-z-]+", result.output), result.output
    replayed = _cli("replay", str(out))
    assert replayed.exit_code == 1 and "kuhn-wp:rules." in replayed.output


def test_the_reference_engine_lists_its_mutants() -> None:
    import subprocess

    listed = subprocess.run([sys.executable, str(ENGINE), "--list-mutants"], check=True,
                            capture_output=True, text=True).stdout
    assert {line.split(":")[0] for line in listed.splitlines()} == set(MUTANTS)


# ----------------------------------------------------------------------------- explore


def _expected() -> dict[str, Any]:
    import tomllib

    pinned = tomllib.loads((FOLDER / "reduced" / "expected.toml").read_text(encoding="utf-8"))
    (entry,) = pinned["result"]
    return dict(entry)


def test_explore_visits_the_whole_game_as_pinned(tmp_path: Path) -> None:
    """The whole game through the explore capability and the command line (a reduced file
    that says ``whole = true``: nothing is reduced)."""
    result = _cli("explore", "kuhn-3", "--json")
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    want = _expected()
    assert {k: got[k] for k in ("distinct_states", "depth", "terminal", "dead_ends", "traps",
                                "violations")} == {k: want[k] for k in (
                                    "distinct_states", "depth", "terminal", "dead_ends",
                                    "traps", "violations")}
    assert got["complete"]


def test_explore_kuhn_3_pinned() -> None:
    result = _cli("explore", "kuhn-3", "--pinned")
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------- pictures, logs


def test_render_writes_a_step_through_page_and_hides_the_other_card(tmp_path: Path) -> None:
    page = tmp_path / "fold.html"
    assert _cli("render", str(FOLDER / "scenarios" / "fold.toml"), "--html",
                str(page)).exit_code == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html")
    svg = tmp_path / "p.svg"
    views = {}
    for view in (0, 1, 2):
        result = _cli("render", str(FOLDER / "scenarios" / "showdown-call.toml"), "--svg",
                      str(svg), "--step", "2", "--view", str(view))
        assert result.exit_code == 0, result.output
        views[view] = svg.read_text(encoding="utf-8")
    assert 'data-card="Q"' in views[0] and 'data-card="K"' in views[0]
    assert 'data-card="Q"' in views[1] and 'data-card="K"' not in views[1]  # P1's view
    assert 'data-card="K"' in views[2] and 'data-card="Q"' not in views[2]  # P2's view
    board = _cli("render", "--board", GAME, "--svg", str(svg))
    assert board.exit_code == 0 and "deck-K" in svg.read_text(encoding="utf-8")
    assert _cli("render", "--random", GAME, "--seed", "2", "--html", str(page)).exit_code == 0
    traced = _cli("render", str(TRACES / "kuhn-poker-conforming.jsonl"), "--html", str(page))
    assert traced.exit_code == 0, traced.output


def test_simulate_shows_each_players_view_unless_everything_is_asked() -> None:
    hidden = _cli("simulate", GAME, "--seed", "1")
    full = _cli("simulate", GAME, "--seed", "1", "--full-view")
    assert hidden.exit_code == full.exit_code == 0
    assert "[P1] P2 is dealt a card" in hidden.output
    assert "P2 is dealt" in full.output and "[P1]" not in full.output
    assert hidden.output.strip().splitlines()[-1] == full.output.strip().splitlines()[-1]
    assert _cli("simulate", GAME, "--seed", "1").output == hidden.output  # same seed, same hand


def test_docs_assumed_ambiguities_and_schema() -> None:
    assumed = _cli("assumed")
    assert assumed.exit_code == 0 and "kuhn-poker" in assumed.output
    amb = _cli("ambiguities", "--json")
    assert amb.exit_code == 0, amb.output
    from ruleproof.properties.contracts.register import registers

    assert GAME in [p.name for p, _cap in registers()]
    schema = _cli("schema", "kuhn-poker-scenario")  # the game's own, in its data folder
    assert schema.exit_code == 0 and '"kuhn-poker"' in schema.output
    assert "KuhnSetup" in schema.output
    assert (FOLDER / "schemas" / "kuhn-poker-scenario.json").read_text(encoding="utf-8") \
        == schema.output


# ----------------------------------------------------------------------------- symbolic


def test_prove_and_its_teeth() -> None:
    import z3

    from ruleproof.properties.kuhn_poker import symbolic
    from ruleproof.properties.symbolic.core import Kind, prove_law

    result = _cli("prove", GAME)
    assert result.exit_code == 0, result.output
    assert "13/13 passed" in result.output
    sym = symbolic.system()
    good = sym.kind("bet")

    def two_chips(e: Any, q: Any) -> Any:
        guards, nxt = good.effect(e, q)
        nxt["p1"] = nxt["p1"] + z3.If(e["n"] % 2 == 1, 1, 0)
        return guards, nxt

    broken = replace(sym, kinds=tuple(Kind("bet", good.clauses, good.params, two_chips)
                                      if k.name == "bet" else k for k in sym.kinds))
    outcome = prove_law(broken, broken.law("pot-is-antes-and-bets"), 1)
    assert outcome.result == "counterexample" and "'bet'" in outcome.detail


def test_ending_witnesses_are_current() -> None:
    from ruleproof.properties.kuhn_poker import symbolic

    for w in symbolic.ENDINGS:
        assert symbolic.witness_path(w).read_text(encoding="utf-8") == symbolic.witness_text(w)


# ----------------------------------------------------------------------------- OpenSpiel, PettingZoo


def test_pettingzoo_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo", reason="needs the [pettingzoo] extra")
    import functools

    from pettingzoo.test import api_test, seed_test

    from ruleproof.interop.pettingzoo import env

    api_test(env(GAME, render_mode="ansi"), num_cycles=200)
    seed_test(functools.partial(env, GAME), num_cycles=200)


def test_openspiel_random_sim_test() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    import ruleproof.interop.openspiel

    game = pyspiel.load_game(ruleproof.interop.openspiel.spiel_name(GAME))
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)


@pytest.mark.slow
def test_python_kuhn_poker_is_ours_whatever_is_imported() -> None:
    """In processes of their own, in both import orders: OpenSpiel ships a Python
    ``python_kuhn_poker``, so ours is registered as ``ruleproof_kuhn_poker`` and neither
    replaces the other."""
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    import subprocess

    for first, second in (("ruleproof.interop.openspiel", "open_spiel.python.games"),
                          ("open_spiel.python.games", "ruleproof.interop.openspiel")):
        code = (f"import pyspiel, {first}, {second}; "
                "print(pyspiel.load_game('ruleproof_kuhn_poker').get_type().long_name); "
                "print(pyspiel.load_game('python_kuhn_poker').get_type().long_name)")
        shown = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                               text=True, cwd=Path(__file__).resolve().parents[1]).stdout
        ours, theirs = shown.splitlines()
        assert "ruleproof" in ours and "ruleproof" not in theirs, shown


def _histories() -> list[list[int]]:
    """Every history of the game, chance included, to the end (30 of them)."""
    out = []
    for first, second in itertools.permutations(range(3), 2):
        for moves in ([0, 0], [0, 1, 0], [0, 1, 1], [1, 0], [1, 1]):
            out.append([first, second, *moves])
    return out


def test_openspiel_cpp_kuhn_poker_plays_every_hand_like_the_model() -> None:
    """A cross-check against an implementation nobody here wrote: OpenSpiel's C++ kuhn_poker
    driven through our action table (0 pass, 1 bet; chance 0..2 the card dealt), every one of
    the 30 histories, then random games through the generic driver."""
    pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    from ruleproof.interop.conform import SpielSide, conform_target, play

    ours = make_game(GAME)
    side = SpielSide(pyspiel.load_game("kuhn_poker"))
    for history in _histories():
        found, done, _cut = play(ours, side, "openspiel", 0, history, None, 10)
        assert found is None and done == history, (history, found)
    result = conform_target(ours, "openspiel", "kuhn_poker", games=300, budget=20,
                            make_side=lambda: side)
    assert result.divergence is None and result.games == 300


def test_conform_openspiel_from_the_command_line(tmp_path: Path) -> None:
    target = tmp_path / "cpp_kuhn.py"
    target.write_text('GAME = "kuhn_poker"\n', encoding="utf-8")
    result = _cli("conform", "--openspiel", f"{target}:GAME", "--game", GAME, "--budget", "5")
    assert result.exit_code == 0, result.output


def test_unknown_names_are_refused() -> None:
    with pytest.raises(MalformedInput, match="known games"):
        plugin("kuhn")
    with pytest.raises(MalformedInput, match="unknown parameter"):
        make_game(GAME, options="x=y")
