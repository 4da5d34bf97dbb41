"""One scenario format and one runner for every game.

A scenario file (format ``scenario``: ``ruleproof schema scenario``; guide and the list of every
game's actions and facts in docs/scenarios.md) gives a start position, actions (optionally
``"NAME: action"`` to check who acts) and expectations: facts after the last action
(``[expect]``), facts after any number of actions (``[[check]]`` with ``after = N``), actions that
must be refused citing clause ids (``[[refused]]``; the state stays, the scenario goes on), and
optionally several rule readings (``[[reading]]``) run from the same set-up.

What is shared lives here: loading and validating the file (every problem of a file collected
in one pass, each at ``FILE:LINE:COL``), player names, the expectation operators (``NAME``,
``NAME contains``, ``NAME excludes``), the generic facts ``legal`` and ``log``, refusals, the
game log. What is game-specific is the capability ``scenarios`` of the game's plugin record
(:mod:`ruleproof.properties.plugin`), a :class:`ScenarioFacts`: its presets and options, set-up
table, action notation, facts and transition; it lives in the game's folder
(``properties/<game>/scenarios.py``). The file's ``game`` is looked up in the registry when the
file is loaded: a name the registry does not know is reported at its position, naming the
games that have scenarios.

Raises :class:`ruleproof.errors.MalformedInput` for a malformed file; a scenario that does not
hold is a failed :class:`ruleproof.properties.report.CheckResult`, never an exception.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.properties.plugin import plugin, plugins, require
from ruleproof.properties.report import CheckResult
from ruleproof.spec.formats import Problems, TomlFile, read_toml, show, validate
from ruleproof.spec.models import Checkpoint, Refusal, ScenarioTop

OPERATORS = ("contains", "excludes")
CANONICAL_ACTION = re.compile(r"[a-z][a-z0-9-]*( \S+)*")
CANONICAL_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
NAME_TOKEN = re.compile(r"[^\s:.]+")


@dataclass(frozen=True)
class Fact:
    """A fact a scenario may expect.

    Attributes:
        name: the fact's name (``stakes``), written ``stakes.ARG`` when ``arg`` is set.
        arg: what follows the dot: ``player``, ``grave``, ``location``, ``colour`` or None.
        doc: one line for docs/scenarios.md (type and meaning of the value).
        value: (state, parsed argument, context) -> the value as TOML would write it.
        player: the value is a player's name or ``none`` (``winner``): an expectation naming
            no player of the scenario is malformed input at its ``FILE:LINE:COL``, not a
            failed scenario.
    """

    name: str
    arg: str | None
    doc: str
    value: Callable[[Any, Any, RunContext], Any]
    player: bool = False


@dataclass(frozen=True)
class ActionForm:
    """One action form of a game's notation (for docs/scenarios.md)."""

    form: str
    doc: str


class ScenarioFacts(Protocol):
    """What a game supplies to the scenario runner: the capability ``scenarios`` of its plugin
    record (see the module docstring). States and actions are the game's own values, opaque
    to the runner."""

    @property
    def setup_model(self) -> type[BaseModel]:
        """The pydantic model of its ``[setup]`` table."""

    @property
    def facts(self) -> Mapping[str, Fact]:
        """Its facts by name."""

    @property
    def actions(self) -> Sequence[ActionForm]:
        """Its action notation (for the docs)."""

    @property
    def arg_kinds(self) -> Mapping[str, str]:
        """What each fact argument kind may be (for the docs)."""

    def configure(self, top: ScenarioTop, preset: str | None,
                  options: Mapping[str, object], problems: Problems,
                  at: tuple[str | int, ...]) -> Any | None:
        """The game configuration (players, rule set) or None after recording problems."""

    def default_names(self, config: Any) -> tuple[str, ...]:
        """Player names when the file gives none."""

    def start(self, config: Any, setup: BaseModel, names: Sequence[str],
              doc: TomlFile) -> Any:
        """The start state; raises MalformedInput at the offending set-up value."""

    def parse_action(self, config: Any, text: str, names: Sequence[str]) -> Any:
        """A parsed action (opaque to the runner; a tuple when one text stands for several
        steps, which the step-through pages show one by one); ValueError with the expected
        forms."""

    def parse_arg(self, config: Any, kind: str, token: str, names: Sequence[str]) -> Any:
        """A fact argument of ``kind``; ValueError if it is not one."""

    def settle(self, state: Any, action: Any | None) -> Any:
        """The state ready for ``action`` (or for expectations when None): automatic steps."""

    def to_move(self, state: Any) -> int | None:
        """Seat to decide, or None (chance, over)."""

    def apply(self, state: Any, action: Any, names: Sequence[str]) -> tuple[Any, list[str]]:
        """(next state, log lines); raises IllegalAction with the state untouched."""

    def legal(self, state: Any, names: Sequence[str]) -> list[str]:
        """Legal actions in the notation."""

    def broken(self, start: Any, state: Any) -> list[str]:
        """Invariants the state breaks (empty when all hold)."""


