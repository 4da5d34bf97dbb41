"""Running the symbolic verification layer: every property of every game and rule set.

:func:`outcomes` returns one :class:`~ruleproof.properties.symbolic.core.Outcome` per property and
system; :func:`checks` wraps them as :class:`ruleproof.properties.report.Check` s for ``ruleproof check``.
Work is split per rule set and run in worker processes (``jobs``).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from ruleproof.model.dawn_under.engine import legal_actions as du_legal
from ruleproof.model.dawn_under.engine import new_game as du_new_game
from ruleproof.model.dawn_under.engine import step as du_step
from ruleproof.model.dracula import engine as dr
from ruleproof.properties.report import Check, Profile
from ruleproof.properties.symbolic import dawn_under as du
from ruleproof.properties.symbolic import dracula as dsym
from ruleproof.properties.symbolic import endings
from ruleproof.properties.symbolic.core import Outcome, StepChecker, diff, no_dead_end, prove_law

GAMES = ("dawn-under", "dracula")

DRIFT = {"ci": (1, 80), "default": (4, 200), "thorough": (20, 600)}
"""Profile -> (games per rule set, steps per game) of the sampled drift check."""


def _max_k(profile: Profile) -> int:
    return 2 if profile.name == "ci" else 3


def du_drift(preset: str, players: int, games: int, steps: int, seed: int = 0) -> Outcome:
    """Sampled: every transition of random games satisfies its kind's z3 relation."""
    t0 = time.perf_counter()
    config = du.config_for(preset, players)
    system = du.system(du.shape_of(config))
    checker = StepChecker(system)
    count = 0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = du_new_game(config, seed * 1000 + g)
        for _ in range(steps):
            actions = du_legal(state)
            if not actions:
                break
            action = rng.choice(actions)
            new, events = du_step(state, action)
            kind = du.classify(state, action, events)
            x, y = du.abstract(state), du.abstract(new)
            count += 1
            if not checker.check(kind, x, y):
                cited = system.kind(kind).clauses if kind in {
                    k.name for k in system.kinds} else ()
                return Outcome("no drift (model vs relations)", system.name,
                               f"sampled {count}", "counterexample", False,
                               cited, time.perf_counter() - t0,
                               f"game seed {seed * 1000 + g}, step {count}: '{action}' "
                               f"classified {kind} breaks its relation: {diff(x, y)}")
            state = new
    return Outcome("no drift (model vs relations)", system.name, f"sampled {count}", "passed",
                   True, (), time.perf_counter() - t0, f"{games} games")


def dracula_drift(games: int, steps: int, seed: int = 0) -> list[Outcome]:
    """Sampled drift check for Dracula, plus the executable-model dead-end check (every
    non-terminal state has a legal action)."""
    t0 = time.perf_counter()
    system = dsym.system()
    checker = StepChecker(system)
    count = 0
    states = 0
    drift: Outcome | None = None
    stuck: str = ""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = dr.new_game(seed * 1000 + g)
        for _ in range(steps):
            states += 1
            if dr.is_terminal(state):
                break
            actions = dr.legal_actions(state)
            if not actions:
                stuck = stuck or f"game seed {seed * 1000 + g}: no legal action, not over"
                break
            action = rng.choice(actions)
            new = dr.apply(state, action)
            kind = dsym.classify(action)
            x, y = dsym.abstract(state), dsym.abstract(new)
            count += 1
            if drift is None and not checker.check(kind, x, y):
                drift = Outcome("no drift (model vs relations)", system.name,
                                f"sampled {count}", "counterexample", False,
                                system.kind(kind).clauses, time.perf_counter() - t0,
                                f"game seed {seed * 1000 + g}: '{action}' classified {kind} "
                                f"breaks its relation: {diff(x, y)}")
            state = new
    seconds = time.perf_counter() - t0
    out = [drift or Outcome("no drift (model vs relations)", system.name, f"sampled {count}",
                            "passed", True, (), seconds, f"{games} games")]
    out.append(Outcome("no dead end (executable model)", system.name, f"sampled {states}",
                       "failed" if stuck else "passed", not stuck,
                       ("dracula-en:play.turn-parts",), seconds, stuck or f"{games} games"))
    return out


