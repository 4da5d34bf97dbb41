"""Typed file formats (pydantic v2 models) and their JSON Schemas.

Each user-editable format is one model here: the structure and types are checked by pydantic
(strict: ``seed = 1.9`` is not an integer, ``clauses = "x"`` is not a list, no coercion); game
semantics (is ``open 12`` a grave of this board, is a colour known) are checked afterwards by the
reader that owns the format, collecting every problem of the file in one pass
(:class:`ruleproof.spec.formats.Problems`).

:data:`SCHEMAS` maps each schema name to its model; ``ruleproof schema NAME`` prints one and the
files in ``spec/schemas/`` are the same text (a test keeps them in sync).
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

PROVENANCE = Literal["rulebook", "public", "assumed"]
GAMES = ("dawn-under", "dracula")

Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=80)]
NonNegative = Annotated[int, Field(ge=0, le=2**62)]


def _registered(clause: str) -> str:
    from ruleproof.spec import all_clause_ids

    if clause not in all_clause_ids():
        cut = clause if len(clause) <= MAX_SHOWN else clause[:MAX_SHOWN - 1] + "…"
        raise ValueError(f"clause {cut!r} is not in any clause registry")
    return clause


ClauseId = Annotated[
    str,
    StringConstraints(pattern=r"^(du-en|du-cs|gruft-en|dracula-en):[a-z0-9]+([.-][a-z0-9]+)*$",
                      max_length=120),
    AfterValidator(_registered),
]


class _Strict(BaseModel):
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


class Refusal(_Strict):
    """An action that must be refused: the state stays as it was and the scenario goes on."""

    action: int = Field(ge=1, le=MAX_ACTIONS, description="1-based number in 'actions'")
    clauses: list[ClauseId] = Field(min_length=1, max_length=20,
                                    description="every one of these must be cited by the refusal")


class Checkpoint(_Strict):
    """Expectations in the middle of the scenario: after a number of actions."""

    after: int = Field(ge=0, le=MAX_ACTIONS,
                       description="number of actions done (0 = the start position)")
    expect: Facts


class Reading(_Strict):
    """One rule reading a scenario is also run under (its options and expectations)."""

    name: Name
    options: dict[str, OptionValue] = Field(default_factory=dict)
    expect: Facts = Field(default_factory=dict)
    refused: list[Refusal] = Field(default_factory=list, max_length=MAX_ACTIONS)
    check: list[Checkpoint] = Field(default_factory=list, max_length=MAX_ACTIONS)


class DawnUnderSetup(_Strict):
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


PerSide = dict[str, Annotated[list[Name], Field(max_length=MAX_LIST)]]


class DraculaSetup(_Strict):
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


class Scenario(_Strict):
    """A scenario file: a start position, actions, and expectations at any step.

    The same format serves every game; ``setup``, actions and facts are the game's own
    (docs/scenarios.md lists them).
    """

    game: Literal["dawn-under", "dracula"]
    title: Text | None = Field(None, description="default: the file name")
    description: Text | None = None
    clauses: list[ClauseId] = Field(default_factory=list, max_length=200)
    players: int | None = Field(None, ge=2, le=6, description="dawn-under: 2-6; dracula: 2")
    names: list[Name] | None = Field(None, max_length=6,
                                     description="player names (default P1.., or the sides)")
    preset: Name | None = None
    ambiguity: Name | None = None
    actions: list[Annotated[str, StringConstraints(max_length=400)]] = Field(
        default_factory=list, max_length=MAX_ACTIONS,
        description="'NAME: action' or 'action', in the game's notation")
    options: dict[str, OptionValue] = Field(default_factory=dict)
    setup: DawnUnderSetup | DraculaSetup = Field(default_factory=lambda: DawnUnderSetup.model_validate({}))
    expect: Facts = Field(default_factory=dict)
    refused: list[Refusal] = Field(default_factory=list, max_length=MAX_ACTIONS)
    check: list[Checkpoint] = Field(default_factory=list, max_length=MAX_ACTIONS)
    reading: list[Reading] | None = Field(None, min_length=1, max_length=20)


class ScenarioTop(Scenario):
    """Scenario with ``setup`` left as a table (validated by the game's setup model)."""

    setup: dict[str, Any] = Field(default_factory=dict)  # type: ignore[assignment]


# --------------------------------------------------------------------------- presets


class Preset(_Strict):
    """A rule set: a source reading and the option values it implies."""

    name: Name
    source: Literal["du-en", "du-cs", "gruft-en", "dracula-en"]
    description: Text = ""
    players: list[Annotated[int, Field(ge=2, le=6)]] = Field(min_length=1, max_length=5)
    options: dict[str, OptionValue] = Field(default_factory=dict)


class PresetFile(_Strict):
    """``spec/GAME/presets.toml``: the presets of one game."""

    preset: list[Preset] = Field(min_length=1, max_length=50)


# --------------------------------------------------------------------------- boards


class Grave(_Strict):
    """One grave of a Dawn Under board."""

    id: NonNegative
    quarter: Name
    neighbours: list[NonNegative] = Field(max_length=8)
    x: int = Field(0, ge=-10_000, le=10_000)
    y: int = Field(0, ge=-10_000, le=10_000)


class DawnUnderBoard(_Strict):
    """A Dawn Under board file (graves, quarters, neighbours)."""

    name: Name | None = None
    provenance: PROVENANCE
    quarters: list[Name] = Field(min_length=4, max_length=4)
    grave: list[Grave] = Field(max_length=1000)


def _sourced(value_type: Any, description: str) -> Any:
    class Sourced(_Strict):
        value: value_type
        provenance: PROVENANCE
        source: Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT,
                                                 pattern=r"\S")]

    Sourced.__doc__ = description
    return Sourced


