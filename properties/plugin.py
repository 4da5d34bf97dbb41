"""The game plugin: one typed record per game, and the one registry of them.

A game is a folder: ``model/<game>/`` (its rules on the one game interface,
:mod:`ruleproof.model.api`), ``spec/<game>/`` (its data: source registries, presets, boards,
ambiguity register, scenarios, traces, reduced set-ups, pinned results) and
``properties/<game>/`` (its invariants, contracts and game-specific checks, and
``plugin.py``, which defines ``PLUGIN``, a :class:`GamePlugin`). Every subsystem (``check``,
the hypothesis machine, scenarios, replay, conformance, contracts, discovery, explore, stats,
render, the OpenSpiel and PettingZoo registrations, the docs and the command line) is written
once against the interface and this record, states the capabilities it needs, and skips a game
that lacks one with the reason (:func:`require`).

Registry (:func:`plugins`), in this order, later names never replacing earlier ones:

1. every folder of this package that holds ``plugin.py`` (the shipped games);
2. the entry points of the group ``ruleproof.games`` (a package of one's own:
   ``[project.entry-points."ruleproof.games"] my-game = "my_pkg.plugin:PLUGIN"``);
3. ``RULEPROOF_PLUGINS``: ``module:attribute`` items separated by commas (quick experiments;
   the module must be importable).

Each plugin is checked as it loads (:func:`_load`: the module imports, the attribute is a
:class:`GamePlugin`, no capability is plain data, its data folder matches it), and each name is
registered once. A registration that fails is one ``warning:`` line on stderr naming its
reference (printed once per process) and is left out; the other games go on, and a command
naming the broken game gets that line as its error (exit 2). The games' data folders, out of
tree ones included, are found by the data layer (``ruleproof.spec.game_folders``) from the same
registrations, so the data layer never imports this one.

A name the registry does not know is an error naming the known games (:func:`plugin`), never a
fall-through to another game's path. docs/add-a-game.md walks through a whole plugin.
"""

from __future__ import annotations

import importlib
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput, missing_extra
from ruleproof.model.api import TRUNCATION_CHOICES, GameBase
from ruleproof.spec import (
    ENTRY_POINT_GROUP,
    ENV_PLUGINS,
    ENV_SPEC_PATH,
    check_game_folder,
    registrations,
    spec_path_problems,
)

