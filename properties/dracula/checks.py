"""The Dracula property checks, for ``ruleproof check dracula``.

:func:`checks` returns :class:`ruleproof.properties.report.Check` objects; each ``run(profile)`` honours
``profile.games``, ``profile.max_steps`` and ``profile.samples`` and returns
``(passed, examples, detail)`` with a readable counterexample on failure.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace

from ruleproof.model import CHANCE
from ruleproof.model.dracula import assumed_values, simulate
from ruleproof.model.dracula.data import COLOURS, MAX_MOVE, CardSet, Kind, Side, default_board, default_cards
from ruleproof.model.dracula.engine import State, legal_actions
from ruleproof.model.dracula.game import GAME_NAME
from ruleproof.model.dracula.observe import observation, play_random
from ruleproof.model.dracula.rules import DraculaRules
from ruleproof.properties.citations import check_source_cited, source_citations
from ruleproof.properties.machine import run_machine
from ruleproof.properties.report import Check, Outcome, Profile, Tally

from . import z3proofs
from .hidden import resample
from .invariants import INVARIANTS, Invariant, violations
from .scenarios import run_scenario, shipped_scenarios

Player = Callable[[int, int], list[State]]

def cited_ids() -> dict[str, list[str]]:
    """Clause ids cited in the Dracula model and properties sources: id -> files citing it."""
    from .plugin import PLUGIN

    return source_citations(PLUGIN, "dracula-en")


def check_clauses(_: Profile) -> tuple[bool, int, str]:
    """Every cited dracula-en id exists and every one of its clauses is cited by
    the model (:func:`ruleproof.properties.citations.check_source_cited`)."""
    from .plugin import PLUGIN

    return check_source_cited(PLUGIN, "dracula-en")


def check_data(_: Profile) -> tuple[bool, int, str]:
    """Shipped card/board data load and validate; every assumed value has a reason."""
    cards = default_cards()
    board = default_board()
    rows = assumed_values()
    bad = [r for r in rows if not all(x.strip() for x in r)]
    if bad:
        return False, len(rows), f"assumed values without value or reason: {bad[:3]}"
    return True, len(cards.encounter) + len(cards.action) + len(board.values), (
        f"{len(cards.encounter)} encounter and {len(cards.action)} action cards, "
        f"{board.size} locations; {len(rows)} assumed values listed")


def games_check(names: list[str], invariants: dict[str, Invariant] | None = None,
                player: Player | None = None, rules: DraculaRules | None = None
                ) -> Callable[[Profile], Outcome]:
    """A run function replaying ``profile.games`` seeded random games (under ``rules``) and
    checking the named invariants in every state; the counterexample is the shortest failing
    prefix's log. Reports (passed, states, detail, games, steps)."""
    table = invariants or INVARIANTS

    def default_play(seed: int, max_steps: int) -> list[State]:
        return play_random(seed, max_steps, rules=rules)

    play = player or default_play

    def run(profile: Profile) -> Outcome:
        states_seen = 0
        steps = 0
        for seed in range(profile.games):
            states = play(seed, profile.max_steps)
            steps += len(states) - 1
            for index, s in enumerate(states):
                states_seen += 1
                for name in names:
                    v = table[name](s)
                    if v is not None:
                        tail = [e.full for e in s.log][-12:]
                        return False, states_seen, "\n".join(
                            [f"{name} violated in random game seed {seed} after {index} "
                             f"actions: {v}", "last events:", *tail])
        return True, states_seen, (f"{profile.games} random games, {states_seen} states: "
                                   f"{', '.join(names)} held in every state"), profile.games, steps
    return run


