"""Contracts at the weakest reading (issue #24): a clause whose text admits several readings
names them as alternatives; the ``reading`` search reports the ones the engine does not follow;
the quick reference, FAQ and worked examples are contract sets of their own compared with their
chapters (``chapters``); and every value of every rule option satisfies the contracts of the
sources its presets read, or is declared as going beyond the text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ruleproof.properties.contracts.core import (
    Alternative,
    Contract,
    ContractSet,
    broken,
    contract_set,
    coverage,
    expanded,
    forbidding,
    forbidding_some,
    parts_of,
    permitting,
)
from ruleproof.properties.contracts.discovery import Budget
from ruleproof.properties.contracts.games import contracts_of, rule_set
from ruleproof.properties.contracts.refinement import check_refinement
from ruleproof.properties.discovery import chapters, readings
from ruleproof.properties.plugin import plugin

SMALL = Budget(games=3, max_steps=250, stride=3, seconds=60.0)


def _toy() -> Contract:
    # a clause "the player can stop": the common part forbids negative actions; reading 'may'
    # permits 0 (stopping), reading 'must' forbids it
    return Contract("toy:stop", forbids=lambda s, a: a < 0, what="toy",
                    alternatives=(Alternative("may", permits=lambda s, a: a == 0,
                                              requires=lambda s, a, t: t != 99),
                                  Alternative("must", forbids=lambda s, a: a == 0,
                                              requires=lambda s, a, t: t > s)))


def test_a_transition_meets_a_contract_through_one_of_its_readings() -> None:
    c = _toy()
    assert not broken([c], 1, 0, 1)           # stopping: 'may' accepts it
    assert not broken([c], 1, 2, 3)           # going on: both accept it
    assert [v.how for v in broken([c], 1, -1, 0)] == ["forbids"]
    assert [v.how for v in broken([c], 5, 0, 4)] == []  # 'may' still accepts
    assert [v.how for v in broken([c], 1, 0, 99)] == ["readings"]  # neither reading does
    assert forbidding([c], 1, 0) == [] and forbidding_some([c], 1, 0) == ["toy:stop"]
    assert permitting([c], 1, 0) == ["toy:stop"]
    assert c.readings(1, 0, 2) == ("may",)
    must = c.reading("must")
    assert must.forbids is not None and must.forbids(1, 0) and not must.alternatives
    assert [x.what for x in expanded([c])] == ["toy [may]", "toy [must]"]
    with pytest.raises(KeyError):
        c.reading("never")


def test_a_part_is_its_own_set_and_counts_with_its_document() -> None:
    qr = contract_set("du-en:qr")
    assert qr.part == "qr" and qr.name == "du-en:qr"
    assert all(c.clause.startswith("du-en:qr.") for c in qr.contracts)
    assert {p.name for p in parts_of("du-en")} == {"du-en:qr", "du-en:example"}
    own = coverage(contract_set("du-en"))
    assert not any(c.startswith("du-en:qr.") for c in own.unexplained), own.unexplained
    assert coverage(qr).unexplained == ()
    # the quick reference's contracts are written from its own lines: none reuses a
    # chapter's predicate object
    chapters_preds = {id(f) for c in contract_set("du-en").contracts
                      for f in (c.forbids, c.permits, c.requires) if f is not None}
    assert not any(id(f) in chapters_preds for c in qr.contracts
                   for f in (c.forbids, c.permits, c.requires) if f is not None)


def _reading_keys(name: str, **kw: Any) -> dict[str, str]:
    rs = rule_set(name)
    tracks = readings.follow(rs, SMALL, **kw)
    return {f.key: f.explained_by for f in readings.explain(rs, readings.findings(rs, tracks))}


def test_the_engine_follows_must_and_the_text_also_allows_may() -> None:
    keys = _reading_keys("du-en/4")
    assert keys.get("reading du-en:ch1.match: must | may") == "du.match-optional", keys


def test_an_engine_playing_the_other_reading_is_that_reading_not_a_contract_failure() -> None:
    # plant: the engine follows the other reading of du-en:ch1.match (a matching grave may be
    # left empty): refinement still passes, and the search names the reading it follows
    rs = rule_set("du-en/4")
    other = replace(rs, options=(("match_placement", "optional"),))
    ok, n, detail = check_refinement(other, 4, 300, shrink_game=False)
    assert ok and n > 0, detail
    from ruleproof.properties.contracts.games import game_of

    keys = {f.key for f, _c in readings.findings(rs, readings.follow(rs, SMALL,
                                                                     game=game_of(other)))}
    assert "reading du-en:ch1.match: may | must" in keys, keys
    assert "reading du-en:ch1.match: must | may" not in keys


def test_a_weakened_contract_still_kills_a_mutant_that_breaks_every_reading() -> None:
    # both readings of du-en:ch4.end-all-passed end the plague once the round is back; a
    # successor that keeps it going breaks the clause whichever reading one takes
    from ruleproof.model.dawn_under.state import Stop
    from ruleproof.properties.contracts.games import game_of, settle

    rs = rule_set("du-en/4")
    c = next(x for x in contract_set("du-en").contracts
             if x.clause == "du-en:ch4.end-all-passed" and x.alternatives)
    game = game_of(rs)
    seen = 0
    for seed in range(8):
        st = settle(rs, game.new_seeded_state(seed))
        for _ in range(400):
            if st.is_terminal() or seen:
                break
            s = st.model
            legal = st.legal_typed_actions()
            stop = next((a for a in legal if isinstance(a, Stop)), None)
            p = s.plague
            if stop is not None and p is not None and p.idle + 1 >= s.config.players:
                t = st.apply_typed(stop).model
                if t.plague is None and not broken([c], s, stop, t):
                    wrong = replace(t, plague=replace(p, idle=p.idle + 1))
                    assert [v.how for v in broken([c], s, stop, wrong)] == ["readings"]
                    seen += 1
            st = settle(rs, st.apply_typed(legal[(seed * 7 + len(legal)) % len(legal)]))
    assert seen, "no plague reached the end of its round"


def test_the_quick_reference_is_compared_with_its_chapters() -> None:
    found = chapters.compare(rule_set("du-en/4"), SMALL)
    keys = {f.key: f.explained_by for f in found}
    # the quick reference says 'place the matching vampire'; chapter 1 says he 'can'
    hit = [k for k in keys if "du-en:qr.match" in k and "LeaveEmpty" in k]
    assert hit and all(keys[k] == "du.match-optional" for k in hit), keys


def test_a_chapter_deleted_turns_the_quick_reference_line_into_a_disagreement() -> None:
    # without chapter 4's permission to open any neighbour, the quick reference's plague line
    # permits what nothing in the chapters does -- no disagreement without a forbidding
    # chapter; with chapter 1's opening rule forbidding it, the two disagree
    rs = rule_set("du-en/4")
    weak = [contract_set("du-en").without("du-en:ch1.match").without("du-en:ch4.match")]
    found = chapters.compare(rs, SMALL, sets=weak)
    assert not any("LeaveEmpty" in f.key and "du-en:qr.match" in f.key for f in found)


# ------------------------------------------------------------------ options against sources

RULE_SETS = ("du-en/4", "du-cs/4", "2p/2", "gruft/4", "dracula")
"""One rule set per preset that reads a source (the expansion's with du-en)."""


def _values(name: str) -> list[tuple[str, str, str]]:
    rs = rule_set(name)
    cap = plugin(rs.game).capabilities["conformance"]
    out = []
    for opt, values in cap.option_values().items():
        if opt == "expansion":
            continue  # chooses the documents read (a rule set of its own), not a reading
        out += [(name, opt, v) for v in values]
    return out


def _beyond(name: str, opt: str, value: str) -> dict[str, str]:
    rs = rule_set(name)
    cap = contracts_of(plugin(rs.game))
    assert cap is not None
    table = cap.beyond_text.get(f"{opt}={value}", {})
    return {src: why for src, why in table.items() if src in rs.sources}


def _meets(name: str, opt: str, value: str) -> tuple[bool, str]:
    rs = rule_set(name)
    other = replace(rs, options=(*[(k, v) for k, v in rs.options if k != opt], (opt, value)))
    ok, _n, detail = check_refinement(other, 4, 300, shrink_game=False)
    return ok, detail


@pytest.mark.parametrize("name", RULE_SETS)
@pytest.mark.slow
def test_every_option_value_satisfies_the_sources_contracts_or_is_beyond_the_text(
        name: str) -> None:
    failures = []
    for _n, opt, value in _values(name):
        if _beyond(name, opt, value):
            continue
        ok, detail = _meets(name, opt, value)
        if not ok:
            failures.append(f"{opt}={value}: {detail[:300]}")
    assert not failures, "\n".join(failures)


def test_a_value_declared_beyond_a_text_breaks_that_texts_contracts() -> None:
    # a declaration is not stale: some rule set reading the source breaks a contract with it
    cap = contracts_of(plugin("dawn-under"))
    assert cap is not None
    stale = []
    for key, table in cap.beyond_text.items():
        opt, _, value = key.partition("=")
        for src in table:
            names = [n for n in RULE_SETS if src in rule_set(n).sources]
            if all(_meets(n, opt, value)[0] for n in names):
                stale.append(f"{key} ({src})")
    assert not stale, stale


def test_beyond_text_names_known_options_values_and_sets() -> None:
    for game in ("dawn-under", "dracula"):
        cap = contracts_of(plugin(game))
        assert cap is not None
        values = plugin(game).capabilities["conformance"].option_values()
        names = {*cap.sets, *cap.parts}
        for key, table in cap.beyond_text.items():
            opt, _, value = key.partition("=")
            assert value in values.get(opt, ()), key
            assert table and set(table) <= names, (key, table)
            assert all(len(why) > 20 for why in table.values()), key


def test_a_contract_set_part_rejects_a_stray_clause() -> None:
    bad = ContractSet("du-en", (Contract("du-en:qr.nowhere"),), part="qr")
    with pytest.raises(ValueError, match="du-en:qr"):
        coverage(bad)


def test_dracula_planted_on_the_other_vigilance_reading_is_reported_as_that_reading() -> None:
    # plant: Dracula's engine keeps Vigilance's block until he plays a special card; the
    # contracts accept it (both readings of dracula-en:special.vigilance), and the search
    # names the reading it follows
    from ruleproof.properties.contracts.games import game_of

    rs = rule_set("dracula")
    other = replace(rs, options=(("vigilance_scope", "next-special"),))
    ok, n, detail = check_refinement(other, 10, 400, shrink_game=False)
    assert ok and n > 0, detail
    budget = Budget(games=12, max_steps=600, stride=2, seconds=60.0)
    found = readings.explain(rs, readings.findings(rs, readings.follow(
        rs, budget, game=game_of(other))))
    keys = {f.key: f.explained_by for f in found}
    assert keys.get("reading dracula-en:special.vigilance: next-special | next-turn") == \
        "vigilance-scope", keys


def _verdicts(name: str, opt: str, value: str, pred: Any, games: int) -> set[bool]:
    import random

    from ruleproof.properties.contracts.games import game_of, settle

    rs = rule_set(name)
    other = replace(rs, options=(*[(k, v) for k, v in rs.options if k != opt], (opt, value)))
    game = game_of(other)
    out: set[bool] = set()
    for seed in range(games):
        rng = random.Random(seed)
        st = settle(other, game.new_seeded_state(seed))
        for _ in range(600):
            if st.is_terminal():
                break
            legal = st.legal_typed_actions()
            a = legal[rng.randrange(len(legal))]
            nxt = st.apply_typed(a)
            v = pred(st.model, a, nxt.model)
            if v is not None:
                out.add(bool(v))
            st = settle(other, nxt)
    return out


def _reading_cases() -> list[tuple[str, str, Any, tuple[str, str]]]:
    from ruleproof.properties.dawn_under.contracts import du_cs, gruft_en
    from ruleproof.properties.dracula.contracts import dracula_en

    return [("du-cs/6", "empty_path", du_cs._gift_from_empty_path, ("no-stake", "gift-now")),
            ("gruft/4", "gruft_lost_place", gruft_en._lost_count_stood_now,
             ("own-turn", "at-once")),
            ("dracula", "reinforcement", dracula_en._hunter_back_offered,
             ("move-only", "move-and-hunter"))]


@pytest.mark.parametrize("case", range(3))
def test_a_named_reading_tells_the_two_option_values_apart(case: int) -> None:
    # the predicate the two readings of a clause part on is reached in random play, and each
    # option value gives its own verdict: False under the first reading, True under the second
    name, opt, pred, (first, second) = _reading_cases()[case]
    assert _verdicts(name, opt, first, pred, 20) == {False}
    assert _verdicts(name, opt, second, pred, 20) == {True}


def test_every_clause_of_the_worked_example_is_exercised_in_play() -> None:
    """Each ``du-en:example.*`` clause registered for the worked example (figures 4a-4d) has a
    contract that random play of du-en/4 reaches: its forbid, permit or require predicate
    decides at least one transition (not only vacuous ``None``; a forbid, whose action the engine
    never offers, is probed with the legal placements moved onto every grave and must refuse
    only what the engine refuses), and none is broken."""
    from dataclasses import replace

    from ruleproof.model.dawn_under.engine import legal_actions
    from ruleproof.model.dawn_under.state import PlaceGarlic, PlaceVampire
    from ruleproof.properties.contracts.core import broken
    from ruleproof.properties.contracts.discovery import walk
    from ruleproof.properties.contracts.games import rule_set
    from ruleproof.properties.dawn_under.contracts.du_en_example import CONTRACTS
    from ruleproof.spec import clause_registry

    ids = {c.id for c in clause_registry("du-en") if c.id.startswith("du-en:example.")}
    contracts = [c for c in CONTRACTS.contracts if c.clause.startswith("du-en:example.")]
    assert ids and ids == {c.clause for c in contracts}
    rs = rule_set("du-en/4")
    decided: dict[str, int] = dict.fromkeys(ids, 0)
    steps = 0
    for seed in range(3):
        for st in walk(rs, 1, 400, seed=seed):
            s, a, t = st.state, st.action, st.nxt
            steps += 1
            assert not broken(contracts, s, a, t), (seed, a)
            legal = legal_actions(s)
            # what a forbid is about is never legal: probe the same action onto every grave
            placing = [b for b in legal if isinstance(b, PlaceVampire | PlaceGarlic)]
            probes = [replace(b, grave=g) for b in placing for g in range(len(s.lids))]
            for c in contracts:
                if not c.applies(s.config):
                    continue
                for fn, args in ((c.permits, (s, a)), (c.requires, (s, a, t))):
                    if fn is not None and fn(*args) not in (None, False):
                        decided[c.clause] += 1
                if c.forbids is not None:
                    hit = [b for b in probes if c.forbids(s, b)]
                    assert not set(hit) & set(legal), (c.clause, hit)
                    decided[c.clause] += len(hit)
    assert steps > 500
    assert all(decided.values()), {k: v for k, v in decided.items() if not v}
