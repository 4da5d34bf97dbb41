"""Executable game models.

Every game follows the same split (after OpenSpiel's Game/State/Observer):

* a frozen, hashable **state** (immutable; transitions return new states);
* typed, frozen **actions**;
* pure functions ``legal_actions(state)`` (deterministic order), ``apply(state, action)``,
  ``is_terminal(state)``, ``winner(state)``, ``current_player(state)`` and
  ``observation(state, player)``;
* **chance** is explicit: a seeded set-up (or chance actions taken by the pseudo-player
  :data:`CHANCE`), never hidden randomness inside a transition.

:class:`Game` is the protocol the verification layer (``properties``) relies on.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, TypeVar

CHANCE = -1
"""The pseudo-player that takes chance actions (shuffles, deals, draws)."""

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class Game(Protocol[S, A]):
    """What the verification layer needs from a game model."""

    name: str

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal actions of the player to move, in a deterministic order."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The successor state; raises IllegalAction (state untouched) if not legal."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True when the game is over."""
        ...

    def current_player(self, state: S) -> int:
        """Index of the player to move (or CHANCE)."""
        ...
