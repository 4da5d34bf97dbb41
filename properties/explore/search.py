"""Breadth-first exhaustive exploration of a reduced game, with fingerprints.

The search is level-synchronous and deterministic, so that a distributed run (one partition
of the seen-set per worker, ``distributed.py``) finds exactly what a single process finds:

* a state is identified by its *fingerprint*: the first 8 bytes of BLAKE2b over the canonical
  form of its view (``ExploreGame.view`` / ``canonical``: a compact code of small ints,
  ``encoding.py``, or a string), a 64-bit integer (as TLC);
* states are expanded one BFS level at a time; a state discovered at level d+1 from several
  parents keeps the parent with the smallest ``(parent fingerprint, action index)``: parent
  pointers, and hence every counterexample trace, do not depend on the order of work;
* each fingerprint is owned by partition ``fp % partitions``.

Every reached state is checked against every invariant; a non-terminal state without a legal
action is a *dead end*; an exception raised by the model is an *error*. Once the frontier is
empty the state graph (kept as successor fingerprints) is analysed: *traps* are states from
which no terminal state is reachable (backward reachability from the terminal states), and
*cycles* are strongly connected components with an edge (a game that can go on for ever).
Each finding comes with a shortest trace (BFS parent pointers; a lasso for a cycle) in the
trace format of ``ruleproof replay``.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import re
import time
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from itertools import compress
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ruleproof.errors import MalformedInput, OutputFailed
from ruleproof.properties.explore.encoding import fingerprint
from ruleproof.properties.explore.fpset import (
    U64,
    FingerprintSet,
    ParentFile,
    collision_probability,
)
from ruleproof.properties.explore.games import (
    ExploreGame,
    Root,
    configuration,
    explore_game,
    shipped,
    started_roots,
)
from ruleproof.spec.formats import read_bytes
from ruleproof.system.outputs import Target, check_target, write_file

ROOT_PARENT = -1
"""Parent fingerprint of a root state (its action index is the root's index)."""

CHECKPOINT_VERSION = 5
"""5: as 4, written after a game's own fingerprint changed its values (a tuple hash of
digests of the state's parts instead of BLAKE2b over its whole code); 4: as 3, sealed with a
SHA-256 of the record (:func:`seal`) and cross-checked on resume; 3: JSON, the frontier as
fingerprints replayed from the roots (2: a pickle, which could run code on ``--resume``;
fingerprints over a game's compact code where it has one; 1: over repr)."""

CHECKPOINT_FORMAT = "ruleproof-explore-checkpoint"
"""The ``format`` field of every checkpoint file."""


__all__ = ["ExploreResult", "Explorer", "Finding", "Partition", "Proposal", "balance_plan",
           "explore", "fingerprint"]


@dataclass
class Candidate:
    """A root state offered to the partition that owns its fingerprint."""

    fp: int
    parent: int
    index: int
    state: Any


Proposal = tuple[list[int], list[int], list[int]]
"""What a partition sends the owner of some fingerprints after expanding a level: the new
successors it found that the owner owns, as parallel lists ``(fingerprints, parent
fingerprints, action indices)``. Only integers: the states stay with the finder."""

KNOWN_LIMIT = 1 << 20
"""Most fingerprints a partition remembers as already proposed to their owners (a cache that
only saves proposing a fingerprint twice; it is emptied when full, which changes no result).
A full cache takes about 70 MB per worker, besides the seen-set."""

BALANCE_SLACK = 0.02
"""A worker holding more than this fraction above an even share of the next frontier hands
the excess to the workers below it (:func:`balance_plan`)."""

BALANCE_MIN = 4
"""Fewer excess states than this are not worth a hand-over."""


@dataclass
class LevelReport:
    """What one partition found while expanding one level (merged by the driver)."""

    expanded: int = 0
    transitions: int = 0
    terminal: list[int] = field(default_factory=list)
    dead_ends: list[int] = field(default_factory=list)
    violations: list[tuple[int, str]] = field(default_factory=list)
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    cpu: float = 0.0
    """CPU seconds (``time.process_time``) spent in the partition's methods since its
    previous report: this expansion and the previous level's acceptance (not waiting)."""
    by_part: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Partition index -> (states it expanded, CPU seconds it spent): the balance of the work
    between workers (a worker that expands nothing adds nothing to the rate)."""
    fired: dict[str, int] = field(default_factory=dict)
    """Clause coverage (``coverage=True``): clause id -> transitions expanded that exercised
    it (:meth:`ExploreGame.fired`), plus states in which a clause that only forbids refused
    a probed action (:meth:`ExploreGame.refused`). Each state is expanded once, so the
    counts do not depend on the partitioning."""


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, and what the block made moved to
    its permanent generation afterwards (``gc.freeze``), so that later passes do not walk the
    search's objects again and again (:meth:`Partition.expand`; the Ray workers' pickling of
    handed-over states too). :meth:`Explorer.run` unfreezes at its end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


class Partition:
    """One share of the seen-set (fingerprints with ``fp % parts == index``), the states this
    partition holds for expansion, and the out-edges of the states it expanded. Used
    in-process and inside a Ray actor.

    A level is three steps. Every partition :meth:`expand` s the states it holds, keeps each
    new successor (``pending``) and proposes it to the owner of its fingerprint as
    ``(fingerprint, parent, action index)``; every owner :meth:`decide` s, per fingerprint not
    seen yet, for the proposal with the smallest ``(parent fingerprint, action index)`` and
    records it; every finder :meth:`adopt` s the successors the owners accepted from it as
    the states it holds next. Only integers travel, and a successor is expanded where it was
    found (its parts are still cached there, ``encoding.state_code``). Because the states
    then stay with the partition that holds the root, the driver evens out the held states
    after each level: a partition above its share :meth:`give` s the excess to one below it,
    which :meth:`take` s them (:func:`balance_plan`). Who holds a state changes no result:
    parent pointers are chosen by the owners alone."""

    def __init__(self, game: ExploreGame, index: int, parts: int, keep_graph: bool = True,
                 coverage: bool = False, compact: bool = False):
        self.game = game
        self.index = index
        self.parts = parts
        self.keep_graph = keep_graph
        self.coverage = coverage
        # compact storage (fpset.py): the seen fingerprints in a numpy set, the parent
        # pointers on disk; ``seen`` then stays empty
        self.fpset: FingerprintSet | None = FingerprintSet() if compact else None
        self.parent_file: ParentFile | None = ParentFile() if compact else None
        # compact storage: the fingerprints of the last two levels, a filter that spares
        # the level's proposals most successors seen already (the set decides)
        self.recent: tuple[set[int], set[int]] = (set(), set())
        self.seen: dict[int, tuple[int, int, int]] = {}  # fp -> (depth, parent fp, action index)
        self.frontier: list[tuple[int, Any]] = []
        self.edges: dict[int, tuple[int, ...]] = {}
        # successors found by the last expansion, awaiting their owner's decision:
        # fp -> (parent fp, action index, state)
        self.pending: dict[int, tuple[int, int, Any]] = {}
        # fingerprints owned elsewhere that this partition has proposed: their owner has
        # recorded them since, so a later proposal would be refused (a bounded cache)
        self.known: set[int] = set()
        self.depth = 0
        self._cpu = 0.0  # CPU seconds in this partition's methods, not yet reported
        # one partition: the successors recorded by the last expansion, awaiting adopt (None
        # otherwise; see _expand)
        self.held: list[tuple[int, Any]] | None = None
        # one partition, compact storage: the last expansion's new successors (see _expand)
        self.level_record: dict[int, tuple[int, int, int]] = {}

    def fp_of(self, state: Any) -> int:
        return self.game.fp(state)

    def seed_roots(self, roots: list[Root]) -> int:
        """Add the roots this partition owns (level 0)."""
        start = time.process_time()
        cands = [Candidate(self.fp_of(r.state), ROOT_PARENT, i, r.state)
                 for i, r in enumerate(roots)]
        found = self.receive([c for c in cands if c.fp % self.parts == self.index], 0)
        self._cpu += time.process_time() - start
        return found

    def expand(self) -> tuple[list[Proposal], LevelReport]:
        """Expand the states held: check every state; keep every new successor in
        ``pending`` and propose it to the owner of its fingerprint.

        Returns:
            ``(proposals, report)``: ``proposals[j]`` for partition ``j`` (this one's
            included), and what the expansion found.

        The states held are in increasing fingerprint order and actions in index order, so
        the first proposal of a fingerprint here has the smallest ``(parent, index)`` of this
        partition.

        Python's cyclic garbage collector is kept off the search's objects: it is paused
        during the expansion, and the objects made meanwhile (states, codes, proposals) are
        then moved to its permanent generation (``gc.freeze``), so that its later passes do
        not walk them again and again (15-20% of the time, measured). States are immutable and
        form no reference cycles, so reference counting still frees every dropped state;
        :meth:`Explorer.run` unfreezes at its end."""
        with gc_paused():
            return self._expand()

    def _expand(self) -> tuple[list[Proposal], LevelReport]:
        start = time.process_time()
        game = self.game
        best = self.pending
        rep = LevelReport()
        fp_of = game.fingerprinter()
        violations = game.violations
        is_terminal = game.is_terminal
        step_checks = game.step_checks
        coverage = self.coverage
        fired = rep.fired
        checked_next = game.checked_next_states
        keep_graph = self.keep_graph
        seen = self.seen if self.fpset is None else self.recent[0] | self.recent[1]
        known = self.known
        edges = self.edges
        transitions = 0
        # one partition: a new successor is recorded at once, as ``decide`` would (the
        # states held are in increasing fingerprint order and the actions in index order, so
        # the first time a fingerprint is met its (parent, action index) is the smallest): no
        # proposal, no decision, no second pass. With the dict seen-set it is recorded in
        # ``seen``; with compact storage in the level's record, which ``decide`` checks
        # against the fingerprint set in one batch (the last two levels' fingerprints
        # filtered out here, as ``seen`` does for proposals)
        direct = self.parts == 1
        record = self.seen if self.fpset is None else {}
        older: Container[int] = () if self.fpset is None else seen
        depth = self.depth + 1
        held: list[tuple[int, Any]] = []
        hold = held.append
        for fp, state in self.frontier:
            found = violations(state)
            if found:
                for v in found:
                    rep.violations.append((fp, v))
            if coverage:
                for c in game.refused(state):
                    fired[c] = fired.get(c, 0) + 1
            if is_terminal(state):
                rep.terminal.append(fp)
                if keep_graph:
                    edges[fp] = ()
                continue
            # step checks without coverage: successors and their step violations in one
            # pass of the game (checked_next_states: Dawn Under steps each action once)
            stepped: list[tuple[int, str]] = []
            try:
                if coverage:  # successors, the clauses each fired, their step violations
                    nexts, fired_by, stepped = game.covered_next_states(state)
                    for clauses in fired_by:
                        for c in clauses:
                            fired[c] = fired.get(c, 0) + 1
                elif step_checks:
                    nexts, stepped = checked_next(state)
                else:
                    nexts = game.next_states(state)
            except Exception as exc:  # a model crash is a finding, with its trace
                rep.errors.append((fp, -1, f"{type(exc).__name__}: {exc}"))
                continue
            if not nexts:
                rep.dead_ends.append(fp)
            fps = []
            k = 0  # the next of ``stepped``
            for i, nxt in enumerate(nexts):
                try:
                    nfp = fp_of(nxt)
                except Exception as exc:
                    rep.errors.append((fp, i, f"{type(exc).__name__}: {exc}"))
                    continue
                if stepped:
                    while k < len(stepped) and stepped[k][0] < i:
                        k += 1  # of a successor whose fingerprint failed: not reported
                    while k < len(stepped) and stepped[k][0] == i:
                        rep.violations.append((fp, stepped[k][1]))
                        k += 1
                fps.append(nfp)
                if direct:  # (one partition: nothing is known from other owners)
                    if nfp not in record and nfp not in older:
                        record[nfp] = (depth, fp, i)
                        hold((nfp, nxt))
                    continue
                if nfp in seen or nfp in known:  # recorded by its owner already
                    continue
                old = best.get(nfp)
                if old is None or (fp, i) < old[:2]:
                    best[nfp] = (fp, i, nxt)
            transitions += len(fps)
            if keep_graph:
                edges[fp] = tuple(fps)
        rep.expanded = len(self.frontier)
        rep.transitions = transitions
        self.frontier = []
        parts, me = self.parts, self.index
        if len(known) > KNOWN_LIMIT:
            known.clear()
        if direct:  # recorded already: adopt holds them in fingerprint order
            self.held = held
            if self.fpset is not None:
                self.level_record = record
            out: list[Proposal] = [([], [], [])]
        else:
            out = [([], [], []) for _ in range(parts)]
            for nfp, (parent, index, _) in best.items():
                owner = nfp % parts
                prop = out[owner]
                prop[0].append(nfp)
                prop[1].append(parent)
                prop[2].append(index)
                if owner != me:
                    known.add(nfp)
        cpu = self._cpu + time.process_time() - start
        rep.cpu, self._cpu = cpu, 0.0
        rep.by_part = {me: (rep.expanded, cpu)}
        return out, rep

    def decide(self, depth: int, proposals: list[Proposal]) -> list[list[int]]:
        """As owner: among the proposals (``proposals[i]`` from partition ``i``) of
        fingerprints not seen yet, keep the smallest ``(parent, action index)`` each; record
        them at ``depth``; return the accepted fingerprints per proposing partition."""
        start = time.process_time()
        chosen: dict[int, tuple[int, int, int]] = {}
        seen = self.seen
        if self.held is not None:  # recorded during the expansion (``_expand``, direct)
            if self.fpset is not None:
                self._record_level()
            self.depth = depth
            self._cpu += time.process_time() - start
            return [[]]
        for sender, (fps, parents, indices) in enumerate(proposals):
            for k, fp in enumerate(fps):
                if fp in seen:
                    continue
                old = chosen.get(fp)
                if old is None or (parents[k], indices[k]) < old[:2]:
                    chosen[fp] = (parents[k], indices[k], sender)
        accepted: list[list[int]] = [[] for _ in proposals]
        if self.fpset is not None:
            self._record_compact(chosen, accepted)
        else:
            for fp, (parent, index, sender) in chosen.items():
                seen[fp] = (depth, parent, index)
                accepted[sender].append(fp)
        self.depth = depth
        self._cpu += time.process_time() - start
        return accepted

    def _record_compact(self, chosen: dict[int, tuple[int, int, int]],
                        accepted: list[list[int]]) -> None:
        """Compact storage: keep the chosen fingerprints (fingerprint -> (parent, action
        index, sender)) that the set does not hold yet (:meth:`_store`) and list each kept
        one in ``accepted`` under its sender."""
        n = len(chosen)
        fps = np.fromiter(chosen, dtype=np.uint64, count=n)
        rows = list(chosen.values())
        # ROOT_PARENT (-1) stays -1; a fingerprint's 64 bits are reinterpreted as signed
        parents = np.array([r[0] if r[0] < 1 << 63 else r[0] - (1 << 64) for r in rows],
                           dtype=np.int64)
        indices = np.fromiter((r[1] for r in rows), dtype=np.int32, count=n)
        new = self._store(fps, parents, indices)
        for (_, _, sender), fp in zip(compress(rows, new.tolist()), fps[new].tolist(),
                                      strict=True):
            accepted[sender].append(fp)

    def _record_level(self) -> None:
        """Compact storage, one partition: keep the successors the last expansion recorded
        (``level_record``: fingerprint -> (depth, parent, action index), in the order of
        ``held``) that the fingerprint set does not hold yet (:meth:`_store`), and drop the
        others from ``held``."""
        assert self.held is not None
        record, self.level_record = self.level_record, {}
        n = len(record)
        fps = np.fromiter(record, dtype=np.uint64, count=n)
        rows = record.values()
        # a parent is an expanded state's fingerprint (never ROOT_PARENT): its 64 bits
        # reinterpreted as signed, as the parent file stores them
        parents = np.fromiter((r[1] for r in rows), dtype=np.uint64, count=n).view(np.int64)
        indices = np.fromiter((r[2] for r in rows), dtype=np.int32, count=n)
        new = self._store(fps, parents, indices)
        if not new.all():
            self.held = list(compress(self.held, new.tolist()))

    def _store(self, fps: U64, parents: npt.NDArray[np.int64],
               indices: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
        """Compact storage's one storing step: add the fingerprints ``fps`` (uint64) to the
        set in one numpy batch, append the new ones' parent pointers (``parents`` int64,
        ``indices`` int32, aligned with ``fps``) to the parent file as the next level, and
        make them the newest of the two recent levels. Returns the mask of ``fps`` that were
        new (bool array)."""
        assert self.fpset is not None and self.parent_file is not None
        new = self.fpset.add_new(fps)
        kept = fps[new]
        self.parent_file.append(kept, parents[new], indices[new])
        self.recent = (self.recent[1], set(kept.tolist()))
        return new

    def size(self) -> int:
        """Distinct states this partition owns."""
        return len(self.fpset) if self.fpset is not None else len(self.seen)

    def adopt(self, accepted: list[list[int]]) -> int:
        """Hold the successors found here that their owners accepted (``accepted[j]`` from
        owner ``j``), in fingerprint order, for the next expansion; return how many."""
        start = time.process_time()
        if self.held is not None:  # recorded during the expansion: in fingerprint order
            held, self.held = self.held, None
            held.sort(key=_first)
            self.frontier = held
            self._cpu += time.process_time() - start
            return len(held)
        fps = sorted_fps([fp for batch in accepted for fp in batch])
        pending = self.pending
        self.frontier = [(fp, pending[fp][2]) for fp in fps]
        self.pending = {}
        self._cpu += time.process_time() - start
        return len(fps)

    def give(self, counts: list[int]) -> list[list[tuple[int, Any]]]:
        """Hand ``counts[j]`` of the states held to partition ``j`` (the states of the
        largest fingerprints; :func:`balance_plan`)."""
        start = time.process_time()
        out: list[list[tuple[int, Any]]] = []
        for k in counts:
            if k:
                out.append(self.frontier[-k:])
                del self.frontier[-k:]
            else:
                out.append([])
        self._cpu += time.process_time() - start
        return out

    def take(self, given: list[list[tuple[int, Any]]]) -> int:
        """Hold the states other partitions handed over too (kept in fingerprint order)."""
        start = time.process_time()
        if any(given):
            self.frontier = sorted(self.frontier + [x for batch in given for x in batch],
                                   key=lambda entry: entry[0])
        self._cpu += time.process_time() - start
        return len(self.frontier)

    def receive(self, candidates: Iterable[Candidate], depth: int) -> int:
        """Keep the new fingerprints this partition owns (roots; smallest parent key per
        fingerprint) in its own frontier; return how many."""
        best: dict[int, Candidate] = {}
        seen = self.seen
        for c in candidates:
            if c.fp in seen:
                continue
            old = best.get(c.fp)
            if old is None or (c.parent, c.index) < (old.parent, old.index):
                best[c.fp] = c
        if self.fpset is not None:
            self._record_compact({fp: (c.parent, c.index, 0) for fp, c in best.items()},
                                 [[]])
        for fp in sorted(best):
            c = best[fp]
            if self.fpset is None:
                seen[fp] = (depth, c.parent, c.index)
            self.frontier.append((fp, c.state))
        self.depth = depth
        return len(best)

    def lookup(self, fps: list[int]) -> dict[int, tuple[int, int, int]]:
        if self.parent_file is not None:
            found = {fp: self.parent_file.find(fp) for fp in fps}
            return {fp: v for fp, v in found.items() if v is not None}
        return {fp: self.seen[fp] for fp in fps if fp in self.seen}


def _first(entry: tuple[int, Any]) -> int:
    return entry[0]


def sorted_fps(fps: list[int]) -> list[int]:
    """``sorted(fps)``, through numpy for fingerprints (unsigned 64-bit ints: the same order,
    several times faster on the 10^5 of a level); other ints through ``sorted``."""
    if len(fps) < 64:
        return sorted(fps)
    try:
        arr = np.fromiter(fps, dtype=np.uint64, count=len(fps))
    except (OverflowError, TypeError, ValueError):
        return sorted(fps)
    arr.sort()
    out: list[int] = arr.tolist()
    return out


def balance_plan(held: list[int]) -> list[list[int]]:
    """How many states partition ``i`` hands to partition ``j`` (``plan[i][j]``) so that
    each holds about an even share of ``sum(held)``: a partition more than
    :data:`BALANCE_SLACK` (and :data:`BALANCE_MIN` states) above its share gives the excess,
    in index order, to those below theirs. All zeros when the shares are even enough.

    >>> balance_plan([1000, 0])
    [[0, 500], [0, 0]]
    >>> balance_plan([505, 495])
    [[0, 0], [0, 0]]
    """
    n = len(held)
    total = sum(held)
    share = [total // n + (1 if i < total % n else 0) for i in range(n)]
    plan = [[0] * n for _ in range(n)]
    slack = max(BALANCE_MIN, int(BALANCE_SLACK * total / max(1, n)))
    if all(h - s <= slack for h, s in zip(held, share, strict=True)):
        return plan
    excess = [max(0, h - s) for h, s in zip(held, share, strict=True)]
    short = [max(0, s - h) for h, s in zip(held, share, strict=True)]
    j = 0
    for i in range(n):
        while excess[i]:
            while not short[j]:
                j += 1
            k = min(excess[i], short[j])
            plan[i][j] += k
            excess[i] -= k
            short[j] -= k
    return plan


@dataclass(frozen=True)
class Finding:
    """One counterexample: what, where (fingerprint, depth), and a replayable trace.

    Attributes:
        kind: ``violation``, ``dead-end``, ``trap``, ``cycle`` or ``error``.
        message: what is wrong.
        fp: the fingerprint of the state concerned (the cycle's entry for a cycle).
        depth: its BFS depth (the trace length, without the loop of a cycle).
        trace: the trace as JSON objects (header first), replayable with ``ruleproof replay``.
    """

    kind: str
    message: str
    fp: int
    depth: int
    trace: tuple[dict[str, Any], ...] = ()


@dataclass
class ExploreResult:
    """The outcome of an exploration (all counts exact; timings measured).

    Attributes:
        name: reduced configuration; game; symmetry: what was reduced (or ``off``).
        contracts: whether the clause contracts were checked on every transition.
        distinct_states: distinct fingerprints reached (orbits with symmetry).
        depth: the deepest BFS level reached.
        transitions: edges expanded; terminal/dead_ends/traps/on_cycle: state counts.
        violations, errors: counts of invariant violations and model exceptions (states).
        complete: False if the run stopped at a state or time limit (nothing is proved then).
        seconds, states_per_minute: wall time of the search and the resulting rate.
        cpu_seconds: CPU time the partitions' processes spent (summed over workers; without
            the driver's and Ray's own processes); on a shared machine the rate per
            CPU-minute, ``distinct_states / cpu_seconds * 60 * workers``, is what the code
            achieves with a core per worker.
        workers: processes that expanded states.
        per_worker: ``(states expanded, CPU seconds)`` per worker, in worker order (the
            balance of the work; a run resumed from a checkpoint counts only itself).
        findings: one shortest counterexample per kind and message.
        resumed_from: distinct states in the checkpoint this run resumed (None: not resumed).
        new_states: distinct states this run added (0 on a resume that did no work).
        unsaved: why the last checkpoint could not be written (``PATH: cannot write the
            checkpoint: REASON``; the previous one is intact), None if it was (or none asked).
        fired: with clause coverage, clause id -> transitions that exercised it (sorted by
            id; ``properties/explore/coverage.py``); None without.
        store_bytes: with compact storage, the bytes the fingerprint set holds in memory
            (``store_bytes / distinct_states``: bytes per stored state); 0 without.
        collision: with compact storage, TLC's two estimates of the probability that two
            states shared a fingerprint (calculated, from the actual fingerprints;
            :func:`~ruleproof.properties.explore.fpset.collision_probability`).
        playout: ``(seed, actions)`` when the set-up starts late (its ``[playout]``: the
            counts are of what is reachable from there), else None.
    """

    name: str
    game: str
    symmetry: str
    contracts: bool = False
    distinct_states: int = 0
    depth: int = 0
    transitions: int = 0
    terminal: int = 0
    dead_ends: int = 0
    traps: int = 0
    on_cycle: int = 0
    violations: int = 0
    errors: int = 0
    complete: bool = False
    graph: bool = True
    seconds: float = 0.0
    states_per_minute: float = 0.0
    cpu_seconds: float = 0.0
    workers: int = 1
    per_worker: list[tuple[int, float]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    resumed_from: int | None = None
    new_states: int = 0
    unsaved: str | None = None
    fired: dict[str, int] | None = None
    store_bytes: int = 0
    collision: tuple[float, float | None] | None = None
    playout: tuple[int, int] | None = None

    @property
    def cycles(self) -> bool:
        """Whether a cycle was found (a play that can go on for ever)."""
        return self.on_cycle > 0

    def verdict(self) -> dict[str, Any]:
        """Everything a rerun must reproduce exactly (no timings, no worker count)."""
        d = asdict(self)
        for k in ("seconds", "states_per_minute", "cpu_seconds", "workers", "per_worker",
                  "resumed_from", "new_states", "store_bytes", "collision"):
            d.pop(k)
        d["findings"] = [(f.kind, f.message, f.fp, f.depth, list(f.trace)) for f in self.findings]
        return d

    def problems(self) -> list[str]:
        """Why this run does not pass: findings, incompleteness, or no work done."""
        out = []
        if self.distinct_states == 0:
            out.append("no state was explored")
        if not self.complete:
            out.append("the exploration stopped before the last state: nothing is proved")
        if self.violations:
            out.append(f"{self.violations} invariant violation(s)")
        if self.errors:
            out.append(f"{self.errors} model error(s)")
        if self.dead_ends:
            out.append(f"{self.dead_ends} dead end(s)")
        if self.resumed_from is not None and not self.new_states and not self.complete:
            out.append("the resumed run explored no new state")
        return out


Progress = Callable[[int, int, int, float], None]
"""progress(depth, distinct states, frontier size, seconds)."""


class Explorer:
    """The level-synchronous driver over in-process partitions (one by default).

    The distributed driver (``distributed.py``) runs the same partitions in Ray actors.
    """

    def __init__(self, game: ExploreGame, *, parts: int = 1, keep_graph: bool = True,
                 coverage: bool = False, compact: bool = False) -> None:
        if compact and (parts != 1 or keep_graph):
            raise MalformedInput("--compact explores in one process without the state graph "
                                 "(add --no-graph; --workers 1)")
        self.game = game
        self.coverage = coverage
        self.compact = compact
        self.parts = [Partition(game, i, parts, keep_graph, coverage, compact)
                      for i in range(parts)]
        self.roots = started_roots(game)
        self.report = LevelReport()
        self.level = 0
        self.seconds = 0.0
        self.started = False
        self.keep_graph = keep_graph
        self.resumed_from: int | None = None
        """Distinct states of the checkpoint this explorer resumed (None: a fresh run)."""
        self.new_states = 0
        """Distinct states the last :meth:`run` added."""

    # --- level steps (overridden by the distributed driver)
    def _seed(self) -> int:
        return sum(p.seed_roots(self.roots) for p in self.parts)

    def _step(self, depth: int) -> tuple[int, LevelReport]:
        outs = []
        merged = LevelReport()
        for p in self.parts:
            out, rep = p.expand()
            outs.append(out)
            _merge(merged, rep)
        n = len(self.parts)
        decided = [p.decide(depth, [outs[i][j] for i in range(n)])
                   for j, p in enumerate(self.parts)]
        held = [p.adopt([decided[j][i] for j in range(n)]) for i, p in enumerate(self.parts)]
        plan = balance_plan(held)
        given = [p.give(plan[i]) for i, p in enumerate(self.parts)]
        return sum(p.take([given[i][j] for i in range(n)])
                   for j, p in enumerate(self.parts)), merged

    def _frontier(self) -> int:
        return sum(len(p.frontier) for p in self.parts)

    def _distinct(self) -> int:
        return sum(p.size() for p in self.parts)

    def _lookup(self, fps: list[int]) -> dict[int, tuple[int, int, int]]:
        found: dict[int, tuple[int, int, int]] = {}
        for p in self.parts:
            found.update(p.lookup(fps))
        return found

    def _edges(self) -> dict[int, tuple[int, ...]]:
        edges: dict[int, tuple[int, ...]] = {}
        for p in self.parts:
            edges.update(p.edges)
        return edges

    # --- the search
    def run(self, *, max_states: int | None = None, max_seconds: float | None = None,
            progress: Progress | None = None, checkpoint: Path | None = None,
            checkpoint_every: float = 60.0, max_depth: int | None = None) -> ExploreResult:
        """Explore until the frontier is empty (or a limit), then analyse the graph.

        ``max_seconds`` counts from the start of this call (a resumed run gets its own time;
        ``seconds`` of the result sums all runs). ``max_depth``: expand no more levels than
        this (the states first reached at that depth stay in the frontier; ``ruleproof
        perft``)."""
        began = time.perf_counter()
        t0 = began - self.seconds
        last_ck = began
        before = self._distinct()
        unsaved: str | None = None
        if not self.started:
            self._seed()
            self.started = True
        while self._frontier():
            if max_states is not None and self._distinct() >= max_states:
                break
            if max_seconds is not None and time.perf_counter() - began >= max_seconds:
                break
            if max_depth is not None and self.level >= max_depth:
                break
            _, rep = self._step(self.level + 1)
            _merge(self.report, rep)
            self.level += 1
            self.seconds = time.perf_counter() - t0
            if progress:
                progress(self.level, self._distinct(), self._frontier(), self.seconds)
            if checkpoint is not None and time.perf_counter() - last_ck >= checkpoint_every:
                unsaved = self._save_or_say(checkpoint)
                last_ck = time.perf_counter()
        self.seconds = time.perf_counter() - t0
        self.new_states = self._distinct() - before
        gc.unfreeze()  # see Partition.expand
        if checkpoint is not None:
            unsaved = self._save_or_say(checkpoint)
        return replace(self._result(), unsaved=unsaved)

    def close(self) -> None:
        """Remove the compact storage's parent file (traces can no longer be built)."""
        for p in self.parts:
            if p.parent_file is not None:
                p.parent_file.close()

    def _save_or_say(self, checkpoint: Path) -> str | None:
        """:meth:`save`; a checkpoint that cannot be written (a full disk) does not end the
        search (its result is what the user waits for): why, or None once written."""
        try:
            self.save(checkpoint)
        except OutputFailed as exc:
            return str(exc)
        return None

    def _result(self) -> ExploreResult:
        game = self.game
        rep = self.report
        complete = self._frontier() == 0
        distinct = self._distinct()
        depth = self.level - 1 if complete and self.level else self.level
        res = ExploreResult(
            name=game.spec.name, game=game.name, symmetry=game.symmetry_note,
            contracts=game.rule_set is not None,
            distinct_states=distinct, depth=max(depth, 0), transitions=rep.transitions,
            terminal=len(rep.terminal), dead_ends=len(rep.dead_ends),
            violations=len({fp for fp, _ in rep.violations}),
            errors=len({fp for fp, _, _ in rep.errors}), complete=complete,
            graph=self.keep_graph, seconds=round(self.seconds, 3),
            states_per_minute=round(distinct / self.seconds * 60, 1) if self.seconds else 0.0,
            cpu_seconds=round(rep.cpu, 3), workers=len(self.parts),
            resumed_from=self.resumed_from, new_states=self.new_states,
            per_worker=[(n, round(cpu, 3)) for _, (n, cpu) in sorted(rep.by_part.items())],
            fired=dict(sorted(rep.fired.items())) if self.coverage else None,
            playout=game.spec.playout)
        sets = [p.fpset for p in self.parts if p.fpset is not None]
        if sets:
            res.store_bytes = sum(f.nbytes for f in sets)
            res.collision = collision_probability(
                distinct, np.concatenate([f.values() for f in sets]))
        findings: list[Finding] = []
        for kind, items in (("violation", [(fp, m) for fp, m in rep.violations]),
                            ("error", [(fp, m) for fp, _, m in rep.errors]),
                            ("dead-end", [(fp, "a non-terminal state without a legal action")
                                          for fp in rep.dead_ends])):
            firsts: dict[str, int] = {}
            depth_of = self._depths([fp for fp, _ in items])
            for fp, msg in items:
                key = msg.split(":")[0] if kind == "violation" else msg
                if key not in firsts or (depth_of[fp], fp) < (depth_of[firsts[key]],
                                                               firsts[key]):
                    firsts[key] = fp
            for key, fp in sorted(firsts.items()):
                msg = next(m for f, m in items if f == fp and (
                    m.split(":")[0] if kind == "violation" else m) == key)
                # a transition property ("step ACTION: ...") ends its trace with that action
                then = msg[5:msg.index(": ")] if msg.startswith("step ") else None
                findings.append(Finding(kind, msg, fp, self._depth(fp),
                                        self.trace_to(fp, then=then)))
        if complete and self.keep_graph:
            edges = self._edges()
            traps = _traps(edges, set(rep.terminal))
            res.traps = len(traps)
            if traps:
                depth_of = self._depths(list(traps))
                fp = min(traps, key=lambda f: (depth_of[f], f))
                findings.append(Finding("trap", "no terminal state is reachable from here",
                                        fp, self._depth(fp), self.trace_to(fp)))
            on_cycle, comp = _cycle_nodes(edges)
            res.on_cycle = len(on_cycle)
            if on_cycle:
                depth_of = self._depths(list(on_cycle))
                fp = min(on_cycle, key=lambda f: (depth_of[f], f))
                loop = _shortest_loop(fp, edges, comp)
                findings.append(Finding(
                    "cycle", f"a play that can go on for ever (a loop of {len(loop)} action(s))",
                    fp, self._depth(fp), self.trace_to(fp, loop)))
        res.findings = findings
        return res

    def _depth(self, fp: int) -> int:
        return self._lookup([fp])[fp][0]

    def _depths(self, fps: list[int]) -> dict[int, int]:
        """The depth of each of ``fps``, looked up in one batch (on Ray workers one round
        trip per worker, not one per state: 83,754 states on cycles took minutes)."""
        return {fp: v[0] for fp, v in self._lookup(list(dict.fromkeys(fps))).items()}

    def path_to(self, fp: int) -> tuple[int, list[int]]:
        """(root index, action indices from that root) of the shortest path to ``fp``."""
        indices: list[int] = []
        while True:
            _, parent, index = self._lookup([fp])[fp]
            if parent == ROOT_PARENT:
                return index, indices[::-1]
            indices.append(index)
            fp = parent

    def trace_to(self, fp: int, loop: list[int] | None = None,
                 then: str | None = None) -> tuple[dict[str, Any], ...]:
        """A replayable trace to ``fp`` (then around ``loop``, action indices, or the action
        ``then``, if given)."""
        from ruleproof.properties.conformance.trace import header_object
        root_index, indices = self.path_to(fp)
        root = self.roots[root_index]
        game = self.game
        header = header_object(
            game.name, root.header["players"], {
                **({"preset": root.header["preset"]} if "preset" in root.header else {}),
                **root.header["options"]},
            seed=root.header.get("seed"), setup=root.header.get("setup"),
            note=f"ruleproof explore {game.spec.name}: "
                 + (f"the set-up's playout ({len(root.prefix)} action"
                    f"{'' if len(root.prefix) == 1 else 's'}), then " if root.prefix else "")
                 + f"shortest path ({len(indices)} action{'' if len(indices) == 1 else 's'})"
                 + (", then a loop back to where it began" if loop else ""))
        lines: list[dict[str, Any]] = [header]
        state = root.state
        actions: list[str] = list(root.prefix)  # from the real start (a set-up's [playout])
        for index in indices:
            action, state = game.successors(state)[index]
            actions.append(action)
        if loop:
            start = game.view(state)
            loop_actions: list[str] = []
            s = state
            for index in loop:
                action, s = game.successors(s)[index]
                loop_actions.append(action)
            # With symmetry the loop may return to an image of its start: repeat it (at most
            # the group's order) until the concrete state comes back.
            rounds = 1
            while game.view(s) != start and rounds < 720:
                for a in loop_actions:
                    s = dict(game.successors(s))[a]
                rounds += 1
            actions += loop_actions * rounds
        if then is not None:
            actions.append(then)
        for n, action in enumerate(actions, start=1):
            lines.append({"step": n, "action": action})
        return tuple(lines)

    # --- checkpoints
    def save(self, path: Path) -> None:
        """Write a checkpoint: plain JSON (never pickle: a checkpoint file is read back with
        ``--resume`` and must not be able to run code). It holds the configuration and flags,
        the seen-set as ``[fp, depth, parent fp, action index]`` quadruples (flattened), the
        frontier as fingerprints (their states are rebuilt on resume by replaying the parent
        pointers' action indices from the roots), the graph's out-edges, the findings so far
        and the counters.

        The record ends with ``"sha256"``, the hash of everything before it (:func:`seal`):
        :meth:`resume` refuses a file whose content does not match it. The file is written
        with :func:`ruleproof.system.outputs.write_file` (a temporary file renamed over the
        previous checkpoint: that one stays whole if the writing fails).

        Raises:
            MalformedInput: the checkpoint's path may not be written (a symbolic link, FIFO,
                device or folder; a missing or read-only folder).
            OutputFailed: the writing failed (a full disk, a file-size limit), or the record
                is larger than :data:`CHECKPOINT_MAX_BYTES`; the previous checkpoint is intact.
        """
        rep = self.report
        seen: list[int] = []
        frontier: list[int] = []
        edges: list[list[int]] = []
        for p in self.parts:
            for fp, (depth, parent, index) in p.seen.items():
                seen += (fp, depth, parent, index)
            frontier += [fp for fp, _ in p.frontier]
            edges += [[fp, *dsts] for fp, dsts in p.edges.items()]
        data = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
                "name": _spec_name(self.game.spec.name, self.game.spec.path),
                "symmetry": self.game.symmetry,
                "contracts": self.game.rule_set is not None, "keep_graph": self.keep_graph,
                "parts": len(self.parts), "level": self.level, "seconds": self.seconds,
                "report": {"expanded": rep.expanded, "transitions": rep.transitions,
                           "terminal": rep.terminal, "dead_ends": rep.dead_ends,
                           "violations": [list(v) for v in rep.violations],
                           "errors": [list(e) for e in rep.errors], "cpu": rep.cpu},
                "seen": seen, "frontier": frontier, "edges": edges}
        body = json.dumps(data, separators=(",", ":"))  # C encoder: one shot
        text = seal(body)
        if len(text) > CHECKPOINT_MAX_BYTES:
            raise OutputFailed(f"cannot write the checkpoint: it would be {len(text)} bytes, "
                               f"more than the limit {CHECKPOINT_MAX_BYTES} (explore with "
                               "--max-states or without a checkpoint)", file=str(path))
        write_file(Target(path, "--checkpoint", "checkpoint"), text)

    @classmethod
    def resume(cls, path: Path) -> Explorer:
        """An explorer continuing from a checkpoint written by :meth:`save`.

        Raises:
            MalformedInput: unreadable, foreign, malformed or inconsistent checkpoint file
                (``not a ruleproof explore checkpoint (why)``); the configuration it names is
                unknown.
        """
        def bad(why: str) -> MalformedInput:
            return MalformedInput(f"not a ruleproof explore checkpoint ({why})", file=str(path))

        with contextlib.suppress(OSError, ValueError):  # a huge file: refused unread
            size = os.stat(path).st_size
            if size > CHECKPOINT_MAX_BYTES:
                raise MalformedInput(f"cannot read checkpoint: it is {size} bytes, more than "
                                     f"the limit {CHECKPOINT_MAX_BYTES}", file=str(path))
        try:
            raw = read_bytes(path, CHECKPOINT_MAX_BYTES)
        except MalformedInput as exc:
            raise MalformedInput(f"cannot read checkpoint: {exc.what.removeprefix('cannot read file: ')}",
                                 file=str(path)) from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise bad("not UTF-8 text: an old pickled checkpoint is not read") from None
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates)
        except _Duplicate as exc:
            raise bad(f"the key {exc.args[0]!r} appears twice in one object") from None
        except (ValueError, RecursionError) as exc:
            raise bad(f"not JSON: {str(exc)[:80]}") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise bad("no \"format\": \"" + CHECKPOINT_FORMAT + "\"")
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) \
                and 3 <= version < CHECKPOINT_VERSION:  # the JSON ones (2: a pickle)
            raise MalformedInput(
                f"checkpoint version {version} was written by an older ruleproof, whose "
                f"fingerprints this one (version {CHECKPOINT_VERSION}) does not compute: "
                "explore again without --resume (the new run replaces the file)",
                file=str(path))
        if version != CHECKPOINT_VERSION:
            raise bad(f"version {version!r}, this ruleproof reads {CHECKPOINT_VERSION}")
        why = unsealed(text)
        if why:
            raise bad(why)
        extra = sorted(set(data) - _CHECKPOINT_KEYS)
        if extra:
            raise bad(f"unknown key(s) {', '.join(map(repr, extra))}")
        ck = _Checked(data, bad)
        name = ck.str_("name")
        symmetry, contracts = ck.bool_("symmetry"), ck.bool_("contracts")
        keep_graph = ck.bool_("keep_graph")
        parts, level = ck.int_("parts", 1, 64), ck.int_("level", 0, 1 << 31)
        seconds = ck.num("seconds")
        rd = ck.dict_("report")
        extra = sorted(set(rd) - _REPORT_KEYS)
        if extra:
            raise bad(f"report: unknown key(s) {', '.join(map(repr, extra))}")
        r = _Checked(rd, lambda why: bad(f"report: {why}"))
        report = LevelReport(
            expanded=r.int_("expanded", 0, 1 << 62), transitions=r.int_("transitions", 0, 1 << 62),
            terminal=r.fps("terminal"), dead_ends=r.fps("dead_ends"),
            violations=[(_fp(v[0], bad), v[1]) for v in r.rows("violations", (int, str))],
            errors=[(_fp(e[0], bad), e[1], e[2]) for e in r.rows("errors", (int, int, str))],
            cpu=r.num("cpu"))
        flat = ck.fps("seen", lo=-1)
        if len(flat) % 4:
            raise bad("seen: not [fp, depth, parent, index] quadruples")
        seen: dict[int, tuple[int, int, int]] = {}
        for i in range(0, len(flat), 4):
            fp, depth, parent, index = flat[i:i + 4]
            if fp < 0:
                raise bad(f"seen: fingerprint {fp}")
            seen[fp] = (depth, parent, index)
        frontier = ck.fps("frontier")
        edges: dict[int, tuple[int, ...]] = {}
        for row in ck.list_("edges"):
            if not isinstance(row, list) or not row:
                raise bad("edges: not [fp, successor fps...] rows")
            src = _fp(row[0], bad)
            if src in edges:
                raise bad(f"edges: two rows for {src}")
            edges[src] = tuple(_fp(x, bad) for x in row[1:])
        if len(seen) * 4 != len(flat):
            raise bad("seen: a fingerprint appears twice")
        why = _inconsistent(seen, frontier, edges, report, level, keep_graph)
        if why:
            raise bad(why)
        try:
            game = explore_game(name, symmetry=symmetry, contracts=contracts)
        except MalformedInput as exc:
            raise bad(f"configuration {name!r}: {exc.what}") from None
        ex = cls(game, parts=parts, keep_graph=keep_graph)
        # the roots recorded must be the configuration's roots now: a changed deal, seeds or
        # [playout] would otherwise go unnoticed in a finished checkpoint (no frontier to
        # replay) and report the old counts for the new start
        recorded = {fp for fp, (_, parent, _) in seen.items() if parent == ROOT_PARENT}
        if recorded != {game.fp(r.state) for r in ex.roots}:
            raise bad(f"its roots are not those of {name!r} now (its deal, seeds or "
                      "[playout] changed since it was written): explore again without "
                      "--resume")
        states = ex._rebuild(frontier, seen, bad)
        for p in ex.parts:
            p.seen = {fp: v for fp, v in seen.items() if fp % parts == p.index}
            p.edges = {fp: v for fp, v in edges.items() if fp % parts == p.index}
            p.frontier = [(fp, states[fp]) for fp in sorted(frontier) if fp % parts == p.index]
            p.depth = level
        ex.level, ex.seconds, ex.report, ex.started = level, seconds, report, True
        ex.resumed_from = len(seen)
        return ex

    def _rebuild(self, frontier: list[int], seen: dict[int, tuple[int, int, int]],
                 bad: Callable[[str], MalformedInput]) -> dict[int, Any]:
        """The frontier's states, rebuilt by replaying the parent pointers' action indices
        from the roots (ancestors shared); every rebuilt state's fingerprint must be the one
        recorded (else the checkpoint belongs to another model or configuration)."""
        need: dict[int, tuple[int, int, int]] = {}
        for fp in frontier:
            while fp not in need:
                if fp not in seen:
                    raise bad(f"fingerprint {fp} has no parent pointer")
                depth, parent, index = seen[fp]
                need[fp] = (depth, parent, index)
                if parent == ROOT_PARENT:
                    break
                if parent not in seen or seen[parent][0] != depth - 1:
                    raise bad(f"parent pointer of {fp} does not lead back to a root")
                fp = parent
        states: dict[int, Any] = {}
        game = self.game
        cache: tuple[int, list[tuple[str, Any]]] | None = None
        for fp, (depth, parent, index) in sorted(need.items(),
                                                 key=lambda kv: (kv[1][0], kv[1][1], kv[0])):
            if parent == ROOT_PARENT:
                if depth != 0 or not 0 <= index < len(self.roots):
                    raise bad(f"root {fp}: no root {index} at depth {depth}")
                state = self.roots[index].state
            else:
                if cache is None or cache[0] != parent:
                    cache = (parent, game.successors(states[parent]))
                if not 0 <= index < len(cache[1]):
                    raise bad(f"state {fp}: no action {index} from its parent")
                state = cache[1][index][1]
            if game.fp(state) != fp:
                raise bad(f"state {fp} does not replay to its fingerprint (another model or "
                          "configuration?)")
            states[fp] = state
        return states


