"""Typed file formats shared by every game (pydantic v2 models) and their JSON Schemas.

Each user-editable format is one model (strict: ``seed = 1.9`` is not an integer, ``clauses =
"x"`` is not a list, no coercion); game semantics (is ``open 12`` a grave of this board, is a
colour known, is ``game`` a registered game) are checked afterwards by the reader that owns the
format, collecting every problem of the file in one pass
(:class:`ruleproof.spec.formats.Problems`).

The formats here are every game's: scenario files (their ``[setup]`` table is the game's own),
preset files and traces. A game's own formats (its board or card files, its scenario set-up)
are models in its folders, listed by its plugin's ``formats`` capability;
:mod:`ruleproof.properties.formats` puts them all together (``ruleproof schema NAME``; the files
in ``spec/schemas/`` are the same text, a test keeps them in sync).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from ruleproof.spec.formats import MAX_SHOWN

MAX_ACTIONS = 100_000
"""Most actions a scenario may list."""
MAX_LIST = 10_000
"""Longest list anywhere else in a file."""
MAX_TEXT = 10_000
"""Longest string value (characters)."""
MAX_PLAYERS = 100
"""Most players any file may name (a game checks its own player counts)."""

PROVENANCE = Literal["rulebook", "public", "assumed"]
DOCUMENT = r"[a-z][a-z0-9]*(-[a-z0-9]+)*"
"""What a source document id looks like (:data:`ruleproof.spec.DOCUMENT_RE`)."""

Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=80)]
NonNegative = Annotated[int, Field(ge=0, le=2**62)]


def _cut(value: str) -> str:
    return value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN - 1] + "…"


def _registered(clause: str) -> str:
    from ruleproof.spec import all_clause_ids

    if clause not in all_clause_ids():
        raise ValueError(f"clause {_cut(clause)!r} is not in any clause registry")
    return clause


def _shipped_document(document: str) -> str:
    from ruleproof.spec import documents

    if document not in documents():
        raise ValueError(f"source {_cut(document)!r} is not a shipped source document; known: "
                         f"{', '.join(documents())}")
    return document


ClauseId = Annotated[
    str,
    StringConstraints(pattern=rf"^{DOCUMENT}:[a-z0-9]+([.-][a-z0-9]+)*$", max_length=120),
    AfterValidator(_registered),
]
"""A clause id ``<document>:<section>.<name>`` of a shipped clause registry."""

DocumentId = Annotated[
    str,
    StringConstraints(pattern=rf"^{DOCUMENT}$", max_length=80),
    AfterValidator(_shipped_document),
]
"""The id of a shipped source document (``spec/<game>/sources/<id>.toml``)."""


class StrictModel(BaseModel):
    """Base of every file model: unknown keys refused, no coercion, frozen."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --------------------------------------------------------------------------- scenarios

Scalar = str | int | bool
FactValue = Annotated[Scalar | Annotated[list[Scalar], Field(max_length=MAX_LIST)],
                      Field(description="an expected value: text, integer, boolean or a list")]
Facts = Annotated[dict[str, FactValue], Field(
    description="fact name -> expected value; quote dotted names (\"stakes.Ann\" = 1); "
                "append ' contains' or ' excludes' to a name for a membership test "
                "(\"legal contains\" = [\"open 3\"]); see docs/scenarios.md")]
OptionValue = str | bool | int


class Refusal(StrictModel):
    """An action that must be refused: the state stays as it was and the scenario goes on."""

    action: int = Field(ge=1, le=MAX_ACTIONS, description="1-based number in 'actions'")
    clauses: list[ClauseId] = Field(min_length=1, max_length=20,
                                    description="every one of these must be cited by the refusal")


class Checkpoint(StrictModel):
    """Expectations in the middle of the scenario: after a number of actions."""

    after: int = Field(ge=0, le=MAX_ACTIONS,
                       description="number of actions done (0 = the start position)")
    expect: Facts


class Reading(StrictModel):
    """One rule reading a scenario is also run under (its options and expectations)."""

    name: Name
    options: dict[str, OptionValue] = Field(default_factory=dict)
    expect: Facts = Field(default_factory=dict)
    refused: list[Refusal] = Field(default_factory=list, max_length=MAX_ACTIONS)
    check: list[Checkpoint] = Field(default_factory=list, max_length=MAX_ACTIONS)


SCENARIO_DOC = """A scenario file: a start position, actions, and expectations at any step.

    The same format serves every game; ``setup``, actions and facts are the game's own
    (docs/scenarios.md lists them).
    """


