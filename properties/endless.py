"""Endless games and traps: reachable cycles found by search, endings still reachable, game
lengths. For Dawn Under (every preset, the expansion) and Dracula.

* :func:`find_cycle` -- from states of random play, a best-first search for a path of legal
  actions back to the same state (the state compared whole, for Dracula without its move
  counter and log). A found loop is a witness that the rules as modelled allow a game that
  never ends: the choices in the loop can be repeated for ever.
* :func:`ending_reachable` -- from sampled reachable states, random continuations until one
  ends; a state from which none ends within the budget is reported (a possible trap).
* :func:`game_lengths` -- lengths of random games: shortest, median, longest, and how many
  hit the step cap.
"""

from __future__ import annotations

import heapq
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from ruleproof.properties.contracts.games import Engine, RuleSet, engine_of, rule_set


@dataclass(frozen=True)
class Cycle:
    """A reachable loop: the seed and actions that reach its first state, and the actions of
    the loop (which lead back to exactly that state)."""

    rule_set: str
    seed: int
    prefix: tuple[str, ...]
    loop: tuple[str, ...]
    players: int


def _key(rs: RuleSet, state: Any) -> Any:
    """The state as compared for recurrence (Dracula: without move counter and log)."""
    if rs.game == "dracula":
        return replace(state, step=0, log=(), turn=0)
    return state


def _distance(a: Any, b: Any) -> int:
    """How far state ``a`` is from ``b``: differing fields, and differing elements of tuple
    fields (used to steer the search back towards ``b``)."""
    d = 0
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if x == y:
            continue
        if isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y):
            d += sum(1 for p, q in zip(x, y, strict=True) if p != q)
        else:
            d += 1
    return d


def search_loop(rs: RuleSet, engine: Engine, start: Any, max_nodes: int,
                max_depth: int) -> list[Any] | None:
    """Best-first search for actions leading from ``start`` back to ``start``."""
    goal = _key(rs, start)
    counter = 0
    frontier: list[tuple[int, int, int, Any, tuple[Any, ...]]] = []
    for a in engine.legal(start):
        nxt = engine.chance(engine.apply(start, a))
        counter += 1
        heapq.heappush(frontier, (_distance(_key(rs, nxt), goal), 1, counter, nxt, (a,)))
    seen: set[Any] = {goal}
    expanded = 0
    while frontier and expanded < max_nodes:
        _dist, depth, _c, state, path = heapq.heappop(frontier)
        k = _key(rs, state)
        if k == goal:
            return list(path)
        if k in seen or depth >= max_depth or engine.terminal(state):
            continue
        seen.add(k)
        expanded += 1
        for a in engine.legal(state):
            nxt = engine.chance(engine.apply(state, a))
            counter += 1
            nk = _key(rs, nxt)
            if nk == goal:
                return [*path, a]
            if nk in seen:
                continue
            heapq.heappush(frontier, (_distance(nk, goal), depth + 1, counter, nxt, (*path, a)))
    return None


def find_cycle(rs: RuleSet, games: int = 3, max_steps: int = 300, every: int = 10,
               max_nodes: int = 250, max_depth: int | None = None) -> Cycle | None:
    """A reachable cycle of ``rs``, searched from every ``every``-th state of ``games`` random
    games; None if none was found within the budget (not a proof that none exists)."""
    engine = engine_of(rs)
    players = rs.count
    depth = max_depth or 4 * players + 4
    for g in range(games):
        rng = random.Random(500 + g)
        state = engine.chance(engine.new(g))
        prefix: list[Any] = []
        for i in range(max_steps):
            if engine.terminal(state):
                break
            legal = engine.legal(state)
            if not legal:
                break
            if i % every == every - 1:
                loop = search_loop(rs, engine, state, max_nodes, depth)
                if loop is not None:
                    return Cycle(rs.name, g, tuple(map(str, prefix)), tuple(map(str, loop)),
                                 players)
            a = legal[rng.randrange(len(legal))]
            prefix.append(a)
            state = engine.chance(engine.apply(state, a))
    return None


def replay_cycle(rs: RuleSet, cycle: Cycle, rounds: int = 3) -> bool:
    """Whether the loop really returns to its first state, ``rounds`` times over."""
    engine = engine_of(rs)
    if rs.game == "dracula":
        return _replay_dracula(rs, engine, cycle, rounds)
    assert engine.parse is not None
    state = engine.new(cycle.seed)
    for text in cycle.prefix:
        state = engine.apply(state, engine.parse(text))
    start = state
    for _ in range(rounds):
        for text in cycle.loop:
            state = engine.apply(state, engine.parse(text))
        if state != start:
            return False
    return True


