"""The executable rules of Dawn Under, 3-6 players (du-en): legal actions and transitions.

Layered legality (after python-chess): :func:`legal_actions` lists what the player to move may
do, in a deterministic order; :func:`apply` / :func:`step` check an action against that list and
raise :class:`ruleproof.errors.IllegalAction` naming the clause(s) that forbid it, leaving the
state untouched (states are immutable). :func:`step` also returns the public events.

Every rule is cited by its clause id from ``spec/dawn_under/sources/du-en.toml``. An expansion plugs in
through the hooks of :class:`ruleproof.model.dawn_under.expansion.Expansion`
(``state.config.expansion``); this module applies the base rules only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields
from enum import Enum
from typing import Any, TypeVar

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under.expansion import Expansion
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    Config,
    Content,
    End,
    Event,
    EventKind,
    GarlicIn,
    Gift,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    Plague,
    ReceiveVampire,
    Row,
    Setup,
    State,
    Stop,
    Vampire,
    VampireIn,
    init_parameters,
)

_BOTH_ENDS = (End.LEFT, End.RIGHT)
T = TypeVar("T")


# ----------------------------------------------------------------------------- set-up


def deal(config: Config, rng: random.Random, start_player: int = 0) -> Setup:
    """The set-up chance node: shuffle lids, draw the reserve, mix in the rats, deal vampires.

    Args:
        config: game configuration.
        rng: the explicit source of chance (seeded by the caller).
        start_player: who moves first (du-en:play.start).

    Implements du-en:prep.rats-aside, du-en:prep.reserve (the reserve is drawn *before* the rats
    are mixed in, so it never holds a rat), du-en:prep.mix-rats and du-en:prep.deal.
    """
    coloured = [c for c in config.lid_colours for _ in range(config.lids_per_colour)]
    rng.shuffle(coloured)
    reserve = tuple(coloured[: config.reserve_size])
    lids: list[int | None] = [*coloured[config.reserve_size :], *([RAT] * config.rat_lids)]
    rng.shuffle(lids)
    size = config.board.size
    if len(lids) < size:
        # du-en:2p.lids: the players choose which graves stay without a lid; the set-up chance
        # node picks them at random (an explicit Setup can choose any graves).
        lidless = set(rng.sample(range(size), size - len(lids)))
        it = iter(lids)
        lids = [None if g in lidless else next(it) for g in range(size)]
    vampires = [c for c in config.vampire_colours for _ in range(config.vampires_per_colour)]
    rng.shuffle(vampires)
    share = len(vampires) // config.players
    rows = tuple(tuple(vampires[p * share : (p + 1) * share]) for p in range(config.players))
    return Setup(tuple(lids), reserve, rows, start_player)


def initial_state(config: Config, setup: Setup) -> State:
    """The state after set-up (du-en:prep.stakes, du-en:prep.garlic, du-en:prep.row).

    Raises:
        MalformedInput: if ``setup`` does not fit ``config`` (wrong number of graves, rows...).
    """
    n = config.board.size
    if len(setup.lids) != n:
        raise MalformedInput(f"set-up has {len(setup.lids)} lids for {n} graves")
    if len(setup.rows) != config.players:
        raise MalformedInput(f"set-up has {len(setup.rows)} rows for {config.players} players")
    if not 0 <= setup.start_player < config.players:
        raise MalformedInput(f"start player {setup.start_player} is not a player")
    for lid in (*setup.lids, *setup.reserve):
        if lid is None and config.players == 2:
            continue  # du-en:2p.lids: graves may stay without a lid
        if lid is None or (lid != RAT and not 0 <= lid < len(config.colours)):
            raise MalformedInput(f"lid value {lid} is not a colour or a rat")
    if RAT in setup.reserve:
        raise MalformedInput("the reserve stack cannot hold a rat lid (du-en:prep.reserve)")
    rows = []
    for p, colours in enumerate(setup.rows):
        if not colours:
            raise MalformedInput(f"P{p + 1} starts without vampires")
        rows.append(refill(tuple(Vampire(c, False) for c in colours), config))
    return State(
        config=config,
        lids=tuple(setup.lids),
        known=(False,) * n,
        contents=(None,) * n,
        rows=tuple(rows),
        stakes_held=(0,) * config.players,
        stakes_path=config.stakes,
        garlic_hand=(config.garlic,) * config.players,
        reserve=setup.reserve,
        removed_rats=0,
        turn_player=setup.start_player,
        phase=Phase.OPEN,
        windows=((),) * config.players,
        extension=None if config.expansion is None else config.expansion.initial(config),
    )


def new_game(config: Config, seed: int, start_player: int = 0) -> State:
    """A dealt initial state from an explicit seed (deterministic across processes)."""
    return initial_state(config, deal(config, random.Random(seed), start_player))


# ----------------------------------------------------------------------------- rows


def refill(row: Row, config: Config) -> Row:
    """Turn up face-down vampires so each end shows enough open ones.

    du-en:row.refill: two open at each end; du-en:row.four-or-fewer: with at most four vampires
    all are open; du-en:ch3.flip-when-short: a side is refilled only when it has fewer than two
    open (received vampires count); du-en:row.order: the order never changes.
    Face-down vampires always form one contiguous block in the middle of the row.
    """
    if len(row) <= config.all_open_at_most:
        if all(v.face_up for v in row):
            return row
        return tuple(Vampire(v.colour, True) for v in row)
    out = list(row)
    need = config.open_per_side
    for indices in (range(len(out)), range(len(out) - 1, -1, -1)):
        open_run = 0
        for i in indices:
            if out[i].face_up:
                open_run += 1
                continue
            if open_run >= need:
                break
            out[i] = Vampire(out[i].colour, True)
            open_run += 1
    return tuple(out)


def outermost(row: Row, end: End) -> Vampire:
    """The outermost vampire at ``end`` (du-en:ch1.outermost). The row must not be empty."""
    return row[0] if end is End.LEFT else row[-1]


def row_ends(row: Row) -> tuple[End, ...]:
    """The distinct ends of a row: both, or only LEFT when a single vampire is left."""
    return _BOTH_ENDS if len(row) > 1 else (End.LEFT,)


def _remove_end(row: Row, end: End, config: Config) -> tuple[int, Row]:
    vampire = outermost(row, end)
    rest = row[1:] if end is End.LEFT else row[:-1]
    return vampire.colour, refill(rest, config)


def _left(config: Config, player: int) -> int:
    """The left neighbour: play passes clockwise (du-en:play.clockwise)."""
    return (player + 1) % config.players


# ----------------------------------------------------------------------------- queries


def current_player(state: State) -> int:
    """Who decides next: the turn player, the plague's current player, a giver or a receiver.

    Returns -1 (:data:`model.CHANCE`) never: Dawn Under's only chance node is the set-up.
    """
    phase = state.phase
    if not isinstance(phase, Phase):
        return _expansion(state).current_player(state)  # a phase the expansion added
    if phase is Phase.GIVE:
        gift = state.gifts[0]
        return gift.receiver if state.config.options.gift_end_chooser == "receiver" else gift.giver
    if state.phase is Phase.RECEIVE:
        gift = state.gifts[0]
        return gift.receiver if state.config.options.receiver_chooses_end else gift.giver
    if state.plague is not None:
        return state.plague.current
    return state.turn_player


def acting_player(state: State) -> int:
    """The player whose turn or plague turn it is (who opens graves and places)."""
    return state.plague.current if state.plague is not None else state.turn_player


def is_terminal(state: State) -> bool:
    """True once a player has no vampires left (du-en:end.first-empty)."""
    return state.phase is Phase.OVER


def winner(state: State) -> int | None:
    """The winner (du-en:aim.win), or None while the game runs."""
    return state.winner


def matching_ends(state: State, grave: int) -> tuple[End, ...]:
    """Ends whose outermost vampire has the colour of ``grave``'s lid (du-en:ch1.match)."""
    lid = state.lids[grave]
    row = state.rows[acting_player(state)]
    if not row:
        return ()
    if lid is None:
        # du-en:2p.lids under the 'wild' reading: a grave without a lid fits any colour.
        return row_ends(row) if _wild(state, grave) else ()
    if lid == RAT:
        return ()
    if len(row) == 1:
        return _LEFT_ONLY if row[0].colour == lid else ()
    return _MATCHING[row[0].colour == lid, row[-1].colour == lid]


