"""A pytest helper for engine authors: run the conformance check inside a test suite.

Example (in the engine's own tests)::

    from ruleproof.properties.conformance.pytest_helper import assert_conforms

    def test_my_engine_follows_the_rules() -> None:
        assert_conforms("python my_engine.py", game="my-game", budget=20)

    def test_in_process() -> None:
        assert_conforms(lambda: MessageEngine(MyEngine().handle), players=4, budget=5)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ruleproof.errors import Nonconformance
from ruleproof.properties.conformance.differential import ConformResult, conform, trace_text
from ruleproof.properties.conformance.engine import EngineFactory, subprocess_factory
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.plugin import names
from ruleproof.system.outputs import write_file


def assert_conforms(engine: EngineFactory | str, game: str | None = None, *,
                    players: int | None = None, options: Mapping[str, str] | None = None,
                    budget: float = 10.0, seed: int = 0, max_steps: int = 1000,
                    shrink_budget: float | None = None, timeout: float = 5.0,
                    out: Path | None = None, min_games: int = 1) -> ConformResult:
    """Check ``engine`` against the model of ``game``; return the result if no divergence.

    Args:
        engine: a factory of :class:`~ruleproof.properties.conformance.engine.Engine` objects, or a
            command line for a subprocess engine speaking the JSON Lines protocol.
        game: the game's name (default: the first registered game).
        players, options, budget, seed, max_steps, shrink_budget, min_games: as for
            :func:`~ruleproof.properties.conformance.differential.conform`.
        timeout: seconds per answer of a subprocess engine.
        out: where to save the minimal trace of a divergence.

    Raises:
        Nonconformance: with the report (step, action, clauses, state diff, minimal game);
            the minimal trace is written to ``out`` if given. Also when the run proves
            nothing (no game completed, fewer than ``min_games``) or the engine declined.
        MalformedInput: unknown game, bad options, an engine command that cannot start.
    """
    factory = subprocess_factory(engine, timeout=timeout) if isinstance(engine, str) else engine
    model = model_of(game if game is not None else names()[0])
    result = conform(model, factory, players=players, options=options, budget=budget, seed=seed,
                     max_steps=max_steps, shrink_budget=shrink_budget, min_games=min_games)
    if result.conforms:
        return result
    text = trace_text(result, model, engine if isinstance(engine, str) else None)
    detail = result.report()
    if out is not None and text is not None:
        write_file(out, text)
        detail += f"\nminimal trace saved to {out}"
    raise Nonconformance(f"{model.name} conformance", detail)
