"""The interface through which an expansion plugs into the base game of Dawn Under.

The base engine (:mod:`ruleproof.model.dawn_under.engine`) applies the base rules (du-en). An
expansion, chosen by the rule option ``expansion``, adds actions, phases and its own part of
the state by overriding a few hooks of :class:`Expansion`, the way python-chess's variants
override a few methods of the base board. The base engine calls the hooks at fixed points of
a turn and treats the expansion's part of the state (``State.extension``) as opaque.

Hook points, in the order of a turn:

* set-up: :meth:`Expansion.initial` gives the expansion's part of the initial state;
* a turn starts: :meth:`Expansion.on_turn_start`;
* legal actions: :meth:`Expansion.closed_graves` (graves that cannot be opened now),
  :meth:`Expansion.extra_actions` (added to the choice of the opening phase) and, in the
  expansion's own phases, :meth:`Expansion.current_player` and :meth:`Expansion.legal_actions`;
* transitions: :meth:`Expansion.step` for the expansion's actions and phases,
  :meth:`Expansion.on_opened`, :meth:`Expansion.on_placed`, :meth:`Expansion.on_unmatched`
  and :meth:`Expansion.after_gifts` inside the base transitions;
* the turn ends: :meth:`Expansion.end_turn`;
* diagnosis and logs: :meth:`Expansion.why_illegal`, :meth:`Expansion.event_text`;
* the game interface (:mod:`ruleproof.model.dawn_under.game`): :attr:`Expansion.phases` and
  :meth:`Expansion.table_actions` (appended to the fixed action table, so an action's id does
  not depend on the expansion chosen), :meth:`Expansion.observation_line`,
  :meth:`Expansion.tensor_sections` and :meth:`Expansion.tensor_bits`.

The transition hooks (:meth:`Expansion.step` and the ``on_*``, ``after_gifts`` and
``end_turn`` hooks) get the transition's *draft*: a writable copy of the state the
transition started from, which the engine seals as a frozen ``State`` before it returns it
(``engine._Draft``; the states anyone holds never change). A hook changes it with
``engine.with_changes`` (which writes into a draft) or ``engine.writable(state).field =
value`` and returns it; ``dataclasses.replace`` of it gives another draft, sealed as well. A
draft reads like a ``State`` but is not an instance of it. The expansion's own part may be
drafted the same way (``engine.slot_updater``; sealed with the state). The other hooks get
sealed states.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.expansions import DAWN_UNDER_EXPANSIONS

if TYPE_CHECKING:
    from ruleproof.model.dawn_under.state import Action, Config, Event, State


class Expansion:
    """The hooks an expansion overrides; every default leaves the base rules unchanged.

    Attributes:
        name: the value of the rule option ``expansion`` that selects it.
        options: the expansion's own rule options: name -> allowed values, the default first.
    """

    name: str = ""
    options: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 (read-only by convention)
    phases: tuple[Any, ...] = ()
    """The expansion's own phases (enum members), appended to the base game's in the
    observation tensor's phase section."""
    components: tuple[str, ...] = ()
    """The manifest facts (``spec/dawn_under/components.toml``) that give the expansion's
    component numbers; ``make_config`` puts their values into ``Config.expansion_counts``,
    where a reduced configuration may shrink them."""

    def check_players(self, players: int) -> str | None:
        """Why the expansion cannot be played by ``players`` players (None: it can)."""
        return None

    def initial(self, config: Config) -> object:
        """The expansion's part of the state after set-up."""
        return None

    # -- legal actions
    def closed_graves(self, state: State) -> frozenset[int]:
        """Graves that cannot be opened now, on top of the base rules' limits."""
        return frozenset()

    def extra_actions(self, state: State) -> Sequence[Action]:
        """Actions added, in the base opening phase, after the grave openings."""
        return ()

    def current_player(self, state: State) -> int:
        """Who decides in one of the expansion's own phases."""
        raise NotImplementedError

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """The legal actions in one of the expansion's own phases."""
        return ()

    def why_illegal(self, state: State, action: Action) -> tuple[str, tuple[str, ...]] | None:
        """Reason and clause ids for an illegal action, or None for the base diagnosis."""
        return None

    # -- transitions
    def step(self, state: State, action: Action, events: list[Event]) -> State:
        """The transition of an action of the expansion, or of any action in its phases."""
        raise NotImplementedError

    def on_opened(self, state: State, grave: int) -> State:
        """A grave without a rat was opened (before its content is dealt with)."""
        return state

    def on_placed(self, state: State, player: int, events: list[Event]) -> State:
        """``player`` put a matching vampire to rest and has vampires left."""
        return state

    def on_unmatched(self, state: State) -> State:
        """A grave was dealt with otherwise than by a matching placement (a stake, garlic
        found, garlic placed, a grave left empty, a rat, or a stop in a plague)."""
        return state

    def after_gifts(self, state: State) -> State | None:
        """All pending hand-overs are done; a state to go on with, or None for the base rules."""
        return None

    def end_turn(self, state: State, nxt: int, events: list[Event]) -> State | None:
        """The turn is over and ``nxt`` moves next; a state to go on with, or None to let the
        base rules start ``nxt``'s turn."""
        return None

    def on_turn_start(self, state: State, player: int) -> State:
        """``player``'s turn has just started (after the base rules set it up)."""
        return state

    # -- logs
    def event_text(self, state: State, event: Event,
                   names: Sequence[str] | None) -> str | None:
        """A sentence for one of the expansion's events (None: not one of them); ``state`` is
        the state before the transition."""
        return None

    # -- the game interface
    def table_actions(self, graves: int, seats: int) -> list[Action]:
        """The expansion's actions on a board of ``graves`` graves and up to ``seats`` seats,
        in the order of their ids (appended to the base game's action table)."""
        return []

    def observation_line(self, state: State) -> str | None:
        """One line of the public view for the expansion's part of ``state`` (None: nothing
        to add)."""
        return None

    def tensor_sections(self, graves: int, players: int) -> list[tuple[str, int]]:
        """(name, width) of the expansion's sections of the observation tensor, appended to
        the base game's."""
        return []

    def tensor_bits(self, state: State, offset: Mapping[str, int]) -> list[int]:
        """Indices set to 1 for the expansion's part of ``state``; ``offset`` maps each
        section name of :meth:`tensor_sections` to its first index."""
        return []


def all_expansions() -> tuple[Expansion, ...]:
    """Every registered expansion, in the order of :data:`DAWN_UNDER_EXPANSIONS` (the order
    their actions and phases take in the game interface's fixed tables)."""
    return tuple(load_expansion(name) for name in DAWN_UNDER_EXPANSIONS)


@cache
def load_expansion(name: str) -> Expansion:
    """The expansion named ``name`` (its module's ``EXPANSION``).

    Raises:
        MalformedInput: for an unknown name.
    """
    module = DAWN_UNDER_EXPANSIONS.get(name)
    if module is None:
        raise MalformedInput(f"unknown expansion {name!r}; known: "
                             f"{', '.join(DAWN_UNDER_EXPANSIONS)}")
    found = importlib.import_module(module).EXPANSION
    assert isinstance(found, Expansion)
    return found
