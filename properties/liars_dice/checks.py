"""Liar's Dice's own properties for ``ruleproof check`` (the plugin's ``checks``); the suite
adds the generic ones (the game interface, refinement against the clause contracts, the
endless-games and perfect-recall searches).

A rule set: every invariant in every state of seeded random games of its reading, and the
hypothesis machine. The shared group: the clause citations and the shipped scenarios.
"""

from __future__ import annotations

import random
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.properties.citations import check_source_cited, source_citations
from ruleproof.properties.machine import run_machine
from ruleproof.properties.plugin import RuleSet
from ruleproof.properties.report import Check, Outcome, Profile, Tally

from .invariants import INVARIANTS, violations

NAME = "liars-dice"
SOURCE = "ld-wp"


def cited_ids() -> dict[str, list[str]]:
    """ld-wp clause ids cited in Liar's Dice's code: id -> files citing it."""
    from .plugin import PLUGIN

    return source_citations(PLUGIN, SOURCE)


def check_clauses(_: Profile) -> tuple[bool, int, str]:
    """Every cited id of the game's source exists and each of its clauses is cited by
    the model (:func:`ruleproof.properties.citations.check_source_cited`)."""
    from .plugin import PLUGIN

    return check_source_cited(PLUGIN, SOURCE)


def _params(rs: RuleSet) -> dict[str, Any]:
    return rs.game_params(rs.players[0] if rs.players else 2)


def random_games(rs: RuleSet) -> Any:
    """``profile.games`` seeded random games of ``rs`` per player count on the interface:
    every invariant in every state. Game ``g`` is rolled by ``new_seeded_state(g)``, decisions
    and later rolls drawn by ``random.Random(g)``."""
    from ruleproof.properties.plugin import make_game

    def run(profile: Profile) -> Outcome:
        states = steps = games = 0
        for n in rs.players or (2,):
            game = make_game(NAME, **rs.game_params(n))
            for seed in range(profile.games):
                rng = random.Random(seed)
                state: GameState = game.new_seeded_state(seed)
                trail: list[str] = []
                while True:
                    states += 1
                    broken = violations(state.model)
                    if broken:
                        return False, states, (f"{n}p game seed {seed} after {trail}: "
                                               + "; ".join(broken))
                    if state.is_terminal():
                        break
                    if state.is_chance_node():
                        outcomes = state.chance_outcomes()
                        state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
                    else:
                        legal = state.legal_typed_actions()
                        action = legal[rng.randrange(len(legal))]
                        trail.append(str(action))
                        state = state.apply_typed(action)
                    steps += 1
                games += 1
        return True, states, (f"{games} random games, {states} states: "
                              f"{', '.join(INVARIANTS)} held in every state"), games, steps
    return run


def machine(rs: RuleSet) -> Any:
    """The generic hypothesis machine on ``rs`` (its ``invariants`` and ``machine``
    capabilities): ``profile.games`` examples of up to 60 steps."""
    def run(profile: Profile) -> Outcome:
        tally = Tally()
        ok, detail = run_machine(NAME, _params(rs), profile.games, 60, tally=tally)
        return ok, profile.games, detail or (f"{profile.games} examples, {tally.games} games: "
                                             "every invariant after every step"), \
            tally.games, tally.steps
    return run


def scenarios(_: Profile) -> Outcome:
    """Every shipped Liar's Dice scenario holds (the generic runner)."""
    from ruleproof.properties.scenarios import run_scenario, shipped

    files = shipped(NAME)
    if not files:
        return False, 0, "no scenario is shipped"
    failed = [f"{f.name}: {r.detail}" for f in files if not (r := run_scenario(f)).passed]
    if failed:
        return False, len(files), "\n".join(failed)
    return True, len(files), f"{len(files)} scenarios passed"


def rule_set_checks(rs: RuleSet) -> list[Check]:
    """The properties of one rule set."""
    return [
        Check("dice conserved, rolls in range, bids increasing, one loser per challenge: in "
              "every state of random games", "replay", random_games(rs),
              ("ld-wp:setup.dice", "ld-wp:round.roll", "ld-wp:bid.raise",
               "ld-wp:challenge.lose", "ld-wp:end.last")),
        Check("every invariant after every step (hypothesis machine)", "hypothesis",
              machine(rs), ("ld-wp:round.roll", "ld-wp:challenge.lose")),
    ]


def shared_checks() -> list[Check]:
    """The properties that do not depend on a rule set."""
    return [
        Check("every ld-wp clause is cited by the model, every cited id exists", "static",
              check_clauses, ()),
        Check("shipped scenarios", "scenario", scenarios, ()),
    ]


__all__ = ["check_clauses", "cited_ids", "machine", "random_games", "rule_set_checks",
           "scenarios", "shared_checks"]
