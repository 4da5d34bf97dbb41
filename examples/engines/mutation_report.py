#!/usr/bin/env python3
"""Mutation score of ``ruleproof conform`` against the mutants of a reference engine.

Every mutant of ``dawn_under_ref.py`` (or ``dracula_ref.py`` with ``--game dracula``) is run
as a subprocess (the protocol a real engine uses)
under ``ruleproof.properties.conformance.differential.conform`` with a time budget; the table (markdown)
gives whether it was caught, the time to detection, the length of the shrunk game, the clause
named and how it was found (contract, reading, model, field heuristic; counted above the table). Usage::

    python examples/engines/mutation_report.py --budget 30 [--in-process] [--seed 0] \
        [--game dawn-under|dracula] [--write-docs docs/conformance.md]

The default profile shrinks each witness with ``conform``'s own default shrink budget (half
the budget); ``--write-docs FILE`` puts the report between the markers
``<!-- mutation-report:GAME:start -->`` and ``<!-- mutation-report:GAME:end -->`` of FILE
(the run regenerates the table in the docs).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

from ruleproof.properties.conformance.blame import MECHANISMS
from ruleproof.properties.conformance.differential import conform
from ruleproof.properties.conformance.engine import Engine, EngineFactory, MessageEngine, subprocess_factory
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.readings import same_rule

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dawn_under_ref  # noqa: E402
import dracula_ref  # noqa: E402

MUTANTS = {"dawn-under": dawn_under_ref.MUTANTS, "dracula": dracula_ref.MUTANTS}
CLAUSES = {"dawn-under": dawn_under_ref.CLAUSES, "dracula": dracula_ref.CLAUSES}
PRESETS = {"dawn-under": dawn_under_ref.PRESET_OF, "dracula": {}}
EXPANSIONS = {"dawn-under": dawn_under_ref.EXPANSION_OF, "dracula": {}}
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


def _write_docs(path: Path, game: str, report: str) -> None:
    """Replace the text between ``<!-- mutation-report:GAME:start -->`` and its end marker."""
    start, end = f"<!-- mutation-report:{game}:start -->", f"<!-- mutation-report:{game}:end -->"
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise SystemExit(f"error: {path}: no markers {start} ... {end}")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{start}\n{report.strip()}\n{end}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Print the mutation-score table; exit 1 if a mutant survives."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--budget", type=float, default=30.0)
    parser.add_argument("--shrink-budget", type=float, default=None,
                        help="seconds of shrinking per witness (default: conform's, half the "
                             "budget)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--game", choices=sorted(MUTANTS), default="dawn-under")
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--only", nargs="*", help="run only these mutants")
    parser.add_argument("--write-docs", type=Path, default=None,
                        help="also write the report between this file's markers")
    args = parser.parse_args(argv)
    start = time.monotonic()
    caught = 0
    agreed = 0
    rows = []
    lengths: list[int] = []
    won: list[int] = []
    used: dict[str, int] = {}
    for name, what in MUTANTS[args.game].items():
        if args.only and name not in args.only:
            continue
        preset = PRESETS[args.game].get(name)
        options = {"preset": preset} if preset else {}
        expansion = EXPANSIONS[args.game].get(name)
        if expansion:
            options["expansion"] = expansion  # an expansion mutant shows only with it
        result = conform(model_of(args.game), _factory(args.game, name, args.in_process),
                         budget=args.budget, options=options, max_steps=args.max_steps,
                         shrink_budget=args.shrink_budget, seed=args.seed)
        d = result.divergence
        found = result.found
        declared = CLAUSES[args.game][name]
        if d is not None and found is not None:
            caught += 1
            blamed = d.clauses[0] if d.clauses else "-"
            agree = same_rule(blamed, declared)
            agreed += agree
            lengths.append(len(found.actions))
            near_win = d.kind == "state" and "winner" in d.detail
            if near_win:
                won.append(len(found.actions))
            shrunk = f" (from {result.shrink_steps[0]})" if result.shrink_steps else ""
            by = d.blamed_by or "-"
            used[by] = used.get(by, 0) + 1
            rows.append(f"| `{name}` | {what} | yes | {result.detection_seconds:.2f} | "
                        f"{len(found.actions)}{shrunk} | {d.kind} | {declared} | {blamed} | "
                        f"{by} | {'yes' if agree else '**no**'} |")
        else:
            rows.append(f"| `{name}` | {what} | **no** | - | - | - | {declared} | - | - | - |")
    mode = "in-process" if args.in_process else "subprocess"
    shrink = (f"{args.shrink_budget:g} s" if args.shrink_budget is not None
              else f"conform's default, {max(1.0, args.budget / 2):g} s")
    out: list[str] = []

    def print(text: str = "") -> None:  # the report, echoed and kept
        out.append(text)
        sys.stdout.write(text + "\n")

    print(f"{args.game} mutation score: **{caught}/{len(rows)}** caught, blame agrees for "
          f"**{agreed}/{len(rows)}** ({mode}, budget {args.budget:g} s per mutant, shrink budget "
          f"{shrink}, seed {args.seed}, max steps {args.max_steps}; "
          f"{time.monotonic() - start:.0f} s in all)\n")
    if lengths:
        ordered = sorted(lengths)
        print(f"Witness lengths (actions): min {ordered[0]}, median "
              f"{statistics.median(ordered):g}, max {ordered[-1]}; <= 10: "
              f"{sum(n <= 10 for n in ordered)}, <= 40: {sum(n <= 40 for n in ordered)}, "
              f"> 40: {sum(n > 40 for n in ordered)}"
              + (f"; divergences about the winner: {sorted(won)}" if won else "") + "\n")
    if used:
        print("Blamed by: " + ", ".join(f"{m} {used[m]}" for m in (*MECHANISMS, "-") if m in used)
              + "\n")
    print("| mutant | rule broken | caught | detection (s) | witness (actions) | kind | "
          "clause changed | clause blamed | blamed by | agree |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    if args.write_docs is not None:
        _write_docs(args.write_docs, args.game, "\n".join(out))
    return 0 if caught == len(rows) == agreed else 1


if __name__ == "__main__":
    sys.exit(main())
