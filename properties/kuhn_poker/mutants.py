"""Kuhn poker's rule sites for the mutant search (capability ``"mutants"``, :data:`MUTANTS`;
the operators and the search are :mod:`ruleproof.properties.discovery.mutants`).

The hand is a list of decisions, so the cheap sites are the decisions themselves: an optional
choice forced at each of the three kinds of decision (the first, after a pass, facing a bet).
Who decides, who wins and what is shown are derived from the decisions, so they are not
mutated here (the effect perturbations of discovery cover them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ruleproof.model.api import GameBase
from ruleproof.model.kuhn_poker.rules import Hand, Move
from ruleproof.properties.contracts.discovery import Finding
from ruleproof.properties.discovery.mutants import Reading, Site, SiteList, mutant, refusing
from ruleproof.properties.plugin import RuleSet

from .contracts import facing_bet


def _engine(value: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        return value
    return engine


def _forcing(label: str, when: Callable[[Hand], bool], refused: Move
             ) -> Callable[[GameBase[Any]], GameBase[Any]]:
    def refuse(m: Any, a: Any) -> bool:
        return isinstance(m, Hand) and len(m.cards) == 2 and when(m) and a is refused

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=refusing(refuse), label=label)
    return make


def sites(rs: RuleSet) -> list[Site]:
    """The three decisions, each with one choice forced."""
    first: Callable[[Hand], bool] = lambda h: not h.moves  # noqa: E731
    after_pass: Callable[[Hand], bool] = lambda h: h.moves == (Move.PASS,)  # noqa: E731
    facing: Callable[[Hand], bool] = lambda h: facing_bet(h.moves)  # noqa: E731
    return [
        Site("forced", "first-decision", ("kuhn-wp:rules.first",),
             "May the first player pass or bet, or must they bet?",
             (Reading("either", "pass or bet", lambda b: b),
              Reading("must-bet", "a bet", _forcing("the first must bet", first, Move.PASS))),
             _engine("either")),
        Site("forced", "after-pass", ("kuhn-wp:rules.after-pass",),
             "After a pass, may the second player bet, or must they pass too?",
             (Reading("either", "pass or bet", lambda b: b),
              Reading("must-pass", "pass", _forcing("a pass is answered by a pass",
                                                    after_pass, Move.BET))),
             _engine("either")),
        Site("forced", "facing-bet", ("kuhn-wp:rules.facing-bet", "kuhn-wp:rules.fold"),
             "Facing a bet, may a player fold, or must they call?",
             (Reading("call-or-fold", "call or fold", lambda b: b),
              Reading("must-call", "call", _forcing("a bet must be called", facing, Move.PASS))),
             _engine("call-or-fold")),
    ]


def _witness(rs: RuleSet, finding: Finding) -> str:
    from .discovery import DISCOVERY

    return DISCOVERY.witness(rs, finding)


MUTANTS = SiteList(sites, _witness)
"""The capability ``"mutants"`` of Kuhn poker's plugin record."""
