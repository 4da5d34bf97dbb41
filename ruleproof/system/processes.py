"""The processes a run starts, found and stopped by a mark in their environment.

* :func:`mark_run` gives the run a token in ``RULEPROOF_RUN`` (appended to an inherited
  value, so that a run started by a run is found by both): every process the run starts
  inherits it (worker pools, engines, a local Ray's server, raylet and workers), so
  :func:`stop_run` finds them all without a list to keep.
* :class:`Watcher` is a small process of its own (:mod:`ruleproof.system.reaper`) that stops
  what carries the markers it was given when the run closes it, or when the run dies (even by
  SIGKILL): a local Ray's agents, which its raylet starts with an environment of their own
  (they carry the node's id, ``RAY_NODE_ID``), outlived a killed run for minutes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from ruleproof.system import reaper

RUN_VAR = "RULEPROOF_RUN"
"""The environment variable that marks a run's processes (colon-separated tokens)."""

RAY_MARK = "RULEPROOF_RAY"
"""The environment variable that marks the processes of a local Ray started by a run (set
while ``ray.init`` starts them, so that they inherit it)."""

__all__ = ["RAY_MARK", "RUN_VAR", "Watcher", "mark_run", "marked", "stop_children_but_ray",
           "stop_run"]


def mark_run() -> str:
    """Give this process's run a token (``PID-RANDOM``) in ``RULEPROOF_RUN`` of its
    environment, inherited by every process it starts from now on; returns the token."""
    token = f"{os.getpid()}-{secrets.token_hex(6)}"
    before = os.environ.get(RUN_VAR)
    os.environ[RUN_VAR] = f"{before}:{token}" if before else token
    return token


def marked(entries: Iterable[str], exclude: Iterable[int] = ()) -> list[int]:
    """Live processes whose environment holds one of ``entries`` (``NAME=VALUE``; a value
    among the colon-separated values of the name), this one and ``exclude`` aside."""
    markers = [m for m in map(reaper.parse_marker, entries) if m is not None]
    return reaper.marked(markers, {os.getpid(), *exclude})


def stop_run(token: str, exclude: Iterable[int] = ()) -> int:
    """SIGKILL every process of the run ``token`` (:func:`mark_run`: started with it in
    their environment) and every descendant of this process (forked workers, whose
    environment block is the one this process started with), ``exclude`` and this process
    aside, in rounds until none is left; the number of kills sent."""
    marker = reaper.parse_marker(f"{RUN_VAR}={token}")
    assert marker is not None
    skip = {os.getpid(), *exclude}
    sent = 0
    for _ in range(10):
        found = [p for p in reaper.descendants(os.getpid()) if p not in skip]
        found += [p for p in reaper.marked([marker], skip) if p not in found]
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                sent += 1
            except OSError:
                pass
        time.sleep(0.02)
    return sent


def stop_children_but_ray() -> int:
    """SIGKILL the descendants of this process except a local Ray's (those marked
    :data:`RAY_MARK` and what they started, which ``ray.shutdown`` stops in order); the
    number of kills sent. For an interrupted run: worker pools and engines end at once."""
    mark = RAY_MARK.encode() + b"="

    def is_ray(pid: int) -> bool:
        return any(entry.startswith(mark) for entry in reaper.environ_of(pid).split(b"\0"))

    sent = 0
    for pid in reaper.descendants(os.getpid(), prune=is_ray):
        try:
            os.kill(pid, signal.SIGKILL)
            sent += 1
        except OSError:
            pass
    return sent


class Watcher:
    """A watcher process (:mod:`ruleproof.system.reaper`): :meth:`watch` gives it markers;
    when :meth:`close` d, or when this process dies, it SIGKILLs every process that carries
    one of them (this process aside) and exits. A context manager (closed at its end)."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != RUN_VAR}
        self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
            [sys.executable, "-S", str(Path(reaper.__file__)), str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True, env=env)

    @property
    def pid(self) -> int | None:
        """The watcher's process id (None once closed)."""
        return None if self._proc is None else self._proc.pid

    def watch(self, entry: str) -> None:
        """Stop the processes whose environment holds ``entry`` (``NAME=VALUE``) at the end.

        Raises:
            ValueError: ``entry`` is not ``NAME=VALUE`` on one line.
        """
        if "\n" in entry or reaper.parse_marker(entry) is None:
            raise ValueError(f"not a NAME=VALUE marker: {entry!r}")
        if self._proc is not None and self._proc.stdin is not None:
            self._proc.stdin.write(entry.encode() + b"\n")
            self._proc.stdin.flush()

    def close(self, wait: float = 5.0) -> None:
        """Let the watcher stop what it watches, and wait for it (at most ``wait`` seconds;
        then it is killed)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError):  # the watcher is gone already
                proc.stdin.close()
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck /proc
            proc.kill()
            proc.wait()

    def __enter__(self) -> Watcher:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
