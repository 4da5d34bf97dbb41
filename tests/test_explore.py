"""Exhaustive exploration (ruleproof explore): pinned counts, symmetry soundness, planted bugs
found with shortest replayable traces, graph analysis, checkpoints, the CLI."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ruleproof.model.dawn_under.engine as du_engine
from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.state import Action, Config, Phase, Plague, State
from ruleproof.properties.conformance.replay import replay_file
from ruleproof.properties.conformance.trace import parse_trace
from ruleproof.properties.dawn_under.explore import DawnUnderExplore, du_config
from ruleproof.properties.explore.games import explore_game
from ruleproof.properties.explore.search import (
    Explorer,
    ExploreResult,
    _cycle_nodes,
    _shortest_loop,
    _traps,
    explore,
    fingerprint,
    seal,
)
from ruleproof.properties.explore.trace_out import write_findings
from ruleproof.spec.reduced import expected_results, load_reduced, reduced, shipped_reduced

CI = "du-2p-1v"


@pytest.fixture(scope="module")
def ci_result() -> ExploreResult:
    return explore(CI)


def _pinned(name: str, symmetry: bool) -> dict[str, object]:
    found = [e for e in expected_results() if e.name == name and e.symmetry == symmetry]
    assert found, f"{name} is not pinned in spec/<game>/reduced/expected.toml"
    e = found[0]
    return {"distinct_states": e.distinct_states, "depth": e.depth, "terminal": e.terminal,
            "dead_ends": e.dead_ends, "traps": e.traps, "violations": e.violations,
            "cycles": e.cycles}


def _got(r: ExploreResult) -> dict[str, object]:
    return {"distinct_states": r.distinct_states, "depth": r.depth, "terminal": r.terminal,
            "dead_ends": r.dead_ends, "traps": r.traps, "violations": r.violations,
            "cycles": r.cycles}


def test_ci_setup_explored_to_exhaustion_matches_the_pinned_counts(ci_result: ExploreResult) -> None:
    assert ci_result.complete
    assert ci_result.distinct_states > 1000 and ci_result.transitions > ci_result.distinct_states
    assert _got(ci_result) == _pinned(CI, False)
    assert ci_result.errors == 0


def test_every_pinned_result_names_a_shipped_configuration() -> None:
    names = set(shipped_reduced())
    pinned = expected_results()
    assert {e.name for e in pinned} <= names
    from ruleproof.properties.plugin import plugins

    games = {reduced(e.name).game for e in pinned if e.profile == "ci"}
    explored = {n for n, p in plugins().items() if p.capabilities.get("explore") is not None}
    assert games == explored, "one CI set-up per game with the explore capability"


@pytest.mark.parametrize("name", ["du-2p-1v", "dr-1x2"])
def test_partitions_share_the_work_and_find_what_one_finds(name: str) -> None:
    """The seen-set split three ways in one process (as over Ray workers): the same result,
    and each partition expands the states it owns, about a third each. (An earlier design
    kept every successor with the partition that found it, so the partition owning the root
    expanded everything and a second worker added nothing.)"""
    one = Explorer(explore_game(name), parts=1).run()
    three = Explorer(explore_game(name), parts=3).run()
    assert one.distinct_states > 1000 and three.verdict() == one.verdict()
    expanded = [n for n, _ in three.per_worker]
    assert len(expanded) == 3 and sum(expanded) == one.per_worker[0][0]
    assert all(0.25 < n / sum(expanded) < 0.42 for n in expanded), expanded


@pytest.mark.parametrize("name", ["du-2p-1v", "dr-1x2", "gruft-3p-1v-s3"])
def test_one_partition_records_the_parent_pointers_several_would(name: str) -> None:
    """One partition with the dict seen-set records each new successor during the expansion
    (no proposals, no decisions): every state gets the same depth and parent pointer (the
    smallest parent fingerprint and action index) as three partitions, which decide among
    proposals, and as compact storage, which records them during the expansion too and keeps
    those its fingerprint set lacks once a level; the frontier is held in the same order."""
    limit = 40_000 if name.startswith("gruft") else None
    one = Explorer(explore_game(name), parts=1, keep_graph=False)
    one.run(max_states=limit)
    three = Explorer(explore_game(name), parts=3, keep_graph=False)
    three.run(max_states=limit)
    assert one.parts[0].held is None and one.level == three.level
    seen_three: dict[int, tuple[int, int, int]] = {}
    for part in three.parts:
        seen_three.update(part.seen)
    assert len(one.parts[0].seen) > 1000 and one.parts[0].seen == seen_three
    assert [fp for fp, _ in one.parts[0].frontier] == sorted(
        fp for part in three.parts for fp, _ in part.frontier)
    small = Explorer(explore_game(name), parts=1, keep_graph=False, compact=True)
    small.run(max_states=limit)
    assert small.parts[0].parent_file is not None
    found = small._lookup(list(one.parts[0].seen))
    assert {fp: v for fp, v in one.parts[0].seen.items()} == found
    assert small.parts[0].fpset is not None
    assert set(small.parts[0].fpset.values().tolist()) == set(one.parts[0].seen)
    assert [fp for fp, _ in small.parts[0].frontier] == [fp for fp, _ in one.parts[0].frontier]


def test_the_cache_of_proposed_fingerprints_changes_no_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A partition remembers the fingerprints it proposed elsewhere, to propose none twice;
    emptied whenever it holds more than a handful, the result stays the same."""
    from ruleproof.properties.explore import search

    one = Explorer(explore_game("du-2p-1v"), parts=1).run()
    monkeypatch.setattr(search, "KNOWN_LIMIT", 5)
    two = Explorer(explore_game("du-2p-1v"), parts=2).run()
    assert two.verdict() == one.verdict()


def test_states_survive_pickling_as_they_travel_between_workers() -> None:
    """States are shipped pickled between workers (the model's own ``__reduce__``): every
    state of a BFS prefix comes back equal and frozen, and so do states of random games with
    the expansion."""
    import pickle

    for name in ("du-3p-1v", "du-2p-1v"):
        game = explore_game(name)
        frontier = [r.state for r in game.roots()]
        states: list[State] = []
        while frontier and len(states) < 3000:
            states += frontier
            frontier = [n for s in frontier if not game.is_terminal(s)
                        for n in game.next_states(s)]
        back = pickle.loads(pickle.dumps(states, pickle.HIGHEST_PROTOCOL))
        assert back == states and all(type(b) is State for b in back)
        with pytest.raises(AttributeError):
            back[0].turn_player = 1
    # the expansion's part of the state (Count Rucola, bats, open graves) too
    import random

    from ruleproof.model.dawn_under import (
        apply,
        legal_actions,
        make_config,
        new_game,
        parse_options,
    )

    config = make_config(4, parse_options({"expansion": "gruft"}))
    played: list[State] = []
    for seed in range(5):
        rng, state = random.Random(seed), new_game(config, seed)
        while state.phase is not Phase.OVER and len(played) < 400 * (seed + 1):
            played.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
    assert all(s.extension is not None for s in played)
    assert pickle.loads(pickle.dumps(played, pickle.HIGHEST_PROTOCOL)) == played