def random_card_values(rng: random.Random, base: CardSet | None = None) -> CardSet:
    """The shipped cards with every value the sources leave open redrawn at random within its
    admissible range: enemy strengths 1-3 (any spread), action move numbers 1-9 (Deception >= 4),
    action strengths 1-4 with one card per side without strength, bar colours with two grey
    bars in all. Rulebook values (Resistance, Strength, Deception strength) are kept."""
    cards = base or default_cards()
    fixed = {"resistance", "strength"}
    enc = tuple(replace(c, strength=rng.randint(1, 3)) if c.kind is Kind.ENEMY else c
                for c in cards.encounter)
    acts = list(cards.action)
    greys = rng.sample(range(len(acts)), 2)
    for side in Side:
        idx = [i for i, a in enumerate(acts) if a.owner is side and a.id not in fixed
               and a.id != "deception"]
        weak = rng.choice(idx)
        for i in idx:
            acts[i] = replace(acts[i], move=rng.randint(1, MAX_MOVE),
                              strength=0 if i == weak else rng.randint(1, 4))
    for i, a in enumerate(acts):
        if a.id == "deception":
            acts[i] = replace(a, move=rng.randint(4, MAX_MOVE))
        if a.id not in fixed:
            acts[i] = replace(acts[i], bar="grey" if i in greys else rng.choice(COLOURS))
        elif i in greys:
            acts[i] = replace(acts[i], bar="grey")
    return replace(cards, encounter=enc, action=tuple(acts), path="random admissible values")


def check_any_card_values(profile: Profile) -> tuple[bool, int, str]:
    """Every invariant in every state of random games played with random admissible card
    values (``profile.games`` value assignments, one game each)."""
    seen = 0
    for seed in range(profile.games):
        cards = random_card_values(random.Random(f"values/{seed}"))
        for index, s in enumerate(play_random(seed, profile.max_steps, cards)):
            seen += 1
            bad = violations(s)
            if bad:
                values = ", ".join(f"{a.id}={a.move}/{a.strength}/{a.bar}" for a in cards.action)
                return False, seen, (f"value assignment {seed} ({values}), game seed {seed}, "
                                     f"after {index} actions: {'; '.join(bad)}")
    return True, seen, (f"{profile.games} random admissible value assignments, {seen} states: "
                        "every invariant held")


def machine_check(rules: DraculaRules | None = None) -> Callable[[Profile], Outcome]:
    """The hypothesis state machine (every invariant after every step) under ``rules``."""
    def run(profile: Profile) -> Outcome:
        tally = Tally()
        ok, detail = run_machine(GAME_NAME, {"options": rules}, profile.games,
                                 min(profile.max_steps, 400), shrink=profile.name == "thorough",
                                 tally=tally)
        detail = detail or f"{profile.games} random games, every invariant held after every step"
        return ok, profile.games, detail, tally.games, tally.steps
    return run


def check_machine(profile: Profile) -> Outcome:
    """The hypothesis state machine under the default rules."""
    return machine_check()(profile)


LegalFn = Callable[[State], tuple[object, ...]]


def observation_check(legal: LegalFn | None = None, rules: DraculaRules | None = None
                      ) -> Callable[[Profile], Outcome]:
    """Legal actions of the side to move depend only on its observation: resample the hidden
    cards ``profile.samples`` times per state and compare observations and legal actions."""
    legal_fn: LegalFn = legal or legal_actions

    def run(profile: Profile) -> Outcome:
        compared = 0
        steps = 0
        for seed in range(profile.games):
            rng = random.Random(f"observation/{seed}")
            states = play_random(seed, profile.max_steps, rules=rules)
            steps += len(states) - 1
            for s in states:
                player = s.agenda[0].player if s.agenda and s.winner is None else None
                if player is None or _is_chance(s):
                    continue
                base_obs = observation(s, player)
                base = set(legal_fn(s))
                for _ in range(profile.samples):
                    t = resample(s, player, rng)
                    compared += 1
                    if observation(t, player) != base_obs:
                        return False, compared, (f"seed {seed}, step {s.step}: resampling hidden "
                                                 "cards changed the observation (a leak)")
                    other = set(legal_fn(t))
                    if other != base:
                        only_a = sorted(map(str, base - other))
                        only_b = sorted(map(str, other - base))
                        return False, compared, (
                            f"seed {seed}, step {s.step}, pending {s.agenda[0].kind} of "
                            f"{'Dracula' if player == 0 else 'Van Helsing'}: same observation, "
                            f"different legal actions.\nonly in the real state: {only_a}\n"
                            f"only in the resampled state: {only_b}")
        return True, compared, (f"{compared} resampled states: legal actions equal whenever the "
                                "observation is equal"), profile.games, steps
    return run


def _is_chance(s: State) -> bool:
    from ruleproof.model.dracula.engine import current_player
    return current_player(s) == CHANCE


