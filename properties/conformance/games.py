"""The model of a game as the conformance harness sees it: written once over the game
interface (:mod:`ruleproof.model.api`), the game's plugin record and its ``conformance``
capability.

The harness speaks the language-neutral vocabulary of traces and the engine protocol: action
strings, a *public state* object (a JSON object whose fields the game lists), an explicit
set-up object, and clause ids to blame for a difference. :class:`GameModel` gives it that
vocabulary for any registered game:

* from the interface (:class:`~ruleproof.model.api.GameState`): who is to move, the legal
  actions in the engine's order (their strings are the action table's notation), applying an
  action, chance outcomes (at a chance node the legal actions are the outcomes);
* from the plugin record (:class:`~ruleproof.properties.plugin.GamePlugin`): the name, the
  player counts, the expansions;
* from the capability (:class:`ConformanceGame`, registered by each game folder as
  ``capabilities={"conformance": ...}`` in ``properties/<game>/plugin.py``): what only the game
  knows, its set-up codec (set-up <-> JSON, the presets and rule options a set-up may vary), its
  action notation, the JSON of its observer (public state, each player's observation, the field
  types) and the few blame hooks that depend on its rules (field -> clause maps, clause
  contracts, the engine's successor rebuilt as a typed state, registered readings, probes).

:func:`model_of` finds the model of a game by name: an unknown name is refused naming the
known games, a game without the capability with the reason (:func:`~ruleproof.properties.
plugin.require`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import GameState
from ruleproof.properties.conformance.blame import (
    CONTRACT,
    HEURISTIC,
    MODEL,
    SETUP,
    Blame,
    first_of,
    forbidding,
    permitting,
    separating,
)
from ruleproof.properties.conformance.diff import diff_states
from ruleproof.properties.conformance.jsontypes import Named, field_problem
from ruleproof.properties.conformance.stepped import Stepped
from ruleproof.properties.contracts.core import Contract
from ruleproof.properties.plugin import GamePlugin, plugin, require

CAPABILITY = "conformance"
"""The capability name a game's plugin record gives its :class:`ConformanceGame` under."""

REDUCED_KEY = "reduced"
"""Options key naming a reduced configuration (``spec/<game>/reduced/NAME.toml``): explorer traces
replay on the reduced game (docs/explore.md)."""

EXPANSION_KEY = "expansion"
"""The trace header's ``expansion`` travels with the options under this key; engines receive it
as the ``expansion`` field of ``new_game``."""

PRESET_KEY = "preset"
"""The trace header's ``preset`` travels with the options under this key; engines receive it as
the ``preset`` field of ``new_game``."""

START_KEY = "start_player"
"""The set-up field naming the start player (games whose set-up names one)."""

NAMES_KEY = "names"
"""The set-up field naming the players, one per seat (games whose set-up names them)."""

DEFAULT_NAMES = ("Anna", "Bohdan", "Cecílie", "Dan", "Eva", "Filip")
"""The player names of a set-up unless the harness varies them (in seat order, which is also
their sorted order)."""
NAME_POOL = ("Anna", "Bohdan", "Cecílie", "Dan", "Eva", "Filip", "Žofie", "anna", "Zoe", "Ödön")
"""Names the harness draws from, with replacement: duplicates occur, and sorting them by code
point (capitals, small letters, accented letters) rarely gives the seat order."""
MAX_NAME = 40
"""Longest player name an explicit set-up may carry."""

STEP_ERRORS = (IllegalAction, MalformedInput, ValueError, AssertionError, IndexError, KeyError)
"""What stepping or reading a state under another reading of the rules may raise (that reading
then does not reproduce a report)."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name (None if it can): a blank name, or one with a
    control, format (bidi overrides, zero-width) or line/paragraph separator character, which
    would garble one-line reports."""
    if not name.strip():
        return "a name must not be blank"
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn",
                                                               "Zl", "Zp")), None)
    if bad is not None:
        return (f"a name must not hold control, format or separator characters "
                f"(U+{ord(bad):04X})")
    return None