CHECKPOINT_MAX_BYTES = 512 * 1024 * 1024
"""The largest checkpoint written or read (bytes; at most this many are read, so a huge or
endless file is refused before it fills the memory)."""

_SEAL = re.compile(r',"sha256":"([0-9a-f]{64})"\}\s*\Z')


def seal(body: str) -> str:
    """The JSON object ``body`` (compact, ending in ``}``) with ``"sha256"`` appended: the
    SHA-256 of ``body`` itself, so that any change to the record is seen on resume."""
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return f'{body[:-1]},"sha256":"{digest}"}}'


def unsealed(text: str) -> str:
    """Why the checkpoint text ``text`` does not match its ``"sha256"`` ('' if it does)."""
    m = _SEAL.search(text)
    if m is None:
        return "no \"sha256\" at its end: not written by this ruleproof, or edited"
    body = text[:m.start()] + "}"
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != m.group(1):
        return "its content does not match its sha256: the file was edited or damaged"
    return ""


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


_CHECKPOINT_KEYS = frozenset({"format", "version", "name", "symmetry", "contracts", "keep_graph",
                              "parts", "level", "seconds", "report", "seen", "frontier", "edges",
                              "sha256"})
"""The keys :meth:`Explorer.save` writes (a checkpoint with others is refused)."""
_REPORT_KEYS = frozenset({"expanded", "transitions", "terminal", "dead_ends", "violations",
                          "errors", "cpu"})
