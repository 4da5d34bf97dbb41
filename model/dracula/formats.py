"""Dracula's data file formats (pydantic models): the card file (format ``dracula-cards``,
``spec/dracula/cards.toml``) and the board file (format ``dracula-board``,
``spec/dracula/board.toml``). Structure and types only; :mod:`ruleproof.model.dracula.data`
checks the game's semantics when it loads them. ``ruleproof schema NAME`` prints their JSON
Schemas (the plugin's ``formats`` capability lists them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ruleproof.spec.models import Name, StrictModel, sourced

SourcedText = sourced("SourcedText", Name, "a text value with its provenance and source")
SourcedInt = sourced("SourcedInt", int, "an integer value with its provenance and source")
SourcedStrength = sourced("SourcedStrength", int | Literal["none"],
                          "a strength (or \"none\") with provenance")
SourcedList = sourced("SourcedList", list[Name], "a list of names with its provenance and source")
Side = Literal["dracula", "van-helsing"]


class EncounterCard(StrictModel):
    """An encounter card of a Dracula card file."""

    id: Name
    owner: Side
    kind: SourcedText  # type: ignore[valid-type]
    strength: SourcedInt | None = None  # type: ignore[valid-type]


class ActionCard(StrictModel):
    """An action card of a Dracula card file."""

    id: Name
    owner: Side
    name: SourcedText  # type: ignore[valid-type]
    move: SourcedInt  # type: ignore[valid-type]
    strength: SourcedStrength  # type: ignore[valid-type]
    bar: SourcedText  # type: ignore[valid-type]
    special: SourcedText  # type: ignore[valid-type]


class DraculaCards(StrictModel):
    """A Dracula card file (``spec/dracula/cards.toml``)."""

    game: Literal["dracula"] = "dracula"
    encounter: list[EncounterCard] = Field(max_length=200)
    action: list[ActionCard] = Field(max_length=200)


class DraculaBoard(StrictModel):
    """A Dracula board file (``spec/dracula/board.toml``)."""

    game: Literal["dracula"] = "dracula"
    rows: SourcedInt  # type: ignore[valid-type]
    columns: SourcedInt  # type: ignore[valid-type]
    harbour: SourcedText  # type: ignore[valid-type]
    carriage_station: SourcedText  # type: ignore[valid-type]
    adjacency: SourcedText  # type: ignore[valid-type]
    life_markers: SourcedInt  # type: ignore[valid-type]
    barrier_colours: SourcedList  # type: ignore[valid-type]


FORMATS: dict[str, type[BaseModel]] = {"dracula-cards": DraculaCards,
                                        "dracula-board": DraculaBoard}
"""Format name -> model, for ``ruleproof schema``."""
