"""Benchmark: random-play transitions per second and games per second (one core).

Run: ``python bench/bench_random_play.py [--games N]``. Figures are recorded in
docs/benchmarks.md. The target is at least 20,000 transitions per second.
"""

from __future__ import annotations

import argparse
import random
import time

from ruleproof.model.dawn_under import Phase, deal, initial_state, legal_actions, make_config, step


def run(players: int, games: int) -> tuple[int, float]:
    """Play ``games`` random games; return (transitions, seconds)."""
    config = make_config(players)
    transitions = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = initial_state(config, deal(config, rng))
        while state.phase is not Phase.OVER:
            legal = legal_actions(state)
            state = step(state, legal[rng.randrange(len(legal))])[0]
            transitions += 1
    return transitions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'players':>7} {'games':>6} {'transitions':>12} {'trans/s':>10} {'games/s':>8}")
    for players in (3, 4, 5, 6):
        transitions, seconds = run(players, args.games)
        print(f"{players:>7} {args.games:>6} {transitions:>12} {transitions / seconds:>10.0f} "
              f"{args.games / seconds:>8.1f}")


if __name__ == "__main__":
    main()
