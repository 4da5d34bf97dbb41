"""Reduced configurations: small set-ups of a game, explored to the last state.

A reduced configuration (``spec/reduced/<name>.toml``) names a game and the component counts it
shrinks, each with the full game's value and why it was reduced (its provenance). Exhaustive
exploration (``ruleproof explore``, docs/explore.md) proves things about the *reduced* game
only; the file says exactly which counts differ from the full one.

Format (all keys required unless marked optional)::

    game = "dawn-under"              # or "dracula"
    name = "du-3p-1v"                # unique, the file's stem
    description = "one line"
    players = 3
    preset = "du-en"                 # Dawn Under only (du-en, du-cs, 2p)
    board = "../boards/reduced-10.toml"   # Dawn Under: under spec/, or a user board
                                                  # file relative to this file
    seeds = [0, 1]                   # Dawn Under: the fixed set of seeded deals explored
    images = false                   # optional, Dawn Under: also every image of those deals
                                     # under colour renaming and seat rotation
    options = { name = "value" }     # optional rule options

    [count.NAME]                     # one table per reduced count
    value = 2                        # the reduced value
    full = 10                        # the full game's value (checked against the manifest)
    why = "reason"

Dracula files list the kept cards instead of a board file and seeds (every set-up and every
chance outcome is enumerated there)::

    encounter = ["vampire1", ...]    # ids of the shipped card data kept
    action = ["strength", ...]
    rows = 1                         # the board grid
    columns = 4                      # optional (default 4); fewer only with one row
    life_markers = 1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.spec import _read_toml, game_folders, game_names, line_of, spec_path


@dataclass(frozen=True)
class ReducedCount:
    """One count that differs from the full game.

    Attributes:
        name: the count (a manifest fact name for Dawn Under, e.g. ``vampires_per_colour``).
        value: the reduced value (an int, or a list of strings for colour lists).
        full: the full game's value.
        why: why it was reduced (provenance of the reduction).
    """

    name: str
    value: int | tuple[str, ...]
    full: int | tuple[str, ...]
    why: str


@dataclass(frozen=True)
class ReducedSpec:
    """A validated reduced configuration.

    Attributes:
        game: ``dawn-under`` or ``dracula``.
        name: its name (the file stem).
        description: one line.
        players: number of players.
        preset: Dawn Under rule set (``du-en``, ``du-cs``, ``2p``); empty for Dracula.
        board: Dawn Under board file (resolved path; empty for Dracula).
        seeds: Dawn Under: the seeded deals explored; empty for Dracula (all enumerated).
        options: rule options (name -> value string).
        counts: the reduced counts, by name.
        encounter, action: Dracula: ids of the kept cards.
        rows, columns, life_markers: Dracula: the board grid and life markers per side.
        path: the file it was read from.
        images: Dawn Under: the roots are the seeded deals and all their images under colour
            renaming and seat rotation (a set of roots closed under the symmetry group).
    """

    game: str
    name: str
    description: str
    players: int
    preset: str
    board: str
    seeds: tuple[int, ...]
    options: tuple[tuple[str, str], ...]
    counts: tuple[ReducedCount, ...]
    encounter: tuple[str, ...] = ()
    action: tuple[str, ...] = ()
    rows: int = 0
    life_markers: int = 0
    path: str = ""
    columns: int = 4
    images: bool = False

    def count(self, name: str, default: int) -> int:
        """The reduced integer ``name``, or ``default`` (the full value) if not reduced."""
        for c in self.counts:
            if c.name == name and isinstance(c.value, int):
                return c.value
        return default

    def strings(self, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """The reduced string list ``name``, or ``default``."""
        for c in self.counts:
            if c.name == name and isinstance(c.value, tuple):
                return c.value
        return default


def _value(raw: Any) -> int | tuple[str, ...] | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        return tuple(raw)
    return None


def _board_file(board: str, path: Path) -> Path | None:
    """A board named in a reduced file: shipped (relative to spec/) or a user file (absolute,
    or relative to the reduced file's folder)."""
    for candidate in (spec_path(*board.split("/")), path.parent / board, Path(board)):
        if candidate.is_file():
            return candidate
    return None


def load_reduced(path: Path) -> ReducedSpec:
    """Load and validate a reduced configuration file.

    Raises:
        MalformedInput: naming file, line and the broken field (all problems of the counts
            are collected into one message).
    """
    data, text = _read_toml(path)
    file = str(path)

    def fail(what: str, key: str | None = None) -> MalformedInput:
        return MalformedInput(what, file=file, line=line_of(text, key) if key else None)

    game = data.get("game")
    if game not in game_names():
        raise fail(f"'game' must be one of {', '.join(game_names())}, got {game!r}", "game")
    for key in ("name", "description"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise fail(f"'{key}' must be a non-empty string", key)
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
        raise fail(f"'players' must be an integer 2..6, got {players!r}", "players")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str | bool)
                                                for v in options.values()):
        raise fail("'options' must be a table of option names to strings", "options")
    opts = tuple(sorted((str(k), str(v).lower()) for k, v in options.items()))
    raw_counts = data.get("count", {})
    if not isinstance(raw_counts, dict) or not raw_counts:
        raise fail("expected at least one [count.NAME] table: a reduced configuration "
                   "says which counts it reduces")
    counts: list[ReducedCount] = []
    problems: list[str] = []
    for name, entry in raw_counts.items():
        if not isinstance(entry, dict):
            problems.append(f"count {name}: must be a table")
            continue
        unknown = set(entry) - {"value", "full", "why"}
        value, full = _value(entry.get("value")), _value(entry.get("full"))
        why = entry.get("why")
        if unknown:
            problems.append(f"count {name}: unknown field(s) {', '.join(sorted(unknown))}")
        if value is None or full is None:
            problems.append(f"count {name}: 'value' and 'full' must be integers or string lists")
        elif type(value) is not type(full):
            problems.append(f"count {name}: 'value' and 'full' must have the same type")
        elif value == full:
            problems.append(f"count {name}: value equals the full game's; not a reduction")
        if not isinstance(why, str) or not why.strip():
            problems.append(f"count {name}: 'why' must say why it was reduced")
        if value is not None and full is not None and isinstance(why, str):
            counts.append(ReducedCount(str(name), value, full, why))
    if problems:
        raise MalformedInput("; ".join(problems), file=file, line=line_of(text, "[count."))
    preset, board, seeds = "", "", ()
    encounter: tuple[str, ...] = ()
    action: tuple[str, ...] = ()
    rows = life = 0
    columns = 4
    if game == "dawn-under":
        preset = data.get("preset", "du-en")
        board = data.get("board", "")
        if not isinstance(board, str) or not board or _board_file(board, path) is None:
            raise fail(f"'board' must name a board file (under spec/, or relative to this "
                       f"file), got {board!r}", "board")
        board = str(_board_file(board, path))
        raw_seeds = data.get("seeds")
        if (not isinstance(raw_seeds, list) or not raw_seeds or not all(
                isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in raw_seeds)):
            raise fail("'seeds' must list the seeded deals explored (non-negative integers)",
                       "seeds")
        seeds = tuple(raw_seeds)
        if not isinstance(data.get("images", False), bool):
            raise fail("'images' must be true or false", "images")
    else:
        if players != 2:
            raise fail("dracula is played by 2 players", "players")
        enc, act = data.get("encounter"), data.get("action")
        if not isinstance(enc, list) or not enc or not all(isinstance(c, str) for c in enc):
            raise fail("'encounter' must list the kept encounter card ids", "encounter")
        if not isinstance(act, list) or not act or not all(isinstance(c, str) for c in act):
            raise fail("'action' must list the kept action card ids", "action")
        encounter, action = tuple(enc), tuple(act)
        raw_rows, raw_life = data.get("rows"), data.get("life_markers")
        if not isinstance(raw_rows, int) or not 1 <= raw_rows <= 3:
            raise fail("'rows' must be 1..3 (the board keeps its 4 columns)", "rows")
        if not isinstance(raw_life, int) or not 1 <= raw_life <= 4:
            raise fail("'life_markers' must be 1..4", "life_markers")
        rows, life = raw_rows, raw_life
        columns = data.get("columns", 4)
        if not isinstance(columns, int) or not 2 <= columns <= 4 or (columns < 4 and rows != 1):
            raise fail("'columns' must be 2..4, and below 4 only with one row (location names "
                       "a1, b1, ... stay those of the full board)", "columns")
    return ReducedSpec(game=str(game), name=data["name"], description=data["description"],
                       players=players, preset=str(preset), board=str(board), seeds=seeds,
                       options=opts, counts=tuple(counts), encounter=encounter, action=action,
                       rows=int(rows), life_markers=int(life), path=file,
                       images=bool(data.get("images", False)), columns=int(columns))


