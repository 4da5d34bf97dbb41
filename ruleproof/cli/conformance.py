"""The ``replay`` and ``conform`` commands of the ``ruleproof`` command line.

``ruleproof/cli.py`` calls :func:`register` on its Typer app. Exit codes follow the rest of the
CLI: 0 conforming, 1 nonconforming (a divergence, an engine failure), 2 bad input (a malformed
or unreadable trace, an unknown game, an engine command that cannot be started), always as one
line ``error: FILE:LINE:COLUMN: what`` without a traceback; ``conform`` exits 3 when the engine
declines the game, preset or options (``"unsupported": true``), which is not a mismatch, and 4
when it is too slow to judge within the budget (:func:`verdict_code`).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ruleproof.cli.clitools import bad_input_exits_2, int_in_range, option_pairs
from ruleproof.cli.fit import fold
from ruleproof.cli.progress import progress
from ruleproof.errors import MalformedInput
from ruleproof.model.api import option_pairs_from
from ruleproof.properties.conformance.campaign import Campaign, conform_campaign
from ruleproof.properties.conformance.differential import ConformResult, conform, trace_text
from ruleproof.properties.conformance.engine import subprocess_factory
from ruleproof.properties.conformance.games import PRESET_KEY, GameModel, model_of
from ruleproof.properties.conformance.replay import ReplayResult, replay_file
from ruleproof.properties.explore.distributed import check_address
from ruleproof.properties.plugin import names
from ruleproof.system.outputs import Target, check_target, write_file


def _replay_json(result: ReplayResult) -> dict[str, Any]:
    d = result.divergence
    return {"file": result.path, "conforms": result.conforms, "steps": result.steps,
            "unchecked": result.unchecked or None,
            "divergence": None if d is None else {
                "step": d.step, "line": d.line, "action": d.action, "kind": d.kind,
                "clauses": list(d.clauses), "blamed_by": d.blamed_by, "detail": d.detail}}


def replay_command(
    traces: Annotated[list[Path], typer.Argument(help="trace files (JSON Lines)")],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable results")] = False,
) -> None:
    """Replay recorded games against the model: exit 0 all conform, 1 a divergence or a trace
    that checks nothing (no actions, no recorded facts), 2 unreadable."""
    worst = 0
    results: list[dict[str, Any]] = []
    for path in traces:
        try:
            result = replay_file(path)
        except MalformedInput as exc:
            typer.echo(f"error: {exc.one_line()}", err=True)
            results.append({"file": str(path), "error": exc.one_line()})
            worst = 2
            continue
        results.append(_replay_json(result))
        if result.conforms:
            if not as_json:
                typer.echo(f"{path}: conforms ({result.steps} actions)")
            continue
        worst = max(worst, 1)
        if result.divergence is None:
            if not as_json:
                typer.echo(f"{path}: FAILED: {result.unchecked}")
            continue
        worst = max(worst, 1)
        if not as_json:
            typer.echo(f"{path}: NONCONFORMING at {result.divergence.describe()}")
    if as_json:
        typer.echo(json.dumps({"passed": worst == 0, "results": results}, indent=2))
    raise typer.Exit(worst)


@bad_input_exits_2
def conform_command(
    engine: Annotated[str | None, typer.Option(
        help="engine command line (split like a shell, run without one), speaking the JSON "
             "Lines protocol")] = None,
    openspiel: Annotated[str | None, typer.Option(
        "--openspiel", help="instead of --engine: MODULE:GAME, an OpenSpiel game driven through "
                            "the action table (docs/interop.md)")] = None,
    pettingzoo: Annotated[str | None, typer.Option(
        "--pettingzoo", help="instead of --engine: MODULE:ENV, a PettingZoo AEC environment")
    ] = None,
    game: Annotated[str | None, typer.Option(
        help="the game (default: the first registered game, `ruleproof games`)")] = None,
    players: Annotated[int | None, typer.Option(help="player count (default: all)")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "-P", "--param", help="a game parameter NAME=VALUE fixed for every game (players, "
                              "preset, options, expansion: the same as their flags)")] = None,
    budget: Annotated[float, typer.Option(help="seconds of search")] = 30.0,
    out: Annotated[Path | None, typer.Option(help="where to save the minimal trace "
                                                  "(default ruleproof-divergence.jsonl)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the search (same seed, same games)")] = 0,
    timeout: Annotated[float, typer.Option(help="seconds per engine answer")] = 5.0,
    max_steps: Annotated[int | None, typer.Option(
        help="actions per game at most (default 1000; with --protocol: actions shown, default "
             "2)", show_default=False)] = None,
    shrink_budget: Annotated[float | None, typer.Option(
        help="seconds spent shrinking a divergence (default: half the budget)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="rule option NAME=VALUE")] = None,
    preset: Annotated[str | None, typer.Option(
        help="the game's rule set, a preset (default: varied, those the engine declares)")]
    = None,
    min_games: Annotated[int, typer.Option(
        help="completed games needed for a pass (fewer, without a divergence: exit 4, too "
             "slow to judge)")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable result")] = False,
    workers: Annotated[int, typer.Option(
        help="a campaign: seeds searched at a time on a local Ray (the ray extra); 1 = this "
             "process (docs/campaigns.md)")] = 1,
    ray_address: Annotated[str | None, typer.Option(
        help="a campaign on this Ray cluster, HOST:PORT (default: a local Ray of --workers)")
    ] = None,
    seeds: Annotated[int | None, typer.Option(
        help="a campaign of this many seeds (--seed, --seed+1, ...; default: as many as the "
             "budget allows)")] = None,
    games_per_seed: Annotated[int | None, typer.Option(
        help="a campaign with this many games per seed (default 20)")] = None,
    logs: Annotated[list[Path] | None, typer.Argument(
        help="with --log: the recorded games (trace format)", show_default=False)] = None,
    log: Annotated[bool, typer.Option(
        "--log", help="instead of an engine: check recorded games FILE... (trace format; "
                      "steps may be missing and actions hidden as '?') "
                      "under every registered reading and test their chance outcomes against "
                      "the model's exact probabilities; exit 0 every log fits a reading and "
                      "the chance test passes, 1 otherwise")] = False,
    level: Annotated[float, typer.Option(
        help="--log: the level of the chance test (rejects below it)")] = 0.01,
    identify: Annotated[bool, typer.Option(
        "--identify", help="which registered readings does the engine follow? Searches the "
                           "rule options of the ambiguity register (--engine, --openspiel, "
                           "--pettingzoo); exit 0 identified, 1 it fits none (the step is "
                           "reported)")] = False,
    protocol: Annotated[bool, typer.Option(
        "--protocol", help="instead of driving an engine: print the messages of the start of "
                           "one game of --game (set-up, actions, state and observation fields, "
                           "the illegal actions probed), answered by the model as a conforming "
                           "engine answers; --players, --preset, --option, -P, --seed (the "
                           "deal) and --max-steps (actions shown, default 2) choose the "
                           "game")] = False,
) -> None:
    """Drive an engine and the model side by side; a divergence is shrunk and saved as a trace.

    Verdicts by exit code: 0 conforms (at least --min-games games completed without a
    divergence); 1 nonconforming (a divergence or an engine failure); 2 usage or input error;
    3 the engine declined everything asked (unsupported); 4 too slow to judge within the
    budget (no divergence, but fewer than --min-games games completed: the report gives the
    measured seconds per action and the --budget that would suffice). With --openspiel or
    --pettingzoo the same comparison runs through the frameworks' interfaces (``conform-framework``).

    --identify reports the registered readings the engine follows instead (exit 0 identified,
    1 it fits none); --log FILE... checks recorded games instead of driving an engine.

    --workers, --ray-address, --seeds or --games-per-seed make it a campaign: the search split
    by seed (--games-per-seed games each, one engine process per seed) over Ray workers,
    stopped at the first divergence by seed order (docs/campaigns.md)."""
    int_in_range(seed, "--seed", 0, 2**63 - 1)  # the range of every --seed: no negative alias
    if protocol:
        ignored = [flag for flag, given in (
            ("--engine", engine is not None), ("--openspiel", openspiel is not None),
            ("--pettingzoo", pettingzoo is not None), ("--identify", identify),
            ("--log", log), ("recorded games (FILE...)", bool(logs)), ("--out", out is not None),
            ("--workers", workers != 1), ("--ray-address", ray_address is not None),
            ("--seeds", seeds is not None), ("--games-per-seed", games_per_seed is not None),
            ("--budget", budget != 30.0), ("--timeout", timeout != 5.0),
            ("--shrink-budget", shrink_budget is not None), ("--min-games", min_games != 1),
            ("--level", level != 0.01),
        ) if given]
        if ignored:
            raise MalformedInput(f"--protocol prints the messages of one game of the model; "
                                 f"{', '.join(ignored)} cannot go with it")
        name = game if game is not None else names()[0]
        fixed_players, fixed_preset, fixed_option = _fixed_by_params(
            name, param or [], players, preset, option or [])
        model, opts = _setup_options(model_of(name), fixed_players, fixed_preset, fixed_option)
        shown = 2 if max_steps is None else int_in_range(max_steps, "--max-steps", 1, 1000)
        _protocol(model, fixed_players, opts, seed, shown, as_json)
        return
    if log or logs:
        if not (log and logs):
            raise MalformedInput("recorded games go with --log: ruleproof conform --log FILE...")
        ignored = [flag for flag, given in (
            ("--engine", engine is not None), ("--openspiel", openspiel is not None),
            ("--pettingzoo", pettingzoo is not None), ("--identify", identify),
            ("--game", game is not None), ("--players", players is not None),
            ("--param", bool(param)), ("--preset", preset is not None),
            ("--option", bool(option)), ("--out", out is not None),
            ("--workers", workers != 1), ("--ray-address", ray_address is not None),
            ("--seeds", seeds is not None), ("--games-per-seed", games_per_seed is not None),
            ("--budget", budget != 30.0), ("--timeout", timeout != 5.0),
            ("--max-steps", max_steps is not None),
            ("--shrink-budget", shrink_budget is not None),
            ("--min-games", min_games != 1),
        ) if given]
        if ignored:
            raise MalformedInput(f"{', '.join(ignored)} cannot go with --log: a log's header "
                                 "names its game and set-up, and every registered reading is "
                                 "tried")
        _logs(logs, level, seed, as_json)
    if level != 0.01:
        raise MalformedInput("--level is the chance test's level for recorded games: it only "
                             "works with --log FILE...")
    max_steps = 1000 if max_steps is None else max_steps
    given = [x for x in (engine, openspiel, pettingzoo) if x is not None]
    if len(given) != 1:
        raise MalformedInput("give exactly one of --engine CMD, --openspiel MODULE:GAME and "
                             "--pettingzoo MODULE:ENV")
    check_address(ray_address)
    campaign = workers != 1 or ray_address is not None or seeds is not None or (
        games_per_seed is not None)
    if not 1 <= workers <= 64:
        raise MalformedInput(f"--workers must be 1..64, got {workers}")
    if (seeds is not None and seeds < 1) or (games_per_seed is not None and games_per_seed < 1):
        raise MalformedInput("--seeds and --games-per-seed must be at least 1")
    if identify and campaign:
        raise MalformedInput("--identify works without a campaign")
    if campaign and engine is None:
        raise MalformedInput("--workers, --ray-address, --seeds and --games-per-seed are for "
                             "--engine campaigns")
    game = game if game is not None else names()[0]
    players, preset, option = _fixed_by_params(game, param or [], players, preset, option or [])
    if engine is None and identify:
        from ruleproof.cli.interop import identify_framework

        identify_framework(openspiel, pettingzoo, game, players, preset, None, option, 20,
                           seed, budget, shrink_budget, max_steps, as_json)
    if engine is None:
        from ruleproof.cli.interop import run_framework

        run_framework(openspiel, pettingzoo, game, players, preset, None, option, 20, seed,
                      budget, shrink_budget, max_steps, out or Path("ruleproof-divergence.jsonl"),
                      as_json)
        return
    model, opts = _setup_options(model_of(game), players, preset, option or [])
    for name, value in (("--budget", budget), ("--timeout", timeout)):
        if not math.isfinite(value) or value <= 0:
            raise MalformedInput(f"{name} must be a finite number of seconds > 0, got {value!r}")
    if shrink_budget is not None and (not math.isfinite(shrink_budget) or shrink_budget < 0):
        raise MalformedInput(f"--shrink-budget must be a finite number of seconds >= 0, "
                             f"got {shrink_budget!r}")
    if max_steps < 1 or min_games < 1:
        raise MalformedInput("--max-steps and --min-games must be at least 1")
    target = out or Path("ruleproof-divergence.jsonl")
    check_target(Target(target, "--out", "trace"))  # a link, FIFO, device: refused before work
    if identify:
        _identify(model, engine, timeout, players, opts, budget, seed, max_steps, shrink_budget,
                  as_json)
    run: Campaign | None = None
    if campaign:
        run = _campaign(game, engine, workers, ray_address, seed, seeds, games_per_seed or 20,
                        budget, timeout, players, opts, max_steps, shrink_budget, min_games,
                        as_json)
        result = run.result
    else:
        with progress(f"conform ({budget:g} s)", None) as advance:
            result = conform(model, subprocess_factory(engine, timeout=timeout),
                             players=players, options=opts, budget=budget, seed=seed,
                             max_steps=max_steps, shrink_budget=shrink_budget,
                             min_games=min_games, on_game=lambda _: advance())
    text = trace_text(result, model, engine)
    code = verdict_code(result)
    saved: str | None = None
    failed: MalformedInput | None = None
    if not as_json:  # the finding first: a trace that cannot be written never hides it
        report, cover = result.report(), result.coverage.summary()
        # the coverage lines (the varied options alone ran to 470 characters) folded at
        # spaces like the campaign's summary, identifiers whole; the verdict as it is
        typer.echo(report.replace(cover, fold(cover)) if cover in report else report)
        if run is not None:
            typer.echo(fold(run.summary()))  # folded at spaces
        sys.stdout.flush()
    if text is not None:
        try:
            saved = str(write_file(Target(target, "--out", "trace"), text))
        except MalformedInput as exc:  # OutputFailed (a full disk...), or the path changed
            failed = exc
    if as_json:
        data = _conform_json(result, saved, code)
        if failed is not None:
            data["trace_error"] = str(failed)
        if run is not None:
            data["campaign"] = run.as_json()
        typer.echo(json.dumps(data, indent=2))
    elif saved is not None:
        typer.echo(f"minimal trace saved to {saved} (ruleproof replay {saved})")
    if failed is not None:
        sys.stdout.flush()
        sys.stderr.write(f"error: {failed}\n")
        raise typer.Exit(code or 2)  # the finding's own code; 2 only with no finding
    raise typer.Exit(code)


EXIT_CONFORMS, EXIT_NONCONFORMING, EXIT_USAGE, EXIT_UNSUPPORTED, EXIT_TOO_SLOW = 0, 1, 2, 3, 4
"""``conform``'s verdicts by exit code (docs/conformance.md, section 4)."""


