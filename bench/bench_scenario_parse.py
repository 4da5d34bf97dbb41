"""Benchmark: scenario loading is linear in the number of actions.

Run: ``python bench/bench_scenario_parse.py``. Loads generated Dawn Under scenarios of 5,000,
10,000, 20,000 and 40,000 actions (read, TOML parse, validation, action parsing, positions of
every action) and prints seconds, microseconds per action and the ratio to ``tomllib.loads`` of
the same text in the same run (the peer: any loader must at least parse the TOML). Linear
parsing keeps the last two columns flat (the old loader searched the text once per action:
quadratic, 53 s at 40,000).
Figures are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import tempfile
import time
import tomllib
from pathlib import Path

from ruleproof.properties.scenarios import load


def measure(actions: int, folder: Path) -> tuple[float, float]:
    """Seconds to load a scenario with ``actions`` actions (the position map included), and
    seconds of ``tomllib.loads`` alone on the same text."""
    path = folder / f"s{actions}.toml"
    lines = "\n".join(f'  "P{1 + k % 3}: open {k % 60}",  # comment {k}' for k in range(actions))
    path.write_text(f'title = "bench"\ngame = "dawn-under"\nplayers = 3\nactions = [\n{lines}\n]\n',
                    encoding="utf-8")
    start = time.perf_counter()
    sc = load(path)
    sc.doc.where(("actions", actions - 1))
    ours = time.perf_counter() - start
    start = time.perf_counter()
    tomllib.loads(path.read_text(encoding="utf-8"))
    return ours, time.perf_counter() - start


def main() -> None:
    """Print the table."""
    with tempfile.TemporaryDirectory() as tmp:
        measure(100, Path(tmp))  # warm the caches (clause registries, presets, board)
        print("actions  seconds  us/action  tomllib s  ratio")
        for n in (5_000, 10_000, 20_000, 40_000):
            secs, peer = measure(n, Path(tmp))
            print(f"{n:7d}  {secs:7.3f}  {secs / n * 1e6:9.1f}  {peer:9.3f}  {secs / peer:5.2f}")


if __name__ == "__main__":
    main()
