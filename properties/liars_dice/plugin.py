"""Liar's Dice's plugin record: the worked example of adding a game (docs/add-a-game.md).

The game needs nothing but this record, its model (``model/liars_dice/``) and its data
(``spec/liars_dice/``): every subsystem reaches it through the registry. Its capabilities live
in this folder, one module each.

Parameters: ``players`` (2..6), ``dice`` per player (1..5; the article's five by default),
``sides`` (2..6), ``preset`` (``ld-wp``, ``ld-wp-one-round``), ``options`` (the readings:
``raise``, ``wild``, ``spot_on``, ``rounds``; spec/liars_dice/ambiguities.toml), ``order`` (the
action numbering: ``quantity`` or ``face``, OpenSpiel's two tables) and ``max_moves``.

Capabilities left out, because they do not apply:

* ``formats``: the game has no file of its own (no board or card file).
* ``chance``: the dice are the only chance (ld-wp:round.roll); the generic rule rolls each die
  with its exact probability.
* ``shrink``: every die is seen by its owner at once and every decision's legality depends on
  the bids only, so there is no hidden deal to rearrange.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import option_pairs_from
from ruleproof.model.liars_dice.game import LiarsDiceGame
from ruleproof.model.liars_dice.rules import OPTIONS, ORDERS, Rules
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
from .docs import DOCS
from .invariants import INTERFACE_INVARIANTS
from .scenarios import SCENARIOS
from .simulate import SIMULATION

NAME = "liars-dice"
PRESETS: dict[str, dict[str, str]] = {"ld-wp": {}, "ld-wp-one-round": {"rounds": "one"}}
"""Preset -> the options it sets (spec/liars_dice/presets.toml)."""
PLAYERS = (2, 3, 4, 5, 6)


def readings() -> list[tuple[str, str]]:
    """Every non-default value of every rule option (each a reading of ld-wp)."""
    return [(k, v) for k, values in OPTIONS.items() for v in values[1:]]


SIZE_KEYS = ("dice", "sides", "order")
"""Parameters that may also ride in the option map (``-P options=dice=1,sides=6,order=quantity``),
for the commands that pass a game only players, preset and options (``conform --openspiel``,
``conform-framework``)."""


def split_options(options: Any) -> tuple[dict[str, str], dict[str, str]]:
    """``options`` split into (rule options, size parameters of :data:`SIZE_KEYS`)."""
    pairs = option_pairs_from(options)
    return ({k: v for k, v in pairs.items() if k not in SIZE_KEYS},
            {k: v for k, v in pairs.items() if k in SIZE_KEYS})


def options_of(preset: str | None, options: Any) -> dict[str, str]:
    """The rule options of ``preset`` with ``options`` on top (size parameters left out).

    Raises:
        MalformedInput: an unknown preset, option or value.
    """
    if preset not in (None, "") and preset not in PRESETS:
        raise MalformedInput(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    out = dict(PRESETS.get(preset or "ld-wp", {}))
    for k, v in split_options(options)[0].items():
        if k not in OPTIONS:
            raise MalformedInput(f"liars-dice has no option {k!r}; its options: "
                                 f"{', '.join(OPTIONS)}")
        if v not in OPTIONS[k]:
            raise MalformedInput(f"option {k}: {v!r} is not one of {', '.join(OPTIONS[k])}")
        out[k] = v
    return out


def rules_of(players: int = 2, dice: int = 5, sides: int = 6, preset: str | None = None,
             options: Any = None) -> Rules:
    """The :class:`Rules` of these parameters. Raises MalformedInput."""
    o = options_of(preset, options)
    return Rules(players, dice, sides, o.get("raise", "face"), o.get("wild", "ones"),
                 o.get("spot_on", "no"), o.get("rounds", "last"))


def make_game(players: int = 2, dice: int = 5, sides: int = 6, preset: str | None = None,
              options: Any = None, order: str | None = None,
              max_moves: int | None = None) -> LiarsDiceGame:
    """Liar's Dice on the one interface.

    Raises:
        MalformedInput: a parameter out of range, an unknown preset, option or order.
    """
    size = split_options(options)[1]
    for key in ("dice", "sides"):  # ASCII digits only: int() also reads '٣', '+2' and '0_2'
        text = str(size.get(key, "0")).strip()
        if not (text.isascii() and text.isdigit()):
            raise MalformedInput(f"option {key} must be a whole number, got {size[key]!r}")
    dice = int(size.get("dice", dice))
    sides = int(size.get("sides", sides))
    order = size.get("order", order)
    if order not in (None, "", *ORDERS):
        raise MalformedInput(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    return LiarsDiceGame(rules_of(players, dice, sides, preset, options), order or None,
                         max_moves)


READING_DICE = 2
"""Dice per player in the rule sets of the other readings (small: each reading differs from
the article's game in one rule, which two dice each exercise; the article's five dice are
checked by the rule set ``ld-wp``)."""


def rule_sets(sel: Selection) -> list[RuleSet]:
    """The article's game (2 and 3 players, five dice each), each other reading on 2 players
    with two dice each (small), and the shared group; narrowed by a preset, options or player
    counts.

    Raises:
        MalformedInput: an expansion, an unknown preset, option or player count.
    """
    if sel.expansion is not None:
        raise MalformedInput("liars-dice has no expansions")
    if set(sel.players) - set(PLAYERS):
        raise MalformedInput(f"liars-dice takes 2..6 players; got {list(sel.players)}")
    opts = options_of(sel.preset, dict(sel.options))
    if sel.narrowed:
        counts = sel.players or (2,)
        name = sel.preset or "ld-wp"
        extra = ",".join(f"{k}={v}" for k, v in sorted(dict(sel.options).items()))
        return [RuleSet(NAME, name + (f" {extra}" if extra else ""), sel.preset or "",
                        tuple(sorted(opts.items())), counts),
                RuleSet(NAME, SHARED)]
    out = [RuleSet(NAME, "ld-wp", "ld-wp", players=(2, 3))]
    out += [RuleSet(NAME, f"{k}={v}", "ld-wp", options=((k, v), ("dice", str(READING_DICE))),
                    players=(2,), small=True) for k, v in readings()]
    out.append(RuleSet(NAME, SHARED))
    return out


def contract_rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The article's game on 2 and 3 players, and each reading on 2, against ld-wp."""
    out = [RuleSet(NAME, f"ld-wp/{n}", "ld-wp", players=(n,), sources=("ld-wp",))
           for n in (2, 3)]
    out += [RuleSet(NAME, f"ld-wp {k}={v}/2", "ld-wp", options=((k, v),), players=(2,),
                    sources=("ld-wp",)) for k, v in readings()]
    return tuple(out)