_LEFT_ONLY = (End.LEFT,)
_MATCHING: dict[tuple[bool, bool], tuple[End, ...]] = {
    (True, True): _BOTH_ENDS, (True, False): _LEFT_ONLY, (False, True): (End.RIGHT,),
    (False, False): ()}
"""Matching ends by (left matches, right matches)."""


def _wild(state: State, grave: int) -> bool:
    """A lidless grave of the 2-player game that counts as usable (option lidless_grave)."""
    return (state.config.players == 2 and state.config.options.lidless_grave == "wild"
            and state.lids[grave] is None)


# Immutable, shared action objects: legal_actions hands them out very often, and checking an
# action against the legal ones is then mostly an identity comparison.
_POOL = 256
_OPEN_ACTIONS: tuple[OpenGrave, ...] = tuple(OpenGrave(g) for g in range(_POOL))
_PLACE_ACTIONS: dict[End, tuple[PlaceVampire, ...]] = {
    e: tuple(PlaceVampire(g, e) for g in range(_POOL)) for e in _BOTH_ENDS}
_GARLIC_ACTIONS: tuple[PlaceGarlic, ...] = tuple(PlaceGarlic(g) for g in range(_POOL))
_LEAVE_ACTIONS: tuple[LeaveEmpty, ...] = tuple(LeaveEmpty(g) for g in range(_POOL))
_GIVE_ACTIONS = {2: (GiveVampire(End.LEFT), GiveVampire(End.RIGHT)), 1: (GiveVampire(End.LEFT),)}
_RECEIVE_ACTIONS = {2: (ReceiveVampire(End.LEFT), ReceiveVampire(End.RIGHT)),
                    1: (ReceiveVampire(End.LEFT),)}
_STOP = Stop()


def pooled_actions(graves: int) -> tuple[Action, ...]:
    """The shared action objects :func:`legal_actions` hands out on a board of ``graves``
    graves (they live as long as this module, so a caller may key them by ``id``)."""
    n = min(graves, _POOL)
    return (*_OPEN_ACTIONS[:n], *_PLACE_ACTIONS[End.LEFT][:n], *_PLACE_ACTIONS[End.RIGHT][:n],
            *_GARLIC_ACTIONS[:n], *_LEAVE_ACTIONS[:n], *_GIVE_ACTIONS[2], *_GIVE_ACTIONS[1],
            *_RECEIVE_ACTIONS[2], *_RECEIVE_ACTIONS[1], _STOP)


_OPEN_ALL: tuple[tuple[Action, ...], ...] = tuple(_OPEN_ACTIONS[:n] for n in range(_POOL + 1))
"""Opening any of the graves ``0..n-1``, by ``n`` (the legal actions of a plain turn)."""
_OPEN_ALL_STOP: tuple[tuple[Action, ...], ...] = tuple((*_OPEN_ACTIONS[:n], _STOP) for n in range(_POOL + 1))
"""The same with Stop last."""


def pooled_lists(graves: int) -> tuple[tuple[Action, ...], ...]:
    """The shared tuples :func:`legal_actions` returns as they are on a board of ``graves``
    graves (opening any grave, with and without Stop; giving and receiving at one or two
    ends): they live as long as this module, so a caller may key what it derives from them
    by ``id``."""
    if graves > _POOL:
        return (*_GIVE_ACTIONS.values(), *_RECEIVE_ACTIONS.values())
    return (_OPEN_ALL[graves], _OPEN_ALL_STOP[graves], *_GIVE_ACTIONS.values(),
            *_RECEIVE_ACTIONS.values())


def _open(grave: int) -> OpenGrave:
    return _OPEN_ACTIONS[grave] if 0 <= grave < _POOL else OpenGrave(grave)


def _place(grave: int, end: End) -> PlaceVampire:
    return _PLACE_ACTIONS[end][grave] if 0 <= grave < _POOL else PlaceVampire(grave, end)


def _all_lids_closed_game(state: State) -> bool:
    """The plain case of grave opening: no plague, no expansion and more than two players, so
    every grave may be opened (du-en:ch1.open): outside a plague every grave has a lid with
    three or more players (du-en:prep.mix-rats; only the rat's grave of a running plague is
    lidless, du-en:ch4.rat; the invariant graves-consistent checks it)."""
    return (state.plague is None and state.config.expansion is None
            and state.config.players != 2 and len(state.lids) <= _POOL)


def openable(state: State) -> tuple[int, ...]:
    """Graves the acting player may open now.

    Outside a plague any grave with a lid (du-en:ch1.open). In a plague only neighbours of the
    rat's grave (du-en:ch4.neighbours, du-en:ch4.only-neighbours) not yet opened in it
    (du-en:ch4.stay-open); the acting player picks any of them, in any order (du-en:ch4.order).
    An expansion may close more graves (:meth:`Expansion.closed_graves`).
    """
    plague = state.plague
    ext = state.config.expansion
    closed = ext.closed_graves(state) if ext is not None else frozenset()
    if plague is None:
        lids = state.lids
        if state.config.players != 2 and not closed and None not in lids:
            return tuple(range(len(lids)))  # fast path: every grave has a lid (du-en:ch1.open)
        forbidden = set(state.barred) if state.config.options.reopen_rule == "forbidden" else ()
        return tuple(g for g, lid in enumerate(lids)
                     if (lid is not None or _wild(state, g)) and g not in forbidden
                     and g not in closed)
    return tuple(
        g
        for g in state.config.board.neighbours[plague.origin]
        if g not in plague.opened and (state.lids[g] is not None or _wild(state, g))
        and g not in closed
    )