@dataclass
class RunContext:
    """What facts may use besides the state: the player names and the game log so far."""

    names: tuple[str, ...]
    log: list[str] = field(default_factory=list)
    game_facts: Any = None


@dataclass(frozen=True)
class Expectation:
    """One expected fact: ``key`` as written, its fact and argument, operator and value."""

    key: str
    fact: Fact
    arg: Any
    op: str | None
    want: Any
    path: tuple[str | int, ...]


@dataclass(frozen=True)
class Reading:
    """One rule reading a scenario runs under."""

    name: str
    config: Any
    start: Any
    expect: tuple[Expectation, ...]
    checks: tuple[tuple[int, tuple[Expectation, ...]], ...]
    refusals: Mapping[int, tuple[str, ...]]
    path: tuple[str | int, ...]


@dataclass(frozen=True)
class LoadedScenario:
    """A validated scenario: actions parsed, expectations resolved, one or more readings."""

    path: str
    title: str
    game: str
    names: tuple[str, ...]
    clauses: tuple[str, ...]
    actions: tuple[tuple[Any, int | None, str], ...]  # parsed action, actor, text
    readings: tuple[Reading, ...]
    ambiguity: str | None
    doc: TomlFile
    game_facts: Any

    @property
    def config(self) -> Any:
        """The configuration of the first reading."""
        return self.readings[0].config

    @property
    def start(self) -> Any:
        """The start state of the first reading."""
        return self.readings[0].start

    def where(self, path: Sequence[str | int]) -> str:
        """``FILE:LINE:COL`` of a key path."""
        line, col = self.doc.where(path)
        return f"{self.path}:{line}:{col}"


class SetupProblems:
    """Base of the games' start-position builders: every problem of a ``[setup]`` table is
    collected (reported together, python-chess style) at its key path in the file."""

    def __init__(self, doc: TomlFile) -> None:
        self.doc = doc
        self.problems = doc.problems()

    def fail(self, path: tuple[str | int, ...], what: str) -> MalformedInput:
        """The error for ``[setup]`` key ``path`` (to raise at once)."""
        return self.doc.error(("setup", *path), what)

    def note(self, path: tuple[str | int, ...], what: str) -> int:
        """Record a problem (all are reported together) and go on with a stand-in value."""
        self.problems.add(("setup", *path), what)
        return 0


CAPABILITY = "scenarios"
"""The plugin capability this runner needs (a :class:`ScenarioFacts`)."""


def scenario_games() -> dict[str, ScenarioFacts]:
    """Every registered game that has scenarios: game name -> its :class:`ScenarioFacts`."""
    out: dict[str, ScenarioFacts] = {}
    for name, p in plugins().items():
        found = p.capability(CAPABILITY)
        if found is not None:
            out[name] = found
    return out


def facts_of(game: str) -> ScenarioFacts:
    """The :class:`ScenarioFacts` of ``game``.

    Raises:
        MalformedInput: a name the registry does not know (naming the games with scenarios), or
            a game without the capability.
    """
    known = scenario_games()
    if game in known:
        return known[game]
    if game not in plugins():
        raise MalformedInput(f"unknown game {show(game)}; known games: {', '.join(known)}")
    found: ScenarioFacts = require(plugin(game), CAPABILITY, "scenario files")
    return found


