"""Question generators over structure (issue #24): simultaneous endings, effects in another
order, component totals, events during themselves, preset x player count x expansion, who
observes each state field; with teeth (a planted order of simultaneous effects, a removed cap,
a visibility change is reported; a deleted contract turns a settled question into a finding;
a contract stating the order settles it)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from ruleproof.model.dawn_under import engine as du_engine
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dawn_under.state import PlaceGarlic, State
from ruleproof.model.dracula import engine as dr_engine
from ruleproof.model.dracula.game import DraculaGame
from ruleproof.properties.contracts.core import Contract, ContractSet, contract_set
from ruleproof.properties.contracts.discovery import (
    SEARCH_KINDS,
    Budget,
    Search,
    SearchResult,
    SearchRun,
    discover,
    load_discovered,
)
from ruleproof.properties.contracts.games import game_of, parse, rule_set
from ruleproof.properties.discovery import generators as gen

SMALL = Budget(games=4, max_steps=250, stride=3, seconds=60.0)
MINE = ("components", "endings", "orders", "totals", "chains", "combinations", "visibility")


def _run(kind: str, name: str, sets: list[ContractSet] | None = None, game: Any = None,
         budget: Budget = SMALL) -> SearchResult:
    scope = SEARCH_KINDS[kind].scope
    unit = Search(kind, name) if scope == "rule_set" else Search(kind, "", name)
    run = SearchRun((unit,), "ci", time.time() + 300,
                    (lambda rs: sets) if sets is not None else None,
                    (lambda rs: game) if game is not None else None)
    function = getattr(gen, kind)
    result: SearchResult = function(unit, budget, time.perf_counter() + 300, run)
    return result


def _keys(result: SearchResult) -> set[str]:
    return {f.key for f in result.findings}


def test_the_search_kinds_are_registered() -> None:
    for kind in MINE:
        assert kind in SEARCH_KINDS, kind
    assert SEARCH_KINDS["combinations"].scope == "game"
    assert {SEARCH_KINDS[k].scope for k in MINE if k != "combinations"} == {"rule_set"}


# ----------------------------------------------------------------------------- endings, orders


TWO = "ending: two players run out of vampires in one round of hand-overs"
ORDER = "order: the order of one round of hand-overs decides who wins"


def _play_out(state: State) -> State:
    while state.phase.value in ("give", "receive"):
        state = du_engine.apply(state, du_engine.legal_actions(state)[0])
    return state


def test_two_givers_running_out_in_one_round_is_found_by_targeted_play() -> None:
    result = _run("endings", "du-en/4")
    [f] = [f for f in result.findings if f.key == TWO]
    assert f.explained_by == "du.two-run-out-at-once" and f.search == "endings"
    assert result.stats["endings"]["plays"]["toward gift endings"] > 0
    # the witness: the engine's first giver wins; the other reading's order another one
    rs = rule_set("du-en/4")
    game = game_of(rs)
    s = game.seeded_model(f.seed)
    for text in f.prefix:
        s = game.model_step(s, parse(game, text))[0]
    a = parse(game, f.action)
    t = game.model_step(s, a)[0]
    [q] = [q for q in gen_questions("endings", rs, s, a, t) if q.key == TWO]
    winners = {_play_out(t).winner} | {_play_out(alt).winner for _name, alt in q.alternatives}
    assert len(winners) >= 2, winners
    assert None not in winners


def gen_questions(kind: str, rs: Any, s: Any, a: Any, t: Any) -> list[gen.Question]:
    from ruleproof.properties.plugin import plugin

    tables = gen.tables_of(plugin(rs.game))
    assert tables is not None
    return list(tables.questions(kind, rs, s, a, t))


def _clockwise(s: Any, a: Any, t: Any) -> bool | None:
    """A planted contract: a round of hand-overs goes clockwise from the receiver's left."""
    if not t.gifts or s.gifts:
        return None
    r = t.gifts[0].receiver
    order = [(g.giver - r) % t.config.players for g in t.gifts]
    return order == sorted(order)


def test_a_contract_stating_the_order_settles_the_question_and_names_its_clause() -> None:
    stated = ContractSet("du-en", (*contract_set("du-en").contracts,
                                   Contract("du-en:ch3.own-garlic", requires=_clockwise)))
    result = _run("orders", "du-en/4", sets=[stated])
    assert ORDER not in _keys(result)
    assert result.stats["orders"]["settled"].get("du-en:ch3.own-garlic", 0) > 0
    assert ORDER in _keys(_run("orders", "du-en/4"))


class _Backwards(DawnUnderGame):
    """Dawn Under with another silent order planted: a round of hand-overs goes
    counter-clockwise."""

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        new, seen = super().model_step(m, action)
        if isinstance(new, State) and new.gifts and not (isinstance(m, State) and m.gifts):
            new = replace(new, gifts=tuple(reversed(new.gifts)))
        return new, seen


def test_a_planted_order_of_simultaneous_effects_is_reported() -> None:
    rs = rule_set("du-en/3")
    keys = _keys(_run("orders", "du-en/3", game=_Backwards(**rs.game_params())))
    assert ORDER in keys, keys


