"""Kuhn poker's own properties for ``ruleproof check`` (the plugin's ``checks``); the suite
adds the generic ones (the game interface, the symbolic layer, refinement against the clause
contracts).

The rule set kuhn-wp: every invariant in every state of seeded random hands, and the
hypothesis machine (the generic one, :mod:`ruleproof.properties.machine`). The shared group:
the clause citations, the shipped scenarios (the generic runner), the endless-games search and
the perfect-recall search. The last two call the generic searches with settings for hands of
at most three decisions: the shared group's generic versions sample states 20 to 200 actions
deep (endless games) and branch every ninth action (recall), which a hand of Kuhn poker never
reaches, so they would compare nothing.
"""

from __future__ import annotations

import random
from pathlib import Path

from ruleproof.model.api import GameState
from ruleproof.properties.citations import LAYERS, game_folders
from ruleproof.properties.machine import run_machine
from ruleproof.properties.report import Check, Outcome, Profile, Tally
from ruleproof.spec import clause_id_re, clause_registry

from .invariants import INVARIANTS, violations

NAME = "kuhn-poker"
SOURCE = "kuhn-wp"
RULE_SET = "kuhn-wp/2"
"""The contract rule set the shared searches play."""


def _folders(layers: tuple[str, ...] = LAYERS) -> list[Path]:
    from .plugin import PLUGIN

    return game_folders(PLUGIN, layers)


def cited_ids(paths: list[Path] | None = None) -> dict[str, list[str]]:
    """kuhn-wp clause ids cited in Kuhn poker's code: id -> files citing it."""
    out: dict[str, list[str]] = {}
    for root in paths or _folders():
        for f in sorted(root.rglob("*.py")):
            for cid in clause_id_re().findall(f.read_text(encoding="utf-8")):
                if cid.startswith(SOURCE + ":"):
                    out.setdefault(cid, []).append(f.name)
    return out


def check_clauses(_: Profile) -> Outcome:
    """Every cited kuhn-wp id exists and every kuhn-wp clause is cited by the model."""
    registry = {c.id for c in clause_registry(SOURCE)}
    unknown = sorted(set(cited_ids()) - registry)
    uncited = sorted(registry - set(cited_ids(_folders(("model",)))))
    if unknown or uncited:
        return False, len(registry), (f"unknown cited ids: {unknown or '-'}\n"
                                      f"clauses not cited by model/kuhn_poker: {uncited or '-'}")
    return True, len(registry), f"{len(registry)} clauses, all cited by the model; no unknown ids"


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


def endless(profile: Profile) -> Outcome:
    """No cycle (the generic search, properties/endless.py), hand lengths of random play, and
    an ending reached from every state of random hands (every state, not only deep ones)."""
    from ruleproof.properties.endless import find_cycle, game_lengths, play_of

    games = max(4, profile.games)
    cycle = find_cycle(RULE_SET, games=max(1, games // 4))
    lengths = game_lengths(RULE_SET, games, 10)
    play = play_of(RULE_SET)
    checked = stuck = 0
    for g in range(games):
        rng = random.Random(700 + g)
        state = play.new(g)
        while not state.is_terminal():
            checked += 1
            ends = False
            probe = state
            for _ in range(play.rules.cap):
                if probe.is_terminal():
                    ends = True
                    break
                legal = probe.legal_typed_actions()
                probe = play.apply(probe, legal[rng.randrange(len(legal))])
            stuck += not (ends or probe.is_terminal())
            legal = state.legal_typed_actions()
            state = play.apply(state, legal[rng.randrange(len(legal))])
    text = (f"{RULE_SET}: hand length shortest {lengths.shortest}, median {lengths.median}, "
            f"longest {lengths.longest} ({lengths.capped} of {lengths.games} capped); ending "
            f"reached from {checked - stuck} of {checked} states; "
            + ("no cycle found" if cycle is None else f"CYCLE {list(cycle.loop)}"))
    ok = cycle is None and stuck == 0 and lengths.capped == 0 and lengths.longest <= 3
    return ok, checked + lengths.games, text, lengths.games, 0


def recall(profile: Profile) -> Outcome:
    """Perfect recall of the information state: the generic search (properties/recall.py)
    branching at every decision of random hands."""
    from ruleproof.properties.recall import information_state, recall_violation

    found, n = recall_violation(RULE_SET, information_state, max(2, profile.games // 4),
                                every=1, depth=2)
    if n == 0:
        return False, 0, "no pair of histories was compared"
    if found is not None:
        return False, n, "perfect recall broken: " + found
    return True, n, f"{n} pairs of own-decision histories told apart"


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
        Check(f"endless games: cycles, endings reachable, lengths ({RULE_SET})", "search",
              endless, ("kuhn-wp:rules.showdown", "kuhn-wp:rules.fold")),
        Check(f"perfect recall of the information state ({RULE_SET})", "search", recall,
              ("kuhn-wp:rules.deal",)),
    ]


__all__ = ["check_clauses", "cited_ids", "endless", "machine", "random_hands", "recall",
           "rule_set_checks", "scenarios", "shared_checks"]
