"""Liar's Dice's part of the generic play algorithms (capabilities of its plugin record):

* ``machine`` (:data:`MACHINE`): the hypothesis machine rolls from any seed, draws every later
  roll like an action (so hypothesis shrinks it), and starts a new game from the drawn seed
  once one ends; the log names the dice, each bid and call and the result.
* ``stats`` (:class:`LiarsStats`): seats ``P1`` (opening the first round) .. ``Pn``; the
  ending is the clause that ended the game (ld-wp:end.last, or ld-wp:challenge.lose when one
  round is played); counted per game: bids, liar calls, spot-on calls, rounds, bids that
  held when challenged.
* ``cycles`` (:data:`CYCLES`): random games capped at 400 decisions (a game of the default
  set-up needs far fewer: every round ends with a die lost).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruleproof.model.api import CHANCE, GameBase, GameState
from ruleproof.model.liars_dice.rules import Bid, Call
from ruleproof.properties.endless import CycleRules
from ruleproof.properties.play import MachineSettings
from ruleproof.properties.plugin import GamePlugin
from ruleproof.properties.stats import StatsRules


def seat(p: int) -> str:
    """``P1`` .. ``Pn``."""
    return f"P{p + 1}"


def ending(state: GameState) -> str:
    """The clause that ended the finished game of ``state``."""
    return "ld-wp:challenge.lose" if state.model.rules.rounds == "one" else "ld-wp:end.last"


def result_line(state: GameState) -> str:
    """``P2 wins (ld-wp:end.last)`` for a finished game."""
    w = state.winner()
    if w is None:
        return "the game goes on"
    return f"{seat(w)} wins ({ending(state)})"


def _setup_lines(state: GameState, seed: int) -> Sequence[str]:
    cups = state.model.rolled
    return [f"new game, seed {seed}: " + ", ".join(
        f"{seat(p)} rolls {''.join(map(str, sorted(c))) or '-'}" for p, c in enumerate(cups))]


def _action_line(state: GameState, action: Any) -> str:
    player = state.current_player()
    return f"{'chance' if player == CHANCE else seat(player)}: {action}"


def _end_line(state: GameState) -> str:
    return f"game over: {result_line(state)}"


MACHINE = MachineSettings(seed_max=2**20, after_end="restart", chance="draw", shrink=True,
                          setup_lines=_setup_lines, action_line=_action_line,
                          end_line=_end_line)
"""The ``machine`` capability."""


class LiarsStats(StatsRules):
    """The ``stats`` capability."""

    def label(self, game_plugin: GamePlugin, game: GameBase[Any]) -> str:
        """The game's name, preset and player count as the other games' labels, then the dice
        and the readings (``liars-dice ld-wp 2p 5d6 raise=face wild=ones ...``)."""
        r = getattr(game, "rules")  # noqa: B009 - the plugin's own LiarsDiceGame
        opts = " ".join(f"{k}={v}" for k, v in r.options.items())
        from .plugin import PRESETS  # the preset is not kept: name the one the rules amount to

        preset = max((name for name, o in PRESETS.items()
                      if all(r.options.get(k) == v for k, v in o.items())),
                     key=lambda name: len(PRESETS[name]), default="ld-wp")
        return f"{game_plugin.name} {preset} {game.num_players}p {r.dice}d{r.sides} {opts}"

    def seats(self, game_plugin: GamePlugin, game: GameBase[Any]) -> tuple[str, ...]:
        """``P1 (opens)``, ``P2`` ..."""
        return tuple(f"{seat(p)}{' (opens)' if p == 0 else ''}"
                     for p in range(game.num_players))

    def counts(self, game: GameBase[Any]) -> dict[str, int]:
        return {"bids": 0, "liar calls": 0, "spot-on calls": 0, "rounds": 0, "bids held": 0}

    def events(self, before: GameState, after: GameState) -> Mapping[str, int]:
        """What one step adds (ld-wp:bid.raise, ld-wp:challenge.call, ld-wp:variant.spot-on,
        ld-wp:challenge.count)."""
        b, a = before.model, after.model
        out = dict.fromkeys(self.counts(after.game), 0)
        if len(a.bids) > len(b.bids):
            out["bids"] = 1
        if len(a.ended) > len(b.ended):
            s = a.ended[-1]
            out["rounds"] = 1
            out["liar calls" if s.call == "liar" else "spot-on calls"] = 1
            out["bids held"] = int(s.loser == s.caller)
        return out

    def ending(self, state: GameState) -> str:
        return ending(state)


STATS = LiarsStats()
"""The ``stats`` capability."""

CYCLES = CycleRules(cap=400, sample_depth=(0, 40), search_every=2)
"""The ``cycles`` capability (the engine state is compared whole)."""

__all__ = ["CYCLES", "MACHINE", "STATS", "Bid", "Call", "LiarsStats", "ending", "result_line",
           "seat"]
