"""Speed side by side: random legal play of Dawn Under (4 players), Dracula and OpenSpiel's
pure-Python ``python_tic_tac_toe``, plus the hypothesis state machine of Dawn Under.

Run from the repository root::

    python bench/bench_speed.py [--rounds 5] [--seconds 2]

Each round measures every game for about ``--seconds`` CPU seconds of random legal play
(uniform choice among the legal actions, one ``legal_actions`` and one checked ``apply`` per
step). Rates are steps per CPU second of this process (``time.process_time``), games are
interleaved round by round and the best round per game is reported, so the ratios hold on a
busy, shared machine (issue #14). The OpenSpiel column is skipped, with a note, when
``open_spiel`` is not installed. The last lines are the hypothesis state machine
(``ruleproof.properties.dawn_under.machine``, every invariant and transition property after
every step) in steps per second. Figures and the command: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone, uninstalled

Runner = Callable[[float], tuple[int, float]]


def dawn_under_runner(players: int = 4) -> Runner:
    from ruleproof.model.dawn_under import apply, is_terminal, legal_actions, make_config, new_game

    config = make_config(players)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        seed = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            rng = random.Random(seed)
            state = new_game(config, seed)
            while not is_terminal(state):
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))])
                steps += 1
            seed += 1
        return steps, time.process_time() - start

    return run


def dracula_runner(max_steps: int = 2000) -> Runner:
    from ruleproof.model.dracula import apply, is_terminal, legal_actions, new_game

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        seed = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            rng = random.Random(seed)
            state = new_game(seed)
            for _ in range(max_steps):
                if is_terminal(state):
                    break
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))])
                steps += 1
            seed += 1
        return steps, time.process_time() - start

    return run


def tic_tac_toe_runner() -> Runner | None:
    try:
        import open_spiel.python.games  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game: Any = pyspiel.load_game("python_tic_tac_toe")

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        seed = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
            seed += 1
        return steps, time.process_time() - start

    return run


def machine_steps_per_second(games: int, steps: int) -> tuple[int, float]:
    """Steps (checked transitions) of the Dawn Under hypothesis state machine per second,
    4 players, every invariant and transition property checked after every step."""
    from ruleproof.properties.machine import run_machine
    from ruleproof.properties.report import Tally

    tally = Tally()  # counts the machine's transitions
    start = time.process_time()
    ok, detail = run_machine("dawn-under", {"players": 4}, games, steps, tally=tally)
    elapsed = time.process_time() - start
    if not ok:
        raise SystemExit(f"the state machine found a problem:\n{detail}")
    return tally.steps, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best of)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per game per round")
    parser.add_argument("--machine-games", type=int, default=20)
    parser.add_argument("--machine-steps", type=int, default=300)
    args = parser.parse_args()

    runners: dict[str, Runner] = {"dawn-under 4p": dawn_under_runner(4),
                                  "dracula": dracula_runner()}
    ttt = tic_tac_toe_runner()
    if ttt is not None:
        runners["python_tic_tac_toe"] = ttt
    best: dict[str, float] = dict.fromkeys(runners, 0.0)
    for r in range(args.rounds):
        for name, run in runners.items():
            steps, seconds = run(args.seconds)
            rate = steps / seconds
            best[name] = max(best[name], rate)
            print(f"round {r + 1}: {name:<20} {steps:>9} steps {seconds:6.2f} s "
                  f"{rate:>10,.0f} steps/s")
    print()
    print(f"{'game':<20} {'best steps/s':>14} {'vs python_tic_tac_toe':>22}")
    for name, rate in best.items():
        ratio = f"{rate / best['python_tic_tac_toe']:.2f}x" if ttt is not None else "-"
        print(f"{name:<20} {rate:>14,.0f} {ratio:>22}")
    if ttt is None:
        print("note: open_spiel is not installed; the python_tic_tac_toe column is skipped "
              "(pip install open_spiel)")
    # the state machine, best of the same number of rounds as the games (CPU time, like them)
    machine_best = 0.0
    for r in range(args.rounds):
        steps, seconds = machine_steps_per_second(args.machine_games, args.machine_steps)
        machine_best = max(machine_best, steps / seconds)
        print(f"round {r + 1}: hypothesis state machine {steps} steps in {seconds:.2f} s = "
              f"{steps / seconds:,.0f} steps/s")
    ratio = (f" ({machine_best / best['python_tic_tac_toe']:.2f}x python_tic_tac_toe)"
             if ttt is not None else "")
    print(f"hypothesis state machine (dawn-under 4p, every invariant), best of {args.rounds}: "
          f"{machine_best:,.0f} steps/s{ratio}")


if __name__ == "__main__":
    main()