def _expansion(state: State) -> Expansion:
    ext = state.config.expansion
    assert ext is not None, "a phase or action of an expansion without the expansion"
    return ext


def _open_actions(state: State) -> list[Action]:
    """OpenGrave actions for :func:`openable`, sharing the immutable action objects."""
    return [_open(g) for g in openable(state)]


def late_placements(state: State) -> tuple[Action, ...]:
    """Under ``plague_late_placement=allowed``: garlic or a matching vampire into a grave
    opened earlier in the running plague that is still empty (du-en:ch4.just-opened forbids
    it in du-en)."""
    plague = state.plague
    if plague is None or state.config.options.plague_late_placement != "allowed":
        return ()
    out: list[Action] = []
    player = acting_player(state)
    for g in plague.opened:
        if state.contents[g] is not None or state.lids[g] == RAT:
            continue
        ends = matching_ends(state, g)
        out.extend(_place(g, e) for e in ends)
        if not ends and state.garlic_hand[player] > 0:
            out.append(PlaceGarlic(g))
    return tuple(out)


def legal_actions(state: State) -> tuple[Action, ...]:
    """All legal actions of :func:`current_player`, in a deterministic order.

    Order: graves by id, then ends LEFT before RIGHT, then garlic before leaving empty, Stop last.
    """
    phase = state.phase
    if phase is Phase.OPEN:
        if _all_lids_closed_game(state):  # fast path: any grave (du-en:ch1.open)
            may_stop = state.may_stop or state.config.options.turn_start == "may-pass"
            # see _may_stop
            return (_OPEN_ALL_STOP if may_stop else _OPEN_ALL)[len(state.lids)]
        actions: list[Action] = _open_actions(state)
        actions.extend(late_placements(state))
        if state.config.expansion is not None:
            actions.extend(state.config.expansion.extra_actions(state))
        if _may_stop(state):
            actions.append(_STOP)  # du-en:ch1.continue, du-en:ch4.pass
        return tuple(actions)
    if phase is Phase.PLACE:
        grave = state.pending
        assert grave is not None
        ends, garlic, leave = _place_options(state, grave)
        pooled = 0 <= grave < _POOL
        out: tuple[Action, ...] = tuple(_place(grave, e) for e in ends)
        if garlic:
            out += (_GARLIC_ACTIONS[grave] if pooled else PlaceGarlic(grave),)
        if leave:
            out += (_LEAVE_ACTIONS[grave] if pooled else LeaveEmpty(grave),)
        return out
    if phase is Phase.GIVE:
        # du-en:ch2.gift: either outermost vampire (one end only when a single one is left)
        return _GIVE_ACTIONS[len(row_ends(state.rows[state.gifts[0].giver]))]
    if phase is Phase.RECEIVE:
        # du-en:ch3.received-open: at either end of the receiver's row
        return _RECEIVE_ACTIONS[len(row_ends(state.rows[state.gifts[0].receiver]))]
    if not isinstance(phase, Phase):
        return _expansion(state).legal_actions(state)  # a phase the expansion added
    return ()


def _place_options(state: State, grave: int) -> tuple[tuple[End, ...], bool, bool]:
    """What may be done with the just-opened empty ``grave``: (matching ends, garlic may go in,
    it may be left empty). A matching outermost vampire goes in (du-en:ch1.match,
    du-en:ch1.two-match; leaving it empty only under ``match_placement=optional``); otherwise
    garlic, if the player has some, or nothing (du-en:ch1.no-match, du-en:ch1.garlic)."""
    ends = matching_ends(state, grave)
    if ends:
        return ends, False, state.config.options.match_placement == "optional"
    return (), state.garlic_hand[acting_player(state)] > 0, True


def _may_stop(state: State) -> bool:
    """Stop is legal in a plague (du-en:ch4.pass), after a placement (du-en:ch1.continue), and
    at any time of a turn under ``turn_start=may-pass``."""
    return (state.plague is not None or state.may_stop
            or state.config.options.turn_start == "may-pass")


def why_illegal(state: State, action: Action) -> tuple[str, tuple[str, ...]]:
    """Reason and clause ids for an action not in :func:`legal_actions` (layered diagnosis)."""
    phase = state.phase
    if phase is Phase.OVER:
        return "the game is over", ("du-en:end.first-empty",)
    if state.config.expansion is not None:
        found = state.config.expansion.why_illegal(state, action)
        if found is not None:
            return found
    if not isinstance(phase, Phase):
        return "not a legal action here", ()
    expected = {
        Phase.OPEN: "open a grave" + (" or stop" if _may_stop(state) else ""),
        Phase.PLACE: f"decide about grave {state.pending}",
        Phase.GIVE: f"P{current_player(state) + 1} chooses a vampire to hand over",
        Phase.RECEIVE: "the received vampire is put at an end of the row",
    }[phase]
    if isinstance(action, OpenGrave):
        if phase is not Phase.OPEN:
            return f"no grave may be opened now; expected: {expected}", _phase_clauses(phase)
        g = action.grave
        if not 0 <= g < len(state.lids):
            return f"there is no grave {g}", ("du-en:content.graves",)
        plague = state.plague
        if plague is not None:
            if g not in state.config.board.neighbours[plague.origin]:
                return (f"grave {g} is not a neighbour of the rat's grave {plague.origin}",
                        ("du-en:ch4.only-neighbours", "du-en:ch4.path"))
            if g in plague.opened:
                return (f"grave {g} is already open in this rat plague",
                        ("du-en:ch4.stay-open",))
        if state.lids[g] is None:
            if state.config.players == 2:
                return f"grave {g} has no lid to turn", ("du-en:2p.lids", "du-en:ch1.open")
            return f"grave {g} has no lid to turn", ("du-en:ch1.open",)
        if g in state.barred and plague is None:
            return (f"grave {g} was opened by your opponent after you; it is barred this turn",
                    ("du-en:2p.reopen",))
    if isinstance(action, Stop):
        if phase is Phase.OPEN:
            return ("a turn cannot end before a grave has been opened",
                    ("du-en:ch1.open", "du-en:ch1.continue"))
        return f"cannot stop now; expected: {expected}", _phase_clauses(phase)
    if isinstance(action, PlaceVampire | PlaceGarlic | LeaveEmpty):
        if phase is not Phase.PLACE or action.grave != state.pending:
            if state.plague is not None and action.grave in state.plague.opened:
                return (f"grave {action.grave} was opened earlier in this plague; only the grave "
                        "just opened may be used", ("du-en:ch4.just-opened", "du-en:qr.taboo"))
            if phase is Phase.PLACE:
                return (f"only grave {state.pending}, just opened, may be used",
                        ("du-en:ch4.just-opened",))
            return (f"grave {action.grave} was not just opened as an empty grave; expected: "
                    f"{expected}", ("du-en:ch1.match", "du-en:ch3.no-place"))
        ends = matching_ends(state, action.grave)
        if isinstance(action, PlaceVampire):
            row = state.rows[acting_player(state)]
            if action.end not in row_ends(row):
                return "a single vampire is addressed as the left end", ("du-en:ch1.outermost",)
            return (f"the outermost {action.end.value} vampire does not match the lid colour",
                    ("du-en:ch1.outermost", "du-en:ch1.no-match"))
        if ends:
            return ("a matching outermost vampire is placed into the grave (reading: placement "
                    "is not optional)", ("du-en:ch1.match",))
        return "no garlic left", ("du-en:ch1.garlic",)
    if isinstance(action, GiveVampire | ReceiveVampire):
        if phase not in (Phase.GIVE, Phase.RECEIVE):
            return f"nothing is being handed over; expected: {expected}", _phase_clauses(phase)
        if (phase is Phase.GIVE) != isinstance(action, GiveVampire):
            return f"expected: {expected}", _phase_clauses(phase)
        return "a single vampire is addressed as the left end", ("du-en:ch1.outermost",)
    return f"not a legal action here; expected: {expected}", _phase_clauses(phase)


