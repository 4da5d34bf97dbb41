"""Planted targets for ``conform --openspiel/--pettingzoo TARGET --identify`` (#25): the
model itself, wrapped for OpenSpiel or PettingZoo, but playing registered readings other than
the defaults, without saying so (they claim plain du-en / dracula-en).

* ``TURN_ENDS``: Dawn Under, 4 players, after_match=turn-ends (the du-cs reading);
* ``TWO_READINGS``: Dawn Under, 4 players, after_match=turn-ends and turn_start=may-pass;
* ``ZOO_TURN_ENDS``: the PettingZoo environment of ``TURN_ENDS``;
* ``DRACULA_NO_BARRIER``: Dracula with barrier_optional=false.

Each is identified as exactly the readings it plays (tests/test_identify_framework.py).
"""

from __future__ import annotations

from typing import Any

from ruleproof.interop.openspiel import RulesSpielGame
from ruleproof.interop.pettingzoo import RulesEnv
from ruleproof.model.api import RulesGame
from ruleproof.properties.plugin import make_game


def _planted(game: str, players: int | None, readings: dict[str, str]) -> type[RulesSpielGame]:
    """An OpenSpiel game class claiming ``game`` but playing ``readings``."""

    class Planted(RulesSpielGame):
        game_name = game

        def _make(self, params: dict[str, Any]) -> RulesGame:
            extra = {} if players is None else {"players": players}
            return make_game(game, options=dict(readings), **extra)

    return Planted


TURN_ENDS = _planted("dawn-under", 4, {"after_match": "turn-ends"})({"players": 4})
TWO_READINGS = _planted("dawn-under", 4, {"after_match": "turn-ends",
                                          "turn_start": "may-pass"})({"players": 4})
DRACULA_NO_BARRIER = _planted("dracula", None, {"barrier_optional": "false"})({})


def ZOO_TURN_ENDS() -> RulesEnv:
    """Dawn Under's PettingZoo environment under after_match=turn-ends."""
    return RulesEnv(make_game("dawn-under", players=4, options={"after_match": "turn-ends"}))