def generic_facts() -> dict[str, Fact]:
    """Facts every game has: ``legal``, ``log`` and ``seen.P``."""
    return {
        "legal": Fact("legal", None, "list of text: the legal actions, in the game's notation",
                      lambda s, a, c: c.game_facts.legal(s, c.names)),
        "log": Fact("log", None, "text: the game log of the scenario so far (use 'log contains')",
                    lambda s, a, c: "\n".join(c.log)),
    }


def _expectations(game: str, plugin: ScenarioFacts, config: Any, names: Sequence[str],
                  raw: Mapping[str, Any], at: tuple[str | int, ...],
                  problems: Problems) -> tuple[Expectation, ...]:
    facts = {**generic_facts(), **plugin.facts}
    out: list[Expectation] = []
    for key, want in raw.items():
        path = (*at, key)
        name, op = key, None
        for candidate in OPERATORS:
            if key.endswith(" " + candidate):
                name, op = key[:-len(candidate) - 1].rstrip(), candidate
        base, dot, arg_text = name.partition(".")
        if name in facts:
            base, dot, arg_text = name, "", ""
        fact = facts.get(base)
        if fact is None:
            problems.add(path, f"unknown fact {show(base)}; {game} facts: "
                               f"{', '.join(sorted(facts))} (docs/scenarios.md)", at_key=True)
            continue
        if (fact.arg is None) != (not dot):
            problems.add(path, f"fact {base} " + (f"takes no argument, got {show(name)}"
                                                  if fact.arg is None else
                                                  f"needs an argument: {base}.{fact.arg.upper()}"),
                         at_key=True)
            continue
        arg = None
        if fact.arg is not None:
            try:
                arg = plugin.parse_arg(config, fact.arg, arg_text, names)
            except ValueError as exc:
                problems.add(path, f"fact {show(name)}: {exc}", at_key=True)
                continue
        if op is not None and not isinstance(want, (str, list)):
            problems.add(path, f"{show(key)} needs a text or a list, got {show(want)}")
            continue
        if fact.player and op is None and want not in (*names, "none"):
            problems.add(path, f"{show(key)}: {show(want)} is not a player of this scenario "
                               f"(players: {', '.join(names)}; or 'none')")
            continue
        out.append(Expectation(key, fact, arg, op, want, path))
    return tuple(out)


def player_of(token: object, names: Sequence[str]) -> int:
    """Index of the player called ``token``.

    Raises:
        ValueError: naming the players.
    """
    if isinstance(token, str) and token in names:
        return names.index(token)
    raise ValueError(f"{show(token)} is not a player (players: {', '.join(names)})")


def grave_number(token: str, size: int) -> int:
    """A grave/board number written canonically (ASCII digits, no leading zero) in range.

    Raises:
        ValueError: otherwise.
    """
    if not CANONICAL_NUMBER.fullmatch(token) or int(token) >= size:
        raise ValueError(f"{show(token)} is not a grave number 0..{size - 1} "
                         "(ASCII digits, no leading zeros)")
    return int(token)


