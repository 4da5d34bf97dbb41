"""Power of ``conform --log``'s chance test on Dawn Under deals (#25): how many games' deals
a skewed engine needs before the test rejects it.

An engine deals the set-up by the model's chance nodes (126 items with 4 players, one at a
time: the reserve, every grave's lid, every row) but takes the first outcome by name with
probability SKEW, otherwise it draws by the exact probabilities. For each SKEW and number of
games, TRIALS independent log sets are tested at LEVEL; the table gives how many were
rejected. Usage::

    PYTHONPATH=. python bench/deal_chance_power.py [--trials 20] [--level 0.01]
"""

from __future__ import annotations

import argparse
import random
import time

from ruleproof.model.api import CHANCE
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.logs import chance_test
from ruleproof.properties.conformance.trace import dump_lines, header_object, parse_trace
from ruleproof.properties.plugin import make_game


def deal_log(rules: object, rng: random.Random, skew: float) -> str:
    """One log (a header with the dealt set-up, no actions needed by the chance test)."""
    game = model_of("dawn-under")
    state = rules.new_initial_state()  # type: ignore[attr-defined]
    while state.current_player() == CHANCE:
        outcomes = sorted(state.chance_outcomes(),
                          key=lambda o: rules.action_to_string(CHANCE, o[0]))  # type: ignore[attr-defined]
        if rng.random() < skew:
            action = outcomes[0][0]
        else:
            action = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        state = state.apply(action)
    setup = game.spec.setup_json(state)
    start = game.start(4, {"preset": "du-en"}, None, setup)
    first = game.legal(start)[0]
    return dump_lines([header_object("dawn-under", 4, {"preset": "du-en"}, setup=setup),
                       {"step": 1, "action": first}])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--level", type=float, default=0.01)
    args = parser.parse_args()
    rules = make_game("dawn-under", players=4)
    skews = (0.0, 0.02, 0.05, 0.1, 0.2)
    counts = (1, 2, 5, 10)
    began = time.monotonic()
    print("| skew | " + " | ".join(f"{n} game{'s' if n > 1 else ''}" for n in counts) + " |")
    print("| --- |" + " --- |" * len(counts))
    for skew in skews:
        cells = []
        for n in counts:
            rejected = 0
            for trial in range(args.trials):
                rng = random.Random(hash((skew, n, trial)) & 0xFFFFFFFF)
                traces = [parse_trace(deal_log(rules, rng, skew), file=f"<log {k}>")
                          for k in range(n)]
                test = chance_test(traces, level=args.level, seed=trial)
                rejected += test.passed is False
            cells.append(f"{rejected}/{args.trials}")
        print(f"| {skew:g} | " + " | ".join(cells) + " |")
    print(f"\n({args.trials} trials per cell, level {args.level:g}, 126 dealt items per game; "
          f"{time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
