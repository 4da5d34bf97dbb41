"""The public conformance function of the game interface finds broken implementations."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from ruleproof.model.api import RulesGame, RulesState
from ruleproof.properties.interface import api_test
from ruleproof.properties.plugin import make_game


@pytest.mark.parametrize(("name", "params"), [
    ("dawn-under", {"players": 3}), ("dawn-under", {"players": 2}),
    ("dawn-under", {"players": 4, "expansion": "gruft"}), ("dracula", {}),
])
def test_both_games_keep_every_obligation(name: str, params: dict[str, Any]) -> None:
    ok, checked, detail, games, decisions = api_test(make_game(name, **params), 2)
    assert ok, detail
    assert games == 2 and decisions > 0 and checked > decisions


class _Skewed:
    """A state whose chance odds do not add up to 1 (everything else delegated)."""

    def __init__(self, inner: RulesState) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(a, p * Fraction(9, 10)) for a, p in self._inner.chance_outcomes()]

    def apply(self, action_id: int) -> _Skewed:
        return _Skewed(self._inner.apply(action_id))


class _SkewedGame:
    def __init__(self, inner: RulesGame) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def new_initial_state(self) -> _Skewed:
        return _Skewed(self._inner.new_initial_state())


def test_chance_odds_that_do_not_sum_to_one_are_caught() -> None:
    game: Any = _SkewedGame(make_game("dawn-under", players=3))
    ok, _, detail, *_ = api_test(game, 2)
    assert not ok and "sum to" in detail
