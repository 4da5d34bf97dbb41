"""Liar's Dice, the third game and the worked example of adding one (docs/add-a-game.md): its
model, contracts with teeth, the ambiguity register, exploration pinned, the OpenSpiel and
PettingZoo registrations, and the comparison with OpenSpiel's own C++ ``liars_dice``."""

from __future__ import annotations

import doctest
import functools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.liars_dice import game as game_module
from ruleproof.model.liars_dice import rules
from ruleproof.model.liars_dice.rules import LIAR, SPOT, Bid, Rules, Table, act, roll
from ruleproof.properties.plugin import make_game, plugin

GAME = "liars-dice"
runner = CliRunner()


def _cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def _table(r: Rules, *cups: str) -> Table:
    t = Table.start(r)
    for cup in cups:
        for ch in cup:
            t = roll(r, t, int(ch))
    return t


def test_doctests() -> None:
    for module in (rules, game_module):
        assert doctest.testmod(module).failed == 0


def test_a_refused_action_names_its_clause_and_leaves_the_state() -> None:
    r = Rules(dice=1, rounds="one")
    t = _table(r, "3", "1")
    with pytest.raises(IllegalAction) as err:
        act(r, t, LIAR)
    assert err.value.clauses == ("ld-wp:challenge.call",)
    t2 = act(r, t, Bid(2, 4))
    with pytest.raises(IllegalAction) as err:
        act(r, t2, Bid(1, 3))
    assert err.value.clauses == ("ld-wp:bid.raise",)
    with pytest.raises(IllegalAction):
        act(r, t2, SPOT)
    for nonsense in (Bid(0, 6), Bid(3, 7), Bid(3, 0)):  # no bid at all, not a low one
        with pytest.raises(IllegalAction) as err:
            act(r, t2, nonsense)
        assert err.value.clauses == ("ld-wp:bid.claim",)
    assert t2.bids == ((0, Bid(2, 4)),)


def test_bad_parameters_are_one_line_errors() -> None:
    for bad in ({"players": 1}, {"dice": 0}, {"sides": 7}, {"options": "raise=sideways"},
                {"options": "colour=red"}, {"preset": "perudo"}, {"order": "random"}):
        with pytest.raises(MalformedInput):
            make_game(GAME, **bad)


# ----------------------------------------------------------------------------- contracts


def _broken(s: Table, a: Any, t: Table) -> list[str]:
    from ruleproof.properties.contracts.core import broken, contract_set

    return [v.clause for v in broken(contract_set("ld-wp").active(s), s, a, t)]


def test_contracts_hold_on_the_model_and_catch_planted_faults() -> None:
    """Teeth: each planted fault in a successor is a broken contract of the clause it breaks."""
    r = Rules(dice=2)
    s = act(r, _table(r, "33", "35"), Bid(3, 3))      # three threes, all plain: holds anyway
    good = act(r, s, LIAR)
    assert _broken(s, LIAR, good) == []
    loser = good.ended[-1].loser
    assert loser == 1                                  # the bid holds: the challenger loses
    swapped = replace(good, cups=(1, 2), ended=(replace(good.ended[-1], loser=0),))
    assert "ld-wp:challenge.count" in _broken(s, LIAR, swapped)
    wild = act(r, _table(r, "33", "15"), Bid(3, 3))   # 3, 3 and a one: the ones decide
    swapped = replace(act(r, wild, LIAR), cups=(1, 2))
    assert "ld-wp:challenge.count" not in _broken(wild, LIAR, swapped)  # left open
    assert "ld-wp:challenge.lose" in _broken(s, LIAR, replace(good, cups=(2, 2)))
    assert "ld-wp:round.next" in _broken(s, LIAR, replace(good, opener=0))
    bid = act(r, _table(r, "33", "15"), Bid(1, 2))
    assert "ld-wp:bid.claim" in _broken(_table(r, "33", "15"), Bid(1, 2),
                                         replace(bid, bids=((0, Bid(1, 3)),)))
    assert "ld-wp:bid.turns" in _broken(_table(r, "33", "15"), Bid(1, 2),
                                         replace(bid, bids=((1, Bid(1, 2)),)))


