"""Kuhn poker's part of the generic play algorithms (capabilities of its plugin record):

* ``machine`` (:data:`MACHINE`): the hypothesis machine deals from any seed; a hand ends after
  at most three decisions, so a finished hand is followed by a new one from the drawn seed
  (many hands per example); failures are shrunk; the log names the deal, each decision and the
  result.
* ``stats`` (:class:`KuhnStats`): the rule set ``kuhn-poker kuhn-wp 2p``; seats ``P1``
  (deciding first, kuhn-wp:rules.first) and ``P2``; the ending is the clause that ended the
  hand (kuhn-wp:rules.fold or kuhn-wp:rules.showdown); counted per hand: bets, calls, folds,
  showdowns and the chips that changed hands (kuhn-wp:rules.payoff).
* ``cycles`` (:data:`CYCLES`): random hands capped at 10 decisions (a hand needs at most 3).

No ``chance`` capability: the only chance is the deal, which the seeded set-up
(``new_seeded_state``) resolves; a hand started before the deal is dealt by the generic rule
(each card with its exact probability, kuhn-wp:rules.deal). The invariants are
:data:`ruleproof.properties.kuhn_poker.invariants.INTERFACE_INVARIANTS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruleproof.model.api import CHANCE, GameBase, GameState
from ruleproof.model.kuhn_poker.rules import RANKS, Move, pot, winner
from ruleproof.properties.endless import CycleRules
from ruleproof.properties.play import MachineSettings
from ruleproof.properties.plugin import GamePlugin
from ruleproof.properties.stats import StatsRules

PRESET = "kuhn-wp"
"""The one rule set (spec/kuhn_poker/presets.toml)."""

SEATS = ("P1", "P2")
"""The seats as logs and statistics name them (P1 decides first)."""


def ending(state: GameState) -> str:
    """The clause that ended the finished hand of ``state``."""
    moves = state.model.moves
    if len(moves) >= 2 and moves[-1] is Move.PASS and moves[-2] is Move.BET:
        return "kuhn-wp:rules.fold"
    return "kuhn-wp:rules.showdown"


def result_line(state: GameState) -> str:
    """``P1 takes the pot (2 chips, kuhn-wp:rules.showdown)`` for a finished hand."""
    w = winner(state.model)
    if w is None:
        return "the hand goes on"
    won = pot(state.model)[1 - w]
    return f"{SEATS[w]} takes the pot ({won} chip{'s' if won != 1 else ''}, {ending(state)})"


def _setup_lines(state: GameState, seed: int) -> Sequence[str]:
    cards = state.model.cards
    return [f"new hand, seed {seed}: " + ", ".join(f"{SEATS[i]} holds {RANKS[c]}"
                                                   for i, c in enumerate(cards))]


def _action_line(state: GameState, action: Any) -> str:
    player = state.current_player()
    return f"{'chance' if player == CHANCE else SEATS[player]}: {action}"


def _end_line(state: GameState) -> str:
    return f"hand over: {result_line(state)}"


MACHINE = MachineSettings(seed_max=2**20, after_end="restart", chance="draw", shrink=True,
                          setup_lines=_setup_lines, action_line=_action_line,
                          end_line=_end_line)
"""The ``machine`` capability."""


class KuhnStats(StatsRules):
    """The ``stats`` capability: seats in the order of play, the ending's clause, events of
    the betting."""

    def label(self, game_plugin: GamePlugin, game: GameBase[Any]) -> str:
        """The game's name, its one preset and the player count (``kuhn-poker kuhn-wp 2p``)."""
        return f"{game_plugin.name} {PRESET} {game.num_players}p"

    def seats(self, game_plugin: GamePlugin, game: GameBase[Any]) -> tuple[str, ...]:
        """``P1 (first)``, ``P2``: P1 decides first (kuhn-wp:rules.first)."""
        return (f"{SEATS[0]} (first)", SEATS[1])

    def counts(self, game: GameBase[Any]) -> dict[str, int]:
        """Bets, calls, folds, showdowns and chips won, each at 0."""
        return {"bets": 0, "calls": 0, "folds": 0, "showdowns": 0, "chips won": 0}

    def events(self, before: GameState, after: GameState) -> Mapping[str, int]:
        """What one decision adds: an opening bet, a call, a fold, a showdown, the chips the
        winner takes (kuhn-wp:rules.facing-bet, kuhn-wp:rules.fold, kuhn-wp:rules.showdown,
        kuhn-wp:rules.payoff)."""
        moves = after.model.moves
        last = moves[-1] if moves else None
        facing = len(moves) >= 2 and moves[-2] is Move.BET
        out = {"bets": int(last is Move.BET and not facing),
               "calls": int(last is Move.BET and facing),
               "folds": int(last is Move.PASS and facing),
               "showdowns": 0, "chips won": 0}
        w = winner(after.model)
        if w is not None:
            out["showdowns"] = int(ending(after) == "kuhn-wp:rules.showdown")
            out["chips won"] = pot(after.model)[1 - w]
        return out

    def ending(self, state: GameState) -> str:
        """The clause id of the rule that ended the hand."""
        return ending(state)


STATS = KuhnStats()
"""The ``stats`` capability."""

CYCLES = CycleRules(cap=10, sample_depth=(0, 3), search_every=1)
"""The ``cycles`` capability (the engine state is compared whole: it holds nothing but the
cards and the decisions)."""

__all__ = ["CYCLES", "MACHINE", "SEATS", "STATS", "KuhnStats", "ending", "result_line"]
