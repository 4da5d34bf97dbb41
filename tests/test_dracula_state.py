"""The Dracula state's costs and shortcuts (issue #14): a step's work does not grow with the
game, the log is a persistent list shared between states, legal actions kept with a state
never outlive it, and the barrier options equal the barrier predicate of the rules."""

from __future__ import annotations

import copy
import gc
import pickle
import random
import sys
from dataclasses import replace
from itertools import pairwise

import pytest

from ruleproof.model import CHANCE
from ruleproof.model.dracula import (
    DraculaRules,
    State,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    phase,
    resolve_chance,
    sensible_choice,
)
from ruleproof.model.dracula.data import COLOURS
from ruleproof.model.dracula.engine import EMPTY_LOG, Event, Log, PlaceBarrier, SkipBarrier
from ruleproof.model.dracula.rules import barrier_violation


def _long_game(seed: int = 3, rules: DraculaRules | None = None) -> list[State]:
    """The states of one seeded game (player decisions only), played to its end."""
    rng = random.Random(seed)
    s = new_game(seed, rules)
    states = [s]
    while not is_terminal(s):
        s = resolve_chance(s) if current_player(s) == CHANCE else apply(s, sensible_choice(s, rng))
        states.append(s)
    return states


def _reachable(root: object, stop: set[int]) -> dict[int, object]:
    """Every object reachable from ``root`` (through gc referents) whose id is not in ``stop``."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in stop or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return seen


def _new_bytes(before: State, after: State) -> int:
    """Bytes of the objects the step built: reachable from ``after`` but not from ``before``."""
    old = _reachable(before, set())
    return sum(sys.getsizeof(o) for o in _reachable(after, set(old)).values())


def test_a_step_builds_as_much_late_in_the_game_as_early() -> None:
    """The work of a step, measured as the bytes of new objects in its successor state, does
    not grow with the game (before #14 every step copied the whole log)."""
    states = _long_game()
    assert len(states) > 150, "the game is too short to compare early and late steps"
    early = [_new_bytes(a, b) for a, b in pairwise(states[10:41])]
    late = [_new_bytes(a, b) for a, b in pairwise(states[-31:])]
    # (measured: early steps about 1.8 KB, late ones 1.4 KB; with the log copied on every
    # step, as before #14, late steps of this game built 5.2 KB on average, up to 6.3 KB)
    assert max(late) < 4000, f"a late step built {max(late)} bytes"
    assert sum(late) / len(late) < sum(early) / len(early) + 500, (early, late)


def test_repr_of_a_state_stays_small() -> None:
    """A state prints the same size at any point of a game (it was 66 KB after 90 moves)."""
    states = _long_game()
    sizes = [len(repr(s)) for s in states]
    assert max(sizes) < 3000, max(sizes)
    assert f"Log({len(states[-1].log)} events)" in repr(states[-1])


def test_successive_states_share_their_log() -> None:
    states = _long_game(seed=5)
    for before, after in pairwise(states):
        added = len(after.log) - len(before.log)
        assert added >= 0
        assert tuple(after.log)[: len(before.log)] == tuple(before.log)
        assert after.log[len(before.log):] == tuple(after.log)[len(before.log):]


def test_log_behaves_as_a_sequence() -> None:
    events = [Event(f"e{i}", (f"d{i}", "")) for i in range(7)]
    log = EMPTY_LOG
    logs = [log]
    for e in events:
        log = log.add(e)
        logs.append(log)
    assert len(EMPTY_LOG) == 0 and not EMPTY_LOG and list(EMPTY_LOG) == []
    assert list(log) == events and len(log) == 7
    assert log[0] == events[0] and log[-1] == events[-1] and log[3] == events[3]
    assert log[2:] == tuple(events[2:]) and log[7:] == () and log[:3] == tuple(events[:3])
    assert log[::2] == tuple(events[::2]) and log[-2:] == tuple(events[-2:])
    with pytest.raises(IndexError):
        log[7]
    # extending never changes the shorter log, and equal events make equal logs
    assert list(logs[3]) == events[:3]
    rebuilt = EMPTY_LOG
    for e in events:
        rebuilt = Log(e, rebuilt)
    assert rebuilt == log and hash(rebuilt) == hash(log) and rebuilt is not log
    assert log != logs[6] and logs[6].add(Event("x", ("", ""))) != log
    assert repr(log) == "Log(7 events)"


def test_a_long_games_state_pickles_and_deep_copies() -> None:
    """States cross process boundaries (parallel checks); a long log must not recurse."""
    final = _long_game()[-1]
    assert len(final.log) > 300
    again = pickle.loads(pickle.dumps(final))
    assert again == final and list(again.log) == list(final.log)
    assert legal_actions(again) == legal_actions(final)
    assert copy.deepcopy(final) == final


def _brute_force_barriers(s: State) -> list[PlaceBarrier]:
    """The barrier options straight from the rule predicate barrier_violation."""
    out = []
    for colour in s.agenda[0].colours:
        ci = COLOURS.index(colour)
        others = [e for i, e in enumerate(s.barriers) if i != ci and e is not None]
        for edge in s.board.edges:
            if edge == s.barriers[ci] or edge in others:
                continue
            if barrier_violation(s.board, [*others, edge], s.rules.barrier_adjacency) is None:
                out.append(PlaceBarrier(colour, edge))
    return out


@pytest.mark.parametrize("reading", ["shared-location", "corner"])
def test_barrier_options_are_exactly_those_the_barrier_predicate_allows(reading: str) -> None:
    """The engine's quick barrier options equal the clause predicate, also for random barrier
    positions (allowed or not) that play would rarely reach. The variants are copies made with
    dataclasses.replace of a state whose legal actions were already asked for, so a copy that
    kept the original's legal actions would fail here too."""
    rules = DraculaRules(barrier_adjacency=reading)
    barrier_states = [s for seed in range(6) for s in _long_game(seed, rules)
                      if phase(s) == "barrier"]
    assert len(barrier_states) >= 10
    rng = random.Random(11)
    checked = 0
    for s in barrier_states:
        legal_actions(s)
        variants = [s]
        edges = list(s.board.edges)
        for _ in range(15):
            placed = [rng.choice([None, *edges]) for _ in COLOURS]
            variants.append(replace(s, barriers=tuple(placed)))
        for v in variants:
            want = _brute_force_barriers(v)
            got = [a for a in legal_actions(v) if not isinstance(a, SkipBarrier)]
            assert got == want, (v.barriers, v.agenda[0].colours)
            checked += 1
    assert checked > 150
