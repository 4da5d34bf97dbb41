"""Executable game models.

Every game follows the same split (after OpenSpiel's Game/State/Observer):

* a frozen, hashable **state** (immutable; transitions return new states);
* typed, frozen **actions**;
* pure functions ``legal_actions(state)`` (deterministic order), ``apply(state, action)``,
  ``is_terminal(state)``, ``winner(state)``, ``current_player(state)`` and
  ``observation(state, player)``;
* **chance** is explicit: set-up and every draw are chance nodes (the pseudo-player
  :data:`CHANCE` takes them, with exact probabilities), never hidden randomness inside a
  transition; a seeded set-up resolves them from an explicit seed.

The one game interface every game implements is :mod:`ruleproof.model.api`
(:class:`~ruleproof.model.api.GameBase` and :class:`~ruleproof.model.api.GameState`); each
game is a folder ``model/<game>/``.
"""

from __future__ import annotations

CHANCE = -1
"""The pseudo-player that takes chance actions (shuffles, deals, draws)."""
