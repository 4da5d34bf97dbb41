"""The expansion "Frische Luft für die Gruft" (gruft-en) for Dawn Under: Count Rucola, bats,
graves left open until the end of the turn.

Played by choosing the rule option ``expansion=gruft`` (CLI ``--expansion gruft``); the base
engine then calls the hooks of :data:`EXPANSION`. The expansion's part of a state is
``part(state)`` (a :class:`Gruft`), None without the expansion.

    >>> from ruleproof.model.dawn_under import make_config, new_game, parse_options
    >>> state = new_game(make_config(4, parse_options({"expansion": "gruft"})), seed=1)
    >>> part(state).bats
    (2, 2, 2, 2)
"""

from __future__ import annotations

from ruleproof.model.dawn_under.gruft.rules import (
    EXPANSION,
    OPTIONS,
    GruftExpansion,
    bats_per_player,
    count_graves,
    count_in_play,
)
from ruleproof.model.dawn_under.gruft.state import (
    BatClaim,
    Believe,
    CountTo,
    Doubt,
    GiftTo,
    Gruft,
    GruftEvent,
    GruftPhase,
    PlayBat,
    part,
)

__all__ = [
    "EXPANSION", "OPTIONS", "BatClaim", "Believe", "CountTo", "Doubt", "GiftTo", "Gruft",
    "GruftEvent", "GruftExpansion", "GruftPhase", "PlayBat", "bats_per_player", "count_graves",
    "count_in_play", "part",
]