def test_symmetry_reduction_agrees_on_verdicts_and_counts_orbits() -> None:
    name = "du-2p-sym"  # seeded deal + its images: roots closed under the group
    sym = explore_game(name, symmetry=True)
    plain = explore_game(name)
    orbits: set[int] = set()
    check = plain.violations

    def recording(state: object) -> list[str]:
        orbits.add(fingerprint(sym.canonical(sym.view(state))))
        return check(state)

    plain.violations = recording  # type: ignore[method-assign]
    unreduced = Explorer(plain).run()
    reduced_run = explore(name, symmetry=True)
    # the count relation: the reduced run finds exactly the orbits of the unreduced states
    assert reduced_run.distinct_states == len(orbits)
    assert reduced_run.distinct_states * 2 <= unreduced.distinct_states
    for key in ("cycles", "violations", "dead_ends", "errors", "traps"):
        assert bool(getattr(reduced_run, key)) == bool(getattr(unreduced, key)), key
    assert reduced_run.depth == unreduced.depth
    assert _got(unreduced) == _pinned(name, False)
    assert _got(reduced_run) == _pinned(name, True)


def test_canonical_form_is_invariant_under_colour_renaming_and_seat_rotation() -> None:
    game = explore_game("du-3p-1v", symmetry=True)
    assert isinstance(game, DawnUnderExplore)
    state = game.roots()[0].state
    n = state.config.players
    rotated = du_engine._with(state, rows=state.rows[1:] + state.rows[:1],
                              turn_player=(state.turn_player - 1) % n)
    assert game.canonical(game.view(rotated)) == game.canonical(game.view(state))
    # swapping two colours of the same class everywhere
    swap = {0: 1, 1: 0}

    def sw(c: int | None) -> int | None:
        return swap.get(c, c) if c is not None and c >= 0 else c

    renamed = du_engine._with(
        state, lids=tuple(sw(x) for x in state.lids), reserve=tuple(sw(x) for x in state.reserve),
        rows=tuple(tuple(type(v)(sw(v.colour), v.face_up) for v in row) for row in state.rows))
    assert game.canonical(game.view(renamed)) == game.canonical(game.view(state))
    # ... but a real change of the state is not merged
    moved = du_engine._with(state, stakes_path=state.stakes_path - 1,
                            stakes_held=(1, *state.stakes_held[1:]))
    assert game.canonical(game.view(moved)) != game.canonical(game.view(state))


def test_cycle_trace_replays_and_returns_to_its_start(ci_result: ExploreResult,
                                                      tmp_path: Path) -> None:
    cycles = [f for f in ci_result.findings if f.kind == "cycle"]
    assert cycles
    paths = write_findings(ci_result, tmp_path)
    path = paths[ci_result.findings.index(cycles[0])]
    assert replay_file(path).conforms
    trace = parse_trace(path.read_text())
    game = explore_game(CI)
    from ruleproof.properties.explore.games import start_state
    h = trace.header
    state = start_state("dawn-under", dict(h.options), h.seed, dict(h.setup or {}))
    views = [game.view(state)]
    for st in trace.steps:
        state = dict(game.successors(state))[st.action]
        views.append(game.view(state))
    assert views[-1] == views[cycles[0].depth], "the lasso closes on the cycle's entry"


