"""Dracula's part of the generic play algorithms (capabilities of its plugin record):

* ``chance`` (:data:`CHANCE_RULE`): the engine's own resolution of chance nodes, each card
  drawn by ``random.Random(f"{seed}/{step}")`` of the state (``engine.resolve_chance``), so a
  seeded game draws the same cards wherever it runs.
* ``machine`` (:data:`MACHINE`): set-up seeds in ``0..2**20``; chance nodes are drawn like
  actions (so hypothesis shrinks them); a finished game is followed by a new one from the
  drawn seed; failures are not shrunk unless asked (long games); the log names each step.
* ``stats`` (:class:`DraculaStats`): the random player avoids pointless overpaying
  (``sensible_choice``); seats in the order of play (dracula-en:play.first-player); the
  ending is the clause of the rule that ended the game; battles read off the public state.
* ``cycles`` (:data:`CYCLES`): states compared without the move counter, the turn number and
  the log; random games capped at 1,500 actions.

The invariants are :data:`ruleproof.properties.dracula.invariants.INTERFACE_INVARIANTS`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from ruleproof.model.api import CHANCE, GameBase, GameState
from ruleproof.properties.endless import CycleRules
from ruleproof.properties.play import MachineSettings
from ruleproof.properties.plugin import GamePlugin
from ruleproof.properties.stats import StatsRules

SIDES = ("Dracula", "Van Helsing")
"""The sides by seat, as the logs and statistics name them."""


class EngineChance:
    """The ``chance`` capability: ``engine.resolve_chance`` over the interface."""

    def settle(self, state: GameState) -> GameState:
        """Every pending chance node resolved as the engine's ``resolve_chance`` does."""
        while state.current_player() == CHANCE:
            options = state.legal_typed_actions()
            m = state.model
            rng = random.Random(f"{m.seed}/{m.step}")
            state = state.apply_typed(options[rng.randrange(len(options))])
        return state


CHANCE_RULE = EngineChance()
"""The ``chance`` capability."""


def _setup_lines(state: GameState, seed: int) -> Sequence[str]:
    return [f"new_game(seed={seed})"]


def _action_line(state: GameState, action: Any) -> str:
    player = state.current_player()
    who = "chance" if player == CHANCE else SIDES[player]
    return f"step {state.model.step}: {who}: {action}"


def _end_line(state: GameState) -> str:
    return f"game over ({state.model.reason})"


MACHINE = MachineSettings(seed_max=2**20, after_end="restart", chance="draw", shrink=False,
                          setup_lines=_setup_lines, action_line=_action_line,
                          end_line=_end_line)
"""The ``machine`` capability."""


def _first(game: GameBase[Any]) -> int:
    """The seat moving first (dracula-en:play.first-player): 0 Dracula, 1 Van Helsing."""
    return 0 if game.rules.first_player == "dracula" else 1  # type: ignore[attr-defined]


class DraculaStats(StatsRules):
    """The ``stats`` capability."""

    def label(self, game_plugin: GamePlugin, game: GameBase[Any]) -> str:
        """The game's name plus the rule options differing from the defaults."""
        from ruleproof.model.dracula.rules import DraculaRules

        rules = game.rules  # type: ignore[attr-defined]
        base = DraculaRules()
        changed = [f"{f.name}={getattr(rules, f.name)}" for f in fields(DraculaRules)
                   if getattr(rules, f.name) != getattr(base, f.name)]
        return game_plugin.name + "".join(f" {c}" for c in changed)

    def seats(self, game_plugin: GamePlugin, game: GameBase[Any]) -> tuple[str, ...]:
        """The side moving first, then the other (dracula-en:play.first-player)."""
        first = _first(game)
        return (f"{SIDES[first]} (first)", SIDES[1 - first])

    def seat(self, game: GameBase[Any], winner: int) -> int:
        """0 if the side moving first won, else 1."""
        return 0 if int(winner) == _first(game) else 1

    def choose(self, state: GameState, rng: random.Random) -> Any:
        """``sensible_choice``: random legal actions without pointless overpaying."""
        from ruleproof.model.dracula import sensible_choice

        return sensible_choice(state.model, rng)

    def counts(self, game: GameBase[Any]) -> dict[str, int]:
        """Enemies beaten, life markers lost, targets captured, battles."""
        return {"enemies beaten": 0, "life markers lost": 0, "targets captured": 0,
                "battles": 0}

    def events(self, before: GameState, after: GameState) -> Mapping[str, int]:
        """Battles read off the public state: a discard pile grows (an enemy beaten), life
        markers are lost, targets are captured."""
        b, a = before.model, after.model
        beaten = sum(map(len, a.enc_discard)) - sum(map(len, b.enc_discard))
        lost = sum(b.life) - sum(a.life)
        return {"enemies beaten": max(beaten, 0), "life markers lost": max(lost, 0),
                "targets captured": max(sum(map(len, a.captured))
                                        - sum(map(len, b.captured)), 0),
                "battles": int(beaten > 0 or lost > 0)}

    def ending(self, state: GameState) -> str:
        """The clause id of the ending rule named in the state's reason."""
        reason = state.model.reason
        found = re.search(r"\((dracula-en:[a-z0-9.-]+)\)", reason)
        return found.group(1) if found else str(reason)


STATS = DraculaStats()
"""The ``stats`` capability."""


def cycle_key(model: Any) -> Hashable:
    """The engine state without its move counter, turn number and log."""
    return replace(model, step=0, log=(), turn=0)  # type: ignore[no-any-return]


CYCLES = CycleRules(cap=1_500, key=cycle_key)
"""The ``cycles`` capability."""

__all__ = ["CHANCE_RULE", "CYCLES", "MACHINE", "SIDES", "STATS", "DraculaStats", "EngineChance",
           "cycle_key"]
