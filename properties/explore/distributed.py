"""Campaigns on Ray (optional extra ``[ray]``): exploration with the seen-set partitioned by
fingerprint across workers (as TLC's distributed mode), and a generic fan-out of seeded work.

What is wired (docs/explore.md, "Campaigns on Ray"):

* ``ruleproof explore NAME --workers N [--ray-address ADDR]``: :func:`explore_distributed`.
  Worker ``i`` is a Ray actor owning the fingerprints ``fp % N == i`` (their seen-set
  entries). Each BFS level every worker expands the states it holds and proposes each new
  successor to its owner as ``(fingerprint, parent, action index)``; the owner keeps, per new
  fingerprint, the proposal with the smallest parent key and tells the finder, which holds
  that state for the next level; then the driver evens out how many states each worker holds
  (the surplus is handed over, pickled). So the result (counts, depth, findings, traces) of a
  complete run, or of one stopped by ``max_states``, is that of a single process whatever the
  timing, and the work is shared. (A run stopped by ``max_seconds`` stops at a level that
  depends on the speed, as a single process does.)
* :func:`fan_out` ``(seeds, fn)``: ``fn(seed)`` for every seed on Ray workers, results in seed
  order; for discovery and ``conform`` campaigns (each seed an independent search).
* :func:`fan_out_until`: the same, handed out in order and stopped at the first result a
  predicate accepts (``conform`` campaigns: the first divergence by seed order).
* :func:`probe_address`: ``--ray-address`` is probed before Ray's connection retries.
* :func:`seeded_games`: seeded random games of a reduced configuration, every state checked
  against every invariant, fanned out over workers (for scripts; ``check --workers N`` runs
  check's own properties as Ray tasks instead).

A local Ray is started (and stopped) when none runs and no address is given.
"""

from __future__ import annotations

import logging
import os
import pickle
import random
import secrets
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from ruleproof.errors import Interrupted, MalformedInput
from ruleproof.properties.explore.games import ExploreGame, explore_game, started_roots
from ruleproof.properties.explore.search import (
    Explorer,
    ExploreResult,
    LevelReport,
    Partition,
    Progress,
    Proposal,
    _merge,
    balance_plan,
    gc_paused,
)
from ruleproof.system.processes import RAY_MARK, Watcher

T = TypeVar("T")

SCHEDULE_SECONDS = 120.0
"""Seconds ``explore --workers N`` waits for its N actors to be placed and ready."""

JOIN_SECONDS = 30.0
"""Seconds ``ray.init`` may take to join a cluster at ``--ray-address`` before giving up."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the installation
        raise MalformedInput('Ray is not installed: pip install ".[ray]" from the clone') from None
    return ray


_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""The HTTP/2 client preface and an empty SETTINGS frame: Ray's GCS (and the Ray Client
server) speak gRPC, so any of them answers with a SETTINGS frame of its own."""


def check_address(address: str | None) -> tuple[str, int] | None:
    """The ``(host, port)`` of a ``--ray-address`` (None for no address, ``auto`` and
    ``local``), checked without touching the network, so that a command can refuse a bad one
    before any work.

    Raises:
        MalformedInput: ``--ray-address ADDR: expected HOST:PORT ...`` (an empty or blank
            address included).
    """
    if address is None or address in ("auto", "local"):
        return None
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if (not sep or not host.strip() or host != host.strip()
            or not (port_text.isascii() and port_text.isdigit())
            or not 0 < int(port_text) < 65536):
        raise MalformedInput(f"--ray-address {address!r}: expected HOST:PORT (the head node's "
                             "GCS port, 6379 by default), ray://HOST:PORT or auto")
    return host, int(port_text)


