"""The run's watcher (:mod:`ruleproof.system.reaper`) on process trees built here, no Ray:
a child that carries no marker (it was started with an environment of its own, as Ray's
agents overwrite theirs) is stopped too, even after its marked parent died first and it was
handed to ``init`` (Ray starts its raylet to die with the driver)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ruleproof.system import reaper


def _live(pid: int) -> bool:
    return reaper.start_time(pid) is not None


def _wait_for(path: Path, timeout: float = 20) -> int:
    deadline = time.monotonic() + timeout
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < deadline, f"{path} never written"
        time.sleep(0.05)
    return int(path.read_text().split()[0])


def _watcher() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-S", reaper.__file__, str(os.getpid())],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _tree(tmp_path: Path, mark: str) -> tuple[subprocess.Popen[bytes], int]:
    """A marked shell whose child (``env -i``: no marker) writes its pid and sleeps."""
    child_pid = tmp_path / "child.pid"
    parent = subprocess.Popen(
        ["sh", "-c", f"env -i sh -c 'echo $$ > {child_pid}; exec sleep 60' & wait"],
        env={**os.environ, "RULEPROOF_TEST_MARK": mark}, start_new_session=True)
    return parent, _wait_for(child_pid)


def test_an_unmarked_child_is_stopped_with_its_marked_parent(tmp_path: Path) -> None:
    parent, child = _tree(tmp_path, "a1")
    watcher = _watcher()
    assert watcher.stdin is not None
    watcher.stdin.write(b"RULEPROOF_TEST_MARK=a1\n")
    watcher.stdin.close()
    assert watcher.wait(timeout=20) == 0
    parent.wait(timeout=5)
    assert parent.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 5
    while _live(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _live(child)


def test_an_orphan_seen_while_the_run_lived_is_stopped(tmp_path: Path) -> None:
    parent, child = _tree(tmp_path, "b2")
    watcher = _watcher()
    assert watcher.stdin is not None
    watcher.stdin.write(b"RULEPROOF_TEST_MARK=b2\n")
    watcher.stdin.flush()
    time.sleep(3 * reaper.LOOK_EVERY)  # the watcher looks while the run lives
    parent.kill()  # the marked parent dies first: its child goes to init, unmarked
    parent.wait()
    assert _live(child)
    watcher.stdin.close()
    assert watcher.wait(timeout=20) == 0
    deadline = time.monotonic() + 5
    while _live(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _live(child)
    if alive:  # pragma: no cover - the failure; do not leave it behind
        os.kill(child, signal.SIGKILL)
    assert not alive


def test_an_unrelated_process_with_a_reused_id_is_left_alone(tmp_path: Path) -> None:
    """A remembered pid whose start time differs is another process: never killed."""
    other = subprocess.Popen(["sleep", "30"])
    try:
        seen = reaper.start_time(other.pid)
        assert seen is not None
        sent = reaper.kill_marked([], known={other.pid: seen + 1}, rounds=2, pause=0)
        assert sent == 0 and other.poll() is None
        sent = reaper.kill_marked([], known={other.pid: seen}, rounds=2, pause=0)
        assert sent == 1 and other.wait(timeout=5) == -signal.SIGKILL
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()
