"""Dawn Under's component moves that the model has no action type for (issue #24): the
candidate moves of the component action space (:mod:`ruleproof.properties.dawn_under.components`)
that the clause contracts of du-en, du-cs and gruft-en judge like the model's actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleproof.model.dawn_under.state import End


@dataclass(frozen=True)
class GiveAt:
    """The giver hands over the vampire at ``position`` of the row (0: the left end), one that
    is not at an end."""

    position: int

    def __str__(self) -> str:
        return f"give at {self.position}"


@dataclass(frozen=True)
class GiveTo:
    """The giver hands the outermost vampire at ``end`` to ``player``, who is not owed it."""

    end: End
    player: int

    def __str__(self) -> str:
        return f"give {self.end.value} to P{self.player + 1}"


@dataclass(frozen=True)
class ReceiveAt:
    """The receiver puts the received vampire into the row before ``position`` (between two
    vampires: 0 < position < the row's length)."""

    position: int

    def __str__(self) -> str:
        return f"receive at {self.position}"


@dataclass(frozen=True)
class ReceiveAside:
    """The receiver keeps the received vampire beside the row, not in it (a pool)."""

    def __str__(self) -> str:
        return "receive aside"


@dataclass(frozen=True)
class PlaceAt:
    """The player puts the vampire at ``position`` of the row (not an end) into ``grave``."""

    grave: int
    position: int

    def __str__(self) -> str:
        return f"place at {self.position} {self.grave}"


@dataclass(frozen=True)
class HandOver:
    """The player hands the outermost vampire at ``end`` to ``player`` while nothing is owed."""

    end: End
    player: int

    def __str__(self) -> str:
        return f"hand {self.end.value} to P{self.player + 1}"


@dataclass(frozen=True)
class StakeBack:
    """The player puts one of the stakes they hold back on the path."""

    def __str__(self) -> str:
        return "stake back"


OFF_MODEL = (GiveAt, GiveTo, ReceiveAt, ReceiveAside, PlaceAt, HandOver, StakeBack)
"""The component moves the model has no action type for."""
