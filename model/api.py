"""The one game interface both games implement (OpenSpiel's vocabulary, typed).

A *game* (:class:`RulesGame`) holds the fixed parameters and the stable action table; a *state*
(:class:`RulesState`) is a frozen value: :meth:`RulesState.apply` returns a new state, so a copy
is the state itself. Chance is explicit: set-up and every draw are chance nodes
(``current_player() == CHANCE``) whose outcomes come with exact :class:`fractions.Fraction`
probabilities, so every deal can be enumerated. ``new_seeded_state(seed)`` resolves the set-up
from an explicit seed exactly as the engines' seeded ``new_game`` does (same seed, same deal).

Ids: player actions are ``0 .. num_distinct_actions - 1``, chance outcomes
``0 .. max_chance_outcomes - 1`` (a separate space, as in OpenSpiel). The tables are documented in
docs/interop.md and by :meth:`ActionTable.rows`.

Returns: a won game gives the winner ``+1`` and every other player ``-1/(n-1)`` (zero-sum);
a game stopped by the documented truncation rule (docs/interop.md, ``interop.truncation``)
gives everybody ``0``.

Everything here is pure Python (lists of floats); numpy appears only in ``ruleproof.interop``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from ruleproof.errors import MalformedInput

CHANCE = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""

TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""

A = TypeVar("A", bound=Hashable)


@runtime_checkable
class RulesState(Protocol):
    """A frozen state of a game implementing :class:`RulesGame`.

    Attributes:
        model: the underlying typed engine state (None while a set-up is still being dealt).
    """

    @property
    def game(self) -> RulesGame: ...

    @property
    def model(self) -> Any: ...

    def current_player(self) -> int:
        """The seat to decide (0-based), :data:`CHANCE` or :data:`TERMINAL`."""
        ...

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (chance outcome ids at a chance node; [] when terminal)."""
        ...

    def legal_typed_actions(self) -> tuple[Any, ...]:
        """The engine's typed legal actions (the engine's order)."""
        ...

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """At a chance node: (outcome id, exact probability), sorted by id, summing to 1."""
        ...

    def apply(self, action_id: int) -> RulesState:
        """The successor state. Raises IllegalAction (this state is untouched)."""
        ...

    def apply_typed(self, action: Any) -> RulesState:
        """The successor under a typed action. Raises IllegalAction."""
        ...

    def is_terminal(self) -> bool: ...

    def is_truncated(self) -> bool:
        """Terminal because the truncation rule stopped the game (no winner)."""
        ...

    def returns(self) -> list[float]:
        """Per seat: the returns scheme of the module docstring (all 0 while running)."""
        ...

    def history(self) -> list[int]:
        """Every id applied so far (chance outcomes included), oldest first."""
        ...

    def observation_string(self, player: int) -> str: ...

    def information_state_string(self, player: int) -> str: ...

    def observation_tensor(self, player: int) -> list[float]: ...

    def information_state_tensor(self, player: int) -> list[float]: ...


@runtime_checkable
class RulesGame(Protocol):
    """A game with fixed parameters (see :func:`ruleproof.model.registry.make_game`)."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> dict[str, Any]: ...

    @property
    def num_players(self) -> int: ...

    @property
    def num_distinct_actions(self) -> int: ...

    @property
    def max_chance_outcomes(self) -> int: ...

    @property
    def max_game_length(self) -> int:
        """Bound on player decisions in one game (truthful, or the truncation bound)."""
        ...

    @property
    def max_chance_nodes(self) -> int:
        """Bound on chance nodes in one history."""
        ...

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]: ...

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]: ...

    def new_initial_state(self) -> RulesState:
        """The state before set-up: chance nodes deal it."""
        ...

    def new_seeded_state(self, seed: int) -> RulesState:
        """The set-up resolved from ``seed`` exactly as the engine's seeded ``new_game``."""
        ...

    def action_to_id(self, action: Any) -> int: ...

    def id_to_action(self, action_id: int) -> Any: ...

    def action_to_string(self, player: int, action_id: int) -> str:
        """The notation of an id (chance outcomes when ``player == CHANCE``)."""
        ...

    def string_to_action(self, player: int, text: str) -> int:
        """Inverse of :meth:`action_to_string`. Raises MalformedInput."""
        ...


