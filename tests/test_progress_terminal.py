"""Long commands show progress on a terminal (issue #27): the bar goes to stderr when stderr is
a terminal, with ``--json`` too, and stdout keeps only the result.

Each command runs with its stderr on a pseudo-terminal (``pty``) and its stdout on a pipe, as
``ruleproof ... --json > out.json`` in a terminal does. Small workloads: the bar is drawn when
its work starts, so a short run shows it as a long one does. With stderr on a pipe instead,
stderr stays empty (a log file gets no bar).

Before this test ``explore --json``, ``explore --simulate``, ``explore --profile`` and
``perft`` drew nothing on a terminal: ``perft --check`` and ``explore du-en-full-4p --simulate
300`` were silent for more than 25 s.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """``ruleproof ARGS`` with stderr on a pty; (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    seen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run([sys.executable, "-m", "ruleproof", *args], cwd=cwd, text=True,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                              timeout=300, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120",
                                   "TERM": "xterm"})
    finally:
        os.close(slave)
        reader.join(timeout=10)
        os.close(master)
    return done.returncode, done.stdout, b"".join(seen).decode("utf-8", "replace")


CASES = {
    "explore --json": (["explore", "kuhn-3", "--no-contracts", "--json"], "explore kuhn-3"),
    "explore --simulate": (["explore", "du-en-full-4p", "--simulate", "2", "--depth", "10",
                            "--json"], "explore --simulate du-en-full-4p"),
    "perft --check": (["perft", "kuhn-poker:kuhn-wp", "--check"], "perft kuhn-poker:kuhn-wp"),
    "perft": (["perft", "kuhn-poker:kuhn-wp", "--json"], "perft kuhn-poker:kuhn-wp"),
    "check --json": (["check", "kuhn-poker", "--profile", "ci", "--json", "--jobs", "1"],
                     "checking"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_long_command_shows_its_progress_on_a_terminal(tmp_path: Path, case: str) -> None:
    args, label = CASES[case]
    code, stdout, terminal = _on_a_terminal(args, tmp_path)
    assert code == 0, (stdout, terminal)
    assert label in terminal, terminal  # the bar, on stderr
    assert "━" in terminal and "/None" not in terminal, terminal  # a count, with its total
    assert label not in stdout and "━" not in stdout  # stdout keeps only the result
    if "--json" in args:
        json.loads(stdout)
    else:
        assert "agrees with the shipped tables" in stdout
    if case != "perft --check":
        return
    piped = subprocess.run([sys.executable, "-m", "ruleproof", *args], cwd=tmp_path, text=True,
                           capture_output=True, timeout=300, check=False,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert piped.returncode == 0 and piped.stderr == ""  # no terminal: no bar
    assert piped.stdout == stdout


@pytest.mark.slow
def test_explore_profile_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    code, stdout, terminal = _on_a_terminal(["explore", "--profile", "ci", "--json"],
                                            tmp_path)
    assert code == 0, (stdout, terminal)
    assert "explore --profile ci" in terminal and "━" in terminal, terminal
    assert json.loads(stdout)["passed"] is True
