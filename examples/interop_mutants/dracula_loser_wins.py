"""Mutant: a Dracula OpenSpiel game that pays the loser (returns swapped;
dracula-en:objective.goal: the side that reaches its goal wins)."""

from __future__ import annotations

from ruleproof.interop.openspiel import RulesSpielGame, RulesSpielState

CAUGHT_AS = ("returns",)


class LoserWinsState(RulesSpielState):
    def returns(self) -> list[float]:
        return [-r for r in self.rules_state.returns()]


class LoserWinsGame(RulesSpielGame):
    game_name = "dracula"

    def new_initial_state(self) -> RulesSpielState:
        return LoserWinsState(self, self.rules.new_initial_state())


GAME = LoserWinsGame({})
