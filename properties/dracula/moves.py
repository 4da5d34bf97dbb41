"""Dracula's component moves that the model has no action type for (issue #24): candidate
moves of the component action space (:mod:`ruleproof.properties.dracula.components`) that
dracula-en's clause contracts judge like the model's actions.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GiveTargetBy:
    """``side`` (0 Dracula, 1 Van Helsing) hands the target ``card`` from the hand to the
    opponent for two life markers while the *other* side is to decide
    (dracula-en:early-end.give-target: "at any time")."""

    side: int
    card: str

    def __str__(self) -> str:
        return f"{'dracula' if self.side == 0 else 'van-helsing'} gives {self.card}"


@dataclass(frozen=True)
class PlaceFrom:
    """Lay ``card``, which is not in the player's hand (a beaten card from the discard pile, a
    won target), face down on the pending location."""

    card: str
    pile: str

    def __str__(self) -> str:
        return f"place {self.card} from the {self.pile}"


OFF_MODEL = (GiveTargetBy, PlaceFrom)
"""The component moves the model has no action type for."""
