"""The ``ruleproof`` command line.

Exit codes: 0 success, 1 a property failed / a scenario did not hold, 2 bad input (unknown game,
wrong player count, malformed file), reported in one line with file:line where there is one.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ruleproof.cli.clitools import bad_input_exits_2, int_in_range, option_pairs
from ruleproof.errors import MalformedInput
from ruleproof.properties.report import PROFILES

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Formal, cited, checked rules models of tabletop games.")
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

out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 150)
err = Console(stderr=True, highlight=False)

def _game(name: str) -> str:
    """``name`` if a registered game has it (MalformedInput naming the known games if not)."""
    from ruleproof.properties.plugin import plugin

    return plugin(name).name


def _expansion(name: str | None) -> list[str]:
    """``--expansion gruft`` as the rule option ``expansion=gruft``."""
    from ruleproof.model.expansions import DAWN_UNDER_EXPANSIONS

    if name is None:
        return []
    if name not in DAWN_UNDER_EXPANSIONS:
        raise MalformedInput(f"unknown expansion {name!r}; known: {', '.join(DAWN_UNDER_EXPANSIONS)}")
    return [f"expansion={name}"]


@app.command()
@bad_input_exits_2
def check(
    game: Annotated[str | None, typer.Argument(help="dawn-under or dracula (default: every game)")
                    ] = None,
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-p", help="dawn-under player count(s) to check (2 selects the 2-player "
        "rules)")] = None,
    thorough: Annotated[bool, typer.Option(help="far more games and steps")] = False,
    profile: Annotated[str | None, typer.Option(help="ci, default or thorough")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="dawn-under rule option NAME=VALUE")
                      ] = None,
    board: Annotated[Path | None, typer.Option(help="board file to use instead of the "
                                                    "assumed default")] = None,
    preset: Annotated[str | None, typer.Option(help="only this dawn-under rule set: du-en, "
                                                    "du-cs or 2p")] = None,
    expansion: Annotated[str | None, typer.Option(help="only the dawn-under expansion: gruft")
                         ] = None,
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
    """Check every property of every rule set: Dawn Under under du-en, du-cs and 2p, the
    expansion on du-en and du-cs, Dracula under its default rules and each registered reading
    (invariants in random games, hidden information, z3 proofs, scenarios). A game argument,
    --preset, --expansion, --players or --option narrows the selection."""
    from ruleproof.properties.explore.distributed import check_address
    from ruleproof.properties.suite import rule_sets, run_suite

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
    if board is not None and game == "dracula":
        raise MalformedInput("--board is for dawn-under; dracula's board is fixed")
    selected = rule_sets(game, preset, expansion, players or (),
                         tuple(option_pairs(option or []).items()))
    if board is not None:
        selected = [rs for rs in selected if rs.game == "dawn-under"]
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn(
            "{task.completed}/{task.total}"), TimeElapsedColumn(), console=err,
            disable=as_json or not err.is_terminal, transient=True) as bar:
        task = bar.add_task("checking", total=None)

        def advance(what: str) -> None:
            bar.update(task, description=what[:70])
            bar.advance(task)

        results = run_suite(selected, PROFILES[name], jobs, board, advance, ray=ray,
                            ray_address=ray_address)
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
        for rs in results:
            for sk in rs.skipped:
                out.print(f"skipped for {rs.rule_set.game} {rs.rule_set.name}: {sk.name}: "
                          f"{sk.reason}")
        for rs, r in failed:
            out.print(f"\n[red bold]FAILED[/] {rs.rule_set.game} {rs.rule_set.name}: {r.name} "
                      f"({r.method}) -- counterexample:")
            out.print(r.detail, markup=False)
        total = sum(len(rs.results) for rs in results)
        work = (f"{sum(rs.games for rs in results)} games, {sum(rs.steps for rs in results)} "
                f"steps over {len(results)} rule sets")
        verdict = (f"[red]{len(failed)} of {total} properties failed[/] ({work})" if failed
                   else f"[green]all {total} properties hold[/] ({work})")
        out.print(verdict)
    if failed:
        raise typer.Exit(1)


@app.command()
@bad_input_exits_2
def simulate(
    game: Annotated[str, typer.Argument(help="dawn-under or dracula")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="dawn-under: 2..6 "
                                                "(default 4; 2 selects the 2-player rules)")
                       ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    max_steps: Annotated[int, typer.Option(help="stop after this many actions")] = 100_000,
    option: Annotated[list[str] | None, typer.Option("--option", "-o")] = None,
    board: Annotated[Path | None, typer.Option(help="dawn-under board file")] = None,
    cards: Annotated[Path | None, typer.Option(help="dracula card file")] = None,
    full_view: Annotated[bool, typer.Option(help="dracula: show hidden cards too")] = False,
    names: Annotated[str | None, typer.Option(help="comma-separated player names")] = None,
    preset: Annotated[str | None, typer.Option(help="dawn-under rule set: du-en (default; 2p "
                                                    "with --players 2), du-cs or 2p")] = None,
    expansion: Annotated[str | None, typer.Option(help="dawn-under expansion: gruft")] = None,
) -> None:
    """Play a random legal game from a seed and print its log, ending with the winner."""
    option = [*(option or []), *_expansion(expansion)]
    _game(game)
    int_in_range(seed, "--seed", 0, 2**63 - 1)
    int_in_range(max_steps, "--max-steps", 1, 10_000_000)
    if game == "dawn-under" and (cards is not None or full_view):
        raise MalformedInput("--cards and --full-view are for dracula; dawn-under takes "
                             "--board, --preset, --expansion and --option")
    if game == "dracula":
        from ruleproof.model.dracula import load_cards, rules_from_mapping
        from ruleproof.model.dracula import simulate as dracula_simulate

        if preset is not None or expansion or board:
            raise MalformedInput("--preset, --expansion and --board are for dawn-under; "
                                 "dracula takes --option and --cards")

        if players not in (None, 2):
            raise MalformedInput(f"dracula is played by 2 players; got {players}")
        rules = rules_from_mapping(dict(option_pairs(option or [])))
        lines = dracula_simulate(seed, full_view, max_steps, rules,
                                 load_cards(cards) if cards else None)
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options
    from ruleproof.model.dawn_under.render import play_random

    # The rulebook gives the 2-player rules for the same game (du-en:2p.components): two players
    # select them unless another preset is named.
    preset = preset or ("2p" if players == 2 else "du-en")
    default_players = 2 if preset == "2p" else 4
    config = make_config(default_players if players is None else players,
                         parse_options(option_pairs(option or []),
                                       base=preset_options(preset)),
                         board, preset)
    given = [n.strip() for n in names.split(",")] if names is not None else None
    if given is not None and (not all(given) or len(set(given)) != len(given)):
        raise MalformedInput(f"--names must list distinct, non-empty names, got {names!r}")
    if given is not None and len(given) != config.players:
        raise MalformedInput(f"--names lists {len(given)} names for {config.players} players")
    played = play_random(config, seed, max_steps, given)
    sys.stdout.write("\n".join(played.log) + "\n")


@app.command()
@bad_input_exits_2
def clauses(
    document: Annotated[str | None, typer.Argument(help="du-en (default: every document)")
                        ] = None,
    uncited: Annotated[bool, typer.Option(help="only clauses no code cites")] = False,
    contracts: Annotated[bool, typer.Option(help="per source: rule clauses with an executable "
                                                 "contract, and why the others have none")
                         ] = False,
) -> None:
    """List every clause with where the model implements it."""
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
                 help="play the files under this rule set instead (du-en, du-cs, 2p; "
                      "dracula-en)")] = None,
             option: Annotated[list[str] | None, typer.Option(
                 "--option", "-o", help="override a rule option NAME=VALUE")] = None,
             ) -> None:
    """Run scenario files of any game: a start position, actions, expectations at any step.

    Each file gets its own verdict and the run goes on; the exit code is the worst: 0 all
    hold, 1 a scenario did not hold, 2 a file is malformed (one ``error: FILE:LINE:COL: what``
    line each). ``--preset``/``--option`` replay the files under another rule set (their
    expectations were written for the file's own, so they may then fail: that shows the
    difference). Format and every game's actions and facts: docs/scenarios.md.
    """
    from ruleproof.properties.scenarios import run_scenario

    try:
        overrides = option_pairs(option or [])
    except MalformedInput as exc:
        err.print(f"error: {exc.one_line()}", markup=False)
        raise typer.Exit(2) from None
    worst = 0
    failed = malformed = 0
    for path in files:
        try:
            result = run_scenario(path, preset=preset, options=overrides)
        except MalformedInput as exc:
            err.print(f"error: {exc.one_line()}", markup=False, soft_wrap=True)
            malformed += 1
            worst = 2
            continue
        mark = "[green]pass[/]" if result.passed else "[red]FAIL[/]"
        out.print(f"{mark} {_plain(str(path))}  ({result.examples} actions)")
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
def assumed() -> None:
    """List every value no source settles (provenance 'assumed') and other non-rulebook facts."""
    from ruleproof.model.dawn_under.board import default_board
    from ruleproof.spec import manifest

    table = Table(title="facts not stated by the rule texts")
    for col in ("game", "fact", "value", "provenance", "source / reason"):
        table.add_column(col, overflow="fold")
    m = manifest("dawn_under")
    for f in m.facts.values():
        if f.provenance != "rulebook":
            table.add_row("dawn-under", f.name, str(f.value), f.provenance, f.source)
    b = default_board()
    table.add_row("dawn-under", "board layout", f"{b.name}: quarters {b.quarter_sizes()}",
                  b.provenance, "grave coordinates and neighbour lists are published nowhere")
    from ruleproof.model.dracula import assumed_values

    for what, value, why in assumed_values():
        table.add_row("dracula", what, value, "assumed", why)
    out.print(table)




@app.command()
@bad_input_exits_2
def ambiguities(
    search: Annotated[bool, typer.Option(help="search witnesses again and play the presets "
                                              "against each other")] = False,
    write: Annotated[bool, typer.Option(help="with --search: rewrite the witness scenario "
                                             "files (shrunk)")] = False,
    profile: Annotated[str, typer.Option(help="ci, default or thorough")] = "default",
    as_json: Annotated[bool, typer.Option("--json")] = False,
    discover: Annotated[bool, typer.Option(help="search what the clause contracts leave open "
                                                "(legality, effects, du-en vs du-cs, cycles, z3)")
                        ] = False,
    witnesses: Annotated[Path | None, typer.Option(help="with --discover: write a witness "
                                                        "scenario per new finding here")] = None,
    workers: Annotated[int, typer.Option(help="with --discover: searches at a time on a local "
                                              "Ray (the ray extra); 1 = this process")] = 1,
    ray_address: Annotated[str | None, typer.Option(help="with --discover: run the searches "
                                                         "on this Ray cluster, HOST:PORT")] = None,
) -> None:
    """The ambiguity register with each witness's status; --search finds new divergences."""
    needs = [("--write", write, "--search", search),
             ("--witnesses", witnesses is not None, "--discover", discover),
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
        run_discover(out, profile, as_json, witnesses, workers=workers, address=ray_address)
        return
    from ruleproof.properties.dawn_under.ambiguities import (
        find_witness,
        register,
        replay_witness,
    )

    if profile not in PROFILES:
        raise MalformedInput(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
    prof = PROFILES[profile]
    entries = register()
    rows: list[dict[str, Any]] = []
    failed = 0
    for e in entries:
        ok, detail = replay_witness(e)
        row: dict[str, Any] = {"id": e.id, "option": e.option, "default": e.default,
                               "readings": [r.value for r in e.readings],
                               "sources": list(e.sources), "witness": e.witness,
                               "replay": "pass" if ok else "FAIL", "detail": detail}
        if search and e.option:
            found, how = find_witness(e, max(50, prof.games * 10), write=write, shrink=write)
            row["search"] = ("found: " if found else "NOT FOUND: ") + how
            ok = ok and found
        failed += not ok
        rows.append(row)
    unexplained: list[str] = []
    divergences = 0
    if search:
        # du-en and du-cs compared as texts (their clause contracts), not as engine options
        # (properties/contracts/discovery.py); every divergence must match a register entry.
        from ruleproof.properties.contracts.discovery import BUDGETS, explain, translation_gaps
        from ruleproof.properties.contracts.games import rule_set

        for players in (3, 4, 5, 6):
            gaps = explain(rule_set(f"du-en/{players}"),
                           translation_gaps(players, BUDGETS["ci" if prof.name == "ci"
                                                             else "default"]))
            divergences += len(gaps)
            unexplained += [f"{f.rule_set}: {f.key} (seed {f.seed}, {len(f.prefix)} actions, "
                            f"then '{f.action}'): {f.detail}" for f in gaps if not f.explained_by]
    if as_json:
        out.print_json(json.dumps({"entries": rows, "divergences": divergences,
                                   "unexplained": unexplained,
                                   "passed": not failed and not unexplained}))
    else:
        table = Table(title=f"ambiguity register: {len(entries)} entries")
        for col in ("id", "option", "readings (default first)", "sources", "witness"):
            table.add_column(col, overflow="fold")
        if search:
            table.add_column("search", overflow="fold")
        for row in rows:
            status = ("[green]replays[/]" if row["replay"] == "pass" else "[red]FAIL[/]")
            if row["witness"] is None:
                status = "no difference (argued)"
            cells = [row["id"], row["option"] or "—", ", ".join(row["readings"]) or "—",
                     ", ".join(row["sources"]), status]
            if search:
                cells.append(row.get("search", "—"))
            table.add_row(*cells)
        out.print(table)
        for row in rows:
            if row["replay"] != "pass":
                out.print(f"[red]{row['id']}[/]: {row['detail']}", markup=True)
        if search:
            out.print(f"du-en vs du-cs contracts (3-6 players): {divergences} kinds of "
                      f"divergence, {len(unexplained)} unexplained")
            for text in unexplained:
                out.print(f"[red]UNEXPLAINED[/] {text}", markup=True)
    if failed or unexplained:
        raise typer.Exit(1)


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
             help="games per rule set on the statistics page (default 30)")] = None,
         ) -> None:
    """Regenerate the documentation pages made from the spec (ambiguity catalogue, clauses);
    --build builds the whole site (mkdocs-material, strict), --serve previews it."""
    from ruleproof.cli.docgen import write_docs

    if not directory.is_dir():
        raise MalformedInput("not a directory", file=str(directory))
    # every argument is checked before anything is written
    if build and serve:
        raise MalformedInput("--build and --serve: give one of them")
    if games is not None and not 1 <= games <= 10_000:
        raise MalformedInput(f"--games must be 1..10000, got {games}")
    if (build or serve) and not config_file.is_file():
        raise MalformedInput("no mkdocs configuration here (--config-file)", file=str(config_file))
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
    that is not a number) is one line ``error: ...`` and exit code 2, like every bad input.

    (Typer may bring its own copy of click, so its exceptions are recognised by class name.)
    """
    try:
        code = typer.main.get_command(app).main(standalone_mode=False)
    except Exception as exc:
        kinds = _kinds(exc)
        ctx = getattr(exc, "ctx", None)
        if "NoArgsIsHelpError" in kinds and ctx is not None:
            out.print(ctx.get_help(), markup=False, highlight=False)
            raise SystemExit(0) from None
        if "UsageError" in kinds:
            where = f"{ctx.command_path}: " if ctx is not None else ""
            message = " ".join(str(exc.format_message()).split())  # type: ignore[attr-defined]
            sys.stderr.write(f"error: {where}{message}\n")
            raise SystemExit(2) from None
        if "Abort" in kinds:
            sys.stderr.write("error: aborted\n")
            raise SystemExit(130) from None
        raise
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