"""The keys of a checkpoint's ``report``."""
MAX_ACTIONS = 1 << 16
"""More legal actions than any game has in one state: a bound on an action index read back."""


def _inconsistent(seen: dict[int, tuple[int, int, int]], frontier: list[int],
                  edges: dict[int, tuple[int, ...]], report: LevelReport, level: int,
                  keep_graph: bool) -> str:
    """Why a checkpoint's parts do not fit together ('' if they do): the frontier must be
    exactly the seen states at the deepest level, nothing deeper; the counters must not
    exceed the states; every edge must join seen states."""
    if len(set(frontier)) != len(frontier):
        return "frontier: a fingerprint appears twice"
    deepest = {fp for fp, (depth, _, _) in seen.items() if depth == level}
    deeper = [fp for fp, (depth, _, _) in seen.items() if depth > level or depth < 0]
    if deeper:
        return f"seen: state {deeper[0]} lies outside levels 0..{level}"
    if set(frontier) != deepest:
        return (f"frontier: {len(frontier)} states, but {len(deepest)} seen states are at "
                f"level {level}")
    if report.expanded > len(seen):
        return f"report: {report.expanded} states expanded, but only {len(seen)} seen"
    if edges and report.transitions != sum(map(len, edges.values())):
        return (f"report: {report.transitions} transitions, but the graph has "
                f"{sum(map(len, edges.values()))} edges")
    bad_index = [i for _, i, _ in report.errors if not -1 <= i < MAX_ACTIONS]
    if bad_index:
        return f"report: errors name action index {bad_index[0]} (-1..{MAX_ACTIONS - 1})"
    for fps, what in ((report.terminal, "terminal"), (report.dead_ends, "dead_ends"),
                      ([fp for fp, _ in report.violations], "violations"),
                      ([fp for fp, _, _ in report.errors], "errors")):
        stray = [fp for fp in fps if fp not in seen]
        if stray:
            return f"report: {what} names {stray[0]}, which was not seen"
    if edges and not keep_graph:
        return "edges given, but the checkpoint keeps no graph"
    for src, dsts in edges.items():
        stray = [fp for fp in (src, *dsts) if fp not in seen]
        if stray:
            return f"edges: {stray[0]} was not seen"
    return ""


