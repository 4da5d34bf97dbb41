"""The ``replay`` and ``conform`` commands of the ``ruleproof`` command line.

``ruleproof/cli.py`` calls :func:`register` on its Typer app. Exit codes follow the rest of the
CLI: 0 conforming, 1 nonconforming (a divergence, an engine failure), 2 bad input (a malformed
or unreadable trace, an unknown game, an engine command that cannot be started), always as one
line ``error: FILE:LINE:COLUMN: what`` without a traceback; ``conform`` exits 3 when the engine
declines the game, preset or options (``"unsupported": true``), which is not a mismatch.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from ruleproof.cli.clitools import bad_input_exits_2, option_pairs
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
    max_steps: Annotated[int, typer.Option(help="actions per game at most")] = 1000,
    shrink_budget: Annotated[float | None, typer.Option(
        help="seconds spent shrinking a divergence (default: half the budget)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="rule option NAME=VALUE")] = None,
    preset: Annotated[str | None, typer.Option(
        help="the game's rule set, a preset (default: varied, those the engine declares)")]
    = None,
    min_games: Annotated[int, typer.Option(
        help="completed games needed for a pass (fewer: exit 1)")] = 1,
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
) -> None:
    """Drive an engine and the model side by side; a divergence is shrunk and saved as a trace.

    Exit 0 only if at least --min-games games were completed without a divergence; 1 for a
    divergence, an engine failure or a run that proves nothing (no game completed); 2 bad
    input; 3 the engine declined everything asked. With --openspiel or --pettingzoo the same
    comparison runs through the frameworks' interfaces (``conform-framework``).

    --workers, --ray-address, --seeds or --games-per-seed make it a campaign: the search split
    by seed (--games-per-seed games each, one engine process per seed) over Ray workers,
    stopped at the first divergence by seed order (docs/campaigns.md)."""
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
    if campaign and engine is None:
        raise MalformedInput("--workers, --ray-address, --seeds and --games-per-seed are for "
                             "--engine campaigns")
    game = game if game is not None else names()[0]
    players, preset, option = _fixed_by_params(game, param or [], players, preset, option or [])
    if engine is None:
        from ruleproof.cli.interop import run_framework

        run_framework(openspiel, pettingzoo, game, players, preset, None, option, 20, seed,
                      budget, shrink_budget, max_steps, out or Path("ruleproof-divergence.jsonl"),
                      as_json)
        return
    model = model_of(game)
    opts = option_pairs(option or [])
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
        raise MalformedInput(f"{game}: no player count allows these flags together: "
                             + ", ".join((f"--preset {v}" if k == 'preset' else f"-o {k}={v}")
                                         for k, v in sorted(opts.items())))
    if players is not None and players not in allowed:
        span = (f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 1
                and allowed[-1] - allowed[0] == len(allowed) - 1 else ", ".join(map(str, allowed)))
        raise MalformedInput(f"{game}{f' with preset {preset}' if preset else ''} is played by "
                             f"{span} players; got {players}")
    for name, value in (("--budget", budget), ("--timeout", timeout)):
        if not math.isfinite(value) or value <= 0:
            raise MalformedInput(f"{name} must be a finite number of seconds > 0, got {value!r}")
    if shrink_budget is not None and (not math.isfinite(shrink_budget) or shrink_budget < 0):
        raise MalformedInput(f"--shrink-budget must be a finite number of seconds >= 0, "
                             f"got {shrink_budget!r}")
    if max_steps < 1 or min_games < 1:
        raise MalformedInput("--max-steps and --min-games must be at least 1")
    target = out or Path("ruleproof-divergence.jsonl")
    if not target.parent.is_dir():
        raise MalformedInput(f"--out: directory {target.parent} does not exist", file=str(target))
    run: Campaign | None = None
    if campaign:
        run = _campaign(game, engine, workers, ray_address, seed, seeds, games_per_seed or 20,
                        budget, timeout, players, opts, max_steps, shrink_budget, min_games,
                        as_json)
        result = run.result
    else:
        with progress(f"conform ({budget:g} s)", None, quiet=as_json) as advance:
            result = conform(model, subprocess_factory(engine, timeout=timeout),
                             players=players, options=opts, budget=budget, seed=seed,
                             max_steps=max_steps, shrink_budget=shrink_budget,
                             min_games=min_games, on_game=lambda _: advance())
    text = trace_text(result, model, engine)
    saved: str | None = None
    if text is not None:
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MalformedInput(f"cannot write trace: {exc.strerror or exc}",
                                 file=str(target)) from None
        saved = str(target)
    code = 3 if result.unsupported else 0 if result.conforms else 1
    if as_json:
        data = _conform_json(result, saved, code)
        if run is not None:
            data["campaign"] = run.as_json()
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(result.report())
        if run is not None:
            typer.echo(run.summary())
        if saved is not None:
            typer.echo(f"minimal trace saved to {saved} (ruleproof replay {saved})")
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
        raise MalformedInput(f"--preset {preset}: a {model.name} set-up names no preset (its "
                             "conformance games have one rule set; vary it with --option)")
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
        "trace": saved, "note": result.note or None,
        "coverage": result.coverage.as_json(),
    }


def register(app: typer.Typer) -> None:
    """Add the ``replay`` and ``conform`` commands to ``app``."""
    app.command("replay")(replay_command)
    app.command("conform")(conform_command)