def load(path: Path, *, preset: str | None = None,
         options: Mapping[str, str] | None = None) -> LoadedScenario:
    """Load and validate a scenario file of any game; ``preset``/``options`` (from the command
    line) replace the file's preset and override its options.

    Raises:
        MalformedInput: every problem of the file, the first in the message and the rest in
            ``more`` (``FILE:LINE:COL: what``); a ``game`` the registry does not know is one of
            them (at its value, naming the games with scenarios).
    """
    doc = read_toml(path)
    problems = doc.problems()
    top = validate(ScenarioTop, doc.data, problems)
    game = doc.data.get("game")
    plugin: ScenarioFacts | None = None
    if isinstance(game, str) and game:
        try:
            plugin = facts_of(game)
        except MalformedInput as err:
            problems.add(("game",), err.what)
    if top is None or plugin is None:
        if plugin is not None:
            validate(plugin.setup_model, doc.data.get("setup", {}), problems, ("setup",))
        problems.raise_if_any()
    assert top is not None and plugin is not None
    setup = validate(plugin.setup_model, top.setup, problems, ("setup",))
    overrides = dict(options or {})
    if overrides or preset:  # command-line errors are reported as such, not at a file position
        cli = doc.problems()
        plugin.configure(top, preset, overrides, cli, ("--option",))
        for where, what in cli:
            if where[:1] == ("--option",):
                raise MalformedInput(f"--{what}" if what.startswith("option ") else
                                     f"--option {where[1] if len(where) > 1 else ''}: {what}")
            if where[:1] == ("preset",) and preset:
                raise MalformedInput(what)
    raw_readings: list[tuple[str, dict[str, Any], Mapping[str, Any], Sequence[Refusal],
                             Sequence[Checkpoint], tuple[str | int, ...]]]
    if top.reading is not None:
        for key in ("expect", "refused", "check"):
            if key in doc.data:
                problems.add((key,), f"with [[reading]] tables, put {key} inside each reading")
        raw_readings = [(r.name, {**top.options, **r.options}, r.expect, r.refused, r.check,
                         ("reading", i)) for i, r in enumerate(top.reading)]
    else:
        # the one reading is named by the options it sets ("default" when it sets none), so a
        # page or report never calls a scenario's chosen reading "default"
        implicit = ", ".join(f"{k}={v}" for k, v in top.options.items()) or "default"
        raw_readings = [(implicit, dict(top.options), top.expect, top.refused, top.check, ())]
    configs = []
    for _name, opts, *_rest, at in raw_readings:
        configs.append(plugin.configure(top, preset, {**opts, **overrides}, problems,
                                        (*at, "options") if at else ("options",)))
    problems.raise_if_any()
    config = configs[0]
    names = tuple(top.names) if top.names else plugin.default_names(config)
    players = len(plugin.default_names(config))
    if len(names) != players:
        problems.add(("names",), f"'names' lists {len(names)} names for {players} players")
    elif len(set(names)) != len(names) or any(not NAME_TOKEN.fullmatch(n) for n in names):
        problems.add(("names",), "player names must be distinct words without spaces, "
                                 "dots or colons")
    problems.raise_if_any()
    actions: list[tuple[Any, int | None, str]] = []
    for index, raw in enumerate(top.actions):
        actor: int | None = None
        body = raw
        if ":" in raw:
            who, body = raw.split(":", 1)
            try:
                actor = player_of(who.strip(), names)
            except ValueError as exc:
                problems.add(("actions", index), f"action {show(raw)}: {exc}")
                continue
        body = body.strip()
        if not CANONICAL_ACTION.fullmatch(body):
            problems.add(("actions", index), f"action {show(raw)} is not in canonical notation "
                         "(a lower-case verb, words separated by single spaces)")
            continue
        try:
            actions.append((plugin.parse_action(config, body, names), actor, raw))
        except ValueError as exc:
            problems.add(("actions", index), str(exc) if show(body) in str(exc)
                         else f"action {show(raw)}: {exc}")
    readings: list[Reading] = []
    for (name, _opts, expect, refused, check, at), rconfig in zip(raw_readings, configs,
                                                                  strict=True):
        readings.append(_reading(top.game, plugin, rconfig, names, name, expect, refused,
                                 check, at, len(top.actions), problems))
    problems.raise_if_any()
    assert setup is not None
    started = [replace_start(r, plugin.start(r.config, setup, names, doc)) for r in readings]
    if not top.actions and not any(r.expect or r.checks or r.refusals for r in readings):
        problems.add((), "the scenario has no actions and expects nothing: nothing to check")
        problems.raise_if_any()
    return LoadedScenario(doc.file, top.title or Path(doc.file).stem, top.game, names, tuple(top.clauses),
                          tuple(actions), tuple(started), top.ambiguity, doc, plugin)


