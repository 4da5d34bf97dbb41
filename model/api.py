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

Observers (docs/interop.md, "Observations and information states"): a game splits its observation
into *public* sections (the same for every seat) and *private* ones (the observer's seat and
what only it sees), so an :class:`ObsView` (OpenSpiel's ``IIGObservationType``) can ask for
public or private information only, or for every seat's private information. The information
state (``recall=True``) is a chain of what each history node showed: its string is a short digest
of that chain (:meth:`GameBase.information_state_string`), readable in full by
:meth:`GameState.information_state_text`; its tensor is the chain's codes, offered when the
game bounds a history short enough (:attr:`GameBase.recall_width`).

Everything here is pure Python (lists of floats); numpy appears only in ``ruleproof.interop``.
"""

from __future__ import annotations

import hashlib
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from ruleproof.errors import IllegalAction, MalformedInput

CHANCE = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""

TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""

A = TypeVar("A", bound=Hashable)

PRIVATE_NONE = "none"
"""An :class:`ObsView` without private information (OpenSpiel's ``PrivateInfoType.NONE``)."""
PRIVATE_SINGLE = "single"
"""The observer's own private information (``PrivateInfoType.SINGLE_PLAYER``)."""
PRIVATE_ALL = "all"
"""Every seat's private information, seat by seat (``PrivateInfoType.ALL_PLAYERS``)."""


@dataclass(frozen=True)
class ObsView:
    """What an observer asks for (OpenSpiel's ``IIGObservationType``).

    Attributes:
        public: the public information (what every seat sees alike).
        private: :data:`PRIVATE_NONE`, :data:`PRIVATE_SINGLE` (the observer's seat and what
            only it sees) or :data:`PRIVATE_ALL` (that of every seat, in seat order).
        recall: everything seen so far (the information state) instead of what is seen now.

    Raises:
        MalformedInput: (constructor) an unknown ``private`` value.
    """

    public: bool = True
    private: str = PRIVATE_SINGLE
    recall: bool = False

    def __post_init__(self) -> None:
        if self.private not in (PRIVATE_NONE, PRIVATE_SINGLE, PRIVATE_ALL):
            raise MalformedInput(f"private information must be one of {PRIVATE_NONE}, "
                                 f"{PRIVATE_SINGLE}, {PRIVATE_ALL}; got {self.private!r}")

    @property
    def seat_specific(self) -> bool:
        """Whether the view differs between seats (it holds the observer's private part)."""
        return self.private == PRIVATE_SINGLE


OBSERVATION = ObsView()
"""The default observation: public information and the observer's own (what it sees now)."""
INFORMATION_STATE = ObsView(recall=True)
"""The information state: everything the observer has seen, public and its own."""


@dataclass(frozen=True)
class Section:
    """One section of an observation tensor (``offset`` follows from the order).

    Attributes:
        name: as documented in docs/interop.md.
        width: number of floats.
        private: True for the observer's seat and what only it sees (left out of a public
            view; repeated per seat in a :data:`PRIVATE_ALL` view).
    """

    name: str
    width: int
    private: bool = False


RECALL_TENSOR_LIMIT = 100_000
"""The largest information-state tensor offered (floats): a game whose longest history needs a
longer chain of codes declares no information-state tensor (OpenSpiel's
``provides_information_state_tensor=False``) and keeps the string."""

TRUNCATION_CHOICES = ("zero", "loss")
"""The named truncation returns (:attr:`GameBase.truncation`); a number is a draw value."""


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
        """The action with id ``action_id`` (an ``int``, or an integer type such as numpy's).

        Raises:
            MalformedInput: not an integer (a bool, float, string: ``int()`` would have read
                ``1.5`` as 1 and ``'bid'`` as a ValueError), or out of range.
        """
        index = action_id if type(action_id) is int else self.index(action_id)
        if not 0 <= index < len(self._actions):
            raise MalformedInput(f"{self.name}: action id {action_id} is not in 0..{len(self) - 1}")
        return self._actions[index]

    def index(self, action_id: Any) -> int:
        """``action_id`` as an ``int`` if it is an integer (``operator.index``), not a bool.

        Raises:
            MalformedInput: anything else, naming the table.
        """
        try:
            if isinstance(action_id, bool):
                raise TypeError
            return operator.index(action_id)
        except TypeError:
            raise MalformedInput(f"{self.name}: action id {action_id!r} is not an integer"
                                 ) from None

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
        memo: rendered history text or recall digests up to this node, per key (filled by
            :func:`history_text` and :func:`recall_digest`; a cache of a pure function of the
            immutable history, never state).
    """

    prev: Node | None
    actor: int
    action_id: int
    seen: Any
    memo: dict[Any, Any] | None = field(default=None, compare=False, repr=False)


def option_pairs_from(value: Any) -> dict[str, str]:
    """Rule options given as a game parameter: None, a mapping, or a text
    ``NAME=VALUE,NAME=VALUE`` (``;`` and ``NAME:VALUE`` also accepted, as OpenSpiel's game
    strings need). Booleans become ``true``/``false``.

    Raises:
        MalformedInput: an item that is not NAME=VALUE, or one name given twice with
            different values (never silently the last one).
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
        k, v = k.strip(), v.strip()
        if pairs.get(k, v) != v:
            raise MalformedInput(f"option {k} given twice with different values: "
                                 f"{pairs[k]!r} and {v!r}; give it once")
        pairs[k] = v
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
    truncation: str | float = "zero"
    """What a game stopped by the truncation rule pays (``interop.truncation``): ``zero``
    (default: 0 to everybody, zero-sum), ``loss`` (everybody gets the game's lowest return:
    stalling then never pays) or a number (a draw value for everybody). Set by
    :func:`ruleproof.properties.plugin.make_game` from the generic parameter ``truncation``."""

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

    def model_step_legal(self, m: M, action: Any) -> tuple[M, Any]:
        """:meth:`model_step` for an ``action`` known to be legal (the caller found its id in
        the legal ids of ``m``): a game may skip its own legality check here (a trusted fast
        path; the result must equal :meth:`model_step`'s). Default: :meth:`model_step`."""
        return self.model_step(m, action)

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

    def information_state_string(self, state: GameState, player: int) -> str:
        """Everything ``player`` has observed (perfect recall), compactly: ``p<seat> t<nodes>
        <digest>``, the digest (BLAKE2b, 128 bits) of the seat's initial observation and of
        what each history node showed it (:meth:`node_view`). Equal strings mean equal
        views of the whole history (up to a collision of 128-bit digests); the readable
        chain is :meth:`information_state_text`. Costs O(1) per step asked after each step
        (memoized on the history's nodes)."""
        return recall_string(state, player, INFORMATION_STATE)

    def information_state_text(self, state: GameState, player: int) -> str:
        """The information state in words: the seat, then what each node showed it, one line
        a node (a game may print it its own way)."""
        lines = [f"seat {player}"]
        for n in walk(state.node):
            public, private = self.node_view(n, player)
            line = " ".join(x for x in (public, private) if x)
            if line:
                lines.append(line)
        return "\n".join(lines)

    # -- the observer's views (docs/interop.md) ---------------------------------------------
    def observation_sections(self) -> tuple[Section, ...]:
        """The sections of the observation tensor in layout order, each public or private.
        Default: one public section (right for a game without private information); a game
        with private information declares which sections only the observer sees."""
        return (Section("observation", self.observation_size, False),)

    def public_observation_string(self, state: GameState) -> str:
        """What every seat sees now (the same text for every seat). Default: seat 0's
        observation string (right for a game whose observation names no seat)."""
        return self.observation_string(state, 0)

    def private_observation_string(self, state: GameState, player: int) -> str:
        """What only ``player`` sees now: its seat, and its private cards if any
        (default ``p<seat>``)."""
        return f"p{player}"

    def node_view(self, node: Node, player: int) -> tuple[str, str]:
        """What history node ``node`` showed ``player``: ``(public, private)``, the public
        part the same for every seat (who acted and what everybody saw), the private part
        what only ``player`` saw (its own decision if others did not see it, its private
        cards). Default: everything public (actor and action id)."""
        return (f"{node.actor}:{node.action_id}", "")

    recall_width: int | None = None
    """Codes per history node of the information-state tensor (:meth:`recall_indices`), or
    None: the game offers no information-state tensor."""

    def recall_indices(self, node: Node, player: int) -> list[int]:
        """The codes (``0 .. recall_width - 1``) of what ``node`` showed ``player``; together
        with the actor's code they must tell apart every two nodes :meth:`node_view` tells
        apart (equal tensors then mean equal information states)."""
        raise NotImplementedError(f"{self.name} has no information-state tensor")

    def resample_history(self, state: GameState, player: int, rng: random.Random) -> GameState:
        """A state drawn from those whose history ``player`` cannot tell from ``state``'s
        (equal information states): chance outcomes and the other seats' hidden decisions
        drawn uniformly among the consistent ones (chance weighted by its probabilities).
        Default: exact, by enumerating the consistent histories
        (:func:`ruleproof.model.hidden.resample_exact`; for small games). A set-up given as
        the start (``new_seeded_state``) is kept as it is.

        Raises:
            TooManyHistories: (default) more consistent histories than the enumeration's
                bound; a game with a large hidden part overrides this.
        """
        from ruleproof.model.hidden import resample_exact

        return resample_exact(state, player, rng)

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
        an unchanged section with the same ``memo``, so callers can cache conversions). One
        ``memo`` may serve every seat: what a game keeps in it must not depend on ``player``
        (only the first section may)."""
        return [self.observation_indices(state, player, memo)]

    def state_repr(self, state: GameState) -> str:
        """A short one-line description of ``state`` (its ``repr``)."""
        return f"<{self.name} to-move {state.current_player()} moves {state.moves}>"

    def model_legal_ids(self, m: M) -> list[int]:
        """The ids of :meth:`model_legal`, in its order (a game may override it for speed)."""
        ids = self.table._ids
        return [ids[a] for a in self.model_legal(m)]

    def model_legal_ids_sorted(self, m: M) -> list[int]:
        """The distinct ids of :meth:`model_legal`, sorted, as a new list (a game may override
        it for speed; the result must be the default's)."""
        return sorted(set(self.model_legal_ids(m)))

    def model_chance_ids(self, m: M) -> list[tuple[int, Fraction]]:
        """:meth:`model_chance` as (outcome id, exact probability), sorted by id (a game may
        override it for speed; the result must be the default's)."""
        ids = self.chance_table._ids
        return sorted([(ids[o], p) for o, p in self.model_chance(m)])

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
    def max_history(self) -> int:
        """Bound on history nodes (decisions and chance nodes) in one game."""
        return self.max_game_length + self.max_chance_nodes

    @property
    def provides_information_state_tensor(self) -> bool:
        """Whether the game offers a perfect-recall information-state tensor: it has codes
        per node (:attr:`recall_width`) and its longest history fits
        :data:`RECALL_TENSOR_LIMIT`."""
        return self.recall_width is not None and \
            self._recall_size() <= RECALL_TENSOR_LIMIT

    def _recall_size(self) -> int:
        assert self.recall_width is not None
        return self.num_players + self.observation_size + self.max_history * (
            self.num_players + 1 + self.recall_width)

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]:
        """``(size,)`` of the perfect-recall tensor: the observer's seat (one-hot), its
        observation at the history's start, then per history node the actor (one-hot over
        chance and the seats) and the node's codes; ``(0,)`` when the game offers none
        (:attr:`provides_information_state_tensor`)."""
        if not self.provides_information_state_tensor:
            return (0,)
        return (self._recall_size(),)

    @property
    def zero_sum(self) -> bool:
        """Whether every terminal state's returns sum to 0 (the truncation returns too)."""
        return self.truncation in ("zero", 0, 0.0)

    def truncated_returns(self) -> list[float]:
        """What a truncated game pays each seat (:attr:`truncation`)."""
        if self.truncation == "zero":
            return [0.0] * self.num_players
        if self.truncation == "loss":
            return [float(self.min_utility)] * self.num_players
        return [float(self.truncation)] * self.num_players

    def view_layout(self, view: ObsView) -> ViewLayout:
        """The tensor layout of a non-recall ``view`` (cached on the game: a pure function of
        the game's sections)."""
        cache = self.__dict__.setdefault("_view_layouts", {})
        found = cache.get(view)
        if found is None:
            found = cache[view] = ViewLayout(self.observation_sections(), view,
                                             self.num_players, self.observation_size)
        return found  # type: ignore[no-any-return]

    def view_string(self, state: GameState, player: int, view: ObsView) -> str:
        """The string of ``view`` for ``player`` (see :class:`ObsView`)."""
        if view.recall:
            if view == INFORMATION_STATE:
                return self.information_state_string(state, player)
            return recall_string(state, player, view)
        if view == OBSERVATION:
            return self.observation_string(state, player)
        parts = []
        if view.private == PRIVATE_SINGLE:
            parts.append(self.private_observation_string(state, player))
        elif view.private == PRIVATE_ALL:
            parts += [self.private_observation_string(state, q) for q in range(self.num_players)]
        if view.public:
            parts.append(self.public_observation_string(state))
        return "\n".join(x for x in parts if x)

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickling: the game's own ``__reduce__``, with its :attr:`truncation` restored when it
        is not the default (a game's ``__reduce__`` names only its own parameters)."""
        made = self.__reduce__()
        if self.truncation == "zero" or not isinstance(made, tuple):
            return made
        return (_with_truncation, (made[0], made[1], self.truncation))

    def new_initial_state(self) -> GameState:
        """Before the set-up: :data:`CHANCE` to move (every chance node left to the caller)."""
        return self.from_model(self.initial_model())

    def new_seeded_state(self, seed: int) -> GameState:
        """The set-up resolved from ``seed`` exactly as the engine's seeded deal.

        Raises:
            MalformedInput: ``seed`` is not an integer in 0..2**63-1 (a negative seed would
                deal its absolute value's game, ``random.Random``; ``True`` or ``1.5`` are not
                seeds).
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise MalformedInput(f"a seed is an integer in 0..2**63-1, got {repr(seed)[:40]}")
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


def _constructor(cls: type, draft: type) -> Callable[..., Any]:
    """A positional constructor of the frozen slotted dataclass ``cls``, several times faster
    than its ``__init__`` (which stores each field through ``object.__setattr__``): it fills a
    ``draft`` (a writable class with the same slots, so the same memory layout) with plain
    attribute stores and seals it as ``cls`` by assigning ``__class__``, as
    :mod:`ruleproof.model.dawn_under.engine`'s ``_with`` does for engine states. Every field
    is given (defaults included), so the object equals what ``cls(...)`` builds; a draft
    never leaves the constructor. Generated once per class from its fields."""
    names = [f.name for f in fields(cls)]
    body = "\n".join(f"    d.{n} = {n}" for n in names)
    src = (f"def make({', '.join(names)}):\n    d = new(Draft)\n{body}\n"
           "    d.__class__ = Cls\n    return d\n")
    env: dict[str, Any] = {"new": object.__new__, "Draft": draft, "Cls": cls}
    exec(src, env)
    made: Callable[..., Any] = env["make"]
    return made


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

    The player to move and the legal ids are computed once per state and kept with it (the
    state is immutable, so they cannot change).
    """

    game: GameBase[Any]
    model: Any
    node: Node | None
    moves: int
    base: Any
    _cp: int | None = field(default=None, compare=False, repr=False)
    _legal: list[int] | None = field(default=None, compare=False, repr=False)
    _chance: list[tuple[int, Fraction]] | None = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.game, self.base, self.base_moves,
                           tuple(n.action_id for n in walk(self.node))))

    @property
    def base_moves(self) -> int:
        """Player decisions made before the history started (at :attr:`base`)."""
        n, decisions = self.node, 0
        while n is not None:
            decisions += n.actor != CHANCE
            n = n.prev
        return self.moves - decisions

    # -- flow ----------------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, :data:`CHANCE`, or :data:`TERMINAL` (by the rules, or truncated
        after ``max_moves`` player decisions)."""
        cp = self._cp
        if cp is None:
            cp = self.game.model_to_move(self.model)
            if cp != CHANCE and (cp < 0 or self.moves >= self.game.max_moves):
                cp = TERMINAL
            object.__setattr__(self, "_cp", cp)
        return cp

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

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
        -1/(n-1)); truncated: the game's truncation returns (default all 0,
        :attr:`GameBase.truncation`); while running: all 0."""
        if self.is_over():
            return self.game.model_returns(self.model)
        if self.is_truncated():
            return self.game.truncated_returns()
        return [0.0] * self.game.num_players

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
        """Sorted legal ids (chance outcome ids at a chance node; [] when terminal). The list
        is kept with the state: a caller must not change it."""
        legal = self._legal
        if legal is None:
            cp = self.current_player()
            if cp == CHANCE:
                legal = [o for o, _ in self.chance_outcomes()]
            elif cp == TERMINAL:
                legal = []
            else:
                legal = self.game.model_legal_ids_sorted(self.model)
            object.__setattr__(self, "_legal", legal)
        return legal

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """At a chance node: (outcome id, exact probability), sorted by id, summing to 1.
        The list is kept with the state (computed once): a caller must not change it."""
        found = self._chance
        if found is None:
            found = [] if self.current_player() != CHANCE else \
                self.game.model_chance_ids(self.model)
            object.__setattr__(self, "_chance", found)
        return found

    def apply(self, action_id: int) -> GameState:
        """The successor. Raises IllegalAction (this state is untouched)."""
        g = self.game
        cp = self.current_player()
        if cp == TERMINAL:
            raise IllegalAction(f"id {action_id}", "the game is over", g.over_clauses)
        if cp == CHANCE:
            if type(action_id) is int:
                for o, _ in self.chance_outcomes():  # a loop: any() over a generator costs more
                    if o == action_id:
                        return self._step(g.chance_table.from_id(action_id), action_id, CHANCE)
            try:  # not an outcome here: say why (not an integer, not in the table, or refused)
                index = g.chance_table.index(action_id)
                g.chance_table.from_id(index)
            except MalformedInput as err:
                raise IllegalAction(f"chance {action_id!r}", err.what, g.chance_clauses) from None
            if type(action_id) is not int:  # an integer type such as numpy's: as the int
                return self.apply(index)
            raise IllegalAction(f"chance {action_id}", g.chance_refused, g.chance_clauses)
        legal = self._legal
        if legal is not None and type(action_id) is int and action_id in legal:
            # the legal ids were listed for this state (kept with it) and hold this one: the
            # engine need not check it again (GameBase.model_step_legal)
            action = g.table._actions[action_id]
            new, seen = g.model_step_legal(self.model, action)
            return _new_state(g, new, _new_node(self.node, cp, action_id, seen, None),
                              self.moves + 1, self.base, None, None, None)
        try:
            action = g.table.from_id(action_id)
        except MalformedInput as err:
            raise IllegalAction(f"id {action_id!r}", err.what, ()) from None
        return self._step(action, g.table.index(action_id), cp)

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
        return _new_state(self.game, new, _new_node(self.node, actor, action_id, seen, None),
                          self.moves + (actor != CHANCE), self.base, None, None, None)

    def parent(self) -> GameState | None:
        """The state before the last node (None at the history's start): rebuilt from the
        start by replaying the history (O(history))."""
        if self.node is None:
            return None
        return _rebuild(self.game, self.base, self.base_moves,
                        tuple(n.action_id for n in walk(self.node.prev)))

    def resample(self, player: int, rng: random.Random) -> GameState:
        """A state ``player`` cannot tell from this one, drawn as
        :meth:`GameBase.resample_history` says (its information state is this one's).

        Raises:
            MalformedInput: not a seat, or a chance node or a finished game.
        """
        self._check_player(player)
        if self.current_player() < 0:
            raise MalformedInput("resampling needs a state where a seat is to decide "
                                 f"(this one: {self.current_player()})")
        return self.game.resample_history(self, player, rng)

    # -- information ---------------------------------------------------------------------------
    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or \
                not 0 <= player < self.game.num_players:
            raise MalformedInput(f"no player {player} in a {self.game.num_players}-player "
                                 f"{self.game.name} game")

    def observation_string(self, player: int) -> str:
        self._check_player(player)
        return self.game.observation_string(self, player)

    def information_state_string(self, player: int) -> str:
        """The compact perfect-recall string (:meth:`GameBase.information_state_string`)."""
        self._check_player(player)
        return self.game.information_state_string(self, player)

    def information_state_text(self, player: int) -> str:
        """The information state in words (:meth:`GameBase.information_state_text`)."""
        self._check_player(player)
        return self.game.information_state_text(self, player)

    def view_string(self, player: int, view: ObsView) -> str:
        """The string of an :class:`ObsView` (public/private, now or with perfect recall)."""
        self._check_player(player)
        return self.game.view_string(self, player, view)

    def view_indices(self, player: int, view: ObsView,
                     memo: dict[Any, Any] | None = None) -> list[int]:
        """The 1.0 entries of the tensor of a non-recall ``view``
        (:meth:`GameBase.view_layout`)."""
        self._check_player(player)
        layout = self.game.view_layout(view)
        if layout.identity:
            return self.game.observation_indices(self, player, memo)
        return layout.indices(self, player)

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

    def information_state_indices(self, player: int) -> list[int]:
        """The 1.0 entries of :meth:`information_state_tensor`.

        Raises:
            MalformedInput: the game offers no information-state tensor
                (:attr:`GameBase.provides_information_state_tensor`).
        """
        self._check_player(player)
        return recall_indices(self, player)

    def information_state_tensor(self, player: int) -> list[float]:
        """The perfect-recall tensor (:attr:`GameBase.information_state_tensor_shape`).

        Raises:
            MalformedInput: the game offers none (its histories are too long for one).
        """
        (size,) = self.game.information_state_tensor_shape
        out = [0.0] * size
        for i in self.information_state_indices(player):
            out[i] = 1.0
        return out

    def __repr__(self) -> str:
        return self.game.state_repr(self)

    def __str__(self) -> str:
        return self.observation_string(0)


