"""Benchmark: distinct states per minute of ``ruleproof explore``, 1 process against N Ray
workers on the same reduced Dawn Under set-up (same run, same machine: the ratio is the
speed-up). Also the per-state cost of each part of an expansion, which bounds the rate.

Two rates are printed for every run, because the machine may be shared:

* **wall**: distinct states / wall-clock seconds of the search (what a user waits for);
* **CPU**: distinct states / CPU seconds of the busiest worker (``ExploreResult.per_worker``):
  the rate with a core per worker, which other processes on the machine do not change, as
  long as the workers wait little for each other. It leaves out the driver, Ray's own
  processes (the wall rate includes them). The share of the states each worker expanded is
  printed too: the work must be shared evenly for a second worker to help (before the
  driver evened out the held states after each level, the worker holding the root expanded
  everything, and the CPU rate, then computed as all workers' CPU times the number of
  workers, hid it).

The clock of a search starts when its workers are ready (the game built, as for one
process); starting Ray and its actors takes a few seconds more, printed separately.

``--against DIR`` instead alternates the one-process search of this tree and of another
checkout (``DIR``, e.g. a worktree of main), each in a fresh interpreter: the same-run
comparison of two states of the code on a loaded machine.

Run: ``python bench/bench_explore.py [--setup NAME] [--workers 2] [--rounds 1]``; without
``--setup`` the largest shipped set-up (the most distinct states pinned in any
``spec/<game>/reduced/expected.toml``, without symmetry), which issue #30 measures.
Figures are recorded in docs/benchmarks.md ("Exhaustive exploration"). The goals: 1,000,000
distinct states per minute across 2 local workers (#16); 2.5 M distinct states per
CPU-minute per worker on the largest shipped set-up (#30; the line ``per worker`` says
whether a run met it).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.distributed import explore_distributed
from ruleproof.properties.explore.games import explore_game, pinned_results
from ruleproof.properties.explore.search import ExploreResult, explore

GOAL_PER_WORKER = 2_500_000
"""Issue #30: distinct states per CPU-minute per worker on the largest shipped set-up."""


def largest_setup() -> tuple[str, int]:
    """The shipped set-up with the most distinct states pinned (without symmetry), and that
    count."""
    best = max((r for r in pinned_results() if not r.symmetry),
               key=lambda r: (r.distinct_states, r.name))
    return best.name, best.distinct_states


def engine_cost(name: str, states: int = 20_000) -> dict[str, float]:
    """CPU microseconds per state of the parts of one expansion, measured on a BFS prefix
    (``successors`` per expanded state: legal actions and every transition, with the step
    checks the search makes where the game has any -- ``checked_next_states``; ``fingerprint``
    per successor, as the search takes one per transition)."""
    game = explore_game(name)
    frontier = [r.state for r in game.roots()]
    sample: list[Any] = []
    while frontier and len(sample) < states:
        nxt = []
        for s in frontier:
            sample.append(s)
            if not game.is_terminal(s):
                nxt += game.next_states(s)
        frontier = nxt
    sample = sample[:states]
    out: dict[str, float] = {}
    # timed with the cyclic garbage collector off, as the search expands (gc_paused): its
    # passes over the sample's states would otherwise be charged to whichever part runs
    enabled = gc.isenabled()
    gc.disable()
    try:
        _engine_parts(game, sample, out)
    finally:
        if enabled:
            gc.enable()
    return out


def _engine_parts(game: Any, sample: list[Any], out: dict[str, float]) -> None:
    """The timings of :func:`engine_cost` into ``out``."""
    t = time.process_time()
    if game.step_checks:
        succ = [game.checked_next_states(s)[0] for s in sample if not game.is_terminal(s)]
        label = "successors + step checks"
    else:
        succ = [game.next_states(s) for s in sample if not game.is_terminal(s)]
        label = "successors (legal actions + apply)"
    out[label] = (time.process_time() - t) / len(sample) * 1e6
    flat = [x for ss in succ for x in ss]
    t = time.process_time()
    for s in flat:
        game.fp(s)
    out["fingerprints of the successors"] = (time.process_time() - t) / len(sample) * 1e6
    t = time.process_time()
    for s in sample:
        game.violations(s)
    out["invariants"] = (time.process_time() - t) / len(sample) * 1e6
    out["successors per state"] = len(flat) / len(sample)