def replace_start(reading: Reading, start: Any) -> Reading:
    """``reading`` with its start state set."""
    return Reading(reading.name, reading.config, start, reading.expect, reading.checks,
                   reading.refusals, reading.path)


def _reading(game: str, plugin: ScenarioFacts, config: Any, names: Sequence[str], name: str,
             expect: Mapping[str, Any], refused: Sequence[Refusal],
             check: Sequence[Checkpoint], at: tuple[str | int, ...], count: int,
             problems: Problems) -> Reading:
    refusals: dict[int, tuple[str, ...]] = {}
    for i, r in enumerate(refused):
        if r.action > count:
            problems.add((*at, "refused", i, "action"),
                         f"refused: action {r.action} is not an action number (1..{count})")
        elif r.action in refusals:
            problems.add((*at, "refused", i, "action"),
                         f"refused: action {r.action} is listed twice")
        refusals[r.action] = tuple(r.clauses)
    checks = []
    for i, c in enumerate(check):
        if c.after > count:
            problems.add((*at, "check", i, "after"),
                         f"check: after = {c.after}, but there are only {count} actions")
        checks.append((c.after, _expectations(game, plugin, config, names, c.expect,
                                              (*at, "check", i, "expect"), problems)))
    return Reading(name, config, None, _expectations(game, plugin, config, names, expect,
                                                     (*at, "expect"), problems),
                   tuple(sorted(checks, key=lambda c: c[0])), refusals, at)


