"""An action space from the components, not from the model's action types (issue #24, search
kind ``components`` of :data:`~ruleproof.properties.contracts.discovery.SEARCH_KINDS`).

The legality search asks the model's own action types. A text may allow a move the model has
no type for (handing over a token that is not at the end of a row, keeping received tokens
aside, a card from a pile the model never plays from) or forbid one the model allows. Here each
game lists, per state, its *component moves*: every token a player holds to every place it
could go (row ends and positions, graves, locations, other players, any card), restricted to
the decision the state asks for; a move the model's action types cannot express is a game's
own object that the contracts judge like any action. A move the engine refuses that no
contract forbids, or one it allows that no contract permits, is a finding; one a contract
forbids (refused) or permits (allowed) is settled by that clause (counted in the figures).

A game takes part through the capability ``"components"`` of its plugin record
(:class:`ComponentSpace`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ruleproof.properties.contracts.core import forbidding, permitting
from ruleproof.properties.contracts.discovery import Budget, Finding, Search, SearchResult, SearchRun
from ruleproof.properties.discovery.generators import explained, plays
from ruleproof.properties.plugin import GamePlugin, plugin

CAPABILITY = "components"
"""The name of the capability in a game's plugin record."""


@dataclass(frozen=True)
class Move:
    """One component move at a state.

    Attributes:
        action: the move: an action of the model's types, or an object of the game's own for
            a move the model cannot express (the contracts judge both).
        subject: what moves where, in the reader's words (``a received vampire put between two
            vampires of the row``); the finding key is built from it.
        question: the question a finding on this move asks, in plain words.
        clauses: the clause ids in play.
        in_model: whether the model has an action type for the move.
    """

    action: Any
    subject: str
    question: str
    clauses: tuple[str, ...] = ()
    in_model: bool = False


class ComponentSpace(Protocol):
    """A game's components as moves (capability ``"components"``). States are the game's
    engine states."""

    def moves(self, state: Any) -> Sequence[Move]:
        """The component moves of the decision ``state`` asks for, in a fixed order."""
        ...


def space_of(p: GamePlugin) -> ComponentSpace | None:
    """The components capability of a game (None if it has none)."""
    found: ComponentSpace | None = p.capability(CAPABILITY)
    return found


def search(unit: Search, budget: Budget, deadline: float | None,
           context: SearchRun) -> SearchResult:
    """Every component move at every ``budget.stride``-th state of random play of ``unit``'s
    rule set, against the engine's legal actions and the contracts (first witness per key)."""
    from ruleproof.properties.contracts.games import game_of, rule_set

    rs = rule_set(unit.rule_set)
    space = space_of(plugin(rs.game))
    if space is None:
        return SearchResult([])
    sets = context.sets_for(rs) if context.sets_for is not None else None
    game = (context.game_for(rs) if context.game_for is not None else None) or game_of(rs)
    found: dict[str, Finding] = {}
    judged = forbidden = permitted = 0
    off_model = 0
    settled: dict[str, int] = {}
    for i, (_play, st) in enumerate(plays(rs, game, budget, ())):
        if deadline is not None and time.perf_counter() > deadline:
            break
        if i % max(1, budget.stride):
            continue
        s = st.state
        contracts = rs.contracts(s, sets)
        legal = set(game.model_legal(s))
        for m in space.moves(s):
            judged += 1
            off_model += not m.in_model
            allowed = m.in_model and m.action in legal
            if not allowed:
                forb = forbidding(contracts, s, m.action)
                if forb:
                    forbidden += 1
                    for c in set(forb):
                        settled[c] = settled.get(c, 0) + 1
                    continue
                key = f"component refused-unforbidden: {m.subject}"
                what = (f"the engine refuses {m.subject} ('{m.action}'"
                        + ("" if m.in_model else ", a move the model has no type for")
                        + "); no contract forbids it")
                readings = ("refused (the model)", "allowed")
            else:
                perm = permitting(contracts, s, m.action)
                if perm:
                    permitted += 1
                    for c in set(perm):
                        settled[c] = settled.get(c, 0) + 1
                    continue
                key = f"component allowed-unpermitted: {m.subject}"
                what = f"the engine allows {m.subject} ('{m.action}'); no contract permits it"
                readings = ("allowed (the model)", "refused")
            if key not in found:
                found[key] = Finding("component", key, rs.name, m.clauses, st.seed,
                                     tuple(map(str, st.prefix)), str(m.action),
                                     f"{what}. {m.question}", question=m.question,
                                     readings=readings, search="components")
    stats = {"components": {"moves judged": judged, "off the model's types": off_model,
                            "forbidden by a contract": forbidden,
                            "permitted by a contract": permitted, "settled by": settled,
                            "open": len(found)}}
    return SearchResult(explained(rs.game, list(found.values())), stats)