def verdict_code(result: ConformResult) -> int:
    """The exit code of a ``conform`` result: 3 unsupported, 0 conforms, 4 too slow to judge
    within the budget (no divergence, the budget ran out before ``--min-games`` games), 1
    otherwise (a divergence, an engine failure, a run that proves nothing)."""
    if result.unsupported:
        return EXIT_UNSUPPORTED
    if result.conforms:
        return EXIT_CONFORMS
    return EXIT_TOO_SLOW if result.too_slow is not None else EXIT_NONCONFORMING


def _logs(paths: list[Path], level: float, seed: int, as_json: bool) -> None:
    """``conform --log FILE...`` (properties/conformance/logs.py)."""
    from ruleproof.properties.conformance.logs import check_logs, fits, report

    if not 0 < level < 1:
        raise MalformedInput(f"--level must be between 0 and 1, got {level!r}")
    results, chance = check_logs(paths, level=level, seed=seed)
    ok = fits(results, chance)
    code = EXIT_CONFORMS if all(ok.values()) else EXIT_NONCONFORMING
    if as_json:
        typer.echo(json.dumps({
            "exit": code, "logs": [{"file": r.path, "actions": r.steps, "default": r.default,
                                    "surviving": list(r.surviving),
                                    "undecided": list(r.undecided), "partial": r.partial,
                                    "facts": r.facts,
                                    "divergence": r.first_divergence or None}
                                   for r in results],
            "chance": {"points": chance.points, "bins": list(chance.counts),
                       "p_value": chance.p_value, "level": chance.level,
                       "passed": chance.passed}}, indent=2))
    else:
        typer.echo(report(results, chance))
    raise typer.Exit(code)


