"""Kuhn poker's own properties for ``ruleproof check`` (the plugin's ``checks``); the suite
adds the generic ones (the game interface, the symbolic layer, refinement against the clause
contracts).

The rule set kuhn-wp: every invariant in every state of seeded random hands, and the
hypothesis machine (the generic one, :mod:`ruleproof.properties.machine`). The shared group:
the clause citations and the shipped scenarios (the generic runner); the suite adds the generic
endless-games and perfect-recall searches, set for hands of at most three decisions by the
game's ``cycles`` and ``contracts`` capabilities.
"""

from __future__ import annotations

import random

from ruleproof.model.api import GameState
from ruleproof.properties.citations import check_source_cited, source_citations
from ruleproof.properties.machine import run_machine
from ruleproof.properties.report import Check, Outcome, Profile, Tally

from .invariants import INVARIANTS, violations

NAME = "kuhn-poker"
SOURCE = "kuhn-wp"
RULE_SET = "kuhn-wp/2"
"""The contract rule set the shared searches play."""


def cited_ids() -> dict[str, list[str]]:
    """kuhn-wp clause ids cited in Kuhn poker's code: id -> files citing it."""
    from .plugin import PLUGIN

    return source_citations(PLUGIN, SOURCE)


def check_clauses(_: Profile) -> tuple[bool, int, str]:
    """Every cited id of the game's source exists and each of its clauses is cited by
    the model (:func:`ruleproof.properties.citations.check_source_cited`)."""
    from .plugin import PLUGIN

    return check_source_cited(PLUGIN, SOURCE)


def random_hands(profile: Profile) -> Outcome:
    """``4 * profile.games`` seeded random hands on the interface: every invariant in every
    state. Hand ``g`` is dealt by ``new_seeded_state(g)``, decisions drawn by
    ``random.Random(g)``."""
    from ruleproof.properties.plugin import make_game

    game = make_game(NAME)
    hands = 4 * profile.games
    states = steps = 0
    for seed in range(hands):
        rng = random.Random(seed)
        state: GameState = game.new_seeded_state(seed)
        trail: list[str] = []
        while True:
            states += 1
            broken = violations(state.model)
            if broken:
                return False, states, (f"hand seed {seed} after {trail}: " + "; ".join(broken))
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            action = legal[rng.randrange(len(legal))]
            trail.append(str(action))
            state = state.apply_typed(action)
            steps += 1
    return True, states, (f"{hands} random hands, {states} states: {', '.join(INVARIANTS)} "
                          "held in every state"), hands, steps


def machine(profile: Profile) -> Outcome:
    """The generic hypothesis machine on Kuhn poker (its ``invariants`` and ``machine``
    capabilities): ``profile.games`` examples of up to 40 steps (many hands each)."""
    tally = Tally()
    ok, detail = run_machine(NAME, {}, profile.games, 40, tally=tally)
    return ok, profile.games, detail or (f"{profile.games} examples, {tally.games} hands: "
                                         "every invariant after every step"), tally.games, \
        tally.steps


def scenarios(_: Profile) -> Outcome:
    """Every shipped Kuhn poker scenario holds (the generic runner)."""
    from ruleproof.properties.scenarios import run_scenario, shipped

    files = shipped(NAME)
    failed = [f"{f.name}: {r.detail}" for f in files if not (r := run_scenario(f)).passed]
    if failed:
        return False, len(files), "\n".join(failed)
    return True, len(files), f"{len(files)} scenarios passed"


def rule_set_checks() -> list[Check]:
    """The properties of the rule set kuhn-wp."""
    return [
        Check("cards distinct, chips conserved, hands short: in every state of random hands",
              "replay", random_hands,
              ("kuhn-wp:rules.deal", "kuhn-wp:rules.ante", "kuhn-wp:rules.payoff",
               "kuhn-wp:rules.showdown")),
        Check("every invariant after every step (hypothesis machine)", "hypothesis", machine,
              ("kuhn-wp:rules.deal", "kuhn-wp:rules.payoff")),
    ]


def shared_checks() -> list[Check]:
    """The properties that do not depend on a rule set."""
    return [
        Check("every kuhn-wp clause is cited by the model, every cited id exists", "static",
              check_clauses, ()),
        Check("shipped scenarios", "scenario", scenarios, ()),
    ]


__all__ = ["check_clauses", "cited_ids", "machine", "random_hands", "rule_set_checks",
           "scenarios", "shared_checks"]
