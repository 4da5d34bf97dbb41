"""Observations through OpenSpiel, as ratios against peers measured in the same run (issue #26).

1. Dawn Under (du-en, 4 players) through pyspiel with an observation every step through
   OpenSpiel's observer (``make_observation(game).set_from(state, player)``, the tensor of the
   player to move) against OpenSpiel's pure-Python ``python_tic_tac_toe`` doing the same
   (its own observer): target >= 1.0x.
2. Dawn Under through ``rl_environment.Environment`` (every player's observation tensor each
   step, as it builds them) against bare pyspiel steps of Dawn Under (legal actions and
   ``apply_action`` only): target: rl_environment within 3x of the bare steps.
3. CFR on reduced Dracula (``python_dracula(reduced=dr-1x2,max_moves=10)``): exploitability
   after 1, 2, 4, ... iterations (the figures in docs/interop.md).

Rates are steps per CPU second of this process (``time.process_time``), so a loaded machine
measures about what an idle one does; each ratio compares two rates from this one run, driven
by the same sampler (``--sampler``: the standard library's by default for the observed
comparison, which has chance only on Dawn Under's side; numpy's, as rl_environment's own, for
the bare-vs-rl_environment one).

Run: ``python bench/bench_observations.py --seconds 10`` (from a clone, with the [openspiel]
extra); ``--interleave K`` measures the two observed rates in K alternating chunks (on a
shared machine whose load drifts, one chunk each can differ by 20% from run to run).
Figures: docs/interop.md and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pyspiel
from open_spiel.python import games as _spiel_python_games  # noqa: F401  (python_* games)
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation

import ruleproof.interop.openspiel  # noqa: F401  (registers the games)


def _play(game: Any, seconds: float, seed: int, observe: bool,
          sampler: str = "python") -> tuple[float, int]:
    """(steps/s, steps) of random play of ``game``; with ``observe`` the observer's tensor of
    the player to move is filled every step.

    ``sampler``: how the driver draws chance outcomes and decisions. ``python``: the standard
    library's ``random.Random`` (``choices`` over the exact probabilities, ``randrange``), about
    2 us a chance node and 0.3 us a decision. ``numpy``: as ``rl_environment`` and OpenSpiel's
    examples do (``np.random.Generator.choice`` with ``p=``, ``integers``), 10-14 us a chance
    node, which only a game with chance nodes pays. Both are the driver's cost, not the game's;
    each comparison below uses one sampler for both of its sides."""
    observer = make_observation(game) if observe else None
    steps = 0
    if sampler == "python":
        rnd = random.Random(seed)

        def chance(outcomes: list[tuple[int, float]]) -> int:
            return int(rnd.choices(outcomes, [p for _, p in outcomes])[0][0])

        def pick(n: int) -> int:
            return rnd.randrange(n)
    else:
        rng = np.random.default_rng(seed)

        def chance(outcomes: list[tuple[int, float]]) -> int:
            probs = np.array([p for _, p in outcomes])
            return int(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])

        def pick(n: int) -> int:
            return int(rng.integers(n))
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance(state.chance_outcomes()))
                continue
            if observer is not None:
                observer.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[pick(len(legal))])
            steps += 1
    return steps / (time.process_time() - start), steps


def _rl_environment(game: Any, seconds: float, seed: int) -> tuple[float, int]:
    """(steps/s, steps) of random play through ``rl_environment.Environment``."""
    env = rl_environment.Environment(game, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[int(rng.integers(len(legal)))]])
            steps += 1
    return steps / (time.process_time() - start), steps


def cfr_figures(iterations: int) -> list[tuple[int, float]]:
    """(iterations, exploitability) of CFR on reduced Dracula at powers of two."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("python_dracula(reduced=dr-1x2,max_moves=10)")
    solver = cfr.CFRSolver(game)
    out = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i & (i - 1) == 0:
            out.append((i, exploitability.exploitability(game, solver.average_policy())))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cfr", type=int, default=64, help="CFR iterations (0: skip)")
    parser.add_argument("--sampler", choices=("python", "numpy"), default="python",
                        help="the driver's sampler in the observed comparison (see _play; "
                             "numpy: the harness before 2026-12-02 10:00 UTC)")
    parser.add_argument("--interleave", type=int, default=1, metavar="K",
                        help="measure the two observed rates in K alternating chunks of "
                             "seconds/K each (seeds seed..seed+K-1), summed: a load that "
                             "drifts during the run then weighs on both alike (default 1: "
                             "one chunk each, Dawn Under first)")
    args = parser.parse_args()
    if not (0 < args.seconds < float("inf")):
        parser.error("--seconds must be a positive, finite number of CPU seconds")
    if args.interleave < 1 or args.seed < 0 or args.cfr < 0:
        parser.error("--interleave must be at least 1, --seed and --cfr at least 0")
    du = pyspiel.load_game("python_dawn_under", {"players": 4})
    ttt = pyspiel.load_game("python_tic_tac_toe")
    chunks = max(1, args.interleave)
    done = {"du": [0.0, 0], "ttt": [0.0, 0]}  # CPU seconds, steps
    for k in range(chunks):
        for key, game in (("du", du), ("ttt", ttt)):
            rate, steps = _play(game, args.seconds / chunks, args.seed + k, observe=True,
                                sampler=args.sampler)
            done[key][0] += steps / rate
            done[key][1] += steps
    du_obs = done["du"][1] / done["du"][0]
    ttt_obs = done["ttt"][1] / done["ttt"][0]
    # rl_environment samples chance outcomes with numpy: the bare steps it is compared with
    # sample the same way, so only the environment's own work differs
    du_bare, _ = _play(du, args.seconds, args.seed, observe=False, sampler="numpy")
    du_rl, _ = _rl_environment(du, args.seconds, args.seed)
    print(f"{'measurement':58s} {'steps/s':>9s}")
    for label, rate in (("dawn_under 4p, observer every step", du_obs),
                        ("python_tic_tac_toe, observer every step", ttt_obs),
                        ("dawn_under 4p, bare pyspiel steps", du_bare),
                        ("dawn_under 4p, rl_environment", du_rl)):
        print(f"{label:58s} {rate:9.0f}")
    print(f"observed dawn_under / observed tic-tac-toe: {du_obs / ttt_obs:.2f}x (target >= 1.0)")
    print(f"bare / rl_environment (dawn_under 4p):      {du_bare / du_rl:.2f}x (target <= 3.0)")
    if args.cfr:
        for i, value in cfr_figures(args.cfr):
            print(f"CFR reduced dracula: {i:4d} iterations, exploitability {value:.4f}")


if __name__ == "__main__":
    main()