def test_the_fifth_target_on_the_last_marker_is_found_and_the_other_reading_wins() -> None:
    result = _run("endings", "dracula")
    key = "ending: the fifth target found on a move that costs the last life marker"
    [f] = [f for f in result.findings if f.key == key]
    assert f.explained_by == "dracula.last-target-last-marker"
    rs = rule_set("dracula")
    game = game_of(rs)
    from ruleproof.properties.dracula.contracts import settle

    state = settle(game.new_seeded_state(f.seed))
    for text in f.prefix:
        state = settle(state.apply_typed(parse(game, text)))
    s = state.model
    a = parse(game, f.action)
    t = dr_engine.apply(s, a)
    [q] = [q for q in gen_questions("endings", rs, s, a, t) if q.key == key]
    [(_name, alt)] = q.alternatives
    assert t.winner == 1 - s.active and alt.winner == s.active


# ----------------------------------------------------------------------------- totals


class _EndlessGarlic(DawnUnderGame):
    """Dawn Under with a removed cap planted: placing garlic does not use up a bundle."""

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        new, seen = super().model_step(m, action)
        if isinstance(action, PlaceGarlic) and isinstance(new, State):
            new = replace(new, garlic_hand=m.garlic_hand)
        return new, seen


def test_a_removed_cap_planted_in_an_engine_is_reported() -> None:
    rs = rule_set("du-en/4")
    assert not _keys(_run("totals", "du-en/4"))
    keys = _keys(_run("totals", "du-en/4", game=_EndlessGarlic(**rs.game_params())))
    assert "total: garlic bundles of one player past the component total" in keys, keys


class _LifeUncapped(DraculaGame):
    """Dracula with the life cap removed: a target handed over always gives two markers."""

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        new, seen = super().model_step(m, action)
        if isinstance(action, dr_engine.GiveTarget):
            side = m.agenda[0].player
            life = list(new.life)
            life[side] = m.life[side] + 2
            new = replace(new, life=(life[0], life[1]))
        return new, seen


def test_a_removed_life_cap_is_reported_and_the_contract_kills_the_other_reading() -> None:
    budget = Budget(games=6, max_steps=250, stride=3, seconds=60.0)
    result = _run("totals", "dracula", budget=budget)
    assert not result.findings
    assert result.stats["totals"]["settled"].get("dracula-en:early-end.give-target", 0) > 0
    keys = _keys(_run("totals", "dracula", game=_LifeUncapped(), budget=budget))
    assert "total: life markers of a side past the component total" in keys, keys
    # deleting the contract turns the killed reading (five markers) into a finding
    weakened = [contract_set("dracula-en").without("dracula-en:early-end.give-target")]
    keys = _keys(_run("totals", "dracula", sets=weakened, budget=budget))
    assert "total: life markers taken back past the four a player owns" in keys, keys


def test_a_stake_due_on_an_empty_path_is_reached_with_six_players_of_the_czech_rules() -> None:
    result = _run("totals", "du-cs/6", budget=Budget(12, 600, 2, 60.0))
    [f] = [f for f in result.findings
           if f.key == "total: a stake is due and none is left on the path"]
    assert f.explained_by == "du.empty-path"  # the ambiguity register's entry (option empty_path)


# ----------------------------------------------------------------------------- chains


def test_chains_settled_by_chapter_five_and_open_in_the_czech_text() -> None:
    en = _run("chains", "du-en/4")
    assert not en.findings
    assert en.stats["chains"]["settled"]["du-en:ch4.end-new-rat"] > 0
    cs = _run("chains", "du-cs/4")
    assert {f.explained_by for f in cs.findings} == {"du-cs.plague-go-on"}


def test_a_special_action_bringing_the_figures_together_is_a_question() -> None:
    keys = _keys(_run("chains", "dracula", budget=Budget(4, 300, 3, 60.0)))
    assert "chain: a special action puts both figures on one location" in keys


# ----------------------------------------------------------------------------- combinations


def test_combinations_no_text_defines_are_questions() -> None:
    du = _run("combinations", "dawn-under")
    assert _keys(du) == {"combination: the expansion with two players",
                         "combination: the Czech rules' player counts",
                         "combination: the expansion on the Czech rules"}
    assert all(f.explained_by for f in du.findings)
    assert du.stats["combinations"]["combinations"] == 30
    assert not _run("combinations", "dracula").findings


def test_a_combination_a_table_defines_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleproof.properties.dawn_under import generators as du_gen

    plain = du_gen.combination

    def defined(preset: str, players: int, expansion: str | None) -> gen.Combination:
        if expansion is not None and players == 2:
            return gen.Combination("", ("gruft-en:prep.bats",), "", ())
        return plain(preset, players, expansion)

    monkeypatch.setattr(du_gen, "combination", defined)
    assert "combination: the expansion with two players" not in _keys(
        _run("combinations", "dawn-under"))


# ----------------------------------------------------------------------------- visibility