SourcedText = _sourced(Name, "a text value with its provenance and source")
SourcedInt = _sourced(int, "an integer value with its provenance and source")
SourcedStrength = _sourced(int | Literal["none"], "a strength (or \"none\") with provenance")
SourcedList = _sourced(list[Name], "a list of names with its provenance and source")
Side = Literal["dracula", "van-helsing"]


class EncounterCard(_Strict):
    """An encounter card of a Dracula card file."""

    id: Name
    owner: Side
    kind: SourcedText  # type: ignore[valid-type]
    strength: SourcedInt | None = None  # type: ignore[valid-type]


class ActionCard(_Strict):
    """An action card of a Dracula card file."""

    id: Name
    owner: Side
    name: SourcedText  # type: ignore[valid-type]
    move: SourcedInt  # type: ignore[valid-type]
    strength: SourcedStrength  # type: ignore[valid-type]
    bar: SourcedText  # type: ignore[valid-type]
    special: SourcedText  # type: ignore[valid-type]


class DraculaCards(_Strict):
    """A Dracula card file (``spec/dracula/cards.toml``)."""

    game: Literal["dracula"] = "dracula"
    encounter: list[EncounterCard] = Field(max_length=200)
    action: list[ActionCard] = Field(max_length=200)


class DraculaBoard(_Strict):
    """A Dracula board file (``spec/dracula/board.toml``)."""

    game: Literal["dracula"] = "dracula"
    rows: SourcedInt  # type: ignore[valid-type]
    columns: SourcedInt  # type: ignore[valid-type]
    harbour: SourcedText  # type: ignore[valid-type]
    carriage_station: SourcedText  # type: ignore[valid-type]
    adjacency: SourcedText  # type: ignore[valid-type]
    life_markers: SourcedInt  # type: ignore[valid-type]
    barrier_colours: SourcedList  # type: ignore[valid-type]


# --------------------------------------------------------------------------- traces


class TraceHeader(BaseModel):
    """Line 1 of a trace (JSON Lines; docs/conformance.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    format: Literal["ruleproof-trace"]
    version: Literal[1]
    game: Literal["dawn-under", "dracula"]
    players: int = Field(ge=2, le=6)
    preset: Literal["du-en", "du-cs", "2p"] | None = None
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


SCHEMAS: dict[str, type[BaseModel]] = {
    "scenario": Scenario,
    "presets": PresetFile,
    "dawn-under-board": DawnUnderBoard,
    "dracula-cards": DraculaCards,
    "dracula-board": DraculaBoard,
    "trace-header": TraceHeader,
    "trace-step": TraceStep,
}
"""Schema name -> model (``ruleproof schema NAME``, ``spec/schemas/NAME.json``)."""


def schema_text(name: str) -> str:
    """The JSON Schema of format ``name`` as text (stable: sorted keys, 2-space indent).

    Raises:
        KeyError: for an unknown name.
    """
    schema = SCHEMAS[name].model_json_schema(mode="validation")
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": f"https://ruleproof.invalid/spec/schemas/{name}.json", **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
