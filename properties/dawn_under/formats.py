"""Dawn Under's file formats: the scenario ``[setup]`` table (:class:`DawnUnderSetup`) and the
board file (:class:`ruleproof.model.dawn_under.board.DawnUnderBoard`), listed for
``ruleproof schema`` by the capability :data:`FORMATS`."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ruleproof.model.dawn_under.board import DawnUnderBoard
from ruleproof.properties.formats import GameFormats
from ruleproof.spec.models import Name, NonNegative, StrictModel


class DawnUnderSetup(StrictModel):
    """Dawn Under start position on top of a seeded deal (players by name)."""

    seed: NonNegative = Field(0, description="the deal everything not given comes from")
    start: Name | None = Field(None, description="who moves first")
    lids: dict[str, Name] = Field(default_factory=dict,
                                  description="grave -> colour or 'rat' (swapped into place)")
    rows: list[Annotated[list[Name], Field(max_length=200)]] | None = Field(
        None, max_length=6, description="per player; 'colour?' marks a face-down vampire")
    contents: dict[str, Name] = Field(
        default_factory=dict, description="grave -> 'vampire COLOUR' or 'garlic PLAYER'")
    stakes: list[NonNegative] | None = Field(None, max_length=6,
                                             description="stakes held, per player")
    garlic: list[NonNegative] | None = Field(
        None, max_length=6, description="garlic in hand, per player (default: 3 minus those "
                                        "in graves)")
    post: Name | None = Field(None, description="expansion: who holds the post")
    count: NonNegative | None = Field(None, description="expansion: Count Rucola's grave")
    bats: list[Annotated[int, Field(ge=0, le=2)]] | None = Field(
        None, max_length=6, description="expansion: bats in hand per player (0..2)")


FORMATS = GameFormats({"dawn-under-board": DawnUnderBoard})
"""The capability ``formats``: Dawn Under's own file formats."""