class _NodeDraft:
    """A writable twin of :class:`Node` (the same slots), for :data:`_new_node`."""

    __slots__ = Node.__slots__


class _StateDraft(ImmutableHistory):
    """A writable twin of :class:`GameState` (the same base and slots), for
    :data:`_new_state`."""

    __slots__ = GameState.__slots__


_new_node: Callable[[Node | None, int, int, Any, dict[Any, Any] | None], Node] = \
    _constructor(Node, _NodeDraft)
"""``Node(prev, actor, action_id, seen, memo)``, faster (:func:`_constructor`)."""
_new_state: Callable[..., GameState] = _constructor(GameState, _StateDraft)
"""``GameState(game, model, node, moves, base, _cp, _legal, _chance)``, faster
(:func:`_constructor`): every state a step makes is built here."""


class ViewLayout:
    """The tensor of a non-recall :class:`ObsView` over a game's sections: the public sections
    (if asked), then the private ones of the observer (``single``) or of every seat in turn
    (``all``), each in layout order. Built once per game and view
    (:meth:`GameBase.view_layout`).

    Attributes:
        size: the view's tensor length.
        identity: the view is the game's own observation tensor (public and the observer's,
            the layout as it is).

    Raises:
        ValueError: (constructor) sections that do not cover the observation exactly.
    """

    def __init__(self, sections: Sequence[Section], view: ObsView, players: int,
                 full: int) -> None:
        if sum(x.width for x in sections) != full:
            raise ValueError(f"sections cover {sum(x.width for x in sections)} floats, the "
                             f"observation {full}")
        self.view = view
        self.players = players
        self.identity = view.public and view.private == PRIVATE_SINGLE
        spans: list[tuple[int, int, bool]] = []
        at = 0
        for sec in sections:
            spans.append((at, sec.width, sec.private))
            at += sec.width
        public_map: dict[int, int] = {}
        offset = 0
        if view.public:
            for start, width, private in spans:
                if not private:
                    for k in range(width):
                        public_map[start + k] = offset + k
                    offset += width
        private_map: dict[int, int] = {}
        pos = 0
        for start, width, private in spans:
            if private:
                for k in range(width):
                    private_map[start + k] = pos + k
                pos += width
        self.private_width = pos
        self.private_at = offset
        self.public_map = public_map
        self.private_map = private_map
        copies = {PRIVATE_NONE: 0, PRIVATE_SINGLE: 1, PRIVATE_ALL: players}[view.private]
        self.size = full if self.identity else offset + copies * self.private_width

    def indices(self, state: GameState, player: int) -> list[int]:
        """The view's 1.0 entries for ``player`` in ``state``."""
        game = state.game
        out: list[int] = []
        own = game.observation_indices(state, player)
        if self.view.public:
            pm = self.public_map
            out += [pm[i] for i in own if i in pm]
        if self.view.private == PRIVATE_SINGLE:
            vm, at = self.private_map, self.private_at
            out += [at + vm[i] for i in own if i in vm]
        elif self.view.private == PRIVATE_ALL:
            vm = self.private_map
            for q in range(self.players):
                at = self.private_at + q * self.private_width
                seen = own if q == player else game.observation_indices(state, q)
                out += [at + vm[i] for i in seen if i in vm]
        return out


