"""Steps per second through the framework wrappers, side by side with OpenSpiel's own
``python_tic_tac_toe`` in the same run (one core).

Each step of ours: ``env.last()`` (the observation tensor and action mask of the agent to act)
plus ``env.step`` with a uniformly random legal action, in the PettingZoo AEC environment of
Dawn Under (du-en, 4 players), whole games from seeded deals. Each step of the peer: its
observation tensor, its legal actions and ``apply_action`` with a random one.

Rates are steps per second of CPU time of this process (``time.process_time``), i.e. on one
core, so a shared, loaded machine measures the same rate as an idle one.

Run: ``python bench/bench_interop.py --seconds 10`` (from a clone, with the [openspiel] and
[pettingzoo] extras). Figures: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pyspiel
from open_spiel.python import games as _spiel_python_games  # noqa: F401  (python_* games)

from ruleproof.interop.pettingzoo import env as make_env


def zoo_steps_per_second(seconds: float, players: int, seed: int) -> tuple[float, int, int]:
    """(steps/s, steps, games) of random play through the PettingZoo environment."""
    env = make_env("dawn-under", players=players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=seed + games)
        games += 1
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start), steps, games


def spiel_steps_per_second(seconds: float, name: str, seed: int) -> tuple[float, int, int]:
    """(steps/s, steps, games) of random play of an OpenSpiel game with observations."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.process_time() - start), steps, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ours, our_steps, our_games = zoo_steps_per_second(args.seconds, args.players, args.seed)
    peer, peer_steps, peer_games = spiel_steps_per_second(args.seconds, "python_tic_tac_toe",
                                                          args.seed)
    print(f"{'wrapper':44s} {'steps':>8s} {'games':>6s} {'steps/s':>9s}")
    print(f"{'PettingZoo dawn-under ' + str(args.players) + 'p (obs + mask)':44s} "
          f"{our_steps:8d} {our_games:6d} {ours:9.0f}")
    print(f"{'OpenSpiel python_tic_tac_toe (obs + legal)':44s} "
          f"{peer_steps:8d} {peer_games:6d} {peer:9.0f}")
    print(f"ratio ours / peer: {ours / peer:.2f}")


if __name__ == "__main__":
    main()