@dataclass(frozen=True)
class FieldTypes:
    """The JSON types of a game's observer fields, in the little type language of
    :mod:`~ruleproof.properties.conformance.jsontypes`.

    Attributes:
        public: public-state field -> type (these are the public state's fields).
        private: the fields an observation adds (what one player alone sees) -> type.
        words: type -> how an error message names it (``an integer or null``).
        named: the game's own named types (checked by a predicate).
    """

    public: Mapping[str, str]
    private: Mapping[str, str]
    words: Mapping[str, str]
    named: Named


@dataclass(frozen=True)
class Alternative:
    """The state of a game under another reading of a registered ambiguity.

    Attributes:
        clauses: the clauses supporting the *model's* reading (blamed when the alternative
            reproduces what an engine reported), most specific first; empty: not blamed.
        state: the state with the other reading in force.
    """

    clauses: tuple[str, ...]
    state: GameState


@dataclass(frozen=True)
class SetupVariant:
    """A set-up an engine may have played instead of the one it was sent: one set-up field
    ignored or misread (the start player, the seating, the expansion, the board's lids).

    Attributes:
        field: the set-up field (``start player``, ``seating``, ``expansion``, ``deal``).
        clauses: the set-up clauses that field implements (blamed when the variant reproduces
            what the engine reported).
        players, options, setup: the variant (``options`` with ``preset``/``expansion``).
    """

    field: str
    clauses: tuple[str, ...]
    players: int
    options: Mapping[str, str]
    setup: Mapping[str, Any]