def test_every_contract_is_in_play_in_random_games() -> None:
    """No contract passes on zero work: each decides some transition of random games of the
    readings that play its clause."""
    import random

    from ruleproof.properties.contracts.core import contract_set

    decided: set[str] = set()
    cs = contract_set("ld-wp")
    for options in ({}, {"spot_on": "yes"}, {"rounds": "one"}):
        g = make_game(GAME, dice=2, options=options)
        for seed in range(30):
            rng = random.Random(seed)
            st = g.new_seeded_state(seed)
            while not st.is_terminal():
                if st.is_chance_node():
                    nxt = st.apply(rng.choice(st.chance_outcomes())[0])
                    action: Any = g.chance_table.from_id(nxt.history()[-1])
                else:
                    action = rng.choice(st.legal_typed_actions())
                    nxt = st.apply_typed(action)
                for c in cs.active(st.model):
                    verdicts = [c.requires(st.model, action, nxt.model) if c.requires else None,
                                c.forbids(st.model, action) if c.forbids else None,
                                c.permits(st.model, action) if c.permits else None]
                    if any(v is not None and v is not False for v in verdicts):
                        decided.add(c.clause)
                st = nxt
    covered = {c.clause for c in cs.contracts}
    assert covered <= decided, sorted(covered - decided)


# ----------------------------------------------------------------------------- register, explore


def test_every_register_witness_replays_and_the_readings_end_apart() -> None:
    from ruleproof.properties.liars_dice.ambiguities import AMBIGUITIES

    entries = AMBIGUITIES.entries()
    assert {e.option for e in entries} == {"raise", "wild", "spot_on", "rounds"}
    for e in entries:
        ok, detail = AMBIGUITIES.replay_witness(e)
        assert ok, (e.id, detail)


def test_explore_the_smallest_set_up_to_the_last_state_as_counted_by_hand() -> None:
    result = _cli("explore", "ld-1d2", "--pinned")
    assert result.exit_code == 0, result.output
    assert "95 distinct states" in result.output and "28 terminal" in result.output


def test_simulate_and_stats_speak_the_games_terms() -> None:
    sim = _cli("simulate", GAME, "-P", "dice=2", "--seed", "3")
    assert sim.exit_code == 0, sim.output
    assert "[P1]" in sim.output and "loses a die" in sim.output
    stats = _cli("stats", GAME, "--games", "20", "-P", "dice=2")
    assert stats.exit_code == 0, stats.output
    assert "liar calls" in stats.output


# ----------------------------------------------------------------------------- frameworks


def test_openspiel_registration_random_sim_test() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    import ruleproof.interop.openspiel as ros

    for params in ({"dice": 2}, {"players": 3, "dice": 1, "options": "spot_on:yes"}):
        g = pyspiel.load_game(ros.spiel_name(GAME), params)
        pyspiel.random_sim_test(g, num_sims=5, serialize=False, verbose=False)
        pyspiel.random_sim_test(g, num_sims=5, serialize=True, verbose=False)


def test_pettingzoo_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo", reason="needs the [pettingzoo] extra")
    from pettingzoo.test import api_test, seed_test

    from ruleproof.interop.pettingzoo import env

    api_test(env(GAME, dice=2, render_mode="ansi"), num_cycles=200)
    seed_test(functools.partial(env, GAME, dice=2), num_cycles=200)


# ----------------------------------------------------------------------------- OpenSpiel's C++ game


def test_the_adapter_reads_openspiels_ids_as_the_models_table() -> None:
    """Under each bidding rule OpenSpiel's ActionToString of every id names the model's action
    of that id (``order`` numbers the bids as OpenSpiel does)."""
    pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    from ruleproof.properties.liars_dice.openspiel import OPENSPIEL, SETTINGS

    for setting in SETTINGS:
        spiel = pyspiel.load_game(setting.game_string)
        model = make_game(GAME, **setting.params())
        state = spiel.new_initial_state()
        while state.is_chance_node():
            state.apply_action(0)
        for a in range(spiel.num_distinct_actions()):
            assert OPENSPIEL.action(state, a) == model.table.from_id(a), (setting.label, a)