def probe_address(address: str, timeout: float = 3.0) -> None:
    """Fail fast where ``ray.init(address=...)`` would retry for minutes: ``HOST:PORT`` (or
    ``ray://HOST:PORT``) must accept a TCP connection within ``timeout`` seconds and answer
    the HTTP/2 preface as a gRPC server does. ``auto`` and ``local`` are left to Ray.

    Raises:
        MalformedInput: ``--ray-address ADDR: nothing listens there (REASON)``, or that what
            listens is not Ray, or an address that is not ``HOST:PORT``.
    """
    import socket

    parsed = check_address(address)
    if parsed is None:
        return
    host, port = parsed
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(_HTTP2_PREFACE)
            head = sock.recv(9)
    except socket.gaierror as exc:
        raise MalformedInput(f"--ray-address {address}: nothing listens there (unknown host: "
                             f"{exc.strerror or exc})") from None
    except TimeoutError:
        raise MalformedInput(f"--ray-address {address}: nothing listens there (no answer "
                             f"within {timeout:g} s)") from None
    except OSError as exc:
        raise MalformedInput(f"--ray-address {address}: nothing listens there "
                             f"({exc.strerror or exc})") from None
    if len(head) < 9 or head[3] != 4:  # frame type 4: SETTINGS
        raise MalformedInput(f"--ray-address {address}: something listens there but it is not "
                             "a Ray head node (no gRPC answer)")


def check_workers(workers: int, address: str | None) -> None:
    """Refuse more workers than this machine has CPUs for a local Ray (every worker holds
    one): the one cap of ``--workers`` for every command that starts a local Ray (explore,
    check, conform, discovery). A cluster (``address``) or a Ray already running decides for
    itself.

    Raises:
        MalformedInput: ``--workers N: this machine has C CPUs ...``.
    """
    cores = os.cpu_count() or 1
    if address is None and workers > cores and not _ray().is_initialized():
        raise MalformedInput(f"--workers {workers}: this machine has {cores} CPUs and every "
                             f"worker holds one; use --workers {cores} or fewer")


class _Started:
    """A Ray this process started (a local one, with its :class:`Watcher`) or joined."""

    def __init__(self, watcher: Watcher | None) -> None:
        self.watcher = watcher

    def stop(self) -> None:
        """Leave Ray (a local one is shut down), then let the watcher stop whatever of the
        local Ray is still alive (its agents outlive ``ray.shutdown`` at times)."""
        try:
            _ray().shutdown()
        finally:
            if self.watcher is not None:
                self.watcher.close()