def _replay_dracula(rs: RuleSet, engine: Engine, cycle: Cycle, rounds: int) -> bool:
    def by_text(state: Any, text: str) -> Any:
        for a in engine.legal(state):
            if str(a) == text:
                return engine.chance(engine.apply(state, a))
        raise ValueError(text)

    state = engine.chance(engine.new(cycle.seed))
    for text in cycle.prefix:
        state = by_text(state, text)
    start = _key(rs, state)
    for _ in range(rounds):
        for text in cycle.loop:
            state = by_text(state, text)
        if _key(rs, state) != start:
            return False
    return True


@dataclass(frozen=True)
class Lengths:
    """Game lengths of random play (actions per game)."""

    games: int
    shortest: int
    median: float
    longest: int
    capped: int


def game_lengths(rs: RuleSet, games: int, cap: int) -> Lengths:
    """Lengths of ``games`` uniformly random games of ``rs`` (capped at ``cap`` actions)."""
    engine = engine_of(rs)
    lengths: list[int] = []
    capped = 0
    for g in range(games):
        rng = random.Random(900 + g)
        state = engine.chance(engine.new(g))
        n = 0
        while not engine.terminal(state) and n < cap:
            legal = engine.legal(state)
            if not legal:
                break
            state = engine.chance(engine.apply(state, legal[rng.randrange(len(legal))]))
            n += 1
        capped += not engine.terminal(state)
        lengths.append(n)
    return Lengths(games, min(lengths), statistics.median(lengths), max(lengths), capped)


def ending_reachable(rs: RuleSet, samples: int, tries: int, cap: int
                     ) -> tuple[int, int, list[str]]:
    """From ``samples`` states of random play, ``tries`` random continuations of at most
    ``cap`` actions each; returns (states checked, states with an ending found, witnesses of
    states where none was found)."""
    engine = engine_of(rs)
    checked = ok = 0
    stuck: list[str] = []
    for g in range(samples):
        rng = random.Random(700 + g)
        state = engine.chance(engine.new(g))
        depth = rng.randrange(20, 200)
        prefix: list[str] = []
        for _ in range(depth):
            if engine.terminal(state):
                break
            legal = engine.legal(state)
            a = legal[rng.randrange(len(legal))]
            prefix.append(str(a))
            state = engine.chance(engine.apply(state, a))
        if engine.terminal(state):
            continue
        checked += 1
        if any(_ends(engine, state, random.Random(t), cap) for t in range(tries)):
            ok += 1
        else:
            stuck.append(f"seed {g} after {prefix}")
    return checked, ok, stuck


def _ends(engine: Engine, state: Any, rng: random.Random, cap: int) -> bool:
    for _ in range(cap):
        if engine.terminal(state):
            return True
        legal = engine.legal(state)
        if not legal:
            return False
        state = engine.chance(engine.apply(state, legal[rng.randrange(len(legal))]))
    return engine.terminal(state)


ENDLESS_SETS = ("du-en/3", "du-en/4", "du-en/5", "du-en/6", "du-cs/4", "2p/2", "gruft/4",
                "dracula")


def endless_property(name: str, games: int) -> tuple[bool, int, str]:
    """The check "<rule set>: cycles searched, endings reachable, game lengths": it passes when
    the search ran and every sampled state can still end; a found cycle is *reported* (the rules
    allow it: ambiguity register du.endless-game), a state with no ending found fails."""
    rs = rule_set(name)
    cycle = find_cycle(rs, games=max(1, games // 4))
    lengths = game_lengths(rs, max(2, games), 3_000 if rs.game == "dawn-under" else 1_500)
    checked, ok, stuck = ending_reachable(rs, max(2, games // 2), 3,
                                          3_000 if rs.game == "dawn-under" else 1_500)
    text = (f"{name}: game length shortest {lengths.shortest}, median {lengths.median}, "
            f"longest {lengths.longest} ({lengths.capped} of {lengths.games} capped); "
            f"ending reached from {ok} of {checked} sampled states; ")
    if cycle is not None:
        looped = replay_cycle(rs, cycle)
        text += (f"cycle of {len(cycle.loop)} actions {'replays' if looped else 'DOES NOT replay'}"
                 f": {list(cycle.loop)} after {len(cycle.prefix)} actions from seed "
                 f"{cycle.seed}")
    else:
        text += "no cycle found within the budget"
    if checked == 0:
        return False, 0, text + " -- no state was sampled"
    return ok == checked, checked + lengths.games, text + (f"; stuck: {stuck[:2]}" if stuck
                                                          else "")


Property = Callable[[str, int], tuple[bool, int, str]]
