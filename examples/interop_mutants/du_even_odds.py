"""Mutant: a Dawn Under OpenSpiel game whose deal draws every kind of lid that is left with the
same probability (rat lids as likely as each colour) instead of by the number of lids left
(du-en:prep.mix-rats: the lids are mixed, so each lid is equally likely)."""

from __future__ import annotations

from ruleproof.interop.openspiel import RulesSpielGame, RulesSpielState

CAUGHT_AS = ("chance",)


class EvenOddsState(RulesSpielState):
    """Uniform over the kinds left."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kinds = [o for o, _ in self.rules_state.chance_outcomes()]
        return [(o, 1.0 / len(kinds)) for o in kinds]


class EvenOddsGame(RulesSpielGame):
    game_name = "dawn-under"

    def new_initial_state(self) -> RulesSpielState:
        return EvenOddsState(self, self.rules.new_initial_state())


GAME = EvenOddsGame({"players": 4})
