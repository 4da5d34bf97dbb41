"""The game-trace format (JSON Lines, version 1): reading, validating and writing.

A trace is a header line and one line per action (docs/conformance.md, schema in
``spec/schemas/trace.schema.json``)::

    {"format": "ruleproof-trace", "version": 1, "game": "dawn-under", "players": 3, "seed": 7}
    {"step": 1, "player": 0, "action": "open 12"}
    {"step": 2, "player": 0, "action": "leave 12", "state": {"turn_player": 1}}

Every problem is a :class:`~ruleproof.properties.conformance.jsonsafe.TraceError` with line and column;
reading never executes anything and never raises anything else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.games import EXPANSION_KEY, PRESET_KEY, GameModel, model_of
from ruleproof.properties.conformance.jsonsafe import (
    JsonLine,
    TraceError,
    column_of_key,
    parse_bytes,
    read_lines,
)

FORMAT = "ruleproof-trace"
"""Value of the header's ``format`` field."""
VERSION = 1
"""The trace format version this code reads and writes."""
MAX_STRING = 10_000
"""Longest string accepted anywhere in a trace."""

HEADER_KEYS = frozenset({"format", "version", "game", "players", "preset", "expansion",
                         "options", "seed",
                         "setup",
                         "engine", "note", "state", "legal", "observation", "engine_failure",
                         "state_unusable", "observation_unusable"})
STEP_KEYS = frozenset({"step", "player", "action", "state", "legal", "observation",
                       "engine_failure", "rejected", "state_unusable",
                       "observation_unusable"})


@dataclass(frozen=True)
class Expectations:
    """What a line claims about the position after it (all optional).

    Attributes:
        state: public-state fields (any subset of the game's fields).
        legal: the legal action strings, as a set.
        observation: an observation: ``player`` plus public-state fields.
        engine_failure: the recording engine failed here (crash, hang...): its report.
        rejected: the recording engine refused this line's action: its reason.
        state_unusable: public-state fields the recording engine reported in a form a trace
            cannot hold (unknown or mistyped, left out, out of range): field name -> what was
            wrong. Replay reports them as a ``state`` divergence.
        observation_unusable: the same for an observation: ``player`` plus field name -> what
            was wrong; replay reports an ``observation`` divergence.
    """

    state: Mapping[str, Any] | None = None
    legal: frozenset[str] | None = None
    observation: Mapping[str, Any] | None = None
    engine_failure: str | None = None
    rejected: str | None = None
    state_unusable: Mapping[str, str] | None = None
    observation_unusable: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class TraceStep:
    """One action line."""

    number: int
    line: int
    player: int | None
    action: str
    expect: Expectations = field(default_factory=Expectations)
    text: str = ""


@dataclass(frozen=True)
class TraceHeader:
    """The first line: format version, game, options, players, seed or set-up."""

    game: str
    players: int
    options: Mapping[str, str]
    seed: int | None = None
    setup: Mapping[str, Any] | None = None
    engine: str | None = None
    note: str | None = None
    expect: Expectations = field(default_factory=Expectations)
    version: int = VERSION
    text: str = ""


@dataclass(frozen=True)
class Trace:
    """A parsed, validated trace."""

    path: str
    header: TraceHeader
    steps: tuple[TraceStep, ...]


HIDDEN = "?"
"""The action of a partial log's step whose action was not shown (``conform --log``)."""


def read_trace(path: Path, *, partial: bool = False) -> Trace:
    """Read and validate a trace file.

    With ``partial`` (a recorded log, ``conform --log``) step numbers may jump (the steps in
    between are missing: played, not recorded) and an action may be :data:`HIDDEN` (``"?"``:
    played, not shown, e.g. the other side's secret choice or a face-down draw).

    Raises:
        TraceError: (a MalformedInput) naming file, line and column of the first problem.
    """
    return _parse(read_lines(path), str(path), partial)


def parse_trace(data: bytes | str, *, file: str = "<trace>") -> Trace:
    """Validate a trace held in memory (see :func:`read_trace`).

    Raises:
        TraceError: naming line and column of the first problem.
    """
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data
    return _parse(parse_bytes(raw, file=file), file)


def _parse(lines: Iterable[JsonLine], file: str, partial: bool = False) -> Trace:
    iterator = iter(lines)
    first = next(iterator, None)
    if first is None:
        raise TraceError("empty trace: expected a header line", file=file, line=1, column=1)
    header = _header(first, file)
    game = model_of(header.game)
    _check_header_setup(header, game, first, file)
    steps: list[TraceStep] = []
    for jl in iterator:
        steps.append(_step(jl, file, (steps[-1].number if steps else 0) + 1, header, game,
                           partial))
    return Trace(file, header, tuple(steps))