class ScenarioTop(StrictModel):
    """A scenario file with ``setup`` left as a table: the scenario runner checks ``game``
    against the registry and validates ``setup`` with that game's own set-up model
    (:func:`scenario_model` is the whole format, for the JSON Schema)."""

    game: Name = Field(description="the game (a registered game's name)")
    title: Text | None = Field(None, description="default: the file name")
    description: Text | None = None
    clauses: list[ClauseId] = Field(default_factory=list, max_length=200)
    players: int | None = Field(None, ge=1, le=MAX_PLAYERS,
                                description="the player count (one the game takes; may be left "
                                            "out when the game is played by one count)")
    names: list[Name] | None = Field(None, max_length=MAX_PLAYERS,
                                     description="player names (default: the game's own)")
    preset: Name | None = None
    ambiguity: Name | None = None
    actions: list[Annotated[str, StringConstraints(max_length=400)]] = Field(
        default_factory=list, max_length=MAX_ACTIONS,
        description="'NAME: action' or 'action', in the game's notation")
    options: dict[str, OptionValue] = Field(default_factory=dict)
    setup: dict[str, Any] = Field(default_factory=dict)
    expect: Facts = Field(default_factory=dict)
    refused: list[Refusal] = Field(default_factory=list, max_length=MAX_ACTIONS)
    check: list[Checkpoint] = Field(default_factory=list, max_length=MAX_ACTIONS)
    reading: list[Reading] | None = Field(None, min_length=1, max_length=20)


class GenericScenario(ScenarioTop):
    """A scenario file (TOML): a start position, actions and expectations, in any registered
    game's notation (docs/scenarios.md). ``game`` names a registered game (checked when the file
    is read); ``setup`` is the game's own table, described by ``spec/<game>/schemas/<game>-
    scenario.json``."""


def scenario_model(games: tuple[str, ...], setups: tuple[type[BaseModel], ...]
                   ) -> type[BaseModel]:
    """The whole scenario format for the JSON Schema: ``game`` one of ``games``, ``setup`` one
    of the games' set-up models.

    Raises:
        ValueError: no game given.
    """
    from pydantic import create_model

    if not games or not setups:
        raise ValueError("the scenario format needs at least one game")
    first = setups[0]
    setup_type: Any = setups[0] if len(setups) == 1 else setups[0] | setups[1]
    for more in setups[2:]:
        setup_type = setup_type | more
    made: type[BaseModel] = create_model(
        "Scenario", __base__=ScenarioTop, __doc__=SCENARIO_DOC,
        game=(Literal[games], ...),  # type: ignore[arg-type]
        setup=(setup_type, Field(default_factory=lambda: first.model_validate({}))))
    return made


# --------------------------------------------------------------------------- presets


class Preset(StrictModel):
    """A rule set: a source reading and the option values it implies."""

    name: Name
    source: DocumentId
    description: Text = ""
    players: list[Annotated[int, Field(ge=1, le=MAX_PLAYERS)]] = Field(min_length=1,
                                                                      max_length=MAX_PLAYERS)
    options: dict[str, OptionValue] = Field(default_factory=dict)


class PresetFile(StrictModel):
    """``spec/<game>/presets.toml``: the presets of one game."""

    preset: list[Preset] = Field(min_length=1, max_length=50)


# --------------------------------------------------------------------------- sourced values


def sourced(name: str, value_type: Any, description: str) -> Any:
    """A model called ``name`` of a value with its provenance and source (``{ value = ...,
    provenance = ..., source = ... }`` in a data file), ``description`` its docstring."""
    from pydantic import create_model

    source = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT, pattern=r"\S")]
    return create_model(name, __base__=StrictModel, __doc__=description,
                        value=(value_type, ...), provenance=(PROVENANCE, ...),
                        source=(source, ...))


# --------------------------------------------------------------------------- traces


class TraceHeader(BaseModel):
    """Line 1 of a trace (JSON Lines; docs/conformance.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    format: Literal["ruleproof-trace"]
    version: Literal[1]
    game: Name
    players: int = Field(ge=1, le=MAX_PLAYERS)
    preset: Name | None = None
    options: dict[str, str | bool] = Field(default_factory=dict)
    seed: NonNegative | None = None
    setup: dict[str, Any] | None = None
    engine: Text | None = None
    note: Text | None = None
    state: dict[str, Any] | None = None
    observation: dict[str, Any] | None = None


class TraceStep(BaseModel):
    """Every further line of a trace: one action, with what the engine reported after it."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    step: int = Field(ge=1, description="1 on the second line, then +1 per line")
    player: int | None = Field(None, ge=0, description="who acts; omitted for chance steps")
    action: Annotated[str, StringConstraints(max_length=400)]
    state: dict[str, Any] | None = None
    observation: dict[str, Any] | None = None
    legal: list[Annotated[str, StringConstraints(max_length=400)]] | None = Field(
        None, max_length=MAX_LIST)


def schema_json(name: str, model: type[BaseModel]) -> str:
    """The JSON Schema of ``model`` published as format ``name``, as text (stable: sorted keys,
    2-space indent)."""
    schema = model.model_json_schema(mode="validation")
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": f"https://ruleproof.invalid/spec/schemas/{name}.json", **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
