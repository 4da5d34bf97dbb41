"""The rule sets the contracts are checked on: an engine (set-up, legal actions, apply) plus the
contract sets of the sources that rule set follows.

A :class:`RuleSet` binds one engine configuration (game, preset, options, player count) to the
sources whose clauses it claims to implement: du-en's preset and the 2-player preset to du-en,
du-cs's preset to du-cs (the Czech text alone), the expansion to du-en under gruft-en (the base
clauses the expansion replaces are dropped, gruft-en:play.base), Dracula to dracula-en.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ruleproof.properties.dawn_under.plugin import GRUFT_DROPS
from ruleproof.properties.plugin import RuleSet, plugins


@dataclass(frozen=True)
class Engine:
    """What the checks need of a game engine (all pure)."""

    new: Callable[[int], Any]
    legal: Callable[[Any], tuple[Any, ...]]
    apply: Callable[[Any, Any], Any]
    terminal: Callable[[Any], bool]
    chance: Callable[[Any], Any]
    show: Callable[[Any], str] = str
    candidates: Callable[[Any, random.Random], list[Any]] = lambda s, r: []
    parse: Callable[[str], Any] | None = None


def dawn_under_engine(rs: RuleSet, apply: Callable[[Any, Any], Any] | None = None,
                      legal: Callable[[Any], tuple[Any, ...]] | None = None) -> Engine:
    """The Dawn Under engine for ``rs`` (``apply``/``legal`` may replace the engine's, e.g. a
    planted mutant in a teeth test)."""
    from ruleproof.model.dawn_under import config as du_config
    from ruleproof.model.dawn_under import engine as du
    from ruleproof.properties.dawn_under.sampling import candidate_actions
    from ruleproof.properties.dawn_under.scenarios import parse_action

    options = du_config.parse_options(dict(rs.options), base=du_config.preset_options(rs.preset))
    cfg = du_config.make_config(rs.count, options, preset=rs.preset)
    return Engine(new=lambda seed: du.new_game(cfg, seed),
                  legal=legal or du.legal_actions, apply=apply or du.apply,
                  terminal=du.is_terminal, chance=lambda s: s,
                  candidates=candidate_actions, parse=parse_action)


def dracula_engine(rs: RuleSet) -> Engine:
    from ruleproof.model import dracula as dr

    def chance(s: Any) -> Any:
        return dr.resolve_chance(s)

    return Engine(new=lambda seed: dr.new_game(seed), legal=dr.legal_actions, apply=dr.apply,
                  terminal=dr.is_terminal, chance=chance)


def engine_of(rs: RuleSet) -> Engine:
    if rs.engine is not None:
        return rs.engine  # type: ignore[no-any-return]
    return dracula_engine(rs) if rs.game == "dracula" else dawn_under_engine(rs)



def rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The rule sets the contracts are checked on: every registered game's
    (:attr:`~ruleproof.properties.plugin.GamePlugin.contract_rule_sets`), each of one player
    count."""
    return tuple(rs for p in plugins().values() for rs in p.contract_rule_sets(profile))


def rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` (see :func:`rule_sets`, thorough profile).

    Raises:
        KeyError: for an unknown name.
    """
    for rs in rule_sets("thorough"):
        if rs.name == name:
            return rs
    raise KeyError(name)

__all__ = ["GRUFT_DROPS", "Engine", "RuleSet", "dawn_under_engine", "dracula_engine", "engine_of",
           "rule_set", "rule_sets"]
