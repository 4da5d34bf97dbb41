"""Dawn Under's clause contracts, one module per source document (``du_en``, ``du_cs``,
``gruft_en``), and the capability ``"contracts"`` of its plugin record (:data:`CONTRACTS`,
see :class:`~ruleproof.properties.contracts.games.GameContracts`).

Which contracts a rule set of ``ruleproof check`` is held to: du-en's preset and the 2-player
preset follow du-en, du-cs's preset the Czech text alone; with the expansion, gruft-en on top
and the base clauses it replaces dropped (gruft-en:play.base). Other rule options are readings
the contracts do not state, so such rule sets get no refinement property.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.properties.contracts.games import GameContracts, Recall, ScenarioRun
from ruleproof.properties.dawn_under.contracts.beyond_text import BEYOND_TEXT
from ruleproof.properties.plugin import RuleSet


def _du_en() -> Any:
    from ruleproof.properties.dawn_under.contracts.du_en import CONTRACTS

    return CONTRACTS


def _du_cs() -> Any:
    from ruleproof.properties.dawn_under.contracts.du_cs import CONTRACTS
    from ruleproof.properties.dawn_under.contracts.found_by_mutants import DU_CS

    return replace(CONTRACTS, contracts=(*CONTRACTS.contracts, *DU_CS))


def _du_en_qr() -> Any:
    from ruleproof.properties.dawn_under.contracts.du_en_qr import CONTRACTS

    return CONTRACTS


def _du_en_example() -> Any:
    from ruleproof.properties.dawn_under.contracts.du_en_example import CONTRACTS

    return CONTRACTS


def _gruft_en_faq() -> Any:
    from ruleproof.properties.dawn_under.contracts.gruft_en_faq import CONTRACTS

    return CONTRACTS


def _gruft_en() -> Any:
    from ruleproof.properties.dawn_under.contracts.gruft_en import CONTRACTS

    return CONTRACTS


def settle(state: GameState) -> GameState:
    """Dawn Under's only chance is the deal, which a seeded game has dealt: the state itself."""
    return state


def refinement_rule_sets(rs: RuleSet) -> tuple[RuleSet, ...]:
    """The contract rule sets of a rule set of ``ruleproof check``, one per player count:
    ``<name>/<n>`` following du-cs (du-cs's preset) or du-en (the others), plus gruft-en with
    the expansion (du-en's base clauses it replaces dropped); none when options other than the
    expansion are set (readings the contracts do not state) or for the shared group."""
    from ruleproof.model.dawn_under.config import presets
    from ruleproof.properties.dawn_under.plugin import GRUFT_DROPS

    if rs.shared:
        return ()
    extra = dict(rs.options)
    if set(extra) - {"expansion"}:
        return ()
    gruft = extra.get("expansion") == "gruft"
    sources = ("du-cs",) if rs.preset == "du-cs" else ("du-en",)
    out = []
    for n in rs.players or tuple(presets()[rs.preset].players):
        name = f"{rs.preset}{' + gruft' if gruft else ''}/{n}"
        out.append(RuleSet(rs.game, name, rs.preset, tuple(sorted(extra.items())), (n,),
                           sources=(*sources, "gruft-en") if gruft else sources,
                           drop=GRUFT_DROPS if gruft else ()))
    return tuple(out)


def scenario_runs(rs: RuleSet) -> Iterator[ScenarioRun]:
    """Every reading of every shipped scenario (and discovered witness) played under exactly
    ``rs``'s preset and expansion with the preset's own options (another reading of an
    ambiguity is not what these contracts state)."""
    from ruleproof.model.dawn_under.config import preset_options
    from ruleproof.properties.dawn_under.checks import shipped_scenarios
    from ruleproof.properties.dawn_under.plugin import PLUGIN
    from ruleproof.properties.dawn_under.scenarios import load_scenario

    paths = [*shipped_scenarios(),
             *sorted((PLUGIN.spec_folder / "scenarios" / "discovered").glob("*.toml"))]
    gruft = "gruft-en" in rs.sources
    for path in paths:
        sc = load_scenario(path)
        for reading in sc.readings:
            cfg = reading.config
            if cfg.preset != rs.preset or (cfg.options.expansion == "gruft") != gruft:
                continue
            expected = preset_options(rs.preset)
            if gruft:
                expected = replace(expected, expansion="gruft")
            if cfg.options != expected:
                continue
            yield ScenarioRun(path.name, reading.start, tuple(a for a, *_ in sc.actions))


def _information_state() -> Any:
    from ruleproof.properties.recall import information_state

    return information_state


CONTRACTS = GameContracts(
    sets={"du-en": _du_en, "du-cs": _du_cs, "gruft-en": _gruft_en},
    settle=settle,
    refinement_rule_sets=refinement_rule_sets,
    scenario_runs=scenario_runs,
    searched_rule_set="du-en/4",
    recall=Recall("information state", _information_state, 12, 1),
    parts={"du-en:qr": _du_en_qr, "du-en:example": _du_en_example,
           "gruft-en:faq": _gruft_en_faq},
    beyond_text=BEYOND_TEXT,
)
"""The capability ``"contracts"`` of Dawn Under's plugin record."""