def _phase_clauses(phase: Phase) -> tuple[str, ...]:
    return {
        Phase.OPEN: ("du-en:ch1.open",),
        Phase.PLACE: ("du-en:ch1.match", "du-en:ch1.garlic"),
        Phase.GIVE: ("du-en:ch2.gift", "du-en:ch3.other-garlic"),
        Phase.RECEIVE: ("du-en:ch3.received-open",),
        Phase.OVER: ("du-en:end.first-empty",),
    }[phase]


# ----------------------------------------------------------------------------- transitions


Events = list[Event] | None
"""Where a transition appends its events: a list (:func:`step`), or None when nobody reads
them (:func:`apply` of the base game), so that they are not built at all. An expansion's hooks
always get a list (they append to it themselves)."""


def _emit(events: Events, kind: EventKind, player: int, grave: int | None, value: int | None,
          clause: str) -> None:
    """Record one :class:`Event` in ``events`` (nothing when events are not wanted)."""
    if events is not None:
        events.append(_event(kind, player, grave, value, clause))


def _hook_events(events: Events) -> list[Event]:
    """``events`` for an expansion's hook: :func:`apply` passes a list whenever the game has
    an expansion, so it is never None here."""
    assert events is not None, "an expansion's hook without an event list"
    return events


def apply(state: State, action: Action) -> State:
    """The successor of ``state`` under ``action`` (pure).

    Raises:
        IllegalAction: if ``action`` is not in :func:`legal_actions`; the error names the
            clause(s) that forbid it. ``state`` is unchanged (it is immutable).
    """
    return _transition(state, action, None if state.config.expansion is None else [])


_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))


class _Draft:
    """A writable twin of :class:`State`: the same slots in the same order, so the same memory
    layout, and no frozen ``__setattr__``. A transition works on one draft: the entry points
    (:func:`apply_legal`, :func:`step_legal`, :func:`_transition`) copy their state into a
    draft once (:func:`_draft`), the transition's steps write into it (:func:`_with`, or
    directly through :func:`_writable`), and the entry point seals it as a ``State`` by
    assigning ``__class__`` (allowed between classes of identical layout, :func:`_seal`)
    before returning it. A draft never leaves its transition, so every state anyone holds
    stays frozen (a write into a sealed state raises ``FrozenInstanceError``). The
    annotations mirror :class:`State`'s fields (tests/test_transition_drafts.py checks)."""

    __slots__ = State.__slots__

    config: Config
    lids: tuple[int | None, ...]
    known: tuple[bool, ...]
    contents: tuple[Content, ...]
    rows: tuple[Row, ...]
    stakes_held: tuple[int, ...]
    stakes_path: int
    garlic_hand: tuple[int, ...]
    reserve: tuple[int, ...]
    removed_rats: int
    turn_player: int
    phase: Enum
    may_stop: bool
    pending: int | None
    plague: Plague | None
    gifts: tuple[Gift, ...]
    in_transit: int | None
    winner: int | None
    placed_this_turn: int
    windows: tuple[tuple[int, ...], ...]
    barred: tuple[int, ...]
    extension: object


_DRAFT: type = _Draft
"""The draft class, for identity checks (``state.__class__ is _DRAFT``)."""


def _writable(state: State) -> _Draft:
    """``state``, a transition's draft (:class:`_Draft`), typed for writing its fields. An
    expansion's hook returns the draft it was given (changed through :func:`with_changes` or
    written through this function), never a state built otherwise."""
    assert state.__class__ is _DRAFT, "a transition's state is not its draft"
    return state  # type: ignore[return-value]  # (no cast: a call on the hot path)


def _dataclass_like(draft: type, cls: type) -> None:
    """Make ``draft``, the writable twin of the frozen dataclass ``cls``, behave as a
    dataclass where a hook might treat it as one: ``sealed_as`` names ``cls`` (what the
    engine's ``_seal`` turns it into); ``dataclasses.fields``, ``replace`` and ``asdict``
    work on it (``replace`` gives another draft, sealed in turn by the transition that holds
    it); it prints as ``cls`` does, and ``==`` compares field by field as ``cls`` does."""
    env: dict[str, Any] = {}
    params = init_parameters(cls, env)
    body = "\n".join(f"    self.{f.name} = {f.name}" for f in fields(cls))
    exec(f"def __init__(self, {params}):\n{body}\n", env)
    draft.sealed_as = cls  # type: ignore[attr-defined]
    cls.sealed_as = None  # type: ignore[attr-defined]  # (so _seal's lookup finds it)
    draft.__dataclass_fields__ = cls.__dataclass_fields__  # type: ignore[attr-defined]
    draft.__init__ = env["__init__"]  # type: ignore[misc]
    draft.__repr__ = cls.__repr__  # type: ignore[method-assign]
    names = tuple(f.name for f in fields(cls))

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    draft.__eq__ = __eq__  # type: ignore[assignment,method-assign]
    draft.__hash__ = None  # type: ignore[assignment]  # writable: not hashable


