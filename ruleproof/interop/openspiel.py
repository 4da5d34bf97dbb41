"""Every registered game as an OpenSpiel game (needs the ``[openspiel]`` extra).

Importing this module registers each game of the registry (:func:`ruleproof.properties.plugin.
plugins`) with ``pyspiel`` under ``python_<name>`` (the game's name with ``_`` for ``-``; ``ruleproof_<name>``
where OpenSpiel ships a Python game of that name, :func:`spiel_name`)::

    import pyspiel
    import ruleproof.interop.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(spiel_name(NAME), {"players": 4})

A game added to the registry later (``RULEPROOF_PLUGINS``, an entry point loaded afterwards) is
registered by :func:`register` with its registry name alone.

Parameters: the game's parameter model (``GamePlugin.params``), each with its default; OpenSpiel
parameters cannot be None, so an unset text or path parameter is ``""`` and an unset number
``0`` (both mean "the game's default"). Rule options (``options``) are
``"name:value;name:value"``: an OpenSpiel game string cannot hold ``,`` in a value. Ids, chance
outcomes, returns, tensors: docs/interop.md. The states wrap the frozen states of
:mod:`ruleproof.model.api`; a clone shares them.

For each registered game the module also answers the names ``<PACKAGE>_NAME`` (its OpenSpiel
name), ``<PACKAGE>_PARAMS`` (its parameter specification) and ``<Package>SpielGame`` (its game
class, to subclass), ``PACKAGE`` being the game's folder name (``GamePlugin.package``) in capitals
and ``Package`` in camel case.
"""

from __future__ import annotations

import importlib.util
import random
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ruleproof.errors import MalformedInput
from ruleproof.model.api import (
    CHANCE,
    INFORMATION_STATE,
    OBSERVATION,
    PRIVATE_ALL,
    PRIVATE_NONE,
    PRIVATE_SINGLE,
    GameState,
    ObsView,
    RulesGame,
    RulesState,
    ViewLayout,
)
from ruleproof.properties.plugin import GamePlugin, Param, make_game, plugin, plugins

_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}
_UTILITY = {"zero-sum": pyspiel.GameType.Utility.ZERO_SUM,
            "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM,
            "general-sum": pyspiel.GameType.Utility.GENERAL_SUM,
            "identical": pyspiel.GameType.Utility.IDENTICAL}
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PRIVATE = {pyspiel.PrivateInfoType.NONE: PRIVATE_NONE,
            pyspiel.PrivateInfoType.SINGLE_PLAYER: PRIVATE_SINGLE,
            pyspiel.PrivateInfoType.ALL_PLAYERS: PRIVATE_ALL}


def spiel_name(name: str) -> str:
    """The OpenSpiel short name of the registered game ``name``: ``python_<name>``, ``-`` as
    ``_``; ``ruleproof_<name>`` when OpenSpiel ships a Python game of that name itself
    (``open_spiel/python/games/<name>.py`` registers ``python_<name>``), so neither replaces
    the other whatever is imported first."""
    short = name.replace("-", "_")
    try:
        ships = importlib.util.find_spec(f"open_spiel.python.games.{short}") is not None
    except ImportError:  # no open_spiel.python.games package
        ships = False
    return ("ruleproof_" if ships else "python_") + short


def _spec_default(q: Param) -> Any:
    """An OpenSpiel parameter default for ``q`` (never None)."""
    if q.kind == "int":
        return int(q.default) if isinstance(q.default, int) else 0
    if q.kind == "bool":
        return bool(q.default)
    return "" if q.default is None else str(q.default)


def parameter_specification(p: GamePlugin) -> dict[str, Any]:
    """The OpenSpiel parameter specification of ``p``: every parameter with its default (the
    game's own and the generic ones, :attr:`GamePlugin.parameters`)."""
    return {q.name: _spec_default(q) for q in p.parameters}


def game_params(p: GamePlugin, given: dict[str, Any]) -> dict[str, Any]:
    """The parameters for ``make_game`` from OpenSpiel's: an empty text or path, or a zero
    number whose game default is None, means "not given"."""
    out: dict[str, Any] = {}
    for key, value in given.items():
        q = p.param(key)
        if q is None:
            raise MalformedInput(f"{spiel_name(p.name)} has no parameter {key!r}; its "
                                 f"parameters: {', '.join(x.name for x in p.parameters)}")
        if q.kind == "int":
            if value == 0 and q.default is None:
                continue
            out[key] = int(value)
        elif q.kind == "bool":
            out[key] = bool(value)
        elif value in ("", None):
            continue
        else:
            out[key] = Path(str(value)) if q.kind == "path" else str(value)
    return out