def _identify(model: GameModel, engine: str, timeout: float, players: int | None,
              opts: dict[str, str], budget: float, seed: int, max_steps: int,
              shrink_budget: float | None, as_json: bool) -> None:
    """``conform --identify``: the readings the engine follows (properties/conformance/
    identify.py); exits 0 identified, 1 none fits or nothing could be said, 3 unsupported."""
    from ruleproof.properties.conformance.identify import identify

    with progress(f"conform --identify ({budget:g} s)", None, quiet=as_json) as advance:
        found = identify(model, subprocess_factory(engine, timeout=timeout), players=players,
                         options=opts, budget=budget, seed=seed, max_steps=max_steps,
                         shrink_budget=2.0 if shrink_budget is None else shrink_budget,
                         on_step=lambda text: advance(0, text))
    code = (EXIT_UNSUPPORTED if found.unsupported else EXIT_CONFORMS if found.fits
            else EXIT_NONCONFORMING)
    if as_json:
        def game(p: Any) -> dict[str, Any]:
            d = p.divergence
            return {"actions": [a for _, a in p.actions], "players": p.players,
                    "setup": dict(p.setup), "options": dict(p.options),
                    "step": None if d is None else d.step,
                    "kind": None if d is None else d.kind,
                    "detail": None if d is None else d.detail}

        typer.echo(json.dumps({
            "game": found.game, "exit": code, "fits": found.fits,
            "readings": dict(found.readings), "games": found.games,
            "excluded": [{"option": e.option, "value": e.value, "game": game(e.witness)}
                         for e in found.excluded],
            "undecided": [f"{k}={v}" for k, v in found.undecided],
            "unexplained": None if found.unexplained is None else game(found.unexplained),
            "failure": found.failure or None, "unsupported": found.unsupported or None},
            indent=2))
    else:
        typer.echo(found.report())
    raise typer.Exit(code)


