"""OpenSpiel's ISMCTS on full Dracula against uniform random play (issue #26).

ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout evaluator) resamples
the hidden cards from its information state every simulation
(``RulesSpielState.resample_from_infostate``); it plays each seat in turn against a player
choosing uniformly among legal actions. The result: wins, losses and truncated games, and two
one-sided exact binomial p-values: of that many wins or more among all games if ISMCTS won
no more than half (a truncated game counts as not won), and the sign test among the decided
games (wins against losses; a truncated game is neither, as a tie in a sign test).

Run: ``python bench/bench_ismcts.py --games 40 --simulations 20`` (from a clone, with the
[openspiel] extra). Figures: docs/interop.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ruleproof.interop.openspiel  # noqa: F401  (registers the games)


def binomial_tail(wins: int, games: int) -> float:
    """P(X >= wins) for X ~ Binomial(games, 1/2)."""
    return float(sum(math.comb(games, k) for k in range(wins, games + 1)) / 2 ** games)


def play(game: pyspiel.Game, seat: int, simulations: int, seed: int) -> float:
    """The return of ISMCTS (at ``seat``) in one game against uniform random play."""
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, simulations,
                           random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return float(state.returns()[seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0,
                        help="the index of the first game: games FIRST..FIRST+GAMES-1 of the "
                             "series (seed and seat as in one run of them all), so a series can "
                             "be split over processes")
    args = parser.parse_args()
    game = pyspiel.load_game("python_dracula", {"max_moves": args.max_moves})
    wins = losses = 0
    start = time.time()
    for g in range(args.first, args.first + args.games):
        value = play(game, g % 2, args.simulations, args.seed + g)
        wins += value > 0
        losses += value < 0
        print(f"game {g + 1}: seat {g % 2}, return {value:+.0f}, wins {wins}, losses {losses}, "
              f"{time.time() - start:.0f} s", flush=True)
    decided = wins + losses
    print(f"ISMCTS ({args.simulations} simulations, max_moves {args.max_moves}) against uniform "
          f"random: {wins} won, {losses} lost, {args.games - decided} truncated of {args.games}; "
          f"one-sided p = {binomial_tail(wins, args.games):.2g} (wins among all games), "
          f"sign test p = {binomial_tail(wins, decided):.2g} (wins among {decided} decided)")


if __name__ == "__main__":
    main()
