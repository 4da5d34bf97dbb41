"""Kuhn poker's side of exhaustive exploration: the ``explore`` capability of its plugin record
(:data:`EXPLORE`, :class:`~ruleproof.properties.explore.games.ExploreSupport`).

The whole game is small: one root before the deal, every deal of two of the three cards
(kuhn-wp:rules.deal) and every line of decisions are successors, so exploring
``spec/kuhn_poker/reduced/kuhn-3.toml`` visits every state of the game. The file has no keys of
the game's own (nothing is reduced: no board, no card list, no seeds).

* View: the dealt cards and the decisions, which is the whole engine state
  (:class:`~ruleproof.model.kuhn_poker.rules.Hand`).
* Invariants: those of ``properties/kuhn_poker/invariants.py``.
* No symmetry: the seats differ (P1 decides first, kuhn-wp:rules.first) and the cards are
  ranked (kuhn-wp:rules.deck).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.kuhn_poker.rules import (
    CHANCE,
    TERMINAL,
    Hand,
    act,
    chance,
    deal,
    legal,
    to_move,
)
from ruleproof.properties.explore.games import REDUCED_KEY, ExploreGame, Root, View, spec_ref
from ruleproof.properties.plugin import RuleSet
from ruleproof.spec.reduced import ReducedSpec

from .conformance import parse_action
from .invariants import violations

NAME = "kuhn-poker"


@dataclass(frozen=True)
class KuhnReduced:
    """Kuhn poker's part of a reduced configuration: nothing (the game is explored whole)."""

    name: str


def parse(spec: ReducedSpec) -> KuhnReduced:
    """Kuhn poker's part of ``spec``: it must have none.

    Raises:
        MalformedInput: the file is for another game, has keys of its own, or options.
    """
    if spec.game != NAME:
        raise spec.error(f"reduced configuration {spec.name!r} is for {spec.game}, not {NAME}",
                         "game")
    spec.refuse_unknown(())  # explored whole: only the common keys (file:line:col)
    if spec.options:
        raise spec.error("kuhn-poker has no rule options", "options")
    return KuhnReduced(spec.name)


class KuhnExplore(ExploreGame):
    """Kuhn poker through ``ruleproof.model.kuhn_poker.rules``; every deal is a successor."""

    name = NAME

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        if symmetry:
            raise MalformedInput("kuhn-poker has no symmetry to reduce (the seats differ: P1 "
                                 "decides first; the cards are ranked); run without --symmetry")
        parse(spec)
        self.spec = spec
        self.played = RuleSet(NAME, spec.name, "kuhn-wp", players=(2,), sources=("kuhn-wp",))
        self.rule_set = self.played if contracts else None

    def roots(self) -> list[Root]:
        return [Root("before the deal", Hand(), {"players": 2, "options": {
            REDUCED_KEY: spec_ref(self.spec)}, "seed": 0})]

    def successors(self, state: Hand) -> list[tuple[str, Hand]]:
        if to_move(state) == CHANCE:
            return [(str(c), deal(state, c.rank)) for c, _p in chance(state)]
        return [(str(m), act(state, m)) for m in legal(state)]

    def is_terminal(self, state: Hand) -> bool:
        return to_move(state) == TERMINAL

    def view(self, state: Hand) -> View:
        return (state.cards, tuple(str(m) for m in state.moves))

    def violations(self, state: Hand) -> list[str]:
        return violations(state)

    def typed(self, action: str) -> Any:
        return parse_action(action)


def start_state(spec: ReducedSpec, seed: int | None, setup: Mapping[str, Any] | None) -> Hand:
    """The initial state of every trace of ``spec``: before the deal (the trace names both
    deals as steps; ``seed`` and ``setup`` do not matter).

    Raises:
        MalformedInput: an invalid configuration.
    """
    parse(spec)
    return Hand()


@dataclass(frozen=True)
class KuhnExploreSupport:
    """Kuhn poker's ``explore`` capability (see
    :class:`~ruleproof.properties.explore.games.ExploreSupport`)."""

    def parse(self, spec: ReducedSpec) -> KuhnReduced:
        return parse(spec)

    def game(self, spec: ReducedSpec, *, symmetry: bool, contracts: bool) -> KuhnExplore:
        return KuhnExplore(spec, symmetry=symmetry, contracts=contracts)

    def start_state(self, spec: ReducedSpec, seed: int | None,
                    setup: Mapping[str, Any] | None) -> Hand:
        return start_state(spec, seed, setup)


EXPLORE = KuhnExploreSupport()
"""The capability object the plugin record names (``capabilities["explore"]``)."""

__all__ = ["EXPLORE", "KuhnExplore", "KuhnExploreSupport", "KuhnReduced", "parse",
           "start_state"]
