"""Mutant: a Dawn Under OpenSpiel game that never offers garlic for an opened empty grave
(du-en:ch1.garlic allows it)."""

from __future__ import annotations

from ruleproof.interop.openspiel import RulesSpielGame, RulesSpielState
from ruleproof.model.dawn_under import PlaceGarlic

CAUGHT_AS = ("legal",)


class NoGarlicState(RulesSpielState):
    """Drops every garlic action from the legal actions."""

    def _legal_actions(self, player: int) -> list[int]:
        table = self._rules_game
        return [a for a in self.rules_state.legal_actions()
                if not isinstance(table.id_to_action(a), PlaceGarlic)]


class NoGarlicGame(RulesSpielGame):
    game_name = "dawn-under"

    def new_initial_state(self) -> RulesSpielState:
        return NoGarlicState(self, self.rules.new_initial_state())


GAME = NoGarlicGame({"players": 3})