def _twin(cls: type) -> type:
    """A plain class with ``cls``'s slots (same layout, writable): a draft class."""
    return type(f"_{cls.__name__}Draft", (), {"__slots__": cls.__slots__})  # type: ignore[attr-defined]


def slot_updater(cls: type[T], draft: type | None = None) -> Callable[..., T]:
    """``dataclasses.replace`` for instances of the frozen, slotted dataclass ``cls``, several
    times faster: ``update(obj, name=value, ...)`` builds the changed copy in one call. The
    frozen dataclass's ``__init__`` stores every field through ``object.__setattr__`` by
    name (and calling the member descriptors directly still costs a call per field); this
    function copies the fields into a draft (a writable twin of ``cls``: the same slots in
    the same order, so the same memory layout, and no frozen ``__setattr__``) with plain
    attribute stores (which the interpreter specialises to a slot write), writes the changed
    fields and seals the draft as a ``cls`` by assigning ``__class__`` (allowed between
    classes of identical layout). Given a draft itself (a transition's own, see
    :class:`_Draft`), ``update`` writes the changes into it and returns it: the transition
    builds its successor once however many of its steps change fields. Its code is
    generated once from ``fields(cls)``, the way ``dataclasses`` generates ``__init__``.
    ``draft``: the twin class (made here if not given).

    Raises:
        AttributeError: (from the updater) for a keyword that is not a field of ``cls``.
    """
    if draft is None:
        draft = _twin(cls)
    _dataclass_like(draft, cls)
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    env: dict[str, Any] = {"new": object.__new__, "cls": cls, "Draft": draft}
    copy = "\n".join(f"    d.{name} = obj.{name}" for name in names)
    src = ("def update(obj, **changes):\n"
           "    if obj.__class__ is Draft:\n"
           "        for name, value in changes.items():\n            setattr(obj, name, value)\n"
           "        return obj\n"
           f"    d = new(Draft)\n{copy}\n"
           "    for name, value in changes.items():\n        setattr(d, name, value)\n"
           "    d.__class__ = cls\n    return d\n"
           "def open_draft(obj):\n"
           f"    d = new(Draft)\n{copy}\n    return d\n")
    exec(src, env)
    updater: Callable[..., T] = env["update"]
    updater.__qualname__ = f"update_{cls.__name__}"
    updater.open_draft = env["open_draft"]  # type: ignore[attr-defined]
    return updater


def slot_builder(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen, slotted dataclass ``cls`` taking every field
    positionally, in order (no defaults, no checks), that builds the instance the way
    :func:`slot_updater` builds a copy: plain slot stores into a writable twin, then sealed
    by assigning ``__class__``; for objects built on every transition (events), where it
    costs about two thirds of the class's own ``__init__``. Generated once from
    ``fields(cls)``."""
    draft = _twin(cls)
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    env: dict[str, Any] = {"new": object.__new__, "cls": cls, "Draft": draft}
    stores = "\n".join(f"    d.{name} = {name}" for name in names)
    exec(f"def build({', '.join(names)}):\n    d = new(Draft)\n{stores}\n"
         "    d.__class__ = cls\n    return d\n", env)
    builder: Callable[..., T] = env["build"]
    builder.__qualname__ = f"build_{cls.__name__}"
    return builder


_event: Callable[[Enum, int, int | None, int | None, str], Event] = slot_builder(Event)
"""``Event(kind, player, grave, value, clause)``, built faster (:func:`slot_builder`)."""


_with: Callable[..., State] = slot_updater(State, _Draft)
"""``dataclasses.replace`` for states (:func:`slot_updater`): ``_with(state, phase=...,
pending=...)`` builds the successor in one call; inside a transition (on its draft) it writes
into the draft. Transitions replace fields about once per action, so this is the engine's
innermost loop."""

_draft: Callable[[State], State] = _with.open_draft  # type: ignore[attr-defined]
"""The draft a transition works on: a writable copy of ``state`` (typed as a ``State``: it
reads like one), sealed by :func:`_seal` before the transition returns it."""


def _seal(state: State) -> State:
    """The transition's result as a frozen ``State``: its draft sealed in place, and the
    expansion's part too when the transition drafted it (a draft class of
    :func:`slot_updater`, which names its frozen class as ``sealed_as``)."""
    if state.__class__ is _DRAFT:
        state.__class__ = State
        ext = state.extension
        if ext is not None:
            sealed_as = getattr(ext.__class__, "sealed_as", None)
            if sealed_as is not None:
                ext.__class__ = sealed_as
    return state


def _is_legal(state: State, action: Action) -> bool:
    """``action in legal_actions(state)``, without building the list for the base game's
    actions in its phases: the same rules (:func:`openable`, :func:`_may_stop`,
    :func:`_place_options`, :func:`row_ends`) answer directly. (Membership in the list would
    compare actions one by one through the dataclasses' ``__eq__``: a Stop after 25 grave
    openings costs more than the whole transition.)"""
    phase = state.phase
    if phase is Phase.OPEN:
        if type(action) is OpenGrave:
            if _all_lids_closed_game(state):
                return 0 <= action.grave < len(state.lids)  # du-en:ch1.open: any grave
            return action.grave in openable(state)
        if type(action) is Stop:
            return _may_stop(state)
    if phase is Phase.GIVE and type(action) is GiveVampire:
        return action.end in row_ends(state.rows[state.gifts[0].giver])  # du-en:ch2.gift
    if phase is Phase.RECEIVE and type(action) is ReceiveVampire:
        return action.end in row_ends(state.rows[state.gifts[0].receiver])
    if phase is Phase.PLACE and type(action) in _PLACE_TYPES:
        grave = state.pending
        assert grave is not None
        ends, garlic, leave = _place_options(state, grave)
        if type(action) is PlaceVampire:
            return action.grave == grave and action.end in ends
        if type(action) is PlaceGarlic:
            return action.grave == grave and garlic
        if type(action) is LeaveEmpty:
            return action.grave == grave and leave
    return action in legal_actions(state)


_PLACE_TYPES = (PlaceVampire, PlaceGarlic, LeaveEmpty)


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Like :func:`apply`, also returning the public events of the transition, in order."""
    events: list[Event] = []
    return _transition(state, action, events), tuple(events)


def _transition(state: State, action: Action, events: Events) -> State:
    """Check ``action`` (layered diagnosis on failure), then apply it, appending events."""
    if not _is_legal(state, action):
        reason, clauses = why_illegal(state, action)
        raise IllegalAction(action, reason, clauses)
    base = _BASE_TRANSITIONS.get(type(action))
    if base is None or type(state.phase) is not Phase:
        # its action, or its phase
        return _seal(_expansion(state).step(_draft(state), action, _hook_events(events)))
    return _seal(base(_draft(state), action, events))


