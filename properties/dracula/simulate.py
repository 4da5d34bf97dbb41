"""Dracula's capability ``simulate`` (:class:`ruleproof.properties.simulate.Simulation`): the
model's sensible random player (:func:`ruleproof.model.dracula.sensible_choice`), chance steps
drawn from the state's own seed as the engine's ``resolve_chance`` draws them, and the game's
persistent log, shown per side (``[Dracula] ...``: what that side may see, hidden information)
unless everything is asked for. The sides name themselves in the log, so it takes no player
names.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ruleproof.model.dracula import legal_actions, sensible_choice
from ruleproof.model.dracula.observe import log_lines
from ruleproof.properties.simulate import Played, UniformPlay


class DraculaSimulation(UniformPlay):
    """See the module docstring."""

    policy = "random legal play (the model's sensible random player)"
    names = False
    hidden = True

    def choose(self, state: Any, rng: random.Random) -> Any:
        """A random legal action that avoids pointless overpayment (``sensible_choice``)."""
        return sensible_choice(state.model, rng)

    def chance(self, state: Any, rng: random.Random) -> Any:
        """The outcome the engine's ``resolve_chance`` draws: ``random.Random`` seeded by the
        state's seed and step counter (``rng`` unused)."""
        m = state.model
        options = legal_actions(m)
        return options[random.Random(f"{m.seed}/{m.step}").randrange(len(options))]

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        """Every log line (each side's view, labelled, or everything), then the result."""
        return log_lines(played.final.model, full_view, played.max_steps)


SIMULATION = DraculaSimulation()
"""The capability ``simulate``."""