def _fail(what: str, file: str, jl: JsonLine, key: str | None = None) -> TraceError:
    column = column_of_key(jl.text, key) if key else 1
    return TraceError(what, file=file, line=jl.number, column=column or 1)


def _check_strings(value: Any, file: str, jl: JsonLine) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and len(item) > MAX_STRING:
            raise _fail(f"a string longer than {MAX_STRING} characters", file, jl)
        if isinstance(item, float):
            raise _fail("numbers in a trace are integers", file, jl)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _int(obj: Mapping[str, Any], key: str, file: str, jl: JsonLine, *, low: int | None = None,
         required: bool = True) -> int | None:
    if key not in obj:
        if required:
            raise _fail(f"missing field {key!r}", file, jl)
        return None
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(f"field {key!r} must be an integer, got {type(value).__name__}", file, jl, key)
    if low is not None and value < low:
        raise _fail(f"field {key!r} must be at least {low}, got {value}", file, jl, key)
    return value


def _str(obj: Mapping[str, Any], key: str, file: str, jl: JsonLine, *,
         required: bool = True) -> str | None:
    if key not in obj:
        if required:
            raise _fail(f"missing field {key!r}", file, jl)
        return None
    value = obj[key]
    if not isinstance(value, str):
        raise _fail(f"field {key!r} must be a string, got {type(value).__name__}", file, jl, key)
    return value