class _Checked:
    """Typed access to a checkpoint's JSON object; any mismatch raises ``bad(why)``."""

    def __init__(self, data: dict[str, Any], bad: Callable[[str], MalformedInput]) -> None:
        self.data, self.bad = data, bad

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise self.bad(f"no {key!r}")
        return self.data[key]

    def str_(self, key: str) -> str:
        v = self._get(key)
        if not isinstance(v, str) or not v:
            raise self.bad(f"{key!r} is not a non-empty string")
        return v

    def bool_(self, key: str) -> bool:
        v = self._get(key)
        if not isinstance(v, bool):
            raise self.bad(f"{key!r} is not true or false")
        return v

    def int_(self, key: str, lo: int, hi: int) -> int:
        v = self._get(key)
        if not _is_int(v) or not lo <= v <= hi:
            raise self.bad(f"{key!r} is not an integer in {lo}..{hi}")
        return int(v)

    def num(self, key: str) -> float:
        v = self._get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v < 1e12:
            raise self.bad(f"{key!r} is not a number of seconds")
        return float(v)

    def dict_(self, key: str) -> dict[str, Any]:
        v = self._get(key)
        if not isinstance(v, dict):
            raise self.bad(f"{key!r} is not an object")
        return v

    def list_(self, key: str) -> list[Any]:
        v = self._get(key)
        if not isinstance(v, list):
            raise self.bad(f"{key!r} is not a list")
        return v

    def fps(self, key: str, lo: int = 0) -> list[int]:
        v = self.list_(key)
        if not all(_is_int(x) and lo <= x < FP_LIMIT for x in v):
            raise self.bad(f"{key!r} holds something other than fingerprints")
        return v

    def rows(self, key: str, shape: tuple[type, ...]) -> list[list[Any]]:
        v = self.list_(key)
        for row in v:
            if not (isinstance(row, list) and len(row) == len(shape) and all(
                    (_is_int(x) if t is int else isinstance(x, t)) for x, t in zip(row, shape,
                                                                                 strict=True))):
                raise self.bad(f"{key!r}: a row is not of the shape "
                               f"[{', '.join(t.__name__ for t in shape)}]")
        return v


