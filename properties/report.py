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


PROFILES: dict[str, Profile] = {
    "ci": Profile("ci", games=12, max_steps=400, samples=2),
    "default": Profile("default", games=40, max_steps=1500, samples=3),
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
    """

    name: str
    method: str
    examples: int
    passed: bool
    seconds: float
    detail: str = ""
    clauses: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Check:
    """A named property check that can be run under a profile."""

    name: str
    method: str
    run: Callable[[Profile], tuple[bool, int, str]]
    clauses: tuple[str, ...] = ()

    def __call__(self, profile: Profile) -> CheckResult:
        start = time.perf_counter()
        passed, examples, detail = self.run(profile)
        return CheckResult(self.name, self.method, examples, passed,
                           time.perf_counter() - start, detail, self.clauses)