class ConformanceGame(Protocol):
    """The ``conformance`` capability: what the harness needs to know of one game beyond the
    interface and the plugin record. States are the interface's :class:`GameState`; what the
    game's engine keeps is ``state.model``.

    Set-up codec (set-up <-> JSON):

    * :attr:`has_start_player`, :attr:`has_names`: whether the explicit set-up names a start
      player (:data:`START_KEY`) or the players (:data:`NAMES_KEY`); the harness varies them;
    * :meth:`presets`, :meth:`player_counts`, :meth:`option_values`, :meth:`option_owners`:
      the rule sets and options a set-up may vary;
    * :meth:`start`, :meth:`setup_of`, :meth:`setup_json`: states from seeds or explicit
      set-ups, and the explicit set-up of a deal;
    * :meth:`parse`: the game's action notation.

    Observer (what engines report): :attr:`field_types`, :attr:`observed_players`,
    :meth:`public_state`, :meth:`observation`, :meth:`turn_of`, :meth:`choice_order`.

    Blame (clause ids for a difference): :meth:`cited`, :attr:`field_priority`,
    :meth:`field_clauses`, :meth:`withheld_clauses`, :meth:`contracts`, :meth:`scope`,
    :meth:`engine_post`, :meth:`alternatives`, :meth:`restore`, :meth:`localise`,
    :meth:`probe_actions`.
    """

    # -- set-up codec ---------------------------------------------------------------------
    @property
    def has_start_player(self) -> bool:
        """True if the explicit set-up names the start player (``start_player``)."""
        ...

    @property
    def has_names(self) -> bool:
        """True if the explicit set-up names the players (``names``, one per seat)."""
        ...

    def presets(self) -> tuple[str, ...]:
        """The presets (rule sets) a set-up may name, default first; empty for a game whose
        set-up names none."""
        ...

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        """The player counts the options (with a ``preset`` entry, if any) allow.

        Raises:
            MalformedInput: an unknown preset.
        """
        ...

    def option_values(self) -> dict[str, tuple[str, ...]]:
        """Every rule option a set-up may vary with its values as strings, default first (the
        expansion is not one of them: see the plugin's ``expansions``)."""
        ...

    def option_owners(self) -> Mapping[str, str]:
        """Rule option -> the expansion it belongs to (counted only in games playing it)."""
        ...

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        """The state after the set-up, from a seed or an explicit set-up (JSON), on the game's
        interface (the harness bounds games itself: no truncation).

        Raises:
            MalformedInput: bad player count, option, or set-up (naming the field).
        """
        ...

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        """The explicit set-up (JSON) that ``seed`` deals; engines receive this, not the seed.

        Raises:
            MalformedInput: bad player count or option.
        """
        ...

    def setup_json(self, state: GameState) -> dict[str, Any]:
        """The explicit set-up (JSON) of a state whose opening chance nodes are done."""
        ...

    def parse(self, action: str) -> Any:
        """The typed action written ``action`` in the game's notation.

        Raises:
            ValueError: not an action of this game (the message says what is expected).
        """
        ...

    # -- observer -------------------------------------------------------------------------
    @property
    def field_types(self) -> FieldTypes:
        """The JSON types of the public state's and the observations' fields."""
        ...

    @property
    def observed_players(self) -> tuple[int, ...]:
        """Players whose observations the harness asks the engine for after every step
        (games with hidden information; empty when the public state says everything)."""
        ...

    def public_state(self, state: GameState) -> dict[str, Any]:
        """The public state: a JSON object whose fields are those of ``field_types.public``
        (a field may be absent where it does not apply, e.g. an expansion's)."""
        ...

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        """What ``player`` sees: ``player``, the public state and its private fields.

        Raises:
            MalformedInput: no such player.
        """
        ...

    def turn_of(self, state: GameState) -> int | None:
        """Whose turn it is (the player whose turn the current decision belongs to), None at
        a chance node with no turn."""
        ...

    def choice_order(self, state: GameState, actions: tuple[Any, ...]) -> Sequence[Any]:
        """The legal typed ``actions`` (the engine's order) in the order the differential
        search draws them by index (index 0 first: hypothesis's simplest games take it)."""
        ...

    # -- blame ----------------------------------------------------------------------------
    def cited(self, before: GameState, after: GameState) -> tuple[str, ...]:
        """The clause ids the model's transition ``before -> after`` used (its events)."""
        ...

    @property
    def field_priority(self) -> tuple[str, ...]:
        """The field fallback's order of fields (causes before consequences)."""
        ...

    def field_clauses(self, name: str, expected: Mapping[str, Any],
                      reported: Mapping[str, Any]) -> tuple[str, ...]:
        """The clauses that change public-state or observation field ``name`` (given the
        model's ``expected`` and the engine's ``reported`` values: an expansion's clauses
        first when it is played)."""
        ...

    def withheld_clauses(self, action: str) -> tuple[str, ...]:
        """The fallback for an action the model allows and an engine withholds or refuses
        when no contract permits it: clauses about the action's kind."""
        ...

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        """The clause contracts of the rule set ``state`` is played under."""
        ...

    def scope(self, state: GameState) -> Mapping[tuple[str, str], float]:
        """How often each contract of ``state``'s rule set is in play in sampled games of it
        (:func:`~ruleproof.properties.conformance.blame.scope_of`)."""
        ...

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[Any, tuple[Any, ...]] | None:
        """The engine's successor as a typed engine state: the model's successor ``state``
        with every field the engine reported (its public state, or ``observer``'s
        observation) substituted, and the model's successor with one differing field
        substituted each. None if the report cannot be read as a state."""
        ...

    def alternatives(self, state: GameState, options: Mapping[str, str]
                     ) -> Iterable[Alternative]:
        """``state`` under every other value of every registered ambiguity's rule option,
        with the clauses supporting the model's reading."""
        ...

    def restore(self, alternative: GameState, state: GameState) -> GameState:
        """``alternative`` (stepped under another reading) with ``state``'s reading put back,
        so that its observer JSON compares with the model's."""
        ...

    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        """``clauses`` as the rule set in ``options`` cites them (its own document first)."""
        ...

    def probe_actions(self, state: GameState) -> list[str]:
        """A few plausible actions the model forbids in ``state`` (an engine must refuse
        them); none of them legal."""
        ...


def successor(state: GameState, action: Any) -> GameState:
    """``state.apply_typed(action)``; when the interface refuses the action, the rules' own
    refusal (the :class:`IllegalAction` of the game's step, with its reason and clauses) is
    raised, so an action outside the action tables is judged by the rules like any other.

    Raises:
        IllegalAction: the model forbids the action.
    """
    try:
        return state.apply_typed(action)
    except IllegalAction as refused:
        try:
            state.game.model_step(state.model, action)
        except IllegalAction as by_rules:
            raise by_rules from None
        raise refused from None


