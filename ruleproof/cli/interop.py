"""``ruleproof conform-framework``: conform an OpenSpiel game or a PettingZoo environment to
the model (:mod:`ruleproof.interop.conform`).

Exit codes as ``conform``: 0 no divergence found (with the number of games and steps
compared), 1 a divergence (described in one line, its shrunk trace saved), 2 bad input (one
line ``error: ...``).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ruleproof.cli.clitools import bad_input_exits_2, int_in_range, option_pairs
from ruleproof.errors import MalformedInput
from ruleproof.system.outputs import Target, check_target


def register(app: typer.Typer) -> None:
    """Add ``ruleproof conform-framework`` to ``app``."""

    @app.command("conform-framework")
    @bad_input_exits_2
    def conform_framework(
        openspiel: Annotated[str | None, typer.Option(
            "--openspiel", help="MODULE:GAME, an OpenSpiel game (or its name, or a factory)")]
        = None,
        pettingzoo: Annotated[str | None, typer.Option(
            "--pettingzoo", help="MODULE:ENV, a PettingZoo AEC environment or factory")] = None,
        game: Annotated[str | None, typer.Option(
            help="the game (default: the first registered game)")] = None,
        players: Annotated[int | None, typer.Option(
            help="player count (the game's parameter players; default: the game's)")] = None,
        preset: Annotated[str | None, typer.Option(
            help="the game's preset (its parameter preset)")] = None,
        expansion: Annotated[str | None, typer.Option(
            help="an expansion (the game's parameter expansion)")] = None,
        option: Annotated[list[str] | None, typer.Option(
            "--option", "-o", help="rule option NAME=VALUE")] = None,
        games: Annotated[int, typer.Option(help="random games at most")] = 20,
        seed: Annotated[int, typer.Option(help="seed of the search")] = 0,
        budget: Annotated[float, typer.Option(help="seconds of search")] = 60.0,
        shrink_budget: Annotated[float | None, typer.Option(
            help="seconds spent shrinking (default: half the budget)")] = None,
        max_steps: Annotated[int, typer.Option(help="actions per game at most")] = 3000,
        out: Annotated[Path, typer.Option(help="where to save the divergence trace")]
        = Path("ruleproof-divergence.jsonl"),
        as_json: Annotated[bool, typer.Option("--json", help="machine-readable result")] = False,
    ) -> None:
        """Drive an OpenSpiel game or PettingZoo environment side by side with the model
        through the documented action table (docs/interop.md): exit 0 conforms, 1 diverges."""
        int_in_range(seed, "--seed", 0, 2**63 - 1)  # the range of every --seed: no negative alias
        run_framework(openspiel, pettingzoo, game, players, preset, expansion, option, games,
                      seed, budget, shrink_budget, max_steps, out, as_json)


def framework_params(game: str, players: int | None, preset: str | None,
                     expansion: str | None, option: list[str] | None) -> dict[str, Any]:
    """The game's parameters the flags fix (``make_game`` keywords; None flags left out).

    Raises:
        MalformedInput: a flag for a parameter the game lacks (naming its parameters), a bad
            ``NAME=VALUE``, an unknown game.
    """
    from ruleproof.properties.plugin import plugin

    opts = option_pairs(option or [])
    record = plugin(game)
    params: dict[str, Any] = {}
    for name, value in (("players", players), ("preset", preset), ("expansion", expansion),
                        ("options", opts or None)):
        if value is None:
            continue
        if record.param(name) is None:
            flag = "option" if name == "options" else name
            raise MalformedInput(f"{game} has no parameter {name} (--{flag}); its parameters: "
                                 f"{', '.join(p.name for p in record.params)}")
        params[name] = value
    return params


def identify_framework(openspiel: str | None, pettingzoo: str | None, game: str | None,
                       players: int | None, preset: str | None, expansion: str | None,
                       option: list[str] | None, games: int, seed: int, budget: float,
                       shrink_budget: float | None, max_steps: int, as_json: bool) -> None:
    """``conform --openspiel/--pettingzoo TARGET --identify``: the registered readings the
    target follows (:mod:`ruleproof.interop.identify`). Exits 0 identified, 1 it fits none
    or nothing could be said.

    Raises:
        MalformedInput: both or neither target, a bad parameter or budget, an unknown game, a
            target that cannot be loaded.
    """
    if not math.isfinite(budget) or budget <= 0:
        raise MalformedInput(f"--budget must be a finite number of seconds > 0, got {budget!r}")
    if shrink_budget is not None and (not math.isfinite(shrink_budget) or shrink_budget < 0):
        raise MalformedInput(f"--shrink-budget must be a finite number of seconds >= 0, "
                             f"got {shrink_budget!r}")
    if games < 1 or max_steps < 1:
        raise MalformedInput("--games and --max-steps must be at least 1")
    if (openspiel is None) == (pettingzoo is None):
        raise MalformedInput("give exactly one of --openspiel MODULE:GAME and "
                             "--pettingzoo MODULE:ENV")
    from ruleproof.interop.identify import identify_target
    from ruleproof.properties.plugin import names

    game = game if game is not None else names()[0]
    params = framework_params(game, players, preset, expansion, option)
    framework, flag, target = (("openspiel", "--openspiel", openspiel) if openspiel is not None
                               else ("pettingzoo", "--pettingzoo", pettingzoo))
    if target is None or not target.strip():
        raise MalformedInput(f"{flag}: an empty value; give MODULE:NAME")
    found = identify_target(game, framework, target, params=params, budget=budget, seed=seed,
                            games=games, max_steps=max_steps,
                            shrink_budget=2.0 if shrink_budget is None else shrink_budget)
    code = 0 if found.fits else 1
    if as_json:
        def divergence(d: Any) -> dict[str, Any]:
            return {"step": d.step, "kind": d.kind, "model": d.model, "target": d.target,
                    "actions": list(d.actions), "seed": d.seed}

        typer.echo(json.dumps({
            "game": found.game, "target": found.target, "exit": code, "fits": found.fits,
            "readings": dict(found.readings), "games": found.games, "steps": found.steps,
            "excluded": [{"option": e.option, "value": e.value,
                          "game": divergence(e.witness)} for e in found.excluded],
            "undecided": [f"{k}={v}" for k, v in found.undecided],
            "unexplained": None if found.unexplained is None
            else divergence(found.unexplained),
            "failure": found.failure or None, "notes": list(found.notes)}, indent=2))
    else:
        typer.echo(found.report())
    raise typer.Exit(code)


def run_framework(openspiel: str | None, pettingzoo: str | None, game: str | None,
                  players: int | None,
                  preset: str | None, expansion: str | None, option: list[str] | None,
                  games: int, seed: int, budget: float, shrink_budget: float | None,
                  max_steps: int, out: Path, as_json: bool) -> None:
    """Conform an OpenSpiel game or PettingZoo environment (exactly one of ``openspiel`` /
    ``pettingzoo``, ``MODULE:NAME``) to the model; used by ``conform-framework`` and by
    ``conform --openspiel/--pettingzoo``. Exits 0 (conforms) or 1 (diverges).

    ``players``, ``preset`` and ``expansion`` are the game's parameters of those names (a
    flag given for a game without that parameter is refused naming the game's parameters);
    None: the game's default.

    Raises:
        MalformedInput: both or neither target, a bad parameter or budget, an unknown game.
    """
    if not math.isfinite(budget) or budget <= 0:
        raise MalformedInput(f"--budget must be a finite number of seconds > 0, got {budget!r}")
    if shrink_budget is not None and (not math.isfinite(shrink_budget) or shrink_budget < 0):
        raise MalformedInput(f"--shrink-budget must be a finite number of seconds >= 0, "
                             f"got {shrink_budget!r}")
    if games < 1 or max_steps < 1:
        raise MalformedInput("--games and --max-steps must be at least 1")
    from ruleproof.interop.conform import conform_target, save_trace
    from ruleproof.properties.plugin import make_game, names

    if (openspiel is None) == (pettingzoo is None):
        raise MalformedInput("give exactly one of --openspiel MODULE:GAME and "
                             "--pettingzoo MODULE:ENV")
    game = game if game is not None else names()[0]
    params = framework_params(game, players, preset, expansion, option)
    model = make_game(game, **params)
    framework, flag, target = (("openspiel", "--openspiel", openspiel) if openspiel is not None
                               else ("pettingzoo", "--pettingzoo", pettingzoo))
    if target is None or not target.strip():
        raise MalformedInput(f"{flag}: an empty value; give MODULE:NAME")
    check_target(Target(out, "--out", "trace"))  # a link, FIFO, device: refused before work
    result = conform_target(model, framework, target, games=games, seed=seed,
                            budget=budget, shrink_budget=shrink_budget,
                            max_steps=max_steps, out=None)
    d = result.divergence
    failed: MalformedInput | None = None
    if d is not None:
        if not as_json:  # the finding first: a trace that cannot be written never hides it
            typer.echo(f"{target}: NONCONFORMING at {d.describe()}")
            sys.stdout.flush()
        try:
            save_trace(out, model, framework, target, d)
            result.trace = out
        except MalformedInput as exc:
            failed = exc
    if as_json:
        typer.echo(json.dumps({
            "target": target, "framework": framework, "conforms": d is None,
            "games": result.games, "steps": result.steps, "unchecked": result.unchecked,
            "divergence": None if d is None else {
                "step": d.step, "kind": d.kind, "model": d.model, "target": d.target,
                "actions": len(d.actions), "shrunk_from": result.shrunk_from},
            "trace": None if result.trace is None else str(result.trace),
            **({"trace_error": str(failed)} if failed is not None else {})}, indent=2))
    elif d is None and result.games == 0:
        typer.echo(f"{target}: NOTHING COMPARED (no game completed within the budget): a run "
                   "that compares nothing is not a pass")
    elif d is None:
        extra = f", {result.unchecked} cut at an environment's own draw" \
            if result.unchecked else ""
        typer.echo(f"{target}: conforms ({result.games} games, {result.steps} steps "
                   f"compared{extra})")
    elif failed is None:
        typer.echo(f"trace ({len(d.actions)} actions, shrunk from {result.shrunk_from}) "
                   f"saved to {result.trace} (ruleproof replay {result.trace})")
    if failed is not None:  # the finding is printed: its own code, with the reason
        sys.stdout.flush()
        sys.stderr.write(f"error: {failed}\n")
    raise typer.Exit(0 if d is None and result.games > 0 else 1)