def _object(jl: JsonLine, file: str, what: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(jl.value, dict):
        raise _fail(f"the {what} must be a JSON object", file, jl)
    _check_strings(jl.value, file, jl)
    unknown = sorted(set(jl.value) - keys)
    if unknown:
        raise _fail(f"unknown field {unknown[0]!r} in the {what}; expected "
                    f"{', '.join(sorted(keys))}", file, jl, unknown[0])
    return jl.value


def _header(jl: JsonLine, file: str) -> TraceHeader:
    if not isinstance(jl.value, dict) or jl.value.get("format") != FORMAT:
        raise _fail(f"the first line must be a header with \"format\": \"{FORMAT}\"", file, jl,
                    "format" if isinstance(jl.value, dict) and "format" in jl.value else None)
    obj = _object(jl, file, "header", HEADER_KEYS)
    version = _int(obj, "version", file, jl)
    if version != VERSION:
        raise _fail(f"unsupported trace version {version}; this reader knows version {VERSION}",
                    file, jl, "version")
    game = _str(obj, "game", file, jl)
    assert game is not None
    try:
        model_of(game)
    except MalformedInput as exc:
        raise _fail(exc.what, file, jl, "game") from None
    players = _int(obj, "players", file, jl)
    assert players is not None
    options = obj.get("options", {})
    if not isinstance(options, dict) or not all(
            isinstance(v, str | bool) for v in options.values()):
        raise _fail("'options' must be an object of rule option names to string values", file, jl,
                    "options")
    preset = _str(obj, "preset", file, jl, required=False)
    if preset is not None and PRESET_KEY in options:
        raise _fail("give the preset once: in 'preset', not also in 'options'", file, jl,
                    "preset")
    if preset is not None:
        options = {**options, PRESET_KEY: preset}
    expansion = _str(obj, "expansion", file, jl, required=False)
    if expansion is not None and EXPANSION_KEY in options:
        raise _fail("give the expansion once: in 'expansion', not also in 'options'", file,
                    jl, "expansion")
    if expansion is not None:
        options = {**options, EXPANSION_KEY: expansion}
    seed = _int(obj, "seed", file, jl, low=0, required=False)
    setup = obj.get("setup")
    if (seed is None) == (setup is None):
        raise _fail("the header needs exactly one of 'seed' and 'setup'", file, jl,
                    "setup" if setup is not None else None)
    if setup is not None and not isinstance(setup, dict):
        raise _fail("'setup' must be an object", file, jl, "setup")
    return TraceHeader(
        game=game, players=players,
        options={k: str(v).lower() if isinstance(v, bool) else v for k, v in options.items()},
        seed=seed, setup=setup, engine=_str(obj, "engine", file, jl, required=False),
        note=_str(obj, "note", file, jl, required=False),
        expect=_expectations(obj, file, jl, model_of(game), players), version=version,
        text=jl.text)


def _check_header_setup(header: TraceHeader, game: GameModel, jl: JsonLine, file: str) -> None:
    try:
        game.start(header.players, header.options, header.seed, header.setup)
    except MalformedInput as exc:
        key = "preset" if header.options.get(PRESET_KEY) and "preset" in exc.what else (
            "players") if "player" in exc.what else "preset" if "preset" in exc.what else (
            "options" if "option" in exc.what else "setup" if header.setup is not None
            else "seed")
        raise _fail(exc.what, file, jl, key) from None


def _expectations(obj: Mapping[str, Any], file: str, jl: JsonLine, game: GameModel,
                  players: int) -> Expectations:
    state = obj.get("state")
    if state is not None:
        state = _state_object(state, "state", file, jl, game, frozenset())
    observation = obj.get("observation")
    if observation is not None:
        observation = _state_object(observation, "observation", file, jl, game,
                                    frozenset({"player"}))
        who = observation.get("player")
        if not isinstance(who, int) or isinstance(who, bool) or not 0 <= who < players:
            raise _fail(f"'observation' needs a 'player' in 0..{players - 1}", file, jl,
                        "observation")
    legal = obj.get("legal")
    if legal is not None and (not isinstance(legal, list)
                              or not all(isinstance(a, str) for a in legal)):
        raise _fail("'legal' must be a list of action strings", file, jl, "legal")
    failure = _str(obj, "engine_failure", file, jl, required=False)
    rejected = _str(obj, "rejected", file, jl, required=False)
    unusable = obj.get("state_unusable")
    if unusable is not None and (not isinstance(unusable, dict) or not unusable or not all(
            isinstance(v, str) for v in unusable.values())):
        raise _fail("'state_unusable' must be a non-empty object of field names to what was "
                    "wrong", file, jl, "state_unusable")
    unseen = obj.get("observation_unusable")
    if unseen is not None:
        who = unseen.get("player") if isinstance(unseen, dict) else None
        if not isinstance(unseen, dict) or not isinstance(who, int) or isinstance(who, bool) or (
                not 0 <= who < players) or len(unseen) < 2 or not all(
                isinstance(v, str) for k, v in unseen.items() if k != "player"):
            raise _fail(f"'observation_unusable' must be an object of a 'player' in "
                        f"0..{players - 1} and field names to what was wrong", file, jl,
                        "observation_unusable")
    return Expectations(state, None if legal is None else frozenset(legal), observation,
                        failure, rejected, unusable, unseen)


def _state_object(value: Any, key: str, file: str, jl: JsonLine, game: GameModel,
                  extra: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(f"'{key}' must be an object of public-state fields", file, jl, key)
    for name, item in value.items():
        if name in extra:
            continue
        problem = game.check_field(name, item)
        if problem is not None:
            raise _fail(f"{key}: {problem}", file, jl, name)
    return value


def _step(jl: JsonLine, file: str, number: int, header: TraceHeader,
          game: GameModel, partial: bool = False) -> TraceStep:
    obj = _object(jl, file, f"step line {number}", STEP_KEYS)
    step = _int(obj, "step", file, jl)
    if partial and isinstance(step, int) and step > number:
        number = step  # the steps before it are missing from the log
    if step != number:
        raise _fail(f"expected step {number}{' or later' if partial else ''}, got {step}",
                    file, jl, "step")
    player = _int(obj, "player", file, jl, low=0, required=False)
    if player is not None and player >= header.players:
        raise _fail(f"player {player} is not one of 0..{header.players - 1}", file, jl, "player")
    action = _str(obj, "action", file, jl)
    assert action is not None
    problem = None if partial and action == HIDDEN else game.check_action(action)
    if problem is not None:
        raise _fail(problem, file, jl, "action")
    return TraceStep(number, jl.number, player, action,
                     _expectations(obj, file, jl, game, header.players), jl.text)


# ----------------------------------------------------------------------------- writing


def header_object(game: str, players: int, options: Mapping[str, str], *,
                  seed: int | None = None, setup: Mapping[str, Any] | None = None,
                  engine: str | None = None, note: str | None = None,
                  extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A header line as a JSON object (``extra`` may carry ``state``/``legal``)."""
    opts = dict(options)
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": game,
                           "players": players}
    if PRESET_KEY in opts:
        out["preset"] = opts.pop(PRESET_KEY)
    if opts.get(EXPANSION_KEY, "none") != "none":
        out["expansion"] = opts.pop(EXPANSION_KEY)
    out["options"] = opts
    if seed is not None:
        out["seed"] = seed
    if setup is not None:
        out["setup"] = dict(setup)
    if engine is not None:
        out["engine"] = engine
    if note is not None:
        out["note"] = note
    out.update(extra or {})
    return out


def dump_lines(objects: Sequence[Mapping[str, Any]]) -> str:
    """JSON Lines text (one compact object per line, newline-terminated)."""
    return "".join(json.dumps(dict(o), separators=(", ", ": ")) + "\n" for o in objects)