def check_z3_barriers(_: Profile) -> tuple[bool, int, str]:
    """z3: the barrier predicate agrees with the rule, under both readings of side-by-side."""
    total = 0
    details = []
    for reading in ("shared-location", "corner"):
        ok, n, detail = z3proofs.prove_barrier_rule(reading)
        total += n
        details.append(detail)
        if not ok:
            return False, total, detail
    return True, total, "\n".join(details)


def check_z3_values(_: Profile) -> tuple[bool, int, str]:
    """z3: properties that hold for every admissible assignment of unknown card values."""
    return z3proofs.prove_card_value_properties()


def check_scenarios(_: Profile) -> tuple[bool, int, str]:
    """Every shipped scenario passes."""
    files = shipped_scenarios()
    failed = []
    for f in files:
        r = run_scenario(f)
        if not r.passed:
            failed.append(f"{f.name}: {r.detail}")
    if failed:
        return False, len(files), "\n".join(failed)
    return True, len(files), f"{len(files)} scenarios passed"


def check_determinism(profile: Profile) -> tuple[bool, int, str]:
    """Same seed, same log (within this process; the tests also compare two processes)."""
    n = max(1, min(profile.games, 5))
    for seed in range(n):
        a = simulate(seed, False, profile.max_steps)
        b = simulate(seed, False, profile.max_steps)
        if a != b:
            first = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
            return False, seed + 1, f"seed {seed}: logs differ at line {first + 1}"
        if not re.search(r"wins|No winner", a[-1]):
            return False, seed + 1, f"seed {seed}: log does not end with the result: {a[-1]!r}"
    return True, n, f"{n} seeds: identical logs on replay, each ending with the result"


def reading_checks(rules: DraculaRules) -> list[Check]:
    """The properties that depend on the rule options: every invariant in random games and in
    the hypothesis machine, and the hidden-information check, all under ``rules``."""
    inv = INVARIANTS
    return [
        Check("cards conserved, life markers within bounds, barriers where allowed, figures on "
              "the board: in every state of random games", "replay",
              games_check(["conservation", "life-bounds", "barriers", "figures-on-board"], inv,
                          rules=rules),
              ("dracula-en:contents.components", "dracula-en:setup.deal",
               "dracula-en:early-end.last-marker", "dracula-en:early-end.give-target",
               "dracula-en:pay.barrier-restrictions", "dracula-en:barriers.side-by-side",
               "dracula-en:setup.figures", "dracula-en:move.orthogonal")),
        Check("every invariant after every step (hypothesis machine)", "hypothesis",
              machine_check(rules),
              ("dracula-en:contents.components", "dracula-en:pay.barrier-restrictions")),
        Check("legal actions depend only on the observation", "replay",
              observation_check(rules=rules),
              ("dracula-en:setup.secret-choice", "dracula-en:look.own-card")),
    ]


def shared_checks() -> list[Check]:
    """The properties that do not depend on the rule options (data, citations, z3 proofs
    over every card value, scenarios — each scenario carries its own options — determinism)."""
    return [
        Check("every dracula-en clause is cited by the model, every cited id exists", "static",
              check_clauses, ("dracula-en:objective.goal",)),
        Check("card and board data load and every assumed value has a reason", "static",
              check_data, ("dracula-en:contents.components", "dracula-en:enemy.fight",
                           "dracula-en:cards.strength")),
        Check("every invariant holds with any admissible card values", "replay",
              check_any_card_values,
              ("dracula-en:enemy.fight", "dracula-en:cards.strength", "dracula-en:barriers.grey")),
        Check("the barrier rule agrees with its definition (z3, both readings)", "z3",
              check_z3_barriers,
              ("dracula-en:pay.barrier-restrictions", "dracula-en:barriers.side-by-side",
               "dracula-en:barriers.between")),
        Check("card-value facts hold for every admissible value (z3)", "z3", check_z3_values,
              ("dracula-en:enemy.fight", "dracula-en:pay.overpay", "dracula-en:special.deception",
               "dracula-en:example.choice")),
        Check("shipped scenarios (each under its own options)", "scenario", check_scenarios,
              ("dracula-en:example.choice",)),
        Check("same seed, same game", "replay", check_determinism, ()),
    ]


def checks(rules: DraculaRules | None = None) -> list[Check]:
    """Every Dracula check under ``rules`` (default: the shipped defaults): the rule-option
    dependent ones first, then the shared ones."""
    return [*reading_checks(rules or DraculaRules()), *shared_checks()]