def _spec_name(name: str, path: str) -> str:
    """A shipped configuration by its name (a checkpoint then resumes in another checkout),
    a user's file by its path."""
    if name in shipped() and Path(configuration(name).path).resolve() == Path(path).resolve():
        return name
    return path


FP_LIMIT = 1 << 64
"""Fingerprints are 64-bit: 0 <= fp < FP_LIMIT."""


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _fp(x: object, bad: Callable[[str], MalformedInput]) -> int:
    if not _is_int(x) or not -1 <= x < FP_LIMIT:  # type: ignore[operator]
        raise bad(f"{str(x)[:40]!r} is not a fingerprint")
    return x  # type: ignore[return-value]


def _merge(into: LevelReport, rep: LevelReport) -> None:
    into.expanded += rep.expanded
    into.transitions += rep.transitions
    into.terminal += rep.terminal
    into.dead_ends += rep.dead_ends
    into.violations += rep.violations
    into.errors += rep.errors
    into.cpu += rep.cpu
    for clause, n in rep.fired.items():
        into.fired[clause] = into.fired.get(clause, 0) + n
    for part, (expanded, cpu) in rep.by_part.items():
        before = into.by_part.get(part, (0, 0.0))
        into.by_part[part] = (before[0] + expanded, before[1] + cpu)


