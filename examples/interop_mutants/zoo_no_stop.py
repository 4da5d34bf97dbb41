"""Mutant: a Dawn Under PettingZoo environment whose action mask never allows ending the turn
after a placement (du-en:ch1.continue: the player may stop)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ruleproof.interop.pettingzoo import RulesEnv

CAUGHT_AS = ("legal",)


class NoStopEnv(RulesEnv):
    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        obs = super().observe(agent)
        stop = 5 * 60  # the id of 'stop' on the 60-grave board (docs/interop.md)
        obs["action_mask"][stop] = 0
        return obs


def ENV() -> NoStopEnv:
    return NoStopEnv("dawn-under", players=4)


def CONFORMING() -> RulesEnv:
    """The unmutated environment (a control: it must conform)."""
    return RulesEnv("dawn-under", players=4)
