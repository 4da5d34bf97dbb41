"""Perfect recall as a property, for every registered game over the one game interface: a
player's information state must tell apart any two histories that differ in what that player
did or saw.

Searched, not assumed: from states of random play, the player to move tries every sequence of
up to ``depth`` own consecutive actions; two different sequences that end in equal information
states for that player break perfect recall (the witness: the start and both sequences). The
information state is the interface's ``information_state_string`` (:func:`information_state`);
a plain observation (:func:`observation`) may forget, and the search shows it when it does.

Play as in :mod:`ruleproof.properties.endless`: ``new_seeded_state(seed)``, random legal
actions in the engine's order from ``random.Random(300 + game)``, chance nodes resolved by the
game's chance rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.properties.endless import Play, play_of
from ruleproof.properties.plugin import RuleSet

InfoFn = Callable[[GameState, int], Hashable]
"""What a player knows in a state: (state, player) -> a comparable value."""


def information_state(state: GameState, player: int) -> Hashable:
    """The interface's perfect-recall information state of ``player``."""
    return state.information_state_string(player)


def observation(state: GameState, player: int) -> Hashable:
    """The interface's observation of ``player`` (what it sees now, not what it saw)."""
    return state.observation_string(player)


def recall_violation(rs: RuleSet | str, info: InfoFn = information_state, games: int = 1,
                     every: int = 9, depth: int = 2, max_steps: int = 150
                     ) -> tuple[str | None, int]:
    """A witness that ``info`` forgets something under rule set ``rs`` (a rule set, or the name
    of a contract rule set), or None; and how many pairs of histories were compared."""
    play = play_of(rs)
    name = play.rule_set.name
    compared = 0
    for g in range(games):
        rng = random.Random(300 + g)
        state = play.new(g)
        for i in range(max_steps):  # i: actions taken so far
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            if not legal:
                break
            if i % every == every - 1:
                found, n = _branches(play, state, info, depth)
                compared += n
                if found is not None:
                    return f"{name}, seed {g} after {i} actions: {found}", compared
            state = play.apply(state, legal[rng.randrange(len(legal))])
    return None, compared


def _branches(play: Play, start: GameState, info: InfoFn, depth: int
              ) -> tuple[str | None, int]:
    player = start.current_player()
    if player < 0:
        return None, 0
    seen: dict[Any, tuple[str, ...]] = {}
    compared = 0
    frontier: list[tuple[GameState, tuple[str, ...]]] = [(start, ())]
    for _ in range(depth):
        nxt: list[tuple[GameState, tuple[str, ...]]] = []
        for state, seq in frontier:
            if state.is_terminal() or state.current_player() != player:
                continue
            for a in state.legal_typed_actions()[:40]:
                t = play.apply(state, a)
                key = info(t, player)
                s2 = (*seq, str(a))
                compared += 1
                if key in seen and seen[key] != s2:
                    return (f"player {player}: {list(seen[key])} and {list(s2)} give equal "
                            "information states"), compared
                seen.setdefault(key, s2)
                nxt.append((t, s2))
        frontier = nxt
    return None, compared


def recall_property(rs: RuleSet | str, info: InfoFn = information_state, games: int = 1,
                    every: int = 9, depth: int = 2) -> tuple[bool, int, str]:
    """Check perfect recall of ``info`` under rule set ``rs``, branching at every ``every``-th
    decision for ``depth`` actions (passes when no two histories collide; comparing nothing is
    a failure)."""
    found, n = recall_violation(rs, info, games, every=every, depth=depth)
    if n == 0:
        return False, 0, "no pair of histories was compared"
    if found is not None:
        return False, n, "perfect recall broken: " + found
    return True, n, f"{n} pairs of own-action histories told apart"


__all__ = ["InfoFn", "information_state", "observation", "recall_property", "recall_violation"]
