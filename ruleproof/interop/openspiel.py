"""OpenSpiel games ``python_dawn_under`` and ``python_dracula`` (needs the ``[openspiel]`` extra).

Importing this module registers both with ``pyspiel``::

    import pyspiel
    import ruleproof.interop.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("python_dawn_under", {"players": 4, "preset": "du-en"})

Parameters: ``python_dawn_under``: ``players`` (2-6), ``preset`` (``du-en``/``du-cs``/``2p``;
empty: du-en, or 2p with 2 players), ``options``
(``"name:value;name:value"``: an OpenSpiel game string cannot hold ``,`` in a value), ``expansion``
(``""`` or ``"gruft"``), ``max_moves`` (truncation bound); ``python_dracula``: ``options``,
``max_moves``. Ids, chance outcomes, returns, tensors: docs/interop.md. The states wrap the
frozen states of :mod:`ruleproof.model.api`; a clone shares them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ruleproof.model.api import CHANCE, RulesGame, RulesState
from ruleproof.properties.plugin import make_game

DAWN_UNDER_PARAMS: dict[str, Any] = {"players": 4, "preset": "", "options": "", "expansion": "",
                                     "max_moves": 3000}
DRACULA_PARAMS: dict[str, Any] = {"options": "", "max_moves": 1000}


def _game_type(short: str, long: str, low: int, high: int, spec: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short, long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)


DAWN_UNDER_TYPE = _game_type("python_dawn_under", "Python Dawn Under (ruleproof)", 2, 6,
                             DAWN_UNDER_PARAMS)
DRACULA_TYPE = _game_type("python_dracula", "Python Dracula (ruleproof)", 2, 2, DRACULA_PARAMS)


class RulesSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleproof game as a pyspiel game (the model game is ``self.rules``)."""

    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules: RulesGame = self._make(given)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions,
            max_chance_outcomes=self.rules.max_chance_outcomes,
            num_players=self.rules.num_players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0, max_game_length=self.rules.max_game_length)
        super().__init__(self.game_type, info, given)

    def _make(self, params: dict[str, Any]) -> RulesGame:
        raise NotImplementedError

    def new_initial_state(self) -> RulesSpielState:
        return RulesSpielState(self, self.rules.new_initial_state())

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulesObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RulesObserver(self.rules, perfect_recall, params)


class DawnUnderSpielGame(RulesSpielGame):
    """``python_dawn_under``."""

    game_type = DAWN_UNDER_TYPE

    def _make(self, params: dict[str, Any]) -> RulesGame:
        merged = {**DAWN_UNDER_PARAMS, **params}
        return make_game("dawn-under", players=int(merged["players"]),
                         preset=str(merged["preset"]) or None, options=str(merged["options"]),
                         expansion=str(merged["expansion"]) or None,
                         max_moves=int(merged["max_moves"]))


class DraculaSpielGame(RulesSpielGame):
    """``python_dracula``."""

    game_type = DRACULA_TYPE

    def _make(self, params: dict[str, Any]) -> RulesGame:
        merged = {**DRACULA_PARAMS, **params}
        return make_game("dracula", options=str(merged["options"]),
                         max_moves=int(merged["max_moves"]))


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


pyspiel.register_game(DAWN_UNDER_TYPE, DawnUnderSpielGame)
pyspiel.register_game(DRACULA_TYPE, DraculaSpielGame)

DAWN_UNDER_NAME = "python_dawn_under"
"""The registered name (``conform-framework --openspiel
ruleproof.interop.openspiel:DAWN_UNDER_NAME`` conforms our own game)."""
DRACULA_NAME = "python_dracula"

__all__ = ["DAWN_UNDER_NAME", "DAWN_UNDER_PARAMS", "DRACULA_NAME", "DRACULA_PARAMS",
           "DawnUnderSpielGame", "DraculaSpielGame", "RulesObserver", "RulesSpielGame", "RulesSpielState"]
