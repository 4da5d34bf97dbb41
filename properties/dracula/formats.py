"""Dracula's file formats: the scenario ``[setup]`` table (:class:`DraculaSetup`) and the card
and board files (:mod:`ruleproof.model.dracula.formats`), listed for ``ruleproof schema`` by the
capability :data:`FORMATS`."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from ruleproof.model.dracula.formats import FORMATS as DATA_FORMATS
from ruleproof.properties.formats import GameFormats
from ruleproof.spec.models import MAX_LIST, Name, NonNegative, StrictModel

PerSide = dict[str, Annotated[list[Name], Field(max_length=MAX_LIST)]]


class DraculaSetup(StrictModel):
    """Dracula start: ``seed`` alone for a seeded game, or an explicit ``board``."""

    seed: NonNegative | None = Field(None, description="a seeded new game (alone), or the "
                                                       "seed of later chance steps")
    board: list[Annotated[str, StringConstraints(max_length=80)]] | None = Field(
        None, max_length=12, description="12 card ids ('' = empty), order a1 b1 c1 d1 a2 ... d3")
    to_move: Name | None = Field(None, description="side to move first (default: the "
                                                   "rules' first player)")
    dracula: Name | None = Field(None, description="Dracula's location")
    van_helsing: Name | None = Field(None, description="Van Helsing's location")
    life: dict[str, Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=dict, description="side -> life markers")
    captured: PerSide = Field(default_factory=dict, description="side -> targets won")
    discard: PerSide = Field(default_factory=dict,
                             description="side -> its encounter discard pile")
    current: PerSide = Field(default_factory=dict,
                             description="side -> its five current action cards")
    barriers: dict[str, Name] = Field(default_factory=dict, description="colour -> 'a1-b1'")
    breath: bool = Field(False, description="Breath of Night acts in this first turn")
    whisper: bool = Field(False, description="Whisper of Night acts in this first turn")
    vigilance: bool = Field(False, description="Vigilance is in force")
    turned: Name | None = Field(None, description="location of a turned card")


FORMATS = GameFormats(dict(DATA_FORMATS))
"""The capability ``formats``: Dracula's own file formats."""