def reduced_files() -> dict[str, Path]:
    """Name -> file of every reduced configuration shipped in a game folder's ``reduced/``."""
    return {p.stem: p for folder in game_folders()
            for p in sorted(folder.glob("reduced/*.toml")) if p.stem != "expected"}


def shipped_reduced() -> tuple[str, ...]:
    """Names of the reduced configurations shipped in ``spec/<game>/reduced/``."""
    return tuple(sorted(reduced_files()))


@cache
def reduced(name_or_path: str) -> ReducedSpec:
    """A shipped reduced configuration by name, or one read from a file path.

    Raises:
        MalformedInput: unknown name (naming the shipped ones) or an invalid file.
    """
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        return load_reduced(Path(name_or_path))
    if name_or_path not in shipped_reduced():
        raise MalformedInput(f"unknown reduced configuration {name_or_path!r}; shipped: "
                             f"{', '.join(shipped_reduced())}")
    return load_reduced(reduced_files()[name_or_path])


@dataclass(frozen=True)
class Expected:
    """The pinned result of exploring one reduced configuration (``spec/GAME/reduced/expected.toml``).

    Attributes:
        name: the reduced configuration.
        symmetry: whether symmetry reduction was on.
        distinct_states: distinct states (orbits, with symmetry) reached.
        depth: the BFS depth (length of the longest shortest path).
        terminal, dead_ends, traps, violations: counts.
        cycles: whether the state graph has a cycle (a game that can go on for ever).
        profile: the profile that runs it (``ci`` or ``thorough``).
    """

    name: str
    symmetry: bool
    distinct_states: int
    depth: int
    terminal: int
    dead_ends: int
    traps: int
    violations: int
    cycles: bool
    profile: str


def expected_results(path: Path | None = None) -> tuple[Expected, ...]:
    """The pinned results manifest (default ``spec/GAME/reduced/expected.toml``).

    Raises:
        MalformedInput: a missing or mistyped field (file and line).
    """
    if path is None:
        return tuple(e for folder in game_folders() if (folder / "reduced/expected.toml").is_file()
                     for e in expected_results(folder / "reduced" / "expected.toml"))
    data, text = _read_toml(path)
    out: list[Expected] = []
    for entry in data.get("result", []):
        try:
            out.append(Expected(
                name=str(entry["name"]), symmetry=bool(entry["symmetry"]),
                distinct_states=int(entry["distinct_states"]), depth=int(entry["depth"]),
                terminal=int(entry["terminal"]), dead_ends=int(entry["dead_ends"]),
                traps=int(entry["traps"]), violations=int(entry["violations"]),
                cycles=bool(entry["cycles"]), profile=str(entry["profile"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedInput(f"result {entry.get('name')!r}: missing or bad field {exc}",
                                 file=str(path), line=line_of(text, str(entry.get("name")))
                                 ) from None
    return tuple(out)
