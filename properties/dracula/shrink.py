"""Dracula's ``shrink`` capability (:class:`~ruleproof.properties.conformance.shrink.
HiddenDeal`).

Dracula deals each side five current action cards of its ten (dracula-en:setup.action-cards,
the set-up's ``current``); nothing else of the deal is rearranged (the encounter cards are
chosen and dealt by actions, which stay in the witness).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ruleproof.model.api import GameState
from ruleproof.properties.conformance.shrink import Fitted, Intent

if TYPE_CHECKING:
    from ruleproof.properties.conformance.games import GameModel


class DraculaCards:
    """The current action cards of each side: a deal that has in hand from the start the
    cards the witness plays."""

    def hidden(self, setup: Mapping[str, Any]) -> frozenset[int]:
        return frozenset()

    def reveals(self, state: GameState, action: str) -> int | None:
        return None

    def exchanges(self, state: GameState, setup: Mapping[str, Any], shown: int,
                  unseen: frozenset[int]) -> Iterator[tuple[GameState, dict[str, Any]]]:
        return iter(())

    def lucky(self, game: GameModel, players: int, options: Mapping[str, str],
              setup: Mapping[str, Any], limit: int, end: str) -> Fitted | None:
        return None

    def setup_for(self, setup: Mapping[str, Any],
                  intents: Sequence[Intent]) -> dict[str, Any] | None:
        current = setup.get("current")
        if not isinstance(current, Mapping) or len(current) != 2:
            return None
        sides = list(current)
        wanted: dict[int, list[str]] = {0: [], 1: []}
        for intent in intents:
            words = intent.action.split()
            if len(words) >= 2 and words[0] == "play" and intent.turn in wanted and \
                    words[1] not in wanted[intent.turn]:
                wanted[intent.turn].append(words[1])
        out = {}
        for index, side in enumerate(sides):
            cards = [str(c) for c in current[side]]
            own = wanted[index][:len(cards)]
            out[side] = own + [c for c in cards if c not in own][:len(cards) - len(own)]
        if all(sorted(out[side]) == sorted(map(str, current[side])) for side in sides):
            return None
        return {**setup, "current": out}

    def alternatives(self, action: str, choices: Sequence[str]) -> list[tuple[str, str, str]]:
        return []

    def rename(self, action: str, alias: Mapping[str, str]) -> str:
        return action


SHRINK = DraculaCards()
"""Dracula's ``shrink`` capability (registered in properties/dracula/plugin.py)."""

__all__ = ["SHRINK", "DraculaCards"]