def _init(workers: int, address: str | None) -> _Started | None:
    """Start a local Ray (or connect to ``address``, probed first: :func:`probe_address`)
    unless one runs; what to stop if started here, else None.

    A local Ray's processes are marked in their environment and watched by a
    :class:`ruleproof.system.processes.Watcher`: they are stopped when the run ends, even if
    it is killed. The signal handlers Ray installs in ``ray.init`` (SIGTERM: exit) are put
    back to this process's own afterwards, so that SIGINT and SIGTERM still end the run
    cleanly (exit 130 / 143, every worker stopped).

    Raises:
        MalformedInput: nothing (or no Ray) listens at ``address``; Ray refuses to connect;
            more workers than CPUs for a local Ray (:func:`check_workers`).
        Interrupted: SIGTERM arrived while Ray was starting.
    """
    if address is not None:
        probe_address(address)  # first: a dead address is an error with or without Ray
    check_workers(workers, address)
    ray = _ray()
    if ray.is_initialized():
        return None
    watcher: Watcher | None = None
    if address is None:
        watcher = Watcher()
        mark = secrets.token_hex(8)
        watcher.watch(f"{RAY_MARK}={mark}")
        os.environ[RAY_MARK] = mark
    handlers = ({s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
                if threading.current_thread() is threading.main_thread() else {})
    resignal: int | None = None
    woken, wake = os.pipe()  # which signal came while Ray's handlers were in place
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    before = signal.set_wakeup_fd(wake) if handlers else None
    try:
        _join(ray, workers, address)
        if watcher is not None:
            watcher.watch(f"RAY_NODE_ID={ray.get_runtime_context().get_node_id()}")
    except (SystemExit, KeyboardInterrupt) as exc:  # Ray's handlers, while it was starting
        if watcher is not None:
            watcher.close()
        if isinstance(exc, Interrupted):
            raise
        try:
            came = [b for b in os.read(woken, 64) if b in (signal.SIGINT, signal.SIGTERM)]
        except BlockingIOError:
            came = []
        resignal = (came[0] if came else signal.SIGTERM if isinstance(exc, SystemExit)
                    else signal.SIGINT)
    except BaseException:
        if watcher is not None:
            watcher.close()
        raise
    finally:
        if before is not None:
            signal.set_wakeup_fd(before)
        os.close(woken)
        os.close(wake)
        os.environ.pop(RAY_MARK, None)
        for sig, handler in handlers.items():
            if handler is not None:
                signal.signal(sig, handler)
    if resignal is not None:
        # the signal Ray's handler took, given to this process's own handler (the command
        # line's: it records the signal, stops the workers and raises Interrupted)
        signal.raise_signal(resignal)
        raise Interrupted(resignal)
    return _Started(watcher)


def _join(ray: Any, workers: int, address: str | None) -> None:
    """``ray.init`` for :func:`_init`, quiet, a join given up after JOIN_SECONDS.

    Raises:
        MalformedInput: nothing (or no Ray) answers at ``address``.
    """
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if address is not None:
        kwargs["address"] = address
    else:
        kwargs["num_cpus"] = workers
    failed: list[BaseException] = []
    done = threading.Event()

    def join() -> None:
        try:
            ray.init(**kwargs)
        except BaseException as exc:  # handed to the caller below
            failed.append(exc)
        finally:
            done.set()

    # Ray's own notices (that token authentication is on, its C++ client's retries) would
    # make an error more than one line: its Python loggers are quieted and this process's
    # stderr (fd 2) goes to a file while it starts; they are read back for a reason
    quiet = logging.getLogger("ray")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as said:
        os.dup2(said.fileno(), 2)
        try:
            # ray.init retries for minutes against a gRPC server that is not Ray: it runs in
            # a daemon thread, given up after JOIN_SECONDS (only with an address; a local
            # start is Ray's own business)
            if address is None:
                join()
            else:
                threading.Thread(target=join, name="ray-init", daemon=True).start()
            joined = done.wait(JOIN_SECONDS if address is not None else None)
        finally:
            sys.stderr.flush()
            if done.is_set():
                os.dup2(saved, 2)
                os.close(saved)
            else:
                # the abandoned join goes on in its thread and Ray's native client writes
                # its warnings to fd 2 directly: fd 2 stays away from the terminal, and
                # Python's stderr (this run's one error line) goes to the real one
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 2)
                os.close(devnull)
                sys.stderr = os.fdopen(saved, "w", encoding="utf-8", errors="replace",
                                       buffering=1)
            quiet.setLevel(level)
        said.seek(0)
        notes = said.read(1 << 16).decode("utf-8", "replace")
    said_all = (notes + " ".join(map(str, failed))).lower()
    token = ("; the cluster wants an authentication token (RAY_AUTH_MODE=token with "
             "RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH)") if any(
        w in said_all for w in ("unauthenticated", "authentication token", "invalidauthtoken")
    ) else ""
    if not joined:
        raise MalformedInput(f"--ray-address {address}: no Ray cluster answered within "
                             f"{JOIN_SECONDS:g} s{token}")
    if failed:
        exc = failed[0]
        if address is None or not isinstance(exc, ConnectionError | RuntimeError | ValueError):
            raise exc
        what = " ".join(str(exc).split())[:200]
        raise MalformedInput(f"--ray-address {address}: cannot join the cluster ({what}){token}"
                             ) from None


