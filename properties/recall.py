"""Perfect recall as a property: a player's information state must tell apart any two histories
that differ in what that player did or saw.

Searched, not assumed: from states of random play, the player to move tries every sequence of
up to ``depth`` own consecutive actions; two different sequences that end in equal information
states for that player break perfect recall (the witness: the start and both sequences).
Dawn Under's :func:`observation` alone breaks it (an opened, known, empty grave left empty is
forgotten); its :func:`information_state` and Dracula's observation (which keeps the player's log)
must not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ruleproof.properties.contracts.games import Engine, engine_of, rule_set

InfoFn = Callable[[list[Any], list[Any], int], Any]


def du_observation(history: list[Any], actions: list[Any], player: int) -> Any:
    """Dawn Under's plain observation of the last state (what the docs used to call the
    information state)."""
    from ruleproof.model.dawn_under.observe import observation

    return observation(history[-1], player)


def du_information_state(history: list[Any], actions: list[Any], player: int) -> Any:
    from ruleproof.model.dawn_under.observe import information_state

    return information_state(history, actions, player)


def dracula_observation(history: list[Any], actions: list[Any], player: int) -> Any:
    from ruleproof.model.dracula import observation

    return observation(history[-1], player)


def recall_violation(name: str, info: InfoFn, games: int, every: int = 9, depth: int = 2,
                     max_steps: int = 150) -> tuple[str | None, int]:
    """A witness that ``info`` forgets something of rule set ``name``, or None; and how many
    pairs of histories were compared."""
    engine = engine_of(rule_set(name))
    compared = 0
    for g in range(games):
        rng = random.Random(300 + g)
        state = engine.chance(engine.new(g))
        history: list[Any] = [state]
        actions: list[Any] = []
        for i in range(max_steps):
            if engine.terminal(state):
                break
            legal = engine.legal(state)
            if not legal:
                break
            if i % every == every - 1:
                found, n = _branches(engine, history, actions, info, depth)
                compared += n
                if found is not None:
                    return f"{name}, seed {g} after {len(actions)} actions: {found}", compared
            a = legal[rng.randrange(len(legal))]
            actions.append(a)
            state = engine.chance(engine.apply(state, a))
            history.append(state)
    return None, compared


def _branches(engine: Engine, history: list[Any], actions: list[Any], info: InfoFn,
              depth: int) -> tuple[str | None, int]:
    start = history[-1]
    player = _mover(start)
    if player is None:
        return None, 0
    seen: dict[Any, tuple[str, ...]] = {}
    compared = 0
    frontier: list[tuple[Any, tuple[str, ...], list[Any], list[Any]]] = [(start, (), [], [])]
    for _ in range(depth):
        nxt: list[tuple[Any, tuple[str, ...], list[Any], list[Any]]] = []
        for state, seq, hist, acts in frontier:
            if engine.terminal(state) or _mover(state) != player:
                continue
            for a in engine.legal(state)[:40]:
                t = engine.chance(engine.apply(state, a))
                h2 = [*hist, t]
                a2 = [*acts, a]
                key = info([*history, *h2], [*actions, *a2], player)
                s2 = (*seq, str(a))
                compared += 1
                if key in seen and seen[key] != s2:
                    return (f"player {player}: {list(seen[key])} and {list(s2)} give equal "
                            "information states"), compared
                seen.setdefault(key, s2)
                nxt.append((t, s2, h2, a2))
        frontier = nxt
    return None, compared


def _mover(state: Any) -> int | None:
    from ruleproof.model.dawn_under.state import State as DuState

    if isinstance(state, DuState):
        from ruleproof.model.dawn_under.engine import current_player

        return current_player(state)
    from ruleproof.model import dracula

    p = dracula.current_player(state)
    return p if p in (0, 1) else None


def recall_property(name: str, info: InfoFn, games: int) -> tuple[bool, int, str]:
    """Check perfect recall of ``info`` under rule set ``name`` (passes when no two histories
    collide; comparing nothing is a failure)."""
    found, n = recall_violation(name, info, games)
    if n == 0:
        return False, 0, "no pair of histories was compared"
    if found is not None:
        return False, n, "perfect recall broken: " + found
    return True, n, f"{n} pairs of own-action histories told apart"
