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

Returns: by default a won game gives the winner ``+1`` and every other player ``-1/(n-1)``
(zero-sum; a game with stakes overrides :meth:`GameBase.model_returns`); a game stopped by the
documented truncation rule (docs/interop.md, ``interop.truncation``) gives everybody ``0``.

Everything here is pure Python (lists of floats); numpy appears only in ``ruleproof.interop``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from ruleproof.errors import IllegalAction, MalformedInput

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
    """A game with fixed parameters (see :func:`ruleproof.properties.plugin.make_game`)."""

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
    def min_utility(self) -> float:
        """The lowest return a seat can get."""
        ...

    @property
    def max_utility(self) -> float:
        """The highest return a seat can get."""
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


M = TypeVar("M")


class GameBase(ABC, Generic[M]):
    """The base of every game: it owns the action tables and ids, range and terminal checks,
    the truncation rule, the history and the errors; a game implements a few hooks.

    After OpenSpiel's ``Game``/``State`` split and pgx's ``Env.step`` -> ``_step``: the one
    state class :class:`GameState` calls the hooks below on the game's *engine state* ``M``
    (a frozen value of the game's own model) and does everything else itself.

    A subclass sets, in its ``__init__``, ``name`` (class attribute), ``num_players``,
    ``max_moves`` (the truncation bound on player decisions), ``table`` (player actions) and
    ``chance_table`` (chance outcomes), and implements:

    * :meth:`initial_model` -- the engine state before set-up (chance to move: set-up and every
      draw are chance nodes);
    * :meth:`seeded_model` -- the set-up resolved from an explicit seed, as the engine deals it;
    * :meth:`model_to_move` -- a seat, :data:`CHANCE` or :data:`TERMINAL` (by the rules alone);
    * :meth:`model_legal` -- the typed legal player actions, in the engine's order;
    * :meth:`model_chance` -- the typed chance outcomes with exact probabilities;
    * :meth:`model_step` -- the successor engine state and what the step showed (the history
      node's payload, read by the game's information-state rendering);
    * :meth:`model_winner` -- the winning seat of a finished game, or None;
    * the observer: :meth:`observation_string`, :meth:`information_state_string`,
      :meth:`observation_indices` and ``observation_size``.

    ``over_clauses`` and ``chance_clauses`` are the clause ids an
    :class:`~ruleproof.errors.IllegalAction` names when play goes on after the end, or a chance
    outcome is not available.
    """

    name: str = ""
    num_players: int
    max_moves: int
    table: ActionTable[Any]
    chance_table: ActionTable[Any]
    over_clauses: tuple[str, ...] = ()
    chance_clauses: tuple[str, ...] = ()
    chance_refused: str = "no such chance outcome here"
    min_utility: float = -1.0
    """The lowest return a seat can get (the default returns: a loss of a 2-player game)."""
    max_utility: float = 1.0
    """The highest return a seat can get (the default returns: a win)."""

    # -- hooks -------------------------------------------------------------------------------
    @abstractmethod
    def initial_model(self) -> M:
        """The engine state before set-up (its player to move is :data:`CHANCE`)."""

    @abstractmethod
    def seeded_model(self, seed: int) -> M:
        """The engine state after the set-up dealt from ``seed`` (the engine's seeded deal)."""

    @abstractmethod
    def model_to_move(self, m: M) -> int:
        """A seat (0-based), :data:`CHANCE`, or :data:`TERMINAL` once the rules end the game."""

    @abstractmethod
    def model_legal(self, m: M) -> Sequence[Any]:
        """The typed legal actions of the seat to move, in the engine's order."""

    @abstractmethod
    def model_chance(self, m: M) -> Sequence[tuple[Any, Fraction]]:
        """At a chance node: (typed outcome, exact probability) for every outcome."""

    @abstractmethod
    def model_step(self, m: M, action: Any) -> tuple[M, Any]:
        """(successor engine state, what the step showed). Raises IllegalAction."""

    @abstractmethod
    def model_winner(self, m: M) -> int | None:
        """The winning seat of a game over by the rules, else None."""

    def model_returns(self, m: M) -> list[float]:
        """Per seat, the returns of a game over by the rules. Default: the winner ``+1``, the
        others ``-1/(n-1)`` (zero-sum); a game with stakes (chips) overrides it."""
        return zero_sum_returns(self.num_players, self.model_winner(m))

    @abstractmethod
    def observation_string(self, state: GameState, player: int) -> str:
        """What ``player`` observes now (see the game's module docstring)."""

    @abstractmethod
    def information_state_string(self, state: GameState, player: int) -> str:
        """Everything ``player`` has observed (perfect recall)."""

    @abstractmethod
    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of the observation tensor."""

    @property
    @abstractmethod
    def observation_size(self) -> int:
        """Length of the observation tensor."""

    def observation_index_parts(self, state: GameState, player: int,
                                memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """:meth:`observation_indices` in sections (a game may return the same list object for
        an unchanged section with the same ``memo``, so callers can cache conversions)."""
        return [self.observation_indices(state, player, memo)]

    def state_repr(self, state: GameState) -> str:
        """A short one-line description of ``state`` (its ``repr``)."""
        return f"<{self.name} to-move {state.current_player()} moves {state.moves}>"

    def model_legal_ids(self, m: M) -> list[int]:
        """The ids of :meth:`model_legal`, in its order (a game may override it for speed)."""
        ids = self.table._ids
        return [ids[a] for a in self.model_legal(m)]

    # -- owned by the base ---------------------------------------------------------------------
    @property
    def params(self) -> dict[str, Any]:
        """The parameters this game was made with (a game overrides this)."""
        return {"max_moves": self.max_moves}

    @property
    def num_distinct_actions(self) -> int:
        return len(self.table)

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.chance_table)

    @property
    def max_game_length(self) -> int:
        return self.max_moves

    @property
    @abstractmethod
    def max_chance_nodes(self) -> int:
        """Bound on chance nodes in one history."""

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (self.observation_size,)

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]:
        return (self.observation_size,)

    def new_initial_state(self) -> GameState:
        """Before the set-up: :data:`CHANCE` to move (every chance node left to the caller)."""
        return self.from_model(self.initial_model())

    def new_seeded_state(self, seed: int) -> GameState:
        """The set-up resolved from ``seed`` exactly as the engine's seeded deal."""
        return self.from_model(self.seeded_model(seed))

    def from_model(self, model: M, moves: int = 0) -> GameState:
        """Wrap an engine state (its history starts here; ``moves`` decisions already made)."""
        return GameState(self, model, None, moves, model)

    def action_to_id(self, action: Any) -> int:
        """The id of a typed player action or chance outcome. Raises MalformedInput."""
        if action in self.chance_table._ids and action not in self.table._ids:
            return self.chance_table.to_id(action)
        return self.table.to_id(action)

    def id_to_action(self, action_id: int) -> Any:
        """The typed player action with id ``action_id``. Raises MalformedInput."""
        return self.table.from_id(action_id)

    def action_to_string(self, player: int, action_id: int) -> str:
        """The notation of an id (chance outcomes when ``player == CHANCE``)."""
        if player == CHANCE:
            return str(self.chance_table.from_id(action_id))
        return str(self.table.from_id(action_id))

    def string_to_action(self, player: int, text: str) -> int:
        """Inverse of :meth:`action_to_string`. Raises MalformedInput."""
        if player == CHANCE:
            return self.chance_table.from_string(text)
        return self.table.from_string(text)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


