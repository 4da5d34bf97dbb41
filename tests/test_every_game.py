"""Every subsystem over every registered game, by its plugin record alone (issue #23; pgx's
``api_test`` habit: one test, parametrised over the registry).

For each game the registry knows: the game interface, the hypothesis machine, its scenarios,
replay of its traces, ``conform`` against an engine built from the game's conformance
capability, exploration of its reduced set-ups to the pinned counts, statistics, a
step-through page, the clause contracts, endless games and recall, ``simulate``, and the
OpenSpiel and PettingZoo registrations. A subsystem whose capability the game lacks must
refuse it with the reason (never run another game's path); every subsystem that runs must do
work (games, steps, states, transitions), never pass on zero.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import GamePlugin, Unsupported, make_game, plugins, require
from ruleproof.properties.report import Tally

GAMES = sorted(plugins())


def _defaults(p: GamePlugin) -> dict[str, Any]:
    return {"players": p.game_type.default_players or p.game_type.players[0]}


def _needs(p: GamePlugin, capability: str) -> Any:
    """The capability, or skip (with the reason the subsystem itself gives)."""
    try:
        return require(p, capability, f"the every-game test of {capability}")
    except Unsupported as why:
        pytest.skip(why.what)


@pytest.mark.parametrize("name", GAMES)
def test_the_game_interface_keeps_its_obligations(name: str) -> None:
    from ruleproof.properties.interface import api_test

    game = make_game(name, **_defaults(plugins()[name]))
    ok, checked, detail, played, decisions = api_test(game, 3)
    assert ok, detail
    assert checked > 0 and played > 0 and decisions > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_hypothesis_machine_plays_with_every_invariant(name: str) -> None:
    from ruleproof.properties.machine import run_machine

    p = plugins()[name]
    _needs(p, "invariants")
    tally = Tally()
    ok, detail = run_machine(name, _defaults(p), 4, 80, tally=tally)
    assert ok, detail
    assert tally.games > 0 and tally.steps > 0


@pytest.mark.parametrize("name", GAMES)
def test_shipped_scenarios_hold(name: str) -> None:
    from ruleproof.properties.scenarios import run_scenario, shipped

    p = plugins()[name]
    _needs(p, "scenarios")
    files = shipped(name)
    assert files, f"{name} ships no scenario in {p.spec_folder / 'scenarios'}"
    for path in files[:6]:
        result = run_scenario(path)
        assert result.passed, f"{path.name}: {result.detail}"


@pytest.mark.parametrize("name", GAMES)
def test_shipped_traces_replay(name: str) -> None:
    from ruleproof.properties.conformance.replay import replay_file

    p = plugins()[name]
    _needs(p, "conformance")
    conforming = sorted((p.spec_folder / "traces").glob("*conforming*.jsonl"))
    assert conforming, f"{name} ships no conforming trace"
    for path in conforming:
        result = replay_file(path)
        assert result.divergence is None and not result.unchecked and result.steps > 0, \
            (path, result)


@pytest.mark.parametrize("name", GAMES)
def test_conform_drives_an_engine_through_the_protocol(name: str) -> None:
    """An engine answering from the game's conformance capability (the model itself, over the
    JSON protocol: ModelAnswers, declaring every preset and option it has in its handshake)
    conforms; the same engine with its first legal action withheld is caught."""
    from ruleproof.properties.conformance.differential import conform
    from ruleproof.properties.conformance.engine import MessageEngine
    from ruleproof.properties.conformance.games import model_of
    from ruleproof.properties.conformance.protocol import ModelAnswers

    p = plugins()[name]
    _needs(p, "conformance")
    model = model_of(name)

    class Withholding(ModelAnswers):
        """The model as an engine, its first legal action left out of every list."""

        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            answer = super().handle(request)
            if request["cmd"] == "legal_actions" and answer.get("actions"):
                answer = {**answer, "actions": answer["actions"][1:]}
            return answer

    def engine(withhold: bool) -> Any:
        return lambda: MessageEngine((Withholding if withhold else ModelAnswers)(model).handle)

    good = conform(model, engine(False), budget=4.0, max_steps=120, seed=0, max_games=3)
    assert good.found is None and not good.failure and good.examples > 0 and good.steps > 0, good
    bad = conform(model, engine(True), budget=8.0, max_steps=120, seed=0, max_games=3,
                  shrink_budget=1.0)
    assert bad.found is not None, bad


@pytest.mark.parametrize("name", GAMES)
def test_reduced_set_ups_explore_to_their_pinned_counts(name: str) -> None:
    from ruleproof.properties.explore.games import pinned_results, shipped
    from ruleproof.properties.explore.search import explore

    p = plugins()[name]
    _needs(p, "explore")
    pins = [r for r in pinned_results() if r.profile == "ci" and r.name in shipped()
            and str(p.spec_folder) in str(_reduced_path(r.name))]
    assert pins, f"{name} pins no reduced set-up of the ci profile"
    for pin in pins[:2]:
        result = explore(pin.name, symmetry=pin.symmetry)
        assert result.complete and result.distinct_states == pin.distinct_states, pin


def _reduced_path(name: str) -> Path:
    from ruleproof.properties.explore.games import configuration

    return Path(configuration(name).path)


@pytest.mark.parametrize("name", GAMES)
def test_statistics_over_random_games(name: str) -> None:
    from ruleproof.properties.stats import run, runner

    p = plugins()[name]
    stats = run(runner(name, _defaults(p), 400), 6, seed=1, max_steps=400)
    data = stats.to_json()
    assert data["games"] == 6
    assert len(data["seats"]) == _defaults(p)["players"]


@pytest.mark.parametrize("name", GAMES)
def test_a_step_through_page(name: str, tmp_path: Path) -> None:
    from ruleproof.render.page import html_page
    from ruleproof.render.walk import random_walk

    p = plugins()[name]
    _needs(p, "render")
    walk = random_walk(name, _defaults(p), 1)
    assert len(walk.frames) > 1
    page = tmp_path / "walk.html"
    page.write_text(html_page([walk], f"{name}: a random game"), encoding="utf-8")
    assert "walk-data" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_clause_contracts_hold_on_random_games(name: str) -> None:
    from ruleproof.properties.contracts.refinement import refinement_property

    p = plugins()[name]
    _needs(p, "contracts")
    rs = p.contract_rule_sets("ci")[0]
    ok, checked, detail, games, steps = refinement_property(rs, 2, 150)
    assert ok, detail
    assert checked > 0 and games > 0 and steps > 0


@pytest.mark.parametrize("name", GAMES)
def test_endless_games_and_perfect_recall(name: str) -> None:
    """The shared group's searches on the rule set the game's contracts name: the endless-games
    search samples states and reaches an ending from each; perfect recall compares histories."""
    from ruleproof.properties.contracts.games import contracts_of
    from ruleproof.properties.endless import endless_property
    from ruleproof.properties.recall import recall_property

    p = plugins()[name]
    _needs(p, "contracts")
    cap = contracts_of(p)
    assert cap is not None
    if not cap.searched_rule_set:
        pytest.skip(f"{name}'s contracts name no rule set for the endless and recall searches")
    ok, checked, detail = endless_property(cap.searched_rule_set, 2)
    assert ok and checked > 0, detail
    if cap.recall is None:
        pytest.skip(f"{name}'s contracts name nothing for the perfect-recall search")
    recall = cap.recall
    ok, compared, detail = recall_property(cap.searched_rule_set, recall.info(), recall.least,
                                           every=recall.every, depth=recall.depth)
    assert ok and compared > 0, detail


@pytest.mark.parametrize("name", GAMES)
def test_simulate_plays_a_whole_game(name: str) -> None:
    from ruleproof.properties.simulate import play

    p = plugins()[name]
    sim = _needs(p, "simulate")
    played = play(make_game(name, **_defaults(p)), sim, 3, 400)
    assert played.steps


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra")
    from ruleproof.interop import openspiel

    game = pyspiel.load_game(openspiel.spiel_name(name))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api(name: str) -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra")
    from pettingzoo.test import api_test

    from ruleproof.interop.pettingzoo import env

    api_test(env(name, max_cycles=200), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_unknown_parameters_are_refused_naming_the_games_own(name: str) -> None:
    with pytest.raises(MalformedInput, match=f"{name}: unknown parameter"):
        make_game(name, colour=1)


def test_the_registry_lists_every_game_folder() -> None:
    from ruleproof.spec import game_names

    assert set(game_names()) <= set(plugins())
    assert json.dumps(GAMES)  # a plain list of names


def test_the_citation_check_fails_on_a_source_the_model_does_not_cite() -> None:
    """The shared check (properties/citations.py) behind every game's 'every clause is cited'
    row: Kuhn poker's model cites no ld-wp clause, so asked about ld-wp it fails naming them."""
    from ruleproof.properties.citations import check_source_cited
    from ruleproof.properties.plugin import plugin

    kuhn = plugin("kuhn-poker")
    assert check_source_cited(kuhn, "kuhn-wp")[0]
    passed, clauses, detail = check_source_cited(kuhn, "ld-wp")
    assert not passed and clauses > 0 and "ld-wp:" in detail and "model/kuhn_poker" in detail