@pytest.fixture()
def rat_lid_lost(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A planted bug: a plague's clean-up forgets to put the rat lid out of play
    (du-en:ch4.cleanup), so a lid goes missing."""
    real = du_engine._close_plague

    def buggy(state: State, plague: Plague) -> State:
        new = real(state, plague)
        return du_engine._with(new, removed_rats=new.removed_rats - 1)

    monkeypatch.setattr(du_engine, "_close_plague", buggy)
    yield


def test_planted_bug_is_found_with_a_shortest_trace(rat_lid_lost: None) -> None:
    result = explore(CI)
    found = [f for f in result.findings if f.kind == "violation"]
    assert found and found[0].message.startswith("lids-accounted")
    f = found[0]
    game = explore_game(CI)
    trace = parse_trace("".join(json.dumps(x) + "\n" for x in f.trace))
    assert len(trace.steps) == f.depth
    from ruleproof.properties.explore.games import start_state
    h = trace.header
    state = start_state("dawn-under", dict(h.options), h.seed, dict(h.setup or {}))
    seen_bad = []
    for st in trace.steps:
        seen_bad.append(bool(game.violations(state)))
        state = dict(game.successors(state))[st.action]
    assert not any(seen_bad) and game.violations(state), "only the last state violates"
    # shortest: no violating state lies at a smaller BFS depth
    assert f.depth == min(d.depth for d in found)


_PLANTED = {
    # engine function -> (how it is broken, the invariant that must catch it)
    "_start_gifts/garlic": "garlic-conserved",  # a garlic found in a grave is not given back
    "_take_stake": "stakes-conserved",  # taking a stake loses another one
    "_remove_end": "vampires-conserved",  # a vampire leaving a row changes colour
}


@pytest.mark.parametrize("bug", sorted(_PLANTED))
def test_planted_conservation_bugs_are_found(bug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each conservation invariant's fast path (plain counting, properties/dawn_under/
    invariants.py) still catches a planted bug of the engine, on the first state it breaks."""
    if bug.startswith("_start_gifts"):
        real_gifts = du_engine._start_gifts

        def buggy_gifts(state: State, gifts: tuple[object, ...], events: list[object],
                        **changes: object) -> State:
            changes.pop("garlic_hand", None)
            return real_gifts(state, gifts, events, **changes)  # type: ignore[arg-type]

        monkeypatch.setattr(du_engine, "_start_gifts", buggy_gifts)
    elif bug == "_take_stake":
        real_stake = du_engine._take_stake

        def buggy_stake(state: State, player: int, events: list[object],
                        clause: str = "du-en:ch2.stake") -> State:
            new = real_stake(state, player, events, clause)  # type: ignore[arg-type]
            return du_engine._with(new, stakes_path=new.stakes_path - 1)

        monkeypatch.setattr(du_engine, "_take_stake", buggy_stake)
    else:
        real_end = du_engine._remove_end

        def buggy_end(row: object, end: object, config: Config) -> tuple[int, object]:
            colour, rest = real_end(row, end, config)  # type: ignore[arg-type]
            return (colour + 1) % len(config.colours), rest

        monkeypatch.setattr(du_engine, "_remove_end", buggy_end)
    result = explore(CI)
    found = [f for f in result.findings if f.kind == "violation"]
    assert found and result.violations > 0
    assert {f.message.split(":")[0] for f in found} >= {_PLANTED[bug]}


def _all_states(name: str) -> list[State]:
    game = explore_game(name)
    states: list[State] = []
    check = game.violations

    def recording(state: State) -> list[str]:
        states.append(state)
        return check(state)

    game.violations = recording  # type: ignore[method-assign]
    assert Explorer(game, keep_graph=False).run().complete
    return states


def test_state_codes_are_injective_and_equal_the_unrelabelled_encoding() -> None:
    """The compact code (properties/dawn_under/explore.py) is one-to-one on the view: as many
    distinct codes, and fingerprints, as distinct views (a field left out of the code would
    merge views); the memoised fast path equals the general encoder that symmetry uses."""
    from ruleproof.properties.dawn_under.explore import (
        encode_fields,
        state_code,
        view_fields,
    )
    states = _all_states(CI)
    n = states[0].config.players
    memo: dict[int, tuple[object, tuple[int, ...]]] = {}
    codes = [state_code(s, memo) for s in states]
    assert codes == [encode_fields(view_fields(s), 0, n, None) for s in states]
    assert codes == [state_code(s, {}) for s in states]  # the memo changes nothing
    views = {view_fields(s) for s in states}
    assert len(views) == len(states), "the explorer met a state twice"
    assert len(set(codes)) == len(views)
    assert len({fingerprint(c) for c in codes}) == len(views)
    assert all(0 <= x < 256 for c in codes for x in c)
    # the parts that vary least often are reached too (a plague, a pending gift, a vampire
    # in transit, windows and barred graves of the 2-player game)
    assert any(s.plague for s in states) and any(s.gifts for s in states)
    assert any(s.in_transit is not None for s in states) and any(s.barred for s in states)


def _bfs_prefix(name: str, count: int) -> list[State]:
    """The first ``count`` states a BFS of ``name`` meets (repeats included)."""
    game = explore_game(name)
    frontier = [r.state for r in game.roots()]
    out: list[State] = []
    while frontier and len(out) < count:
        nxt: list[State] = []
        for s in frontier:
            out.append(s)
            if not game.is_terminal(s):
                nxt += game.next_states(s)
        frontier = nxt
    return out[:count]


def _same_partition(keys: list[object], fps: list[int]) -> None:
    """``fps`` is a function of ``keys`` and tells apart every two of them that differ."""
    by_key: dict[object, set[int]] = {}
    by_fp: dict[int, set[object]] = {}
    for k, f in zip(keys, fps, strict=True):
        by_key.setdefault(k, set()).add(f)
        by_fp.setdefault(f, set()).add(k)
    assert all(len(v) == 1 for v in by_key.values()), "one code, two fingerprints"
    split = [v for v in by_fp.values() if len(v) > 1]
    assert not split, f"{len(split)} fingerprint(s) shared by different codes"


def test_fingerprints_tell_apart_exactly_the_codes() -> None:
    """``state_fp`` (the explorer's fingerprint without symmetry: digests of the parts cached
    by identity, one tuple hash) is a function of ``state_code`` that tells apart every two
    states whose codes differ: on every state of du-2p-1v, and on BFS prefixes of the
    expansion's set-ups with the Count and bats (gruft-3p-1v-s3) and with rows of two and the
    Count in the box; computed with a fresh cache and a warm one (hits by identity) alike."""
    from ruleproof.properties.dawn_under.explore import state_code, state_fp

    for name, states in ((CI, _all_states(CI)),
                         ("gruft-3p-1v-s3", _bfs_prefix("gruft-3p-1v-s3", 6000)),
                         ("gruft-3p-1v-s3-red2-lx-b1-c0-r0-g0",
                          _bfs_prefix("gruft-3p-1v-s3-red2-lx-b1-c0-r0-g0", 6000))):
        game = explore_game(name)
        memo: dict[int, tuple[object, tuple[int, ...]]] = {}
        assert any(s.extension is not None for s in states) == (name != CI)
        codes: list[object] = [state_code(s, memo) for s in states]
        assert len(set(codes)) > len(states) // 10
        warm = [game.fp(s) for s in states]
        _same_partition(codes, warm)
        assert warm == [state_fp(s, {}) for s in states]


def test_fingerprints_beyond_a_byte_and_of_unknown_extension_parts() -> None:
    """An int beyond a byte in a part's code (a grave id in ``windows``, a row longer than
    255 would be others) is digested from the code's 64-bit ints, not refused; an expansion
    part that is not the Gruft dataclass is digested from its ``repr``."""
    from dataclasses import replace

    from ruleproof.properties.dawn_under.explore import state_fp

    s = _all_states(CI)[0]
    a = replace(s, windows=((300,), ()))
    b = replace(s, windows=((301,), ()))
    assert len({state_fp(x, {}) for x in (s, a, b)}) == 3
    assert state_fp(a, {}) == state_fp(replace(s, windows=((300,), ())), {})
    c = replace(s, extension=("some", "part"))
    d = replace(s, extension=("some", "other"))
    assert len({state_fp(x, {}) for x in (s, c, d)}) == 3


def test_gruft_key_reads_every_field_of_the_expansion_part() -> None:
    """The fingerprint reads the expansion's part field by field: a field added to ``Gruft``
    and not to the key would let two different states share a fingerprint. (If this fails:
    add the field to ``_gruft_key`` and ``GRUFT_KEY_FIELDS``.)"""
    from dataclasses import fields

    from ruleproof.model.dawn_under.gruft.state import Gruft
    from ruleproof.properties.dawn_under.explore import GRUFT_KEY_FIELDS

    assert tuple(f.name for f in fields(Gruft)) == GRUFT_KEY_FIELDS


def test_fingerprints_do_not_depend_on_the_process_hash_seed() -> None:
    """Python randomises the hashes of strings per process (and of None before 3.12); the
    fingerprint hashes no such value, so two processes with different hash seeds (Ray
    workers, a resumed checkpoint) compute the same fingerprints."""
    import subprocess
    import sys

    script = ("from ruleproof.properties.explore.games import explore_game\n"
              "g = explore_game('gruft-3p-1v-s3')\n"
              "f = [r.state for r in g.roots()]\n"
              "out = []\n"
              "for _ in range(6):\n"
              "    f = [x for s in f if not g.is_terminal(s) for x in g.next_states(s)][:300]\n"
              "    out += [g.fp(x) for x in f]\n"
              "print(out)\n")
    runs = {subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                           text=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2")}
    assert len(runs) == 1 and len(next(iter(runs))) > 100


def test_one_pass_step_checks_equal_the_checks_one_by_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Dawn Under's ``checked_next_states`` (each action stepped once, its events read by
    the expansion's transition properties) gives the successors and step violations of the
    generic definition (``successors`` then ``step_violations`` per transition, which steps
    again), contracts on and off, also when a transition property is broken (planted)."""
    import ruleproof.properties.dawn_under.explore as du_explore
    from ruleproof.properties.explore.games import ExploreGame

    def planted(before: State, events: tuple[object, ...], after: State) -> list[str]:
        return [f"planted {len(events)}"] if len(events) % 2 else []

    for plant in (False, True):
        if plant:
            monkeypatch.setattr(du_explore, "transition_violations", planted)
        for contracts in (False, True):
            game = explore_game("gruft-3p-1v-s3", contracts=contracts)
            reported = 0
            for s in _bfs_prefix("gruft-3p-1v-s3", 1500 if contracts else 4000):
                if game.is_terminal(s):
                    continue
                nexts, bad = game.checked_next_states(s)
                ref, ref_bad = ExploreGame.checked_next_states(game, s)
                assert [game.fp(x) for x in nexts] == [game.fp(x) for x in ref]
                assert bad == ref_bad
                reported += len(bad)
            assert (reported > 0) == plant
    # and in a search: the planted property is found, with a trace
    result = explore("gruft-3p-1v-s3", max_states=3000, keep_graph=False)
    assert result.violations > 0
    assert any(f.message.startswith("step ") and "planted" in f.message
               for f in result.findings)


def test_invariant_fast_paths_agree_with_the_counting_definitions() -> None:
    """vampires-conserved, garlic-conserved and lids-accounted count with plain dicts; on
    states broken on purpose they report exactly when the Counter definitions say so."""
    from dataclasses import replace

    from ruleproof.model.dawn_under.state import RAT, GarlicIn, Vampire
    from ruleproof.properties.dawn_under.invariants import (
        Totals,
        garlic_conserved,
        garlic_totals,
        lid_counts,
        lids_accounted,
        vampire_counts,
        vampires_conserved,
    )
    states = _all_states(CI)[::50]
    totals = Totals.of_manifest(states[0].config)
    broken = 0
    for s in states:
        row0 = s.rows[0]
        variants = [
            s,
            replace(s, garlic_hand=(s.garlic_hand[0] + 1, *s.garlic_hand[1:])),
            replace(s, garlic_hand=(-1, *s.garlic_hand[1:])),
            replace(s, contents=(GarlicIn(1), *s.contents[1:])),
            replace(s, reserve=(*s.reserve, RAT)),
            replace(s, reserve=s.reserve[1:]),
            replace(s, removed_rats=s.removed_rats + 1),
            replace(s, lids=(None, *s.lids[1:])),
            replace(s, in_transit=0),
        ]
        if row0:
            variants.append(replace(s, rows=((Vampire(row0[0].colour ^ 1, row0[0].face_up),
                                              *row0[1:]), *s.rows[1:])))
        for v in variants:
            want_v = tuple(sorted((c, k) for c, k in vampire_counts(v).items() if k)) \
                == tuple((c, k) for c, k in totals.vampires if k)
            want_g = garlic_totals(v) == totals.garlic and min(v.garlic_hand) >= 0
            want_l = tuple(sorted((c, k) for c, k in lid_counts(v).items() if k)) \
                == tuple((c, k) for c, k in totals.lids if k) and RAT not in v.reserve
            assert (not vampires_conserved(v, totals)) == want_v
            assert (not garlic_conserved(v, totals)) == want_g
            assert (not lids_accounted(v, totals)) == want_l
            broken += (not want_v) + (not want_g) + (not want_l)
    assert broken > 5 * len(states)


def test_planted_dead_end_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = du_engine.legal_actions

    def no_garlic_choice(state: State) -> tuple[Action, ...]:
        return () if state.phase is Phase.PLACE else real(state)

    monkeypatch.setattr("ruleproof.properties.dawn_under.explore.du_legal", no_garlic_choice)
    result = explore(CI, max_states=3000)
    assert result.dead_ends > 0
    dead = [f for f in result.findings if f.kind == "dead-end"]
    assert dead and dead[0].trace[-1]["action"].startswith("open")


def test_graph_analysis_on_small_graphs() -> None:
    edges = {1: (2, 3), 2: (4,), 3: (5,), 4: (), 5: (6,), 6: (5,)}
    assert _traps(edges, {4}) == {3, 5, 6}
    cyclic, comp = _cycle_nodes(edges)
    assert cyclic == {5, 6}
    assert _shortest_loop(5, edges, comp) == [0, 0]
    self_loop = {1: (1, 2), 2: ()}
    assert _cycle_nodes(self_loop)[0] == {1}
    assert _cycle_nodes({1: (2,), 2: ()})[0] == set()


def test_checkpoint_and_resume_give_the_uninterrupted_result(ci_result: ExploreResult,
                                                             tmp_path: Path) -> None:
    ck = tmp_path / "run.ckpt"
    partial = explore(CI, max_states=2000, checkpoint=ck)
    assert not partial.complete and ck.is_file()
    resumed = explore(CI, checkpoint=ck, resume=True)
    assert resumed.verdict() == ci_result.verdict()


def test_reduced_files_are_validated(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "dawn-under"\nname = "bad"\ndescription = "x"\nplayers = 3\n'
                   'board = "dawn_under/boards/reduced-10.toml"\nseeds = [0]\n\n'
                   '[count.stakes]\nvalue = 13\nfull = 13\n')
    with pytest.raises(MalformedInput) as err:
        load_reduced(bad)
    assert "not a reduction" in err.value.what and "why" in err.value.what
    assert err.value.line == 8
    wrong_full = tmp_path / "wrong.toml"
    text = reduced("du-3p-1v").path
    wrong_full.write_text(Path(text).read_text().replace("full = 13", "full = 12"))
    with pytest.raises(MalformedInput, match="full value is 13"):
        du_config(load_reduced(wrong_full))
    short = tmp_path / "short.toml"
    short.write_text(Path(text).read_text().replace("[count.reserve_lids]\nvalue = 2",
                                                    "[count.reserve_lids]\nvalue = 1"))
    with pytest.raises(MalformedInput, match=r"reserve|lids on the board"):
        du_config(load_reduced(short))
    twice = tmp_path / "twice.toml"  # accepted before, then read as broken invariants
    twice.write_text(Path(text).read_text().replace('value = ["red", "yellow", "white"]',
                                                    'value = ["red", "red", "yellow"]', 1))
    assert twice.read_text() != Path(text).read_text()
    with pytest.raises(MalformedInput, match="'red' listed twice"):
        du_config(load_reduced(twice))
    two = Path(reduced("du-2p-1v").path).read_text()
    no_lids = tmp_path / "no-lids.toml"  # was an IndexError finding at the deal
    no_lids.write_text(two.replace("[count.coloured_lids_per_colour]\nvalue = 2",
                                   "[count.coloured_lids_per_colour]\nvalue = 0"))
    with pytest.raises(MalformedInput, match=r"reserve takes 1 lid.* from 0 coloured"):
        du_config(load_reduced(no_lids))
    negative = tmp_path / "negative.toml"
    negative.write_text(two.replace("[count.stakes]\nvalue = 4", "[count.stakes]\nvalue = -1"))
    with pytest.raises(MalformedInput, match="stakes: value must be a whole number") as err:
        du_config(load_reduced(negative))
    assert err.value.line == negative.read_text().splitlines().index("[count.stakes]") + 1
    dry = tmp_path / "dry.toml"  # rows of three, 4 stakes: every player holds two, path empty
    dry.write_text(two.replace("[count.vampires_per_colour]\nvalue = 1",
                               "[count.vampires_per_colour]\nvalue = 3"))
    with pytest.raises(MalformedInput, match=r"4 stakes can run out .* keep at least 5") as err:
        du_config(load_reduced(dry))
    assert err.value.line == dry.read_text().splitlines().index("[count.stakes]") + 1
    wrong_name = tmp_path / "wrong-name.toml"  # the 3-6 player name in a 2-player file
    wrong_name.write_text(two.replace("[count.rat_lids_2p]", "[count.rat_lids]"))
    with pytest.raises(MalformedInput, match="rat_lids: the preset is 2p, whose count is "
                                             "rat_lids_2p"):
        du_config(load_reduced(wrong_name))
    no_graves = tmp_path / "no-graves.toml"  # was eleven lines blaming the board file
    no_graves.write_text(two.replace("[count.graves]\nvalue = 10", "[count.graves]\nvalue = -3"))
    with pytest.raises(MalformedInput, match="count graves: value must be 1 or more") as err:
        du_config(load_reduced(no_graves))
    assert err.value.file == str(no_graves)
    assert err.value.line == two.splitlines().index("[count.graves]") + 1


def test_a_user_board_next_to_a_user_reduced_file(tmp_path: Path) -> None:
    from ruleproof.spec import spec_path
    board = spec_path("dawn_under", "boards", "reduced-10.toml").read_text()
    (tmp_path / "my-board.toml").write_text(board.replace("dawn-under-reduced-10", "mine"))
    text = Path(reduced("du-2p-1v").path).read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('"dawn_under/boards/reduced-10.toml"', '"my-board.toml"')
                    .replace('name = "du-2p-1v"', 'name = "mine"'))
    config = du_config(load_reduced(mine))
    assert config.board.name == "mine" and config.board.size == 10
    result = explore(str(mine), max_states=500)
    assert result.distinct_states >= 500 and not result.complete
    root = explore_game(str(mine)).roots()[0]
    assert root.header["options"]["reduced"] == str(mine)  # a replay finds the user's file


def test_reduced_config_carries_the_counts() -> None:
    config: Config = du_config(reduced("du-3p-1v"))
    assert config.board.size == 10 and config.vampires_per_colour == 1
    assert config.stakes == 4 and config.garlic == 1 and len(config.lid_colours) == 5


def test_cli_explore_pinned_json_and_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["explore", CI, "--allow", "cycles", "--pinned", "--json",
                              "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["passed"] and data["complete"] and data["distinct_states"] > 0
    assert data["pinned"] is True  # the comparison is reported, not only its failure
    res = runner.invoke(app, ["explore", CI, "--allow", "cycles", "--pinned",
                              "--out", str(tmp_path / "out")])
    assert "counts as pinned in " in res.output and \
        str(Path("spec/dawn_under/reduced/expected.toml")) in res.output
    res = runner.invoke(app, ["explore", "--resume", "run.ckpt"])
    assert res.exit_code == 2 and "--checkpoint run.ckpt --resume" in res.output
    res = runner.invoke(app, ["explore", CI, "--out", str(tmp_path / "out2")])
    assert res.exit_code == 1 and "cycles" in res.output
    res = runner.invoke(app, ["explore", "no-such-setup"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    res = runner.invoke(app, ["explore", "--profile", "nope"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["explore", "--list"])
    assert res.exit_code == 0 and CI in res.output
    res = runner.invoke(app, ["explore", CI, "--checkpoint-every", "5"])  # would be ignored
    assert res.exit_code == 2 and "--checkpoint FILE" in res.output


def test_dracula_ci_setup_explored_to_exhaustion_with_every_chance_outcome(tmp_path: Path) -> None:
    result = explore("dr-1x2")
    assert result.complete and result.errors == 0
    assert _got(result) == _pinned("dr-1x2", False)
    cycle = next(f for f in result.findings if f.kind == "cycle")
    path = write_findings(result, tmp_path)[result.findings.index(cycle)]
    assert replay_file(path).conforms
    assert any(line.get("action", "").startswith("chance") for line in cycle.trace)


def test_views_cover_every_state_field_the_model_has() -> None:
    """A field added to a model's state must be put into the explorer's view (or argued out of
    it in properties/<game>/explore.py and docs/explore.md): otherwise states that differ in it
    would be merged unsoundly."""
    from dataclasses import fields

    from ruleproof.model.dracula.state import State as DraculaState
    du_out = {"config", "known", "placed_this_turn"}
    du_in = {"lids", "contents", "rows", "stakes_held", "stakes_path", "garlic_hand", "reserve",
             "removed_rats", "turn_player", "phase", "may_stop", "pending", "plague", "gifts",
             "in_transit", "winner", "windows", "barred", "extension"}
    assert {f.name for f in fields(State)} == du_out | du_in
    dr_out = {"rules", "cards", "board", "seed", "step", "log", "reason", "_legal", "_draft",
              "known", "turn"}
    dr_in = {"agenda", "board_cards", "pos", "hand", "pool", "enc_discard", "captured", "life",
             "current", "aside", "adiscard", "barriers", "active", "steps", "can_look",
             "revealed", "played", "use_special", "battle_won", "breath_turn", "whisper_turn",
             "vigilance", "turned", "winner"}
    assert {f.name for f in fields(DraculaState)} == dr_out | dr_in


def test_replay_refuses_the_expansion_in_a_reduced_game(ci_result: ExploreResult,
                                                        tmp_path: Path) -> None:
    """A trace of a reduced configuration whose header asks for the expansion: the reduced
    configurations model the base game only, so replay refuses it (not plays the base game)."""
    path = write_findings(ci_result, tmp_path)[0]
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert "reduced" in header["options"]
    header["expansion"] = "gruft"
    bad = tmp_path / "gruft.jsonl"
    bad.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    res = CliRunner().invoke(app, ["replay", str(bad)])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and "expansion" in res.output


def test_a_pickled_checkpoint_is_refused_without_being_run(tmp_path: Path) -> None:
    """--resume reads JSON only: a crafted pickle (which would run code when unpickled) and
    an old-style pickle with missing keys are refused with one line, exit 2."""
    import os
    import pickle

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return os.mkdir, (str(marker),)

    runner = CliRunner()
    for i, obj in enumerate(({"version": 3, "x": Payload()}, {"version": 2},
                             {"version": 3, "format": "ruleproof-explore-checkpoint"})):
        ck = tmp_path / f"ck{i}"
        ck.write_bytes(pickle.dumps(obj))
        res = runner.invoke(app, ["explore", CI, "--checkpoint", str(ck), "--resume"])
        assert not marker.exists(), "the checkpoint's pickle ran code"
        assert res.exit_code == 2, res.output
        assert res.output.count("\n") == 1
        assert "not a ruleproof explore checkpoint (" in res.output


def _checkpoint(tmp_path: Path, **run: object) -> tuple[Path, dict[str, object]]:
    ck = tmp_path / "run.ckpt"
    explore(CI, checkpoint=ck, **run)  # type: ignore[arg-type]
    data = json.loads(ck.read_text())  # a checkpoint is plain JSON
    assert isinstance(data, dict) and data["name"] == CI  # by name: resumes in any checkout
    del data["sha256"]
    return ck, data


def _reseal(ck: Path, data: dict[str, object]) -> None:
    """Write an edited checkpoint with a matching sha256, so that what is tested is the
    check of its content, not the seal's."""
    ck.write_text(seal(json.dumps(data, separators=(",", ":"))))


@pytest.mark.parametrize("spoil", [
    "no-seen", "seen-str", "level-str", "terminal-str", "version", "frontier-unknown",
    "wrong-index", "wrong-fp", "edges-row", "symmetry-int", "frontier-empty", "frontier-cut",
    "edges-junk", "expanded-high", "seen-twice"])
def test_a_malformed_checkpoint_is_one_line_exit_2(tmp_path: Path, spoil: str) -> None:
    ck, data = _checkpoint(tmp_path, max_states=500)
    seen = data["seen"]
    assert isinstance(seen, list) and len(seen) % 4 == 0
    frontier = data["frontier"]
    assert isinstance(frontier, list) and frontier
    if spoil == "no-seen":
        del data["seen"]
    elif spoil == "seen-str":
        data["seen"] = "everything"
    elif spoil == "level-str":
        data["level"] = "9"
    elif spoil == "terminal-str":
        data["report"]["terminal"] = ["x"]  # type: ignore[index]
    elif spoil == "version":
        data["version"] = 2
    elif spoil == "frontier-unknown":
        frontier.append(12345)
    elif spoil == "wrong-index":  # a frontier state's action index does not exist
        i = seen[::4].index(frontier[0]) * 4
        seen[i + 3] = 999
    elif spoil == "wrong-fp":  # a frontier state's fingerprint is not its state's
        i = seen[::4].index(frontier[0]) * 4
        seen[i] = frontier[0] = frontier[0] ^ 1
    elif spoil == "edges-row":
        data["edges"] = [[]]
    elif spoil == "symmetry-int":
        data["symmetry"] = 1
    elif spoil == "frontier-empty":  # it would resume to "complete" with a part of the states
        data["frontier"] = []
    elif spoil == "frontier-cut":
        del frontier[-1]
    elif spoil == "edges-junk":
        data["edges"] = [[5, 6, 7]]
    elif spoil == "expanded-high":
        data["report"]["expanded"] = len(seen)  # type: ignore[index]
    elif spoil == "seen-twice":
        data["seen"] = seen + seen[:4]
    _reseal(ck, data)
    res = CliRunner().invoke(app, ["explore", "--checkpoint", str(ck), "--resume"])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1
    assert f"{ck}: not a ruleproof explore checkpoint (" in res.output


def test_a_fresh_run_never_replaces_an_existing_checkpoint(tmp_path: Path) -> None:
    """Without --resume, an existing --checkpoint file is refused in one line (exit 2) and
    left as it was: it may hold hours of an earlier run."""
    ck, _ = _checkpoint(tmp_path, max_states=500)
    before = ck.read_bytes()
    res = CliRunner().invoke(app, ["explore", CI, "--checkpoint", str(ck)])
    assert res.exit_code == 2, res.output
    assert f"--checkpoint {ck}: the file exists" in res.output and "--resume" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert ck.read_bytes() == before
    resumed = explore(CI, checkpoint=ck, resume=True, max_states=600)
    assert resumed.distinct_states >= 500


def test_a_checkpoint_is_sealed_and_capped(tmp_path: Path) -> None:
    """An edit that keeps the JSON valid breaks the seal; a duplicate key and a huge file are
    refused (the huge one unread: it is sparse, the limit is checked on its size)."""
    from ruleproof.properties.explore import search

    ck, data = _checkpoint(tmp_path, max_states=500)
    good = ck.read_text()
    resumed = Explorer.resume(ck)  # the file as written resumes
    assert resumed.resumed_from == len(data["seen"]) // 4  # type: ignore[arg-type]
    cases = {
        "stale": good.replace('"seconds":', '"seconds":1', 1),
        "unsealed": json.dumps(data),
        "duplicate": seal(json.dumps(data, separators=(",", ":")).replace(
            '"level":', '"level":0,"level":', 1)),
    }
    words = {"stale": "does not match its sha256", "unsealed": 'no "sha256"',
             "duplicate": "'level' appears twice"}
    for case, text in cases.items():
        ck.write_text(text)
        with pytest.raises(MalformedInput, match=words[case]):
            Explorer.resume(ck)
    with ck.open("wb") as fh:
        fh.truncate(search.CHECKPOINT_MAX_BYTES + 1)
    with pytest.raises(MalformedInput, match="more than the limit"):
        Explorer.resume(ck)


def test_resume_refuses_a_different_configuration_or_flags(tmp_path: Path) -> None:
    ck, _ = _checkpoint(tmp_path, max_states=500)
    runner = CliRunner()
    for extra, word in ((["du-3p-1v"], "du-3p-1v"), ([CI, "--symmetry"], "--symmetry"),
                        (["--contracts"], "--contracts"), ([CI, "--no-graph"], "--no-graph")):
        res = runner.invoke(app, ["explore", *extra, "--checkpoint", str(ck), "--resume",
                                  "--max-seconds", "5"])
        assert res.exit_code == 2, (extra, res.output)
        assert res.output.count("\n") == 1 and word in res.output
    res = runner.invoke(app, ["explore", CI, "--no-symmetry", "--checkpoint", str(ck),
                              "--resume", "--max-states", "600", "--out", str(tmp_path / "o")])
    assert res.exit_code == 1 and "this run added" in res.output, res.output


def test_resume_gets_its_own_time_and_says_when_it_did_nothing(ci_result: ExploreResult,
                                                              tmp_path: Path) -> None:
    ck, data = _checkpoint(tmp_path, max_states=500)
    data["seconds"] = 1000.0  # the earlier runs took long: the resumed run's limit is its own
    _reseal(ck, data)
    resumed = explore(CI, checkpoint=ck, resume=True, max_seconds=500)
    assert resumed.complete and resumed.new_states > 0
    assert resumed.verdict() == ci_result.verdict()
    runner = CliRunner()
    res = runner.invoke(app, ["explore", CI, "--checkpoint", str(ck), "--resume", "--allow",
                              "cycles", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0 and "this run did no work" in res.output, res.output
    (tmp_path / "again").mkdir()
    ck2, _ = _checkpoint(tmp_path / "again", max_states=500)
    stuck = explore(CI, checkpoint=ck2, resume=True, max_states=10)
    assert stuck.new_states == 0 and "the resumed run explored no new state" in stuck.problems()


def test_cli_explore_refuses_flags_it_would_ignore_and_unwritable_checkpoints(
        tmp_path: Path) -> None:
    runner = CliRunner()
    for args, word in ((["--profile", "ci", "--workers", "2", "--checkpoint", "X"], "--workers"),
                       (["--list", "--workers", "5", "--ray-address", "127.0.0.1:1"],
                        "--ray-address"),
                       (["--list", "--symmetry"], "--symmetry"),
                       ([CI, "--checkpoint-every", "60"], "--checkpoint FILE"),
                       ([CI, "--ray-address", ""], "'--ray-address': an empty value"),
                       ([CI, "--checkpoint", "/nonexistent/dir/ck"], "--checkpoint"),
                       ([CI, "--checkpoint", str(tmp_path)], "--checkpoint")):
        res = runner.invoke(app, ["explore", *args])
        assert res.exit_code == 2, (args, res.output)
        assert res.output.count("\n") == 1 and word in res.output, res.output
        assert "explored" not in res.output and "states" not in res.output


def test_cli_checks_the_clause_contracts_by_default(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """A planted bug no invariant sees: play passes counter-clockwise (against
    du-en:play.clockwise). ``ruleproof explore`` finds it without being asked for contracts;
    ``--no-contracts`` does not, and says so."""
    monkeypatch.setattr(du_engine, "_left", lambda config, p: (p - 1) % config.players)
    runner = CliRunner()
    args = ["explore", "du-3p-1v", "--max-states", "3000", "--json", "--out", str(tmp_path)]
    found = json.loads(runner.invoke(app, args).output)
    assert found["contracts"] is True and found["violations"] > 0
    assert any("du-en:play.clockwise" in f["message"] for f in found["findings"])
    quiet = runner.invoke(app, [*args, "--no-contracts"])
    data = json.loads(quiet.output)
    assert data["contracts"] is False and data["violations"] == 0
    assert data["distinct_states"] >= 3000  # the same work, the bug unseen
    text = runner.invoke(app, [*args[:-3], "--no-contracts", "--out", str(tmp_path)]).output
    assert "clause contracts not checked (--no-contracts)" in text


def test_workers_refuse_bad_input_before_ray_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown configuration, or more local workers than CPUs, is one error at once: Ray
    (seconds to start) is not started for it (hostile review 2)."""
    ray = pytest.importorskip("ray", reason="the [ray] extra is not installed")
    from ruleproof.properties.explore import distributed

    if ray.is_initialized():
        pytest.skip("a Ray runs already in this process")
    with pytest.raises(MalformedInput, match="nosuch"):
        distributed.explore_distributed("nosuch", workers=2)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    with pytest.raises(MalformedInput, match="--workers 3: this machine has 2 CPUs"):
        distributed.explore_distributed("dr-1x2", workers=3)
    assert not ray.is_initialized()


# ----------------------------------------------------------------------------- a game is a folder


def _no_explore() -> object:
    """A registered game whose plugin record has no ``explore`` capability (Dracula's record
    under another name, without capabilities, and with no data folder)."""
    from dataclasses import replace

    from ruleproof.properties.plugin import plugin

    return replace(plugin("dracula"), name="no-explore", capabilities={}, sources=(),
                   spec_folder=Path("/nonexistent-game-folder"))


NO_EXPLORE = _no_explore()


def _reduced_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = Path(reduced(name).path).read_text()
    assert old in text
    out = tmp_path / f"{name}-{len(list(tmp_path.iterdir()))}.toml"  # reduced() caches by path
    out.write_text(text.replace(old, new, 1))
    return out


def test_a_game_without_the_explore_capability_is_refused_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleproof.properties.plugin import Unsupported

    monkeypatch.setenv("RULEPROOF_PLUGINS", f"{__name__}:NO_EXPLORE")
    path = _reduced_copy(tmp_path, "dr-1x2", 'game = "dracula"', 'game = "no-explore"')
    with pytest.raises(Unsupported, match=r"no-explore has no explore capability.*exhaustive "
                                          "exploration"):
        explore_game(str(path))
    res = CliRunner().invoke(app, ["explore", str(path)])
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "no explore capability" in res.output


def test_an_unknown_game_or_player_count_in_a_reduced_file_is_one_error(tmp_path: Path) -> None:
    path = _reduced_copy(tmp_path, "dr-1x2", 'game = "dracula"', 'game = "chess"')
    with pytest.raises(MalformedInput) as err:
        explore_game(str(path))
    assert "unknown game 'chess'" in err.value.what
    assert "dawn-under" in err.value.what and "dracula" in err.value.what  # the known games
    assert err.value.file == str(path) and err.value.line == 5
    three = _reduced_copy(tmp_path, "dr-1x2", "players = 2", "players = 3")
    with pytest.raises(MalformedInput, match="'players' must be one of 2 for dracula, got 3"):
        explore_game(str(three))
    seven = _reduced_copy(tmp_path, "du-3p-1v", "players = 3", "players = 7")
    with pytest.raises(MalformedInput, match=r"one of 2, 3, 4, 5, 6 for dawn-under, got 7"
                       ) as err:
        explore_game(str(seven))
    assert err.value.line == Path(seven).read_text().splitlines().index("players = 7") + 1
    from ruleproof.properties.explore.games import start_state
    with pytest.raises(MalformedInput, match="is for dracula, not dawn-under"):
        start_state("dawn-under", {"reduced": "dr-1x2"}, 0, None)


def test_each_game_validates_its_own_part_of_a_reduced_file(tmp_path: Path) -> None:
    """The spec layer reads the common fields; the game's capability checks its own, with the
    file and line (Dracula's grid, Dawn Under's board and seeds)."""
    from ruleproof.properties.explore.games import support

    for name in shipped_reduced():
        spec = reduced(name)
        assert support(spec).parse(spec) is not None
    rows = _reduced_copy(tmp_path, "dr-1x4", "rows = 1", "rows = 5")
    with pytest.raises(MalformedInput, match=r"'rows' must be 1\.\.3") as err:
        explore_game(str(rows))
    assert err.value.line == Path(rows).read_text().splitlines().index("rows = 5") + 1
    seeds = _reduced_copy(tmp_path, "du-2p-1v", "seeds = [0, 1, 2, 3]", "seeds = []")
    with pytest.raises(MalformedInput, match="'seeds' must list") as err:
        explore_game(str(seeds))
    assert err.value.line == Path(seeds).read_text().splitlines().index("seeds = []") + 1
    huge = _reduced_copy(tmp_path, "du-2p-1v", "seeds = [0, 1, 2, 3]",
                         f"seeds = [0, {2**63}]")  # the API refuses it as a seed too
    with pytest.raises(MalformedInput, match="'seeds' must list"):
        explore_game(str(huge))
    board = _reduced_copy(tmp_path, "du-2p-1v", "reduced-10.toml", "nowhere.toml")
    with pytest.raises(MalformedInput, match="'board' must name a board file"):
        explore_game(str(board))
    # the common part alone loads: the game's own keys are kept as read for the game
    assert load_reduced(rows).table["rows"] == 5


def test_the_generic_explorer_names_no_game_and_imports_none() -> None:
    """properties/explore/, spec/reduced.py and the explore command reach a game only through
    the registry: no string names a game, a source or a preset, and nothing imports a game's
    model or properties (issue #23)."""
    import ast

    from ruleproof.properties.plugin import plugins

    repo = Path(__file__).resolve().parents[1]
    files = [*sorted((repo / "properties" / "explore").glob("*.py")), repo / "spec" / "reduced.py",
             repo / "ruleproof" / "cli" / "explore.py"]
    packages = {p.package for p in plugins().values()} | {"gruft", "expansions"}
    banned_modules = tuple(f"ruleproof.{layer}.{pkg}" for layer in ("model", "properties")
                           for pkg in packages)
    words = {w for p in plugins().values() for w in (p.name, *p.sources, *p.presets())}
    words |= {"dawn", "gruft"}
    found: list[str] = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.lower()
                found += [f"{path.name}: {w!r}" for w in words
                          if (w in text if len(w) > 3 else text == w)]
            elif isinstance(node, ast.ImportFrom | ast.Import):
                mods = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                    a.name for a in node.names]
                found += [f"{path.name}: import {m}" for m in mods
                          if m.startswith(banned_modules)]
    assert len(files) >= 8 and not found, found


def test_a_compact_pin_leaves_out_what_needs_the_graph(tmp_path: Path) -> None:
    """A pinned result with ``compact = true`` is explored with compact storage and no state
    graph, so it pins no traps or cycles: leaving them out reads as None (never compared),
    writing them is refused at the entry's line, and so is a ``compact`` that is no bool."""
    head = ('[[result]]\nname = "x"\nsymmetry = false\ndistinct_states = 5\ndepth = 2\n'
            'terminal = 1\ndead_ends = 0\nviolations = 0\nprofile = "thorough"\n')
    path = tmp_path / "expected.toml"
    path.write_text(head + "compact = true\n", encoding="utf-8")
    (e,) = expected_results(path)
    assert e.compact and e.traps is None and e.cycles is None
    path.write_text(head + "compact = true\ncycles = true\n", encoding="utf-8")
    with pytest.raises(MalformedInput, match="cycles need the state graph") as err:
        expected_results(path)
    assert err.value.line == 11  # the cycles line
    path.write_text(head + 'compact = "yes"\ntraps = 0\ncycles = false\n', encoding="utf-8")
    with pytest.raises(MalformedInput, match="compact"):
        expected_results(path)
    path.write_text(head + "traps = 0\ncycles = false\n", encoding="utf-8")
    (e,) = expected_results(path)
    assert not e.compact and e.traps == 0 and e.cycles is False


_OK_PIN = ('[[result]]\nname = "a"\nsymmetry = false\ndistinct_states = 5\ndepth = 2\n'
           'terminal = 1\ndead_ends = 0\ntraps = 0\nviolations = 0\ncycles = false\n'
           'profile = "ci"\n')


@pytest.mark.parametrize(("text", "message", "line"), [
    ('result = ["x"]\n', "'result' must be [[result]] tables", 1),
    ("result = 5\n", "'result' must be [[result]] tables", 1),
    ('[result]\nname = "x"\n', "'result' must be [[result]] tables", 1),
    (_OK_PIN.replace("symmetry = false", 'symmetry = "false"'),
     "'symmetry' must be true or false", 3),
    (_OK_PIN.replace("= 5", "= 58.9"), "'distinct_states' must be a whole number", 4),
    (_OK_PIN.replace('profile = "ci"', 'profile = ["ci"]'), "'profile' must be a profile", 11),
    (_OK_PIN.replace("terminal = 1\n", ""), "missing field 'terminal'", 1),
    (_OK_PIN.replace("depth = 2", "depth = -2"), "'depth' must be a whole number >= 0", 5),
    (_OK_PIN + _OK_PIN.replace("cycles = false", "cycles = 1"),
     "'cycles' must be true or false", 21),
])
def test_a_malformed_pin_is_one_line_at_its_field(tmp_path: Path, text: str, message: str,
                                                  line: int) -> None:
    """Every field of a pinned result is read as its type (a string "false" is no bool, 58.9
    no count), the entry's problem is reported at its field's line in that entry (not at the
    first entry of the same name), and a ``result`` that is not an array of tables is refused,
    never a traceback."""
    path = tmp_path / "expected.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MalformedInput, match=re.escape(message)) as err:
        expected_results(path)
    assert err.value.line == line, err.value


def test_pinned_mismatch_says_what_a_run_without_the_graph_did_not_analyse() -> None:
    """A non-compact pin checked against a run without the state graph: traps and cycles are
    reported as not analysed, not as explored values."""
    from ruleproof.cli.explore import _pinned_mismatch

    res = explore(CI, keep_graph=False)
    assert not res.graph
    found = _pinned_mismatch(res)
    assert found == [f"traps: not analysed (explored without the state graph), pinned "
                     f"{_pinned(CI, False)['traps']}",
                     f"cycles: not analysed (explored without the state graph), pinned "
                     f"{_pinned(CI, False)['cycles']}"]
    assert _pinned_mismatch(explore(CI)) == []


def test_a_compact_pin_is_checked_alone_without_the_graph(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``explore NAME --pinned --compact --no-graph`` against a compact pin (which pins no
    traps or cycles) passes when the counts match; against a pin with traps and cycles it
    says once that they were not analysed; without --pinned, a run without the graph fails
    unless traps and cycles are both allowed; the output says "not analysed", the JSON null."""
    from dataclasses import replace as dc_replace

    import ruleproof.cli.explore as cli_explore

    runner = CliRunner()
    pin = next(e for e in expected_results() if e.name == CI and not e.symmetry)
    compact = dc_replace(pin, compact=True, traps=None, cycles=None)
    out = ["--out", str(tmp_path / "x")]
    monkeypatch.setattr(cli_explore, "pinned_results", lambda: (compact,))
    r = runner.invoke(app, ["explore", CI, "--pinned", "--compact", "--no-graph", *out])
    assert r.exit_code == 0, r.output
    assert "traps and cycles not analysed (no state graph)" in r.output
    r = runner.invoke(app, ["explore", "--profile", pin.profile])
    assert r.exit_code == 0 and "as pinned, no contract broken (compact: traps and cycles " \
        "not analysed)" in r.output, r.output
    monkeypatch.setattr(cli_explore, "pinned_results", lambda: (pin,))
    r = runner.invoke(app, ["explore", CI, "--pinned", "--no-graph", *out])
    assert r.exit_code == 1 and r.output.count("not analysed (explored without") == 2
    assert "--no-graph: traps and cycles" not in r.output
    r = runner.invoke(app, ["explore", CI, "--no-graph", *out])
    assert r.exit_code == 1 and "--no-graph: traps and cycles were not analysed" in r.output
    r = runner.invoke(app, ["explore", CI, "--no-graph", "--allow", "traps", "--allow",
                            "cycles", "--json", *out])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["traps"] is None and data["cycles"] is None and data["on_cycle"] is None


def test_a_checkpoint_of_an_older_ruleproof_says_so_and_what_to_do(tmp_path: Path) -> None:
    """A checkpoint of an earlier JSON version (3, 4: other fingerprints) is refused in one
    line that says an older ruleproof wrote it and to explore again without --resume."""
    ck, data = _checkpoint(tmp_path, max_states=500)
    for old in (3, 4):
        data["version"] = old
        _reseal(ck, data)
        res = CliRunner().invoke(app, ["explore", "--checkpoint", str(ck), "--resume"])
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
        assert f"checkpoint version {old} was written by an older ruleproof" in res.output
        assert "explore again without --resume" in res.output
