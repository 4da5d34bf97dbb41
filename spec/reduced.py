"""Reduced configurations: small set-ups of a game, explored to the last state.

A reduced configuration (``spec/<game>/reduced/<name>.toml``) names a game and the component
counts it shrinks, each with the full game's value and why it was reduced (its provenance).
Exhaustive exploration (``ruleproof explore``, docs/explore.md) proves things about the
*reduced* game only; the file says exactly which counts differ from the full one.

This module reads the part of the format every game shares (all keys required unless marked
optional)::

    game = "GAME"                    # a registered game's name
    name = "NAME"                    # unique, the file's stem
    description = "one line"
    players = 3                      # a player count the game has
    options = { name = "value" }     # optional rule options

    whole = false                    # true: the game explored unreduced (then no [count] table)
    [count.NAME]                     # one table per reduced count
    value = 2                        # the reduced value (an integer or a list of strings)
    full = 10                        # the full game's value
    why = "reason"

Every other top-level key belongs to the game: it is kept as read (:attr:`ReducedSpec.table`)
and parsed and validated by the game's ``explore`` capability
(``properties/explore/games.py``, ``properties/<game>/explore.py``), which also checks the
counts' names and full values against the game's data. The spec layer sits below the games'
models, so nothing here knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.spec import _read_toml, game_folders, line_of, table_lines

COMMON_KEYS = ("game", "name", "description", "players", "options", "count", "whole",
               "playout")
"""The top-level keys every reduced configuration has (the rest are the game's own)."""

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
"""A reduced configuration's ``name``: it names files and folders (``explore-NAME``, the
checkpoints), so no path separators and no leading dot."""


@dataclass(frozen=True)
class ReducedCount:
    """One count that differs from the full game.

    Attributes:
        name: the count (the game decides which names it knows, e.g. a component fact).
        value: the reduced value (an int, or a tuple of strings for lists).
        full: the full game's value.
        why: why it was reduced (provenance of the reduction).
    """

    name: str
    value: int | tuple[str, ...]
    full: int | tuple[str, ...]
    why: str


@dataclass(frozen=True)
class ReducedSpec:
    """A reduced configuration, its common part validated.

    Attributes:
        game: the game's name (checked against the registry by the explorer, not here).
        name: its name (the file stem).
        description: one line.
        players: number of players (a positive integer; the explorer checks it is one of the
            game's counts).
        options: rule options (name -> value string), sorted by name.
        counts: the reduced counts, in file order.
        path: the file it was read from.
        table: the game's own top-level keys, as read from TOML (every key not in
            :data:`COMMON_KEYS`); the game's ``explore`` capability parses them.
        text: the file's text (for line numbers in the game's messages).
        playout: ``(seed, actions)`` of the ``[playout]`` table, or None: the set-up starts
            where that many random legal actions (``random.Random(seed)``, uniform over each
            state's successors in the model's order) lead from each root, so what an
            exploration then covers is reachable from the real start
            (:func:`ruleproof.properties.explore.games.started_roots`).
    """

    game: str
    name: str
    description: str
    players: int
    options: tuple[tuple[str, str], ...]
    counts: tuple[ReducedCount, ...]
    path: str = ""
    table: Mapping[str, Any] = field(default_factory=dict, hash=False)
    text: str = field(default="", compare=False, repr=False)
    playout: tuple[int, int] | None = None

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

    def line(self, key: str) -> int | None:
        """The 1-based line of the top-level key ``key`` (``key = ...`` or its table header,
        :func:`key_position`), else of the first line mentioning it, else None."""
        at = key_position(self.text, key)
        return at[0] if at is not None else line_of(self.text, key)

    def count_line(self, name: str) -> int | None:
        """The 1-based line of the table ``[count.NAME]`` (see :func:`count_line`)."""
        return count_line(self.text, name)

    def refuse_unknown(self, known: tuple[str, ...]) -> None:
        """Refuse a top-level key that is neither common (:data:`COMMON_KEYS`) nor one of the
        game's ``known`` keys: a misspelt key would otherwise be ignored silently.

        Raises:
            MalformedInput: at the unknown key that comes first in the file (file:line:col),
                listing the known ones.
        """
        unknown = set(self.table) - set(known)
        if not unknown:
            return
        placed = sorted((key_position(self.text, k) or (1 << 30, 0), k) for k in unknown)
        (line, col), key = placed[0]
        keys = (f"its keys: {', '.join(known)}, besides {', '.join(COMMON_KEYS)}" if known
                else f"it has only the common keys {', '.join(COMMON_KEYS)}")
        raise MalformedInput(f"unknown key {key!r} in a reduced {self.game} file ({keys})",
                             file=self.path, line=None if line == 1 << 30 else line,
                             col=col or None)

    def error(self, what: str, key: str | None = None) -> MalformedInput:
        """A MalformedInput naming this file and, if ``key`` is given, its line."""
        return MalformedInput(what, file=self.path, line=self.line(key) if key else None)


def count_line(text: str, name: str) -> int | None:
    """The 1-based line where the count ``name`` is given: its ``[count.NAME]`` header, else
    the first line naming ``count.NAME`` (a dotted key), else the first ``[count.`` table."""
    if not name:
        return line_of(text, "[count.")
    return line_of(text, f"[count.{name}]") or line_of(text, f"count.{name}") \
        or line_of(text, "[count.")


def problem_count(problem: str) -> str:
    """The count a problem line ``count NAME: ...`` is about ("" for another line)."""
    head = problem.split(":", 1)[0]
    return head.removeprefix("count ") if head.startswith("count ") else ""


def _value(raw: Any) -> int | tuple[str, ...] | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        return tuple(raw)
    return None


def load_reduced(path: Path) -> ReducedSpec:
    """Load a reduced configuration file and validate its common part (the game's own keys
    are validated by the game's ``explore`` capability).

    Raises:
        MalformedInput: naming file, line and the broken field (all problems of the counts
            are collected into one message).
    """
    data, text = _read_toml(path)
    file = str(path)
    probe = ReducedSpec("", "", "", 0, (), (), path=file, text=text)

    def fail(what: str, key: str | None = None) -> MalformedInput:
        return probe.error(what, key)

    for key, example in (("game", "a registered game: ruleproof games lists them"),
                         ("name", 'name = "my-set-up"'),
                         ("description", 'description = "..."'), ("players", "players = 2")):
        if key not in data:  # no line to point at: the file's whole text lacks it
            raise fail(f"'{key}' is missing: a reduced configuration needs it ({example})")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise fail(f"'game' must name a game, got {game!r}", "game")
    for key in ("name", "description"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise fail(f"'{key}' must be a non-empty string", key)
    if not NAME_PATTERN.fullmatch(data["name"]):
        raise fail(f"'name' must be letters, digits, '.', '_' and '-', starting with a letter or "
                   f"digit (it names files and folders: explore-NAME), got {data['name']!r}",
                   "name")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise fail(f"'players' must be a positive integer, got {players!r}", "players")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str | bool)
                                                for v in options.values()):
        raise fail("'options' must be a table of option names to strings", "options")
    opts = tuple(sorted((str(k), str(v).lower()) for k, v in options.items()))
    raw_counts = data.get("count", {})
    whole = data.get("whole", False)
    if not isinstance(whole, bool):
        raise fail(f"'whole' must be true or false, got {whole!r}", "whole")
    if not isinstance(raw_counts, dict):
        raise fail("'count' must be tables [count.NAME] (each with value, full and why), got "
                   + repr(raw_counts)[:80], "count")
    if not raw_counts and not whole:
        raise fail("expected at least one [count.NAME] table: a reduced configuration "
                   "says which counts it reduces (or 'whole = true' for a game small enough "
                   "to explore unreduced)")
    if whole and raw_counts:
        raise fail("'whole = true' explores the game unreduced: drop the [count.NAME] tables",
                   "whole")
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
    if problems:  # at the table of the first count with a problem
        raise MalformedInput("; ".join(problems), file=file,
                             line=count_line(text, problem_count(problems[0])))
    own = {k: v for k, v in data.items() if k not in COMMON_KEYS}
    return ReducedSpec(game=game, name=data["name"], description=data["description"],
                       players=players, options=opts, counts=tuple(counts), path=file,
                       table=own, text=text, playout=_playout(data.get("playout"), probe))


