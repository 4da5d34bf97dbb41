"""The watcher of a run's helper processes: stops them when the run ends, however it ends.

Run as a script by :class:`ruleproof.system.processes.Watcher` (standard library only, so it
starts in a few milliseconds with ``python -S``)::

    python -S reaper.py DRIVER_PID

in a session of its own (a Ctrl-C at the terminal does not reach it). It reads markers from
its standard input, one a line, each an environment entry ``NAME=VALUE``. When its standard
input ends (the run closed it, or the run died: the operating system closes it then, even
after SIGKILL) it kills, with SIGKILL, every process but itself and the driver whose
environment holds a marker (``NAME=V1:V2...`` with ``VALUE`` among the ``Vi``) and every
descendant of one (frozen first, so none escapes to ``init``), in rounds until none is left
(at most :data:`ROUNDS`), then exits. While the run lives it looks every
:data:`LOOK_EVERY` seconds and remembers those processes (with their start times), and
kills the remembered ones too.

Why it exists: a local Ray's agents outlive a killed driver for minutes; Ray's own clean-up
runs only when the driver can run it. They cannot be found by their environment (each sets
its process title over it) nor, once the driver is killed, through their raylet: Ray starts
the raylet to die with the driver, and the agents are handed to ``init`` at once. Only a
look taken while the run lived finds them.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Collection, Iterable

ROUNDS = 40
"""Most kill rounds (50 ms apart) after the driver is gone."""

LOOK_EVERY = 0.5
"""Seconds between looks at the watched processes while the run lives (see :func:`main`)."""


def parse_marker(line: str) -> tuple[bytes, bytes] | None:
    """``NAME=VALUE`` as bytes, or None for a line that is not one."""
    name, sep, value = line.strip().partition("=")
    if not sep or not name or not value:
        return None
    return name.encode(), value.encode()


def environ_has(environ: bytes, markers: Collection[tuple[bytes, bytes]]) -> bool:
    """Whether an environment block (``/proc/PID/environ``: NUL-separated ``NAME=VALUE``)
    holds one of ``markers`` (a value among the colon-separated values of its name)."""
    for entry in environ.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if not sep:
            continue
        for want_name, want_value in markers:
            if name == want_name and want_value in value.split(b":"):
                return True
    return False


def marked(markers: Collection[tuple[bytes, bytes]], exclude: Iterable[int] = ()) -> list[int]:
    """Live processes (zombies aside) whose environment holds one of ``markers``, except
    ``exclude``; processes that cannot be read (another user's, gone) are passed over."""
    if not markers:
        return []
    skip = set(exclude)
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:  # pragma: no cover - no /proc: nothing can be found
        return []
    for name in names:
        if not name.isdigit() or int(name) in skip:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
            if state in (b"Z", b"X"):
                continue
            with open(f"/proc/{name}/environ", "rb") as fh:
                environ = fh.read()
        except (OSError, IndexError):
            continue
        if environ_has(environ, markers):
            found.append(int(name))
    return found


def children_map() -> dict[int, list[int]]:
    """Parent pid -> the pids of its live children (zombies aside), from ``/proc``."""
    out: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:  # pragma: no cover - no /proc
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] not in (b"Z", b"X"):
            out.setdefault(int(fields[1]), []).append(int(name))
    return out


def descendants(pid: int, prune: Callable[[int], bool] = lambda _: False) -> list[int]:
    """The live descendants of ``pid`` (children first), leaving out every process for which
    ``prune`` holds and the processes below it."""
    tree = children_map()
    out: list[int] = []
    todo = list(tree.get(pid, ()))
    while todo:
        child = todo.pop(0)
        if prune(child):
            continue
        out.append(child)
        todo += tree.get(child, ())
    return out


def environ_of(pid: int) -> bytes:
    """The environment block a process was started with (empty if it cannot be read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def start_time(pid: int) -> int | None:
    """When a process started (clock ticks since boot, ``/proc/PID/stat`` field 22), telling
    it from a later process given the same id; None if it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if not fields or fields[0] in (b"Z", b"X") or len(fields) < 20:
        return None
    return int(fields[19])


def family(markers: Collection[tuple[bytes, bytes]], skip: Collection[int]) -> list[int]:
    """The marked processes and every descendant of one (``skip`` aside): a child started
    with an environment of its own, or one that overwrote it (Ray's agents set their process
    title over it), is found through its parent."""
    found = marked(markers, skip)
    if not found:
        return []
    tree = children_map()
    out: dict[int, None] = {}
    todo = list(found)
    while todo:
        pid = todo.pop()
        if pid in skip or pid in out:
            continue
        out[pid] = None
        todo += tree.get(pid, ())
    return list(out)


def kill_marked(markers: Collection[tuple[bytes, bytes]], exclude: Iterable[int] = (),
                rounds: int = ROUNDS, pause: float = 0.05,
                known: dict[int, int] | None = None) -> int:
    """SIGKILL every process of :func:`family` and every process of ``known`` (pid -> its
    :func:`start_time` when seen) that is still that process, again until a round finds
    none (at most ``rounds``); the number of kills sent.

    Each round first freezes (SIGSTOP) them until no new one appears (a stopped process
    cannot start another), then kills them all.
    """
    skip = {os.getpid(), *exclude}
    remembered = dict(known or {})
    sent = 0
    for _ in range(rounds):
        frozen: list[int] = []
        for _ in range(rounds):
            targets = family(markers, skip)
            targets += [pid for pid, seen in remembered.items()
                        if pid not in skip and start_time(pid) == seen]
            new = [pid for pid in dict.fromkeys(targets) if pid not in frozen]
            if not new:
                break
            for pid in new:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGSTOP)
                frozen.append(pid)
        if not frozen:
            break
        for pid in frozen:
            try:
                os.kill(pid, signal.SIGKILL)
                sent += 1
            except OSError:
                pass
            remembered.pop(pid, None)
        time.sleep(pause)
    return sent


def remember(markers: Collection[tuple[bytes, bytes]], skip: Collection[int],
             known: dict[int, int]) -> None:
    """Add the live :func:`family` to ``known`` (pid -> start time)."""
    for pid in family(markers, skip):
        seen = start_time(pid)
        if seen is not None:
            known.setdefault(pid, seen)


def main(argv: list[str]) -> int:
    """The watcher's loop (see the module docstring)."""
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    driver = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else -1
    skip = {os.getpid(), driver}
    markers: list[tuple[bytes, bytes]] = []
    known: dict[int, int] = {}
    buffer = b""
    fd = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([fd], [], [], LOOK_EVERY)
        if not ready:
            remember(markers, skip, known)
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            marker = parse_marker(line.decode(errors="replace"))
            if marker is not None:
                markers.append(marker)
    marker = parse_marker(buffer.decode(errors="replace"))
    if marker is not None:
        markers.append(marker)
    kill_marked(markers, exclude=(driver,), known=known)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
