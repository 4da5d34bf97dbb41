"""The ``render`` command: pictures of boards and positions (SVG) and step-through pages (HTML).

Examples::

    ruleproof render spec/dawn_under/scenarios/ch3-garlic.toml --html ch3.html
    ruleproof render spec/dracula/traces/dracula-conforming.jsonl --html trace.html
    ruleproof render spec/dracula/scenarios/example-turn.toml --svg pos.svg --step 5 --view 2
    ruleproof render --board dawn-under --svg board.svg        # or --board FILE (a board file)
    ruleproof render --random dracula --seed 3 --html game.html
    ruleproof render --random dawn-under -P players=3 -P preset=du-cs --html game.html

Every game goes through its plugin record: its pictures are the capability ``render``, its
random play the capability ``simulate``, its parameters the plugin's parameter model.

Exit codes: 0 written, 2 bad input (one line ``error: FILE:LINE: what``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ruleproof.cli.clitools import PARAM_HELP, bad_input_exits_2, game_params
from ruleproof.errors import MalformedInput
from ruleproof.spec.formats import not_a_file
from ruleproof.system.outputs import Target, check_target, refuse_clashes, write_file

if TYPE_CHECKING:
    from ruleproof.render.walk import Walk


def _write(path: Path, text: str, flag: str, what: str) -> None:
    """Write a page or picture whole or not at all, never over a link, FIFO or device
    (:func:`ruleproof.system.outputs.write_file`).

    Raises:
        MalformedInput: the path may not be written; OutputFailed: the writing failed.
    """
    write_file(Target(path, flag, what), text)
    typer.echo(f"wrote {path}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``ruleproof render`` to ``app``."""

    @app.command()
    @bad_input_exits_2
    def render(
        files: Annotated[list[Path] | None, typer.Argument(
            help="scenario files (.toml, any game) or traces (.jsonl)")] = None,
        html: Annotated[Path | None, typer.Option(help="write a self-contained step-through "
                                                       "page (HTML) here")] = None,
        svg: Annotated[Path | None, typer.Option(help="write one picture (SVG) here")] = None,
        step: Annotated[int | None, typer.Option(help="--svg: the step to draw (default: the "
                                                      "last)")] = None,
        view: Annotated[int, typer.Option(help="--svg: 0 everything, 1.. a seat's view (the "
                                               "game's views; a bad number lists them)")] = 0,
        walk: Annotated[int, typer.Option(help="--svg: which reading of a multi-reading "
                                               "scenario (0-based)")] = 0,
        board: Annotated[str | None, typer.Option(help="draw a board: a game's name, or a "
                                                       "board FILE of the game that takes "
                                                       "board files")] = None,
        random_game: Annotated[str | None, typer.Option(
            "--random", help="play a random game of this game")] = None,
        seed: Annotated[int, typer.Option(help="--random: the seed")] = 0,
        players: Annotated[int | None, typer.Option(help="--random: players (-P players=N)")
                           ] = None,
        preset: Annotated[str | None, typer.Option(help="--random: rule set (-P preset=NAME)")
                          ] = None,
        param: Annotated[list[str] | None, typer.Option("-P", "--param", help="--random: "
                                                        + PARAM_HELP)] = None,
    ) -> None:
        """Draw boards and positions, and write step-through pages of scenarios and traces
        (each player's view selectable for hidden information)."""
        from ruleproof.properties.render.svg import document
        from ruleproof.render.page import html_page
        from ruleproof.render.walk import walks_of

        if html is None and svg is None:
            raise MalformedInput("give --html OUT and/or --svg OUT")
        targets = [Target(out, flag, what) for flag, out, what in
                   (("--html", html, "page"), ("--svg", svg, "picture")) if out is not None]
        for t in targets:  # a link, FIFO, device: refused before any work
            check_target(t)
        # an output over a file drawn (or over the other output): refused, nothing replaced
        drawn = list(files or [])
        if board is not None and Path(board).is_file():
            drawn.append(Path(board))
        refuse_clashes(targets, [("input file", p) for p in drawn])
        if svg is None:
            given = [f for f, on in (("--step", step is not None), ("--view", view != 0),
                                     ("--walk", walk != 0)) if on]
            if given:
                raise MalformedInput(f"{', '.join(given)}: only with --svg OUT (choosing what "
                                     "its picture shows); drop it or give --svg")
        if random_game is None and seed != 0:
            raise MalformedInput("--seed is for --random GAME")
        if random_game is None and (players is not None or preset is not None or param):
            raise MalformedInput("--players, --preset and -P are for --random GAME")
        if board is not None:
            if files or random_game:
                raise MalformedInput("--board draws a board alone; drop the files/--random")
            if svg is None or html is not None:
                raise MalformedInput("--board writes an SVG: give --svg OUT (not --html)")
            _write(svg, _board_svg(board), "--svg", "picture")
            return
        walks: list[Walk] = []
        if random_game is not None:
            if files:
                raise MalformedInput("give files or --random, not both")
            if seed < 0:
                raise MalformedInput(f"--seed must be 0 or more, got {seed}")
            walks.append(_random_walk(random_game, seed, param or [], players, preset))
        for path in files or []:
            walks.extend(walks_of(path))
        if not walks:
            raise MalformedInput("nothing to draw: give scenario or trace files, --random GAME "
                                 "or --board")
        picture: str | None = None
        if svg is not None:  # every argument is checked before anything is written
            if not 0 <= walk < len(walks):
                raise MalformedInput(f"--walk {walk}: there are {len(walks)} walk(s)")
            chosen = walks[walk]
            last = len(chosen.frames) - 1
            k = last if step is None else step
            if not 0 <= k <= last:
                raise MalformedInput(f"--step {k}: the walk has steps 0..{last}")
            if not 0 <= view < len(chosen.views):
                raise MalformedInput(f"--view {view}: views are " + ", ".join(
                    f"{i} {v}" for i, v in enumerate(chosen.views)))
            picture = document(chosen.picture(k, view), chosen.canvas, chosen.caption(k, view))
        if html is not None:
            title = walks[0].title if len(walks) == 1 else \
                ", ".join(str(p.name) for p in files or []) or walks[0].title
            _write(html, html_page(walks, title), "--html", "page")
        if svg is not None and picture is not None:
            _write(svg, picture, "--svg", "picture")


def _board_svg(board: str) -> str:
    """The board of the game called ``board``, or the board file ``board`` drawn by the one
    game whose parameters include a board file."""
    from ruleproof.properties.plugin import plugins
    from ruleproof.render.walk import renderer

    games = plugins()
    if board in games:
        return renderer(board).board_svg(None)
    path = Path(board)
    takers = [name for name, p in games.items() if p.param("board") is not None]
    why = not_a_file(path)
    if why:
        raise MalformedInput(f"expected a game ({', '.join(games)}) or a board file; {why}",
                             file=board)
    if len(takers) != 1:
        raise MalformedInput(f"a board file is drawn by the game that takes board files; "
                             f"{len(takers)} games do ({', '.join(takers) or 'none'})",
                             file=board)
    return renderer(takers[0]).board_svg(path)


def _random_walk(game: str, seed: int, pairs: list[str], players: int | None,
                 preset: str | None) -> Walk:
    from ruleproof.properties.plugin import plugin
    from ruleproof.render.walk import random_walk

    p = plugin(game)
    return random_walk(game, game_params(p, pairs, players=players, preset=preset), seed)