class ActionTable(Generic[A]):
    """A stable, documented numbering of a finite list of typed actions.

    ``ActionTable(actions, name)``: ids are positions in ``actions``; the string of an action is
    ``str(action)``. Lookups are dictionaries (O(1)).

    Raises:
        ValueError: (constructor) if two actions are equal or print alike.
    """

    __slots__ = ("_actions", "_by_string", "_ids", "name")

    def __init__(self, actions: Iterable[A], name: str) -> None:
        self.name = name
        self._actions: tuple[A, ...] = tuple(actions)
        self._ids: dict[A, int] = {a: i for i, a in enumerate(self._actions)}
        self._by_string: dict[str, int] = {str(a): i for i, a in enumerate(self._actions)}
        if len(self._ids) != len(self._actions) or len(self._by_string) != len(self._actions):
            raise ValueError(f"{name}: actions must be distinct and print distinctly")

    def __len__(self) -> int:
        return len(self._actions)

    def to_id(self, action: A) -> int:
        """The id of ``action``. Raises MalformedInput if it is not in the table."""
        found = self._ids.get(action)
        if found is None:
            raise MalformedInput(f"{self.name}: action {action} is not in the action table")
        return found

    def from_id(self, action_id: int) -> A:
        """The action with id ``action_id``. Raises MalformedInput if out of range."""
        if isinstance(action_id, bool) or not 0 <= int(action_id) < len(self._actions):
            raise MalformedInput(f"{self.name}: action id {action_id} is not in 0..{len(self) - 1}")
        return self._actions[int(action_id)]

    def from_string(self, text: str) -> int:
        """The id of the action printed as ``text``. Raises MalformedInput."""
        found = self._by_string.get(text.strip())
        if found is None:
            raise MalformedInput(f"{self.name}: {text!r} names no action")
        return found

    def rows(self) -> list[tuple[int, str]]:
        """(id, notation) for every action: the documented table."""
        return [(i, str(a)) for i, a in enumerate(self._actions)]


def ranges(table: Sequence[tuple[int, str]], kind: Callable[[str], str] | None = None) -> list[
        tuple[int, int, str]]:
    """Compress an action table into (first id, last id, example) runs of one verb, for docs."""
    verb = kind or (lambda s: s.split()[0])
    out: list[tuple[int, int, str]] = []
    for i, text in table:
        if out and verb(out[-1][2]) == verb(text) and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i, out[-1][2])
        else:
            out.append((i, i, text))
    return out


@dataclass(frozen=True, slots=True)
class Node:
    """One entry of a state's history, a persistent linked list (O(1) append, shared tails).

    Attributes:
        prev: the older history (None at the start).
        actor: who acted (a seat or :data:`CHANCE`).
        action_id: the id applied (a chance outcome id when ``actor == CHANCE``).
        seen: what the step showed (game-specific: public events, or text per seat).
        memo: rendered history text up to this node, per key (filled by :func:`history_text`;
            a cache of a pure function of the immutable history, never state).
    """

    prev: Node | None
    actor: int
    action_id: int
    seen: Any
    memo: dict[Any, str] | None = field(default=None, compare=False, repr=False)


def option_pairs_from(value: Any) -> dict[str, str]:
    """Rule options given as a game parameter: None, a mapping, or a text
    ``NAME=VALUE,NAME=VALUE`` (``;`` and ``NAME:VALUE`` also accepted, as OpenSpiel's game
    strings need). Booleans become ``true``/``false``.

    Raises:
        MalformedInput: an item that is not NAME=VALUE.
    """
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
    pairs: dict[str, str] = {}
    for part in str(value).replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        sep = "=" if "=" in part else ":"
        if sep not in part:
            raise MalformedInput(f"option {part!r} is not NAME=VALUE (or NAME:VALUE)")
        k, v = part.split(sep, 1)
        pairs[k.strip()] = v.strip()
    return pairs


class ImmutableHistory:
    """Mixed into the games' interface states: they are immutable, so a copy is the state
    itself, and ``history()`` reads the persistent node list ``self.node``."""

    __slots__ = ()
    node: Node | None

    def history(self) -> list[int]:
        """Every id applied so far (chance outcomes included), oldest first."""
        return [n.action_id for n in walk(self.node)]

    def clone(self) -> Self:
        """States are immutable: the copy is the state itself."""
        return self

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


def walk(node: Node | None) -> list[Node]:
    """The history as a list, oldest first."""
    out: list[Node] = []
    while node is not None:
        out.append(node)
        node = node.prev
    out.reverse()
    return out


def history_text(node: Node | None, key: Any, render: Callable[[Node], str]) -> str:
    """The lines ``render(n)`` of every node up to ``node`` (skipping empty ones), joined by
    newlines; memoized per node and ``key`` so that asking after every step costs O(step)."""
    pending: list[Node] = []
    n = node
    text = ""
    while n is not None:
        if n.memo is not None and key in n.memo:
            text = n.memo[key]
            break
        pending.append(n)
        n = n.prev
    for n in reversed(pending):
        line = render(n)
        if line:
            text = f"{text}\n{line}" if text else line
        if n.memo is None:
            object.__setattr__(n, "memo", {})
        assert n.memo is not None
        n.memo[key] = text
    return text


def zero_sum_returns(players: int, winner: int | None) -> list[float]:
    """Winner ``+1``, others ``-1/(players-1)``; no winner: all 0."""
    if winner is None:
        return [0.0] * players
    loss = -1.0 / (players - 1)
    return [1.0 if p == winner else loss for p in range(players)]


__all__ = ["CHANCE", "TERMINAL", "ActionTable", "Node", "RulesGame", "RulesState", "history_text",
           "ranges", "walk", "zero_sum_returns"]
