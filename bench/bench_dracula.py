"""Benchmark: Dracula random play against OpenSpiel's pure-Python ``python_tic_tac_toe``.

Run: ``python bench/bench_dracula.py [--rounds N] [--seconds S]``. Figures are recorded in
docs/benchmarks.md (issue #14: Dracula steps/s at least 1.0x python_tic_tac_toe's, measured in
the same run, and a step's cost flat in the game's length).

A step is one ``legal_actions`` call plus one ``apply`` of a uniformly random legal action
(chance outcomes included, as OpenSpiel's random rollouts sample them). The two games run in
interleaved rounds of about ``--seconds`` of CPU time each (``time.process_time``: time spent
waiting for a core on a busy machine does not count) and the best round of each counts.
Without open_spiel the tic-tac-toe column is skipped with a note.

The second table plays whole games and reports the mean cost of a step by how far into the
game it is, with the size of the state's repr: both should stay flat as the game gets longer.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections.abc import Callable

from ruleproof.model.dracula import apply, is_terminal, legal_actions, new_game


def dracula_round(seconds: float, seed0: int) -> float:
    """Steps per second of random Dracula games played for about ``seconds``."""
    steps = 0
    seed = seed0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rng = random.Random(seed)
        state = new_game(seed)
        while not is_terminal(state):
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            steps += 1
        seed += 1
    return steps / (time.process_time() - start)


def tic_tac_toe_round() -> Callable[[float, int], float] | None:
    """A round function for OpenSpiel's python_tic_tac_toe, or None without open_spiel."""
    try:  # optional; imported by name, so no stubs are needed
        importlib.import_module("open_spiel.python.games")  # registers the Python games
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("python_tic_tac_toe")

    def run(seconds: float, seed0: int) -> float:
        rng = random.Random(seed0)
        steps = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                options = state.legal_actions()
                state.apply_action(options[rng.randrange(len(options))])
                steps += 1
        return steps / (time.process_time() - start)

    return run


BUCKETS = ((1, 20), (21, 40), (41, 80), (81, 160), (161, 400))


def cost_by_length(games: int) -> list[tuple[str, int, float, float]]:
    """(step range, steps measured, mean microseconds per step, mean repr length of the state)
    over ``games`` random games, by the step's position in its game."""
    total = [0.0] * len(BUCKETS)
    count = [0] * len(BUCKETS)
    size = [0] * len(BUCKETS)
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(seed)
        n = 0
        while not is_terminal(state):
            n += 1
            t = time.process_time()
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            dt = time.process_time() - t
            for i, (lo, hi) in enumerate(BUCKETS):
                if lo <= n <= hi:
                    total[i] += dt
                    count[i] += 1
                    size[i] += len(repr(state))
    return [(f"{lo}-{hi}", count[i], 1e6 * total[i] / count[i] if count[i] else 0.0,
             size[i] / count[i] if count[i] else 0.0) for i, (lo, hi) in enumerate(BUCKETS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (best counts)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--games", type=int, default=200, help="games for the cost table")
    args = parser.parse_args()
    ttt = tic_tac_toe_round()
    best_d = best_t = 0.0
    for r in range(args.rounds):
        best_d = max(best_d, dracula_round(args.seconds, 1000 * r))
        if ttt is not None:
            best_t = max(best_t, ttt(args.seconds, r))
    print(f"{'game':<34} {'steps/s':>10}")
    print(f"{'dracula (random play)':<34} {best_d:>10.0f}")
    if ttt is None:
        print("python_tic_tac_toe: skipped (open_spiel is not installed; pip install open_spiel)")
    else:
        print(f"{'open_spiel python_tic_tac_toe':<34} {best_t:>10.0f}")
        print(f"ratio dracula / python_tic_tac_toe: {best_d / best_t:.2f}x "
              f"(best of {args.rounds} interleaved rounds of {args.seconds:g} s)")
    print()
    print(f"cost per step by position in the game ({args.games} random games)")
    print(f"{'steps':>8} {'measured':>9} {'us/step':>8} {'repr chars':>11}")
    for name, n, us, chars in cost_by_length(args.games):
        print(f"{name:>8} {n:>9} {us:>8.1f} {chars:>11.0f}")


if __name__ == "__main__":
    main()
