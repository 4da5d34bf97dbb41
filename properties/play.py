"""What the play algorithms share: the capabilities a game gives them, and random play over the
one game interface (:mod:`ruleproof.model.api`).

The algorithms (the hypothesis machine :mod:`ruleproof.properties.machine`, statistics
:mod:`ruleproof.properties.stats`, endless games :mod:`ruleproof.properties.endless`, perfect
recall :mod:`ruleproof.properties.recall`) are written once over :class:`GameState` and the
game's plugin record; what differs between games comes from the plugin's capabilities, declared
here (this module imports nothing heavy, so a plugin record can build its capabilities from it):

* ``invariants`` -- :class:`GameInvariants`: the game's state invariants and transition
  properties, checked by the machine after every step.
* ``machine`` -- :class:`MachineSettings`: how the machine plays the game (seed range, what
  happens at the end of a game, chance nodes, shrinking, the lines of its readable log).
* ``chance`` -- :class:`ChanceRule`: how the algorithms that play without a generator of their
  own resolve chance nodes (the game's deterministic, state-seeded draws).

A game without ``chance`` gets :func:`default_settle`; one without ``machine`` gets
``MachineSettings()``; the machine needs ``invariants`` (it says so when a game lacks it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE, GameBase, GameState

if TYPE_CHECKING:
    from ruleproof.properties.plugin import GamePlugin


class GameInvariants(Protocol):
    """A game's invariants over the interface (capability ``invariants``).

    Every member is pure; each returns readable violations (empty: everything holds), each
    prefixed with the name of the broken invariant.
    """

    def baseline(self, state: GameState) -> Any:
        """What conservation laws compare against, taken from a freshly set-up ``state`` (e.g.
        the component manifest); the machine asks once per game."""
        ...

    def violations(self, state: GameState, baseline: Any) -> list[str]:
        """Every state invariant broken in ``state`` (``baseline``: from :meth:`baseline`)."""
        ...

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        """Every property of the one step ``before`` -> ``after`` that is broken (what the step
        showed is ``after.node.seen``, the history payload of the game's ``model_step``)."""
        ...


@dataclass(frozen=True)
class MachineSettings:
    """How the hypothesis machine plays a game (capability ``machine``; every field has the
    generic default).

    Attributes:
        seed_max: set-up seeds are drawn from ``0..seed_max`` (``new_seeded_state``).
        after_end: at a finished game, ``stop`` (the remaining steps do nothing) or ``restart``
            (a new game from the seed the step drew).
        chance: at a chance node, ``draw`` (the outcome is picked like an action, by the drawn
            index into the outcomes in the engine's order, so hypothesis can shrink it) or
            ``settle`` (the game's :class:`ChanceRule`).
        shrink: whether a failure is shrunk when the caller does not say.
        setup_lines: the log lines of a game set up from a seed (``state``, ``seed``).
        action_line: the log line of an action about to be taken (``state``, typed action).
        event_lines: the log lines of what a step showed (``before``, ``after``).
        end_line: the log line of a finished game.
    """

    seed_max: int = 2**32 - 1
    after_end: Literal["stop", "restart"] = "stop"
    chance: Literal["draw", "settle"] = "draw"
    shrink: bool = True
    setup_lines: Callable[[GameState, int], Sequence[str]] | None = None
    action_line: Callable[[GameState, Any], str] | None = None
    event_lines: Callable[[GameState, GameState], Sequence[str]] | None = None
    end_line: Callable[[GameState], str] | None = None


class ChanceRule(Protocol):
    """How a game resolves chance nodes without a caller's generator (capability ``chance``)."""

    def settle(self, state: GameState) -> GameState:
        """``state`` after every pending chance node, each outcome drawn deterministically from
        the state itself (same state, same outcomes; a state that is no chance node is
        returned as it is)."""
        ...


def default_settle(state: GameState) -> GameState:
    """The generic :class:`ChanceRule`: each pending chance outcome drawn with its exact
    probability by a generator seeded with the history so far."""
    while state.current_player() == CHANCE:
        ids, weights = zip(*state.chance_outcomes(), strict=True)
        rng = random.Random(f"chance/{state.history()}")
        state = state.apply(rng.choices(ids, weights=[float(w) for w in weights])[0])
    return state


def settler(plugin: GamePlugin) -> Callable[[GameState], GameState]:
    """The chance resolution of ``plugin``'s game: its ``chance`` capability, else
    :func:`default_settle`."""
    rule: ChanceRule | None = plugin.capability("chance")
    return rule.settle if rule is not None else default_settle


def bounded_params(plugin: GamePlugin, params: Mapping[str, Any], steps: int) -> dict[str, Any]:
    """``params`` with the game's truncation bound (its ``max_moves`` parameter, when it has
    one and ``params`` does not set it) raised to at least ``steps`` player decisions, so that
    the play algorithm's own step cap ends a long game, not the interface's truncation rule.
    """
    out = dict(params)
    bound = plugin.param("max_moves")
    if bound is not None and "max_moves" not in out:
        default = bound.default if isinstance(bound.default, int) else 0
        out["max_moves"] = max(default, steps + 1)
    return out


def build_game(plugin: GamePlugin, params: Mapping[str, Any], steps: int) -> GameBase[Any]:
    """The game of ``plugin`` made from ``params`` with the truncation bound raised to at
    least ``steps`` (:func:`bounded_params`).

    Raises:
        MalformedInput: a parameter the game does not have (naming its parameters), or a value
            the game refuses.
    """
    known = [q.name for q in plugin.params]
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise MalformedInput(f"{plugin.name}: unknown parameter(s) {', '.join(unknown)}; "
                             f"known: {', '.join(known)}")
    return plugin.make_game(**bounded_params(plugin, params, steps))


def model_mutant(transition: Callable[[Any, Any], Any]) -> Callable[[GameState, Any], GameState]:
    """A planted model bug as a step of the play algorithms: ``transition(engine state, typed
    action) -> engine state`` replaces the game's ``model_step`` (the step shows nothing)."""
    from ruleproof.model.api import Node

    def step(state: GameState, action: Any) -> GameState:
        actor = state.current_player()
        table = state.game.chance_table if actor == CHANCE else state.game.table
        node = Node(state.node, actor, table.to_id(action), ())
        return GameState(state.game, transition(state.model, action), node,
                         state.moves + (actor != CHANCE), state.base)

    return step


__all__ = ["ChanceRule", "GameInvariants", "MachineSettings", "bounded_params", "build_game",
           "default_settle", "model_mutant", "settler"]