def key_position(text: str, key: str, table: str | None = None) -> tuple[int, int] | None:
    """``(line, column)`` (1-based) where the top-level ``key`` is given in the TOML ``text``
    (``key = ...`` or ``key.sub = ...`` before any table, or a ``[key]``, ``[key.sub]`` or
    ``[[key]]`` header), or with ``table`` where ``key = ...`` is given inside ``[table]``;
    None if not found. Comments are skipped."""
    name = re.escape(key)
    assign = re.compile(r"^(\s*)[\"']?" + name + r"[\"']?\s*[=.]")
    header = re.compile(r"^(\s*)\[\[?\s*[\"']?" + name + r"[\"']?\s*[\].]")
    wanted = None if table is None else re.compile(r"^\[\s*" + re.escape(table) + r"\s*\]")
    current: str | None = None  # the header of the table a line is in (None: top level)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            if table is None:
                m = header.match(line)
                if m:
                    return number, len(m.group(1)) + 1
            current = stripped
            continue
        here = current is None if wanted is None else (
            current is not None and wanted.match(current) is not None)
        if here:
            m = assign.match(line)
            if m:
                return number, len(m.group(1)) + 1
    return None


PLAYOUT_MAX_ACTIONS = 100_000
"""The longest ``[playout]`` accepted (a bound, so that a playout in a game that can go on
for ever still ends)."""


