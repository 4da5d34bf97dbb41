"""Mutant: a Dawn Under (du-en) OpenSpiel game that ends the turn after a vampire is put to
rest (the du-cs reading, du-cs:prubeh.match-ends) although du-en lets the player go on
(du-en:ch1.continue)."""

from __future__ import annotations

from typing import Any

from ruleproof.interop.openspiel import RulesSpielGame
from ruleproof.model.api import RulesGame
from ruleproof.properties.plugin import make_game

CAUGHT_AS = ("player", "legal")


class TurnEndsGame(RulesSpielGame):
    """Claims du-en, plays the turn-ends reading."""
    game_name = "dawn-under"

    def _make(self, params: dict[str, Any]) -> RulesGame:
        return make_game("dawn-under", players=4, options={"after_match": "turn-ends"})


GAME = TurnEndsGame({"players": 4})
