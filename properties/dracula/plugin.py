"""Dracula's plugin record: the game (dracula-en, 2 players, hidden information) as the generic
subsystems see it.

Rule sets (``ruleproof check``): the default rules, each registered reading that changes play
(spec/dracula/ambiguities.toml; run in the small profile unless thorough), and the shared
group. The clause contracts are checked on the default rules (dracula-en).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dracula.game import DEFAULT_MAX_MOVES, DraculaGame
from ruleproof.properties.dracula import play
from ruleproof.properties.dracula.conformance import CONFORMANCE
from ruleproof.properties.dracula.docs import DOCS
from ruleproof.properties.dracula.formats import FORMATS
from ruleproof.properties.dracula.invariants import INTERFACE_INVARIANTS
from ruleproof.properties.dracula.render import RENDER
from ruleproof.properties.dracula.scenarios import SCENARIOS
from ruleproof.properties.dracula.shrink import SHRINK
from ruleproof.properties.dracula.simulate import SIMULATION
from ruleproof.properties.plugin import (
    SHARED,
    Deferred,
    GamePlugin,
    GameType,
    Param,
    RuleSet,
    Selection,
)
from ruleproof.spec import spec_path

from .ambiguities import AMBIGUITIES as DR_AMBIGUITIES
from .contracts import CONTRACTS as DR_CONTRACTS
from .symbolic import SYMBOLIC as DR_SYMBOLIC

NAME = "dracula"


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def readings() -> list[tuple[str, str]]:
    """Every non-default value of every rule option that the ambiguity register ties to a
    reading (``first_player`` is the rulebook's own choice, not a reading)."""
    from ruleproof.model.dracula.rules import DraculaRules, option_choices

    default = DraculaRules()
    out: list[tuple[str, str]] = []
    for f in fields(DraculaRules):
        if f.name == "first_player":
            continue
        for value in option_choices(f.name):
            if value != _text(getattr(default, f.name)):
                out.append((f.name, value))
    return out


def rule_sets(sel: Selection) -> list[RuleSet]:
    """The default rules, each registered reading (small), the shared group.

    Raises:
        MalformedInput: anything narrowed: Dracula is a 2-player game on a fixed board and its
            checks cover every registered reading.
    """
    if sel.narrowed:
        raise MalformedInput("dracula is a 2-player game on a fixed board and its checks cover "
                             "every registered reading; drop --players/--option/--board/--preset/"
                             "--expansion")
    out = [RuleSet(NAME, "default rules", players=(2,))]
    out += [RuleSet(NAME, f"{k}={v}", options=((k, v),), players=(2,), small=True)
            for k, v in readings()]
    out.append(RuleSet(NAME, SHARED))
    return out


def contract_rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The default rules, checked against dracula-en."""
    return (RuleSet(NAME, "dracula", "dracula-en", players=(2,), sources=("dracula-en",)),)


def checks(rule_set: RuleSet, board: Path | None) -> tuple[list[Any], list[Any]]:
    """Dracula's own properties of ``rule_set`` (the suite adds the generic ones).

    Raises:
        MalformedInput: a board file (Dracula's board is fixed).
    """
    from ruleproof.model.dracula.rules import rules_from_mapping
    from ruleproof.properties.dracula.checks import reading_checks
    from ruleproof.properties.dracula.checks import shared_checks as dracula_shared

    if board is not None:
        raise MalformedInput("--board is for dawn-under; dracula's board is fixed")
    if rule_set.shared:
        return dracula_shared(), []
    return reading_checks(rules_from_mapping(dict(rule_set.options))), []


def _presets() -> Mapping[str, tuple[str, tuple[int, ...]]]:
    from ruleproof.properties.dracula.scenarios import presets

    return {name: ("dracula-en", (2,)) for name in presets()}


def _option_values() -> Mapping[str, tuple[str, ...]]:
    from ruleproof.model.dracula.rules import option_choices, option_names

    return {name: option_choices(name) for name in option_names()}


def make_game(players: int = 2, options: Any = None, max_moves: int = DEFAULT_MAX_MOVES,
              cards: Any = None, preset: str | None = None) -> DraculaGame:
    """Dracula on the one interface (see :class:`DraculaGame`).

    Raises:
        MalformedInput: a player count other than 2, an unknown preset, a bad option or card
            file.
    """
    if isinstance(players, bool) or players != 2:
        raise MalformedInput(f"dracula is played by 2 players; got {players}")
    if preset not in (None, "", "dracula-en"):
        raise MalformedInput(f"unknown preset {preset!r}; known: dracula-en")
    if cards is not None and not hasattr(cards, "encounter"):
        from ruleproof.model.dracula import load_cards

        cards = load_cards(Path(cards))
    return DraculaGame(options, max_moves, cards)


PLUGIN = GamePlugin(
    name=NAME,
    title="Dracula",
    summary=("Kosmos 2003, 2 players with hidden information: Dracula hunts victims and Van "
             "Helsing hunts coffins among face-down encounter cards on a 3 x 4 board, paying "
             "every move with an action card."),
    package="dracula",
    game_type=GameType(players=(2,), chance=True, information="imperfect",
                       seats=("dracula", "van-helsing"), default_players=2),
    sources=("dracula-en",),
    params=(
        Param("players", "int", 2, "always 2 (Dracula and Van Helsing)", flag="--players"),
        Param("preset", "str", None, "rule set: dracula-en (the only one)", ("dracula-en",),
              flag="--preset"),
        Param("options", "options", None, "rule options NAME=VALUE (the registered readings)",
              flag="--option"),
        Param("max_moves", "int", DEFAULT_MAX_MOVES, "truncation bound on player decisions"),
        Param("cards", "path", None, "a card file instead of the shipped card set",
              flag="--cards"),
    ),
    make_game=make_game,
    rule_sets=rule_sets,
    contract_rule_sets=contract_rule_sets,
    spec_folder=spec_path("dracula"),
    presets=_presets,
    option_values=_option_values,
    checks=checks,
    capabilities={
        "contracts": DR_CONTRACTS,
        "ambiguities": DR_AMBIGUITIES,
        "discovery": Deferred("ruleproof.properties.dracula.discovery:DISCOVERY"),
        "symbolic": DR_SYMBOLIC,
        "components": Deferred("ruleproof.properties.dracula.components:COMPONENTS"),
        "generators": Deferred("ruleproof.properties.dracula.generators:GENERATORS"),
        "invariants": INTERFACE_INVARIANTS,
        "machine": play.MACHINE,
        "chance": play.CHANCE_RULE,
        "stats": play.STATS,
        "cycles": play.CYCLES,
        "scenarios": SCENARIOS,
        "formats": FORMATS,
        "render": RENDER,
        "simulate": SIMULATION,
        "docs": DOCS,
        "explore": Deferred("ruleproof.properties.dracula.explore:EXPLORE"),
        "reduced_game": Deferred("ruleproof.properties.dracula.explore:reduced_game"),
        "conformance": CONFORMANCE,
        "shrink": SHRINK,
        "mutants": Deferred("ruleproof.properties.dracula.mutants:MUTANTS"),
    },
)
