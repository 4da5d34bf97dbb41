"""Refinement: the engine satisfies every contract on every transition (seeded random games,
one ``random.Random`` per game, and the shipped scenarios).

A broken contract names its clause and comes with the game that breaks it, shrunk: a shorter
list of choices that still breaks the same clause, found by greedy delta debugging
(:func:`shrink`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.model.api import GameBase
from ruleproof.properties.contracts.core import Violation, broken
from ruleproof.properties.contracts.games import RuleSet, capability_of, game_of, settle
from ruleproof.properties.report import Tally


@dataclass(frozen=True)
class Transition:
    """One step of a game: the seed, the actions before it, the engine states before and after
    the action (the successor before chance is settled) and the action."""

    seed: int
    prefix: tuple[Any, ...]
    state: Any
    action: Any
    nxt: Any


def play(rs: RuleSet, game: GameBase[Any], seed: int, choices: Sequence[int] | None,
         max_steps: int, rng: random.Random | None = None) -> Iterator[Transition]:
    """Transitions of one game of ``rs`` dealt from ``seed``: ``choices`` pick among the legal
    actions (index modulo their number), else ``rng`` does (default: seeded by ``seed``)."""
    state = settle(rs, game.new_seeded_state(seed))
    rng = rng or random.Random(seed)
    prefix: list[Any] = []
    for i in range(max_steps if choices is None else min(max_steps, len(choices))):
        if state.is_terminal():
            return
        legal = state.legal_typed_actions()
        if not legal:
            return
        pick = choices[i] if choices is not None else rng.randrange(len(legal))
        action = legal[pick % len(legal)]
        nxt = state.apply_typed(action)
        yield Transition(seed, tuple(prefix), state.model, action, nxt.model)
        prefix.append(action)
        state = settle(rs, nxt)


def violations_of(rs: RuleSet, t: Transition) -> list[Violation]:
    return broken(rs.contracts(t.state), t.state, t.action, t.nxt)


def _breaks(rs: RuleSet, game: GameBase[Any], seed: int, choices: Sequence[int], clause: str,
            max_steps: int) -> bool:
    return any(any(v.clause == clause for v in violations_of(rs, t))
               for t in play(rs, game, seed, choices, max_steps))


def shrink(rs: RuleSet, game: GameBase[Any], seed: int, choices: list[int], clause: str,
           max_steps: int, budget: int = 120) -> list[int]:
    """A shorter choice list that still breaks ``clause`` (greedy delta debugging: drop
    chunks, then single choices, then lower each choice to 0); at most ``budget`` replays."""
    best = list(choices)
    tries = 0
    chunk = max(1, len(best) // 2)
    while chunk >= 1 and tries < budget:
        i = 0
        changed = False
        while i < len(best) and tries < budget:
            cand = best[:i] + best[i + chunk:]
            tries += 1
            if cand and _breaks(rs, game, seed, cand, clause, max_steps):
                best = cand
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    for i in range(len(best)):
        if tries >= budget:
            break
        if best[i] != 0:
            cand = [*best[:i], 0, *best[i + 1:]]
            tries += 1
            if _breaks(rs, game, seed, cand, clause, max_steps):
                best = cand
    return best


def describe(rs: RuleSet, game: GameBase[Any], seed: int, choices: Sequence[int], v: Violation,
             max_steps: int) -> str:
    """The shrunk game as text: seed, actions, and the broken clause."""
    actions = []
    for t in play(rs, game, seed, choices, max_steps):
        actions.append(str(t.action))
        found = [w for w in violations_of(rs, t) if w.clause == v.clause]
        if found:
            v = found[0]
            break
    return (f"{rs.name}: contract {v.clause} ({v.how}: {v.what}) broken by '{v.action}' after "
            f"{len(actions) - 1} actions from seed {seed}: {actions}")


def check_refinement(rs: RuleSet, games: int, max_steps: int, seed: int = 0,
                     shrink_game: bool = True, tally: Tally | None = None
                     ) -> tuple[bool, int, str]:
    """Play ``games`` seeded random games of ``rs`` and check every contract on every
    transition. ``tally`` (if given) counts the games started, those that reached an ending
    and the transitions taken.

    Returns (passed, transitions checked, detail). A failure's detail names the clause and the
    shrunk game. Zero transitions is a failure (nothing was checked).
    """
    game = game_of(rs)
    checked = 0
    count = tally if tally is not None else Tally()
    for g in range(games):
        game_seed = seed + g
        count.games += 1
        rng = random.Random(game_seed)
        choices: list[int] = []
        state = settle(rs, game.new_seeded_state(game_seed))
        for _ in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            if not legal:
                break
            pick = rng.randrange(len(legal))
            choices.append(pick)
            action = legal[pick]
            nxt = state.apply_typed(action)
            checked += 1
            count.steps += 1
            bad = broken(rs.contracts(state.model), state.model, action, nxt.model)
            if bad:
                v = bad[0]
                small = shrink(rs, game, game_seed, choices, v.clause, max_steps) \
                    if shrink_game else None
                return False, checked, describe(rs, game, game_seed, small or choices, v,
                                                max_steps)
            state = settle(rs, nxt)
        if state.is_terminal():
            count.finished += 1
    if checked == 0:
        return False, 0, f"{rs.name}: no transition was played"
    return True, checked, f"{rs.name}: {checked} transitions of {games} games meet every contract"


def check_scenarios(rs: RuleSet) -> tuple[bool, int, str]:
    """Every transition of every shipped scenario that plays ``rs`` (the game's
    :attr:`~ruleproof.properties.contracts.games.GameContracts.scenario_runs`) meets the
    contracts; an action the model refuses is skipped."""
    runs = capability_of(rs).scenario_runs
    game = game_of(rs)
    checked = 0
    for run in runs(rs) if runs is not None else ():
        state = run.start  # an engine state: a scenario may set up any position
        for action in run.actions:
            try:
                nxt = game.model_step(state, action)[0]
            except IllegalAction:
                continue
            checked += 1
            bad = broken(rs.contracts(state), state, action, nxt)
            if bad:
                return False, checked, (f"{run.name}: contract {bad[0].clause} "
                                        f"({bad[0].what}) broken by '{action}'")
            state = nxt
    if checked == 0:
        return False, 0, f"no shipped scenario plays {rs.name}'s rule set"
    return True, checked, f"{checked} scenario transitions meet every contract"


def refinement_property(rs: RuleSet, games: int, max_steps: int = 600
                        ) -> tuple[bool, int, str, int, int]:
    """The property "every transition satisfies the clause contracts of <sources>" for one rule
    set: seeded random games plus the shipped scenarios of that rule set (when the game's
    contracts capability lists them).

    Returns ``(passed, transitions checked, detail, games played, steps of those games)``
    (scenario transitions count as checked, not as games)."""
    tally = Tally()
    ok, n, detail = check_refinement(rs, games, max_steps, tally=tally)
    if not ok or capability_of(rs).scenario_runs is None:
        return ok, n, detail, tally.games, tally.steps
    ok2, n2, detail2 = check_scenarios(rs)
    if n2 == 0:  # no scenario of this rule set: the random games above still count
        return True, n, detail + "; " + detail2, tally.games, tally.steps
    return ok2, n + n2, detail + "; " + detail2, tally.games, tally.steps
