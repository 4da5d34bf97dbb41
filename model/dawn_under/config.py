"""Building a :class:`~model.dawn_under.state.Config` from the shipped manifest and options."""

from __future__ import annotations

from pathlib import Path

from model.dawn_under.state import OPTION_VALUES, Config, Options
from ruleproof.errors import MalformedInput
from spec import manifest
from spec.boards import Board, default_board, load_board

GAME = "dawn-under"


def parse_options(pairs: dict[str, str], *, where: str | None = None) -> Options:
    """Options from ``name=value`` strings (CLI ``--option`` or a scenario's ``[options]``).

    Raises:
        MalformedInput: unknown option name or value, naming the allowed ones.
    """
    values: dict[str, object] = {}
    for name, raw in pairs.items():
        key = name.replace("-", "_")
        if key not in OPTION_VALUES:
            raise MalformedInput(
                f"unknown rule option {name!r}; known: {', '.join(sorted(OPTION_VALUES))}",
                file=where)
        value = str(raw).lower()
        if value not in OPTION_VALUES[key]:
            raise MalformedInput(
                f"option {name}: value {raw!r} is not one of {', '.join(OPTION_VALUES[key])}",
                file=where)
        values[key] = value == "true" if key == "receiver_chooses_end" else value
    return Options(**values)  # type: ignore[arg-type]


def make_config(players: int, options: Options | None = None,
                board: Board | Path | None = None) -> Config:
    """The configuration of a Dawn Under game for ``players`` players.

    Component numbers come from ``spec/manifests/dawn-under.toml`` (du-en:content.graves,
    du-en:content.lids, du-en:content.vampires, du-en:content.garlic, du-en:content.stakes,
    du-en:prep.reserve). The board is the assumed default unless one is given.

    Raises:
        MalformedInput: if ``players`` is not 3..6 (du-en:content.players) or the board file
            is invalid.
    """
    m = manifest(GAME)
    low, high = m.int("min_players"), m.int("max_players")
    if isinstance(players, bool) or not low <= players <= high:
        raise MalformedInput(
            f"dawn-under is played by {low} to {high} players (du-en:content.players); "
            f"got {players}")
    if isinstance(board, Path):
        board = load_board(board, m.int("graves"))
    board = board or default_board()
    colours = m.strings("colours")
    return Config(
        players=players,
        board=board,
        options=options or Options(),
        colours=colours,
        vampires_per_colour=m.int("vampires_per_colour"),
        lids_per_colour=m.int("coloured_lids_per_colour"),
        rat_lids=m.int("rat_lids"),
        reserve_size=m.int("reserve_lids"),
        stakes=m.int("stakes"),
        garlic=m.int("garlic_per_player"),
        stakes_for_gift=m.int("stakes_for_gift"),
        open_per_side=m.int("open_per_side"),
        all_open_at_most=m.int("all_open_at_most"),
    )