def _rebuild(game: GameBase[Any], base: Any, moves: int, ids: tuple[int, ...]) -> GameState:
    state = game.from_model(base, moves)
    for i in ids:
        state = state.apply(i)
    return state


@dataclass(frozen=True, slots=True, eq=False)
class GameState(ImmutableHistory):
    """The one frozen state of every game (:class:`RulesState`), over a game's hooks.

    Attributes:
        game: its :class:`GameBase`.
        model: the engine state (the game's own frozen value).
        node: the history (a :class:`Node` list; payload: what each step showed).
        moves: player decisions made (for the truncation rule).
        base: the engine state the history starts from; with the history it rebuilds the
            state (pickling).
    """

    game: GameBase[Any]
    model: Any
    node: Node | None
    moves: int
    base: Any

    def __reduce__(self) -> tuple[Any, ...]:
        first = walk(self.node)
        base_moves = self.moves - sum(1 for n in first if n.actor != CHANCE)
        return (_rebuild, (self.game, self.base, base_moves, tuple(n.action_id for n in first)))

    # -- flow ----------------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, :data:`CHANCE`, or :data:`TERMINAL` (by the rules, or truncated
        after ``max_moves`` player decisions)."""
        cp = self.game.model_to_move(self.model)
        if cp == CHANCE:
            return CHANCE
        if cp < 0 or self.moves >= self.game.max_moves:
            return TERMINAL
        return cp

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_over(self) -> bool:
        """Over by the rules (not by truncation)."""
        return self.game.model_to_move(self.model) == TERMINAL

    def is_truncated(self) -> bool:
        """Terminal because the truncation rule stopped the game (no winner)."""
        return self.moves >= self.game.max_moves and \
            self.game.model_to_move(self.model) not in (CHANCE, TERMINAL)

    def winner(self) -> int | None:
        """The winning seat of a game over by the rules, else None."""
        return self.game.model_winner(self.model) if self.is_over() else None

    def returns(self) -> list[float]:
        """Per seat: the game's returns once over by the rules (default: winner +1, the others
        -1/(n-1)); while running or truncated: all 0."""
        if not self.is_over():
            return [0.0] * self.game.num_players
        return self.game.model_returns(self.model)

    def legal_typed_actions(self) -> tuple[Any, ...]:
        """The engine's typed legal actions at a decision (its order), the typed chance
        outcomes at a chance node, () once terminal."""
        cp = self.current_player()
        if cp == CHANCE:
            return tuple(o for o, _ in self.game.model_chance(self.model))
        if cp == TERMINAL:
            return ()
        return tuple(self.game.model_legal(self.model))

    def legal_ids_unsorted(self) -> list[int]:
        """The legal player ids in the engine's order (for masks; :meth:`legal_actions` sorts)."""
        if self.current_player() < 0:
            return []
        return self.game.model_legal_ids(self.model)

    def legal_actions(self) -> list[int]:
        """Sorted legal ids (chance outcome ids at a chance node; [] when terminal)."""
        cp = self.current_player()
        if cp == CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        if cp == TERMINAL:
            return []
        return sorted(set(self.legal_ids_unsorted()))

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """At a chance node: (outcome id, exact probability), sorted by id, summing to 1."""
        if self.current_player() != CHANCE:
            return []
        ids = self.game.chance_table._ids
        return sorted((ids[o], p) for o, p in self.game.model_chance(self.model))

    def apply(self, action_id: int) -> GameState:
        """The successor. Raises IllegalAction (this state is untouched)."""
        g = self.game
        cp = self.current_player()
        if cp == TERMINAL:
            raise IllegalAction(f"action {action_id}", "the game is over", g.over_clauses)
        if cp == CHANCE:
            if not any(o == action_id for o, _ in self.chance_outcomes()):
                raise IllegalAction(f"chance {action_id}", g.chance_refused, g.chance_clauses)
            return self._step(g.chance_table.from_id(action_id), action_id, CHANCE)
        try:
            action = g.table.from_id(action_id)
        except MalformedInput as err:
            raise IllegalAction(f"action {action_id}", err.what, ()) from None
        return self._step(action, action_id, cp)

    def apply_typed(self, action: Any) -> GameState:
        """The successor under a typed action or chance outcome. Raises IllegalAction."""
        g = self.game
        cp = self.current_player()
        if cp == TERMINAL:
            raise IllegalAction(action, "the game is over", g.over_clauses)
        table = g.chance_table if cp == CHANCE else g.table
        action_id = table._ids.get(action)
        if action_id is None:
            raise IllegalAction(action, "not an action of this game", ())
        if cp == CHANCE:
            return self.apply(action_id)
        return self._step(action, action_id, cp)

    def _step(self, action: Any, action_id: int, actor: int) -> GameState:
        new, seen = self.game.model_step(self.model, action)
        return GameState(self.game, new, Node(self.node, actor, action_id, seen),
                         self.moves + (actor != CHANCE), self.base)

    # -- information ---------------------------------------------------------------------------
    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not 0 <= player < self.game.num_players:
            raise MalformedInput(f"no player {player} in a {self.game.num_players}-player "
                                 f"{self.game.name} game")

    def observation_string(self, player: int) -> str:
        self._check_player(player)
        return self.game.observation_string(self, player)

    def information_state_string(self, player: int) -> str:
        self._check_player(player)
        return self.game.information_state_string(self, player)

    def observation_indices(self, player: int, memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of :meth:`observation_tensor` (``memo``: a dict
        owned by the caller that a game may use to reuse unchanged sections)."""
        self._check_player(player)
        return self.game.observation_indices(self, player, memo)

    def observation_index_parts(self, player: int,
                                memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """:meth:`observation_indices` in sections (see the game's hook)."""
        self._check_player(player)
        return self.game.observation_index_parts(self, player, memo)

    def observation_tensor(self, player: int) -> list[float]:
        """Dense one-hot/binary floats (the game's layout, docs/interop.md)."""
        out = [0.0] * self.game.observation_size
        for i in self.observation_indices(player):
            out[i] = 1.0
        return out

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation tensor (a Markov summary; the string has perfect recall)."""
        return self.observation_tensor(player)

    def __repr__(self) -> str:
        return self.game.state_repr(self)

    def __str__(self) -> str:
        return self.observation_string(0)


def zero_sum_returns(players: int, winner: int | None) -> list[float]:
    """Winner ``+1``, others ``-1/(players-1)``; no winner: all 0."""
    if winner is None:
        return [0.0] * players
    loss = -1.0 / (players - 1)
    return [1.0 if p == winner else loss for p in range(players)]


__all__ = ["CHANCE", "TERMINAL", "ActionTable", "GameBase", "GameState", "Node", "RulesGame",
           "RulesState", "history_text", "ranges", "walk", "zero_sum_returns"]
