"""Dawn Under's plugin record: the game (du-en, du-cs, the 2-player rules, the expansion
"Frische Luft für die Gruft") as the generic subsystems see it.

Rule sets (``ruleproof check``): every preset at every player count it covers (du-en and du-cs
3-6, 2p 2), the expansion on each 3-6 player preset, and the shared group. Contract rule sets:
du-en's preset and the 2-player preset follow du-en, du-cs's preset the Czech text alone, the
expansion du-en under gruft-en (the base clause it replaces dropped, gruft-en:play.base).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.game import DEFAULT_MAX_MOVES, DawnUnderGame
from ruleproof.properties.dawn_under import play
from ruleproof.properties.dawn_under.conformance import CONFORMANCE
from ruleproof.properties.dawn_under.docs import DOCS
from ruleproof.properties.dawn_under.formats import FORMATS
from ruleproof.properties.dawn_under.invariants import INTERFACE_INVARIANTS
from ruleproof.properties.dawn_under.render import RENDER
from ruleproof.properties.dawn_under.scenarios import SCENARIOS
from ruleproof.properties.dawn_under.shrink import SHRINK
from ruleproof.properties.dawn_under.simulate import SIMULATION
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

from .ambiguities import AMBIGUITIES as DU_AMBIGUITIES
from .contracts import CONTRACTS as DU_CONTRACTS
from .contracts.discovery import DISCOVERY as DU_DISCOVERY
from .symbolic import SYMBOLIC as DU_SYMBOLIC

NAME = "dawn-under"

GRUFT_DROPS = ("du-en:ch1.close",)
"""Base clauses the expansion replaces (gruft-en:play.base: the base rules hold except where
the expansion says otherwise): graves stay open through the turn (gruft-en:play.keep-open), so
the base closing clause is replaced."""


def _presets() -> Mapping[str, tuple[str, tuple[int, ...]]]:
    from ruleproof.model.dawn_under.config import presets

    return {name: (p.source, tuple(p.players)) for name, p in presets().items()}


def _option_values() -> Mapping[str, tuple[str, ...]]:
    from ruleproof.model.dawn_under.config import option_values

    return option_values()


def _expansions() -> dict[str, str]:
    from ruleproof.model.dawn_under.expansions import DAWN_UNDER_EXPANSIONS

    return {name: "gruft-en" for name in DAWN_UNDER_EXPANSIONS}


def _label(preset: str, options: tuple[tuple[str, str], ...]) -> str:
    return preset + "".join(f", {k}={v}" for k, v in options)


def rule_sets(sel: Selection) -> list[RuleSet]:
    """The rule sets ``check`` covers for ``sel`` (every one when nothing is narrowed): a
    preset or expansion selects its rule sets; ``players=[2]`` selects the 2-player rules;
    options apply to the selected presets (default ``du-en`` when given without a preset).
    The shared group comes last.

    Raises:
        MalformedInput: unknown preset or expansion; a player count no selected preset covers;
            the expansion chosen twice with different values.
    """
    from ruleproof.model.dawn_under.config import make_config, presets

    options = sel.options
    expansion = sel.expansion
    chosen_expansion = {v for k, v in options if k == "expansion"}
    if chosen_expansion:  # --option expansion=... is the same choice as --expansion
        given = {expansion or "none"} if expansion is not None else set()
        if len(chosen_expansion | given) > 1:
            raise MalformedInput("the expansion is chosen twice with different values: "
                                 f"{', '.join(sorted(chosen_expansion | given))}")
        value = chosen_expansion.pop()
        expansion = None if value == "none" else value
        options = tuple((k, v) for k, v in options if k != "expansion")
    known_expansions = _expansions()
    if expansion is not None and expansion not in known_expansions:
        raise MalformedInput(f"unknown expansion {expansion!r}; known: "
                             f"{', '.join(known_expansions)}")
    known = presets()
    preset = sel.preset
    if preset is not None and preset not in known:
        raise MalformedInput(f"unknown preset {preset!r}; known: {', '.join(known)}")
    players = sel.players
    everything = not sel.narrowed
    if preset is not None:
        chosen = [preset]
    elif players and set(players) == {2}:
        chosen = ["2p"]
    elif players or options:
        chosen = ["du-en"]
    else:
        chosen = [p for p in known if expansion is None or min(known[p].players) >= 3]
    out: list[RuleSet] = []
    for p in chosen:
        covered = tuple(known[p].players)
        counts = tuple(players) or covered
        for n in counts:
            make_config(n, preset=p)  # a player count the preset does not cover: one line
        extra = tuple(options)
        if expansion is None:
            out.append(RuleSet(NAME, _label(p, extra), p, extra, counts))
        if (expansion is not None or everything) and min(covered) >= 3:
            for x in ([expansion] if expansion is not None else list(known_expansions)):
                out.append(RuleSet(NAME, _label(p, extra) + f" + {x}", p,
                                   (*extra, ("expansion", x)), counts))
    if expansion is not None and not out:
        raise MalformedInput("the expansion is for 3-6 players; the 2-player rules have none")
    out.append(RuleSet(NAME, SHARED))
    return out


def contract_rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The rule sets the clause contracts are checked on, each of one player count: every
    preset at the counts of ``profile``, the expansion on du-en and du-cs."""
    out: list[RuleSet] = []
    counts = (3, 4, 5, 6) if profile != "ci" else (3, 4, 6)
    for n in counts:
        out.append(RuleSet(NAME, f"du-en/{n}", "du-en", players=(n,), sources=("du-en",)))
    for n in counts:
        out.append(RuleSet(NAME, f"du-cs/{n}", "du-cs", players=(n,), sources=("du-cs",)))
    out.append(RuleSet(NAME, "2p/2", "2p", players=(2,), sources=("du-en",)))
    for n in (3, 4) if profile == "ci" else (3, 4, 5, 6):
        out.append(RuleSet(NAME, f"gruft/{n}", "du-en", (("expansion", "gruft"),), (n,),
                           sources=("du-en", "gruft-en"), drop=GRUFT_DROPS))
        out.append(RuleSet(NAME, f"du-cs+gruft/{n}", "du-cs", (("expansion", "gruft"),), (n,),
                           sources=("du-cs", "gruft-en")))
    return tuple(out)


