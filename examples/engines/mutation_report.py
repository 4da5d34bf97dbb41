#!/usr/bin/env python3
"""Mutation score of ``ruleproof conform`` against the mutants of a reference engine.

Every mutant of ``dawn_under_ref.py`` (or ``dracula_ref.py`` with ``--game dracula``) is run
as a subprocess (the protocol a real engine uses)
under ``ruleproof.properties.conformance.differential.conform`` with a time budget; the table (markdown)
gives whether it was caught, the time to detection, the length of the shrunk game and the clauses
named. Usage::

    python examples/engines/mutation_report.py --budget 30 [--in-process] [--seed 0] \
        [--game dawn-under|dracula]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from ruleproof.properties.conformance.differential import conform
from ruleproof.properties.conformance.engine import Engine, EngineFactory, MessageEngine, subprocess_factory
from ruleproof.properties.conformance.games import adapter

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dawn_under_ref  # noqa: E402
import dracula_ref  # noqa: E402

MUTANTS = {"dawn-under": dawn_under_ref.MUTANTS, "dracula": dracula_ref.MUTANTS}
SCRIPTS = {"dawn-under": "dawn_under_ref.py", "dracula": "dracula_ref.py"}


def _factory(game: str, mutant: str, in_process: bool) -> EngineFactory:
    if in_process:
        def make() -> Engine:
            if game == "dracula":
                return MessageEngine(dracula_ref.DraculaEngine(mutant).handle)
            return MessageEngine(dawn_under_ref.DawnUnderEngine(mutant).handle)
        return make
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / SCRIPTS[game]))}"
    return subprocess_factory(f"{command} --mutant {mutant}")


def main(argv: list[str] | None = None) -> int:
    """Print the mutation-score table; exit 1 if a mutant survives."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--budget", type=float, default=30.0)
    parser.add_argument("--shrink-budget", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--game", choices=sorted(MUTANTS), default="dawn-under")
    args = parser.parse_args(argv)
    start = time.monotonic()
    caught = 0
    rows = []
    for name, what in MUTANTS[args.game].items():
        result = conform(adapter(args.game), _factory(args.game, name, args.in_process),
                         budget=args.budget,
                         shrink_budget=args.shrink_budget, seed=args.seed)
        d = result.divergence
        found = result.found
        if d is not None and found is not None:
            caught += 1
            rows.append(f"| `{name}` | {what} | yes | {result.detection_seconds:.2f} | "
                        f"{len(found.actions)} | {d.kind} | {', '.join(d.clauses)} |")
        else:
            rows.append(f"| `{name}` | {what} | **no** | - | - | - | - |")
    mode = "in-process" if args.in_process else "subprocess"
    print(f"{args.game} mutation score: **{caught}/{len(rows)}** ({mode}, budget {args.budget:g} s per "
          f"mutant, shrink budget {args.shrink_budget:g} s, seed {args.seed}; "
          f"{time.monotonic() - start:.0f} s in all)\n")
    print("| mutant | rule broken | caught | detection (s) | minimal game (actions) | kind | "
          "clauses named |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    return 0 if caught == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
