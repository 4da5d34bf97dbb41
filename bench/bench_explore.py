"""Benchmark: distinct states per minute of ``ruleproof explore``, 1 process against 2 Ray
workers on the same reduced Dawn Under set-up (same run, same machine: the ratio is the
speed-up). Also the per-state cost of the engine alone, which bounds the rate.

Run: ``python bench/bench_explore.py [--setup du-3p-1v] [--workers 2]``. Figures are recorded
in docs/benchmarks.md ("Exhaustive exploration"). The goal is 1,000,000 distinct states per
minute across 2 local workers.
"""

from __future__ import annotations

import argparse
import time

from ruleproof.properties.explore.distributed import explore_distributed
from ruleproof.properties.explore.games import explore_game
from ruleproof.properties.explore.search import explore, fingerprint


def engine_cost(name: str, states: int = 20_000) -> dict[str, float]:
    """Microseconds per state of the parts of one expansion, measured on a BFS prefix."""
    game = explore_game(name)
    frontier = [r.state for r in game.roots()]
    sample: list[object] = []
    while frontier and len(sample) < states:
        nxt = []
        for s in frontier:
            sample.append(s)
            if not game.is_terminal(s):
                nxt += [t for _, t in game.successors(s)]
        frontier = nxt
    sample = sample[:states]
    out: dict[str, float] = {}
    t = time.perf_counter()
    succ = [game.successors(s) for s in sample if not game.is_terminal(s)]
    out["successors (legal actions + apply)"] = (time.perf_counter() - t) / len(sample) * 1e6
    t = time.perf_counter()
    for s in sample:
        fingerprint(game.canonical(game.view(s)))
    out["fingerprint"] = (time.perf_counter() - t) / len(sample) * 1e6
    t = time.perf_counter()
    for s in sample:
        game.violations(s)
    out["invariants"] = (time.perf_counter() - t) / len(sample) * 1e6
    out["successors per state"] = sum(len(x) for x in succ) / len(sample)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--setup", default="du-3p-1v")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for part, value in engine_cost(args.setup).items():
        print(f"{part:40} {value:10.1f}")
    one = explore(args.setup, keep_graph=False)
    print(f"1 process : {one.distinct_states:,} states in {one.seconds:.1f} s = "
          f"{one.states_per_minute:,.0f} states/min")
    many = explore_distributed(args.setup, workers=args.workers, keep_graph=False)
    print(f"{args.workers} workers : {many.distinct_states:,} states in {many.seconds:.1f} s = "
          f"{many.states_per_minute:,.0f} states/min")
    assert many.verdict() == one.verdict(), "distributed and single results differ"
    print(f"speed-up 1 -> {args.workers}: {one.seconds / many.seconds:.2f}x")


if __name__ == "__main__":
    main()