def _fixed_by_params(game: str, param: list[str], players: int | None, preset: str | None,
                     option: list[str]) -> tuple[int | None, str | None, list[str]]:
    """``-P NAME=VALUE`` items as the flags they spell (``players``, ``preset``, ``options``,
    ``expansion``: what every game is fixed to); a parameter the game lacks is refused naming
    its parameters, and one given by ``-P`` and its flag must agree.

    Raises:
        MalformedInput: see above.
    """
    from ruleproof.cli.clitools import game_params, param_pairs
    from ruleproof.properties.plugin import plugin

    pairs = param_pairs(param)
    if not pairs:
        return players, preset, option
    p = plugin(game)
    typed = game_params(p, param, players=players, preset=preset)
    unfixable = sorted(set(pairs) - {"players", "preset", "options", "expansion"})
    if unfixable:
        raise MalformedInput(f"-P {unfixable[0]}: conform varies or fixes only players, preset, "
                             "options and expansion")
    extra = [f"{k}={v}" for k, v in option_pairs_from(typed.get("options")).items()]
    if "expansion" in typed:
        extra.append(f"expansion={typed['expansion']}")
    players = typed.get("players", players)
    preset = typed.get("preset", preset)
    return players, preset, [*option, *extra]


def _setup_options(model: GameModel, players: int | None, preset: str | None,
                   option: list[str]) -> tuple[GameModel, dict[str, str]]:
    """The rule options the flags fix (``preset`` included: the one named, or the one a
    player count alone implies), checked against the game's player counts.

    Raises:
        MalformedInput: a preset given as an option, an unknown preset or option, or a player
            count the options do not allow.
    """
    game = model.name
    opts = option_pairs(option)
    if PRESET_KEY in opts:
        raise MalformedInput("give the preset with --preset, not --option preset=...")
    if preset is not None:
        opts[PRESET_KEY] = _preset(model, preset)
    elif players is not None:
        found = _preset_for(model, players)
        if found is not None:
            opts[PRESET_KEY] = found  # e.g. 2 players: the 2-player rules, as in check
    allowed = model.player_counts(opts)
    if not allowed:
        implied = f" (implied by --players {players})" if preset is None else ""
        raise MalformedInput(f"{game}: no player count allows these flags together: "
                             + ", ".join((f"--preset {v}{implied}" if k == 'preset'
                                          else f"-o {k}={v}") for k, v in sorted(opts.items())))
    if players is not None and players not in allowed:
        span = (f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 1
                and allowed[-1] - allowed[0] == len(allowed) - 1 else ", ".join(map(str, allowed)))
        raise MalformedInput(f"{game}{f' with preset {preset}' if preset else ''} is played by "
                             f"{span} players; got {players}")
    return model, opts


