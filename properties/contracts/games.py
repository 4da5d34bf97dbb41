"""The rule sets the contracts are checked on: an engine (set-up, legal actions, apply) plus the
contract sets of the sources that rule set follows.

A :class:`RuleSet` binds one engine configuration (game, preset, options, player count) to the
sources whose clauses it claims to implement: du-en's preset and the 2-player preset to du-en,
du-cs's preset to du-cs (the Czech text alone), the expansion to du-en under gruft-en (the base
clauses the expansion replaces are dropped, gruft-en:play.base), Dracula to dracula-en.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ruleproof.properties.contracts.core import Contract, ContractSet, contract_set


@dataclass(frozen=True)
class RuleSet:
    """An engine configuration and the sources it is checked against.

    Attributes:
        name: ``du-en/4``, ``du-cs/3``, ``2p/2``, ``gruft/4``, ``dracula``.
        game: ``dawn-under`` or ``dracula``.
        preset: Dawn Under preset (``du-en``, ``du-cs``, ``2p``) or ``dracula``.
        players: player count.
        options: extra rule options NAME=VALUE on top of the preset.
        sources: contract sources, in order.
        drop: clause ids whose contracts are not used (replaced by a later source).
    """

    name: str
    game: str
    preset: str
    players: int
    options: tuple[tuple[str, str], ...] = ()
    sources: tuple[str, ...] = ("du-en",)
    drop: tuple[str, ...] = ()
    engine: Any = field(default=None, compare=False, hash=False, repr=False)

    def contract_sets(self) -> tuple[ContractSet, ...]:
        return tuple(contract_set(s) for s in self.sources)

    def contracts(self, state: Any, sets: Sequence[ContractSet] | None = None
                  ) -> tuple[Contract, ...]:
        """Every contract that applies to ``state`` under this rule set."""
        out: list[Contract] = []
        for cs in sets if sets is not None else self.contract_sets():
            out.extend(cs.active(state, self.drop))
        return tuple(out)

    def alias(self, state: Any, action: Any) -> bool:
        return any(cs.alias(state, action) for cs in self.contract_sets())


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
    cfg = du_config.make_config(rs.players, options, preset=rs.preset)
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


# Base clauses the expansion replaces (gruft-en:play.base: the base rules hold except where the
# expansion says otherwise): graves stay open through the turn (gruft-en:play.keep-open), so the
# base closing clauses are replaced; the turn may end by placing the Count (gruft-en:count.place).
GRUFT_DROPS = ("du-en:ch1.close",)


def rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The rule sets checked: every Dawn Under preset at every player count it covers, the
    expansion, and Dracula."""
    out: list[RuleSet] = []
    counts = (3, 4, 5, 6) if profile != "ci" else (3, 4, 6)
    for n in counts:
        out.append(RuleSet(f"du-en/{n}", "dawn-under", "du-en", n, sources=("du-en",)))
    for n in counts:
        out.append(RuleSet(f"du-cs/{n}", "dawn-under", "du-cs", n, sources=("du-cs",)))
    out.append(RuleSet("2p/2", "dawn-under", "2p", 2, sources=("du-en",)))
    for n in (3, 4) if profile == "ci" else (3, 4, 5, 6):
        out.append(RuleSet(f"gruft/{n}", "dawn-under", "du-en", n, (("expansion", "gruft"),),
                           sources=("du-en", "gruft-en"), drop=GRUFT_DROPS))
        out.append(RuleSet(f"du-cs+gruft/{n}", "dawn-under", "du-cs", n,
                           (("expansion", "gruft"),), sources=("du-cs", "gruft-en")))
    out.append(RuleSet("dracula", "dracula", "dracula", 2, sources=("dracula-en",)))
    return tuple(out)


def rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` (see :func:`rule_sets`, thorough profile).

    Raises:
        KeyError: for an unknown name.
    """
    for rs in rule_sets("thorough"):
        if rs.name == name:
            return rs
    raise KeyError(name)