def du_outcomes(preset: str, players: int, profile: Profile) -> list[Outcome]:
    """Every symbolic property of Dawn Under under ``preset`` with ``players``."""
    system = du.system_for(preset, players)
    out = [prove_law(system, law, _max_k(profile)) for law in system.laws]
    out.append(no_dead_end(system, du.MUST_HOLD_FOR_DEAD_END))
    out += [endings.check_du_ending(preset, players, e) for e in endings.DU_ENDINGS]
    if preset == "du-cs" and players >= 5:
        out.append(endings.check_stake_shortage(players))
    games, steps = DRIFT.get(profile.name, DRIFT["ci"])
    out.append(du_drift(preset, players, games, steps))
    return out


def dracula_outcomes(profile: Profile) -> list[Outcome]:
    """Every symbolic property of Dracula."""
    system = dsym.system()
    out = [prove_law(system, law, _max_k(profile)) for law in system.laws]
    out.append(no_dead_end(system, [law.name for law in system.laws]))
    out += [endings.check_dracula_ending(w) for w in endings.DRACULA_WITNESSES]
    games, steps = DRIFT.get(profile.name, DRIFT["ci"])
    out += dracula_drift(games * 2, steps * 3)
    return out


def tasks(game: str | None = None, preset: str | None = None,
          players: int | None = None) -> list[tuple[str, str, int]]:
    """The units of work: (game, preset, players)."""
    out: list[tuple[str, str, int]] = []
    if game in (None, "dawn-under"):
        for p, n in du.CONFIGS:
            if (preset is None or p == preset) and (players is None or n == players):
                out.append(("dawn-under", p, n))
    if game in (None, "dracula") and preset is None and players in (None, 2):
        out.append(("dracula", "", 2))
    return out


def run_task(task: tuple[str, str, int], profile: Profile) -> list[Outcome]:
    """Run one unit of work."""
    game, preset, players = task
    if game == "dracula":
        return dracula_outcomes(profile)
    return du_outcomes(preset, players, profile)


def outcomes(profile: Profile, game: str | None = None, preset: str | None = None,
             players: int | None = None, jobs: int = 2) -> list[Outcome]:
    """All outcomes for the selection, computed in ``jobs`` processes (1: in this process)."""
    work = tasks(game, preset, players)
    if jobs <= 1 or len(work) <= 1:
        return [o for t in work for o in run_task(t, profile)]
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        results = list(pool.map(run_task, work, [profile] * len(work)))
    return [o for r in results for o in r]


def summary(results: Sequence[Outcome]) -> tuple[bool, str]:
    """Whether everything passed, and one line per outcome."""
    lines = [f"{'ok ' if o.passed else 'FAIL'} {o.system}: {o.prop} [{o.method}] {o.result}"
             + (f" - {o.detail}" if o.detail and (not o.passed or "expected" in o.result)
                else "") for o in results]
    return all(o.passed for o in results), "\n".join(lines)


def checks(profile: Profile | None = None, jobs: int = 2) -> list[Check]:
    """The symbolic layer as checks for ``ruleproof check`` (one per game; ``profile`` is
    accepted for symmetry, the profile passed to each check's ``run`` is used). ``jobs``
    worker processes (forked; use 1 if the caller runs threads that must not be forked)."""
    def make(game: str) -> Check:
        def run(p: Profile) -> tuple[bool, int, str]:
            results = outcomes(p, game=game, jobs=jobs)
            ok, text = summary(results)
            return ok, len(results), text
        return Check(f"{game}.symbolic", "z3", run)
    return [make(g) for g in GAMES]