def _protocol(model: GameModel, players: int | None, opts: dict[str, str], seed: int,
              steps: int, as_json: bool) -> None:
    """``conform --protocol``: the messages of the start of one game (stdout)."""
    from ruleproof.properties.conformance.protocol import protocol_sheet

    sheet = protocol_sheet(model, players, opts, seed, steps)
    if as_json:
        typer.echo(json.dumps({
            "game": sheet.game, "players": sheet.players,
            "preset": sheet.options.get(PRESET_KEY),
            "options": {k: v for k, v in sheet.options.items() if k != PRESET_KEY},
            "seed": sheet.seed, "observed_players": list(sheet.observed),
            "state_fields": dict(sheet.public), "observation_fields": dict(sheet.private),
            "messages": [{"request": rq, "answer": an} for rq, an in sheet.messages]},
            indent=2))
        return
    preset = sheet.options.get(PRESET_KEY)
    others = [f"{k}={v}" for k, v in sorted(sheet.options.items()) if k != PRESET_KEY]
    typer.echo(f"# {sheet.game}, {sheet.players} players"
               + (f", preset {preset}" if preset else "")
               + (f", options {', '.join(others)}" if others else "")
               + f", deal seed {sheet.seed}: the start of one game as `ruleproof conform` "
                 "plays it, answered by the model as a conforming engine answers.")
    typer.echo("# '>' a request the harness writes to the engine's stdin, '<' the answer "
               "line the engine writes to its stdout (docs/conformance.md, section 3).")
    typer.echo("# An 'apply' answered ok false is a probe: an action the model forbids, which "
               "the engine must refuse.")
    for request, answer in sheet.messages:
        typer.echo("> " + json.dumps(request))
        typer.echo("< " + json.dumps(answer))
    typer.echo("# at the end of the run the harness writes {\"cmd\": \"quit\"} (an answer is "
               "optional), closes stdin and stops the engine.")
    typer.echo("# the fields of 'state' (what each means: the docstring of the game's "
               "conformance capability):")
    width = max(map(len, [*sheet.public, *sheet.private]), default=0)
    for name, words in sheet.public.items():
        typer.echo(f"#   {name:{width}}  {words}")
    if sheet.observed:
        typer.echo(f"# 'observation' is asked after every step for player"
                   f"{'s' if len(sheet.observed) > 1 else ''} "
                   f"{', '.join(map(str, sheet.observed))}: 'player', every field of 'state', "
                   "and what that player alone sees:")
        for name, words in sheet.private.items():
            typer.echo(f"#   {name:{width}}  {words}")
    else:
        typer.echo(f"# no 'observation' is asked: {sheet.game} is compared on its public "
                   "state alone")