def _view_bytes(game: GameBase[Any], n: Node, player: int, view: ObsView) -> bytes:
    if view.private == PRIVATE_SINGLE:
        public, private = game.node_view(n, player)
        parts = [public if view.public else "", private]
    else:
        parts = [game.node_view(n, 0)[0] if view.public else ""]
        if view.private == PRIVATE_ALL:
            parts += [game.node_view(n, q)[1] for q in range(game.num_players)]
    return "\x1f".join(parts).encode()


def _start_view(state: GameState, player: int, view: ObsView) -> bytes:
    game = state.game
    start = game.from_model(state.base, state.base_moves)
    now = ObsView(view.public, view.private, False)
    return game.view_string(start, player, now).encode()


def recall_digest(state: GameState, player: int, view: ObsView) -> tuple[bytes, int]:
    """The 128-bit digest of ``view``'s chain for ``player`` (its start and every node) and
    the number of nodes; memoized on the nodes, so asking after every step costs O(1) per
    step."""
    game = state.game
    key = (view, player if view.seat_specific else -1)
    pending: list[Node] = []
    n = state.node
    found: tuple[bytes, int] | None = None
    while n is not None:
        if n.memo is not None and key in n.memo:
            found = n.memo[key]
            break
        pending.append(n)
        n = n.prev
    if found is None:
        found = (hashlib.blake2b(_start_view(state, player, view), digest_size=16).digest(), 0)
    digest, count = found
    for n in reversed(pending):
        digest = hashlib.blake2b(digest + _view_bytes(game, n, player, view),
                                 digest_size=16).digest()
        count += 1
        if n.memo is None:
            object.__setattr__(n, "memo", {})
        assert n.memo is not None
        n.memo[key] = (digest, count)
    return digest, count