def game_type(p: GamePlugin, rules: RulesGame | None = None) -> Any:
    """The ``pyspiel.GameType`` of ``p``; with ``rules`` (a game made with some parameters),
    that game's: whether it offers an information-state tensor (a perfect-recall tensor only
    fits a game whose histories are short, e.g. a reduced set-up) and whether its returns are
    zero-sum (a truncation option may make them general-sum)."""
    kind = p.game_type
    tensor = True if rules is None else bool(getattr(rules, "provides_information_state_tensor",
                                                    True))
    utility = _UTILITY[kind.utility]
    if rules is not None and not getattr(rules, "zero_sum", True):
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=spiel_name(p.name), long_name=f"Python {p.title} (ruleproof)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if kind.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=_INFORMATION[kind.information],
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(kind.players), min_num_players=min(kind.players),
        provides_information_state_string=True, provides_information_state_tensor=tensor,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_specification(p))


def view_of(iig_obs_type: Any) -> ObsView:
    """The :class:`~ruleproof.model.api.ObsView` of an OpenSpiel ``IIGObservationType`` (None:
    the default observation)."""
    if iig_obs_type is None:
        return OBSERVATION
    return ObsView(bool(iig_obs_type.public_info), _PRIVATE[iig_obs_type.private_info],
                   bool(iig_obs_type.perfect_recall))


class RulesSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleproof game as a pyspiel game (the model game is ``self.rules``).

    The class of a registered game (:func:`register`) sets ``game_name`` (the registry name)
    and ``game_type``; a subclass that plants a mutant sets ``game_name`` alone (its
    ``game_type`` is then the registered game's)::

        class Mutant(RulesSpielGame):
            game_name = NAME
            def new_initial_state(self) -> RulesSpielState: ...

    Each instance's type is that of its parameters (:func:`game_type`): e.g. a reduced set-up
    offers a perfect-recall information-state tensor, the full game does not.
    """

    game_type: Any = None
    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules: RulesGame = self._make(given)
        zero_sum = bool(getattr(self.rules, "zero_sum", True))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions,
            max_chance_outcomes=self.rules.max_chance_outcomes,
            num_players=self.rules.num_players, min_utility=self.rules.min_utility,
            max_utility=self.rules.max_utility,
            utility_sum=0.0 if zero_sum else None, max_game_length=self.rules.max_game_length)
        kind = game_type(plugin(self.game_name), self.rules)
        super().__init__(kind, info, given)

    def _make(self, params: dict[str, Any]) -> RulesGame:
        """The model game from OpenSpiel's parameters (a subclass may plant another)."""
        p = plugin(self.game_name)
        return make_game(p.name, **game_params(p, params))

    def new_initial_state(self) -> RulesSpielState:
        return RulesSpielState(self, self.rules.new_initial_state())

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulesObserver:
        """The observer of an ``IIGObservationType`` (public and/or private information, now
        or with perfect recall; see :class:`RulesObserver`)."""
        return RulesObserver(self.rules, view_of(iig_obs_type), params)


_UNDO_KEPT = 16
"""At most this many states before the last actions are kept for
:meth:`RulesSpielState.undo_action` (:class:`_Undo`); an undo past them rebuilds the earlier
states from the history. Keeping every state of a game alive until it ends made each of
them survive into the garbage collector's oldest generation, whose full collections then
cost about a third of an observed step (about 14 of 46 us per step, against 5.6 with the
states let go)."""


class _Undo:
    """The states before the last actions, newest first (a persistent stack: a clone of the
    pyspiel state shares it, ``deepcopy`` returns it), at most :data:`_UNDO_KEPT` deep (a
    push onto a full stack starts a new one). A cache only: it pickles as None, and
    :meth:`RulesSpielState.undo_action` then rebuilds the previous states from the
    history."""

    __slots__ = ("depth", "prev", "state")

    def __init__(self, state: RulesState, prev: _Undo | None) -> None:
        self.state = state
        self.prev = prev
        self.depth: int = 1 if prev is None else prev.depth + 1

    def __copy__(self) -> _Undo:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Undo:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_no_undo, ())