def _preset(model: GameModel, preset: str) -> str:
    """``--preset`` for the game (an unknown preset is refused by the game's
    ``player_counts``, naming the known ones).

    Raises:
        MalformedInput: the game has no ``preset`` parameter (naming its parameters), or a
            set-up that names no preset (one rule set: nothing to choose).
    """
    params = model.plugin.params
    if model.plugin.param(PRESET_KEY) is None:
        raise MalformedInput(f"{model.name} has no parameter preset (--preset); its "
                             f"parameters: {', '.join(p.name for p in params)}")
    if not model.presets():
        names = ", ".join(f"{k}={'|'.join(v)}" for k, v in model.option_values().items())
        raise MalformedInput(f"--preset {preset}: a {model.name} set-up names no preset (its "
                             "conformance games have one rule set; give its readings with "
                             f"--option{f': {names}' if names else ''})")
    return preset


def _preset_for(model: GameModel, players: int) -> str | None:
    """The preset a player count selects when none is given: None if the default rule set
    takes ``players`` (or no preset does), else the first preset that does."""
    known = model.presets()
    if not known or players in model.player_counts({PRESET_KEY: known[0]}):
        return None
    return next((p for p in known[1:] if players in model.player_counts({PRESET_KEY: p})),
                None)


def _campaign(game: str, engine: str, workers: int, address: str | None, seed: int,
              seeds: int | None, games_per_seed: int, budget: float, timeout: float,
              players: int | None, opts: dict[str, str], max_steps: int,
              shrink_budget: float | None, min_games: int, quiet: bool) -> Campaign:
    """``conform`` as a campaign (properties/conformance/campaign.py), with a progress bar of
    seeds."""
    with progress("conform campaign", seeds, quiet=quiet) as advance:
        games = [0]

        def arrived(shard_seed: int, shard: ConformResult) -> None:
            games[0] += shard.coverage.games
            advance(1, f"conform: seed {shard_seed} done, {games[0]} games")

        return conform_campaign(game, engine, workers=workers, address=address,
                                first_seed=seed, seeds=seeds, games_per_seed=games_per_seed,
                                budget=budget, timeout=timeout, players=players, options=opts,
                                max_steps=max_steps, shrink_budget=shrink_budget,
                                min_games=min_games, progress=arrived)