def rules_refusal(state: GameState, action: Any) -> tuple[str, ...]:
    """The clause ids the rules give for refusing ``action`` in ``state`` (empty if they do
    not refuse it)."""
    try:
        state.game.model_step(state.model, action)
    except IllegalAction as exc:
        return exc.clauses
    return ()


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def field_fallback(fields: Sequence[str], happened: Iterable[str],
                   by_field: Mapping[str, tuple[str, ...]], priority: Sequence[str]
                   ) -> tuple[str, ...]:
    """The fallback when no contract separates the steps: the clauses mapped to the differing
    fields (fields in ``priority`` order), those the model's transition cited first; at most
    four."""
    done = set(happened)
    ordered = sorted(fields, key=lambda f: priority.index(f) if f in priority else len(priority))
    candidates = _dedup(c for f in ordered for c in by_field.get(f, ()))
    hit = tuple(c for c in candidates if c in done)
    return _dedup([*hit, *candidates])[:4]


@dataclass(frozen=True)
class GameModel:
    """The model of one game in the harness's vocabulary (action strings, JSON public states,
    clause blame), from the interface, the plugin record and the ``conformance`` capability.

    Attributes:
        plugin: the game's plugin record.
        spec: its :class:`ConformanceGame` capability.
    """

    plugin: GamePlugin
    spec: ConformanceGame

    # -- identity and set-up --------------------------------------------------------------
    @property
    def name(self) -> str:
        """The game's name in traces and on the command line."""
        return self.plugin.name

    @property
    def min_players(self) -> int:
        """Fewest players."""
        return min(self.plugin.game_type.players)

    @property
    def max_players(self) -> int:
        """Most players."""
        return max(self.plugin.game_type.players)

    @property
    def state_fields(self) -> frozenset[str]:
        """The fields of the public state."""
        return frozenset(self.spec.field_types.public)

    @property
    def observed_players(self) -> tuple[int, ...]:
        """Players whose observations are compared after every step."""
        return self.spec.observed_players

    @property
    def has_start_player(self) -> bool:
        """True if the explicit set-up names the start player (then it is varied)."""
        return self.spec.has_start_player

    @property
    def has_names(self) -> bool:
        """True if the explicit set-up names the players (then the names are varied)."""
        return self.spec.has_names

    @property
    def default_preset(self) -> str:
        """The preset used when none is given ('' for a game whose set-up names none)."""
        found = self.spec.presets()
        return found[0] if found else ""

    def presets(self) -> tuple[str, ...]:
        """The presets a set-up may name, default first (empty: none)."""
        return self.spec.presets()

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        """The player counts ``options`` allow. Raises MalformedInput (an unknown preset)."""
        return self.spec.player_counts(options)

    def option_values(self) -> dict[str, tuple[str, ...]]:
        """Every rule option with its values as strings, default first."""
        return self.spec.option_values()

    def option_owners(self) -> Mapping[str, str]:
        """Rule option -> the expansion it belongs to."""
        return self.spec.option_owners()

    def expansions(self) -> tuple[str, ...]:
        """The game's expansions (sent as ``expansion`` in ``new_game``)."""
        return tuple(self.plugin.expansions)

    def with_start_player(self, setup: Mapping[str, Any], player: int) -> dict[str, Any]:
        """``setup`` with another start player (unchanged if the set-up names none)."""
        return {**setup, START_KEY: player} if self.has_start_player else dict(setup)

    def with_names(self, setup: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
        """``setup`` with other player names, one per seat (unchanged if it names none)."""
        return {**setup, NAMES_KEY: list(names)} if self.has_names else dict(setup)

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        """The state after the set-up (seed or explicit set-up). Raises MalformedInput."""
        return self.spec.start(players, options, seed, setup)

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        """The explicit set-up (JSON) ``seed`` deals. Raises MalformedInput."""
        return self.spec.setup_of(players, options, seed)

    # -- play (the interface) -------------------------------------------------------------
    def legal(self, state: GameState) -> list[str]:
        """The legal action strings in the engine's order (at a chance node: the outcomes;
        none once the game is over)."""
        return [str(a) for a in state.legal_typed_actions()]

    def choosable(self, state: GameState) -> list[str]:
        """The legal actions the differential search chooses among, in the order its index
        draws address them (the game's :meth:`ConformanceGame.choice_order`)."""
        return [str(a) for a in self.spec.choice_order(state, state.legal_typed_actions())]

    def apply(self, state: GameState, action: str) -> Stepped:
        """Apply an action string.

        Raises:
            ValueError: the string is not an action of this game.
            IllegalAction: the model forbids it (with clause ids).
        """
        new = successor(state, self.spec.parse(action))
        return Stepped(new, self.spec.cited(state, new))

    def to_move(self, state: GameState) -> int | None:
        """The player to move, or None at a chance node and when the game is over."""
        player = state.current_player()
        return player if player >= 0 else None

    def turn_of(self, state: GameState) -> int | None:
        """Whose turn it is (None at a chance node with no turn)."""
        return self.spec.turn_of(state)

    # -- observer -------------------------------------------------------------------------
    def public_state(self, state: GameState) -> dict[str, Any]:
        """The public state as a JSON object."""
        return self.spec.public_state(state)

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        """The observation of ``player``. Raises MalformedInput (no such player)."""
        return self.spec.observation(state, player)

    def state_identity(self, state: GameState) -> str:
        """What identifies ``state`` without its history (``ruleproof perft`` counts distinct
        states by it): the capability's optional ``state_identity(state) -> str`` (a canonical
        text of everything its future depends on), else the public state and every observed
        player's observation as canonical JSON (faithful only where they show the whole
        state)."""
        hook = getattr(self.spec, "state_identity", None)
        if hook is not None:
            return str(hook(state))
        return json.dumps([self.public_state(state),
                           [self.observation(state, p) for p in self.observed_players]],
                          sort_keys=True, separators=(",", ":"))

    def check_action(self, action: str) -> str | None:
        """None if ``action`` is written in the game's action notation, else what is wrong."""
        try:
            self.spec.parse(action)
        except ValueError as exc:
            return str(exc)
        return None

    def check_field(self, name: str, value: Any) -> str | None:
        """None if ``value`` has the JSON type of field ``name`` (public or private), else
        what is wrong."""
        types = self.spec.field_types
        return field_problem(name, value, {**types.public, **types.private}, types.words,
                             types.named)

    # -- blame ----------------------------------------------------------------------------
    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        """``clauses`` as the rule set in ``options`` cites them."""
        return self.spec.localise(clauses, options)

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        """The clause contracts of the rule set ``state`` is played under."""
        return self.spec.contracts(state)

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[Any, tuple[Any, ...]] | None:
        """The engine's successor as typed engine states (see
        :meth:`ConformanceGame.engine_post`)."""
        return self.spec.engine_post(previous, action, state, reported, observer)

    def probe_actions(self, state: GameState) -> list[str]:
        """A few plausible actions the model forbids in ``state``."""
        return self.spec.probe_actions(state)

    def setup_variants(self, players: int, options: Mapping[str, str],
                       setup: Mapping[str, Any]) -> tuple[SetupVariant, ...]:
        """The set-ups an engine ignoring or misreading one set-up field would play (the
        capability's optional ``setup_variants``; none without it)."""
        hook = getattr(self.spec, "setup_variants", None)
        return tuple(hook(players, options, setup)) if hook is not None else ()

    def blame_setup(self, players: int, options: Mapping[str, str], setup: Mapping[str, Any],
                    actions: Sequence[str], reported: Mapping[str, Any]) -> Blame:
        """The set-up clauses of the first :meth:`setup_variants` entry under which the model,
        playing ``actions``, reaches exactly the ``reported`` public state (mechanism
        ``set-up``); an empty blame if none does."""
        for variant in self.setup_variants(players, options, setup):
            try:
                state = self.start(variant.players, variant.options, None, variant.setup)
                for action in actions:
                    state = self.apply(state, action).state
            except (MalformedInput, IllegalAction, ValueError):
                continue
            if not diff_states(self.public_state(state), reported)[0]:
                return Blame(variant.clauses, SETUP)
        return Blame((), "")

    def blame_state(self, expected: Mapping[str, Any], reported: Mapping[str, Any],
                    fields: Sequence[str], happened: Iterable[str]) -> tuple[str, ...]:
        """The fallback when no contract or reading separates the steps: clause ids mapped to
        the differing ``fields`` of the model's ``expected`` and the ``reported`` public state,
        those cited by the model's transition (``happened``) first."""
        return field_fallback(fields, happened,
                              {f: self.spec.field_clauses(f, expected, reported) for f in fields},
                              self.spec.field_priority)

    def blame_extra(self, state: GameState, action: str) -> Blame:
        """Clause ids forbidding ``action``, which an engine offered or accepted and the model
        does not: the contracts forbidding it, else the rules' IllegalAction clauses."""
        try:
            parsed = self.spec.parse(action)
        except ValueError:
            return Blame((), "")
        if parsed in state.legal_typed_actions():
            return Blame((), "")
        return first_of(Blame(forbidding(self.contracts(state), state.model, parsed), CONTRACT),
                        Blame(rules_refusal(state, parsed), MODEL))

    def blame_missing(self, state: GameState, action: str) -> Blame:
        """Clause ids allowing ``action``, which the model offers and an engine withholds or
        refuses: the contracts permitting it, else clauses about the action's kind."""
        try:
            parsed = self.spec.parse(action)
        except ValueError:
            return Blame((), "")
        return first_of(Blame(permitting(self.contracts(state), state.model, parsed), CONTRACT),
                        Blame(self.spec.withheld_clauses(action), HEURISTIC))

    def blame_contracts(self, previous: GameState, action: str, state: GameState,
                        reported: Mapping[str, Any], observer: int | None = None
                        ) -> tuple[str, ...]:
        """Clauses whose contracts the model's step ``previous --action--> state`` satisfies
        and the engine's step (its reported public state, or the observation of ``observer``,
        rebuilt as a typed state) breaks, most specific first
        (:func:`~ruleproof.properties.conformance.blame.separating`); empty if none does."""
        built = self.engine_post(previous, action, state, reported, observer)
        if built is None:
            return ()
        engine, single = built
        return separating(self.contracts(previous), previous.model, self.spec.parse(action),
                          state.model, engine, single, self.spec.scope(previous))

    def blame_reading(self, previous: GameState | None, action: str | None, state: GameState,
                      reported_state: Mapping[str, Any] | None,
                      reported_legal: Sequence[str] | None, options: Mapping[str, str], *,
                      observer: int | None = None) -> tuple[str, ...]:
        """The clauses of the model's reading of a registered ambiguity when the engine's
        report is exactly what another reading gives: ``reported_state`` (or the observation
        of ``observer``) after ``action`` from ``previous``, or ``reported_legal`` in
        ``state``. Empty if no other reading reproduces the report."""
        if reported_state is not None:
            if previous is None or action is None:
                return ()
            parsed = self.spec.parse(action)
            for alt in self.spec.alternatives(previous, options):
                try:
                    new = successor(alt.state, parsed)
                except STEP_ERRORS:
                    continue
                new = self.spec.restore(new, state)
                got = (self.public_state(new) if observer is None
                       else self.observation(new, observer))
                keys = [k for k in reported_state if k in got and k != "player"]
                if keys and all(got[k] == reported_state[k] for k in keys) and alt.clauses:
                    return alt.clauses
            return ()
        if reported_legal is not None:
            wanted = set(reported_legal)
            for alt in self.spec.alternatives(state, options):
                try:
                    got_legal = set(self.legal(alt.state))
                except STEP_ERRORS:
                    continue
                if got_legal == wanted and alt.clauses:
                    return alt.clauses
        return ()


def model_of(game: str) -> GameModel:
    """The harness's model of ``game`` (the registered game of that name).

    Raises:
        MalformedInput: an unknown game, naming the known ones; ``Unsupported`` (a
            MalformedInput) for a game whose plugin gives no ``conformance`` capability.
    """
    found = plugin(game)
    return GameModel(found, require(found, CAPABILITY, "conformance checking (replay, conform)"))


__all__ = ["CAPABILITY", "DEFAULT_NAMES", "EXPANSION_KEY", "MAX_NAME", "NAMES_KEY", "NAME_POOL",
           "PRESET_KEY", "REDUCED_KEY", "START_KEY", "Alternative", "ConformanceGame",
           "FieldTypes", "GameModel", "Stepped", "field_fallback", "model_of", "name_problem",
           "rules_refusal", "successor"]