def test_openspiel_follows_one_bidding_system_each_and_counts_the_top_face_wild() -> None:
    """The exhaustive comparison on three-sided dice: reset-face is raise=quantity, and
    reset-quantity raise=face; one round; no spot-on; and the highest face counts as every face,
    which neither reading of ld-wp:round.wild allows (shortest witness: a one and a three, one
    two bid, challenged)."""
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    from ruleproof.properties.liars_dice.openspiel import Setting, exhaustive

    for rule, follows in (("reset-face", "quantity"), ("reset-quantity", "face")):
        found = {(f.option, f.value): f for f in exhaustive(Setting(2, 3, rule))}
        assert [v for (o, v), f in found.items() if o == "raise" and f.differ == 0] == [follows]
        assert found[("spot_on", "no")].differ == 0 < found[("spot_on", "yes")].differ
        assert found[("rounds", "one")].differ == 0 < found[("rounds", "last")].differ
        assert found[("wild", "ones")].differ > 0 and found[("wild", "none")].differ > 0
        none = found[("wild", "none")]
        assert none.divergence is not None and none.divergence.kind == "returns"
        assert "roll 3" in none.names


def test_the_saved_openspiel_trace_replays_as_the_divergence(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    out = tmp_path / "d.jsonl"
    result = _cli("conform", "--openspiel", "liars_dice(numdice=1,dice_sides=6)", "--game", GAME,
                  "-P", "options=rounds=one,raise=quantity,wild=none,dice=1,sides=6,"
                  "order=quantity", "--budget", "20", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "returns differs" in result.output
    replayed = _cli("replay", str(out))
    assert replayed.exit_code == 1 and "winner" in replayed.output, replayed.output


def test_the_plugin_names_its_data() -> None:
    p = plugin(GAME)
    assert p.spec_folder.name == "liars_dice" and p.sources == ("ld-wp",)


def test_the_mutant_search_finds_the_bid_limit_and_the_contracts_kill_the_rest() -> None:
    """The third game carries the mutant search too (capability ``mutants``): the reading
    'a bid may name more dice than are left' changes play and breaks no contract of ld-wp (a
    question the text leaves open, registered as ld.bid-limit); the other readings are
    killed by the clause that settles them."""
    from ruleproof.properties.contracts.games import game_of as contract_game
    from ruleproof.properties.contracts.games import rule_set
    from ruleproof.properties.discovery.mutants import judge, mutants_of

    cap = mutants_of(plugin("liars-dice"))
    assert cap is not None
    rs = rule_set("ld-wp spot_on=yes/2")
    sites = {s.name: s for s in cap.sites(rs)}
    assert set(sites) == {"bid-limit", "challenge", "next-opener"}
    base = contract_game(rs)
    got = {(name, r.value): judge(rs, site, r.value, base, None, 8, 200, same=cap.same)
           for name, site in sites.items() for r in site.readings
           if r.value != site.engine(rs)}
    limit = got[("bid-limit", "started-with")]
    assert limit.status == "survived" and limit.differing > 0, limit
    assert limit.witness is not None
    killed = {k: o.clauses for k, o in got.items() if o.status == "killed"}
    assert killed.keys() == {("challenge", "must-raise"), ("next-opener", "winner"),
                             ("next-opener", "after-loser")}, got
    assert "ld-wp:round.next" in killed[("next-opener", "winner")]
    assert "ld-wp:challenge.call" in killed[("challenge", "must-raise")]
    assert "ld.bid-limit" in {e.id for e in __import__(
        "ruleproof.properties.contracts.register", fromlist=["entries"]).entries("liars-dice")}


@pytest.mark.parametrize("text", ["bid ٢-٢", "bid ２-２", "bid 02-2", "roll 06", "bid  2-2",
                                  "bid 2-2 "])
def test_the_notation_has_one_spelling_per_action(text: str) -> None:
    # str.isdigit takes other scripts' digits; a leading zero would be a second spelling
    from ruleproof.properties.liars_dice.conformance import parse_action
    with pytest.raises(ValueError, match="not an action"):
        parse_action(text)
    assert str(parse_action("bid 2-2")) == "bid 2-2"