def _traps(edges: dict[int, tuple[int, ...]], terminal: set[int]) -> set[int]:
    """States from which no terminal state is reachable (backward reachability)."""
    reverse: dict[int, list[int]] = {}
    for src, dsts in edges.items():
        for d in dsts:
            reverse.setdefault(d, []).append(src)
    good = set(terminal)
    todo = deque(terminal)
    while todo:
        for p in reverse.get(todo.popleft(), ()):
            if p not in good:
                good.add(p)
                todo.append(p)
    return {fp for fp in edges if fp not in good}


def _cycle_nodes(edges: dict[int, tuple[int, ...]]) -> tuple[set[int], dict[int, int]]:
    """States on a cycle (in a strongly connected component with an edge), and the component
    id of every state (iterative Tarjan)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    comp: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    counter = 0
    cyclic: set[int] = set()
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, i = work[-1]
            succ = edges.get(v, ())
            if i < len(succ):
                work[-1] = (v, i + 1)
                w = succ[i]
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp[w] = v
                    members.append(w)
                    if w == v:
                        break
                if len(members) > 1 or v in edges.get(v, ()):
                    cyclic.update(members)
    return cyclic, comp


def _shortest_loop(fp: int, edges: dict[int, tuple[int, ...]], comp: dict[int, int]) -> list[int]:
    """Action indices of a shortest cycle from ``fp`` back to ``fp`` (BFS in its component)."""
    target = comp[fp]
    parent: dict[int, tuple[int, int]] = {}
    todo = deque([fp])
    seen = {fp}
    while todo:
        v = todo.popleft()
        for i, w in enumerate(edges.get(v, ())):
            if w == fp:
                path = [i]
                while v != fp:
                    v, j = parent[v]
                    path.append(j)
                return path[::-1]
            if w not in seen and comp.get(w) == target:
                seen.add(w)
                parent[w] = (v, i)
                todo.append(w)
    raise AssertionError("a state on a cycle has no loop")  # pragma: no cover


def explore(name: str, *, symmetry: bool | None = None, contracts: bool | None = None,
            max_states: int | None = None,
            max_seconds: float | None = None, keep_graph: bool | None = None,
            progress: Progress | None = None, checkpoint: Path | None = None,
            resume: bool = False, checkpoint_every: float = 60.0,
            coverage: bool = False, compact: bool = False) -> ExploreResult:
    """Explore the reduced configuration ``name`` (shipped name or file) in this process.

    ``coverage``: count, per rule clause, the transitions that exercised it
    (``ExploreResult.fired``; not with a checkpoint, whose record does not keep the counts).
    ``compact``: compact state storage (``fpset.py``: at most 16 bytes per stored state in
    memory, parent pointers on disk; needs ``keep_graph=False``, no checkpoint).

    ``symmetry``, ``contracts`` and ``keep_graph`` default to off, off and on; with ``resume``
    they (and ``name``, if not empty) default to the checkpoint's, and a value given that
    differs from the checkpoint's is refused. ``max_seconds`` counts from this call.

    Raises:
        MalformedInput: an unknown or invalid configuration, an unreadable or malformed
            checkpoint, a checkpoint that does not match the configuration or flags given, or
            a checkpoint folder that cannot be written.
    """
    if compact and (checkpoint is not None or resume):
        raise MalformedInput("--compact does not work with --checkpoint/--resume; drop one")
    if coverage and checkpoint is not None:
        raise MalformedInput("--coverage does not work with --checkpoint (the checkpoint does "
                             "not keep the clause counts); drop one")
    if resume:
        if checkpoint is None or not checkpoint.is_file():
            raise MalformedInput("--resume needs an existing --checkpoint FILE")
        ex = Explorer.resume(checkpoint)
        mismatch = resume_mismatch(ex, name, symmetry=symmetry, contracts=contracts,
                                   keep_graph=keep_graph)
        if mismatch:
            raise MalformedInput(f"--resume: {mismatch}", file=str(checkpoint))
    else:
        if checkpoint is not None and checkpoint.is_file():
            # a checkpoint is hours of work: never replaced by a fresh run of its own accord
            raise MalformedInput(f"--checkpoint {checkpoint}: the file exists; if it is an "
                                 "earlier run's checkpoint, continue it with --resume; to "
                                 "start afresh, remove it or name another file")
        ex = Explorer(explore_game(name, symmetry=bool(symmetry), contracts=bool(contracts)),
                      keep_graph=keep_graph is not False, coverage=coverage, compact=compact)
    if checkpoint is not None:
        check_writable(checkpoint)
    try:
        return ex.run(max_states=max_states, max_seconds=max_seconds, progress=progress,
                      checkpoint=checkpoint, checkpoint_every=checkpoint_every)
    finally:
        ex.close()


def resume_mismatch(ex: Explorer, name: str, *, symmetry: bool | None = None,
                    contracts: bool | None = None, keep_graph: bool | None = None) -> str:
    """Why the resumed explorer ``ex`` does not match what was asked for ('' if it does):
    the configuration ``name`` (if not empty), ``symmetry``, ``contracts``, ``keep_graph``
    (each if not None).

    Raises:
        MalformedInput: ``name`` is not a reduced configuration.
    """
    spec = ex.game.spec
    if name and Path(configuration(name).path).resolve() != Path(spec.path).resolve():
        return f"the checkpoint explores {spec.name} ({spec.path}), not {name}"
    for flag, asked, has in (("--symmetry", symmetry, ex.game.symmetry),
                             ("--contracts", contracts, ex.game.rule_set is not None),
                             ("--no-graph", None if keep_graph is None else not keep_graph,
                              not ex.keep_graph)):
        if asked is not None and asked != has:
            return (f"the checkpoint was written {'with' if has else 'without'} {flag}; "
                    f"resume {'with' if has else 'without'} it")
    return ""


def check_writable(checkpoint: Path) -> None:
    """Fail early (before exploring) if the checkpoint file may not be written: its folder
    must exist and take a new file, and its path must be free or a regular file (a symbolic
    link, FIFO, device or folder is never replaced: :func:`ruleproof.system.outputs.check_target`).

    Raises:
        MalformedInput: naming --checkpoint.
    """
    check_target(Target(checkpoint, "--checkpoint", "checkpoint"))
