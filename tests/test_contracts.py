"""Clauses as contracts: coverage, refinement, discovery, endless games, perfect recall, with
planted bugs that must be caught (issue 12)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under import engine as du_engine
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dawn_under.state import OpenGrave, Phase, PlaceGarlic, State
from ruleproof.properties.contracts.core import contract_set, coverage
from ruleproof.properties.contracts.discovery import (
    BUDGETS,
    Budget,
    discover,
    legality_gaps,
    load_discovered,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set, sources
from ruleproof.properties.contracts.refinement import check_refinement
from ruleproof.properties.report import Tally

SMALL = Budget(games=2, max_steps=150, stride=4, seconds=60.0)


class _Mutant(DawnUnderGame):
    """Dawn Under with a planted bug: ``apply`` replaces the engine's transition, ``legal``
    its legal actions (on dealt states)."""

    def __init__(self, rs: RuleSet, apply: Callable[[Any, Any], Any] | None = None,
                 legal: Callable[[Any], tuple[Any, ...]] | None = None) -> None:
        super().__init__(**rs.game_params())
        self._apply = apply
        self._legal = legal

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        if self._apply is not None and isinstance(m, State):
            return self._apply(m, action), ()
        return super().model_step(m, action)

    def model_legal(self, m: Any) -> tuple[Any, ...]:
        if self._legal is not None and isinstance(m, State):
            return self._legal(m)
        return super().model_legal(m)


def test_the_contract_sources_are_the_games_and_an_unknown_one_is_refused() -> None:
    from ruleproof.properties.plugin import plugins

    # every source of a game with contracts: Dawn Under's three, Dracula's, the worked example's
    assert {"du-en", "du-cs", "gruft-en", "dracula-en", "kuhn-wp"} <= set(sources())
    assert set(sources()) <= {d for p in plugins().values() for d in p.sources}
    with pytest.raises(KeyError):
        contract_set("no-such-source")
    with pytest.raises(MalformedInput, match="known games"):
        game_of(RuleSet("chess", "chess/2", players=(2,)))


@pytest.mark.parametrize("source", sources())
def test_contracts_cover_ninety_percent_of_rule_clauses_with_reasons(source: str) -> None:
    cov = coverage(contract_set(source))
    assert cov.ratio >= 0.9, (source, cov.ratio)
    assert not cov.unexplained


@pytest.mark.parametrize(
    "name", ["du-en/4", "du-cs/4", "2p/2", "gruft/4", "du-cs+gruft/4", "dracula"])
def test_engine_refines_the_contracts_in_random_play(name: str) -> None:
    tally = Tally()
    ok, n, detail = check_refinement(rule_set(name), 4, 300, tally=tally)
    assert ok, detail
    assert n > 100
    # the games are reported as games (check's table and JSON showed 0 games, 0 steps)
    assert tally.games == 4 and tally.steps == n and 0 <= tally.finished <= 4


def test_refinement_property_reports_its_games_and_steps() -> None:
    from ruleproof.properties.contracts.refinement import refinement_property

    ok, examples, detail, games, steps = refinement_property(rule_set("dracula"), 3, 300)
    assert ok and games == 3 and steps == examples > 0, detail


def test_planted_engine_bug_is_caught_with_its_clause_and_a_shrunk_game() -> None:
    # a stake is never taken: du-en:ch2.stake must catch it
    def broken_apply(state: object, action: object) -> object:
        new = du_engine.apply(state, action)  # type: ignore[arg-type]
        if isinstance(action, OpenGrave) and new.stakes_path < state.stakes_path:  # type: ignore[attr-defined]
            held = state.stakes_held  # type: ignore[attr-defined]
            return replace(new, stakes_held=held, stakes_path=state.stakes_path)  # type: ignore[attr-defined]
        return new

    rs = rule_set("du-en/4")
    mutant = replace(rs, engine=_Mutant(rs, apply=broken_apply))
    ok, _n, detail = check_refinement(mutant, 10, 600)
    assert not ok
    assert "du-en:ch2.stake" in detail or "du-en:qr.stake" in detail


def test_du_cs_plague_ends_once_every_neighbour_is_opened() -> None:
    # found by refinement: under plague_occupied=pass a stake on the last neighbour passed the
    # plague on instead of ending it (du-en:ch4.end-all-opened, du-cs:prubeh.rat-end)
    rs = rule_set("du-cs/4")
    game = game_of(rs)
    s = game.new_seeded_state(1)
    for text in ["open 0", "garlic 0", "open 16", "place left 16", "open 31", "place left 31",
                 "open 17", "open 22", "garlic 22", "open 23", "garlic 23", "open 16"]:
        s = s.apply(game.string_to_action(s.current_player(), text))
    assert s.model.plague is None


def _keys(rs: RuleSet, **kw: object) -> set[str]:
    return {f.key for f in legality_gaps(rs, SMALL, **kw)}  # type: ignore[arg-type]


def test_deleting_a_contract_changes_what_discovery_reports() -> None:
    rs = rule_set("du-en/4")
    full = _keys(rs)
    weakened = [contract_set("du-en").without("du-en:ch1.garlic")]
    fewer = _keys(rs, sets=weakened)
    new = fewer - full
    assert any("PlaceGarlic" in k for k in new), new


def test_a_silent_decision_planted_in_the_engine_is_reported() -> None:
    # the copy silently refuses garlic when the player holds their last bundle
    def legal(state: object) -> tuple[object, ...]:
        out = du_engine.legal_actions(state)  # type: ignore[arg-type]
        if state.phase is Phase.PLACE and state.garlic_hand[state.turn_player] == 1:  # type: ignore[attr-defined]
            out = tuple(a for a in out if not isinstance(a, PlaceGarlic))
        return out

    rs = rule_set("du-en/3")
    before = _keys(rs)
    planted = _keys(rs, game=_Mutant(rs, legal=legal))
    assert any("PlaceGarlic" in k and "refused-unforbidden" in k for k in planted - before), \
        planted - before


def test_discovery_profile_ci_finds_nothing_the_registers_do_not_hold() -> None:
    report = discover("ci", ("du-en/3",), kinds=("legality", "effect", "symbolic"))
    assert report.findings, "discovery found nothing at all"
    assert not report.new, [f.key for f in report.new]
    assert BUDGETS["ci"].seconds < 180


def test_discovered_register_entries_replay() -> None:
    from ruleproof.properties.dawn_under.scenarios import run_scenario
    from ruleproof.spec import spec_path

    entries = load_discovered()
    assert any(e.id == "du.endless-game" for e in entries)
    assert any(e.id == "gruft.bat-counts-for-count" for e in entries)
    for e in entries:
        for w in e.witnesses:
            result = run_scenario(spec_path(*w.split("/")))
            assert result.passed, (w, result.detail)


def test_symbolic_query_settles_du_en_and_leaves_du_cs_open() -> None:
    from ruleproof.properties.dawn_under.contracts.symbolic import two_successors

    assert two_successors("du-en") == ("unsat", None)
    verdict, witness = two_successors("du-cs")
    assert verdict == "sat" and witness is not None and witness["p"] == 0


def test_the_endless_round_is_found_by_search_and_replays() -> None:
    from ruleproof.properties.endless import find_cycle, replay_cycle

    rs = rule_set("du-en/3")
    cycle = find_cycle(rs)
    assert cycle is not None
    assert replay_cycle(rs, cycle)
    assert any(a.startswith("leave") for a in cycle.loop)
    allpass = find_cycle(rule_set("du-cs/4"))
    assert allpass is not None and set(allpass.loop) == {"stop"}


def test_perfect_recall_search_breaks_the_plain_observation_not_the_information_state(
) -> None:
    from ruleproof.properties.recall import information_state, observation, recall_violation

    found, _ = recall_violation("du-en/4", observation, 2)
    assert found is not None
    kept, compared = recall_violation("du-en/4", information_state, 1, every=40)
    assert kept is None and compared > 0


@pytest.mark.parametrize("name", ["du-2p-1v", "dr-1x2"])
def test_every_transition_of_a_small_reduced_game_satisfies_the_contracts(name: str) -> None:
    # Found by `ruleproof explore --contracts`: du-en:ch3.garlic-back and du-en:play.clockwise
    # did not know the 2-player barred reopening (a stake, the grave unused, register entry
    # du2p.reopen), and dracula-en:empty.leave-empty did not know the set-up deal.
    from ruleproof.properties.explore.search import explore

    result = explore(name, contracts=True)
    assert result.complete and result.distinct_states > 1000 and result.transitions > 1000
    assert result.violations == 0, [f.message for f in result.findings if f.kind != "cycle"]


def test_a_barred_reopening_that_uses_the_grave_breaks_the_2p_reopen_contract() -> None:
    # plant: the barred grave's garlic is taken out (as if found) although the opening only
    # costs a stake (du-en:2p.reopen under reopen_rule=stake-and-end)
    from ruleproof.model.dawn_under.state import GarlicIn
    from ruleproof.properties.contracts.core import broken
    from ruleproof.properties.explore.games import explore_game

    game = explore_game("du-2p-1v")
    contracts = contract_set("du-en")
    seen = 0
    todo = deque(root.state for root in game.roots())  # breadth first: the shortest come first
    visited = set(todo)
    while todo and seen < 3 and len(visited) < 20_000:
        s = todo.popleft()
        for text, t in game.successors(s):
            a = game.typed(text)
            if (isinstance(a, OpenGrave) and s.plague is None and a.grave in s.barred
                    and isinstance(s.contents[a.grave], GarlicIn) and s.stakes_path > 0):
                assert not broken(contracts.active(s), s, a, t)
                wrong = replace(t, contents=tuple(
                    None if i == a.grave else c for i, c in enumerate(t.contents)))
                assert "du-en:2p.reopen" in {v.clause for v in broken(
                    contracts.active(s), s, a, wrong)}
                seen += 1
            elif t not in visited and not game.is_terminal(t):
                visited.add(t)
                todo.append(t)
    assert seen >= 1, "no barred reopening of a grave with garlic was reached"
