"""Rule mutants as questions (issue #24): the operator catalogue, the sites of each engine, the
search ``mutants``, the adequacy it reports, and its teeth (a deleted contract turns killed
mutants into findings; a planted silent decision of each kind is reported)."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ruleproof.model.api import GameBase
from ruleproof.properties.contracts.core import ContractSet, contract_set
from ruleproof.properties.contracts.discovery import (
    BUDGETS,
    SEARCH_KINDS,
    Budget,
    Finding,
    Search,
    SearchRun,
    discover,
    discovered_register,
    load_discovered,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set
from ruleproof.properties.discovery.mutants import (
    OPERATOR,
    OPERATORS,
    MutantGame,
    Site,
    judge,
    mutant,
    mutants_of,
    post,
    refusing,
    search,
)
from ruleproof.properties.plugin import plugin
from ruleproof.spec import all_clause_ids, spec_path

CI = BUDGETS["ci"]
FEW = Budget(games=8, max_steps=400, stride=2, seconds=120.0)
GAMES = ("dawn-under", "dracula", "kuhn-poker")
RULE_SETS = ("du-en/4", "du-cs/4", "2p/2", "gruft/4", "dracula", "kuhn-wp/2")


def _run(name: str, budget: Budget = CI,
         game_for: Callable[[RuleSet], GameBase[Any] | None] | None = None,
         sets_for: Callable[[RuleSet], list[ContractSet] | None] | None = None) -> Any:
    context = SearchRun((), "ci", time.time() + 600, sets_for, game_for)
    return search(Search("mutants", name), budget, None, context)


def _sites(name: str) -> list[Site]:
    rs = rule_set(name)
    cap = mutants_of(plugin(rs.game))
    assert cap is not None
    return list(cap.sites(rs))


def _site(name: str, site: str) -> Site:
    return next(s for s in _sites(name) if s.name == site)


def _new(name: str, findings: list[Finding]) -> set[str]:
    accepted = discovered_register(rule_set(name).game)
    return {f.key for f in findings if not f.explained_by and f.key not in accepted}


# --------------------------------------------------------------------------- the catalogue


def test_the_catalogue_has_the_operators_the_issue_names_and_each_is_used() -> None:
    names = {o.name for o in OPERATORS}
    assert {"optional", "forced", "next-seat", "effect-order", "cap", "eligibility",
            "turn-window", "chain-role", "turn-ends", "visibility", "ending-order",
            "timing"} <= names
    assert all(o.title and o.changes and o.asks for o in OPERATORS)
    used = {s.operator for n in RULE_SETS for s in _sites(n)}
    assert used == names, names - used
    du = {s.operator for n in ("du-en/4", "du-cs/4", "2p/2", "gruft/4") for s in _sites(n)}
    assert names - {"timing"} <= du | {"timing"}
    assert {"timing", "visibility", "ending-order", "next-seat", "cap"} <= {
        s.operator for s in _sites("dracula")}
    assert SEARCH_KINDS["mutants"].scope == "rule_set"


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_site_names_known_clauses_and_readings(name: str) -> None:
    known = all_clause_ids()
    rs = rule_set(name)
    sites = _sites(name)
    assert sites
    keys: set[str] = set()
    for s in sites:
        assert s.operator in OPERATOR
        assert s.clauses and set(s.clauses) <= known, (s.name, set(s.clauses) - known)
        assert s.question.endswith("?") or "?" in s.question, s.name
        values = [r.value for r in s.readings]
        assert len(values) >= 2 and len(set(values)) == len(values), s.name
        assert s.engine(rs) in values, (s.name, s.engine(rs))
        for v in values:
            assert s.key(v) not in keys
            keys.add(s.key(v))


def _entries(game: str) -> set[str]:
    ids = {a.id for a in load_discovered(game=game)}
    path = plugin(game).spec_folder / "ambiguities.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return ids | {e["id"] for e in data.get("ambiguity", [])}


@pytest.mark.parametrize("game", GAMES)
def test_a_site_that_poses_a_registered_question_names_an_existing_entry(game: str) -> None:
    entries = _entries(game)
    named = {s.entry for n in RULE_SETS if rule_set(n).game == game for s in _sites(n)
             if s.entry}
    assert named <= entries, named - entries


@pytest.mark.parametrize("name", ("du-en/4", "du-cs/4", "2p/2", "gruft/4", "dracula"))
def test_the_shipped_engine_reading_of_every_site_leaves_play_unchanged(name: str) -> None:
    # every reading is an absolute mutant: the engine's own, imposed on the engine, is a no-op
    rs = rule_set(name)
    cap = mutants_of(plugin(rs.game))
    assert cap is not None
    base = game_of(rs)
    for s in _sites(name):
        o = judge(rs, s, s.engine(rs), base, None, 2, 250, same=cap.same)
        assert o.status == "unchanged", (s.name, o)


def test_a_mutant_game_without_changes_plays_like_its_base() -> None:
    rs = rule_set("du-en/4")
    base = game_of(rs)
    same = MutantGame(base)
    a, b = base.new_seeded_state(3), same.new_seeded_state(3)
    for _ in range(60):
        assert a.legal_typed_actions() == b.legal_typed_actions()
        action = a.legal_typed_actions()[0]
        a, b = a.apply_typed(action), b.apply_typed(action)
        assert a.model == b.model
    everything = mutant(base, legal=refusing(lambda m, x: True))
    state = everything.new_seeded_state(0)
    assert everything.model_legal(state.model) == base.model_legal(state.model)


# --------------------------------------------------------------------------- the search


@pytest.mark.slow
def test_the_search_reports_adequacy_per_source_and_which_clause_killed_what() -> None:
    result = _run("du-en/4")
    stats = result.stats
    du = stats["adequacy"]["du-en"]
    assert du["killed"] >= 20 and du["survived"] >= 1, du
    counts = stats["mutants"]["du-en/4"]
    assert counts["killed"] == du["killed"] and counts["survived"] == du["survived"]
    assert counts["skipped"] >= 20  # the engine's own readings
    assert stats["killed_by"]["du-en:play.clockwise"] >= 1
    assert any("turn-passes=right killed by du-en:play.clockwise" in k for k in stats["kills"])
    for f in result.findings:
        assert f.kind == "mutant" and f.search == "mutants" and f.source == "du-en"
        assert f.question and len(f.readings) == 2 and f.clauses
    gruft = _run("gruft/4").stats["adequacy"]
    assert set(gruft) == {"du-en", "gruft-en"}


def test_dracula_and_kuhn_poker_are_searched_too() -> None:
    dracula = _run("dracula")
    assert dracula.stats["adequacy"]["dracula-en"]["killed"] >= 10
    keys = {f.key for f in dracula.findings}
    assert "mutant optional barrier-optional=false" in keys  # a registered reading
    assert all(f.explained_by or f.key in discovered_register("dracula")
               for f in dracula.findings), _new("dracula", dracula.findings)
    kuhn = _run("kuhn-wp/2")
    assert kuhn.stats["adequacy"]["kuhn-wp"] == {"killed": 3, "survived": 0}


@pytest.mark.slow
def test_every_survivor_of_the_default_rule_sets_is_registered() -> None:
    report = discover("ci", ("du-en/4", "du-cs/4", "2p/2", "gruft/4", "kuhn-wp/2"),
                      kinds=("mutants",))
    assert report.findings and not report.new, [f.key for f in report.new]
    assert report.stats["adequacy"]["du-cs"]["survived"] >= 5  # du-cs leaves most open
    explained = {f.key: f.explained_by for f in report.findings}
    for key in ("mutant effect-order gift-round-order=counter-clockwise",  # who wins a round
                "mutant visibility own-face-down=owner", "mutant visibility grave-contents=hidden",
                "mutant next-seat received-end-chooser=false", "mutant cap plague-round=one-round"):
        assert explained.get(key), (key, explained)  # by whichever entry poses the question


def test_a_survivor_witness_replays_in_the_engine(tmp_path: Path) -> None:
    from ruleproof.properties.scenarios import run_scenario

    for name in ("du-en/4", "dracula"):
        rs = rule_set(name)
        cap = mutants_of(plugin(rs.game))
        assert cap is not None
        found = _run(name).findings
        assert found
        for f in found[:3]:
            path = tmp_path / f"{name.replace('/', '-')}-{len(f.prefix)}.toml"
            path.write_text(cap.witness(rs, f), encoding="utf-8")
            result = run_scenario(path)
            assert result.passed, (f.key, result.detail)


def test_the_registered_witnesses_of_mutant_findings_replay() -> None:
    from ruleproof.properties.scenarios import run_scenario

    for game in ("dawn-under", "dracula"):
        for e in load_discovered(game=game):
            for w in e.witnesses:
                result = run_scenario(spec_path(*w.split("/")))
                assert result.passed, (w, result.detail)


@pytest.mark.slow
def test_the_search_keeps_to_its_share_of_a_ci_run() -> None:
    start = time.process_time()
    for name in RULE_SETS:
        _run(name)
    assert time.process_time() - start < 30.0


# --------------------------------------------------------------------------- teeth


@pytest.mark.parametrize(("name", "source", "clause", "key"), [
    ("du-en/4", "du-en", "du-en:ch1.garlic", "mutant forced garlic-when-no-match=must"),
    ("du-en/4", "du-en", "du-en:play.clockwise", "mutant next-seat turn-passes=right"),
    ("dracula", "dracula-en", "dracula-en:cards.bar", "mutant eligibility barrier-colour=any"),
    ("dracula", "dracula-en", "dracula-en:look.opponent-card",
     "mutant visibility revealed-card=looker"),
])
@pytest.mark.slow
def test_deleting_the_killing_contract_turns_the_mutant_into_a_finding(
        name: str, source: str, clause: str, key: str) -> None:
    before = _run(name)
    assert key not in {f.key for f in before.findings}
    assert any(k.startswith(f"{name}: {key} killed by") and clause in k
               for k in before.stats["kills"])
    weak = contract_set(source).without(clause)
    after = _run(name, sets_for=lambda rs: [weak])
    assert key in _new(name, after.findings), {f.key for f in after.findings}
    assert after.stats["adequacy"][source]["killed"] < before.stats["adequacy"][source]["killed"]


def _planted(name: str, make: Callable[[GameBase[Any]], GameBase[Any]]
             ) -> Callable[[RuleSet], GameBase[Any] | None]:
    planted = make(game_of(rule_set(name)))
    return lambda rs: planted if rs.name == name else None


def _gifts_counter_clockwise(base: GameBase[Any]) -> GameBase[Any]:
    from ruleproof.properties.dawn_under.mutants import _order_gifts

    return mutant(base, step=post(_order_gifts(False)), label="planted: gifts the other way")


def _inner_gift(base: GameBase[Any]) -> GameBase[Any]:
    from ruleproof.properties.dawn_under.mutants import _give_inner

    return mutant(base, step=post(_give_inner), label="planted: any open vampire given")


def _own_rows_seen(base: GameBase[Any]) -> GameBase[Any]:
    from ruleproof.properties.dawn_under.mutants import _rows_observed

    return mutant(base, observe=_rows_observed(True), label="planted: own rows seen")


def _uncapped(base: GameBase[Any]) -> GameBase[Any]:
    from ruleproof.properties.dracula.mutants import _after, _uncapped_life

    return _after("planted: no life cap", _uncapped_life)(base)


def _special_early(base: GameBase[Any]) -> GameBase[Any]:
    from ruleproof.properties.dracula.mutants import _fixing, _special_first

    return mutant(base, step=_fixing(_special_first), label="planted: special first")


@pytest.mark.slow  # about a minute in all; CI runs pytest -m slow too
@pytest.mark.parametrize(("kind", "name", "make", "key"), [
    ("an order of simultaneous effects", "du-en/4", _gifts_counter_clockwise,
     "mutant effect-order gift-round-order=clockwise"),
    ("a widened eligibility", "du-en/4", _inner_gift,
     "mutant eligibility give-which=outermost"),
    ("a visibility change", "du-en/4", _own_rows_seen, "mutant visibility own-face-down=nobody"),
    ("a removed cap", "dracula", _uncapped, "mutant cap life-cap=four"),
    ("a special resolved at another time", "dracula", _special_early,
     "mutant timing special-before-battle=after"),
])
def test_a_planted_silent_decision_is_reported(kind: str, name: str,
                                               make: Callable[[GameBase[Any]], GameBase[Any]],
                                               key: str) -> None:
    shipped = _run(name, FEW)
    assert key not in {f.key for f in shipped.findings}
    planted = _run(name, FEW, game_for=_planted(name, make))
    assert key in _new(name, planted.findings), (kind, {f.key for f in planted.findings})


# --------------------------------------------------------------------------- named readings


def _kuhn_readings(x_first: bool) -> tuple[RuleSet, ContractSet, Site, Any]:
    """Kuhn poker's contracts with ``kuhn-wp:rules.first`` replaced by a clause of two named
    readings: X forbids passing first and lets a bet be folded to, Y the other way round."""
    import dataclasses
    import importlib

    from ruleproof.model.kuhn_poker.rules import Hand, Move
    from ruleproof.properties.kuhn_poker.contracts import facing_bet

    core = importlib.import_module("ruleproof.properties.contracts.core")
    alternative = getattr(core, "Alternative", None)
    if alternative is None or "alternatives" not in {
            f.name for f in dataclasses.fields(core.Contract)}:
        pytest.skip("contracts without named readings")

    def dealt(s: Any) -> bool:
        return isinstance(s, Hand) and len(s.cards) == 2

    def first_pass(s: Any, a: Any) -> bool:
        return dealt(s) and not s.moves and a is Move.PASS

    def fold(s: Any, a: Any) -> bool:
        return dealt(s) and facing_bet(s.moves) and a is Move.PASS

    clause = "kuhn-wp:rules.first"
    named = core.Contract(clause, what="the first decision, two ways", alternatives=(
        alternative("X", forbids=first_pass, permits=fold),
        alternative("Y", permits=first_pass, forbids=fold)))
    base = contract_set("kuhn-wp").without(clause)
    weak = ContractSet(base.source, (*base.contracts, named), base.uncovered, base.config_of,
                       base.alias)
    rs = rule_set("kuhn-wp/2")
    site = _site("kuhn-wp/2", "first-decision")
    return rs, weak, site, (first_pass, fold)


def test_a_mutant_keeping_to_one_named_reading_survives_and_says_which() -> None:
    rs, weak, site, _ = _kuhn_readings(True)
    o = judge(rs, site, "must-bet", game_of(rs), [weak], 4, 50)
    assert o.status == "survived", o
    assert ("kuhn-wp:rules.first", "X", "", "") in o.plays
    assert "keeps to the reading 'X' of kuhn-wp:rules.first" in _finding(rs, o).detail


def test_a_mutant_switching_readings_within_a_game_is_killed() -> None:
    # refusing the first pass keeps to X only, refusing a fold then keeps to Y only: no single
    # reading of the clause is kept to in the game, so the clause kills the mutant
    rs, weak, site, (first_pass, fold) = _kuhn_readings(True)
    both = Site(site.operator, site.name, site.clauses, site.question, (
        *site.readings,
        __import__("ruleproof.properties.discovery.mutants", fromlist=["Reading"]).Reading(
            "switching", "X then Y", lambda b: mutant(b, legal=refusing(
                lambda m, a: bool(first_pass(m, a) or fold(m, a)))))), site.engine)
    o = judge(rs, both, "switching", game_of(rs), [weak], 4, 50)
    assert o.status == "killed" and "kuhn-wp:rules.first" in o.clauses, o
    assert "readings" in o.how  # (refusing a fold also breaks kuhn-wp:rules.facing-bet)
    one = judge(rs, both, "switching", game_of(rs), [weak.without("kuhn-wp:rules.facing-bet")
                                                      .without("kuhn-wp:rules.fold")], 4, 50)
    assert one.status == "killed" and one.clauses == ("kuhn-wp:rules.first",), one
    assert one.how == ("readings",)


def _finding(rs: RuleSet, o: Any) -> Finding:
    from ruleproof.properties.discovery.mutants import finding

    return finding(rs, o)
