"""Seeded hypothesis runs play the same games whatever the process has imported.

hypothesis draws some values from the literals of the local modules imported so far; a process
that imported other modules (the CLI, a pytest session, a Ray worker) then played other games
from the same seed (`check --ray`: 4,312 steps against 3,926 locally). The guard
(properties/reproducible.py) must make a run independent of that, and removing it must show.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ruleproof.properties import machine
from ruleproof.properties.conformance import differential
from ruleproof.properties.report import Tally


# games long enough to end on their own: a game cut at the step cap hides a changed game
def _du_steps() -> tuple[int, int, int]:
    tally = Tally()
    ok, detail = machine.run_machine("dawn-under", {"players": 4}, 6, 1000, tally=tally)
    assert ok, detail
    return tally.games, tally.finished, tally.steps


def _dracula_steps() -> tuple[int, int, int]:
    tally = Tally()
    ok, detail = machine.run_machine("dracula", {}, 6, 1000, tally=tally)
    assert ok, detail
    return tally.games, tally.finished, tally.steps


def _conform_steps() -> tuple[int, int, int]:
    """``conform``'s hypothesis search against the in-process reference engine: 6 games."""
    from reference_engines import load_engine

    from ruleproof.properties.conformance.differential import conform
    from ruleproof.properties.conformance.engine import MessageEngine
    from ruleproof.properties.conformance.games import model_of

    DAWN_UNDER = model_of("dawn-under")

    ref = load_engine("dawn_under_ref.py")
    result = conform(DAWN_UNDER, lambda: MessageEngine(ref.DawnUnderEngine(None).handle),
                     players=3, budget=60.0, seed=0, max_steps=400, max_games=6)
    assert result.conforms, result.report()
    return result.coverage.games, len(result.coverage.clauses), result.coverage.steps


_RUNS: dict[str, tuple[Callable[[], tuple[int, int, int]], object]] = {
    "dawn-under": (_du_steps, machine),
    "dracula": (_dracula_steps, machine),
    "conform": (_conform_steps, differential),
}
_counter = iter(range(10**6))


@contextlib.contextmanager
def _new_local_module() -> Iterator[None]:
    """Import a fresh local module (outside site-packages, not a test file) holding hundreds of
    integer literals, as a process importing more of a checkout would (hypothesis keeps the
    literals of at least 100 in absolute value, of modules with at most 1024 of them)."""
    k = next(_counter)
    name = f"ruleproof_literals_{k}"
    with tempfile.TemporaryDirectory(prefix="literals-") as where:
        body = "\n".join(f"V{i} = {100 + (37 + 2 * k) * i}" for i in range(500))  # new ones
        Path(where, f"{name}.py").write_text(body + "\n", encoding="utf-8")
        sys.path.insert(0, where)
        try:
            importlib.import_module(name)
            yield
        finally:
            sys.path.remove(where)
            sys.modules.pop(name, None)


@pytest.mark.parametrize("game", sorted(_RUNS))
@pytest.mark.slow
def test_importing_modules_does_not_change_the_games(game: str) -> None:
    run, _ = _RUNS[game]
    before = run()
    with _new_local_module():
        after = run()
    assert before[1] > 0 and after == before, (before, after)


@pytest.mark.parametrize("game", sorted(_RUNS))
@pytest.mark.slow
def test_without_the_guard_the_games_change(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: the machine runs without reproducible_draws, as before the fix."""
    run, module = _RUNS[game]
    monkeypatch.setattr(module, "reproducible_draws", contextlib.nullcontext)
    before = run()
    assert before[1] > 0, before
    # In a whole test session hypothesis's pool of literals is already large, and one new module
    # may leave six games' draws alone: up to three new modules, the bug shown by any of them.
    seen = []
    for _ in range(3):
        with _new_local_module():
            after = run()
        seen.append(after)
        if after != before:
            return
    pytest.fail(f"three new modules left the unguarded games unchanged: {before} {seen}")
