"""Every file format, the games' own included: the ``formats`` capability and the schema list.

Formats shared by every game (scenario files, presets, traces) are models in
:mod:`ruleproof.spec.models`. A game's own formats (a board or card file) are models in its
folders, listed by its plugin's capability ``formats`` (a :class:`GameFormats`); a game's
scenario ``[setup]`` table is the ``setup_model`` of its ``scenarios`` capability
(:mod:`ruleproof.properties.scenarios`). :func:`schemas` puts them together for
``ruleproof schema`` and ``spec/schemas/`` (a test keeps the shipped files in sync): the
scenario format's ``game`` is one of the registered games with scenarios and its ``setup`` one
of their set-up models; a trace header's ``game`` one of the registered games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, create_model

from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import plugins
from ruleproof.spec.models import PresetFile, TraceHeader, TraceStep, scenario_model, schema_json


@dataclass(frozen=True)
class GameFormats:
    """A game's own file formats (the capability ``formats`` of its plugin).

    Attributes:
        schemas: format name -> the pydantic model of the file (structure and types; the
            game's loader checks the rest). Names start with the game's name
            (``<game>-board``), so two games' formats never share a name.
    """

    schemas: Mapping[str, type[BaseModel]]


def _trace_header(games: tuple[str, ...]) -> type[BaseModel]:
    made: type[BaseModel] = create_model(
        "TraceHeader", __base__=TraceHeader, __doc__=TraceHeader.__doc__,
        game=(Literal[games], ...))  # type: ignore[arg-type]
    return made


def schemas() -> dict[str, type[BaseModel]]:
    """Format name -> model, for every format: ``scenario``, ``presets``, each registered
    game's own formats (in registry order), ``trace-header``, ``trace-step``.

    Raises:
        MalformedInput: two games (or a game and a shared format) give one name.
    """
    from ruleproof.properties.scenarios import scenario_games

    with_scenarios = scenario_games()
    out: dict[str, type[BaseModel]] = {
        "scenario": scenario_model(tuple(with_scenarios),
                                   tuple(s.setup_model for s in with_scenarios.values())),
        "presets": PresetFile,
    }
    for p in plugins().values():
        found: GameFormats | None = p.capability("formats")
        for name, model in (found.schemas if found is not None else {}).items():
            if name in out:
                raise MalformedInput(f"{p.name}: format {name!r} is given twice")
            out[name] = model
    out["trace-header"] = _trace_header(tuple(plugins()))
    out["trace-step"] = TraceStep
    return out


def schema_text(name: str, known: Mapping[str, type[BaseModel]] | None = None) -> str:
    """The JSON Schema of format ``name`` as text (stable: sorted keys, 2-space indent).

    Raises:
        MalformedInput: an unknown format, naming the known ones.
    """
    every = dict(known) if known is not None else schemas()
    model = every.get(name)
    if model is None:
        raise MalformedInput(f"unknown schema {name[:60]!r}; known: {', '.join(every)}")
    return schema_json(name, model)


def first_line(model: type[Any]) -> str:
    """The first line of a model's docstring (the format's one-line summary)."""
    return ((model.__doc__ or "").strip().splitlines() or [""])[0]


__all__ = ["GameFormats", "first_line", "schema_text", "schemas"]