def recall_string(state: GameState, player: int, view: ObsView) -> str:
    """The compact perfect-recall string of ``view``: ``p<seat> t<nodes> <digest>`` (without
    the seat when the view is the same for every seat)."""
    digest, nodes = recall_digest(state, player, view)
    seat = f"p{player} " if view.seat_specific else ""
    return f"{seat}t{nodes} {digest.hex()}"


def recall_indices(state: GameState, player: int) -> list[int]:
    """The 1.0 entries of the perfect-recall tensor (layout:
    :attr:`GameBase.information_state_tensor_shape`).

    Raises:
        MalformedInput: the game offers no information-state tensor.
    """
    game = state.game
    if not game.provides_information_state_tensor:
        why = "it has no codes per history node" if game.recall_width is None else \
            f"its longest history needs more than {RECALL_TENSOR_LIMIT} floats"
        raise MalformedInput(f"{game.name} offers no information-state tensor with these "
                             f"parameters ({why}); use the information-state string")
    width = game.recall_width
    assert width is not None
    n_players = game.num_players
    out = [player]
    at = n_players
    start = game.from_model(state.base, state.base_moves)
    out += [at + i for i in game.observation_indices(start, player)]
    at += game.observation_size
    slot = n_players + 1 + width
    for t, n in enumerate(walk(state.node)):
        base = at + t * slot
        out.append(base + n.actor + 1)
        out += [base + n_players + 1 + i for i in game.recall_indices(n, player)]
    return out


def _with_truncation(make: Callable[..., GameBase[Any]], args: tuple[Any, ...],
                     truncation: str | float) -> GameBase[Any]:
    """Unpickle a game made by ``make(*args)`` with a non-default :attr:`GameBase.truncation`."""
    game = make(*args)
    game.truncation = truncation
    return game


def zero_sum_returns(players: int, winner: int | None) -> list[float]:
    """Winner ``+1``, others ``-1/(players-1)``; no winner: all 0."""
    if winner is None:
        return [0.0] * players
    loss = -1.0 / (players - 1)
    return [1.0 if p == winner else loss for p in range(players)]


__all__ = ["CHANCE", "INFORMATION_STATE", "OBSERVATION", "PRIVATE_ALL", "PRIVATE_NONE",
           "PRIVATE_SINGLE", "RECALL_TENSOR_LIMIT", "TERMINAL", "TRUNCATION_CHOICES",
           "ActionTable", "GameBase", "GameState", "Node", "ObsView", "RulesGame", "RulesState",
           "Section", "ViewLayout", "history_text", "ranges", "recall_digest", "recall_indices",
           "recall_string", "walk", "zero_sum_returns"]
