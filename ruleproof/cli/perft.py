"""The ``perft`` command: action sequences and distinct states per depth, for engine authors.

Exit codes: 0 the counts were computed (and, with ``--check``, equal the shipped tables), 1 the
two counting methods disagree or a shipped table differs, 2 bad input (an unknown rule set, a
depth below 1), one line without a traceback.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ruleproof.cli.clitools import bad_input_exits_2, int_in_range
from ruleproof.cli.progress import progress
from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance import perft as pf
from ruleproof.properties.conformance.games import model_of
from ruleproof.system.outputs import Target, write_file

MAX_DEPTH = 1000
"""The deepest ``--depth`` taken (perft counts grow exponentially; a game that ends early
only prints zeros past its end)."""


def _show(table: pf.Table, divide: bool) -> str:
    s = table.setup
    opts = ", ".join(f"{k}={v}" for k, v in sorted(s.options.items())) or "default options"
    lines = [f"{table.game}:{table.rule_set}: {s.players} players, deal seed {s.seed} "
             f"({opts}); explorer and recursive count agree",
             f"  {'depth':>5}  {'sequences':>12}  {'states':>10}"]
    for d, (n, k) in enumerate(zip(table.counts.sequences, table.counts.states, strict=True)):
        lines.append(f"  {d + 1:>5}  {n:>12}  {k:>10}")
    if divide:
        lines.append(f"  divide (sequences of {len(table.counts.sequences)} actions by the "
                     "first action):")
        lines += [f"    {a}: {n}" for a, n in table.counts.divide]
    return "\n".join(lines)


@bad_input_exits_2
def perft_command(
    rule_set: Annotated[str | None, typer.Argument(
        help="a rule set as `ruleproof perft --list` names it (GAME:NAME, or NAME alone where "
             "one game has it); with --check or --write: default every rule set")] = None,
    depth: Annotated[int | None, typer.Option(
        help="count to this depth (default 3; with --check: the shipped depth)")] = None,
    divide: Annotated[bool, typer.Option(
        "--divide", help="also the sequences of the deepest depth per first action")] = False,
    players: Annotated[int | None, typer.Option(
        help="one set-up: this player count (with --seed; default: the fixed set-ups)")] = None,
    seed: Annotated[int | None, typer.Option(help="one set-up: this deal seed")] = None,
    check: Annotated[bool, typer.Option(
        "--check", help="recompute the shipped tables (spec/<game>/perft/) and compare")] = False,
    write: Annotated[bool, typer.Option(
        "--write", help="write the shipped tables of the rule set(s)")] = False,
    list_: Annotated[bool, typer.Option("--list", help="list the rule sets")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable tables")] = False,
) -> None:
    """Perft tables: distinct action sequences of exactly d actions and distinct states
    reachable in at most d, for d = 1..DEPTH, from a few fixed seeded set-ups of a rule set,
    each count computed by the explorer and by a plain recursive count over the game
    interface, which must agree (docs/conformance.md, section 7). Exit 0 done (and equal to
    the shipped tables with --check), 1 a disagreement, 2 bad input."""
    if list_:
        others = [f for f, on in (("RULE_SET", rule_set is not None), ("--depth", depth is not None),
                                  ("--divide", divide), ("--players", players is not None),
                                  ("--seed", seed is not None), ("--check", check),
                                  ("--write", write), ("--json", as_json)) if on]
        if others:
            raise MalformedInput(f"--list lists every rule set: drop {', '.join(others)}")
        for rs in pf.rule_sets():
            typer.echo(f"{rs.game}:{rs.name}  ({pf.table_path(rs)})")
        return
    if depth is not None:  # counts grow exponentially: a depth past 1000 is never meant
        int_in_range(depth, "--depth", 1, MAX_DEPTH)
    if seed is not None:  # a negative seed deals as its absolute value (random.Random)
        int_in_range(seed, "--seed", 0, 2**63 - 1)  # the range of every --seed: no negative alias
    if check and write:
        raise MalformedInput("give --check or --write, not both")
    chosen = [pf.find_rule_set(rule_set)] if rule_set is not None else None
    if check or write:
        unused = [f for f, on in (("--divide", divide), ("--players", players is not None),
                                  ("--seed", seed is not None)) if on]
        if unused:  # the shipped tables' own set-ups are counted, whole
            raise MalformedInput(f"{', '.join(unused)} cannot go with "
                                 f"{'--check' if check else '--write'}: the shipped tables "
                                 "count their own set-ups")
        targets = chosen or pf.rule_sets()
        bad: list[str] = []
        with progress("perft --check" if check else "perft --write", len(targets)) as advance:
            for rs in targets:
                advance(0, f"perft {rs.game}:{rs.name}")
                try:
                    if write:
                        found = pf.tables(rs, depth or pf.DEFAULT_DEPTH)
                        path = pf.table_path(rs)
                        path.parent.mkdir(parents=True, exist_ok=True)
                        write_file(Target(path, "--write", "perft table"),
                                   pf.file_text(rs, found))
                        advance()
                        typer.echo(f"{rs.game}:{rs.name}: written {path}")
                        continue
                    problems = pf.check(rs, depth)
                except pf.Disagreement as exc:
                    problems = [str(exc)]
                bad += problems
                advance()
                typer.echo(f"{rs.game}:{rs.name}: "
                           + ("agrees with the shipped tables" if not problems
                              else "DIFFERS\n  " + "\n  ".join(problems)))
        raise typer.Exit(1 if bad else 0)
    if chosen is None:
        raise MalformedInput("name a rule set (ruleproof perft --list), or give --check")
    rs = chosen[0]
    model = model_of(rs.game)
    todo = pf.setups(rs, model)
    if players is not None or seed is not None:
        base = todo[0]
        todo = [pf.Setup(players if players is not None else base.players,
                         seed if seed is not None else base.seed, base.options)]
    try:
        found = []
        with progress(f"perft {rs.game}:{rs.name}", len(todo)) as advance:  # stderr, terminal
            for setup in todo:
                found.append(pf.perft(rs, depth or pf.DEFAULT_DEPTH, setup))
                advance()
    except pf.Disagreement as exc:
        typer.echo(f"DISAGREEMENT: {exc}")
        raise typer.Exit(1) from None
    if as_json:
        data: dict[str, Any] = json.loads(pf.file_text(rs, found))
        typer.echo(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        typer.echo("\n".join(_show(t, divide) for t in found))


def register(app: typer.Typer) -> None:
    """Add the ``perft`` command to ``app``."""
    app.command("perft")(perft_command)