def _kind(value: Any) -> str:
    """The kind of a fact's value as TOML writes it: ``true or false``, ``a number``, ``a
    text``, ``a list``. A fact's values have one kind (None aside: a fact with no value yet,
    which an expectation never meets and never makes malformed)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def _compare(exp: Expectation, got: Any) -> str | None:
    """None if ``got`` meets the expectation, else what differs."""
    want = exp.want
    if exp.op is None:
        return None if got == want else f"expected {exp.key} = {show(want, 200)}, got " \
                                        f"{show(got, 200)}"
    items = want if isinstance(want, list) else [want]
    if isinstance(got, str):
        present = [w for w in items if str(w) in got]
    elif isinstance(got, list):
        present = [w for w in items if w in got]
    else:
        return f"{exp.key}: the fact is {show(got)}, not a text or list"
    if exp.op == "contains":
        missing = [w for w in items if w not in present]
        return None if not missing else f"expected {exp.key} {show(missing, 200)}, got " \
                                        f"{show(got, 300)}"
    return None if not present else f"expected {exp.key} {show(items, 200)}, but " \
                                    f"{show(present, 200)} present"


def _meets(sc: LoadedScenario, state: Any, expectations: Sequence[Expectation],
           ctx: RunContext, label: str) -> list[str]:
    problems = []
    for exp in expectations:
        got = exp.fact.value(state, exp.arg, ctx)
        if exp.op is None and got is not None and _kind(got) != _kind(exp.want):
            # a value the fact can never take ("plague" = "yes"): the file is wrong, not the
            # model; malformed input at the value, whatever the state
            line, col = sc.doc.where(exp.path)
            raise MalformedInput(f"{show(exp.key)} takes {_kind(got)}, got {show(exp.want, 80)}",
                                 file=str(sc.path), line=line, col=col)
        wrong = _compare(exp, got)
        if wrong is not None:
            problems.append(f"{sc.where(exp.path)}: {label}{wrong}")
    return problems


def run_reading(sc: LoadedScenario, reading: Reading) -> tuple[Any, list[str], list[str]]:
    """Run the actions under one reading: (final state, game log, problems)."""
    plugin = sc.game_facts
    state = reading.start
    ctx = RunContext(sc.names, [], plugin)
    problems: list[str] = []
    label = f"[{reading.name}] " if len(sc.readings) > 1 else ""
    checks = list(reading.checks)

    def checkpoint(done: int) -> None:
        nonlocal state
        while checks and checks[0][0] == done:
            state = plugin.settle(state, None)
            problems.extend(_meets(sc, state, checks.pop(0)[1], ctx,
                                   f"{label}after {done} actions: "))

    for number, (action, actor, text) in enumerate(sc.actions, start=1):
        checkpoint(number - 1)
        where = sc.where(("actions", number - 1))
        state = plugin.settle(state, action)
        wanted = reading.refusals.get(number)
        mover = plugin.to_move(state)
        if actor is not None and actor != mover and wanted is None:
            moving = "nobody" if mover is None else sc.names[mover]
            problems.append(f"{where}: {label}action {number} ({text}) expected "
                            f"{sc.names[actor]} to act, but {moving} is to move")
            break
        try:
            new, lines = plugin.apply(state, action, sc.names)
        except IllegalAction as err:
            if wanted is not None:
                missing = [c for c in wanted if c not in err.clauses]
                if missing:
                    problems.append(f"{where}: {label}action {number} ({text}) was refused as "
                                    f"expected, but cites {', '.join(err.clauses)}, not "
                                    f"{', '.join(missing)}")
                    break
                who = "nobody" if mover is None else sc.names[mover]
                ctx.log.append(f"{who}: {text.split(':', 1)[-1].strip()} -> refused as "
                               f"expected: {err.reason} "
                               f"[{', '.join(err.clauses)}]")
                continue
            problems.append(f"{where}: {label}action {number} ({text}) is illegal: {err}")
            break
        if wanted is not None:
            problems.append(f"{where}: {label}action {number} ({text}) was accepted, expected "
                            f"it to be refused citing {', '.join(wanted)}")
            break
        ctx.log.extend(lines)
        broken = plugin.broken(reading.start, new)
        if broken:
            problems.append(f"{where}: {label}after action {number}: " + "; ".join(broken))
            break
        state = new
    else:
        checkpoint(len(sc.actions))
        state = plugin.settle(state, None)
        problems.extend(_meets(sc, state, reading.expect, ctx, label))
    return state, ctx.log, problems


def run(sc: LoadedScenario) -> CheckResult:
    """Run a loaded scenario under each of its readings.

    Returns:
        a CheckResult (method ``scenario``) whose detail holds the game log of every reading
        and every mismatch.
    """
    t0 = time.perf_counter()
    lines: list[str] = []
    failed = False
    for reading in sc.readings:
        _state, log, problems = run_reading(sc, reading)
        if len(sc.readings) > 1:
            lines.append(f"== reading {reading.name} ==")
        lines.extend([*log, *problems])
        failed = failed or bool(problems)
    return CheckResult(f"scenario {Path(sc.path).name}", "scenario", len(sc.actions),
                       not failed, time.perf_counter() - t0, "\n".join(lines), sc.clauses)


def run_scenario(path: Path | str, *, preset: str | None = None,
                 options: Mapping[str, str] | None = None) -> CheckResult:
    """Load and run one scenario file of any game.

    Raises:
        MalformedInput: if the file is malformed (the CLI turns this into exit code 2).
    """
    return run(load(Path(path), preset=preset, options=options))


def game_of(path: Path) -> str:
    """The ``game`` of a scenario file.

    Raises:
        MalformedInput: unreadable file, or a game without scenarios (at its position).
    """
    doc = read_toml(path)
    game = doc.data.get("game")
    try:
        facts_of(game if isinstance(game, str) else "")
    except MalformedInput as err:
        raise doc.error(("game",), err.what) from None
    return str(game)


def shipped(game: str | None = None) -> list[Path]:
    """Every shipped scenario file (of ``game``, if given), sorted."""
    from ruleproof.spec import game_folders

    files = sorted(p for folder in game_folders() for p in folder.glob("scenarios/**/*.toml"))
    if game is None:
        return files
    return [f for f in files if read_toml(f).data.get("game") == game]


__all__ = ["CAPABILITY", "ActionForm", "Fact", "LoadedScenario", "Reading", "RunContext",
           "ScenarioFacts", "facts_of", "game_of", "grave_number", "load", "player_of", "run",
           "run_reading", "run_scenario", "scenario_games", "shipped"]