def _no_undo() -> None:
    """What an :class:`_Undo` unpickles to."""
    return None


def _rng_from(sampler: Any) -> random.Random:
    """A ``random.Random`` seeded from OpenSpiel's sampler (a callable giving uniform floats
    in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``), or the generator itself."""
    if isinstance(sampler, random.Random):
        return sampler
    draws = [float(sampler()) for _ in range(2)]
    return random.Random(int(draws[0] * 2**53) ^ (int(draws[1] * 2**53) << 53))


class RulesSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a frozen :class:`ruleproof.model.api.RulesState`
    (``self.rules_state``); applying an action replaces it.

    Beyond OpenSpiel's Python state API: :meth:`resample_from_infostate` (for ISMCTS),
    :meth:`undo_action`, and :meth:`observation_tensor` answers a numpy ``float32`` array
    (filled from the observer's buffers) instead of a list.
    """

    _own_listing = True
    """Whether the class keeps this class's ``_legal_actions`` and ``chance_outcomes`` (set
    per subclass): then :meth:`legal_actions` answers from the ids the frozen state keeps."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_listing = cls._legal_actions is RulesSpielState._legal_actions and \
            cls.chance_outcomes is RulesSpielState.chance_outcomes

    def __init__(self, game: RulesSpielGame, state: RulesState) -> None:
        super().__init__(game)
        self.rules_state = state
        self._rules_game = game.rules
        self._undo: _Undo | None = None
        self._replay: list[RulesState] | None = None
        self._chance: tuple[RulesState, list[tuple[int, float]]] | None = None

    def current_player(self) -> int:
        # pyspiel asks several times a step (applying, listing, is_chance_node): answered
        # from the player the frozen state keeps once computed
        rules_state: Any = self.rules_state
        if rules_state.__class__ is GameState:  # a seat, CHANCE or TERMINAL, kept once known
            cp = _kept_player(rules_state)
            if cp.__class__ is int:
                return cp
        else:
            cp = rules_state.current_player()
        return _TERMINAL if cp < 0 and cp != CHANCE else int(cp)

    def _legal_actions(self, player: int) -> list[int]:
        return self.rules_state.legal_actions()

    def is_chance_node(self) -> bool:
        """Whether chance is to move (answered in Python: pyspiel's C++ method would call
        back into :meth:`current_player`)."""
        rules_state: Any = self.rules_state
        if rules_state.__class__ is GameState:  # as current_player, one call fewer
            return bool(_kept_player(rules_state) == CHANCE)
        return self.current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``: the sorted legal ids of the player to move (chance
        outcome ids at a chance node, [] once terminal or for a seat not to move), a new
        list. Answered in Python from the ids the frozen state keeps (pyspiel's C++ method
        calls back into Python four or five times and converts the list both ways); a
        subclass that replaces ``_legal_actions`` or ``chance_outcomes`` (a planted mutant),
        or a pseudo-player, gets pyspiel's own method.

        Raises:
            pyspiel.SpielError: ``player`` is a pseudo-player (as pyspiel's).
        """
        rules_state: Any = self.rules_state
        # as current_player, one call fewer
        cp = _kept_player(rules_state) if rules_state.__class__ is GameState \
            else self.current_player()
        if (player is None or player == cp) and self._own_listing:
            if cp >= 0:
                legal = rules_state._legal if rules_state.__class__ is GameState else None
                return list(rules_state.legal_actions() if legal is None else legal)
            if cp == CHANCE:
                return [o for o, _ in self.chance_outcomes()]
            if cp == _TERMINAL:
                return []
        if player is None:
            return pyspiel.State.legal_actions(self)  # type: ignore[no-any-return]
        return pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kept = self._chance
        if kept is None or kept[0] is not self.rules_state:
            outcomes: list[tuple[int, Any]] = self.rules_state.chance_outcomes()
            kept = self._chance = (self.rules_state, [
                (o, p._numerator / p._denominator if p.__class__ is Fraction and _FRACTION_SLOTS  # type: ignore[attr-defined]
                 else float(p)) for o, p in outcomes])
        return kept[1]

    def _apply_action(self, action: int) -> None:
        before = self.rules_state
        replay = self._replay
        if replay:
            self.rules_state = replay.pop()
        else:
            self.rules_state = before.apply(int(action))
        undo = self._undo
        self._undo = _Undo(before, undo if undo is not None and undo.depth < _UNDO_KEPT
                           else None)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._rules_game.action_to_string(player, int(action))

    def is_terminal(self) -> bool:
        rules_state: Any = self.rules_state
        if rules_state.__class__ is GameState:  # GameState.is_terminal, one call fewer
            return bool(_kept_player(rules_state) == _TERMINAL)
        return bool(rules_state.is_terminal())

    def returns(self) -> list[float]:
        return self.rules_state.returns()

    def __str__(self) -> str:
        return repr(self.rules_state)

    # -- beyond the basic API -------------------------------------------------------------------
    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (OpenSpiel's ``UndoAction``), which must be ``action``
        by ``player``. The Python side (``rules_state``, :meth:`history`,
        :meth:`move_number`, every observation) goes back; OpenSpiel's C++ record of the
        history cannot be shortened from Python, so C++ code that reads it directly
        (``serialize``) still lists the undone action.

        Raises:
            MalformedInput: nothing to undo, or the last action was another one.
        """
        undo = self._undo
        last = self.rules_state.history()
        if not last:
            raise MalformedInput("undo_action: no action to take back")
        if undo is None:  # past the kept states (or unpickled): rebuild the last ones
            undo = _recent(self.rules_state, _UNDO_KEPT)
        before: Any = undo.state
        actor = before.current_player()
        if last[-1] != int(action) or actor != int(player):
            raise MalformedInput(f"undo_action: the last action was {last[-1]} by {actor}, "
                                 f"not {action} by {player}")
        self.rules_state = before
        self._undo = undo.prev

    def history(self) -> list[int]:
        """Every action and chance outcome applied, oldest first (the Python record, which
        :meth:`undo_action` shortens)."""
        return self.rules_state.history()

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self.history())

    def move_number(self) -> int:
        return len(self.history())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesSpielState:
        """A state drawn from those ``player_id`` cannot tell from this one (OpenSpiel's
        ``ResampleFromInfostate``, used by ISMCTS): hidden cards, deals and the others'
        hidden decisions as the game's sampler draws them
        (:meth:`ruleproof.model.api.GameBase.resample_history`), seeded from
        ``probability_sampler`` (or a ``random.Random``). The new state has the same
        information state for ``player_id``; its pyspiel history is the drawn one."""
        drawn = self.rules_state.resample(  # type: ignore[attr-defined]
            int(player_id), _rng_from(probability_sampler))
        out = self.get_game().new_initial_state()
        out._replay = _chain(drawn)
        for a in drawn.history():
            out.apply_action(a)
        out._replay = None
        return out  # type: ignore[no-any-return]

    def observation_tensor(self, player: int | None = None) -> np.ndarray[Any, Any]:
        """The observation tensor of ``player`` (default: the player to move) as a new numpy
        ``float32`` array, filled from the default observer's incremental buffers (OpenSpiel's
        C++ method answers a list of floats, several times slower for a long tensor).

        Raises:
            RuntimeError: no player given at a chance node or once the game is over (as
                OpenSpiel's).
        """
        if player is None:
            player = self.current_player()
        n = self._rules_game.num_players
        if not 0 <= int(player) < n:
            raise RuntimeError(f"player >= 0 and player < {n} required, got {player}")
        observer = _default_observer(self.get_game())
        observer.set_from(self, int(player))
        assert observer.tensor is not None  # the default observation always has a tensor
        return observer.tensor.copy()