@contextmanager
def ray_session(workers: int, address: str | None,
                warm: Callable[[], object] | None = None) -> Iterator[None]:
    """Ray up (and, with ``warm``, every worker process started) for the block, so that a
    budget counted inside it leaves out Ray's start: :func:`fan_out_until` and
    :func:`fan_out` within reuse it. Nothing happens for ``workers <= 1`` without an address
    (this process). ``warm`` (a picklable module-level function) runs once per worker slot.

    Raises:
        MalformedInput: as :func:`_init`.
    """
    if workers <= 1 and address is None:
        yield
        return
    started = _init(workers, address)
    ray = _ray()
    try:
        if warm is not None:
            slots = workers if workers > 1 else max(1, int(ray.cluster_resources().get("CPU", 1)))
            task = ray.remote(num_cpus=1)(warm)
            ray.get([task.remote() for _ in range(slots)])
        yield
    finally:
        if started is not None:
            started.stop()


class PartitionActor:
    """A :class:`Partition` inside a Ray actor (created with ``ray.remote``).

    States handed over to even out the work travel as bytes pickled here with the standard
    (C) pickler: Ray's own serialiser (cloudpickle, which consults a Python hook per object)
    took about twice as long for the many small objects of a state. The CPU a report gives
    is the whole process's since the previous report (``time.process_time``): the
    partition's work, (de)serialising, and Ray's threads in the worker process."""

    def __init__(self, name: str, index: int, parts: int, symmetry: bool,
                 keep_graph: bool, contracts: bool = False, coverage: bool = False) -> None:
        game = explore_game(name, symmetry=symmetry, contracts=contracts)
        self.part = Partition(game, index, parts, keep_graph, coverage)
        self.roots = started_roots(game)
        self._mark = time.process_time()

    def seed(self) -> int:
        return self.part.seed_roots(self.roots)

    def take_expand(self, *given: bytes | None) -> tuple[Any, ...]:
        """Hold the states handed over (pickled lists, None for none), then
        :meth:`Partition.expand`: one proposal per partition, then the report
        (``num_returns`` is the number of partitions + 1)."""
        if any(given):
            with gc_paused():  # the states unpickled here live on (Partition.expand)
                self.part.take([pickle.loads(b) if b else [] for b in given])
        out, rep = self.part.expand()
        now = time.process_time()
        rep.cpu, self._mark = now - self._mark, now
        rep.by_part = {self.part.index: (rep.expanded, rep.cpu)}
        return (*out, rep)

    def decide_counted(self, depth: int, *proposals: Proposal) -> tuple[Any, ...]:
        """:meth:`Partition.decide`: the accepted fingerprints per proposer, then how many
        per proposer (last; ``num_returns`` is the number of partitions + 1)."""
        accepted = self.part.decide(depth, list(proposals))
        return (*accepted, [len(a) for a in accepted])

    def adopt_give(self, plan: list[int], *accepted: list[int]) -> Any:
        """:meth:`Partition.adopt`, then :meth:`Partition.give` ``plan[j]`` states to each
        partition ``j``: one value per partition, pickled bytes or None."""
        self.part.adopt(list(accepted))
        if not any(plan):
            out: list[bytes | None] = [None] * len(plan)
        else:
            with gc_paused():
                out = [pickle.dumps(batch, pickle.HIGHEST_PROTOCOL) if batch else None
                       for batch in self.part.give(plan)]
        return out[0] if len(out) == 1 else tuple(out)

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
                 keep_graph: bool = True, contracts: bool = False,
                 game: ExploreGame | None = None, coverage: bool = False) -> None:
        """``game``: the driver's copy of ``name``'s game, if the caller has built it."""
        super().__init__(game or explore_game(name, symmetry=symmetry, contracts=contracts),
                         parts=1, keep_graph=keep_graph, coverage=coverage)
        ray = _ray()
        self.parts = []
        actor = ray.remote(num_cpus=1)(PartitionActor)
        self.actors = [actor.remote(name, i, workers, symmetry, keep_graph, contracts, coverage)
                       for i in range(workers)]
        self.workers = workers
        self._lookup_cache: dict[int, tuple[int, int, int]] = {}
        self._front = 0  # states in the next frontier (the owners' accepted count)
        self._given: list[Any] | None = None  # per worker, what it hands to each other one
        # wait until every actor has imported the model and built its game, so that the
        # search's clock (``run``) starts with the workers ready, as for one process; an
        # actor the cluster cannot place (its CPUs busy with other jobs) is not waited for
        # in vain
        try:
            ray.get([a.frontier.remote() for a in self.actors], timeout=SCHEDULE_SECONDS)
        except ray.exceptions.GetTimeoutError:
            for a in self.actors:
                ray.kill(a)
            raise MalformedInput(f"--workers {workers}: not every worker was scheduled on the "
                                 f"Ray cluster within {SCHEDULE_SECONDS:g} s (are its CPUs "
                                 "busy?)") from None

    def _seed(self) -> int:
        ray = _ray()
        self._front = int(sum(ray.get([a.seed.remote() for a in self.actors])))
        self._given = None
        return self._front

    def _step(self, depth: int) -> tuple[int, LevelReport]:
        ray = _ray()
        n = self.workers
        # three rounds per level, from worker to worker (object references, not through the
        # driver): each worker takes the states handed to it and expands the states it
        # holds, proposing (fp, parent, index) to the owners; the owners decide; each
        # worker adopts what its owners accepted and hands states to the others where the
        # driver's plan evens the shares out. Only integers travel, except those states. The
        # driver waits once a level, for the reports and the counts it plans with.
        given = self._given
        outs = [a.take_expand.options(num_returns=n + 1).remote(
            *([] if given is None else [given[i][j] for i in range(n)]))
            for j, a in enumerate(self.actors)]
        decided = [self.actors[j].decide_counted.options(num_returns=n + 1).remote(
            depth, *[outs[i][j] for i in range(n)]) for j in range(n)]
        reports, counts = ray.get([o[n] for o in outs]), ray.get([d[n] for d in decided])
        held = [sum(counts[j][i] for j in range(n)) for i in range(n)]
        plan = balance_plan(held)
        refs = [a.adopt_give.options(num_returns=n).remote(plan[i], *[decided[j][i]
                                                                       for j in range(n)])
                for i, a in enumerate(self.actors)]
        self._given = [r if n > 1 else [r] for r in refs]
        merged = LevelReport()
        for rep in reports:
            _merge(merged, rep)
        self._front = sum(held)
        return self._front, merged

    def _frontier(self) -> int:
        return self._front

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
                        contracts: bool = False, coverage: bool = False) -> ExploreResult:
    """Explore ``name`` with the seen-set partitioned over ``workers`` Ray actors
    (``coverage``: count the clauses every transition exercised, as :func:`explore`).

    Raises:
        MalformedInput: Ray missing, fewer than 1 worker, more workers than the cluster has
            CPUs, or a bad configuration.
    """
    if workers < 1:
        raise MalformedInput(f"--workers must be at least 1, got {workers}")
    # a bad configuration is refused before Ray starts (which takes seconds)
    game = explore_game(name, symmetry=symmetry, contracts=contracts)
    check_workers(workers, address)
    started = _init(workers, address)
    ex: RayExplorer | None = None
    try:
        # each partition is an actor holding one CPU for the whole search: with fewer CPUs
        # the others are never scheduled and the search would wait for ever
        cpus = float(_ray().cluster_resources().get("CPU", 0))
        if cpus < workers:
            raise MalformedInput(f"--workers {workers}: the Ray cluster has {cpus:g} CPUs and "
                                 f"every worker holds one; use --workers {max(1, int(cpus))} "
                                 "or fewer")
        ex = RayExplorer(name, workers, symmetry=symmetry, keep_graph=keep_graph,
                         contracts=contracts, game=game, coverage=coverage)
        return ex.run(max_states=max_states, max_seconds=max_seconds, progress=progress)
    finally:
        ray = _ray()
        if ex is not None:
            for a in ex.actors:
                ray.kill(a)
        if started is not None:
            started.stop()


