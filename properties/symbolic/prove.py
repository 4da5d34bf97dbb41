"""Running the symbolic verification layer: every property of every game and rule set.

A game takes part through the capability ``"symbolic"`` of its plugin record (a
:class:`SymbolicGame`: its transition system, abstraction, ending witnesses and drift check live
in ``properties/<game>/``); a game without it is skipped with the reason (:func:`skipped`).
:func:`outcomes` returns one :class:`~ruleproof.properties.symbolic.core.Outcome` per property
and system; :func:`checks` and :func:`symbolic_check` wrap them as
:class:`ruleproof.properties.report.Check` s. Work is split per configuration (game, preset,
players) and run in worker processes (``jobs``).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Protocol

from ruleproof.properties.plugin import GamePlugin, RuleSet, plugin, plugins, require
from ruleproof.properties.report import Check, Profile
from ruleproof.properties.symbolic.core import Outcome

CAPABILITY = "symbolic"
"""The name of the capability in a game's plugin record."""

DRIFT = {"ci": (1, 80), "default": (4, 200), "thorough": (20, 600)}
"""Profile -> (games per rule set, steps per game) of the sampled drift check."""


def max_k(profile: Profile) -> int:
    """The largest k of k-induction under ``profile``."""
    return 2 if profile.name == "ci" else 3


class SymbolicGame(Protocol):
    """A game's symbolic layer (capability ``"symbolic"``).

    Attributes:
        configs: the configurations (preset, player count) the layer covers, in report order
            (a game without presets uses ``""``).
        selection: how the configurations read in an error message (``<preset> 3-6``).
    """

    @property
    def configs(self) -> tuple[tuple[str, int], ...]: ...

    @property
    def selection(self) -> str: ...

    def outcomes(self, preset: str, players: int, profile: Profile) -> list[Outcome]:
        """Every symbolic property of one configuration: the laws proved by (k-)induction up
        to :func:`max_k`, no dead end, each ending reached (bounded search plus the replayed
        witness), and the sampled drift check (:data:`DRIFT` games and steps)."""
        ...

    def applies(self, rule_set: RuleSet, board: Path | None
                ) -> tuple[list[tuple[str, int, str]], str]:
        """For a rule set of ``ruleproof check`` (and ``--board``): the configurations it
        covers, each (preset, players, suffix of the check's name), or ``[]`` and the reason
        the layer does not apply."""
        ...

    def write_witnesses(self) -> list[Path]:
        """(Re)write the game's ending witness files; the paths written."""
        ...


def symbolic_of(p: GamePlugin) -> SymbolicGame | None:
    """The symbolic capability of a game (None if it has none)."""
    found: SymbolicGame | None = p.capability(CAPABILITY)
    return found


def skipped(game: str | None = None) -> list[tuple[str, str]]:
    """(game, reason) for every registered game without a symbolic layer (of ``game`` only,
    when given)."""
    return [(p.name, f"{p.name} has no symbolic capability (its plugin record gives none)")
            for p in plugins().values()
            if symbolic_of(p) is None and game in (None, p.name)]


def tasks(game: str | None = None, preset: str | None = None,
          players: int | None = None) -> list[tuple[str, str, int]]:
    """The units of work (game, preset, players): every configuration of every game with a
    symbolic layer (of ``game`` only, when given), narrowed by ``preset`` and ``players``.

    Raises:
        MalformedInput: an unknown game; Unsupported: a named game without a symbolic layer.
    """
    if game is not None:
        require(plugin(game), CAPABILITY, "the symbolic layer")
    out: list[tuple[str, str, int]] = []
    for p in plugins().values():
        cap = symbolic_of(p)
        if cap is None or game not in (None, p.name):
            continue
        for pr, n in cap.configs:
            if (preset is None or pr == preset) and (players is None or n == players):
                out.append((p.name, pr, n))
    return out


def selections(game: str | None = None) -> str:
    """What each game's symbolic layer covers, for an error message
    (``<game>: <selection>; ...``)."""
    return "; ".join(f"{p.name}: {cap.selection}" for p in plugins().values()
                     if (cap := symbolic_of(p)) is not None and game in (None, p.name))


def run_task(task: tuple[str, str, int], profile: Profile) -> list[Outcome]:
    """Run one unit of work.

    Raises:
        MalformedInput: an unknown game; Unsupported: a game without a symbolic layer.
    """
    game, preset, players = task
    cap: SymbolicGame = require(plugin(game), CAPABILITY, "the symbolic layer")
    return cap.outcomes(preset, players, profile)


def outcomes(profile: Profile, game: str | None = None, preset: str | None = None,
             players: int | None = None, jobs: int = 2,
             on_task: Callable[[], None] | None = None) -> list[Outcome]:
    """All outcomes for the selection, computed in ``jobs`` processes (1: in this process);
    ``on_task`` is called after each of the ``len(tasks(...))`` tasks (for a progress bar)."""
    work = tasks(game, preset, players)
    results: list[list[Outcome]] = []
    if jobs <= 1 or len(work) <= 1:
        for t in work:
            results.append(run_task(t, profile))
            if on_task is not None:
                on_task()
        return [o for r in results for o in r]
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for r in pool.map(run_task, work, [profile] * len(work)):
            results.append(r)
            if on_task is not None:
                on_task()
    return [o for r in results for o in r]


def summary(results: Sequence[Outcome]) -> tuple[bool, str]:
    """Whether everything passed, and one line per outcome."""
    lines = [f"{'ok ' if o.passed else 'FAIL'} {o.system}: {o.prop} [{o.method}] {o.result}"
             + (f" - {o.detail}" if o.detail and (not o.passed or "expected" in o.result)
                else "") for o in results]
    return all(o.passed for o in results), "\n".join(lines)


def checks(profile: Profile | None = None, jobs: int = 2) -> list[Check]:
    """The symbolic layer as checks (one per game with a symbolic layer, named
    ``<game>.symbolic``; ``profile`` is accepted for symmetry, the profile passed to each
    check's ``run`` is used). ``jobs`` worker processes (forked; use 1 if the caller runs
    threads that must not be forked)."""
    def make(game: str) -> Check:
        def run(p: Profile) -> tuple[bool, int, str]:
            results = outcomes(p, game=game, jobs=jobs)
            ok, text = summary(results)
            return ok, len(results), text
        return Check(f"{game}.symbolic", "z3", run)
    return [make(p.name) for p in plugins().values() if symbolic_of(p) is not None]


def symbolic_check(game: str, preset: str, players: int, where: str) -> Check:
    """The symbolic layer (z3) of one configuration as a check of ``ruleproof check``."""
    def run(profile: Profile) -> tuple[bool, int, str]:
        found = run_task((game, preset, players), profile)
        ok, text = summary(found)
        return ok, len(found), text

    return Check(f"symbolic layer (z3): conservation by induction, endings, drift{where}", "z3",
                 run)


def write_witnesses(game: str) -> list[Path]:
    """(Re)write the ending witness files of ``game``.

    Raises:
        MalformedInput: an unknown game; Unsupported: a game without a symbolic layer.
    """
    cap: SymbolicGame = require(plugin(game), CAPABILITY, "writing ending witnesses")
    return cap.write_witnesses()