def _kept_player(rules_state: GameState) -> int:
    """The player to move of a :class:`GameState`: the seat, CHANCE or TERMINAL it keeps once
    computed (``_cp``), else computed now. The one place this module reads that field."""
    cp: int | None = rules_state._cp
    return rules_state.current_player() if cp is None else cp


_FRACTION_SLOTS = Fraction.__slots__ == ("_numerator", "_denominator")
"""Whether a ``Fraction`` keeps its parts in these slots (CPython 3.11-3.13): then a
probability is converted as ``_numerator / _denominator``, what ``float`` computes for it
(``numbers.Rational.__float__``, correctly rounded) without its two property calls; else by
``float``."""


def _recent(state: Any, kept: int) -> _Undo:
    """The undo stack of ``state`` (a history of at least one action): the states before its
    last ``kept`` actions, newest on top, rebuilt by replaying the history from its start."""
    ids = state.history()
    first = len(ids) - kept
    current = state.game.from_model(state.base, state.base_moves)
    stack: _Undo | None = None
    for k, a in enumerate(ids):
        if k >= first:
            stack = _Undo(current, stack)
        current = current.apply(a)
    assert stack is not None
    return stack


def _chain(state: Any) -> list[RulesState]:
    """The states along ``state``'s history, newest first (a stack for ``_replay``)."""
    ids = state.history()
    start = state.game.from_model(state.base, state.base_moves)
    out = [start]
    for a in ids:
        out.append(out[-1].apply(a))
    out.pop(0)
    out.reverse()
    return out