def step_legal(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """:func:`step` for an ``action`` the caller has just taken from
    :func:`legal_actions` of ``state`` (the same successor and events; a trusted fast path:
    the legality check is not repeated). An action not from that list gives an unspecified
    result: callers with any other action use :func:`step`, which raises IllegalAction."""
    events: list[Event] = []
    base = _BASE_TRANSITIONS.get(type(action))
    if base is None or type(state.phase) is not Phase:
        return _seal(_expansion(state).step(_draft(state), action, events)), tuple(events)
    return _seal(base(_draft(state), action, events)), tuple(events)


def apply_legal(state: State, action: Action) -> State:
    """:func:`apply` for an ``action`` just taken from :func:`legal_actions` of ``state``
    (the legality check is not repeated; see :func:`step_legal`)."""
    base = _BASE_TRANSITIONS.get(type(action))
    if base is None or type(state.phase) is not Phase:
        return _seal(_expansion(state).step(_draft(state), action, []))
    return _seal(base(_draft(state), action, None if state.config.expansion is None else []))


def _on_stop(state: State, action: Any, events: Events) -> State:
    return _stop(state, events)




def _set(seq: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``seq`` with ``seq[index]`` replaced (a list copy: faster than slicing and joining)."""
    out = list(seq)
    out[index] = value
    return tuple(out)


def _open_grave(state: State, action: OpenGrave, events: Events) -> State:
    """du-en:ch1.open (in a plague du-en:ch4.neighbours): the lid is turned for everybody."""
    grave = action.grave
    plague = state.plague
    player = plague.current if plague is not None else state.turn_player  # acting_player
    lid = state.lids[grave]
    d = _writable(state)
    if lid is not None and not state.known[grave]:
        d.known = _set(state.known, grave, True)
    _emit(events, EventKind.REVEAL, player, grave, lid, "du-en:ch1.open")
    if state.config.players == 2:
        windows = state.windows
        d.windows = _set(windows, player, (*windows[player], grave))
    d.may_stop = False
    if lid == RAT:
        if plague is not None:
            d.plague = _plague_with(plague, idle=0, current_opened=True)
        return _rat_found(state, player, grave, events)
    if plague is not None:
        # du-en:ch4.stay-open: the grave stays open for the rest of the plague.
        d.plague = _plague_with(plague, opened=(*plague.opened, grave), idle=0,
                                current_opened=True)
    content = state.contents[grave]
    barred = plague is None and grave in state.barred
    ext = state.config.expansion
    if ext is not None:
        state = ext.on_opened(state, grave)
    if barred:
        # du-en:2p.reopen (reading stake-and-end): the grave is opened anyway: a stake, and the
        # turn ends without using the grave.
        return _take_stake(state, player, events, "du-en:2p.reopen")
    if content is None:
        d = _writable(state)
        d.phase = Phase.PLACE
        d.pending = grave
        return state
    if isinstance(content, VampireIn):
        return _take_stake(state, player, events)
    return _garlic_found(state, player, grave, content, events)


def _take_stake(state: State, player: int, events: Events,
                clause: str = "du-en:ch2.stake") -> State:
    """du-en:ch2.stake; the third stake triggers du-en:ch2.gift and du-en:ch2.stakes-back
    (with 2 players four vampires, du-en:2p.own-garlic-stake)."""
    config = state.config
    if config.expansion is not None:
        state = config.expansion.on_unmatched(state)
    if state.stakes_path == 0:
        # No source says what happens (unreachable under du-en: stakes_never_run_out).
        if config.options.empty_path == "no-stake":
            return _after_resolution(state, events, "du-en:ch2.ends", occupied=True)
        held, path = state.stakes_held[player], 0
        gift_due = True
    else:
        held = state.stakes_held[player] + 1
        path = state.stakes_path - 1
        _emit(events, EventKind.STAKE, player, None, held, clause)
        gift_due = _gift_due(held, config)
    if gift_due:
        _emit(events, EventKind.STAKES_BACK, player, None, held, "du-en:ch2.stakes-back")
        path += held
        held = 0
    stakes = _set(state.stakes_held, player, held)
    if gift_due:
        gifts = tuple(Gift(g, player, "du-en:ch2.gift") for g in _others(config, player)
                      for _ in range(config.gift_stake))
        return _start_gifts(state, gifts, events, stakes_held=stakes, stakes_path=path)
    d = _writable(state)
    d.stakes_held = stakes
    d.stakes_path = path
    return _after_resolution(state, events, "du-en:ch2.ends", occupied=True)


def _gift_due(held: int, config: Config) -> bool:
    """Whether holding ``held`` stakes (after taking one) triggers the gift (du-en:ch2.gift)."""
    if config.options.gift_trigger == "third-stake":
        return held >= config.stakes_for_gift
    return held > config.stakes_for_gift  # reading "already holds three" (du-cs)


def _others(config: Config, player: int) -> tuple[int, ...]:
    """The other players in clockwise order starting at the left neighbour."""
    return tuple((player + k) % config.players for k in range(1, config.players))


def _garlic_found(
    state: State, player: int, grave: int, garlic: GarlicIn, events: Events
) -> State:
    """du-en:ch3.other-garlic / du-en:ch3.own-garlic, then du-en:ch3.garlic-back."""
    owner = garlic.owner
    if state.config.expansion is not None:
        state = state.config.expansion.on_unmatched(state)
    contents = _set(state.contents, grave, None)
    hand = _set(state.garlic_hand, owner, state.garlic_hand[owner] + 1)
    _emit(events, EventKind.GARLIC_BACK, owner, grave, None, "du-en:ch3.garlic-back")
    config = state.config
    if owner == player:
        gifts = tuple(Gift(g, player, "du-en:ch3.own-garlic")
                      for g in _others(config, player) for _ in range(config.gift_own_garlic))
    else:
        gifts = (Gift(owner, player, "du-en:ch3.other-garlic"),) * config.gift_other_garlic
    # du-en:ch3.no-place: the emptied grave cannot be used now (no PLACE phase follows).
    return _start_gifts(state, gifts, events, contents=contents, garlic_hand=hand)


def _start_gifts(state: State, gifts: tuple[Gift, ...], events: Events,
                 **changes: Any) -> State:
    """The hand-overs ``gifts`` begin, the first giver chooses (du-en:ch2.gift,
    du-en:ch3.other-garlic, du-en:ch3.own-garlic). ``changes``: fields of ``state`` still to be
    changed (merged into one rebuild)."""
    return _with(state, gifts=gifts, phase=Phase.GIVE, pending=None, **changes)


def _give(state: State, action: GiveVampire, events: Events) -> State:
    """du-en:ch2.gift, du-en:ch3.other-garlic, du-en:ch3.own-garlic: the giver hands over an
    outermost vampire."""
    gift = state.gifts[0]
    colour, row = _remove_end(state.rows[gift.giver], action.end, state.config)
    _emit(events, EventKind.GIVE, gift.giver, None, colour, gift.clause)
    rows = _set(state.rows, gift.giver, row)
    state = _with(state, rows=rows, in_transit=colour, phase=Phase.RECEIVE)
    if not row:  # du-en:aim.win: handing over the last vampire wins as well
        return _win(state, gift.giver, events)
    return state


def _receive(state: State, action: ReceiveVampire, events: Events) -> State:
    """du-en:ch3.received-open: face up at one end of the receiver's row."""
    end = action.end
    gift = state.gifts[0]
    assert state.in_transit is not None
    vampire = Vampire(state.in_transit, True)  # du-en:ch3.received-open
    row = state.rows[gift.receiver]
    row = (vampire, *row) if end is End.LEFT else (*row, vampire)
    _emit(events, EventKind.RECEIVE, gift.receiver, None, vampire.colour,
                        "du-en:ch3.received-open")
    rows = _set(state.rows, gift.receiver, row)
    gifts = state.gifts[1:]
    if gifts:
        return _with(state, rows=rows, in_transit=None, gifts=gifts, phase=Phase.GIVE)
    clause = "du-en:ch2.ends" if gift.clause == "du-en:ch2.gift" else "du-en:ch3.ends"
    ext = state.config.expansion
    if ext is not None:
        state = _with(state, rows=rows, in_transit=None, gifts=gifts)
        found = ext.after_gifts(state)
        if found is not None:
            return found
        return _after_resolution(state, events, clause, occupied=True)
    return _after_resolution(state, events, clause, occupied=True, rows=rows, in_transit=None,
                             gifts=gifts)


def _place_vampire(state: State, action: PlaceVampire, events: Events) -> State:
    """du-en:ch1.match (in a plague du-en:ch4.match); the row refills (du-en:row.refill)."""
    player = acting_player(state)
    colour, row = _remove_end(state.rows[player], action.end, state.config)
    _emit(events, EventKind.PLACE_VAMPIRE, player, action.grave, colour, "du-en:ch1.match")
    d = _writable(state)
    d.rows = _set(state.rows, player, row)
    d.contents = _set(state.contents, action.grave, VampireIn(colour))
    d.pending = None
    d.placed_this_turn = state.placed_this_turn + 1
    if not row:
        return _win(state, player, events)  # du-en:end.first-empty
    ext = state.config.expansion
    if ext is not None:
        state = ext.on_placed(state, player, _hook_events(events))
    if state.plague is not None:
        return _continue_plague(state, events)  # du-en:ch4.match: may go on
    if state.config.options.after_match == "turn-ends":
        return _end_turn(state, events, "du-en:ch1.continue")
    # du-en:ch1.continue: the player may open another grave or stop (du-en:ch1.close).
    d = _writable(state)
    d.phase = Phase.OPEN
    d.may_stop = True
    return state


def _place_garlic_or_leave(
    state: State, action: PlaceGarlic | LeaveEmpty, events: Events
) -> State:
    """du-en:ch1.no-match, du-en:ch1.garlic (in a plague du-en:ch4.garlic)."""
    plague = state.plague
    player = plague.current if plague is not None else state.turn_player  # acting_player
    d = _writable(state)
    d.pending = None
    if isinstance(action, PlaceGarlic):
        d.contents = _set(state.contents, action.grave, GarlicIn(player))
        d.garlic_hand = _set(state.garlic_hand, player, state.garlic_hand[player] - 1)
        _emit(events, EventKind.PLACE_GARLIC, player, action.grave, None,
                            "du-en:ch1.garlic")
    else:
        _emit(events, EventKind.LEAVE_EMPTY, player, action.grave, None,
                            "du-en:ch1.garlic")
    ext = state.config.expansion
    if ext is not None:
        state = ext.on_unmatched(state)
    return _after_resolution(state, events, "du-en:ch1.no-match-ends")


def _after_resolution(state: State, events: Events, turn_end_clause: str,
                      occupied: bool = False, **changes: Any) -> State:
    """After a grave is dealt with: in a plague go on (du-en:ch4.occupied; under
    ``plague_occupied=pass`` a stake or garlic ends the player's go), else end the turn.
    ``changes``: fields of ``state`` still to be changed (merged into one rebuild)."""
    if state.plague is not None:
        if occupied and state.config.options.plague_occupied == "pass":
            if changes:
                state = _with(state, **changes)
            if not openable(state):  # du-en:ch4.end-all-opened, du-cs:prubeh.rat-end
                return _end_plague(state, events, "du-en:ch4.end-all-opened")
            return _stop(_with(state, phase=Phase.OPEN), events)
        return _continue_plague(_with(state, **changes) if changes else state, events)
    return _end_turn(state, events, turn_end_clause, **changes)


def _end_turn(state: State, events: Events, clause: str, **changes: Any) -> State:
    """The turn passes to the left neighbour; all graves are closed (du-en:qr.close-at-end).
    ``changes``: fields of ``state`` still to be changed (written first). Lent to the
    expansions and the mutants (:data:`end_turn`): given a sealed state it works on a draft
    of it and returns that sealed."""
    if state.__class__ is not _DRAFT:
        return _seal(_end_turn(_draft(state), events, clause, **changes))
    nxt = _left(state.config, state.turn_player)
    _emit(events, EventKind.TURN, nxt, None, None, clause)
    return _next_turn(state, nxt, events, **changes)


def _next_turn(state: State, nxt: int, events: Events, **changes: Any) -> State:
    if changes:
        state = _with(state, **changes)
    ext = state.config.expansion
    if ext is not None:
        assert events is not None, "an expansion's hook without an event list"
        found = ext.end_turn(state, nxt, events)
        if found is not None:
            return found
    return _start_turn(state, nxt)


def _start_turn(state: State, player: int, **changes: Any) -> State:
    """A new turn for ``player``; with 2 players the graves the opponent opened after this
    player are barred (du-en:2p.reopen). ``changes``: fields of ``state`` still to be changed
    (written first). Lent as :data:`start_turn`: given a sealed state it works on a draft of
    it and returns that sealed."""
    if state.__class__ is not _DRAFT:
        return _seal(_start_turn(_draft(state), player, **changes))
    if changes:
        state = _with(state, **changes)
    d = _writable(state)
    if state.config.players == 2:
        windows = state.windows
        mine = set(windows[player])
        d.barred = tuple(g for g in sorted(set(windows[1 - player])) if g in mine)
        d.windows = _set(windows, player, ())
    else:
        d.barred = ()
    d.turn_player = player
    d.phase = Phase.OPEN
    d.may_stop = False
    d.pending = None
    d.placed_this_turn = 0
    ext = state.config.expansion
    if ext is not None:
        state = ext.on_turn_start(state, player)
    return state


def _stop(state: State, events: Events) -> State:
    plague = state.plague
    if plague is None:
        _emit(events, EventKind.STOP, state.turn_player, None, None, "du-en:ch1.continue")
        return _end_turn(state, events, "du-en:ch1.continue")
    if state.config.expansion is not None:
        state = state.config.expansion.on_unmatched(state)
    # du-en:ch4.pass: the left neighbour may continue; du-en:ch4.end-all-passed
    _emit(events, EventKind.PLAGUE_PASS, plague.current, None, None, "du-en:ch4.pass")
    n = state.config.players
    idle = plague.idle + 1
    # du-en:ch4.end-all-passed: everybody had a chance (one-round), or everybody in a row
    # declined (until-all-pass).
    one_round = state.config.options.plague_round == "one-round"
    done = plague.turns >= n if one_round else idle >= n
    if done:
        return _end_plague(state, events, "du-en:ch4.end-all-passed")
    nxt = _left(state.config, plague.current)
    return _with(state, plague=_plague_with(plague, current=nxt, turns=plague.turns + 1,
                                            idle=idle, current_opened=False), phase=Phase.OPEN)


def _plague_with(plague: Plague, **changes: Any) -> Plague:
    """``dataclasses.replace`` for a plague (a plain constructor call, much faster)."""
    values: dict[str, Any] = {
        "origin": plague.origin, "holder": plague.holder, "current": plague.current,
        "turns": plague.turns, "opened": plague.opened, "idle": plague.idle,
        "current_opened": plague.current_opened}
    values.update(changes)
    return Plague(**values)


def _continue_plague(state: State, events: Events) -> State:
    plague = state.plague
    assert plague is not None
    if not openable(state):  # du-en:ch4.end-all-opened
        return _end_plague(state, events, "du-en:ch4.end-all-opened")
    return _with(state, phase=Phase.OPEN, pending=None)


def _close_plague(state: State, plague: Plague) -> State:
    """du-en:ch4.cleanup / du-en:ch5.cleanup: rat lid out, reserve lid on the rat's grave.

    The graves opened in the plague are closed again simply by forgetting ``plague.opened``.
    """
    lids = _set(state.lids, plague.origin, state.reserve[0])
    known = _set(state.known, plague.origin, False)  # the new lid is unseen
    return _with(state, lids=lids, known=known, reserve=state.reserve[1:],
                   removed_rats=state.removed_rats + 1, plague=None)


def _end_plague(state: State, events: Events, clause: str) -> State:
    plague = state.plague
    assert plague is not None
    _emit(events, EventKind.PLAGUE_END, plague.holder, plague.origin, None, clause)
    state = _close_plague(state, plague)
    # du-en:ch4.next-turn: the left neighbour of the plague's starter moves next (or of the
    # player who ended it, under after_plague_turn=left-of-last).
    last = plague.holder if state.config.options.after_plague_turn == "left-of-starter" \
        else plague.current
    nxt = _left(state.config, last)
    _emit(events, EventKind.TURN, nxt, None, None, "du-en:ch4.next-turn")
    return _next_turn(state, nxt, events)


def _rat_found(state: State, finder: int, grave: int, events: Events) -> State:
    """du-en:ch4.rat; during a plague du-en:ch4.end-new-rat, du-en:ch5.new-plague."""
    old = state.plague
    holder = finder
    if state.config.expansion is not None:
        state = state.config.expansion.on_unmatched(state)
    if old is not None:
        _emit(events, EventKind.PLAGUE_END, old.holder, old.origin, None,
                            "du-en:ch4.end-new-rat")
        state = _close_plague(state, old)  # du-en:ch5.cleanup
        rule = state.config.options.second_rat
        if rule == "finder":
            if finder == old.holder:  # du-en:ch5.hand-over
                holder = _left(state.config, finder)
        elif rule == "opponent":  # du-en:2p.plague: the finder's opponent takes over
            holder = _left(state.config, finder)
        else:
            holder = _left(state.config, old.holder)
        if holder != finder:
            _emit(events, EventKind.RAT_HANDED_OVER, finder, grave, holder,
                                "du-en:ch5.hand-over")
    # du-en:ch4.rat: the rat lid lies in front of its holder; du-en:2p.rat-stays: with two
    # players it stays face up on its grave.
    lids = state.lids if state.config.rat_lid_stays else _set(state.lids, grave, None)
    known = state.known if state.config.rat_lid_stays else _set(state.known, grave, False)
    _emit(events, EventKind.PLAGUE_START, holder, grave, None,
                        "du-en:ch5.holder-starts" if old else "du-en:ch4.rat")
    plague = Plague(origin=grave, holder=holder, current=holder, turns=1, opened=())
    # The plague replaces the finder's turn; the turn afterwards follows the holder.
    state = _with(state, lids=lids, known=known, plague=plague, phase=Phase.OPEN, pending=None,
                  turn_player=holder)
    return _continue_plague(state, events)


def _win(state: State, player: int, events: Events) -> State:
    """du-en:end.first-empty / du-en:aim.win: the game ends at once. Lent as :data:`win`
    (a sealed state gives a sealed copy)."""
    _emit(events, EventKind.WIN, player, None, None, "du-en:end.first-empty")
    # A vampire still in transit stays counted in ``in_transit`` (conservation).
    return _with(state, phase=Phase.OVER, winner=player, gifts=(), pending=None)


_BASE_TRANSITIONS: dict[type, Callable[[State, Any, Events], State]] = {
    OpenGrave: _open_grave,
    PlaceVampire: _place_vampire,
    PlaceGarlic: _place_garlic_or_leave,
    LeaveEmpty: _place_garlic_or_leave,
    Stop: _on_stop,
    GiveVampire: _give,
    ReceiveVampire: _receive,
}
"""The transition of each base action type (in the base game's phases)."""


# The base transitions an expansion builds on (public names for the expansions' modules).
with_changes = _with
writable = _writable
set_at = _set
place_action = _place
remove_end = _remove_end
others = _others
left_of = _left
gift_due = _gift_due
end_turn = _end_turn
start_turn = _start_turn
win = _win


__all__ = [
    "apply",
    "apply_legal",
    "current_player",
    "deal",
    "initial_state",
    "is_terminal",
    "legal_actions",
    "new_game",
    "step",
    "step_legal",
    "winner",
]