SHARED = "shared by every rule set"
"""The name of a game's group of rule-set independent properties."""


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Param:
    """One parameter of a game (the game's parameter model is a tuple of these).

    Attributes:
        name: ``players``, ``preset``, ``options``, ``expansion``, ``max_moves``, ``board``...
        kind: ``int``, ``str``, ``options`` (``NAME=VALUE`` pairs), ``path`` or ``bool``.
        default: the value when not given (None: the game decides, e.g. by the player count).
        help: one line for ``--help`` and the docs.
        choices: the allowed values of a ``str`` parameter (empty: any).
        flag: the command-line shorthand users know (``--players``), if any; every parameter
            can also be given as ``-P NAME=VALUE``.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    flag: str | None = None


TRUNCATION = Param(
    "truncation", "str", None,
    "what a game stopped by the move cap (max_moves) pays every seat: zero (default), loss (the "
    "game's lowest return, so stalling never pays) or a number (a draw value); docs/interop.md")
"""The generic parameter every game takes (:func:`make_game` applies it to the game made by
the plugin: :attr:`ruleproof.model.api.GameBase.truncation`)."""

REDUCED = Param(
    "reduced", "str", None,
    "a reduced set-up of spec/GAME/reduced/ (e.g. dr-1x2), small enough for exact methods (CFR, "
    "best response, whole-tree tests); the game needs the reduced_game capability")
"""The generic parameter naming a reduced set-up (:func:`make_game` builds it through the
plugin's ``reduced_game`` capability: ``reduced_game(spec, **own_params) -> GameBase``)."""

GENERIC_PARAMS = (TRUNCATION, REDUCED)
"""The parameters every registered game takes besides its own (:attr:`GamePlugin.parameters`)."""


def truncation_value(raw: Any) -> str | float:
    """The truncation returns named by ``raw`` (``zero``, ``loss``, or a number).

    Raises:
        MalformedInput: anything else.
    """
    if raw is None or raw == "":
        return "zero"
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        value = float(raw)
    else:
        text = str(raw).strip()
        if text in TRUNCATION_CHOICES:
            return text
        try:
            value = float(text)
        except (ValueError, OverflowError):
            value = math.nan
    if not math.isfinite(value):  # nan, inf, 1e400: no return a game could pay
        raise MalformedInput(f"parameter truncation must be {', '.join(TRUNCATION_CHOICES)} or a "
                             f"finite number, got {raw!r}")
    return value


@dataclass(frozen=True)
class GameType:
    """What kind of game it is (OpenSpiel's ``GameType``, the parts the tools read).

    Attributes:
        players: the player counts the game takes.
        chance: whether it has chance nodes (set-up, draws).
        information: ``perfect`` or ``imperfect``.
        utility: ``zero-sum`` (the only kind the shipped games have).
        seats: a name per seat for games whose seats differ (Dracula: ``dracula``,
            ``van-helsing``); empty when seats are numbered P1..Pn.
        default_players: the player count when none is given.
    """

    players: tuple[int, ...]
    chance: bool = True
    information: str = "perfect"
    utility: str = "zero-sum"
    seats: tuple[str, ...] = ()
    default_players: int = 0

    def seat_name(self, seat: int) -> str:
        """``seats[seat]``, or ``P<seat+1>``."""
        return self.seats[seat] if seat < len(self.seats) else f"P{seat + 1}"


# --------------------------------------------------------------------------- rule sets


@dataclass(frozen=True)
class RuleSet:
    """One game under one reading of its sources: the unit ``check`` reports on, contracts are
    checked on, and discovery searches.

    Attributes:
        game: the plugin's name.
        name: how the rule set is shown (``du-en``, ``du-cs + gruft``, ``default rules``,
            ``depths=known-own-only``, ``du-en/4``, or :data:`SHARED`).
        preset: a preset of the game (empty: the game's default).
        options: rule options ``(name, value)`` on top of the preset (an expansion is the
            option ``expansion``).
        players: player counts covered (empty: every count the preset covers).
        small: run in the ``ci`` profile unless the thorough profile is asked for.
        sources: the source documents whose clause contracts this rule set claims to follow.
        drop: clause ids whose contracts are not used (replaced by a later source).
        engine: a replacement engine for teeth tests (a planted mutant); None: the model.
    """

    game: str
    name: str
    preset: str = ""
    options: tuple[tuple[str, str], ...] = ()
    players: tuple[int, ...] = ()
    small: bool = False
    sources: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    engine: Any = field(default=None, compare=False, hash=False, repr=False)

    @property
    def shared(self) -> bool:
        """True for the group of properties shared by every rule set of the game."""
        return self.name == SHARED

    @property
    def count(self) -> int:
        """The one player count of a rule set that covers one (contracts, discovery).

        Raises:
            ValueError: the rule set covers several counts or none.
        """
        if len(self.players) != 1:
            raise ValueError(f"rule set {self.name} covers {len(self.players)} player counts")
        return self.players[0]

    @property
    def option_map(self) -> dict[str, str]:
        """The options as a dict."""
        return dict(self.options)

    @property
    def expansion(self) -> str | None:
        """The expansion this rule set plays, if any."""
        value = self.option_map.get("expansion")
        return None if value in (None, "", "none") else value

    def contract_sets(self) -> tuple[Any, ...]:
        """The clause-contract sets of :attr:`sources` (properties/contracts), in order."""
        from ruleproof.properties.contracts.core import contract_set

        return tuple(contract_set(s) for s in self.sources)

    def contracts(self, state: Any, sets: Sequence[Any] | None = None) -> tuple[Any, ...]:
        """Every contract that applies to ``state`` under this rule set (``drop`` left out)."""
        out: list[Any] = []
        for cs in sets if sets is not None else self.contract_sets():
            out.extend(cs.active(state, self.drop))
        return tuple(out)

    def alias(self, state: Any, action: Any) -> bool:
        """Whether a source treats ``action`` at ``state`` as another spelling of a legal one."""
        return any(cs.alias(state, action) for cs in self.contract_sets())

    def game_params(self, players: int | None = None) -> dict[str, Any]:
        """Parameters for :func:`make_game` (``players`` default: :attr:`count`)."""
        out: dict[str, Any] = {}
        n = players if players is not None else (self.players[0] if self.players else None)
        if n is not None:
            out["players"] = n
        if self.preset:
            out["preset"] = self.preset
        opts = {k: v for k, v in self.options if k != "expansion"}
        if opts:
            out["options"] = opts
        if self.expansion:
            out["expansion"] = self.expansion
        return out


@dataclass(frozen=True)
class Selection:
    """What a command narrowed the rule sets to (every field optional).

    Attributes:
        preset, expansion: a preset or expansion named on the command line.
        players: player counts asked for.
        options: rule options ``(name, value)`` asked for.
    """

    preset: str | None = None
    expansion: str | None = None
    players: tuple[int, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    @property
    def narrowed(self) -> bool:
        """Whether anything beyond the game was asked for."""
        return bool(self.preset is not None or self.expansion is not None or self.players
                    or self.options)


# --------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class Deferred:
    """A capability imported on first use from ``module:attribute``, so that loading the
    registry does not import every subsystem a game supports (z3, the explorer, ...).
    :meth:`GamePlugin.capability` resolves it.

    Raises:
        MalformedInput: (on first use) the module cannot be imported or lacks the attribute.
    """

    reference: str

    def resolve(self) -> Any:
        """The capability object itself (imported once per process)."""
        return _resolve(self.reference)


@cache
def _resolve(reference: str) -> Any:
    module_name, _, attribute = reference.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except Exception as exc:
        raise MalformedInput(f"capability {reference!r} cannot be loaded: "
                             f"{_failure(exc)}") from None
    problem = _capability_problem(found)
    if problem:
        raise MalformedInput(f"capability {reference!r} {problem}")
    return found


def _failure(exc: BaseException) -> str:
    """One line for an exception a user's module raised (a SyntaxError with file:line)."""
    if isinstance(exc, SyntaxError):
        return f"{exc.filename}:{exc.lineno}:{exc.offset}: SyntaxError: {exc.msg}"
    if isinstance(exc, ImportError) and missing_extra(exc) != str(exc):
        return f"{type(exc).__name__}: {missing_extra(exc)}"  # names the extra to install
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


_PLAIN = (bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset, type(None))


def _capability_problem(value: Any) -> str:
    """Why ``value`` cannot be a capability ('' if it can): a capability is an object of the
    protocol its subsystem declares (or a :class:`Deferred`), never plain data."""
    if isinstance(value, _PLAIN) or type(value) is object:
        return (f"is {type(value).__name__} {value!r:.40}, not an object of the subsystem's "
                "protocol (or a Deferred('module:attribute'))")
    return ""



@dataclass(frozen=True)
class GamePlugin:
    """Everything the generic subsystems need to know about one game.

    Required fields give the game's identity, parameters, rule sets and data; the fields
    marked *capability* may be None, and a subsystem that needs one skips the game with the
    reason :func:`require` gives.

    Attributes:
        name: the game's name on the command line and in files (``dawn-under``).
        title: its printed name (``Dawn Under``).
        summary: the game in two sentences (docs, ``--help``).
        package: the folder name under ``model/``, ``spec/`` and ``properties/``.
        game_type: see :class:`GameType`.
        sources: the source documents (clause registries in ``spec/<game>/sources/``).
        params: the parameter model (see :class:`Param`).
        make_game: the game on the one interface from parameters (raises MalformedInput).
        rule_sets: the rule sets ``check`` covers for a :class:`Selection` (raises
            MalformedInput for a selection the game cannot take), the shared group last.
        contract_rule_sets: the rule sets the clause contracts are checked on, per profile
            (``ci``, ``default``, ``thorough``), each of one player count.
        spec_folder: the game's data folder.
        expansions: the expansions this game can be played with (names of the ``expansion``
            option), each with the source document it adds.
        presets: preset name -> (source document, player counts).
        option_values: rule option -> its values, the default first.
        checks: the game's own properties of a rule set (capability; see
            :mod:`ruleproof.properties.suite`).
        capabilities: the optional capabilities by subsystem (``conformance``, ``explore``,
            ``scenarios``, ``stats``, ``render``, ``symbolic``, ``shrink``...); the type of
            each is the protocol the subsystem declares.
    """

    name: str
    title: str
    summary: str
    package: str
    game_type: GameType
    sources: tuple[str, ...]
    params: tuple[Param, ...]
    make_game: Callable[..., GameBase[Any]]
    rule_sets: Callable[[Selection], list[RuleSet]]
    contract_rule_sets: Callable[[str], tuple[RuleSet, ...]]
    spec_folder: Path
    expansions: Mapping[str, str] = field(default_factory=dict)
    presets: Callable[[], Mapping[str, tuple[str, tuple[int, ...]]]] = lambda: {}
    option_values: Callable[[], Mapping[str, tuple[str, ...]]] = lambda: {}
    checks: Callable[[RuleSet, Path | None], tuple[list[Any], list[Any]]] | None = None
    capabilities: Mapping[str, Any] = field(default_factory=dict)

    @property
    def parameters(self) -> tuple[Param, ...]:
        """The game's own parameters, then the generic ones every game takes
        (:data:`GENERIC_PARAMS`)."""
        own = {p.name for p in self.params}
        return (*self.params, *(p for p in GENERIC_PARAMS if p.name not in own))

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, if the game has one (its own or a generic one)."""
        return next((p for p in self.parameters if p.name == name), None)

    def capability(self, name: str) -> Any | None:
        """The capability ``name`` (None if the game lacks it; a :class:`Deferred` one is
        imported now)."""
        found = self.capabilities.get(name)
        return found.resolve() if isinstance(found, Deferred) else found

    def seat_name(self, seat: int) -> str:
        """How a seat is named in reports (``P1``.., or the game's seat names)."""
        return self.game_type.seat_name(seat)


class Unsupported(MalformedInput):
    """A subsystem asked a game for a capability it lacks (the message gives the reason)."""


def require(plugin: GamePlugin, capability: str, what: str) -> Any:
    """The capability ``capability`` of ``plugin``.

    Raises:
        Unsupported: ``<game> has no <capability> capability, so <what> cannot run for it``.
    """
    found = plugin.capability(capability)
    if found is None:
        raise Unsupported(f"{plugin.name} has no {capability} capability (its plugin record "
                          f"gives none), so {what} cannot run for it")
    return found


# --------------------------------------------------------------------------- the registry


def _builtin() -> list[str]:
    """The references of the plugins of the game folders shipped in this package."""
    root = Path(str(resources.files(__package__ or "ruleproof.properties")))
    return [f"{__package__}.{folder.name}.plugin:PLUGIN" for folder in sorted(root.iterdir())
            if (folder / "plugin.py").is_file()]


def _load(reference: str) -> GamePlugin:
    """The plugin at ``module:attribute``, checked: its capabilities (:func:`_capability_problem`)
    and its data folder against it (``ruleproof.spec.check_game_folder``).

    Raises:
        MalformedInput: ``game plugin 'REFERENCE': ...`` -- the module cannot be imported (any
            exception it raises, a SyntaxError, an empty module name), the attribute is not a
            GamePlugin, a capability is plain data, or its data folder is wrong (a game with
            sources, or whose folder has ``game.toml``, must pass ``check_game_folder``).
    """
    module_name, _, attribute = reference.partition(":")
    attribute = attribute.strip() or "PLUGIN"
    if not module_name.strip():
        raise MalformedInput(f"game plugin {reference!r}: no module before ':' (expected "
                             "module:attribute)")
    try:
        module = importlib.import_module(module_name.strip())
    except (Exception, SystemExit) as exc:  # sys.exit() in a plugin ended every command
        raise MalformedInput(f"game plugin {reference!r}: cannot import {module_name.strip()}: "
                             f"{_failure(exc)}") from None
    if getattr(getattr(module, "__spec__", None), "_initializing", False):
        # the module asked the registry for a game while it is being imported: this inner
        # load leaves it out; the outer load, which imports it, registers it
        raise _Reentrant(f"game plugin {reference!r} is being imported")
    found = getattr(module, attribute, None)
    if not isinstance(found, GamePlugin):
        what = "missing" if found is None else f"a {type(found).__name__}"
        raise MalformedInput(f"game plugin {reference!r}: {attribute} is {what}, not a "
                             "GamePlugin")
    for name, value in found.capabilities.items():
        if not isinstance(value, Deferred) and _capability_problem(value):
            raise MalformedInput(f"game plugin {reference!r}: capability {name!r} "
                                 f"{_capability_problem(value)}")
    folder = Path(found.spec_folder)
    if not found.sources and not (folder / "game.toml").is_file():
        return found  # a game with no source text and no data (a toy, a test double)
    try:
        check_game_folder(folder, found.name, found.game_type.players)
    except MalformedInput as err:
        raise _BrokenGame(f"{err.one_line()} (game plugin {reference!r})", found.name
                          ) from None
    return found


class _Reentrant(MalformedInput):
    """A plugin module asked the registry for games while being imported (not a problem)."""


class _BrokenGame(MalformedInput):
    """A plugin that loaded but whose data folder is wrong (``game``: its name)."""

    def __init__(self, what: str, game: str) -> None:
        super().__init__(what)
        self.game = game


@dataclass(frozen=True)
class Registry:
    """The registry as loaded.

    Attributes:
        games: every game that loaded, by name.
        problems: one line per registration that did not (a plugin that cannot be imported,
            a duplicate name, a plain-data capability, a wrong data folder); such a game is
            left out and the others go on.
        failed: game name -> its problem, for broken games whose name is known.
    """

    games: Mapping[str, GamePlugin]
    problems: tuple[str, ...]
    failed: Mapping[str, str]


@cache
def _registry(env: str, search_path: str) -> Registry:
    # ``search_path`` (ENV_SPEC_PATH) is part of the cache key: its warnings depend on it.
    references = [(r, "shipped game folder") for r in _builtin()] + list(registrations())
    games: dict[str, GamePlugin] = {}
    where: dict[str, str] = {}
    problems: list[str] = list(spec_path_problems())
    failed: dict[str, str] = {}
    for reference, origin in references:
        try:
            found = _load(reference)
        except _Reentrant:
            continue
        except MalformedInput as err:
            problems.append(f"{err.one_line()} [{origin}]")
            if isinstance(err, _BrokenGame):
                failed[err.game] = problems[-1]
            continue
        if games.get(found.name) is found:
            continue  # the same record registered twice (an entry point and the variable)
        if found.name in games:
            problems.append(f"game {found.name!r} is registered twice: by {where[found.name]} "
                            f"and by {reference!r} ({origin}); the second is left out")
            continue
        games[found.name] = found
        where[found.name] = f"{reference!r} ({origin})"
    for line in problems:
        sys.stderr.write(f"warning: {line}\n")
    return Registry(games, tuple(problems), failed)


def registry() -> Registry:
    """The registry as loaded (see :class:`Registry`); a registration that fails is printed
    once on stderr as ``warning: ...`` and left out, the other games go on."""
    return _registry(os.environ.get(ENV_PLUGINS, ""), os.environ.get(ENV_SPEC_PATH, ""))


def plugins() -> dict[str, GamePlugin]:
    """Every registered game by name (shipped folders, entry points, ``RULEPROOF_PLUGINS``)."""
    return dict(registry().games)


def origin(name: str) -> str:
    """Where the game ``name`` was registered from (``'module:PLUGIN' (how)``)."""
    reg = registry()
    for reference, how in [(r, "shipped game folder") for r in _builtin()] + list(registrations()):
        try:
            module = importlib.import_module(reference.partition(":")[0].strip())
        except Exception:
            continue
        if getattr(module, reference.partition(":")[2].strip() or "PLUGIN", None) is \
                reg.games.get(name):
            return f"{reference} ({how})"
    return "?"


def names() -> tuple[str, ...]:
    """The registered games' names."""
    return tuple(plugins())


def plugin(name: str) -> GamePlugin:
    """The plugin of game ``name``.

    Raises:
        MalformedInput: an unknown game, naming the known ones.
    """
    reg = registry()
    found = reg.games.get(name)
    if found is None:
        if name in reg.failed:
            raise MalformedInput(f"game {name!r} did not load: {reg.failed[name]}")
        more = f" ({len(reg.problems)} registration(s) failed, see the warnings)" \
            if reg.problems else ""
        raise MalformedInput(f"unknown game {name!r}; known games: {', '.join(reg.games)}"
                             f"{more}")
    return found


def make_game(name: str, **params: Any) -> GameBase[Any]:
    """The game ``name`` with ``params`` on the one interface.

    Raises:
        MalformedInput: unknown game or parameter (naming the game's parameters), or a bad value.
    """
    p = plugin(name)
    known = {q.name for q in p.parameters}
    unknown = sorted(set(params) - known)
    if unknown:
        raise MalformedInput(f"{name}: unknown parameter(s) {', '.join(unknown)}; known: "
                             f"{', '.join(q.name for q in p.parameters)}")
    own = {q.name for q in p.params}
    generic = {k: params.pop(k) for k in list(params) if k not in own}
    if generic.get("reduced") not in (None, ""):
        game = _reduced_game(p, str(generic["reduced"]), params)
    else:
        game = p.make_game(**params)
    if "truncation" in generic:
        value = truncation_value(generic["truncation"])
        if isinstance(value, float) and not game.min_utility <= value <= game.max_utility:
            raise MalformedInput(f"parameter truncation {value:g}: a return must lie in "
                                 f"{game.min_utility:g}..{game.max_utility:g} for {name}")
        game.truncation = value
    return game


def _reduced_game(p: GamePlugin, name: str, params: dict[str, Any]) -> GameBase[Any]:
    """The reduced set-up ``name`` of ``p`` (its ``reduced_game`` capability).

    Raises:
        MalformedInput: a game without reduced set-ups, an unknown one, one of another game.
    """
    from ruleproof.spec.reduced import reduced

    make = p.capability("reduced_game")
    if make is None:
        raise MalformedInput(f"{p.name}: parameter reduced: the game has no reduced set-ups as "
                             f"games (no reduced_game capability)")
    try:
        spec = reduced(name)
    except MalformedInput as e:
        raise MalformedInput(f"{p.name}: parameter reduced: {e.what}", file=e.file,
                             line=e.line) from None
    if spec.game != p.name:
        raise MalformedInput(f"{p.name}: parameter reduced: {name} is a set-up of {spec.game}")
    game: GameBase[Any] = make(spec, **params)
    return game


def parse_params(p: GamePlugin, pairs: Mapping[str, str]) -> dict[str, Any]:
    """Typed parameters from ``NAME=VALUE`` strings (``-P NAME=VALUE`` on the command line).

    Raises:
        MalformedInput: an unknown parameter (naming the game's), or a value of the wrong kind.
    """
    out: dict[str, Any] = {}
    for key, raw in pairs.items():
        q = p.param(key)
        if q is None:
            raise MalformedInput(f"{p.name} has no parameter {key!r}; its parameters: "
                                 f"{', '.join(x.name for x in p.parameters)}")
        if q.kind == "int":  # ASCII digits only: int() also reads '٣' and '3_0'
            if not re.fullmatch(r"[+-]?[0-9]+", raw.strip()):
                raise MalformedInput(f"parameter {key} must be a whole number, got {raw!r}")
            out[key] = int(raw)
        elif q.kind == "bool":
            if raw.lower() not in ("true", "false"):
                raise MalformedInput(f"parameter {key} must be true or false, got {raw!r}")
            out[key] = raw.lower() == "true"
        elif q.kind == "path":
            out[key] = Path(raw)
        else:
            if q.choices and raw not in q.choices:
                raise MalformedInput(f"parameter {key}: {raw!r} is not one of "
                                     f"{', '.join(q.choices)}")
            out[key] = raw
    return out


def source_owner(document: str) -> GamePlugin:
    """The plugin whose sources include ``document``.

    Raises:
        MalformedInput: no registered game has that source (naming the known ones).
    """
    for p in plugins().values():
        if document in p.sources:
            return p
    known = [d for p in plugins().values() for d in p.sources]
    raise MalformedInput(f"unknown source {document!r}; known: {', '.join(known)}")


def selection_refusals(selection: Selection) -> list[str]:
    """``<game>: <reason>`` for every registered game that refuses ``selection`` (its
    ``rule_sets`` raises MalformedInput), so a command can say which games it left out."""
    out: list[str] = []
    if not selection.narrowed:
        return out
    for p in plugins().values():
        try:
            p.rule_sets(selection)
        except MalformedInput as err:
            out.append(f"{p.name}: {err.what}")
    return out


def all_rule_sets(game: str | None = None, selection: Selection | None = None
                  ) -> list[RuleSet]:
    """The rule sets ``check`` covers: of ``game`` (default: every registered game), narrowed
    by ``selection``. A selection that only one game can take (a preset, an expansion) picks
    that game when none is named.

    Raises:
        MalformedInput: an unknown game, or a selection the named game cannot take.
    """
    sel = selection or Selection()
    if game is not None:
        return plugin(game).rule_sets(sel)
    if not sel.narrowed:
        return [rs for p in plugins().values() for rs in p.rule_sets(sel)]
    takers: list[list[RuleSet]] = []
    refusals = selection_refusals(sel)
    for p in plugins().values():
        if not any(r.startswith(f"{p.name}: ") for r in refusals):
            takers.append(p.rule_sets(sel))
    if not takers:
        raise MalformedInput("no game takes this selection (" + "; ".join(refusals) + ")")
    return [rs for found in takers for rs in found]


__all__ = [
    "ENTRY_POINT_GROUP",
    "ENV_PLUGINS",
    "GENERIC_PARAMS",
    "SHARED",
    "TRUNCATION",
    "Deferred",
    "GamePlugin",
    "GameType",
    "Param",
    "Registry",
    "RuleSet",
    "Selection",
    "Unsupported",
    "all_rule_sets",
    "make_game",
    "names",
    "origin",
    "parse_params",
    "plugin",
    "plugins",
    "registry",
    "require",
    "selection_refusals",
    "source_owner",
    "truncation_value",
]
