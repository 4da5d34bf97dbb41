"""Mutant: a Dracula OpenSpiel game in which a figure can never look at the card where it
stands (dracula-en:move.look-choice offers the look)."""

from __future__ import annotations

from ruleproof.interop.openspiel import RulesSpielGame, RulesSpielState
from ruleproof.model.dracula.engine import Look

CAUGHT_AS = ("legal",)


class NoLookState(RulesSpielState):
    def _legal_actions(self, player: int) -> list[int]:
        game = self._rules_game
        return [a for a in self.rules_state.legal_actions()
                if not isinstance(game.id_to_action(a), Look)]


class NoLookGame(RulesSpielGame):
    game_name = "dracula"

    def new_initial_state(self) -> RulesSpielState:
        return NoLookState(self, self.rules.new_initial_state())


GAME = NoLookGame({})
