"""The ``ruleproof`` command line.

Exit codes: 0 success, 1 a property failed / a scenario did not hold, 2 bad input (unknown game,
wrong player count, malformed file), reported in one line with file:line where there is one.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from ruleproof.cli.clitools import (
    PARAM_HELP,
    SHORTHANDS,
    CheckedGroup,
    bad_input_exits_2,
    game_params,
    int_in_range,
    option_pairs,
    param_pairs,
    tidy_help,
)
from ruleproof.cli.fit import FitConsole, cap_columns, fold
from ruleproof.errors import Interrupted, MalformedInput
from ruleproof.properties.report import PROFILES

cap_columns()  # before any console (ours below, Typer's help) reads COLUMNS through rich
app = typer.Typer(add_completion=False, no_args_is_help=True, cls=CheckedGroup,
                  help="Formal, cited, checked rules models of tabletop games.")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"ruleproof {version('ruleproof')}")
        except PackageNotFoundError:  # pragma: no cover - run from a tree that was not installed
            typer.echo("ruleproof (not installed: no version recorded)")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="print the installed version and exit")] = False) -> None:
    """Formal, cited, checked rules models of tabletop games."""


from ruleproof.cli.conformance import register as register_conformance  # noqa: E402

register_conformance(app)
from ruleproof.cli.prove import register as register_prove  # noqa: E402

register_prove(app)
from ruleproof.cli.interop import register as register_interop  # noqa: E402

register_interop(app)
from ruleproof.cli.render import register as register_render  # noqa: E402

register_render(app)
from ruleproof.cli.stats import register as register_stats  # noqa: E402

register_stats(app)
from ruleproof.cli.schema import register as register_schema  # noqa: E402

register_schema(app)
from ruleproof.cli.explore import register as register_explore  # noqa: E402

register_explore(app)

out = FitConsole(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

def _selection_params(game: str | None, pairs: list[str], **flags: Any) -> dict[str, Any]:
    """``-P`` items and shorthand flags of ``check`` as typed parameters: of the named game
    (a parameter it lacks is one line naming its parameters), or, with no game named, of the
    registered games that have each parameter."""
    from ruleproof.properties.plugin import plugin, plugins

    if game is not None:
        return game_params(plugin(game), pairs, **flags)
    out: dict[str, Any] = {}
    every = plugins().values()
    for name, value in [*flags.items(), *param_pairs(pairs).items()]:
        if value is None or value == []:
            continue
        takers = [p for p in every if p.param(name) is not None]
        if not takers:
            known = sorted({q.name for p in every for q in p.parameters})
            raise MalformedInput(f"{SHORTHANDS.get(name, '-P ' + name)}: no registered game has "
                                 f"the parameter {name!r}; their parameters: {', '.join(known)}")
    for p in every:
        mine = {k: v for k, v in flags.items() if p.param(k) is not None}
        pairs_mine = [x for x in pairs if p.param(x.split("=", 1)[0].strip().replace("-", "_"))
                      is not None]
        out.update(game_params(p, pairs_mine, **mine))
    return out


@app.command()
@bad_input_exits_2
def check(
    game: Annotated[str | None, typer.Argument(help="a registered game (default: every game)")
                    ] = None,
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-p", help="player count(s) to check, for a game with several (-P "
        "players=N)")] = None,
    thorough: Annotated[bool, typer.Option(help="far more games and steps")] = False,
    profile: Annotated[str | None, typer.Option(help="ci, default or thorough")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="rule option NAME=VALUE")
                      ] = None,
    board: Annotated[Path | None, typer.Option(help="board file to use instead of the "
                                                    "assumed default, for a game that takes "
                                                    "one (-P board=FILE)")] = None,
    preset: Annotated[str | None, typer.Option(help="only this rule set (preset) of the game "
                                                    "(-P preset=NAME)")] = None,
    expansion: Annotated[str | None, typer.Option(help="only this expansion of the game "
                                                       "(-P expansion=NAME)")
                         ] = None,
    param: Annotated[list[str] | None, typer.Option("-P", "--param", help=PARAM_HELP)] = None,
    jobs: Annotated[int | None, typer.Option(help="worker processes (default: one per CPU)")
                    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="list every property")
                       ] = False,
    ray: Annotated[bool, typer.Option("--ray", help="run the properties as tasks on a local "
                                                    "Ray of --jobs workers, at least 2 (the "
                                                    "ray extra)")
                   ] = False,
    ray_address: Annotated[str | None, typer.Option(help="run the properties on this Ray "
                                                         "cluster (the ray extra)")] = None,
    workers: Annotated[int | None, typer.Option(help="run the properties on a local Ray of N "
                                                     "workers (--ray --jobs N), as explore, "
                                                     "conform and discovery take it; 1 = this "
                                                     "process, no Ray")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable results")] = False,
) -> None:
    """Check every property of every rule set of every registered game (each game's plugin
    lists its rule sets: its presets, expansions and registered readings; invariants in random
    games, hidden information, z3 proofs, scenarios). A game argument, --preset, --expansion,
    --players, --option or -P narrows the selection."""
    from ruleproof.model.api import option_pairs_from
    from ruleproof.properties.explore.distributed import check_address
    from ruleproof.properties.suite import rule_sets, run_suite, skipped_lines

    check_address(ray_address)
    if thorough and profile not in (None, "thorough"):
        raise MalformedInput(f"--thorough conflicts with --profile {profile}; give one of them")
    name = "thorough" if thorough else (profile or "default")
    if name not in PROFILES:
        raise MalformedInput(f"unknown profile {name!r}; known: {', '.join(PROFILES)}")
    if jobs is not None and not 1 <= jobs <= 64:
        raise MalformedInput(f"--jobs must be 1..64, got {jobs}")
    if workers is not None:
        if not 1 <= workers <= 64:
            raise MalformedInput(f"--workers must be 1..64, got {workers}")
        if jobs is not None and jobs != workers:
            raise MalformedInput(f"--workers {workers} and --jobs {jobs} disagree; give one")
        jobs, ray = workers, ray or workers > 1
    from ruleproof.properties.plugin import plugin

    typed = _selection_params(game, param or [], preset=preset, expansion=expansion,
                              board=board, options=option,
                              players=players[0] if players and len(players) == 1 else None)
    unsupported = sorted(set(typed) - {"players", "preset", "expansion", "board", "options"})
    if unsupported:
        raise MalformedInput(f"-P {unsupported[0]}: check narrows by players, preset, "
                             "expansion, options and board only")
    counts = list(players or ([typed["players"]] if "players" in typed else []))
    if players and "players" in typed and typed["players"] not in players:
        raise MalformedInput(f"--players {players[0]} and -P players={typed['players']} "
                             "disagree; give one")
    board = typed.get("board", board)
    selected = rule_sets(game, typed.get("preset"), typed.get("expansion"), counts,
                         tuple(option_pairs_from(typed.get("options")).items()))
    if board is not None:  # a board file is for the games that take one
        selected = [rs for rs in selected if plugin(rs.game).param("board") is not None]
    if game is None:  # say which games the selection leaves out, and why
        from ruleproof.properties.plugin import Selection, selection_refusals

        for refusal in selection_refusals(Selection(
                typed.get("preset"), typed.get("expansion"), tuple(counts),
                tuple(option_pairs_from(typed.get("options")).items()))):
            typer.echo(f"note: not checked: {refusal}", err=True)
    # stderr: --json too; "0/?" until the total is known (it read "47/None")
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, disable=not err.is_terminal,
                  transient=True) as bar:
        task = bar.add_task("checking", total=None)

        def advance(what: str) -> None:
            bar.update(task, description=what[:70])
            bar.advance(task)

        results = run_suite(selected, PROFILES[name], jobs, board, advance, ray=ray,
                            ray_address=ray_address,
                            on_total=lambda n: bar.update(task, total=n))
    failed = [(rs, r) for rs in results for r in rs.failed]
    if as_json:
        out.print_json(json.dumps({
            "profile": name,
            "passed": not failed,
            "rule_sets": [{
                "game": rs.rule_set.game, "rule_set": rs.rule_set.name,
                "preset": rs.rule_set.preset or None,
                "options": dict(rs.rule_set.options), "players": list(rs.rule_set.players),
                "profile": rs.profile, "held": len(rs.results) - len(rs.failed),
                "failed": len(rs.failed), "skipped": len(rs.skipped),
                "games": rs.games, "steps": rs.steps,
                "properties": [{"property": r.name, "method": r.method,
                                "examples": r.examples, "games": r.games, "steps": r.steps,
                                "passed": r.passed, "seconds": round(r.seconds, 3),
                                "detail": r.detail, "clauses": list(r.clauses)}
                               for r in rs.results],
                "skipped_properties": [{"property": s.name, "reason": s.reason}
                                       for s in rs.skipped],
            } for rs in results],
        }))
    else:
        if verbose:
            table = Table(title="properties")
            for col in ("game", "rule set", "property", "method", "examples", "result", "time"):
                table.add_column(col, justify="right" if col in ("examples", "time") else "left")
            for rs in results:
                for r in rs.results:
                    table.add_row(rs.rule_set.game, rs.rule_set.name, r.name, r.method,
                                  str(r.examples), "[green]pass[/]" if r.passed else "[red]FAIL[/]",
                                  f"{r.seconds:.2f}s")
            out.print(table)
        table = Table(title=f"ruleproof check ({name} profile)")
        for col in ("game", "rule set", "profile", "games", "steps", "held", "failed", "skipped"):
            table.add_column(col, justify="left" if col in ("game", "rule set", "profile")
                             else "right")
        for rs in results:
            table.add_row(rs.rule_set.game, rs.rule_set.name, rs.profile,
                          str(rs.games) if rs.games else "-", str(rs.steps) if rs.steps else "-",
                          f"[green]{len(rs.results) - len(rs.failed)}[/]",
                          f"[red]{len(rs.failed)}[/]" if rs.failed else "0",
                          str(len(rs.skipped)))
        out.print(table)
        for line in skipped_lines(results):
            out.print(fold(line, out.width), markup=False)
        for rs, r in failed:
            out.print(f"\n[red bold]FAILED[/] {rs.rule_set.game} {rs.rule_set.name}: {r.name} "
                      f"({r.method}) -- counterexample:")
            out.print(r.detail, markup=False)
        total = sum(len(rs.results) for rs in results)
        # a game's shared group is a row of the table but no rule set of its own
        played = sum(1 for rs in results if not rs.rule_set.shared)
        names = ", ".join(dict.fromkeys(rs.rule_set.game for rs in results))
        work = (f"{sum(rs.games for rs in results)} games, {sum(rs.steps for rs in results)} "
                f"steps over {played} rule set{'s' * (played != 1)} of {names}")
        skipped = sum(len(rs.skipped) for rs in results)
        if skipped:
            work += f"; {skipped} skipped, each with its reason above"
        verdict = (f"[red]{len(failed)} of {total} properties failed[/] ({work})" if failed
                   else f"[green]all {total} properties hold[/] ({work})")
        out.print(verdict)
    if failed:
        raise typer.Exit(1)


@app.command()
@bad_input_exits_2
def simulate(
    game: Annotated[str, typer.Argument(help="a registered game")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="players (-P "
                                                "players=N; default: the game's)")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="the game's seed (the same seed, "
                                                  "the same game)")] = 0,
    max_steps: Annotated[int, typer.Option(help="stop after this many actions")] = 100_000,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="rule option NAME=VALUE (the names: the site's Rule options "
                               "page, docs/rules-options.md)")] = None,
    board: Annotated[Path | None, typer.Option(help="a board file, for a game that takes one "
                                                    "(-P board=FILE)")] = None,
    cards: Annotated[Path | None, typer.Option(help="a card file, for a game that takes one "
                                                    "(-P cards=FILE)")] = None,
    full_view: Annotated[bool, typer.Option(help="for a game whose log shows each seat's view: "
                                                 "show everything, hidden cards too")] = False,
    names: Annotated[str | None, typer.Option(help="comma-separated player names, for a game "
                                                   "whose log names the players")] = None,
    preset: Annotated[str | None, typer.Option(help="a rule set of the game (-P preset=NAME; "
                                                    "default: the game's)")] = None,
    expansion: Annotated[str | None, typer.Option(help="an expansion of the game (-P "
                                                       "expansion=NAME)")] = None,
    param: Annotated[list[str] | None, typer.Option("-P", "--param", help=PARAM_HELP)] = None,
    view: Annotated[str, typer.Option(help="for a game whose log shows each seat's view: one "
                                           "seat's view (its label, lower case with '-' for "
                                           "spaces) or all")] = "all",
) -> None:
    """Play a random legal game from a seed and print its log, ending with the winner.

    Every game goes the same way: made from its parameters (the plugin's parameter model),
    played over the game interface by its capability ``simulate`` (set-up, choices, chance),
    and logged in its own terms by the same capability (a game without one: uniformly random
    play and a plain log)."""
    from ruleproof.properties.plugin import make_game, plugin
    from ruleproof.properties.simulate import CAPABILITY, Simulation, UniformPlay, play

    p = plugin(game)
    int_in_range(seed, "--seed", 0, 2**63 - 1)
    int_in_range(max_steps, "--max-steps", 1, 10_000_000)
    params = game_params(p, param or [], players=players, preset=preset, options=option,
                         expansion=expansion, board=board, cards=cards)
    # a game without its own simulation plays uniformly at random with the plain log
    sim: Simulation = p.capability(CAPABILITY) or UniformPlay()
    if full_view and not sim.hidden:
        raise MalformedInput(f"--full-view: {game}'s log shows everything already (no seat's "
                             "view hides anything in it)")
    if names is not None and not sim.names:
        raise MalformedInput(f"--names: {game}'s log names its seats itself; it takes no "
                             "player names")
    if "max_moves" not in params and p.param("max_moves") is not None:
        params["max_moves"] = max_steps  # the game's truncation bound: --max-steps decides
    made = make_game(game, **params)  # the registry's: the generic truncation and reduced too
    given = [n.strip() for n in names.split(",")] if names is not None else None
    if given is not None and (not all(given) or len(set(given)) != len(given)):
        raise MalformedInput(f"--names must list distinct, non-empty names, got {names!r}")
    odd = [n for n in given or () if not n.isprintable() or ":" in n or len(n) > 80]
    if odd:  # a log line is 'NAME: action', one line: no colon, no control character
        raise MalformedInput(f"--names: {odd[0]!r} is not a name a log can show (printable, "
                             "no ':', at most 80 characters)")
    if given is not None and len(given) != made.num_players:
        raise MalformedInput(f"--names lists {len(given)} names for {made.num_players} players")
    played = play(made, sim, seed, max_steps)
    lines = sim.log(played, given, full_view)
    if view != "all":
        from ruleproof.properties.simulate import one_view

        lines = one_view(lines, view)
    sys.stdout.write("\n".join(lines) + "\n")


@app.command()
@bad_input_exits_2
def clauses(
    document: Annotated[str | None, typer.Argument(help="a source document id (default: every document)")
                        ] = None,
    uncited: Annotated[bool, typer.Option(help="only clauses no code cites")] = False,
    contracts: Annotated[bool, typer.Option(help="per source: rule clauses with an executable "
                                                 "contract, and why the others have none")
                         ] = False,
) -> None:
    """List every clause with where the model implements it."""
    if contracts and (uncited or document is not None):
        raise MalformedInput(f"--contracts lists every source's contracts: drop "
                             f"{'--uncited' if uncited else repr(document)}")
    if contracts:
        from ruleproof.cli.discovery import print_contracts

        print_contracts(out)
        return
    from ruleproof.properties.citations import citations
    from ruleproof.spec import clause_registry, shipped_documents
    from ruleproof.spec.alignment import alignment, shipped_alignments

    docs = shipped_documents()
    aligned = {a: alignment(a) for a in shipped_alignments()}
    if document is not None and document not in docs:
        raise MalformedInput(f"unknown document {document!r}; known: {', '.join(docs)}")
    found = citations()
    table = Table(title="clauses and where they are implemented", show_lines=False)
    for col in ("id", "kind", "section", "paraphrase", "cited at"):
        table.add_column(col, overflow="fold")
    count = 0
    for doc in [document] if document else list(docs):
        for c in clause_registry(doc):
            where = found.get(c.id, [])
            if uncited and where:
                continue
            count += 1
            shown = ", ".join(where[:3]) + (f" (+{len(where) - 3})" if len(where) > 3 else "")
            if not where and c.restates:
                shown = "restates " + ", ".join(c.restates)
            elif not where and doc in aligned:
                pair = aligned[doc].of(c.id)
                cited_targets = [t for t in pair.targets if found.get(t)]
                if pair.relation == "agree" and cited_targets:
                    shown = f"agrees with {', '.join(cited_targets)} (cited there)"
            table.add_row(c.id, c.kind, c.section, c.text,
                          shown or "[yellow]UNCITED[/]")
    out.print(table)
    out.print(f"{count} clauses")


@app.command()
def scenario(files: Annotated[list[Path], typer.Argument(help="scenario TOML files")],
             verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                                   help="print the game log of every file")
                                ] = False,
             preset: Annotated[str | None, typer.Option(
                 help="play the files under this rule set (a preset of their game) "
                      "instead")] = None,
             option: Annotated[list[str] | None, typer.Option(
                 "--option", "-o", help="override a rule option NAME=VALUE")] = None,
             param: Annotated[list[str] | None, typer.Option(
                 "-P", "--param", help="preset=NAME or options=NAME=VALUE,... (as --preset "
                                       "and --option; the file gives the other parameters)")
                                  ] = None,
             ) -> None:
    """Run scenario files of any game: a start position, actions, expectations at any step.

    Each file gets its own verdict and the run goes on; the exit code is the worst: 0 all
    hold, 1 a scenario did not hold, 2 a file is malformed (one ``error: FILE:LINE:COL: what``
    line each). ``--preset``/``--option`` replay the files under another rule set (their
    expectations were written for the file's own, so they may then fail: that shows the
    difference). Format and every game's actions and facts: the site's Scenarios page, or
    `ruleproof docs DIR` writes it as DIR/scenarios.md.
    """
    from ruleproof.model.api import option_pairs_from
    from ruleproof.properties.scenarios import run_scenario

    try:
        given = param_pairs(param or [])
        other = sorted(set(given) - {"preset", "options"})
        if other:
            raise MalformedInput(f"-P {other[0]}: a scenario file gives its game's other "
                                 "parameters; -P takes preset and options here")
        if preset is not None and given.get("preset", preset) != preset:
            raise MalformedInput(f"--preset {preset} and -P preset={given['preset']} disagree; "
                                 "give one")
        preset = preset or given.get("preset")
        overrides = option_pairs(option or [])
        for key, value in option_pairs_from(given.get("options")).items():
            if overrides.get(key, value) != value:
                raise MalformedInput(f"--option {key} and -P options disagree: "
                                     f"{overrides[key]!r} and {value!r}; give it once")
            overrides[key] = value
    except MalformedInput as exc:
        err.print(f"error: {exc.one_line()}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    worst = 0
    failed = malformed = 0
    for path in files:
        try:
            result = run_scenario(path, preset=preset, options=overrides)
        except MalformedInput as exc:
            err.print(f"error: {exc.report()}", markup=False, soft_wrap=True)
            malformed += 1
            worst = 2
            continue
        mark = "[green]pass[/]" if result.passed else "[red]FAIL[/]"
        count = result.examples
        out.print(f"{mark} {_plain(str(path))}  ({count} action{'s' * (count != 1)})")
        if verbose or not result.passed:
            out.print(result.detail, markup=False)
        failed += not result.passed
        worst = max(worst, 0 if result.passed else 1)
    if failed or malformed:
        if len(files) > 1 or failed:
            out.print(f"[red]{failed} of {len(files)} scenarios failed, {malformed} "
                      "malformed[/]")
        raise typer.Exit(worst)
    out.print(f"[green]{len(files)} scenario(s) passed[/]")


def _plain(text: str) -> str:
    """``text`` safe to print with rich markup on (brackets escaped)."""
    from rich.markup import escape

    return escape(text)


@app.command()
@bad_input_exits_2
def games(as_json: Annotated[bool, typer.Option("--json", help="for machines")] = False) -> None:
    """List every registered game: name, title, player counts, parameters (NAME:KIND=DEFAULT,
    what ``-P NAME=VALUE`` takes), capabilities and where it was registered from. A
    registration that failed is a ``warning:`` line on stderr (the other games go on)."""
    from ruleproof.properties.plugin import origin, plugins

    rows: list[dict[str, Any]] = [{"name": p.name, "title": p.title,
             "players": list(p.game_type.players),
             "parameters": [{"name": q.name, "kind": q.kind,
                             "default": None if q.default is None else str(q.default),
                             "choices": list(q.choices)} for q in p.params],
             "capabilities": sorted(p.capabilities) + (["checks"] if p.checks else []),
             "sources": list(p.sources), "from": origin(p.name)}
            for p in plugins().values()]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="registered games")
    for col in ("game", "title", "players", "parameters (-P NAME=VALUE)", "capabilities",
                "registered from"):
        table.add_column(col, overflow="fold")
    for row in rows:
        params = ", ".join(f"{q['name']}:{q['kind']}" + (f"={q['default']}" if q["default"]
                                                          is not None else "")
                           for q in row["parameters"])
        table.add_row(_plain(str(row["name"])), _plain(str(row["title"])),
                      ", ".join(map(str, row["players"])),
                      _plain(params), ", ".join(row["capabilities"]),
                      _plain(str(row["from"])))
    out.print(table)
    out.print(f"{len(rows)} games")


@app.command()
@bad_input_exits_2
def assumed() -> None:
    """List every value no source settles (provenance 'assumed') and other non-rulebook facts,
    of every registered game that documents them (its capability ``docs``)."""
    from ruleproof.cli.site import docs_of

    table = Table(title="facts not stated by the rule texts")
    for col in ("game", "fact", "value", "provenance", "source / reason"):
        table.add_column(col, overflow="fold")
    for game, docs in docs_of().items():
        for fact, value, provenance, source in docs.assumed():
            table.add_row(game, fact, value, provenance, source)
    out.print(table)


def _registered_register(game: str | None, entry: str | None) -> None:
    """Refuse ``ambiguities GAME [ID]`` for a registered game without an ambiguity register
    (naming the capability it lacks) and an ID asked of an empty register (saying so).

    Raises:
        Unsupported, MalformedInput: as above.
    """
    from ruleproof.properties.contracts.register import entries
    from ruleproof.properties.plugin import plugins, require

    found = plugins().get(game) if game is not None else None
    if found is None:
        return
    require(found, "ambiguities", "ambiguities")
    if entry is not None and not entries(found.name):
        raise MalformedInput(f"{found.name}'s ambiguity register is empty: no entry {entry!r}")


@app.command()
@bad_input_exits_2
def ambiguities(
    game: Annotated[str | None, typer.Argument(help="only this game's registers (or, with "
                                                     "--discover, its rule sets)")] = None,
    entry: Annotated[str | None, typer.Argument(help="show this entry in full: clauses, "
                                                      "readings, the witness replayed")] = None,
    search: Annotated[bool, typer.Option(help="search witnesses again and play the presets "
                                              "against each other")] = False,
    write: Annotated[bool, typer.Option(help="with --search: rewrite the witness scenario "
                                             "files (shrunk)")] = False,
    profile: Annotated[str, typer.Option(help="ci, default or thorough")] = "default",
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    discover: Annotated[bool, typer.Option(help="search what the clause contracts leave open "
                                                "(legality, effects, translations, cycles, z3)")
                        ] = False,
    witnesses: Annotated[Path | None, typer.Option(help="with --discover: write a witness "
                                                        "scenario per new finding here")] = None,
    workers: Annotated[int, typer.Option(help="with --discover: searches at a time on a local "
                                              "Ray (the ray extra); 1 = this process")] = 1,
    ray_address: Annotated[str | None, typer.Option(help="with --discover: run the searches "
                                                         "on this Ray cluster, HOST:PORT")] = None,
    write_docs: Annotated[Path | None, typer.Option(help="with --discover: write the page "
                                                         "docs/discovery.md from the run here")
                          ] = None,
) -> None:
    """Every rule question of every game's registers (ambiguity and discovered) with each
    witness's status; GAME narrows, GAME ID shows one entry in full; --search finds witnesses
    again and new divergences; --discover searches what the clause contracts leave open."""
    needs = [("--write", write, "--search", search),
             ("--witnesses", witnesses is not None, "--discover", discover),
             ("--write-docs", write_docs is not None, "--discover", discover),
             ("--workers", workers != 1, "--discover", discover),
             ("--ray-address", ray_address is not None, "--discover", discover)]
    for flag, given, other, present in needs:
        if given and not present:
            raise MalformedInput(f"{flag} only works with {other}")
    if search and discover:
        raise MalformedInput("--search and --discover are two different searches: give one")
    from ruleproof.properties.explore.distributed import check_address

    check_address(ray_address)
    if discover:
        from ruleproof.cli.discovery import run_discover

        if profile not in PROFILES:
            raise MalformedInput(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
        if entry is not None:
            raise MalformedInput("--discover searches whole games: give GAME without an ID")
        run_discover(out, profile, as_json, witnesses, workers=workers, address=ray_address,
                     game=game, docs=write_docs)
        return
    from ruleproof.cli.discovery import run_register

    if profile not in PROFILES:
        raise MalformedInput(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
    _registered_register(game, entry)
    run_register(out, PROFILES[profile], as_json, game=game, entry=entry, search=search,
                 write=write)


@app.command()
@bad_input_exits_2
def docs(directory: Annotated[Path, typer.Argument(help="where to write")] = Path("docs"),
         build: Annotated[bool, typer.Option(
             "--build", help="build the whole site strictly (regenerating every generated "
                             "page) with mkdocs into --site-dir")] = False,
         serve: Annotated[bool, typer.Option(
             "--serve", help="serve the site locally with live reload (mkdocs serve)")] = False,
         site_dir: Annotated[Path, typer.Option(help="--build: output directory")] = Path("site"),
         config_file: Annotated[Path, typer.Option(help="mkdocs configuration")] = Path(
             "mkdocs.yml"),
         games: Annotated[int | None, typer.Option(
             help="games per rule set on the statistics page (default 200)")] = None,
         ) -> None:
    """Regenerate the documentation pages made from the spec (ambiguity catalogue, clauses);
    --build builds the whole site (mkdocs-material, strict), --serve previews it."""
    from ruleproof.cli.docgen import write_docs

    # every argument is checked before anything is written, the flags first
    if build and serve:
        raise MalformedInput("--build and --serve: give one of them")
    if games is not None and not 1 <= games <= 10_000:
        raise MalformedInput(f"--games must be 1..10000, got {games}")
    if (build or serve) and not config_file.is_file():
        raise MalformedInput("--config-file: no mkdocs configuration file here",
                             file=str(config_file))
    if not directory.is_dir():
        raise MalformedInput("DIRECTORY (where the generated pages go): not a directory",
                             file=str(directory))
    if build or serve:  # a configuration mkdocs refuses: refused before any page is written
        from ruleproof.cli.sitebuild import check_config

        check_config(config_file, site_dir if build else None)
    for path in write_docs(directory):
        out.print(f"wrote {path}")
    if not (build or serve):
        return
    from ruleproof.cli.sitebuild import build_site, serve_site

    if games is not None:
        os.environ["RULEPROOF_DOCS_GAMES"] = str(games)
    if build:
        build_site(config_file, site_dir)
        out.print(f"site built in {site_dir}")
    if serve:
        serve_site(config_file)


def _kinds(exc: BaseException) -> set[str]:
    return {k.__name__ for k in type(exc).__mro__}


def main() -> None:
    """Console-script entry point. A command-line usage error (an unknown option, a value
    that is not a number, an empty value) is one line ``error: ...`` and exit code 2, like
    every bad input. Standard output that cannot be written (a closed pipe, a full disk, a
    file-size limit) is one ``error:`` line and a non-zero exit (the command's own code if it
    had one, else 2), never a traceback nor a silent exit 0; SIGINT and SIGTERM end every
    command within 2 seconds with exit 130 / 143 and one line, every worker stopped
    (:mod:`ruleproof.cli.runtime`).

    (Typer may bring its own copy of click, so its exceptions are recognised by class name.)
    """
    from ruleproof.cli.runtime import Run, StdoutFailed, check_stdout, stdout_failure

    if sys.stdout is None:  # started with its standard output closed (``>&-``): nothing runs
        # (a file the command opened could even get descriptor 1 and receive its output)
        if sys.stderr is not None:
            sys.stderr.write("error: standard output is closed, so nothing could be printed; "
                             "redirect it (> /dev/null to discard it)\n")
        raise SystemExit(2)
    run = Run()
    run.install()
    check_stdout()
    code: int | None = None
    failed: StdoutFailed | None = None
    try:
        code = _dispatch()
        sys.stdout.flush()
    except StdoutFailed as exc:
        failed = exc
    except Interrupted as exc:  # run.signum says which (else the exception does)
        if run.signum is None:
            run.signum = exc.signum
    except KeyboardInterrupt:  # pragma: no cover - SIGINT raises Interrupted instead
        code = 130
        sys.stderr.write("error: aborted\n")
    except Exception as exc:  # a stdout failure or a signal seen through another exception
        if not isinstance(exc.__context__, StdoutFailed) and run.signum is None:
            raise
        if isinstance(exc.__context__, StdoutFailed):
            failed = exc.__context__
    if not run.finish():
        threading.Event().wait()  # the timer is ending the process
    if run.signum is not None:  # everything the run started is stopped (run.finish)
        _quietly_flush()
        _say(run.line())
        # no exit handlers: Ray's would wait a minute for the server it no longer has
        os._exit(run.code)
    if failed is not None:
        stdout_failure(failed)
        raise SystemExit(code or 2)
    raise SystemExit(code or 0)


def _say(line: str) -> None:
    """Write the run's last line on stderr: Python's (which an abandoned Ray join points at
    the terminal while fd 2 is kept away from it), else fd 2."""
    try:
        sys.stderr.write(line)
        sys.stderr.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.write(2, line.encode())


def _quietly_flush() -> None:
    """Flush standard output, dropping it if it cannot be written (the run ends anyway)."""
    from ruleproof.cli.runtime import StdoutFailed

    try:
        sys.stdout.flush()
    except (StdoutFailed, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)


def _dispatch() -> int:
    """Run the command line; its exit code. Usage errors and help are handled here."""
    try:
        code = typer.main.get_command(app).main(standalone_mode=False)
    except Exception as exc:
        kinds = _kinds(exc)
        ctx = getattr(exc, "ctx", None)
        if "NoArgsIsHelpError" in kinds and ctx is not None:
            out.print(ctx.get_help(), markup=False, highlight=False)
            return 0
        if "UsageError" in kinds:
            where = f"{ctx.command_path}: " if ctx is not None else ""
            message = " ".join(str(exc.format_message()).split())  # type: ignore[attr-defined]
            sys.stderr.write(f"error: {where}{message}\n")
            return 2
        if "Abort" in kinds:  # click's word for a KeyboardInterrupt: a signal's is kept
            cause = exc.__cause__ or exc.__context__
            raise (cause if isinstance(cause, Interrupted) else KeyboardInterrupt()) from exc
        raise
    return code if isinstance(code, int) else 0


tidy_help(app)  # every command registered above: reflowed help, panels, order

if __name__ == "__main__":
    main()
