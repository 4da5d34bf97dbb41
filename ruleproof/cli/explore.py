"""The ``explore`` command: exhaustive breadth-first exploration of a reduced configuration.

Exit codes: 0 explored to the last state with nothing found (or only what ``--allow`` lists),
1 a finding (invariant violation, model error, dead end, a trap or cycle not allowed, a count
differing from ``spec/<game>/reduced/expected.toml`` with ``--pinned``) or an incomplete run, 2 bad input.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ruleproof.cli.clitools import bad_input_exits_2, int_in_range
from ruleproof.cli.fit import FitConsole
from ruleproof.cli.progress import progress as progress_bar
from ruleproof.errors import MalformedInput, OutputFailed
from ruleproof.properties.conformance.trace import dump_lines
from ruleproof.properties.explore.coverage import (
    SetupCoverage,
    explored_sources,
    markdown,
    setup_coverage,
    summary,
    table,
)
from ruleproof.properties.explore.games import (
    configuration,
    contracts_off,
    explore_game,
    pinned_results,
    shipped,
    started_roots,
)
from ruleproof.properties.explore.search import ExploreResult, explore
from ruleproof.properties.explore.simulate import full_setups
from ruleproof.properties.explore.simulate import simulate as run_simulation
from ruleproof.properties.explore.trace_out import write_findings
from ruleproof.properties.plugin import plugin
from ruleproof.system.outputs import Target, check_target, claimed, write_file, write_files

ALLOWED = ("cycles", "traps", "dead-ends")


def _pins_file(game: str) -> str:
    """The pinned-results file of ``game`` (``spec/<game>/reduced/expected.toml``)."""
    try:
        return str(plugin(game).spec_folder / "reduced" / "expected.toml")
    except MalformedInput:
        return "spec/<game>/reduced/expected.toml"


def _no_pin(name: str, game: str, symmetry: bool) -> str:
    """Why ``name`` explored with ``symmetry`` has nothing to compare with ('' if it has a
    pinned result)."""
    if any(e.name == name and e.symmetry == symmetry for e in pinned_results()):
        return ""
    return (f"no pinned result for {name} (symmetry {'on' if symmetry else 'off'}) in "
            f"{_pins_file(game)}")


def _pinned_mismatch(result: ExploreResult) -> list[str]:
    missing = _no_pin(result.name, result.game, result.symmetry != "off")
    if missing:
        return [missing]
    e = next(e for e in pinned_results() if e.name == result.name
             and e.symmetry == (result.symmetry != "off"))
    out = []
    for name in ("distinct_states", "depth", "terminal", "dead_ends", "traps", "violations",
                 "cycles"):
        got, want = getattr(result, name), getattr(e, name)
        if want is None:  # a compact entry: no graph, so no traps or cycles pinned
            continue
        if name in ("traps", "cycles") and not result.graph:
            out.append(f"{name}: not analysed (explored without the state graph), pinned "
                       f"{want}")
            continue
        if got != want:
            out.append(f"{name}: explored {got}, pinned {want}")
    return out


@bad_input_exits_2
def explore_command(
    game: Annotated[str, typer.Argument(help="a reduced configuration: shipped name "
                                             "(see --list) or a spec/reduced-style TOML file")] = "",
    symmetry: Annotated[bool | None, typer.Option(help="reduce by the game's symmetry group "
                                                       "(for games that have one, "
                                                       "docs/explore.md); default off, or "
                                                       "the checkpoint's on --resume")
                        ] = None,
    contracts: Annotated[bool | None, typer.Option(help="check the clause contracts "
                                                        "(properties/contracts) on every "
                                                        "transition (--no-contracts: about "
                                                        "2.5x faster); default on, or the "
                                                        "checkpoint's on --resume")] = None,
    max_states: Annotated[int | None, typer.Option(help="stop after this many states "
                                                        "(then nothing is proved)")] = None,
    max_seconds: Annotated[float | None, typer.Option(
        help="stop after this many seconds (checked between BFS levels: the level under way "
             "is finished, so a run can take one level longer)")] = None,
    no_graph: Annotated[bool, typer.Option("--no-graph", help="keep no state graph: faster, "
                                           "but no trap and cycle analysis")] = False,
    checkpoint: Annotated[Path | None, typer.Option(help="write a checkpoint FILE every "
                                                         "--checkpoint-every seconds and at the end")] = None,
    checkpoint_every: Annotated[float | None, typer.Option(help="seconds between checkpoints "
                                                                 "[default: 60]")] = None,
    resume: Annotated[bool, typer.Option(help="continue from --checkpoint FILE")] = False,
    workers: Annotated[int | None, typer.Option(help="Ray workers (partitions of the "
                                                     "seen-set); 1 = this process, no Ray "
                                                     "[default: 1]")] = None,
    ray_address: Annotated[str | None, typer.Option(help="address of a Ray cluster (default: "
                                                         "a local Ray)")] = None,
    out: Annotated[Path | None, typer.Option(help="folder for the counterexample traces "
                                                  "(default: explore-NAME)")] = None,
    allow: Annotated[list[str] | None, typer.Option(help="findings that do not fail the run "
                                                         "(repeat it, or join with commas): "
                                                         "cycles, traps, dead-ends")] = None,
    pinned: Annotated[bool, typer.Option(help="fail if the counts differ from "
                                              "spec/<game>/reduced/expected.toml")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable result")] = False,
    list_: Annotated[bool, typer.Option("--list", help="list the shipped reduced "
                                                       "configurations")] = False,
    profile: Annotated[str | None, typer.Option(help="explore every configuration pinned for "
                                                     "this profile (ci, thorough, or all) and "
                                                     "compare with the pinned results")] = None,
    up_to: Annotated[int | None, typer.Option(help="with --profile: only the set-ups pinned "
                                                   "with at most N distinct states (the "
                                                   "others are listed as skipped)")] = None,
    coverage: Annotated[bool, typer.Option(help="count the rule clauses every transition "
                                                "exercised and print the clause coverage "
                                                "(docs/explore.md)")] = False,
    coverage_out: Annotated[Path | None, typer.Option(help="write the clause coverage as "
                                                           "Markdown to FILE (with --coverage)")
                            ] = None,
    compact: Annotated[bool, typer.Option(help="compact state storage: fingerprints in a "
                                               "numpy set (at most 16 bytes a state), parent "
                                               "pointers on disk; needs --no-graph, one "
                                               "process, no checkpoint")] = False,
    simulate: Annotated[int | None, typer.Option(help="simulation mode (TLC -simulate): run "
                                                      "N random behaviours of the set-up "
                                                      "(a full game of spec/<game>/full, "
                                                      "see --list) instead of exploring")
                        ] = None,
    depth: Annotated[int | None, typer.Option(help="with --simulate: most steps of a "
                                                   "behaviour [default: 2000]")] = None,
    seed: Annotated[int | None, typer.Option(help="with --simulate: seed of the behaviours "
                                                  "[default: 0]")] = None,
) -> None:
    """Explore every reachable state of a reduced game (docs/explore.md)."""
    if max_states is not None and max_states < 1:
        raise MalformedInput(f"--max-states must be at least 1, got {max_states}")
    for flag, value in (("--max-seconds", max_seconds), ("--checkpoint-every", checkpoint_every)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise MalformedInput(f"{flag} must be a finite number of seconds > 0, got {value!r}")
    if ray_address is not None and not ray_address.strip():
        raise MalformedInput("--ray-address: empty, expected HOST:PORT")
    if workers is not None and not 1 <= workers <= 64:
        raise MalformedInput(f"--workers must be 1..64, got {workers}")
    from ruleproof.properties.explore.distributed import check_address

    check_address(ray_address)
    if checkpoint is None and (resume or checkpoint_every is not None):
        named = bool(game) and (game in shipped() or str(game).endswith(".toml"))  # a set-up
        hint = (f" (write: ruleproof explore --checkpoint {game} --resume; {game!r} was taken "
                "as the configuration)" if resume and game and not named else "")
        raise MalformedInput(f"{'--resume' if resume else '--checkpoint-every'} only works with "
                             f"--checkpoint FILE{hint}")
    if simulate is None and (depth is not None or seed is not None):
        raise MalformedInput("--depth and --seed only work with --simulate N")
    if simulate is not None:
        others = {"--symmetry/--no-symmetry": symmetry is not None,
                  "--max-states": max_states is not None, "--no-graph": no_graph,
                  "--checkpoint": checkpoint is not None, "--resume": resume,
                  "--checkpoint-every": checkpoint_every is not None,
                  "--workers": workers is not None, "--ray-address": ray_address is not None,
                  "--allow": bool(allow), "--pinned": pinned, "--list": list_,
                  "--profile": profile is not None, "--compact": compact,
                  "--up-to": up_to is not None}
        unused = [flag for flag, on in others.items() if on]
        if unused:
            raise MalformedInput(f"--simulate does not use {', '.join(unused)}; drop it")
        if not game:
            raise MalformedInput("--simulate needs a set-up: a full game (spec/<game>/full), "
                                 "a reduced configuration or a file")
        if coverage_out is not None and not coverage:
            raise MalformedInput("--coverage-out only works with --coverage")
        if seed is not None:  # the range every other --seed takes (simulate, stats, conform)
            int_in_range(seed, "--seed", 0, 2**63 - 1)
        int_in_range(simulate, "--simulate", 1, 10**9)  # (a 23-digit count is a slip)
        if depth is not None:
            int_in_range(depth, "--depth", 1, 10**9)
        _simulate(game, simulate, 2000 if depth is None else depth, seed or 0,
                  _contracts(contracts, str(full_setups().get(game, game)))[0], max_seconds,
                  out, as_json, coverage, coverage_out)
        return
    if coverage_out is not None and not coverage:
        raise MalformedInput("--coverage-out only works with --coverage")
    if coverage and (list_ or checkpoint is not None):
        raise MalformedInput(f"--coverage does not work with "
                             f"{'--list' if list_ else '--checkpoint'}; drop one")
    if out is not None:  # refused before the search, not after it (nothing run, nothing lost)
        check_target(Target(out, "--out", "trace", folder=True))
    if coverage_out is not None:
        check_target(Target(coverage_out, "--coverage-out", "coverage table"))
        if coverage_out.is_file() and not _written_by_coverage(coverage_out):
            raise MalformedInput(f"--coverage-out {coverage_out}: the file exists and was not "
                                 "written by explore --coverage; ruleproof replaces only files "
                                 "it wrote (remove it or name another)")
    if game and (profile is not None or list_):
        raise MalformedInput(f"--profile and --list explore the shipped set-ups; drop {game!r}")
    if profile is not None or list_:
        given = {"--symmetry/--no-symmetry": symmetry is not None,
                 "--contracts/--no-contracts": contracts is not None,
                 "--max-states": max_states is not None, "--max-seconds": max_seconds is not None,
                 "--no-graph": no_graph, "--checkpoint": checkpoint is not None,
                 "--checkpoint-every": checkpoint_every is not None, "--resume": resume,
                 "--workers": workers is not None, "--ray-address": ray_address is not None,
                 "--out": out is not None, "--allow": bool(allow), "--pinned": pinned,
                 "--json": as_json and list_, "--profile": profile is not None and list_,
                 "--compact": compact}
        unused = [flag for flag, on in given.items() if on]
        if unused:
            raise MalformedInput(f"{'--list' if list_ else '--profile'} does not use "
                                 f"{', '.join(unused)}; drop it")
    if up_to is not None and (profile is None or up_to < 1):
        raise MalformedInput("--up-to N works with --profile and needs N >= 1"
                             + ("" if profile is None else f", got {up_to}"))
    if profile is not None:
        _profile(profile, as_json, coverage, coverage_out, up_to)
        return
    if list_:
        table = Table(title="shipped set-ups")
        for col in ("set-up", "game", "description"):
            table.add_column(col)
        for name in shipped():
            spec = configuration(name)
            table.add_row(name, spec.game, spec.description)
        for name, path in full_setups().items():
            spec = configuration(str(path))
            table.add_row(name, spec.game, f"{spec.description} (--simulate only)")
        FitConsole(highlight=False, soft_wrap=True).print(table)
        return
    if not game and not resume:
        raise MalformedInput("name a reduced configuration (ruleproof explore --list)")
    n_workers = 1 if workers is None else workers
    contracts_why = "--no-contracts"
    if contracts is None and not resume:
        # every invariant and every clause contract, unless told otherwise or the game has none
        contracts, contracts_why = _contracts(None, game)
    allowed = {x.strip() for a in allow or () for x in a.split(",") if x.strip()}
    if allow and not allowed:
        raise MalformedInput(f"--allow {allow[0]!r}: names nothing; it takes "
                             f"{', '.join(ALLOWED)}")
    bad = allowed - set(ALLOWED)
    if bad:
        raise MalformedInput(f"--allow takes {', '.join(ALLOWED)}; got {', '.join(sorted(bad))}")
    if checkpoint is not None and game and not resume:
        # a bad set-up (a file, its [playout]) is refused before the checkpoint's lock is taken:
        # nothing written, not even the lock file
        started_roots(explore_game(game, symmetry=bool(symmetry)))
    if out is None and game:
        # the default folder for the traces of findings, checked before the search as --out is
        # (a regular file there would only be found after the whole run)
        check_target(Target(Path(f"explore-{configuration(game).name}"), "--out (default)",
                            "trace", folder=True))
    if pinned and game and not resume:  # nothing to compare with: refused before the search
        spec = configuration(game)
        missing = _no_pin(spec.name, spec.game, bool(symmetry))
        if missing:
            raise MalformedInput(f"--pinned: {missing}; pins are kept for the shipped set-ups "
                                 "(drop --pinned)")
    if checkpoint is not None and resume and not checkpoint.exists():
        raise MalformedInput("cannot read checkpoint: no such file", file=str(checkpoint))
    claim = contextlib.ExitStack()  # another run writing the same checkpoint is refused now
    if checkpoint is not None:
        claim.enter_context(claimed([Target(checkpoint, "--checkpoint", "checkpoint")]))
    console = Console(stderr=True)
    show = sys.stderr.isatty()  # stderr: with --json too (the JSON is on stdout)
    with claim, Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                  TextColumn("depth {task.fields[depth]}  {task.fields[states]:,} states  "
                             "frontier {task.fields[frontier]:,}  {task.fields[rate]:,.0f}/min"),
                  TimeElapsedColumn(), console=console, disable=not show) as bar:
        task = bar.add_task(f"explore {game}", total=None, depth=0, states=0, frontier=0,
                            rate=0.0)

        def progress(depth: int, states: int, frontier: int, seconds: float) -> None:
            bar.update(task, depth=depth, states=states, frontier=frontier,
                       rate=states / seconds * 60 if seconds else 0.0)

        if n_workers > 1 or ray_address is not None:
            if compact:
                raise MalformedInput("--compact works in a single process (--workers 1) only")
            if checkpoint is not None or resume:
                raise MalformedInput("--checkpoint/--resume work in a single process "
                                     "(--workers 1) only")
            from ruleproof.properties.explore.distributed import explore_distributed
            result = explore_distributed(game, workers=n_workers, address=ray_address,
                                         symmetry=bool(symmetry), max_states=max_states,
                                         max_seconds=max_seconds, keep_graph=not no_graph,
                                         progress=progress, contracts=bool(contracts),
                                         coverage=coverage)
        else:
            result = explore(game, symmetry=symmetry, contracts=contracts,
                             max_states=max_states,
                             max_seconds=max_seconds, keep_graph=False if no_graph else None,
                             progress=progress, checkpoint=checkpoint, resume=resume,
                             checkpoint_every=60.0 if checkpoint_every is None
                             else checkpoint_every, coverage=coverage, compact=compact)
    folder = out or Path(f"explore-{result.name}")
    unwritten: OutputFailed | MalformedInput | None = None
    written: list[Path | None] = []
    try:  # a trace that cannot be written never hides the finding: it is printed below
        written = list(write_findings(result, folder)) if result.findings else []
    except MalformedInput as exc:
        unwritten = exc
        written = [None] * len(result.findings)
    problems = result.problems()
    if "dead-ends" in allowed:
        problems = [p for p in problems if "dead end" not in p]
    if result.traps and "traps" not in allowed:
        problems.append(f"{result.traps} trap state(s): no ending reachable")
    if result.cycles and "cycles" not in allowed:
        problems.append(f"{result.on_cycle} state(s) on cycles: play can go on for ever")
    # without the graph traps and cycles are not analysed: a problem, unless both are
    # allowed or a pin is checked (a compact pin pins neither; one that pins them says they
    # were not analysed itself: _pinned_mismatch)
    if not result.graph and result.complete and not pinned \
            and not {"traps", "cycles"} <= set(allowed):
        problems.append("--no-graph: traps and cycles were not analysed")
    pin_problems = _pinned_mismatch(result) if pinned else []
    problems += pin_problems
    if as_json:
        data: dict[str, Any] = {k: v for k, v in result.verdict().items() if k != "findings"}
        data.update(seconds=result.seconds, states_per_minute=result.states_per_minute,
                    cpu_seconds=result.cpu_seconds, workers=result.workers,
                    per_worker=[{"expanded": n, "cpu_seconds": cpu}
                                for n, cpu in result.per_worker],
                    cycles=result.cycles, passed=not problems, problems=problems,
                    resumed_from=result.resumed_from, new_states=result.new_states,
                    checkpoint_error=result.unsaved,
                    pinned=None if not pinned else not pin_problems,
                    fired=result.fired,
                    playout=None if result.playout is None else {
                        "seed": result.playout[0], "actions": result.playout[1]},
                    store_bytes=result.store_bytes or None,
                    collision_probability=None if result.collision is None else {
                        "calculated": result.collision[0], "actual": result.collision[1]},
                    findings=[{"kind": f.kind, "message": f.message, "depth": f.depth,
                               "trace": None if p is None else str(p)}
                              for f, p in zip(result.findings, written, strict=False)])
        if not result.graph:  # traps and cycles not analysed: null, not 0 or false
            data.update(traps=None, on_cycle=None, cycles=None)
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(f"{result.name} ({result.game}), symmetry {result.symmetry}: "
                   f"{result.distinct_states:,} distinct states, depth {result.depth}, "
                   f"{result.transitions:,} transitions, {result.terminal:,} terminal, "
                   f"{'complete' if result.complete else 'INCOMPLETE'}")
        if result.playout is not None:
            n = result.playout[1]
            typer.echo(f"  from a late start: where {n} random legal action"
                       f"{'' if n == 1 else 's'} (playout seed {result.playout[0]}) lead"
                       f"{'s' if n == 1 else ''} from each root")
        graph = (f"traps {result.traps}, states on cycles {result.on_cycle}" if result.graph
                 else "traps and cycles not analysed (no state graph)")
        typer.echo(f"  dead ends {result.dead_ends}, {graph}, invariant violations "
                   f"{result.violations}, model errors "
                   f"{result.errors}; clause contracts "
                   + ("checked on every transition" if result.contracts else
                      f"not checked ({contracts_why})" if not resume else
                      "not checked (the checkpoint was written with --no-contracts)"))
        typer.echo(f"  {result.seconds:.1f} s, {result.states_per_minute:,.0f} distinct states "
                   f"per minute, {result.workers} worker(s), {result.cpu_seconds:.1f} CPU s "
                   "in the workers" + ("" if len(result.per_worker) < 2 else " (expanded " + ", ".join(
                       f"{n:,} in {cpu:.1f} s" for n, cpu in result.per_worker) + ")"))
        if result.collision is not None:
            calc, actual = result.collision
            typer.echo(f"  compact storage: {result.store_bytes:,} bytes of fingerprints, "
                       f"{result.store_bytes / max(1, result.distinct_states):.1f} bytes per "
                       f"stored state; fingerprint collision probability: calculated "
                       f"{calc:.1e}, based on the actual fingerprints "
                       + ("-" if actual is None else f"{actual:.1e}"))
        if result.resumed_from is not None:
            typer.echo(f"  resumed from {checkpoint} at {result.resumed_from:,} states: "
                       + (f"this run added {result.new_states:,}" if result.new_states else
                          "this run did no work (the checkpoint was already complete)"
                          if result.complete else "this run did no work (--max-states "
                          "already reached?)"))
        if pinned and not pin_problems:
            typer.echo(f"  counts as pinned in {_pins_file(result.game)}")
        for f, p in zip(result.findings, written, strict=False):
            typer.echo(f"  {f.kind}: {f.message} (depth {f.depth}) -> "
                       + (str(p) if p is not None else "(trace not written)"))
        typer.echo("passed" if not problems else "FAILED: " + "; ".join(problems))
    if coverage:
        _coverage_out([_setup_coverage(result, game)], as_json, coverage_out)
    if unwritten is not None or result.unsaved:  # the verdict is out; 2 only with no finding
        sys.stdout.flush()
        sys.stderr.write(f"error: {unwritten or result.unsaved}\n")
        raise typer.Exit(1 if problems else 2)
    raise typer.Exit(0 if not problems else 1)


def _contracts(asked: bool | None, setup: str) -> tuple[bool, str]:
    """Whether to check the clause contracts exploring ``setup`` (``asked``: the flag, None if
    not given: on if its game has contracts), and why not if not."""
    if asked is not None:
        return asked, "" if asked else "--no-contracts"
    why = contracts_off(setup)
    return not why, why


def _simulate(name: str, behaviours: int, depth: int, seed: int, contracts: bool,
              max_seconds: float | None, out: Path | None, as_json: bool, coverage: bool,
              coverage_out: Path | None) -> None:
    """``explore NAME --simulate N``: run, print, write the findings' traces; exit 1 on a
    finding or no step, else 0."""
    with progress_bar(f"explore --simulate {name}", behaviours) as advance:
        res = run_simulation(name, behaviours=behaviours, depth=depth, seed=seed,
                             contracts=contracts, max_seconds=max_seconds,
                             progress=lambda done: advance())
    problems = res.problems()
    written: list[Path] = []
    if res.findings:
        written = write_files(Target(out or Path(f"simulate-{res.name}"), "--out", "trace",
                                     folder=True),
                              [(f"{f.kind}-{n}.jsonl", dump_lines(f.trace))
                               for n, f in enumerate(res.findings, start=1)])
    if as_json:
        typer.echo(json.dumps({"name": res.name, "game": res.game, "seed": res.seed,
                               "behaviours": res.behaviours, "steps": res.steps,
                               "transitions": res.transitions, "terminal": res.terminal,
                               "cut": res.cut, "longest": res.longest,
                               "contracts": res.contracts, "seconds": res.seconds,
                               "fired": res.fired, "passed": not problems,
                               "problems": problems,
                               "traces": [str(p) for p in written]}, indent=2))
    else:
        typer.echo(f"{res.name} ({res.game}), simulation, seed {res.seed}: {res.behaviours} "
                   f"behaviours, {res.steps:,} steps, {res.transitions:,} successors checked "
                   f"(every invariant{', every clause contract' if res.contracts else ''}), "
                   f"{res.terminal} ended, {res.cut} cut at --depth {depth}, longest "
                   f"{res.longest}, {res.seconds:.1f} s")
        for f, p in zip(res.findings, written, strict=False):
            typer.echo(f"  {f.kind}: {f.message} (behaviour {f.behaviour}, step {f.depth}) "
                       f"-> {p}")
        typer.echo("passed" if not problems else "FAILED: " + "; ".join(problems))
    if coverage:
        game = explore_game(str(full_setups().get(name, name)))
        _coverage_out([setup_coverage(game, f"{res.name} (simulated)", res.fired, res.steps)],
                      as_json, coverage_out)
    raise typer.Exit(1 if problems else 0)


def _setup_coverage(result: ExploreResult, setup: str | None = None) -> SetupCoverage:
    # ``setup``: the name or file the run was given (a user's file is not found by its name)
    game = explore_game(setup or result.name)
    name = result.name + (" (symmetry)" if result.symmetry != "off" else "")
    return setup_coverage(game, name, result.fired or {}, result.distinct_states)


_COVERAGE_MARK = "<!-- generated: ruleproof explore --coverage"


def _written_by_coverage(path: Path) -> bool:
    """Whether ``path`` starts with the mark :func:`_coverage_out` writes (an unreadable file
    counts as not ours)."""
    try:
        with path.open("rb") as f:
            return f.read(len(_COVERAGE_MARK)) == _COVERAGE_MARK.encode()
    except OSError:
        return False


def _coverage_out(setups: list[SetupCoverage], as_json: bool, out: Path | None,
                  every: bool = False, note: str = "") -> bool:
    """Print (or write to ``out``) the clause coverage of ``setups`` (``every``: also the
    sources of explorable games no set-up plays; ``note``: a line above the tables, e.g. the
    set-ups skipped); whether a reason of ``coverage/reasons.toml`` is stale (its clause
    fired: the reason is wrong)."""
    rows = table(setups, every=explored_sources() if every else ())
    text = (f"{note}\n\n" if note else "") + markdown(rows, setups)
    if out is not None:
        write_file(Target(out, "--coverage-out", "coverage table"),
                   "<!-- generated: ruleproof explore --coverage ... --coverage-out; do not "
                   "edit -->\n\n" + text)
    if not as_json:
        if out is None:
            typer.echo(text, nl=False)
        for source, d in summary(rows).items():
            typer.echo(f"coverage {source}: {d['fired']} rule clauses fired, "
                       f"{d['unreachable']} cannot fire (reason given), {d['uncovered']} "
                       f"UNCOVERED, {d['stale']} stale reason(s)")
        for r in rows:
            if r.status in ("uncovered", "stale"):
                typer.echo(f"  {r.status}: {r.clause}")
    return any(r.status == "stale" for r in rows)


def _profile(profile: str, as_json: bool, coverage: bool = False,
             coverage_path: Path | None = None, up_to: int | None = None) -> None:
    """Explore every configuration pinned for ``profile`` (``all``: every pinned one);
    findings the manifest pins (cycles, traps, dead ends) are expected, anything else or any
    count that differs fails. With ``coverage`` the clause coverage of them together follows
    (a stale reason fails). ``up_to``: only those pinned with at most that many distinct
    states; the others are named as skipped (and in the coverage table's heading)."""
    pinned = [e for e in pinned_results() if profile in (e.profile, "all")]
    if not pinned:
        raise MalformedInput(f"no configuration is pinned for profile {profile!r} "
                             "(spec/<game>/reduced/expected.toml: ci, thorough)")
    skipped = [e for e in pinned if up_to is not None and e.distinct_states > up_to]
    pinned = [e for e in pinned if e not in skipped]
    if not pinned:
        raise MalformedInput(f"--up-to {up_to}: every configuration pinned for profile "
                             f"{profile!r} has more distinct states; nothing to explore")
    note = "" if not skipped else (
        f"skipped (--up-to {up_to:,}): " + ", ".join(
            f"{e.name} ({e.distinct_states:,} states pinned)" for e in skipped))
    if note and not as_json:
        typer.echo(note)
    rows: list[dict[str, Any]] = []
    setups: list[SetupCoverage] = []
    failed = False
    with progress_bar(f"explore --profile {profile}", len(pinned)) as advance:
        for e in pinned:
            def states(depth: int, distinct: int, frontier: int, seconds: float,
                       name: str = e.name) -> None:
                advance(0, f"{name}: depth {depth}, {distinct:,} states")

            advance(0, e.name)
            result = explore(e.name, symmetry=e.symmetry, contracts=_contracts(None, e.name)[0],
                             coverage=coverage,
                             progress=states, compact=e.compact,
                             keep_graph=not e.compact)
            advance()
            if coverage:
                setups.append(_setup_coverage(result))
            problems = [p for p in result.problems()
                        if not (e.dead_ends and "dead end" in p)] + _pinned_mismatch(result)
            failed = failed or bool(problems)
            rows.append({"name": e.name, "symmetry": e.symmetry,
                         "contracts": result.contracts,
                         "distinct_states": result.distinct_states, "depth": result.depth,
                         "seconds": result.seconds, "passed": not problems, "problems": problems,
                         **({"fired": result.fired} if coverage else {})})
            if not as_json:
                typer.echo(f"{e.name:10} symmetry {'on ' if e.symmetry else 'off'} "
                           f"{result.distinct_states:>9,} states  depth {result.depth:>3}  "
                           f"{result.seconds:6.1f} s  "
                           + ("as pinned, no contract broken" if not problems
                              else "FAILED: " + "; ".join(problems))
                           + (" (compact: traps and cycles not analysed)" if e.compact else ""))
    if as_json:
        typer.echo(json.dumps({"profile": profile, "passed": not failed, "results": rows,
                               "skipped": [{"name": e.name, "distinct_states": e.distinct_states}
                                           for e in skipped]}, indent=2))
    if coverage:
        failed = _coverage_out(setups, as_json, coverage_path, every=profile == "all",
                               note=note) or failed
    raise typer.Exit(1 if failed else 0)


def register(app: typer.Typer) -> None:
    """Add ``explore`` to the ``ruleproof`` command line."""
    app.command("explore")(explore_command)
