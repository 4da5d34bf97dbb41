"""Dawn Under's capability ``simulate`` (:class:`ruleproof.properties.simulate.Simulation`):
the deal drawn from the game's random generator (as the engine's ``deal(config, rng)`` shuffles,
du-en:prep.deal), uniformly random legal actions from the same generator, and the readable
log of :mod:`ruleproof.model.dawn_under.render` (rows, every event, the winner). Everything is
public in Dawn Under (du-en:ch1.open), so the log has no per-seat views; players may be named.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ruleproof.model.api import CHANCE, GameBase, GameState
from ruleproof.model.dawn_under.engine import deal, initial_state
from ruleproof.model.dawn_under.render import result_log, setup_log, step_log
from ruleproof.properties.simulate import Played, UniformPlay


class DawnUnderSimulation(UniformPlay):
    """See the module docstring."""

    def deal(self, game: GameBase[Any], seed: int, rng: random.Random) -> GameState:
        """The set-up dealt from ``rng`` (the generator the whole game then uses)."""
        config = game.config  # type: ignore[attr-defined]
        return game.from_model(initial_state(config, deal(config, rng)))

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        """Set-up rows, every event as a sentence (rows again at each turn), the winner."""
        log = setup_log(played.start.model, played.seed, names)
        for s in played.steps:
            if s.actor != CHANCE:
                assert s.after.node is not None
                log += step_log(s.before.model, s.after.node.seen, s.after.model, names)
        log.append(result_log(played.final.model, len(played.actions), played.max_steps, names))
        return log


SIMULATION = DawnUnderSimulation()
"""The capability ``simulate``."""
