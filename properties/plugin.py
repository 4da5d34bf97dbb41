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

A name the registry does not know is an error naming the known games (:func:`plugin`), never a
fall-through to another game's path. docs/add-a-game.md walks through a whole plugin.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameBase

ENTRY_POINT_GROUP = "ruleproof.games"
ENV_PLUGINS = "RULEPROOF_PLUGINS"

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
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise MalformedInput(f"capability {reference!r} cannot be loaded: {exc}") from None



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

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, if the game has one."""
        return next((p for p in self.params if p.name == name), None)

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


def _builtin() -> list[GamePlugin]:
    """The plugins of the game folders shipped in this package."""
    root = Path(str(resources.files(__package__ or "ruleproof.properties")))
    out = []
    for folder in sorted(root.iterdir()):
        if (folder / "plugin.py").is_file():
            out.append(_load(f"{__package__}.{folder.name}.plugin:PLUGIN"))
    return out


def _load(reference: str) -> GamePlugin:
    """The plugin at ``module:attribute``.

    Raises:
        MalformedInput: the module cannot be imported, or the attribute is not a GamePlugin.
    """
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name.strip())
    except ImportError as exc:
        raise MalformedInput(f"game plugin {reference!r}: cannot import {module_name}: {exc}"
                             ) from None
    found = getattr(module, attribute.strip() or "PLUGIN", None)
    if not isinstance(found, GamePlugin):
        raise MalformedInput(f"game plugin {reference!r}: {attribute or 'PLUGIN'} is not a "
                             "GamePlugin")
    return found


@cache
def _registry(env: str) -> dict[str, GamePlugin]:
    found = _builtin()
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.append(_load(ep.value))
    for item in env.split(","):
        if item.strip():
            found.append(_load(item.strip()))
    out: dict[str, GamePlugin] = {}
    for p in found:
        out.setdefault(p.name, p)
    return out


def plugins() -> dict[str, GamePlugin]:
    """Every registered game by name (shipped folders, entry points, ``RULEPROOF_PLUGINS``)."""
    return dict(_registry(os.environ.get(ENV_PLUGINS, "")))


def names() -> tuple[str, ...]:
    """The registered games' names."""
    return tuple(plugins())


def plugin(name: str) -> GamePlugin:
    """The plugin of game ``name``.

    Raises:
        MalformedInput: an unknown game, naming the known ones.
    """
    found = plugins().get(name)
    if found is None:
        raise MalformedInput(f"unknown game {name!r}; known games: {', '.join(plugins())}")
    return found


def make_game(name: str, **params: Any) -> GameBase[Any]:
    """The game ``name`` with ``params`` on the one interface.

    Raises:
        MalformedInput: unknown game or parameter (naming the game's parameters), or a bad value.
    """
    p = plugin(name)
    known = {q.name for q in p.params}
    unknown = sorted(set(params) - known)
    if unknown:
        raise MalformedInput(f"{name}: unknown parameter(s) {', '.join(unknown)}; known: "
                             f"{', '.join(q.name for q in p.params)}")
    return p.make_game(**params)


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
                                 f"{', '.join(x.name for x in p.params)}")
        if q.kind == "int":
            try:
                out[key] = int(raw)
            except ValueError:
                raise MalformedInput(f"parameter {key} must be a whole number, got {raw!r}"
                                     ) from None
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
    refusals: list[str] = []
    for p in plugins().values():
        try:
            takers.append(p.rule_sets(sel))
        except MalformedInput as err:
            refusals.append(f"{p.name}: {err.what}")
    if not takers:
        raise MalformedInput("no game takes this selection (" + "; ".join(refusals) + ")")
    return [rs for found in takers for rs in found]


__all__ = ["ENTRY_POINT_GROUP", "ENV_PLUGINS", "SHARED", "Deferred", "GamePlugin", "GameType", "Param",
           "RuleSet", "Selection", "Unsupported", "all_rule_sets", "make_game", "names",
           "parse_params", "plugin", "plugins", "require", "source_owner"]