def checks(rule_set: RuleSet, board: Path | None) -> tuple[list[Any], list[Any]]:
    """Dawn Under's own properties of ``rule_set`` (the suite adds the generic ones).

    Raises:
        MalformedInput: a bad option value or board file.
    """
    from ruleproof.model.dawn_under.board import load_board
    from ruleproof.model.dawn_under.config import parse_options, preset_options
    from ruleproof.properties.dawn_under import checks as du_checks

    loaded = load_board(board) if board else None
    if rule_set.shared:
        return du_checks.shared_checks(loaded), []
    opts = parse_options(dict(rule_set.options), base=preset_options(rule_set.preset))
    return du_checks.rule_set_checks(rule_set.players, opts, loaded, rule_set.preset), []


def make_game(players: int | None = None, preset: str | None = None, options: Any = None,
              expansion: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
              board: Any = None) -> DawnUnderGame:
    """Dawn Under on the one interface (see :class:`DawnUnderGame`); without ``players``, 2
    for the 2-player preset (du-en:2p.components), else 4."""
    count = players if players is not None else (2 if preset == "2p" else 4)
    return DawnUnderGame(count, preset, options, expansion, max_moves, board)


PLUGIN = GamePlugin(
    name=NAME,
    title="Dawn Under",
    summary=("Zoch 2004, 2-6 players: vampires look for an empty grave of their colour before "
             "dawn; garlic, stakes and rat plagues get in the way. The first player to get rid "
             "of every vampire wins."),
    package="dawn_under",
    game_type=GameType(players=(2, 3, 4, 5, 6), chance=True, information="imperfect",
                       default_players=4),
    sources=("du-en", "du-cs", "gruft-en"),
    params=(
        Param("players", "int", 4, "2..6 (2 selects the 2-player rules)", flag="--players"),
        Param("preset", "str", None, "rule set: du-en (default; 2p with 2 players), du-cs or 2p",
              ("du-en", "du-cs", "2p"), flag="--preset"),
        Param("options", "options", None, "rule options NAME=VALUE on top of the preset",
              flag="--option"),
        Param("expansion", "str", None, "an expansion: gruft", ("gruft",), flag="--expansion"),
        Param("max_moves", "int", DEFAULT_MAX_MOVES,
              "truncation bound on player decisions"),
        Param("board", "path", None, "a board file instead of the assumed default",
              flag="--board"),
    ),
    make_game=make_game,
    rule_sets=rule_sets,
    contract_rule_sets=contract_rule_sets,
    spec_folder=spec_path("dawn_under"),
    expansions={"gruft": "gruft-en"},
    presets=_presets,
    option_values=_option_values,
    checks=checks,
    capabilities={
        "contracts": DU_CONTRACTS,
        "symbolic": DU_SYMBOLIC,
        "discovery": DU_DISCOVERY,
        "components": Deferred("ruleproof.properties.dawn_under.components:COMPONENTS"),
        "generators": Deferred("ruleproof.properties.dawn_under.generators:GENERATORS"),
        "ambiguities": DU_AMBIGUITIES,
        "invariants": INTERFACE_INVARIANTS,
        "machine": play.MACHINE,
        "stats": play.STATS,
        "cycles": play.CYCLES,
        "scenarios": SCENARIOS,
        "formats": FORMATS,
        "render": RENDER,
        "simulate": SIMULATION,
        "docs": DOCS,
        "explore": Deferred("ruleproof.properties.dawn_under.explore:EXPLORE"),
        "reduced_game": Deferred("ruleproof.properties.dawn_under.explore:reduced_game"),
        "conformance": CONFORMANCE,
        "shrink": SHRINK,
        "mutants": Deferred("ruleproof.properties.dawn_under.mutants:MUTANTS"),
    },
)
