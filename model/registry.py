"""Make a game of the one interface (:mod:`ruleproof.model.api`) by name and parameters.

``make_game("dawn-under", players=4, preset="du-en", options=None, expansion=None,
max_moves=3000)`` (players 2..6; players=2 selects the 2-player rules) and
``make_game("dracula", options=None, max_moves=1000)``. ``GAMES`` lists the games with their
parameters and defaults.

Raises:
    MalformedInput: unknown game or parameter, or a bad parameter value.
"""

from __future__ import annotations

from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import RulesGame
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dracula.game import DraculaGame

GAMES: dict[str, dict[str, Any]] = {
    "dawn-under": {"players": 4, "preset": None, "options": None, "expansion": None,
                   "max_moves": 3000},
    "dracula": {"options": None, "max_moves": 1000},
}
"""Game name -> parameter -> default (preset None: ``du-en``, or ``2p`` with 2 players)."""


def make_game(name: str, **params: Any) -> RulesGame:
    """A game object for ``name`` with ``params`` (see :data:`GAMES`)."""
    if name not in GAMES:
        raise MalformedInput(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    unknown = sorted(set(params) - set(GAMES[name]))
    if unknown:
        raise MalformedInput(f"{name}: unknown parameter(s) {', '.join(unknown)}; "
                             f"known: {', '.join(GAMES[name])}")
    if name == "dawn-under":
        return DawnUnderGame(**params)
    return DraculaGame(**params)


__all__ = ["GAMES", "make_game"]