def _playout(raw: Any, probe: ReducedSpec) -> tuple[int, int] | None:
    """``(seed, actions)`` of a ``[playout]`` table (see :class:`ReducedSpec`), or None.

    Raises:
        MalformedInput: not a table of exactly ``seed`` (a whole number 0..2**63-1) and
            ``actions`` (a whole number 1..:data:`PLAYOUT_MAX_ACTIONS`), at the key or value
            that is wrong (file:line:col).
    """
    if raw is None:
        return None
    text = probe.text

    def fail(what: str, key: str | None = None) -> MalformedInput:
        at = (key_position(text, key, "playout") if key else None) or \
            key_position(text, "playout")
        return MalformedInput(what, file=probe.path, line=at[0] if at else None,
                              col=at[1] if at else None)

    if not isinstance(raw, dict):
        raise fail("'playout' must be a table: [playout] with 'seed' and 'actions'")
    extra = sorted(set(raw) - {"seed", "actions"})
    if extra:
        raise fail(f"unknown key {extra[0]!r} in [playout] (its keys: seed, actions)", extra[0])
    for key, lo, hi, what in (("seed", 0, 2**63 - 1, "the seed of the random playout"),
                              ("actions", 1, PLAYOUT_MAX_ACTIONS,
                               "how many random legal actions lead to the start")):
        if key not in raw:
            raise fail(f"[playout] needs '{key}' ({what})")
        value = raw[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise fail(f"[playout] {key} must be a whole number {lo}..{hi:,} ({what}), got "
                       f"{value!r}", key)
    return int(raw["seed"]), int(raw["actions"])


def playout_position(text: str) -> tuple[int | None, int | None]:
    """``(line, column)`` of the ``[playout]`` table (or ``playout = ...`` key) in ``text``,
    for messages about the playout as a whole; ``(None, None)`` if absent."""
    at = key_position(text, "playout")
    return (at[0], at[1]) if at else (None, None)


def reduced_files(folders: tuple[Path, ...] | None = None) -> dict[str, Path]:
    """Name -> file of every reduced configuration in a game folder's ``reduced/``
    (``folders``: the games' data folders; default every folder shipped in ``spec/``)."""
    return {p.stem: p for folder in (game_folders() if folders is None else folders)
            for p in sorted(folder.glob("reduced/*.toml")) if p.stem != "expected"}


def shipped_reduced(folders: tuple[Path, ...] | None = None) -> tuple[str, ...]:
    """Names of the reduced configurations in ``folders`` (default: ``spec/<game>/reduced/``)."""
    return tuple(sorted(reduced_files(folders)))


@cache
def reduced(name_or_path: str, folders: tuple[Path, ...] | None = None) -> ReducedSpec:
    """A reduced configuration by name (one in ``folders``, default the shipped game folders),
    or one read from a file path (its common part validated, see :func:`load_reduced`).

    Raises:
        MalformedInput: unknown name (naming the known ones) or an invalid file.
    """
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        return load_reduced(Path(name_or_path))
    files = reduced_files(folders)
    if name_or_path not in files:
        raise MalformedInput(f"unknown reduced configuration {name_or_path!r}; shipped: "
                             f"{', '.join(sorted(files))}")
    return load_reduced(files[name_or_path])


@dataclass(frozen=True)
class Expected:
    """The pinned result of exploring one reduced configuration (``spec/<game>/reduced/expected.toml``).

    Attributes:
        name: the reduced configuration.
        symmetry: whether symmetry reduction was on.
        distinct_states: distinct states (orbits, with symmetry) reached.
        depth: the BFS depth (length of the longest shortest path).
        terminal, dead_ends, traps, violations: counts.
        cycles: whether the state graph has a cycle (a game that can go on for ever).
        profile: the profile that runs it (``ci`` or ``thorough``).
        compact: explored with compact state storage (``compact = true``: fingerprints in a
            compact set, parent pointers on disk) and no state graph, for set-ups of millions
            of states; ``traps`` and ``cycles`` need the graph, so they are not analysed and
            are None (the file leaves them out).
    """

    name: str
    symmetry: bool
    distinct_states: int
    depth: int
    terminal: int
    dead_ends: int
    traps: int | None
    violations: int
    cycles: bool | None
    profile: str
    compact: bool = False


_PIN_INTS = ("distinct_states", "depth", "terminal", "dead_ends", "violations")


def _expected(entry: dict[str, Any], path: Path, text: str, head: int) -> Expected:
    """One ``[[result]]`` table (its header on line ``head``), every field of its type.

    Raises:
        MalformedInput: a missing field or one of another type, at its line in the entry.
    """
    name = entry.get("name")

    def bad(key: str, what: str) -> MalformedInput:
        return MalformedInput(f"result {name!r}: {what}", file=str(path),
                              line=line_of(text, f"{key} =", head) if key in entry else head)

    def get(key: str, kind: type, what: str) -> Any:
        if key not in entry:
            raise bad(key, f"missing field {key!r} ({what})")
        value: Any = entry[key]
        wrong = not isinstance(value, kind)
        if kind is int:
            wrong = wrong or isinstance(value, bool) or value < 0
        if wrong:
            raise bad(key, f"{key!r} must be {what}, got {value!r}")
        return value

    name = get("name", str, "a configuration's name")
    compact = get("compact", bool, "true or false") if "compact" in entry else False
    graph = [k for k in ("traps", "cycles") if k in entry]
    if compact and graph:
        raise bad(graph[0], f"{' and '.join(graph)} need the state graph, which a compact "
                            "exploration does not keep: leave them out")
    ints = {k: get(k, int, "a whole number >= 0") for k in _PIN_INTS}
    return Expected(
        name=name, symmetry=get("symmetry", bool, "true or false"),
        traps=None if compact else get("traps", int, "a whole number >= 0"),
        cycles=None if compact else get("cycles", bool, "true or false"),
        profile=get("profile", str, "a profile name such as ci or thorough"),
        compact=compact, **ints)


def expected_results(path: Path | None = None, folders: tuple[Path, ...] | None = None
                     ) -> tuple[Expected, ...]:
    """The pinned results manifest ``path``; default every ``reduced/expected.toml`` of
    ``folders`` (the games' data folders; default those shipped in ``spec/``).

    Raises:
        MalformedInput: a missing or mistyped field (file and line).
    """
    if path is None:
        return tuple(e for folder in (game_folders() if folders is None else folders)
                     if (folder / "reduced/expected.toml").is_file()
                     for e in expected_results(folder / "reduced" / "expected.toml"))
    data, text = _read_toml(path)
    entries = data.get("result", [])
    heads = table_lines(text, "result")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries) \
            or len(heads) != len(entries):
        raise MalformedInput("'result' must be [[result]] tables", file=str(path),
                             line=line_of(text, "result"))
    out: list[Expected] = []
    for entry, head in zip(entries, heads, strict=True):
        out.append(_expected(entry, path, text, head))
    return tuple(out)