def test_visibility_per_source_du_en_against_du_cs() -> None:
    en = _keys(_run("visibility", "du-en/4"))
    cs = _keys(_run("visibility", "du-cs/4"))
    # the Czech text shows the contents and hides face-down vampires from their owner
    assert "visibility: what an opened grave holds (du-en)" in en
    assert "visibility: a face-down vampire of a row (du-en)" in en
    assert not any("opened grave" in k or "face-down" in k for k in cs)
    # the English rules keep the garlic visible and draw the reserve unseen
    assert "visibility: the reserve stack of lids (du-cs)" in cs
    assert not any("reserve" in k for k in en)
    assert "visibility: the stakes a player holds" in en & cs


class _ShowsReserve(DawnUnderGame):
    """Dawn Under with a visibility change planted: everybody sees the top reserve lid."""

    def observation_string(self, state: Any, player: int) -> str:
        m = state.model
        top = m.reserve[0] if isinstance(m, State) and m.reserve else None
        return super().observation_string(state, player) + f"\nreserve-top {top}"


class _ShowsHands(DraculaGame):
    """Dracula with a visibility change planted: both hands are shown to both players."""

    def observation_string(self, state: Any, player: int) -> str:
        return super().observation_string(state, player) + f"\nhands {state.model.hand}"


def test_a_visibility_change_planted_in_an_engine_is_reported() -> None:
    rs = rule_set("du-en/4")
    keys = _keys(_run("visibility", "du-en/4", game=_ShowsReserve(**rs.game_params())))
    assert "visibility: the reserve stack of lids: the model shows it public" in keys, keys
    keys = _keys(_run("visibility", "dracula", game=_ShowsHands()))
    assert ("visibility: the encounter cards a player holds: the model shows it public"
            in keys), keys
    assert not any(": the model shows it" in k for k in _keys(_run("visibility", "dracula")))


# ----------------------------------------------------------------------------- register


def test_every_question_of_the_ci_profile_is_registered() -> None:
    report = discover("ci", ("du-en/4", "gruft/4"), kinds=MINE)
    assert report.findings
    assert not report.new, [f.key for f in report.new]
    assert all(f.question and len(f.readings) >= 2 and f.search in MINE
               for f in report.findings)
    assert report.stats["components"]["moves judged"] > 0
    assert report.seconds < 60


def test_the_dracula_register_entries_replay() -> None:
    from ruleproof.properties.dracula.scenarios import run_scenario
    from ruleproof.spec import spec_path

    entries = load_discovered(game="dracula")
    assert {e.id for e in entries} >= {"dracula.give-target-full-life",
                                        "dracula.last-target-last-marker",
                                        "dracula.special-meeting"}
    for e in entries:
        for w in e.witnesses:
            result = run_scenario(spec_path(*w.split("/")))
            assert result.passed, (w, result.detail)


# ----------------------------------------------------------------------------- a special in time


class _LateVigilance(DraculaGame):
    """Dracula with a special resolved at another time planted: Vigilance does not take hold
    when Van Helsing plays it, only when his turn ends."""

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        new, seen = super().model_step(m, action)
        played = m.played if m.played is not None and m.use_special else None
        if isinstance(action, dr_engine.PlayCard) and action.special:
            played = action.card
        if played is None or m.cards.act(played).special != "vigilance":
            return new, seen
        if new.turn == m.turn and new.winner is None:
            return replace(new, vigilance=m.vigilance), seen
        return replace(new, vigilance=True), seen


def test_a_dracula_special_resolved_at_another_time_is_reported() -> None:
    budget = Budget(games=6, max_steps=250, stride=1, seconds=60.0)
    result = _run("orders", "dracula", budget=budget)
    keys = _keys(result)
    assert not {k for k in keys if "special action" in k}, keys
    settled = result.stats["orders"]["settled"]
    assert settled.get("dracula-en:special.vigilance", 0) > 0, settled
    planted = _run("orders", "dracula", game=_LateVigilance(), budget=budget)
    [f] = [f for f in planted.findings
           if f.key == "order: Vigilance's special action resolved after its turn"]
    assert "dracula-en:special.vigilance" in f.clauses and f.question
    # deleting the clause's contract turns the settled timing into a finding
    weakened = [contract_set("dracula-en").without("dracula-en:special.vigilance")]
    keys = _keys(_run("orders", "dracula", sets=weakened, budget=budget))
    assert "order: when Vigilance's special action takes effect" in keys, keys


def test_a_search_started_after_the_profile_ran_out_still_searches() -> None:
    """On a loaded machine the profile's time ran out before most searches started: each was
    'cut' with nothing searched and the run passed on zero work. Each search now gets its
    own slice first (discovery.MIN_SLICE_PARTS) and is reported cut."""


    from ruleproof.properties.contracts import discovery as d

    plan = tuple(d.searches(["du-en/4"], ["endings"]))
    assert plan
    _found, stats, cut = d.SearchRun(plan, "ci", time.time() - 1).run(0)
    assert cut
    assert stats["endings"]["states"] > 0, stats