def _conform_json(result: ConformResult, saved: str | None, code: int) -> dict[str, Any]:
    """The result of ``conform --json``."""
    f = result.found
    d = result.divergence
    return {
        "game": result.game, "exit": code, "conforms": result.conforms,
        "failure": result.failure or None, "unsupported": result.unsupported or None,
        "seconds": round(result.seconds, 3),
        "detection_seconds": (None if result.detection_seconds is None
                              else round(result.detection_seconds, 3)),
        "divergence": None if d is None else {
            "step": d.step, "action": d.action, "kind": d.kind, "clauses": list(d.clauses),
            "blamed_by": d.blamed_by,
            "detail": d.detail},
        "minimal_game": None if f is None else {
            "players": f.players, "options": dict(f.options), "seed": f.seed,
            "setup": dict(f.setup), "deal_rearranged": f.crafted, "actions": [a for _, a in f.actions],
            "shrunk_from": result.shrink_steps[0] if result.shrink_steps else None},
        "too_slow": None if result.too_slow is None else {
            "seconds_per_action": result.too_slow.per_action,
            "actions_measured": result.too_slow.actions,
            "game_length": result.too_slow.game_length,
            "budget_needed": result.too_slow.budget_needed},
        "trace": saved, "note": result.note or None,
        "coverage": result.coverage.as_json(),
    }


def register(app: typer.Typer) -> None:
    """Add the ``replay``, ``conform`` and ``perft`` commands to ``app``."""
    from ruleproof.cli.perft import register as register_perft

    app.command("replay")(replay_command)
    app.command("conform")(conform_command)
    register_perft(app)
