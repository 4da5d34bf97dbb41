"""Every registered game as an OpenSpiel game (needs the ``[openspiel]`` extra).

Importing this module registers each game of the registry (:func:`ruleproof.properties.plugin.
plugins`) with ``pyspiel`` under ``python_<name>`` (the game's name with ``_`` for ``-``; ``ruleproof_<name>``
where OpenSpiel ships a Python game of that name, :func:`spiel_name`)::

    import pyspiel
    import ruleproof.interop.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(spiel_name(NAME), {"players": 4})

A game added to the registry later (``RULEPROOF_PLUGINS``, an entry point loaded afterwards) is
registered by :func:`register` with its registry name alone.

Parameters: the game's parameter model (``GamePlugin.params``), each with its default; OpenSpiel
parameters cannot be None, so an unset text or path parameter is ``""`` and an unset number
``0`` (both mean "the game's default"). Rule options (``options``) are
``"name:value;name:value"``: an OpenSpiel game string cannot hold ``,`` in a value. Ids, chance
outcomes, returns, tensors: docs/interop.md. The states wrap the frozen states of
:mod:`ruleproof.model.api`; a clone shares them.

For each registered game the module also answers the names ``<PACKAGE>_NAME`` (its OpenSpiel
name), ``<PACKAGE>_PARAMS`` (its parameter specification) and ``<Package>SpielGame`` (its game
class, to subclass), ``PACKAGE`` being the game's folder name (``GamePlugin.package``) in capitals
and ``Package`` in camel case.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE, RulesGame, RulesState
from ruleproof.properties.plugin import GamePlugin, Param, make_game, plugin, plugins

_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}
_UTILITY = {"zero-sum": pyspiel.GameType.Utility.ZERO_SUM,
            "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM,
            "general-sum": pyspiel.GameType.Utility.GENERAL_SUM,
            "identical": pyspiel.GameType.Utility.IDENTICAL}


def spiel_name(name: str) -> str:
    """The OpenSpiel short name of the registered game ``name``: ``python_<name>``, ``-`` as
    ``_``; ``ruleproof_<name>`` when OpenSpiel ships a Python game of that name itself
    (``open_spiel/python/games/<name>.py`` registers ``python_<name>``), so neither replaces
    the other whatever is imported first."""
    short = name.replace("-", "_")
    try:
        ships = importlib.util.find_spec(f"open_spiel.python.games.{short}") is not None
    except ImportError:  # no open_spiel.python.games package
        ships = False
    return ("ruleproof_" if ships else "python_") + short


def _spec_default(q: Param) -> Any:
    """An OpenSpiel parameter default for ``q`` (never None)."""
    if q.kind == "int":
        return int(q.default) if isinstance(q.default, int) else 0
    if q.kind == "bool":
        return bool(q.default)
    return "" if q.default is None else str(q.default)


def parameter_specification(p: GamePlugin) -> dict[str, Any]:
    """The OpenSpiel parameter specification of ``p``: every parameter with its default."""
    return {q.name: _spec_default(q) for q in p.params}


def game_params(p: GamePlugin, given: dict[str, Any]) -> dict[str, Any]:
    """The parameters for ``make_game`` from OpenSpiel's: an empty text or path, or a zero
    number whose game default is None, means "not given"."""
    out: dict[str, Any] = {}
    for key, value in given.items():
        q = p.param(key)
        if q is None:
            raise MalformedInput(f"{spiel_name(p.name)} has no parameter {key!r}; its "
                                 f"parameters: {', '.join(x.name for x in p.params)}")
        if q.kind == "int":
            if value == 0 and q.default is None:
                continue
            out[key] = int(value)
        elif q.kind == "bool":
            out[key] = bool(value)
        elif value in ("", None):
            continue
        else:
            out[key] = Path(str(value)) if q.kind == "path" else str(value)
    return out


def game_type(p: GamePlugin) -> Any:
    """The ``pyspiel.GameType`` of ``p``."""
    kind = p.game_type
    return pyspiel.GameType(
        short_name=spiel_name(p.name), long_name=f"Python {p.title} (ruleproof)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if kind.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=_INFORMATION[kind.information],
        utility=_UTILITY[kind.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(kind.players), min_num_players=min(kind.players),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_specification(p))


class RulesSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleproof game as a pyspiel game (the model game is ``self.rules``).

    The class of a registered game (:func:`register`) sets ``game_name`` (the registry name)
    and ``game_type``; a subclass that plants a mutant sets ``game_name`` alone (its
    ``game_type`` is then the registered game's)::

        class Mutant(RulesSpielGame):
            game_name = NAME
            def new_initial_state(self) -> RulesSpielState: ...
    """

    game_type: Any = None
    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules: RulesGame = self._make(given)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions,
            max_chance_outcomes=self.rules.max_chance_outcomes,
            num_players=self.rules.num_players, min_utility=self.rules.min_utility,
            max_utility=self.rules.max_utility,
            utility_sum=0.0, max_game_length=self.rules.max_game_length)
        kind = self.game_type or game_type(plugin(self.game_name))
        super().__init__(kind, info, given)

    def _make(self, params: dict[str, Any]) -> RulesGame:
        """The model game from OpenSpiel's parameters (a subclass may plant another)."""
        p = plugin(self.game_name)
        return make_game(p.name, **game_params(p, params))

    def new_initial_state(self) -> RulesSpielState:
        return RulesSpielState(self, self.rules.new_initial_state())

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulesObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RulesObserver(self.rules, perfect_recall, params)


class RulesSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a frozen :class:`ruleproof.model.api.RulesState`
    (``self.rules_state``); applying an action replaces it."""

    def __init__(self, game: RulesSpielGame, state: RulesState) -> None:
        super().__init__(game)
        self.rules_state = state
        self._rules_game = game.rules

    def current_player(self) -> int:
        cp = self.rules_state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if cp < 0 and cp != CHANCE else cp

    def _legal_actions(self, player: int) -> list[int]:
        return self.rules_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(o, float(p)) for o, p in self.rules_state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.rules_state = self.rules_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._rules_game.action_to_string(player, int(action))

    def is_terminal(self) -> bool:
        return self.rules_state.is_terminal()

    def returns(self) -> list[float]:
        return self.rules_state.returns()

    def __str__(self) -> str:
        return repr(self.rules_state)


class RulesObserver:
    """The PyObserver of a ruleproof game: ``tensor`` (float32, flat, layout in
    docs/interop.md), ``dict`` (one entry ``observation``), ``set_from``, ``string_from``;
    ``perfect_recall`` selects the information state."""

    def __init__(self, rules: RulesGame, perfect_recall: bool, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = perfect_recall
        shape = rules.information_state_tensor_shape if perfect_recall \
            else rules.observation_tensor_shape
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulesSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        indices = getattr(state.rules_state, "observation_indices", None)
        if indices is not None:
            self.tensor[indices(player)] = 1.0
        else:
            tensor = (state.rules_state.information_state_tensor(player) if self.perfect_recall
                      else state.rules_state.observation_tensor(player))
            self.tensor[:] = tensor

    def string_from(self, state: RulesSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.rules_state.information_state_string(player)
        return state.rules_state.observation_string(player)


def _camel(package: str) -> str:
    return "".join(part.title() for part in package.split("_"))


@cache
def register(name: str) -> type[RulesSpielGame]:
    """Register the game ``name`` of the registry with pyspiel as :func:`spiel_name` (once per
    process; later calls return the same class).

    Returns:
        its game class (a :class:`RulesSpielGame`).

    Raises:
        MalformedInput: an unknown game (naming the known ones).
    """
    p = plugin(name)
    kind = game_type(p)
    cls = type(f"{_camel(p.package)}SpielGame", (RulesSpielGame,),
               {"game_type": kind, "game_name": p.name, "__module__": __name__,
                "__doc__": f"``{spiel_name(p.name)}``: {p.title} (``{p.name}``)."})
    pyspiel.register_game(kind, cls)
    return cls


def register_all() -> dict[str, str]:
    """Register every game of the registry; returns game name -> OpenSpiel name."""
    out = {}
    for name in plugins():
        register(name)
        out[name] = spiel_name(name)
    return out


REGISTERED = register_all()
"""The games registered on import: game name -> OpenSpiel name."""


def __getattr__(attr: str) -> Any:
    """``<PACKAGE>_NAME``, ``<PACKAGE>_PARAMS`` and ``<Package>SpielGame`` of each registered
    game (see the module docstring).

    Raises:
        AttributeError: no registered game has that name.
    """
    for p in plugins().values():
        upper = p.package.upper()
        if attr == f"{upper}_NAME":
            return spiel_name(p.name)
        if attr == f"{upper}_PARAMS":
            return parameter_specification(p)
        if attr == f"{_camel(p.package)}SpielGame":
            return register(p.name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


__all__ = ["REGISTERED", "RulesObserver", "RulesSpielGame", "RulesSpielState", "game_params",
           "game_type", "parameter_specification", "register", "register_all", "spiel_name"]