def _default_observer(game: Any) -> RulesObserver:
    """The game's own default observer for :meth:`RulesSpielState.observation_tensor` (made
    once, kept on the game object)."""
    found = game.__dict__.get("_tensor_observer")
    if found is None:
        found = game.__dict__["_tensor_observer"] = game.make_py_observer()
    return found  # type: ignore[no-any-return]


class RulesObserver:
    """The PyObserver of a ruleproof game for one :class:`~ruleproof.model.api.ObsView`:
    ``tensor`` (float32, flat; None for a perfect-recall view other than the information
    state, or when the game offers no information-state tensor), ``dict`` (one entry
    ``observation``), ``set_from``, ``string_from``.

    The default observation is filled incrementally: through the game's own writer when it
    offers one (``observation_writer()``: it remembers what the tensor holds and rewrites only
    what the engine changed), else per seat a buffer keeps the sections that lie unchanged
    between calls (the game's ``observation_index_parts``), so a call writes only what
    changed.
    """

    def __init__(self, rules: RulesGame, view: ObsView | bool = OBSERVATION,
                 params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if isinstance(view, bool):  # the earlier signature: perfect_recall
            view = INFORMATION_STATE if view else OBSERVATION
        self.view = view
        self.perfect_recall = view.recall
        self.rules = rules
        self._layout: ViewLayout | None = None
        self._incremental = False
        size: int | None
        if view.recall:
            tensor_ok = view == INFORMATION_STATE and bool(
                getattr(rules, "provides_information_state_tensor", False))
            size = rules.information_state_tensor_shape[0] if tensor_ok else None
        else:
            layout = rules.view_layout(view) if hasattr(rules, "view_layout") else None
            self._layout = layout
            size = layout.size if layout is not None else rules.observation_tensor_shape[0]
            self._incremental = layout is not None and layout.identity and \
                hasattr(rules, "observation_index_parts")
        self.tensor: np.ndarray[Any, Any] | None = None if size is None else \
            np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {} if self.tensor is None else \
            {"observation": self.tensor}
        self._written = _SeatBuffer()
        # the game's own incremental writer, if it offers one (used for its own states)
        self._writer: Any = rules.observation_writer() \
            if self._incremental and hasattr(rules, "observation_writer") else None
        self._writer_owns = False  # whether the writer wrote the tensor last
        # the writer writes through a memoryview of the tensor (an item assignment costs
        # about half of numpy's)
        self._buffer: Any = None if self._writer is None or self.tensor is None else \
            memoryview(self.tensor)  # type: ignore[arg-type]

    def __deepcopy__(self, memo: dict[int, Any]) -> RulesObserver:
        return self

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_buffer"] = None  # a memoryview does not pickle: made again on loading
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._writer is not None and self.tensor is not None:
            self._buffer = memoryview(self.tensor)  # type: ignore[arg-type]

    def set_from(self, state: RulesSpielState, player: int) -> None:
        if self._writer_owns:  # the game's writer wrote last: the usual case, first
            rules_state: Any = state.rules_state
            if rules_state.game is self.rules:
                self._writer.write(rules_state, player, self._buffer)
                return
        tensor = self.tensor
        if tensor is None:
            return
        rules_state = state.rules_state
        if self.view.recall:
            tensor.fill(0.0)
            tensor[rules_state.information_state_indices(player)] = 1.0
            return
        if self._incremental:
            writer = self._writer
            if writer is not None and rules_state.game is self.rules:
                if not self._writer_owns:  # the section buffer wrote last: start afresh
                    tensor.fill(0.0)
                    writer.forget()
                    self._written = _SeatBuffer()
                    self._writer_owns = True
                writer.write(rules_state, player, self._buffer)
                return
            if self._writer_owns:
                tensor.fill(0.0)
                self._written = _SeatBuffer()
                self._writer_owns = False
            self._written.fill(rules_state, player, tensor)
            return
        tensor.fill(0.0)
        if self._layout is not None:
            tensor[rules_state.view_indices(player, self.view)] = 1.0
        else:
            tensor[:] = rules_state.observation_tensor(player)

    def string_from(self, state: RulesSpielState, player: int) -> str:
        rules_state: Any = state.rules_state
        if hasattr(rules_state, "view_string"):
            return str(rules_state.view_string(player, self.view))
        if self.perfect_recall:
            return str(rules_state.information_state_string(player))
        return str(rules_state.observation_string(player))


class _SeatBuffer:
    """What the observer's tensor holds, section by section, so a call rewrites only what
    changed: ``written[k]`` is the index list last written for section ``k`` (the game's
    ``observation_index_parts``) and, for a long section, its numpy form. A section is
    rewritten only when the game hands a list that is neither the same object (the game keeps
    the object while the section is unchanged, through ``memo``, shared by the seats: what a
    game keeps there does not depend on the seat, ``observation_index_parts``) nor equal to
    the one written, so switching seats rewrites only the sections that differ between them.
    A short section (at most :data:`_SHORT` entries, e.g. the counters that change every
    step) is written entry by entry: cheaper than building an index array for it."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        self.written: list[tuple[list[int], np.ndarray[Any, Any] | None]] = []
        self.game: Any = None

    def fill(self, state: Any, player: int, out: np.ndarray[Any, Any]) -> None:
        if state.game is not self.game:  # another game (or a resampled one's start): restart
            self.game = state.game
            self.memo.clear()
            self.written = []
            out.fill(0.0)
        parts = state.observation_index_parts(player, self.memo)
        written = self.written
        if len(written) != len(parts):  # another shape of sections: start afresh
            out.fill(0.0)
            written = self.written = [([], None)] * len(parts)
        for k, part in enumerate(parts):
            old, where = written[k]
            if part is old:
                continue
            if part == old:
                written[k] = (part, where)
                continue
            if where is not None:
                out[where] = 0.0
            else:
                for i in old:
                    out[i] = 0.0
            if len(part) <= _SHORT:
                for i in part:
                    out[i] = 1.0
                written[k] = (part, None)
            else:
                where = np.array(part, np.intp)
                out[where] = 1.0
                written[k] = (part, where)


_SHORT = 12
"""Sections of at most this many entries are written entry by entry (:class:`_SeatBuffer`)."""


def _camel(package: str) -> str:
    return "".join(part.title() for part in package.split("_"))


@cache
def register(name: str) -> type[RulesSpielGame]:
    """Register the game ``name`` of the registry with pyspiel as :func:`spiel_name` (once per
    process; later calls return the same class).

    Returns:
        its game class (a :class:`RulesSpielGame`).

    Raises:
        MalformedInput: an unknown game (naming the known ones).
    """
    p = plugin(name)
    kind = game_type(p)
    cls = type(f"{_camel(p.package)}SpielGame", (RulesSpielGame,),
               {"game_type": kind, "game_name": p.name, "__module__": __name__,
                "__doc__": f"``{spiel_name(p.name)}``: {p.title} (``{p.name}``)."})
    pyspiel.register_game(kind, cls)
    return cls


def register_all() -> dict[str, str]:
    """Register every game of the registry; returns game name -> OpenSpiel name."""
    out = {}
    for name in plugins():
        register(name)
        out[name] = spiel_name(name)
    return out


REGISTERED = register_all()
"""The games registered on import: game name -> OpenSpiel name."""


def __getattr__(attr: str) -> Any:
    """``<PACKAGE>_NAME``, ``<PACKAGE>_PARAMS`` and ``<Package>SpielGame`` of each registered
    game (see the module docstring).

    Raises:
        AttributeError: no registered game has that name.
    """
    for p in plugins().values():
        upper = p.package.upper()
        if attr == f"{upper}_NAME":
            return spiel_name(p.name)
        if attr == f"{upper}_PARAMS":
            return parameter_specification(p)
        if attr == f"{_camel(p.package)}SpielGame":
            return register(p.name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


__all__ = ["REGISTERED", "RulesObserver", "RulesSpielGame", "RulesSpielState", "game_params",
           "game_type", "parameter_specification", "register", "register_all", "spiel_name",
           "view_of"]
