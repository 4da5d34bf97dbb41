"""Kuhn poker's plugin record: the worked example of adding a game (docs/add-a-game.md).

The game needs nothing but this record, its model (``model/kuhn_poker/``) and its data
(``spec/kuhn_poker/``): every subsystem reaches it through the registry. Its capabilities live
in this folder, one module each (contracts, symbolic, discovery, ambiguities, invariants,
play: machine/stats/cycles, scenarios, render, simulate, docs, explore, conformance).

Capabilities left out, because they do not apply:

* ``formats``: the game has no file format of its own (no board or card file); its scenario
  ``[setup]`` is the model of its ``scenarios`` capability.
* ``chance``: the deal is the only chance (kuhn-wp:rules.deal); ``new_seeded_state`` resolves
  it, and a hand started before the deal is dealt by the generic rule (each card with its
  exact probability).
* ``shrink``: nothing of the deal is hidden from everybody (each dealt card is seen by its
  holder at once; the third card is not part of a set-up), and both decisions are legal at
  every decision, so there is no deal to rearrange: witnesses are shrunk without one.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.kuhn_poker.game import MAX_DECISIONS, KuhnPokerGame
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

from . import play
from .ambiguities import AMBIGUITIES
from .conformance import CONFORMANCE
from .contracts import CONTRACTS
from .discovery import DISCOVERY
from .docs import DOCS
from .invariants import INTERFACE_INVARIANTS
from .render import RENDER
from .scenarios import SCENARIOS
from .simulate import SIMULATION

NAME = "kuhn-poker"


def rule_sets(sel: Selection) -> list[RuleSet]:
    """The rules as stated (kuhn-wp) and the shared group.

    Raises:
        MalformedInput: anything narrowed but the player count 2 or the preset kuhn-wp.
    """
    if sel.expansion is not None or sel.options or set(sel.players) - {2} or \
            sel.preset not in (None, "kuhn-wp"):
        raise MalformedInput("kuhn-poker is a 2-player game with one rule set (kuhn-wp) and no "
                             "options or expansions")
    return [RuleSet(NAME, "kuhn-wp", "kuhn-wp", players=(2,), sources=("kuhn-wp",)),
            RuleSet(NAME, SHARED)]


def contract_rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The one rule set, checked against kuhn-wp."""
    return (RuleSet(NAME, "kuhn-wp/2", "kuhn-wp", players=(2,), sources=("kuhn-wp",)),)


def checks(rule_set: RuleSet, board: Path | None) -> tuple[list[Any], list[Any]]:
    """Kuhn poker's own properties of ``rule_set`` (properties/kuhn_poker/checks.py; the suite
    adds the generic ones).

    Raises:
        MalformedInput: a board file (Kuhn poker has no board).
    """
    from .checks import rule_set_checks, shared_checks

    if board is not None:
        raise MalformedInput("kuhn-poker has no board")
    return (shared_checks() if rule_set.shared else rule_set_checks()), []


def make_game(players: int = 2, preset: str | None = None,
              max_moves: int = MAX_DECISIONS) -> KuhnPokerGame:
    """Kuhn poker on the one interface.

    Raises:
        MalformedInput: a player count other than 2, an unknown preset.
    """
    if isinstance(players, bool) or players != 2:
        raise MalformedInput(f"kuhn-poker is played by 2 players; got {players}")
    if preset not in (None, "", "kuhn-wp"):
        raise MalformedInput(f"unknown preset {preset!r}; known: kuhn-wp")
    return KuhnPokerGame(max_moves)


def _presets() -> Mapping[str, tuple[str, tuple[int, ...]]]:
    return {"kuhn-wp": ("kuhn-wp", (2,))}


PLUGIN = GamePlugin(
    name=NAME,
    title="Kuhn poker",
    summary=("H. W. Kuhn 1950, 2 players with hidden information: a three-card deck, one card "
             "each, one round of pass or bet; the worked example of adding a game."),
    package="kuhn_poker",
    game_type=GameType(players=(2,), chance=True, information="imperfect", default_players=2),
    sources=("kuhn-wp",),
    params=(
        Param("players", "int", 2, "always 2", flag="--players"),
        Param("preset", "str", None, "rule set: kuhn-wp (the only one)", ("kuhn-wp",),
              flag="--preset"),
        Param("max_moves", "int", MAX_DECISIONS, "truncation bound (a hand never needs more)"),
    ),
    make_game=make_game,
    rule_sets=rule_sets,
    contract_rule_sets=contract_rule_sets,
    spec_folder=spec_path("kuhn_poker"),
    presets=_presets,
    checks=checks,
    capabilities={
        "contracts": CONTRACTS,
        "symbolic": Deferred("ruleproof.properties.kuhn_poker.symbolic:SYMBOLIC"),
        "discovery": DISCOVERY,
        "ambiguities": AMBIGUITIES,
        "invariants": INTERFACE_INVARIANTS,
        "machine": play.MACHINE,
        "stats": play.STATS,
        "cycles": play.CYCLES,
        "scenarios": SCENARIOS,
        "render": RENDER,
        "simulate": SIMULATION,
        "docs": DOCS,
        "explore": Deferred("ruleproof.properties.kuhn_poker.explore:EXPLORE"),
        "conformance": CONFORMANCE,
        "mutants": Deferred("ruleproof.properties.kuhn_poker.mutants:MUTANTS"),
    },
)
