"""The ``prove`` command: the symbolic verification layer (docs/symbolic.md).

``ruleproof/cli.py`` calls :func:`register` on its Typer app. Exit codes: 0 every property
proved / reached / behaving as documented, 1 a property failed (a counterexample to a law that
must hold, an unreachable ending, drift, or a solver ``unknown``), 2 bad input.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from ruleproof.cli.fit import FitConsole
from ruleproof.errors import MalformedInput
from ruleproof.properties.report import PROFILES
from ruleproof.properties.symbolic.core import Outcome
from ruleproof.properties.symbolic.prove import (
    outcomes,
    selections,
    skipped,
    tasks,
)
from ruleproof.properties.symbolic.prove import write_witnesses as write_game_witnesses


def _fail_input(what: str) -> None:
    typer.echo(f"error: {MalformedInput(what).one_line()}", err=True)
    raise typer.Exit(2)


def _row(o: Outcome) -> dict[str, object]:
    return {"system": o.system, "property": o.prop, "method": o.method, "result": o.result,
            "passed": o.passed, "clauses": list(o.clauses), "seconds": round(o.seconds, 3),
            "detail": o.detail}


def register(app: typer.Typer) -> None:
    """Add ``ruleproof prove`` to ``app``."""

    @app.command()
    def prove(
        game: Annotated[str | None, typer.Argument(
            help="a registered game (default: every game with a symbolic layer)")] = None,
        preset: Annotated[str | None, typer.Option(help="the game's preset (rule set)")]
        = None,
        players: Annotated[int | None, typer.Option(help="player count")] = None,
        profile: Annotated[str, typer.Option(help="ci, default or thorough")] = "ci",
        as_json: Annotated[bool, typer.Option("--json", help="results for machines")] = False,
        jobs: Annotated[int, typer.Option(help="worker processes")] = 2,
        write_witnesses: Annotated[bool, typer.Option(
            "--write-witnesses",
            help="(re)write the games' scenarios/endings/ witness files first")] = False,
    ) -> None:
        """Prove conservation laws by (k-)induction, reach every ending (bounded search plus a
        replayed witness), prove no dead ends, and check the model does not drift from the
        transition relations (docs/symbolic.md)."""
        from ruleproof.cli.clitools import jobs_in_range

        try:
            jobs_in_range(jobs)
        except MalformedInput as exc:
            _fail_input(exc.what)
        if profile not in PROFILES:
            _fail_input(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
        try:
            work = tasks(game, preset, players)
        except MalformedInput as exc:  # an unknown game, or one without a symbolic layer
            _fail_input(exc.what)
        if not work:
            _fail_input(f"no rule set matches game={game or 'any'} preset={preset or 'any'} "
                        f"players={players or 'any'} ({selections(game)})")
        if write_witnesses:
            for g in dict.fromkeys(t[0] for t in work):
                for path in write_game_witnesses(g):
                    typer.echo(f"wrote {path}", err=True)
        from ruleproof.cli.progress import progress

        with progress("proving", len(work)) as advance:  # stderr, a terminal only
            results = outcomes(PROFILES[profile], game, preset, players, jobs=jobs,
                               on_task=advance)
        ok = all(o.passed for o in results)
        passed_over = skipped(game)
        if as_json:
            data: dict[str, object] = {"passed": ok, "results": [_row(o) for o in results]}
            if passed_over:
                data["skipped"] = [{"game": g, "reason": why} for g, why in passed_over]
            typer.echo(json.dumps(data, indent=2))
        else:
            console = FitConsole(highlight=False, soft_wrap=True)
            table = Table(title="ruleproof prove")
            for col in ("system", "property", "method", "result", "clauses used", "time"):
                table.add_column(col)
            for o in results:
                style = "green" if o.passed else "red"
                if o.result == "expected counterexample":
                    style = "yellow"
                shown = ", ".join(c.split(":", 1)[-1] for c in o.clauses[:6])
                if len(o.clauses) > 6:
                    shown += f" (+{len(o.clauses) - 6})"
                table.add_row(o.system, o.prop, o.method, f"[{style}]{o.result}[/{style}]",
                              shown, f"{o.seconds:.2f}s")
            console.print(table)
            for o in results:
                if not o.passed or o.result == "expected counterexample":
                    label = "finding" if o.passed else "FAILED"
                    console.print(f"{label}: {o.system}: {o.prop}: {o.detail}")
            for g, why in passed_over:
                console.print(f"skipped: {g}: {why}")
            console.print(f"{sum(o.passed for o in results)}/{len(results)} passed")
        raise typer.Exit(0 if ok else 1)
