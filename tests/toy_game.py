"""A toy game outside the shipped folders, for tests that the generic subsystems need nothing but
the registry: Nim with a chance set-up, as a plugin record (``RULEPROOF_PLUGINS=toy_game:PLUGIN``).

Two players take 1 or 2 stones in turn from one pile; whoever takes the last stone wins. The
set-up is one chance node: the pile holds ``stones`` plus 0 or 1 (each with probability 1/2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.model.api import CHANCE, TERMINAL, ActionTable, GameBase, GameState
from ruleproof.properties.plugin import GamePlugin, GameType, Param

NAME = "toy-nim"


@dataclass(frozen=True)
class Take:
    """Take ``n`` stones."""

    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True)
class Extra:
    """The set-up's chance outcome: ``n`` extra stones."""

    n: int

    def __str__(self) -> str:
        return f"extra {self.n}"


@dataclass(frozen=True)
class Pile:
    """The engine state: the pile (None before the set-up) and the player to move."""

    pile: int | None
    to_move: int = 0


class ToyNim(GameBase[Pile]):
    """Nim on the one game interface."""

    name = NAME

    def __init__(self, stones: int = 7, max_moves: int = 100) -> None:
        self.stones = stones
        self.max_moves = max_moves
        self.num_players = 2
        self.table: ActionTable[Take] = ActionTable([Take(1), Take(2)], NAME)
        self.chance_table: ActionTable[Extra] = ActionTable([Extra(0), Extra(1)], NAME)

    def initial_model(self) -> Pile:
        return Pile(None)

    def seeded_model(self, seed: int) -> Pile:
        return Pile(self.stones + random.Random(seed).randrange(2))

    def model_to_move(self, m: Pile) -> int:
        if m.pile is None:
            return CHANCE
        return TERMINAL if m.pile == 0 else m.to_move

    def model_legal(self, m: Pile) -> Sequence[Take]:
        return [Take(n) for n in (1, 2) if m.pile is not None and n <= m.pile]

    def model_chance(self, m: Pile) -> Sequence[tuple[Extra, Fraction]]:
        return [(Extra(0), Fraction(1, 2)), (Extra(1), Fraction(1, 2))] if m.pile is None else []

    def model_step(self, m: Pile, action: Any) -> tuple[Pile, Any]:
        if isinstance(action, Extra) and m.pile is None:
            return Pile(self.stones + action.n), ()
        if action not in self.model_legal(m):
            raise IllegalAction(action, "not a legal take", ())
        assert m.pile is not None
        return replace(m, pile=m.pile - action.n, to_move=1 - m.to_move), ()

    def model_winner(self, m: Pile) -> int | None:
        return 1 - m.to_move if m.pile == 0 else None

    @property
    def max_chance_nodes(self) -> int:
        return 1

    @property
    def params(self) -> dict[str, Any]:
        return {"stones": self.stones, "max_moves": self.max_moves}

    @property
    def observation_size(self) -> int:
        return self.stones + 2 + 2

    def observation_string(self, state: GameState, player: int) -> str:
        m = state.model
        return f"p{player}: pile {m.pile}, to move {m.to_move}"

    def information_state_string(self, state: GameState, player: int) -> str:
        return f"{state.history()} {self.observation_string(state, player)}"

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        m = state.model
        if m.pile is None:
            return []
        return [m.pile, self.stones + 2 + m.to_move]


class NoNegativePile:
    """The toy's ``invariants`` capability: the pile is never negative, a take removes 1 or 2."""

    def baseline(self, state: GameState) -> int | None:
        return state.model.pile  # type: ignore[no-any-return]

    def violations(self, state: GameState, baseline: int | None) -> list[str]:
        pile = state.model.pile
        if pile is None or baseline is None:
            return []
        return [] if 0 <= pile <= baseline else [f"pile: {pile} stones"]

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        if before.model.pile is None:
            return []
        taken = before.model.pile - after.model.pile
        return [] if taken in (1, 2) else [f"take: {taken} stones taken"]


def make_game(players: int = 2, stones: int = 7, max_moves: int = 100) -> ToyNim:
    """The toy on the interface (2 players only)."""
    return ToyNim(stones, max_moves)


PLUGIN = GamePlugin(
    name=NAME,
    title="Toy Nim",
    summary="Two players take one or two stones; the last stone wins.",
    package="toy_nim",
    game_type=GameType(players=(2,), chance=True, information="perfect", default_players=2),
    sources=(),
    params=(Param("players", "int", 2, "always 2"),
            Param("stones", "int", 7, "stones in the pile before the set-up's extra"),
            Param("max_moves", "int", 100, "truncation bound on player decisions")),
    make_game=make_game,
    rule_sets=lambda selection: [],
    contract_rule_sets=lambda profile: (),
    spec_folder=Path(__file__).resolve().parent,
    capabilities={"invariants": NoNegativePile()},
)
"""The toy's plugin record."""
