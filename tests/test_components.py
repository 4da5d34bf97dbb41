"""The component action space (issue #24): moves the model's action types cannot express,
judged by the clause contracts, with teeth (a widened eligibility planted in an engine is
reported, a deleted contract turns a forbidden move into a finding)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ruleproof.model.dracula import engine as dr_engine
from ruleproof.model.dracula.game import DraculaGame
from ruleproof.properties.contracts.core import ContractSet, contract_set
from ruleproof.properties.contracts.discovery import (
    SEARCH_KINDS,
    Budget,
    Finding,
    Search,
    SearchResult,
    SearchRun,
    load_discovered,
)
from ruleproof.properties.contracts.games import RuleSet, rule_set
from ruleproof.properties.discovery.components import search

SMALL = Budget(games=3, max_steps=250, stride=2, seconds=60.0)


def _run(name: str, sets: list[ContractSet] | None = None, game: Any = None,
         budget: Budget = SMALL) -> SearchResult:
    unit = Search("components", name)
    run = SearchRun((unit,), "ci", time.time() + 300,
                    (lambda rs: sets) if sets is not None else None,
                    (lambda rs: game) if game is not None else None)
    return search(unit, budget, time.perf_counter() + 300, run)


def _keys(result: SearchResult) -> set[str]:
    return {f.key for f in result.findings}


def test_the_search_kind_is_registered_with_rule_set_scope() -> None:
    kind = SEARCH_KINDS["components"]
    assert kind.scope == "rule_set" and kind.reference.endswith("components:search")


def test_du_en_leaves_two_component_moves_open_and_forbids_the_rest() -> None:
    result = _run("du-en/4")
    keys = _keys(result)
    assert keys == {
        "component refused-unforbidden: a vampire from inside the row handed over for the "
        "finder's own garlic",
        "component refused-unforbidden: a received vampire put between two vampires of the row",
    }, keys
    for f in result.findings:
        assert f.explained_by, f.key  # registered (spec/dawn_under/discovered.toml)
        assert f.question and len(f.readings) == 2 and f.search == "components"
    figures = result.stats["components"]
    assert figures["moves judged"] > 500 and figures["off the model's types"] > 0
    # every clause the text forbids such a move by is named in the figures
    settled = figures["settled by"]
    for clause in ("du-en:ch2.gift", "du-en:ch3.other-garlic", "du-en:ch3.received-open",
                   "du-en:ch1.outermost", "du-en:ch1.open", "du-en:ch2.stakes-back"):
        assert settled.get(clause, 0) > 0, (clause, settled)


def test_the_czech_text_takes_and_adds_vampires_only_at_the_ends() -> None:
    result = _run("du-cs/4")
    assert not result.findings, _keys(result)
    settled = result.stats["components"]["settled by"]
    assert settled["du-cs:priprava.take-end"] > 0 and settled["du-cs:priprava.add-end"] > 0


def test_deleting_a_contract_turns_a_forbidden_move_into_a_finding() -> None:
    # du-en:ch3.received-open forbids keeping a received vampire beside the row
    weakened = [contract_set("du-en").without("du-en:ch3.received-open")]
    keys = _keys(_run("du-en/4", sets=weakened))
    assert ("component refused-unforbidden: a received vampire kept beside the row, not in it"
            in keys), keys
    # and du-en:ch1.outermost forbids putting a vampire from inside the row into a grave
    weakened = [contract_set("du-en").without("du-en:ch1.outermost")]
    keys = _keys(_run("du-en/4", sets=weakened))
    assert any("from inside the row put into the grave just opened" in k for k in keys), keys


class _Jumping(DraculaGame):
    """Dracula with a widened eligibility planted: a figure may also jump to any location."""

    def model_legal(self, m: Any) -> tuple[Any, ...]:
        legal = tuple(super().model_legal(m))
        if dr_engine.phase(m) == "move":
            here = m.pos[m.active]
            legal += tuple(dr_engine.Move(x) for x in range(m.board.size)
                           if x != here and x not in m.board.neighbours(here))
        return legal

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        if isinstance(action, dr_engine.Move) and action not in dr_engine.legal_actions(m):
            pos = (action.to, m.pos[1]) if m.active == 0 else (m.pos[0], action.to)
            m = replace(m, pos=pos, steps=m.steps + 1)
            action = dr_engine.Stop()
        return super().model_step(m, action)


def test_a_widened_eligibility_planted_in_an_engine_is_reported() -> None:
    before = _keys(_run("dracula"))
    planted = _keys(_run("dracula", game=_Jumping()))
    new = planted - before
    assert ("component allowed-unpermitted: the figure moved to a location that is not next "
            "to it") in new, new


def test_dracula_target_gift_any_time_is_open_and_the_rest_forbidden() -> None:
    result = _run("dracula", budget=Budget(games=4, max_steps=250, stride=1, seconds=60.0))
    keys = _keys(result)
    assert {k for k in keys if "target handed over" in k} == {
        "component refused-unforbidden: a target handed over for life markers by the player "
        "who is not to decide",
        "component refused-unforbidden: a target handed over for life markers with no life "
        "marker lost",
        "component refused-unforbidden: a target handed over for life markers at a step of the "
        "turn where the model offers none"}
    assert keys <= {k for e in load_discovered(game="dracula") for k in e.keys}
    settled = result.stats["components"]["settled by"]
    for clause in ("dracula-en:move.orthogonal", "dracula-en:cards.cycle",
                   "dracula-en:empty.leave-empty"):
        assert settled.get(clause, 0) > 0, (clause, settled)


def test_component_moves_of_the_model_state_agree_with_the_engine() -> None:
    # a move the model can express is offered as a model action; off-model moves are never
    # legal in the engine
    from ruleproof.properties.contracts.discovery import walk
    from ruleproof.properties.contracts.games import game_of
    from ruleproof.properties.dawn_under.components import moves

    rs = rule_set("gruft/4")
    game = game_of(rs)
    seen = 0
    for st in walk(rs, 2, 200):
        legal = set(game.model_legal(st.state))
        for m in moves(st.state):
            seen += 1
            if not m.in_model:
                assert m.action not in legal
    assert seen > 100


def _finding(rs: RuleSet, key: str, check: Callable[[Finding], bool]) -> Finding:
    found = [f for f in _run(rs.name).findings if f.key == key]
    assert found and check(found[0])
    return found[0]


def test_a_component_witness_replays_to_the_state_it_asks_about() -> None:
    from ruleproof.properties.contracts.games import game_of, parse
    from ruleproof.properties.dawn_under.moves import ReceiveAt

    rs = rule_set("du-en/4")
    f = _finding(rs, "component refused-unforbidden: a received vampire put between two "
                 "vampires of the row", lambda f: f.action.startswith("receive at"))
    game = game_of(rs)
    state = game.seeded_model(f.seed)
    for text in f.prefix:
        state = game.model_step(state, parse(game, text))[0]
    assert state.phase.value == "receive"
    assert ReceiveAt(1) not in game.model_legal(state)
