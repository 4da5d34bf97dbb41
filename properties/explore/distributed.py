"""Campaigns on Ray (optional extra ``[ray]``): exploration with the seen-set partitioned by
fingerprint across workers (as TLC's distributed mode), and a generic fan-out of seeded work.

What is wired (docs/explore.md, "Campaigns on Ray"):

* ``ruleproof explore NAME --workers N [--ray-address ADDR]``: :func:`explore_distributed`.
  Worker ``i`` is a Ray actor owning the fingerprints ``fp % N == i`` (their seen-set entries).
  Each BFS level every worker expands its frontier and proposes each new successor to its owner
  as ``(fingerprint, parent, action index)``; the owner keeps, per new fingerprint, the proposal
  with the smallest parent key and tells the proposer, which keeps that state for the next
  level. Only integers travel. So the result (counts, depth, findings, traces) is that of a
  single process, whatever the timing.
* :func:`fan_out` ``(seeds, fn)``: ``fn(seed)`` for every seed on Ray workers, results in seed
  order; for discovery and ``conform`` campaigns (each seed an independent search).
* :func:`seeded_games`: the hook ``check --thorough`` can call: seeded random games of a game,
  every state checked against every invariant, fanned out over workers.

A local Ray is started (and stopped) when none runs and no address is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.games import explore_game
from ruleproof.properties.explore.search import (
    Explorer,
    ExploreResult,
    LevelReport,
    Partition,
    Progress,
    Proposal,
    _merge,
)

T = TypeVar("T")


def _ray() -> Any:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the installation
        raise MalformedInput("Ray is not installed: pip install 'ruleproof[ray]'") from None
    return ray


def _init(workers: int, address: str | None) -> bool:
    """Start a local Ray (or connect to ``address``) unless one runs; True if started here."""
    ray = _ray()
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if address:
        ray.init(address=address, **kwargs)
    else:
        ray.init(num_cpus=workers, **kwargs)
    return True


class PartitionActor:
    """A :class:`Partition` inside a Ray actor (created with ``ray.remote``)."""

    def __init__(self, name: str, index: int, parts: int, symmetry: bool,
                 keep_graph: bool, contracts: bool = False) -> None:
        game = explore_game(name, symmetry=symmetry, contracts=contracts)
        self.part = Partition(game, index, parts, keep_graph)
        self.roots = game.roots()

    def seed(self) -> int:
        return self.part.seed_roots(self.roots)

    def expand(self) -> tuple[Any, ...]:
        out, rep = self.part.expand()
        return (*out, rep)

    def decide(self, depth: int, *proposals: list[Proposal]) -> Any:
        accepted = self.part.decide(depth, list(proposals))
        return accepted[0] if len(accepted) == 1 else tuple(accepted)

    def adopt(self, *accepted: list[int]) -> int:
        return self.part.adopt(list(accepted))

    def frontier(self) -> int:
        return len(self.part.frontier)

    def distinct(self) -> int:
        return len(self.part.seen)

    def lookup(self, fps: list[int]) -> dict[int, tuple[int, int, int]]:
        return self.part.lookup(fps)

    def edges(self) -> dict[int, tuple[int, ...]]:
        return self.part.edges


class RayExplorer(Explorer):
    """The level-synchronous driver over partitions living in Ray actors."""

    def __init__(self, name: str, workers: int, *, symmetry: bool = False,
                 keep_graph: bool = True, contracts: bool = False) -> None:
        super().__init__(explore_game(name, symmetry=symmetry, contracts=contracts), parts=1,
                         keep_graph=keep_graph)
        ray = _ray()
        self.parts = []
        actor = ray.remote(num_cpus=1)(PartitionActor)
        self.actors = [actor.remote(name, i, workers, symmetry, keep_graph, contracts)
                       for i in range(workers)]
        self.workers = workers
        self._lookup_cache: dict[int, tuple[int, int, int]] = {}

    def _seed(self) -> int:
        ray = _ray()
        return int(sum(ray.get([a.seed.remote() for a in self.actors])))

    def _step(self, depth: int) -> tuple[int, LevelReport]:
        ray = _ray()
        n = self.workers
        # three rounds per level, only integers travel: proposals (fp, parent, index) to the
        # owners, the owners' decisions back, each worker adopts its accepted states
        outs = [a.expand.options(num_returns=n + 1).remote() for a in self.actors]
        decided = []
        for j in range(n):
            ref = self.actors[j].decide.options(num_returns=n).remote(
                depth, *[outs[i][j] for i in range(n)])
            decided.append(ref if n > 1 else [ref])
        adopted = [self.actors[i].adopt.remote(*[decided[j][i] for j in range(n)])
                   for i in range(n)]
        merged = LevelReport()
        for rep in ray.get([o[n] for o in outs]):
            _merge(merged, rep)
        return int(sum(ray.get(adopted))), merged

    def _frontier(self) -> int:
        return int(sum(_ray().get([a.frontier.remote() for a in self.actors])))

    def _distinct(self) -> int:
        return int(sum(_ray().get([a.distinct.remote() for a in self.actors])))

    def _lookup(self, fps: list[int]) -> dict[int, tuple[int, int, int]]:
        missing = [fp for fp in fps if fp not in self._lookup_cache]
        if missing:
            for found in _ray().get([a.lookup.remote(missing) for a in self.actors]):
                self._lookup_cache.update(found)
        return {fp: self._lookup_cache[fp] for fp in fps if fp in self._lookup_cache}

    def _edges(self) -> dict[int, tuple[int, ...]]:
        edges: dict[int, tuple[int, ...]] = {}
        for part in _ray().get([a.edges.remote() for a in self.actors]):
            edges.update(part)
        return edges

    def _result(self) -> ExploreResult:
        res = super()._result()
        res.workers = self.workers
        return res


def explore_distributed(name: str, *, workers: int = 2, address: str | None = None,
                        symmetry: bool = False, max_states: int | None = None,
                        max_seconds: float | None = None, keep_graph: bool = True,
                        progress: Progress | None = None,
                        contracts: bool = False) -> ExploreResult:
    """Explore ``name`` with the seen-set partitioned over ``workers`` Ray actors.

    Raises:
        MalformedInput: Ray missing, fewer than 1 worker, or a bad configuration.
    """
    if workers < 1:
        raise MalformedInput(f"--workers must be at least 1, got {workers}")
    started = _init(workers, address)
    ex: RayExplorer | None = None
    try:
        ex = RayExplorer(name, workers, symmetry=symmetry, keep_graph=keep_graph,
                         contracts=contracts)
        return ex.run(max_states=max_states, max_seconds=max_seconds, progress=progress)
    finally:
        ray = _ray()
        if ex is not None:
            for a in ex.actors:
                ray.kill(a)
        if started:
            ray.shutdown()


def _call(fn: Callable[[int], T], seed: int) -> T:
    return fn(seed)


def fan_out(seeds: Sequence[int], fn: Callable[[int], T], *, workers: int = 2,
            address: str | None = None) -> list[T]:
    """``[fn(seed) for seed in seeds]`` computed on Ray workers (a local Ray by default),
    in seed order; ``workers=1`` without an address runs in this process without Ray.

    ``fn`` must be picklable (a module-level function) and deterministic in its seed; then
    the result equals the single-process one.
    """
    if workers <= 1 and not address:
        return [fn(s) for s in seeds]
    started = _init(workers, address)
    ray = _ray()
    try:
        task = ray.remote(num_cpus=1)(_call)
        shared = ray.put(fn)
        return list(ray.get([task.remote(shared, s) for s in seeds]))
    finally:
        if started:
            ray.shutdown()


@dataclass(frozen=True)
class GameRun:
    """One seeded random game: its length, end and every invariant violation met."""

    seed: int
    steps: int
    terminal: bool
    violations: tuple[str, ...]


@dataclass(frozen=True)
class _SeededGame:
    name: str
    max_steps: int

    def __call__(self, seed: int) -> GameRun:
        game = explore_game(self.name)
        rng = random.Random(seed)
        roots = game.roots()
        state = roots[seed % len(roots)].state
        found: list[str] = []
        steps = 0
        while steps < self.max_steps:
            found += game.violations(state)
            if game.is_terminal(state):
                break
            succ = game.successors(state)
            if not succ:
                found.append("dead end: a non-terminal state without a legal action")
                break
            state = succ[rng.randrange(len(succ))][1]
            steps += 1
        return GameRun(seed, steps, game.is_terminal(state), tuple(found))


def seeded_games(name: str, seeds: Sequence[int], *, max_steps: int = 2000, workers: int = 1,
                 address: str | None = None) -> list[GameRun]:
    """Seeded random games on the reduced configuration ``name``, every state checked against
    every invariant, fanned out over Ray workers (the ``check --thorough`` hook)."""
    return fan_out(seeds, _SeededGame(name, max_steps), workers=workers, address=address)
