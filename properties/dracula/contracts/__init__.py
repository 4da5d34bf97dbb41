"""Dracula's clause contracts (``dracula_en``: the rulebook dracula-en) and the capability
``"contracts"`` of its plugin record (:data:`CONTRACTS`, see
:class:`~ruleproof.properties.contracts.games.GameContracts`): the default rules are held to
dracula-en; the other rule options are registered readings the contracts do not state.
"""

from __future__ import annotations

import random
from typing import Any

from ruleproof.model.api import CHANCE, GameState
from ruleproof.properties.contracts.games import GameContracts, Recall
from ruleproof.properties.dracula.contracts.beyond_text import BEYOND_TEXT
from ruleproof.properties.plugin import RuleSet


def _dracula_en() -> Any:
    from dataclasses import replace

    from ruleproof.properties.dracula.contracts.dracula_en import CONTRACTS
    from ruleproof.properties.dracula.contracts.found_by_mutants import CONTRACTS as MORE

    return replace(CONTRACTS, contracts=(*CONTRACTS.contracts, *MORE))


def _dracula_en_example() -> Any:
    from ruleproof.properties.dracula.contracts.dracula_en_example import CONTRACTS

    return CONTRACTS


def settle(state: GameState) -> GameState:
    """Draw every pending chance node as the engine's seeded play does
    (``resolve_chance``: ``random.Random`` seeded by the state's seed and step counter, one
    of the engine's outcomes in its order; dracula-en:setup.deal, dracula-en:cards.cycle)."""
    from ruleproof.model.dracula import legal_actions

    while state.current_player() == CHANCE:
        m = state.model
        options = legal_actions(m)
        rng = random.Random(f"{m.seed}/{m.step}")
        state = state.apply_typed(options[rng.randrange(len(options))])
    return state


def refinement_rule_sets(rs: RuleSet) -> tuple[RuleSet, ...]:
    """The default rules are checked against dracula-en; a reading (an option set) is not."""
    from ruleproof.properties.dracula.plugin import contract_rule_sets

    if rs.shared or rs.options:
        return ()
    return contract_rule_sets()


def _observation() -> Any:
    from ruleproof.properties.recall import information_state

    return information_state


CONTRACTS = GameContracts(
    sets={"dracula-en": _dracula_en},
    settle=settle,
    refinement_rule_sets=refinement_rule_sets,
    searched_rule_set="dracula",
    recall=Recall("observation", _observation, 4, 2),
    parts={"dracula-en:example": _dracula_en_example},
    beyond_text=BEYOND_TEXT,
)
"""The capability ``"contracts"`` of Dracula's plugin record."""