def _line(label: str, r: ExploreResult) -> str:
    busiest = max((cpu for _, cpu in r.per_worker), default=0.0)
    cpu_rate = r.distinct_states / busiest * 60 if busiest else 0.0
    shares = "/".join(f"{n * 100 / max(1, r.distinct_states):.0f}%" for n, _ in r.per_worker)
    return (f"{label:12} {r.distinct_states:,} states in {r.seconds:6.1f} s wall, "
            f"{r.cpu_seconds:6.1f} s CPU: {r.states_per_minute:11,.0f} states/min wall, "
            f"{cpu_rate:11,.0f} states/min CPU (expanded {shares})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--setup", default=None,
                        help="a reduced set-up (default: the largest shipped one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="alternate 1 and N workers")
    parser.add_argument("--no-costs", action="store_true", help="skip the per-part costs")
    parser.add_argument("--against", metavar="DIR", default=None,
                        help="alternate the one-process search of this tree with that of "
                             "another checkout DIR (e.g. a worktree of main), --rounds times "
                             "each, and print both CPU rates and their ratio (then exit)")
    parser.add_argument("--compact", action="store_true",
                        help="also one process with compact state storage (--compact): its "
                             "rate and bytes per stored state, against the dict seen-set")
    args = parser.parse_args()
    if args.workers < 1 or args.rounds < 1:
        parser.error("--workers and --rounds must be at least 1")
    if args.against is not None and not (Path(args.against) / "properties").is_dir():
        parser.error(f"--against {args.against}: not a ruleproof checkout")
    if args.setup is not None:
        try:
            explore_game(args.setup)  # an unknown or invalid set-up: one line, before any run
        except MalformedInput as err:
            parser.error(f"--setup: {err.one_line()}")
    if args.setup is None:
        args.setup, pinned = largest_setup()
        print(f"set-up: {args.setup} (the largest shipped: {pinned:,} distinct states pinned)")
    if args.against is not None:
        compare(args.setup, Path(args.against), args.rounds)
        return
    if not args.no_costs:
        for part, value in engine_cost(args.setup).items():
            print(f"{part:40} {value:10.1f}")
    for _ in range(args.rounds):
        load = os.getloadavg()[0]
        one = explore(args.setup, keep_graph=False)
        print(_line("1 process", one) + f"  (load {load:.1f})")
        if args.compact:
            load = os.getloadavg()[0]
            small = explore(args.setup, keep_graph=False, compact=True)
            assert small.verdict() == one.verdict(), "compact and dict results differ"
            calc, actual = small.collision or (0.0, None)
            print(_line("1 compact", small) + f"  (load {load:.1f}); "
                  f"{small.store_bytes / max(1, small.distinct_states):.1f} bytes per stored "
                  f"state; collision probability {calc:.1e} calculated, "
                  + ("-" if actual is None else f"{actual:.1e}") + " from the fingerprints")
        load = os.getloadavg()[0]
        t = time.perf_counter()
        many = explore_distributed(args.setup, workers=args.workers, keep_graph=False)
        overhead = time.perf_counter() - t - many.seconds
        print(_line(f"{args.workers} workers", many) + f"  (load {load:.1f}; Ray start-up and "
              f"shut-down {overhead:.1f} s more)")
        assert many.verdict() == one.verdict(), "distributed and single results differ"
        print(f"speed-up 1 -> {args.workers}: {one.seconds / many.seconds:.2f}x wall")
        print(_per_worker(one, many, args.workers))


_ONE_RUN = """
import json, os, sys
from ruleproof.properties.explore.search import explore
import ruleproof
load = os.getloadavg()[0]
r = explore(sys.argv[1], keep_graph=False)
print(json.dumps({"states": r.distinct_states, "cpu": r.cpu_seconds, "wall": r.seconds,
                  "load": load, "tree": ruleproof.__file__}))
"""


def _one_run(setup: str, tree: Path | None) -> dict[str, Any]:
    """One single-process search of ``setup`` in a fresh interpreter, importing ruleproof
    from ``tree`` (a checkout) or, if None, as installed."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    # run in the tree (``python -c`` puts the working folder first on the path)
    out = subprocess.run([sys.executable, "-c", _ONE_RUN, setup], env=env, check=True,
                         capture_output=True, text=True,
                         cwd=None if tree is None else tree).stdout
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def compare(setup: str, other: Path, rounds: int) -> None:
    """Alternate the one-process search of ``other`` (a checkout) and of this tree, each in a
    fresh interpreter, ``rounds`` times: distinct states per CPU-minute of each, pair by pair
    (the machine's load changes between runs; alternating spreads it over both). Which tree
    runs first changes from round to round: the first run of a pair was measured up to about
    10% slower than the second for the same code, so a ratio is only fair over an even
    number of rounds (the mean of the rounds is printed at the end)."""
    here = Path(__file__).resolve().parent.parent
    ratios = []
    for k in range(rounds):
        rates: dict[str, float] = {}
        order = (("other", other), ("this", here))
        for label, tree in order if k % 2 == 0 else order[::-1]:
            r = _one_run(setup, tree)
            rate = r["states"] / r["cpu"] * 60
            rates[label] = rate
            print(f"round {k + 1} {label:5} {r['states']:,} states {r['cpu']:6.1f} s CPU "
                  f"{r['wall']:6.1f} s wall: {rate:11,.0f} states/CPU-min (load {r['load']:.1f}; "
                  f"{r['tree']})", flush=True)
        ratios.append(rates["this"] / rates["other"])
        print(f"round {k + 1} this / other: {ratios[-1]:.2f}x", flush=True)
    print(f"mean of {rounds} round(s), each tree first in half of them"
          + ("" if rounds % 2 == 0 else " (an odd number: one more first run of 'other')")
          + f": {sum(ratios) / len(ratios):.2f}x", flush=True)


def _per_worker(one: ExploreResult, many: ExploreResult, workers: int) -> str:
    """Issue #30's figure: distinct states per CPU-minute per worker, in one process and
    with ``workers`` workers (each worker's share of the states over its CPU time; the
    busiest worker's CPU bounds the run), against :data:`GOAL_PER_WORKER`."""
    rate_one = one.distinct_states / one.cpu_seconds * 60 if one.cpu_seconds else 0.0
    busiest = max((cpu for _, cpu in many.per_worker), default=0.0)
    rate_many = many.distinct_states / busiest * 60 / workers if busiest else 0.0
    met = "met" if min(rate_one, rate_many) >= GOAL_PER_WORKER else "not met"
    return (f"per worker: {rate_one:,.0f} states/CPU-min in 1 process, {rate_many:,.0f} with "
            f"{workers} workers (goal {GOAL_PER_WORKER:,}: {met})")


if __name__ == "__main__":
    main()