def _call(fn: Callable[[int], T], seed: int) -> T:
    return fn(seed)


def fan_out(seeds: Sequence[int], fn: Callable[[int], T], *, workers: int = 2,
            address: str | None = None) -> list[T]:
    """``[fn(seed) for seed in seeds]`` computed on Ray workers (a local Ray by default),
    in seed order; ``workers=1`` without an address runs in this process without Ray.

    ``fn`` must be picklable (a module-level function) and deterministic in its seed; then
    the result equals the single-process one.
    """
    if workers <= 1 and address is None:
        return [fn(s) for s in seeds]
    started = _init(workers, address)
    ray = _ray()
    try:
        task = ray.remote(num_cpus=1)(_call)
        shared = ray.put(fn)
        return list(ray.get([task.remote(shared, s) for s in seeds]))
    finally:
        if started is not None:
            started.stop()


def fan_out_until(items: Iterable[int], fn: Callable[[int], T], *, workers: int = 2,
                  address: str | None = None,
                  stop: Callable[[int, T], bool] | None = None,
                  more: Callable[[], bool] | None = None,
                  done: Callable[[int, T], None] | None = None) -> list[tuple[int, T]]:
    """``fn(item)`` for items in order on up to ``workers`` Ray workers (a local Ray by
    default; ``workers=1`` without an address: this process, one after the other), stopping
    at the first item, in order, whose result ``stop`` accepts.

    Items are handed out in order, at most ``workers`` at a time, while ``more()`` (e.g. time
    is left) holds. When ``stop(item, result)`` holds, the items after it that are running
    are cancelled and none is handed out; those before it are awaited (one of them may stop
    earlier). ``done(item, result)`` is called as results arrive (progress), also for results
    later discarded.

    Returns:
        ``(item, result)`` in item order, up to and including the first stopping item; so
        for the same items handed out, the list equals the single-process one when ``fn`` is
        deterministic. With an address and ``workers <= 1``, one task per CPU of the cluster.
    """
    it = iter(items)
    if workers <= 1 and address is None:
        out: list[tuple[int, T]] = []
        for item in it:
            if more is not None and not more():
                break
            result = fn(item)
            out.append((item, result))
            if done is not None:
                done(item, result)
            if stop is not None and stop(item, result):
                break
        return out
    started = _init(workers, address)
    ray = _ray()
    try:
        if address is not None and workers <= 1:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(_call)
        shared = ray.put(fn)
        pending: dict[Any, tuple[int, int]] = {}  # ref -> (position, item)
        finished: dict[int, tuple[int, T]] = {}
        stop_at: int | None = None
        position = 0
        exhausted = False
        while True:
            while not exhausted and stop_at is None and len(pending) < workers:
                nxt = next(it, None) if more is None or more() else None
                if nxt is None:
                    exhausted = True
                    break
                pending[task.remote(shared, nxt)] = (position, nxt)
                position += 1
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                at, item = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except BaseException:
                    for other in pending:  # an error ends the run: leave no task behind
                        ray.cancel(other, force=True)
                    raise
                finished[at] = (item, result)
                if done is not None:
                    done(item, result)
                if stop is not None and stop(item, result) and (stop_at is None or at < stop_at):
                    stop_at = at
                    for other, (later, _) in list(pending.items()):
                        if later > at:
                            ray.cancel(other, force=True)
                            del pending[other]
        return [finished[at] for at in sorted(finished) if stop_at is None or at <= stop_at]
    finally:
        if started is not None:
            started.stop()


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
        roots = started_roots(game)
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
    every invariant, fanned out over Ray workers (a building block for scripts; ``check``
    does not use it)."""
    return fan_out(seeds, _SeededGame(name, max_steps), workers=workers, address=address)
