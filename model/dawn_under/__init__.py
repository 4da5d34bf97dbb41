"""Dawn Under (Zoch 2004), 3-6 players, per the English rulebook ``du-en``.

Quick start::

    >>> from ruleproof.model.dawn_under import make_config, new_game, legal_actions, apply
    >>> state = new_game(make_config(4), seed=1)
    >>> len(state.rows), [len(r) for r in state.rows]
    (4, [15, 15, 15, 15])
    >>> str(legal_actions(state)[0])
    'open 0'
    >>> state = apply(state, legal_actions(state)[0])
    >>> state.known[0]
    True
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.config import GAME, make_config, parse_options
from ruleproof.model.dawn_under.engine import (
    acting_player,
    apply,
    current_player,
    deal,
    initial_state,
    is_terminal,
    legal_actions,
    matching_ends,
    new_game,
    refill,
    step,
    why_illegal,
    winner,
)
from ruleproof.model.dawn_under.observe import (
    InformationState,
    Observation,
    information_state,
    observation,
)
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    Config,
    End,
    Event,
    EventKind,
    GarlicIn,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Options,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    Setup,
    State,
    Stop,
    Vampire,
    VampireIn,
)

__all__: list[Any] = [
    "GAME", "RAT", "Action", "Config", "End", "Event", "EventKind", "GarlicIn",
    "GiveVampire", "InformationState", "LeaveEmpty", "Observation", "OpenGrave", "Options",
    "Phase", "PlaceGarlic",
    "PlaceVampire", "ReceiveVampire", "Setup", "State", "Stop", "Vampire", "VampireIn",
    "acting_player", "apply", "current_player", "deal", "information_state", "initial_state",
    "is_terminal",
    "legal_actions", "make_config", "matching_ends", "new_game", "observation", "parse_options",
    "refill", "step", "why_illegal", "winner",
]
