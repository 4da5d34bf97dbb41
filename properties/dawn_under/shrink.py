"""Dawn Under's ``shrink`` capability: the hidden part of its deal, which delta debugging may
rearrange while fitting a shorter candidate (:class:`~ruleproof.properties.conformance.shrink.
HiddenDeal`).

Dawn Under hides the lids of the graves (du-en:prep.mix-rats): a grave nobody has opened yet may
hold any of the lids not seen yet. Exchanging two such lids (graves without a lid in the
2-player game stay as they are) changes nothing anybody has seen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameState
from ruleproof.model.dawn_under.state import State
from ruleproof.properties.conformance.shrink import Fitted, Intent

if TYPE_CHECKING:
    from ruleproof.properties.conformance.games import GameModel


class DawnUnderLids:
    """The lids of the graves nobody has opened yet, components by grave index."""

    def hidden(self, setup: Mapping[str, Any]) -> frozenset[int]:
        return frozenset(range(len(setup.get("lids", ()))))

    def reveals(self, state: GameState, action: str) -> int | None:
        if not action.startswith("open "):
            return None
        try:
            grave = int(action.split()[1])
        except (IndexError, ValueError):
            return None
        m = state.model
        assert isinstance(m, State)
        if not 0 <= grave < len(m.lids) or m.known[grave] or m.lids[grave] is None:
            return None
        return grave

    def exchanges(self, state: GameState, setup: Mapping[str, Any], shown: int,
                  unseen: frozenset[int]) -> Iterator[tuple[GameState, dict[str, Any]]]:
        m = state.model
        assert isinstance(m, State)
        lids = list(m.lids)
        dealt = list(setup["lids"])
        tried: set[Any] = {lids[shown]}
        for other in sorted(unseen):
            if other == shown or m.known[other] or lids[other] is None or \
                    lids[other] in tried or dealt[other] is None:
                continue
            tried.add(lids[other])  # one exchange per lid value is enough
            new = lids.copy()
            new[shown], new[other] = new[other], new[shown]
            deal = dealt.copy()
            deal[shown], deal[other] = deal[other], deal[shown]
            yield (state.game.from_model(replace(m, lids=tuple(new)), state.moves),
                   {**setup, "lids": deal})

    def lucky(self, game: GameModel, players: int, options: Mapping[str, str],
              setup: Mapping[str, Any], limit: int, end: str) -> Fitted | None:
        """The game in which every opening of an unseen grave finds a lid that matches (an
        unseen lid exchanged in, never a rat) and every matching vampire is placed (at ``end``
        if possible), so that rows shrink as fast as the rules allow: the shortest way to short
        rows, a single vampire, a winner. Other decisions: the first legal choice."""
        try:
            state = game.start(players, options, None, setup)
        except MalformedInput:
            return None
        deal = dict(setup)
        unseen = set(range(len(deal.get("lids", ()))))
        actions: list[str] = []

        def places(choices: Sequence[str]) -> list[str]:
            return [c for c in choices if c.startswith("place ")]

        while len(actions) < limit and game.legal(state):
            choices = game.choosable(state)
            placing = places(choices)
            if placing:
                action = next((c for c in placing if c.split()[1] == end), placing[0])
                stepped = game.apply(state, action)
            else:
                opening = [c for c in choices if c.startswith("open ")
                           and int(c.split()[1]) in unseen]
                action = opening[0] if opening else choices[0]
                stepped = game.apply(state, action)
                shown = self.reveals(state, action)
                if shown is not None and shown in unseen:
                    if not places(game.choosable(stepped.state) if game.legal(stepped.state)
                                  else []):
                        for other_state, other_deal in self.exchanges(
                                state, deal, shown, frozenset(unseen)):
                            trial = game.apply(other_state, action)
                            if game.legal(trial.state) and places(game.choosable(trial.state)):
                                stepped, deal = trial, other_deal
                                break
                    unseen.discard(shown)
            actions.append(action)
            state = stepped.state
        return Fitted(players, dict(options), deal, tuple(actions))

    def setup_for(self, setup: Mapping[str, Any],
                  intents: Sequence[Intent]) -> dict[str, Any] | None:
        return None

    def alternatives(self, action: str, choices: Sequence[str]) -> list[tuple[str, str, str]]:
        words = action.split()
        if len(words) != 2 or words[0] != "open":
            return []
        return [(c, words[1], c.split()[1]) for c in choices
                if c.startswith("open ") and c != action]

    def rename(self, action: str, alias: Mapping[str, str]) -> str:
        words = action.split()
        if words and words[-1] in alias and words[0] in ("open", "place", "garlic", "leave"):
            words[-1] = alias[words[-1]]
            return " ".join(words)
        return action


SHRINK = DawnUnderLids()
"""Dawn Under's ``shrink`` capability (registered in properties/dawn_under/plugin.py)."""

__all__ = ["SHRINK", "DawnUnderLids"]