def checks(rule_set: RuleSet, board: Path | None) -> tuple[list[Any], list[Any]]:
    """Liar's Dice's own properties of ``rule_set`` (the suite adds the generic ones).

    Raises:
        MalformedInput: a board file (Liar's Dice has no board).
    """
    from .checks import rule_set_checks, shared_checks

    if board is not None:
        raise MalformedInput("liars-dice has no board")
    return (shared_checks() if rule_set.shared else rule_set_checks(rule_set)), []


def _presets() -> Mapping[str, tuple[str, tuple[int, ...]]]:
    return {name: ("ld-wp", (2, 3, 4)) for name in PRESETS}


def _option_values() -> Mapping[str, tuple[str, ...]]:
    return dict(OPTIONS)


PLUGIN = GamePlugin(
    name=NAME,
    title="Liar's Dice",
    summary=("The bluffing dice game of the English Wikipedia article, 2 to 6 players with "
             "hidden dice: raise the claim about all dice on the table or call it a lie; the "
             "worked example of adding a game."),
    package="liars_dice",
    game_type=GameType(players=PLAYERS, chance=True, information="imperfect",
                       default_players=2),
    sources=("ld-wp",),
    params=(
        Param("players", "int", 2, "2..6 players", flag="--players"),
        Param("dice", "int", 5, "dice per player at the start (1..5; the article: 5)"),
        Param("sides", "int", 6, "faces of a die (2..6; the article: 6)"),
        Param("preset", "str", None, "rule set: ld-wp (default) or ld-wp-one-round",
              tuple(PRESETS), flag="--preset"),
        Param("options", "options", None, "rule options NAME=VALUE: raise=face|quantity|"
              "highest|product, wild=ones|none, spot_on=no|yes, rounds=last|one",
              flag="--option"),
        Param("order", "str", None, "action numbering: quantity (OpenSpiel reset-face) or face "
              "(reset-quantity); default: face under raise=face, else quantity", ORDERS),
        Param("max_moves", "int", None, "truncation bound on decisions (default: the longest "
              "game's)"),
    ),
    make_game=make_game,
    rule_sets=rule_sets,
    contract_rule_sets=contract_rule_sets,
    spec_folder=spec_path("liars_dice"),
    presets=_presets,
    option_values=_option_values,
    checks=checks,
    capabilities={
        "contracts": CONTRACTS,
        "ambiguities": AMBIGUITIES,
        "discovery": Deferred("ruleproof.properties.liars_dice.discovery:DISCOVERY"),
        "mutants": Deferred("ruleproof.properties.liars_dice.mutants:MUTANTS"),
        "invariants": INTERFACE_INVARIANTS,
        "machine": play.MACHINE,
        "stats": play.STATS,
        "cycles": play.CYCLES,
        "simulate": SIMULATION,
        "scenarios": SCENARIOS,
        "conformance": CONFORMANCE,
        "explore": Deferred("ruleproof.properties.liars_dice.explore:EXPLORE"),
        "openspiel": Deferred("ruleproof.properties.liars_dice.openspiel:OPENSPIEL"),
        "render": Deferred("ruleproof.properties.liars_dice.render:RENDER"),
        "docs": DOCS,
    },
)
