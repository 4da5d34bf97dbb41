"""Check results and profiles shared by every game's verification suite."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Profile:
    """How hard to check.

    Attributes:
        name: ``ci`` (small, default), ``default`` or ``thorough``.
        games: random games (hypothesis examples) per player count.
        max_steps: cap on actions per random game.
        samples: resamplings per state for hidden-information checks.
    """

    name: str
    games: int
    max_steps: int
    samples: int


PROFILES: dict[str, Profile] = {  # default: sized so `ruleproof check` (every rule set) < 60 s
    "ci": Profile("ci", games=12, max_steps=400, samples=2),
    "default": Profile("default", games=8, max_steps=1000, samples=2),
    "thorough": Profile("thorough", games=400, max_steps=6000, samples=8),
}


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one property check.

    Attributes:
        name: property name.
        method: ``hypothesis``, ``z3``, ``exhaustive``, ``scenario``, ``static`` or ``replay``.
        examples: games, steps, cases or solver queries the result is based on.
        passed: True if proved / no violation found.
        seconds: wall time.
        detail: proof status, or a minimal counterexample (readable, multi-line).
        clauses: clause ids the property checks.
        games: whole games played for this result (0 when it plays none, e.g. a z3 proof).
        steps: transitions taken in those games (0 when it plays none).
    """

    name: str
    method: str
    examples: int
    passed: bool
    seconds: float
    detail: str = ""
    clauses: tuple[str, ...] = field(default=())
    games: int = 0
    steps: int = 0


@dataclass
class Tally:
    """Work counted while a check plays games (one object per check run, passed explicitly).

    Attributes:
        games: games started (hypothesis examples or seeded games).
        finished: games that reached an ending.
        steps: transitions taken.
    """

    games: int = 0
    finished: int = 0
    steps: int = 0


Outcome = tuple[bool, int, str] | tuple[bool, int, str, int, int]
"""What a check's ``run`` returns: ``(passed, examples, detail)``, or with the work it did in
games: ``(passed, examples, detail, games, steps)``."""


@dataclass(frozen=True)
class Check:
    """A named property check that can be run under a profile.

    A check that plays games must report them (the 5-tuple form of :data:`Outcome`), so that a
    quick run is never mistaken for a thorough one; a check that did no work at all (no example)
    fails, whatever its ``run`` said: a verifier never passes on zero work.
    """

    name: str
    method: str
    run: Callable[[Profile], Outcome]
    clauses: tuple[str, ...] = ()

    def __call__(self, profile: Profile) -> CheckResult:
        start = time.perf_counter()
        outcome = self.run(profile)
        passed, examples, detail = outcome[0], outcome[1], outcome[2]
        games, steps = (outcome[3], outcome[4]) if len(outcome) == 5 else (0, 0)
        if passed and examples <= 0:
            passed, detail = False, f"no work done (0 examples): {detail}"
        return CheckResult(self.name, self.method, examples, passed,
                           time.perf_counter() - start, detail, self.clauses, games, steps)
