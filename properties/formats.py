"""Every file format, the games' own included: the ``formats`` capability and the schema list.

Formats shared by every game (scenario files, presets, traces) are models in
:mod:`ruleproof.spec.models`, shipped in ``spec/schemas/`` (:func:`schemas`): they name no
game (a file's ``game`` is checked against the registry when it is read, its ``setup`` by the
game). A game's own formats ship in its data folder, ``spec/<game>/schemas/``
(:func:`game_schemas`): its scenario format (``game`` its name, ``setup`` the ``setup_model``
of its ``scenarios`` capability, :mod:`ruleproof.properties.scenarios`) and the formats its
plugin's capability ``formats`` lists (a :class:`GameFormats`: a board or card file). A test
keeps every shipped file in sync with ``ruleproof schema NAME``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import GamePlugin, plugins
from ruleproof.spec import spec_path
from ruleproof.spec.models import (
    GenericScenario,
    PresetFile,
    TraceHeader,
    TraceStep,
    scenario_model,
    schema_json,
)


@dataclass(frozen=True)
class GameFormats:
    """A game's own file formats (the capability ``formats`` of its plugin).

    Attributes:
        schemas: format name -> the pydantic model of the file (structure and types; the
            game's loader checks the rest). Names start with the game's name
            (``<game>-board``), so two games' formats never share a name.
    """

    schemas: Mapping[str, type[BaseModel]]


def _game_scenario(game: str, setup: type[BaseModel]) -> type[BaseModel]:
    """The scenario format of one game: ``game`` is its name, ``setup`` its set-up model."""
    return scenario_model((game,), (setup,))


def schemas() -> dict[str, type[BaseModel]]:
    """The formats every game shares, name -> model: ``scenario`` (``game`` any registered
    game's name, ``setup`` a table the game checks), ``presets``, ``trace-header``,
    ``trace-step``. Shipped in ``spec/schemas/NAME.json``."""
    return {"scenario": GenericScenario, "presets": PresetFile, "trace-header": TraceHeader,
            "trace-step": TraceStep}


def game_schemas(p: GamePlugin) -> dict[str, type[BaseModel]]:
    """A game's own formats, name -> model: its ``<game>-scenario`` (when it has scenarios;
    ``game`` is its name and ``setup`` its set-up model) and the formats of its capability
    ``formats`` (``<game>-board``...). Shipped in the game's data folder,
    ``spec/<game>/schemas/NAME.json``, so adding a game changes no shared file.

    Raises:
        MalformedInput: a game format whose name does not start with the game's name.
    """
    from ruleproof.properties.scenarios import scenario_games

    out: dict[str, type[BaseModel]] = {}
    facts = scenario_games().get(p.name)
    if facts is not None:
        out[f"{p.name}-scenario"] = _game_scenario(p.name, facts.setup_model)
    found: GameFormats | None = p.capability("formats")
    for name, model in (found.schemas if found is not None else {}).items():
        if not name.startswith(f"{p.name}-"):
            raise MalformedInput(f"{p.name}: format {name!r} must start with '{p.name}-'")
        out[name] = model
    return out


def every_schema() -> dict[str, tuple[type[BaseModel], Path]]:
    """Every format, the shared ones and each registered game's, name -> (model, where it is
    shipped).

    Raises:
        MalformedInput: two games (or a game and a shared format) give one name.
    """
    out: dict[str, tuple[type[BaseModel], Path]] = {
        name: (model, spec_path("schemas", f"{name}.json")) for name, model in schemas().items()}
    for p in plugins().values():
        for name, model in game_schemas(p).items():
            if name in out:
                raise MalformedInput(f"{p.name}: format {name!r} is given twice")
            out[name] = (model, p.spec_folder / "schemas" / f"{name}.json")
    return out


def schema_text(name: str, known: Mapping[str, type[BaseModel]] | None = None) -> str:
    """The JSON Schema of format ``name`` as text (stable: sorted keys, 2-space indent).

    Raises:
        MalformedInput: an unknown format, naming the known ones.
    """
    every = dict(known) if known is not None else {k: m for k, (m, _) in every_schema().items()}
    model = every.get(name)
    if model is None:
        raise MalformedInput(f"unknown schema {name[:60]!r}; known: {', '.join(every)}")
    return schema_json(name, model)


def first_line(model: type[Any]) -> str:
    """The format's one-line summary: the first sentence of a model's docstring (its first
    paragraph when that has no full stop followed by a space), on one line, with reST's double
    backticks made single. The first physical line alone cut a docstring mid-sentence
    (``scenario: ... expectations, in any registered``)."""
    paragraph = (model.__doc__ or "").strip().split("\n\n")[0]
    text = " ".join(paragraph.split()).replace("``", "`")
    sentence = re.match(r"(.*?\.)\s", text + " ")
    return sentence.group(1) if sentence else text


__all__ = ["GameFormats", "every_schema", "first_line", "game_schemas", "schema_text", "schemas"]
