"""The executable rules of Dawn Under, 3-6 players (du-en): legal actions and transitions.

Layered legality (after python-chess): :func:`legal_actions` lists what the player to move may
do, in a deterministic order; :func:`apply` / :func:`step` check an action against that list and
raise :class:`ruleproof.errors.IllegalAction` naming the clause(s) that forbid it, leaving the
state untouched (states are immutable). :func:`step` also returns the public events.

Every rule is cited by its clause id from ``spec/du-en/clauses.toml``.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any, TypeVar

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    BatClaim,
    Believe,
    Config,
    CountTo,
    Doubt,
    End,
    Event,
    EventKind,
    GarlicIn,
    Gift,
    GiftTo,
    GiveVampire,
    Gruft,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    Plague,
    PlayBat,
    ReceiveVampire,
    Row,
    Setup,
    State,
    Stop,
    Vampire,
    VampireIn,
)
from ruleproof.model.dawn_under.state import with_gruft as _g

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
    gruft = config.options.expansion == "gruft"
    rows = []
    for p, colours in enumerate(setup.rows):
        if not colours:
            raise MalformedInput(f"player {p} starts without vampires")
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
        # gruft-en:prep.bats: two bats per player colour (gruft-en:components.bats);
        # gruft-en:prep.count: the one Count on the one post in the middle of the board
        # (post None, gruft-en:components.count); gruft-en:prep.base otherwise.
        gruft=Gruft(bats=(2,) * config.players, bats_out=(0,) * config.players)
        if gruft else None,
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
    if state.gruft is not None and phase in _GRUFT_PHASES:
        return _gruft_mover(state)
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
    return tuple(e for e in row_ends(row) if outermost(row, e).colour == lid)


def _wild(state: State, grave: int) -> bool:
    """A lidless grave of the 2-player game that counts as usable (option lidless_grave)."""
    return (state.config.players == 2 and state.config.options.lidless_grave == "wild"
            and state.lids[grave] is None)


_OPEN_ACTIONS: tuple[OpenGrave, ...] = tuple(OpenGrave(g) for g in range(256))
"""Immutable, shared OpenGrave actions (legal_actions builds these lists very often)."""


def _open(grave: int) -> OpenGrave:
    return _OPEN_ACTIONS[grave] if 0 <= grave < len(_OPEN_ACTIONS) else OpenGrave(grave)


def openable(state: State) -> tuple[int, ...]:
    """Graves the acting player may open now.

    Outside a plague any grave with a lid (du-en:ch1.open). In a plague only neighbours of the
    rat's grave (du-en:ch4.neighbours, du-en:ch4.only-neighbours) not yet opened in it
    (du-en:ch4.stay-open); the acting player picks any of them, in any order (du-en:ch4.order).
    """
    plague = state.plague
    if state.gruft is not None:
        return _gruft_openable(state)
    if plague is None:
        lids = state.lids
        if state.config.players != 2 and None not in lids:
            return tuple(range(len(lids)))  # fast path: every grave has a lid (du-en:ch1.open)
        forbidden = set(state.barred) if state.config.options.reopen_rule == "forbidden" else ()
        return tuple(g for g, lid in enumerate(lids)
                     if (lid is not None or _wild(state, g)) and g not in forbidden)
    return tuple(
        g
        for g in state.config.board.neighbours[plague.origin]
        if g not in plague.opened and (state.lids[g] is not None or _wild(state, g))
    )


def _gruft_openable(state: State) -> tuple[int, ...]:
    """With the expansion: graves left open this turn cannot be opened again
    (gruft-en:play.keep-open), and nobody opens the Count's grave by turning its lid, not even
    in a plague (gruft-en:count.guard, gruft-en:faq.count-plague, gruft-en:faq.rat-ignored)."""
    plague = state.plague
    # reading gruft_plague_open=closed: the finder's open graves closed when the plague began
    keep = plague is None or state.config.options.gruft_plague_open == "stay-open"
    shut = set(state.open_graves) if keep else set()
    if state.count_grave is not None:
        shut.add(state.count_grave)
    if plague is None:
        return tuple(g for g, lid in enumerate(state.lids) if lid is not None and g not in shut)
    return tuple(g for g in state.config.board.neighbours[plague.origin]
                 if g not in plague.opened and state.lids[g] is not None and g not in shut)


def _open_actions(state: State) -> list[Action]:
    """OpenGrave actions for :func:`openable`, sharing the immutable action objects."""
    lids = state.lids
    if (state.plague is None and state.gruft is None and state.config.players != 2
            and None not in lids and len(lids) <= len(_OPEN_ACTIONS)):
        return list(_OPEN_ACTIONS[: len(lids)])
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
        out.extend(PlaceVampire(g, e) for e in ends)
        if not ends and state.garlic_hand[player] > 0:
            out.append(PlaceGarlic(g))
    return tuple(out)


def legal_actions(state: State) -> tuple[Action, ...]:
    """All legal actions of :func:`current_player`, in a deterministic order.

    Order: graves by id, then ends LEFT before RIGHT, then garlic before leaving empty, Stop last.
    """
    phase = state.phase
    if phase is Phase.OPEN:
        actions: list[Action] = _open_actions(state)
        actions.extend(late_placements(state))
        if state.gruft is not None and state.plague is None and state.bats[state.turn_player] > 0:
            # gruft-en:bats.declare: instead of opening a grave; gruft-en:bats.once
            actions.extend(PlayBat(g) for g in openable(state))
        if _may_stop(state):
            actions.append(Stop())  # du-en:ch1.continue, du-en:ch4.pass
        return tuple(actions)
    if phase is Phase.PLACE:
        grave = state.pending
        assert grave is not None
        ends = matching_ends(state, grave)
        if ends:  # du-en:ch1.match, du-en:ch1.two-match
            placements: tuple[Action, ...] = tuple(PlaceVampire(grave, e) for e in ends)
            if state.config.options.match_placement == "optional":
                placements += (LeaveEmpty(grave),)
            return placements
        player = acting_player(state)
        out: list[Action] = []
        if state.garlic_hand[player] > 0:  # du-en:ch1.garlic
            out.append(PlaceGarlic(grave))
        out.append(LeaveEmpty(grave))
        return tuple(out)
    if phase is Phase.GIVE:
        return tuple(GiveVampire(e) for e in row_ends(state.rows[state.gifts[0].giver]))
    if phase is Phase.RECEIVE:
        receiver = state.gifts[0].receiver
        return tuple(ReceiveVampire(e) for e in row_ends(state.rows[receiver]))
    if state.gruft is not None and phase in _GRUFT_PHASES:
        return _gruft_legal(state)
    return ()


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
    if state.gruft is not None:
        found = _gruft_why(state, action)
        if found is not None:
            return found
    expected = {
        Phase.OPEN: "open a grave" + (" or stop" if _may_stop(state) else ""),
        Phase.PLACE: f"decide about grave {state.pending}",
        Phase.GIVE: f"player {current_player(state)} chooses a vampire to hand over",
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


def apply(state: State, action: Action) -> State:
    """The successor of ``state`` under ``action`` (pure).

    Raises:
        IllegalAction: if ``action`` is not in :func:`legal_actions`; the error names the
            clause(s) that forbid it. ``state`` is unchanged (it is immutable).
    """
    return step(state, action)[0]


_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
_ALL_FIELDS = attrgetter(*_STATE_FIELDS)
_FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(_STATE_FIELDS)}


def _with(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for states, several times faster (one C-level read of all
    fields and a positional constructor call; transitions replace fields a few times per
    action)."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


def _is_legal(state: State, action: Action) -> bool:
    """``action in legal_actions(state)``, without building the list for grave openings."""
    if type(action) is OpenGrave and state.phase is Phase.OPEN:
        return action.grave in openable(state)
    return action in legal_actions(state)


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Like :func:`apply`, also returning the public events of the transition, in order."""
    if not _is_legal(state, action):
        reason, clauses = why_illegal(state, action)
        raise IllegalAction(action, reason, clauses)
    events: list[Event] = []
    if state.gruft is not None and (state.phase in _GRUFT_PHASES or isinstance(action, PlayBat)):
        new = _gruft_step(state, action, events)
    elif isinstance(action, OpenGrave):
        new = _open_grave(state, action.grave, events)
    elif isinstance(action, PlaceVampire):
        new = _place_vampire(state, action, events)
    elif isinstance(action, PlaceGarlic | LeaveEmpty):
        new = _place_garlic_or_leave(state, action, events)
    elif isinstance(action, Stop):
        new = _stop(state, events)
    elif isinstance(action, GiveVampire):
        new = _give(state, action.end, events)
    else:
        assert isinstance(action, ReceiveVampire)
        new = _receive(state, action.end, events)
    return new, tuple(events)


def _set(seq: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def _open_grave(state: State, grave: int, events: list[Event]) -> State:
    player = acting_player(state)
    lid = state.lids[grave]
    known = state.known if state.known[grave] or lid is None else _set(state.known, grave, True)
    events.append(Event(EventKind.REVEAL, player, grave, lid, "du-en:ch1.open"))
    windows = state.windows
    if state.config.players == 2:
        windows = _set(windows, player, (*windows[player], grave))
    plague = state.plague
    if plague is not None:
        plague = replace(plague, idle=0, current_opened=True)
    state = _with(state, known=known, may_stop=False, windows=windows, plague=plague)
    if lid == RAT:
        return _rat_found(state, player, grave, events)
    if state.gruft is not None and plague is None:
        # gruft-en:play.keep-open: the grave stays open until the end of the turn.
        state = _g(state, open_graves=(*state.open_graves, grave))
    if plague is None and grave in state.barred:
        # du-en:2p.reopen (reading stake-and-end): the grave is opened anyway: a stake, and the
        # turn ends without using the grave.
        return _take_stake(state, player, events, "du-en:2p.reopen")
    plague = state.plague
    if plague is not None:
        # du-en:ch4.stay-open: the grave stays open for the rest of the plague.
        state = _with(state, plague=replace(plague, opened=(*plague.opened, grave)))
    content = state.contents[grave]
    if content is None:
        return _with(state, phase=Phase.PLACE, pending=grave)
    if isinstance(content, VampireIn):
        return _take_stake(state, player, events)
    return _garlic_found(state, player, grave, content, events)


def _take_stake(state: State, player: int, events: list[Event],
                clause: str = "du-en:ch2.stake") -> State:
    """du-en:ch2.stake; the third stake triggers du-en:ch2.gift and du-en:ch2.stakes-back
    (with 2 players four vampires, du-en:2p.own-garlic-stake)."""
    config = state.config
    if state.streak:
        state = _g(state, streak=0)
    if state.stakes_path == 0:
        # No source says what happens (unreachable under du-en: stakes_never_run_out).
        if config.options.empty_path == "no-stake":
            return _after_resolution(state, events, "du-en:ch2.ends", occupied=True)
        held, path = state.stakes_held[player], 0
        gift_due = True
    else:
        held = state.stakes_held[player] + 1
        path = state.stakes_path - 1
        events.append(Event(EventKind.STAKE, player, None, held, clause))
        gift_due = _gift_due(held, config)
    if gift_due:
        events.append(Event(EventKind.STAKES_BACK, player, None, held, "du-en:ch2.stakes-back"))
        path += held
        held = 0
    stakes = tuple(held if p == player else s for p, s in enumerate(state.stakes_held))
    state = _with(state, stakes_held=stakes, stakes_path=path)
    if gift_due:
        gifts = tuple(Gift(g, player, "du-en:ch2.gift") for g in _others(config, player)
                      for _ in range(config.gift_stake))
        return _start_gifts(state, gifts, events)
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
    state: State, player: int, grave: int, garlic: GarlicIn, events: list[Event]
) -> State:
    """du-en:ch3.other-garlic / du-en:ch3.own-garlic, then du-en:ch3.garlic-back."""
    owner = garlic.owner
    if state.streak:
        state = _g(state, streak=0)
    contents = _set(state.contents, grave, None)
    hand = tuple(h + 1 if p == owner else h for p, h in enumerate(state.garlic_hand))
    events.append(Event(EventKind.GARLIC_BACK, owner, grave, None, "du-en:ch3.garlic-back"))
    state = _with(state, contents=contents, garlic_hand=hand)
    config = state.config
    if owner == player:
        gifts = tuple(Gift(g, player, "du-en:ch3.own-garlic")
                      for g in _others(config, player) for _ in range(config.gift_own_garlic))
    else:
        gifts = (Gift(owner, player, "du-en:ch3.other-garlic"),) * config.gift_other_garlic
    # du-en:ch3.no-place: the emptied grave cannot be used now (no PLACE phase follows).
    return _start_gifts(state, gifts, events)


def _start_gifts(state: State, gifts: tuple[Gift, ...], events: list[Event]) -> State:
    return _with(state, gifts=gifts, phase=Phase.GIVE, pending=None)


def _give(state: State, end: End, events: list[Event]) -> State:
    gift = state.gifts[0]
    colour, row = _remove_end(state.rows[gift.giver], end, state.config)
    events.append(Event(EventKind.GIVE, gift.giver, None, colour, gift.clause))
    rows = tuple(row if p == gift.giver else r for p, r in enumerate(state.rows))
    state = _with(state, rows=rows, in_transit=colour, phase=Phase.RECEIVE)
    if not row:  # du-en:aim.win: handing over the last vampire wins as well
        return _win(state, gift.giver, events)
    return state


def _receive(state: State, end: End, events: list[Event]) -> State:
    gift = state.gifts[0]
    assert state.in_transit is not None
    vampire = Vampire(state.in_transit, True)  # du-en:ch3.received-open
    row = state.rows[gift.receiver]
    row = (vampire, *row) if end is End.LEFT else (*row, vampire)
    events.append(Event(EventKind.RECEIVE, gift.receiver, None, vampire.colour,
                        "du-en:ch3.received-open"))
    rows = tuple(row if p == gift.receiver else r for p, r in enumerate(state.rows))
    state = _with(state, rows=rows, in_transit=None, gifts=state.gifts[1:])
    if state.gifts:
        return _with(state, phase=Phase.GIVE)
    if state.then_put is not None:
        # gruft-en:bats.doubt-vampire, bats.doubt-garlic, bats.believed-vampire: a vampire
        # goes into the emptied grave once the hand-overs are done.
        return _g(_with(state, phase=Phase.PUT), putter=state.then_put, then_put=None)
    clause = "du-en:ch2.ends" if gift.clause == "du-en:ch2.gift" else "du-en:ch3.ends"
    return _after_resolution(state, events, clause, occupied=True)


def _place_vampire(state: State, action: PlaceVampire, events: list[Event]) -> State:
    """du-en:ch1.match (in a plague du-en:ch4.match); the row refills (du-en:row.refill)."""
    player = acting_player(state)
    colour, row = _remove_end(state.rows[player], action.end, state.config)
    events.append(Event(EventKind.PLACE_VAMPIRE, player, action.grave, colour, "du-en:ch1.match"))
    rows = tuple(row if p == player else r for p, r in enumerate(state.rows))
    contents = _set(state.contents, action.grave, VampireIn(colour))
    state = _with(state, rows=rows, contents=contents, pending=None,
                    placed_this_turn=state.placed_this_turn + 1)
    if not row:
        return _win(state, player, events)  # du-en:end.first-empty
    if state.gruft is not None:
        state = _count_streak(state, player, events)
    if state.plague is not None:
        return _continue_plague(state, events)  # du-en:ch4.match: may go on
    if state.config.options.after_match == "turn-ends":
        return _end_turn(state, events, "du-en:ch1.continue")
    # du-en:ch1.continue: the player may open another grave or stop (du-en:ch1.close).
    return _with(state, phase=Phase.OPEN, may_stop=True)


def _place_garlic_or_leave(
    state: State, action: PlaceGarlic | LeaveEmpty, events: list[Event]
) -> State:
    """du-en:ch1.no-match, du-en:ch1.garlic (in a plague du-en:ch4.garlic)."""
    player = acting_player(state)
    if isinstance(action, PlaceGarlic):
        contents = _set(state.contents, action.grave, GarlicIn(player))
        hand = tuple(h - 1 if p == player else h for p, h in enumerate(state.garlic_hand))
        events.append(Event(EventKind.PLACE_GARLIC, player, action.grave, None,
                            "du-en:ch1.garlic"))
        state = _with(state, contents=contents, garlic_hand=hand)
    else:
        events.append(Event(EventKind.LEAVE_EMPTY, player, action.grave, None,
                            "du-en:ch1.garlic"))
    state = _with(state, pending=None)
    if state.streak:
        state = _g(state, streak=0)
    return _after_resolution(state, events, "du-en:ch1.no-match-ends")


def _after_resolution(state: State, events: list[Event], turn_end_clause: str,
                      occupied: bool = False) -> State:
    """After a grave is dealt with: in a plague go on (du-en:ch4.occupied; under
    ``plague_occupied=pass`` a stake or garlic ends the player's go), else end the turn."""
    if state.plague is not None:
        if occupied and state.config.options.plague_occupied == "pass":
            return _stop(_with(state, phase=Phase.OPEN), events)
        return _continue_plague(state, events)
    return _end_turn(state, events, turn_end_clause)


def _end_turn(state: State, events: list[Event], clause: str) -> State:
    """The turn passes to the left neighbour; all graves are closed (du-en:qr.close-at-end)."""
    nxt = _left(state.config, state.turn_player)
    events.append(Event(EventKind.TURN, nxt, None, None, clause))
    if state.gruft is not None:
        return _pass_turn(state, nxt, events)
    return _start_turn(state, nxt)


def _start_turn(state: State, player: int) -> State:
    """A new turn for ``player``; with 2 players the graves the opponent opened after this
    player are barred (du-en:2p.reopen)."""
    windows = state.windows
    barred: tuple[int, ...] = ()
    if state.config.players == 2:
        opponent = 1 - player
        mine = set(windows[player])
        barred = tuple(g for g in sorted(set(windows[opponent])) if g in mine)
        windows = _set(windows, player, ())
    if state.gruft is not None:
        # gruft-en:play.keep-open: the graves of the last turn are closed now.
        phase = Phase.OPEN
        if state.post == player and state.count_grave is not None:
            phase = Phase.COUNT_OPEN  # gruft-en:count.open-start
        state = _with(state, turn_player=player, phase=phase, may_stop=False, pending=None,
                        placed_this_turn=0)
        return _g(state, open_graves=(), streak=0, next_turn=None)
    return _with(state, turn_player=player, phase=Phase.OPEN, may_stop=False, pending=None,
                   placed_this_turn=0, windows=windows, barred=barred)


def _stop(state: State, events: list[Event]) -> State:
    plague = state.plague
    if plague is None:
        events.append(Event(EventKind.STOP, state.turn_player, None, None, "du-en:ch1.continue"))
        return _end_turn(state, events, "du-en:ch1.continue")
    if state.streak:
        state = _g(state, streak=0)
    # du-en:ch4.pass: the left neighbour may continue; du-en:ch4.end-all-passed
    events.append(Event(EventKind.PLAGUE_PASS, plague.current, None, None, "du-en:ch4.pass"))
    n = state.config.players
    idle = plague.idle + 1
    # du-en:ch4.end-all-passed: everybody had a chance (one-round), or everybody in a row
    # declined (until-all-pass).
    one_round = state.config.options.plague_round == "one-round"
    done = plague.turns >= n if one_round else idle >= n
    if done:
        return _end_plague(state, events, "du-en:ch4.end-all-passed")
    nxt = _left(state.config, plague.current)
    return _with(state, plague=replace(plague, current=nxt, turns=plague.turns + 1, idle=idle,
                                         current_opened=False), phase=Phase.OPEN)


def _continue_plague(state: State, events: list[Event]) -> State:
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


def _end_plague(state: State, events: list[Event], clause: str) -> State:
    plague = state.plague
    assert plague is not None
    events.append(Event(EventKind.PLAGUE_END, plague.holder, plague.origin, None, clause))
    state = _close_plague(state, plague)
    # du-en:ch4.next-turn: the left neighbour of the plague's starter moves next (or of the
    # player who ended it, under after_plague_turn=left-of-last).
    last = plague.holder if state.config.options.after_plague_turn == "left-of-starter" \
        else plague.current
    nxt = _left(state.config, last)
    events.append(Event(EventKind.TURN, nxt, None, None, "du-en:ch4.next-turn"))
    if state.gruft is not None:
        return _pass_turn(state, nxt, events)
    return _start_turn(state, nxt)


def _rat_found(state: State, finder: int, grave: int, events: list[Event]) -> State:
    """du-en:ch4.rat; during a plague du-en:ch4.end-new-rat, du-en:ch5.new-plague."""
    old = state.plague
    holder = finder
    if state.gruft is not None:
        state = _g(state, streak=0)
    if old is not None:
        events.append(Event(EventKind.PLAGUE_END, old.holder, old.origin, None,
                            "du-en:ch4.end-new-rat"))
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
            events.append(Event(EventKind.RAT_HANDED_OVER, finder, grave, holder,
                                "du-en:ch5.hand-over"))
    # du-en:ch4.rat: the rat lid lies in front of its holder; du-en:2p.rat-stays: with two
    # players it stays face up on its grave.
    lids = state.lids if state.config.rat_lid_stays else _set(state.lids, grave, None)
    known = state.known if state.config.rat_lid_stays else _set(state.known, grave, False)
    events.append(Event(EventKind.PLAGUE_START, holder, grave, None,
                        "du-en:ch5.holder-starts" if old else "du-en:ch4.rat"))
    plague = Plague(origin=grave, holder=holder, current=holder, turns=1, opened=())
    state = _with(state, lids=lids, known=known, plague=plague,
                    phase=Phase.OPEN, pending=None)
    # The plague replaces the finder's turn; the turn afterwards follows the holder.
    state = _with(state, turn_player=holder)
    return _continue_plague(state, events)


# ----------------------------------------------------------------------------- expansion gruft-en
# "Frische Luft für die Gruft": Count Rucola, the post, bats, graves left open. Active when
# ``options.expansion == "gruft"`` (then ``state.bats`` is non-empty; gruft-en:play.base: the
# base rules apply otherwise; gruft-en:aim.win and gruft-en:end.win: winning is unchanged).

_GRUFT_PHASES = frozenset({Phase.COUNT_OPEN, Phase.COUNT_PLACE, Phase.COUNT_MOVE, Phase.BAT,
                           Phase.BAT_GIFT, Phase.PUT})


def _gruft_mover(state: State) -> int:
    phase = state.phase
    if phase is Phase.PUT:
        assert state.putter is not None
        return state.putter
    if phase is Phase.BAT:
        return _next_asked(state)
    if phase is Phase.BAT_GIFT:
        assert state.bat is not None
        return state.bat.owner
    assert state.post is not None
    return state.post  # the Count's phases: its holder decides


def _next_asked(state: State) -> int:
    """gruft-en:bats.ask: the other players are asked in turn order, from the left neighbour."""
    bat = state.bat
    assert bat is not None
    return _others(state.config, bat.owner)[len(bat.believed)]


def count_graves(state: State) -> tuple[int, ...]:
    """Graves the Count may be stood on now (gruft-en:count.place; after a placement only the
    next quarter clockwise, gruft-en:count.move). Reading ``gruft_count_choice=blind``: any
    closed grave with a lid (it is chosen without looking); ``empty-only``: only graves known
    to be empty (if there is none, any closed grave)."""
    board = state.config.board
    shut = set(state.open_graves)
    if state.count_grave is not None:
        shut.add(state.count_grave)
    graves = [g for g, lid in enumerate(state.lids) if lid is not None and g not in shut]
    if state.phase is Phase.COUNT_MOVE:
        assert state.pending is not None
        quarter = (board.quarter_of[state.pending] + 1) % len(board.quarters)
        graves = [g for g in graves if board.quarter_of[g] == quarter]
    if state.config.options.gruft_count_choice == "empty-only":
        empty = [g for g in graves if state.contents[g] is None]
        graves = empty or graves
    return tuple(graves)


def _gruft_legal(state: State) -> tuple[Action, ...]:
    phase = state.phase
    if phase is Phase.COUNT_OPEN:
        assert state.count_grave is not None
        return (_open(state.count_grave),)  # gruft-en:count.open-start
    if phase in (Phase.COUNT_PLACE, Phase.COUNT_MOVE):
        return tuple(CountTo(g) for g in count_graves(state))
    if phase is Phase.BAT:
        return (Believe(), Doubt())  # gruft-en:bats.ask
    if phase is Phase.BAT_GIFT:
        assert state.bat is not None
        # gruft-en:bats.believed-vampire: to any (other) player
        return tuple(GiftTo(p) for p in _others(state.config, state.bat.owner))
    assert state.putter is not None and state.pending is not None
    grave = state.pending
    return tuple(PlaceVampire(grave, e) for e in row_ends(state.rows[state.putter]))


_GRUFT_EXPECT = {
    Phase.COUNT_OPEN: ("the turn starts by opening the Count's grave",
                       ("gruft-en:count.open-start",)),
    Phase.COUNT_PLACE: ("the Count is stood on a grave", ("gruft-en:count.place",)),
    Phase.COUNT_MOVE: ("the Count moves to a grave of the next quarter", ("gruft-en:count.move",)),
    Phase.BAT: ("the bat's claim is believed or doubted", ("gruft-en:bats.ask",)),
    Phase.BAT_GIFT: ("the vampire found under the bat is given to a player",
                     ("gruft-en:bats.believed-vampire",)),
    Phase.PUT: ("an outermost vampire is put into the grave", ("gruft-en:bats.open",
                                                              "gruft-en:count.empty")),
}


def _gruft_why(state: State, action: Action) -> tuple[str, tuple[str, ...]] | None:
    """Reasons with gruft-en clause ids, or None to fall back to the base diagnosis."""
    phase = state.phase
    if phase in _GRUFT_EXPECT:
        what, clauses = _GRUFT_EXPECT[phase]
        if phase is Phase.PUT and isinstance(action, PlaceVampire):
            if action.grave != state.pending:
                return f"only grave {state.pending} takes the vampire now", clauses
            return "a single vampire is addressed as the left end", ("du-en:ch1.outermost",)
        if isinstance(action, CountTo) and phase in (Phase.COUNT_PLACE, Phase.COUNT_MOVE):
            if phase is Phase.COUNT_MOVE:
                return (f"grave {action.grave} is not a closed grave of the next quarter "
                        "clockwise", ("gruft-en:count.move",))
            return (f"the Count cannot stand on grave {action.grave}",
                    ("gruft-en:count.place", "gruft-en:play.keep-open"))
        if isinstance(action, GiftTo):
            return "the vampire goes to another player", ("gruft-en:bats.believed-vampire",)
        return f"expected: {what}", clauses
    if isinstance(action, Believe | Doubt):
        return "no bat is waiting for an answer", ("gruft-en:bats.ask",)
    if isinstance(action, CountTo):
        return "the Count is not being placed now", ("gruft-en:count.place",)
    if isinstance(action, GiftTo):
        return "no vampire from under a bat is being given", ("gruft-en:bats.believed-vampire",)
    g = getattr(action, "grave", None)
    if isinstance(action, OpenGrave | PlayBat) and phase is Phase.OPEN and g is not None \
            and 0 <= g < len(state.lids):
        if g == state.count_grave:
            if state.plague is not None:
                return (f"grave {g} is kept by Count Rucola: not even in a plague",
                        ("gruft-en:faq.count-plague", "gruft-en:count.guard"))
            return (f"grave {g} is kept by Count Rucola for player {state.post}",
                    ("gruft-en:count.guard", "gruft-en:faq.rat-ignored"))
        if g in state.open_graves:
            return (f"grave {g} is already open this turn", ("gruft-en:play.keep-open",))
        if isinstance(action, PlayBat):
            if state.plague is not None:
                return "bats are not played in a rat plague (reading)", ("gruft-en:bats.declare",)
            if state.bats[state.turn_player] == 0:
                return "no bat left: each bat is used once", ("gruft-en:bats.once",)
    if isinstance(action, PlayBat):
        return "a bat is put on a grave instead of opening one", ("gruft-en:bats.declare",)
    return None


def _gruft_step(state: State, action: Action, events: list[Event]) -> State:
    if isinstance(action, PlayBat):
        return _play_bat(state, action.grave, events)
    if isinstance(action, Believe | Doubt):
        return _answer_bat(state, isinstance(action, Doubt), events)
    if isinstance(action, GiftTo):
        bat = state.bat
        assert bat is not None
        gift = Gift(bat.owner, action.player, "gruft-en:bats.believed-vampire")
        events.append(Event(EventKind.GIVE, bat.owner, None, state.in_transit, gift.clause))
        return _g(_with(state, gifts=(gift,), phase=Phase.RECEIVE), then_put=bat.owner)
    if isinstance(action, CountTo):
        return _count_to(state, action.grave, events)
    if isinstance(action, OpenGrave):
        return _count_open(state, events)
    assert isinstance(action, PlaceVampire)
    return _put(state, action.end, events)


def _count_streak(state: State, player: int, events: list[Event]) -> State:
    """gruft-en:count.get-three: count matching placements; the third gets the Count
    (reading ``gruft_three``: in the own turn only, or in a row, plague goes included)."""
    streak = state.streak + 1
    state = _g(state, streak=streak)
    own_turn = state.plague is None or state.config.options.gruft_three == "in-a-row"
    if streak == 3 and own_turn and state.post != player:
        events.append(Event(EventKind.COUNT_GET, player, state.count_grave, state.post,
                            "gruft-en:count.get-three"))
        # gruft-en:count.continue: onto the post in front of the player, who goes on.
        state = _g(state, post=player, count_grave=None)
    return state


def _pass_turn(state: State, nxt: int, events: list[Event]) -> State:
    """gruft-en:count.place: when a turn is over and the Count stands on its holder's post,
    the holder stands it on a grave (reading ``gruft_lost_place``: a player who got it from
    the right neighbour does so after their own turn, or at once)."""
    state = _g(state, open_graves=(), bat=None)  # gruft-en:bats.close-ends
    if state.post is not None and state.count_grave is None and (
            state.post != nxt or state.config.options.gruft_lost_place == "at-once"):
        return _g(_with(state, phase=Phase.COUNT_PLACE, pending=None, may_stop=False), next_turn=nxt)
    return _start_turn(state, nxt)


def _count_to(state: State, grave: int, events: list[Event]) -> State:
    holder = state.post
    assert holder is not None
    if state.phase is Phase.COUNT_MOVE:
        events.append(Event(EventKind.COUNT_PLACE, holder, grave, None, "gruft-en:count.move"))
        # gruft-en:count.empty-continue: the turn goes on (a vampire was placed).
        return _g(_with(state, phase=Phase.OPEN, may_stop=True, pending=None), count_grave=grave)
    events.append(Event(EventKind.COUNT_PLACE, holder, grave, None, "gruft-en:count.place"))
    nxt = state.next_turn
    assert nxt is not None
    return _start_turn(_g(state, count_grave=grave, next_turn=None), nxt)


def _count_open(state: State, events: list[Event]) -> State:
    """gruft-en:count.open-start: opened without turning the lid (gruft-en:faq.rat-ignored)."""
    grave = state.count_grave
    holder = state.post
    assert grave is not None and holder is not None
    events.append(Event(EventKind.COUNT_OPEN, holder, grave, None, "gruft-en:count.open-start"))
    state = _g(state, open_graves=(*state.open_graves, grave))
    content = state.contents[grave]
    if isinstance(content, GarlicIn):
        state = _garlic_home(state, grave, content, events)
        if state.config.options.gruft_garlic == "empty":
            content = None
    if content is None:
        # gruft-en:count.empty: any outermost vampire, whatever the colour.
        return _g(_with(state, phase=Phase.PUT, pending=grave), putter=holder)
    # gruft-en:count.occupied, gruft-en:count.no-penalty: no stake, no vampires; the Count and
    # the post go to the left neighbour (gruft-en:count.get-lost) and the turn ends
    # (gruft-en:count.occupied-ends).
    left = _left(state.config, holder)
    events.append(Event(EventKind.COUNT_LOST, holder, grave, left, "gruft-en:count.get-lost"))
    state = _g(state, post=left, count_grave=None)
    return _end_turn(state, events, "gruft-en:count.occupied-ends")


def _garlic_home(state: State, grave: int, garlic: GarlicIn, events: list[Event]) -> State:
    hand = tuple(h + 1 if p == garlic.owner else h for p, h in enumerate(state.garlic_hand))
    events.append(Event(EventKind.GARLIC_BACK, garlic.owner, grave, None,
                        "du-en:ch3.garlic-back"))
    return _with(state, contents=_set(state.contents, grave, None), garlic_hand=hand)


def _play_bat(state: State, grave: int, events: list[Event]) -> State:
    """gruft-en:bats.declare; the bat leaves the player's hand for good (gruft-en:bats.once)."""
    owner = state.turn_player
    events.append(Event(EventKind.BAT, owner, grave, None, "gruft-en:bats.declare"))
    bats = _set(state.bats, owner, state.bats[owner] - 1)
    state = _with(state, phase=Phase.BAT, may_stop=False, pending=None)
    return _g(state, bats=bats, bat=BatClaim(grave, owner))


def _answer_bat(state: State, doubt: bool, events: list[Event]) -> State:
    """gruft-en:bats.ask / gruft-en:bats.open: the first doubt, or the last belief, opens the
    grave; the lid is not turned (gruft-en:faq.rat-ignored); the bat goes into the box."""
    bat = state.bat
    assert bat is not None
    asked = _next_asked(state)
    if not doubt:
        events.append(Event(EventKind.BELIEVE, asked, bat.grave, bat.owner, "gruft-en:bats.ask"))
        bat = replace(bat, believed=(*bat.believed, asked))
        state = _g(state, bat=bat)
        if len(bat.believed) < state.config.players - 1:
            return state
    else:
        events.append(Event(EventKind.DOUBT, asked, bat.grave, bat.owner, "gruft-en:bats.ask"))
    grave, owner = bat.grave, bat.owner
    content = state.contents[grave]
    out = _set(state.bats_out, owner, state.bats_out[owner] + 1)  # gruft-en:bats.once
    events.append(Event(EventKind.BAT_OPEN, owner, grave, None, "gruft-en:bats.open"))
    state = _g(_with(state, pending=grave), bats_out=out, open_graves=(*state.open_graves, grave))
    config = state.config
    if content is None:
        if not doubt:
            # gruft-en:bats.believed-empty
            return _g(_with(state, phase=Phase.PUT), putter=owner)
        # gruft-en:bats.doubt-empty: the doubter takes a stake at once (a third stake brings
        # the gift, du-en:ch2.gift), then the bat's owner puts a vampire in.
        if state.stakes_path == 0:
            return _g(_with(state, phase=Phase.PUT), putter=owner)
        held = state.stakes_held[asked] + 1
        events.append(Event(EventKind.STAKE, asked, None, held, "gruft-en:bats.doubt-empty"))
        path = state.stakes_path - 1
        gifts: tuple[Gift, ...] = ()
        if _gift_due(held, config):
            events.append(Event(EventKind.STAKES_BACK, asked, None, held,
                                "du-en:ch2.stakes-back"))
            path += held
            held = 0
            gifts = tuple(Gift(g, asked, "du-en:ch2.gift") for g in _others(config, asked)
                          for _ in range(config.gift_stake))
        state = _with(state, stakes_held=_set(state.stakes_held, asked, held),
                        stakes_path=path)
        if gifts:
            return _g(_with(state, gifts=gifts, phase=Phase.GIVE), then_put=owner)
        return _g(_with(state, phase=Phase.PUT), putter=owner)
    if isinstance(content, VampireIn):
        state = _with(state, contents=_set(state.contents, grave, None),
                        in_transit=content.colour)
        if not doubt:
            # gruft-en:bats.believed-vampire: the owner picks who gets it
            return _with(state, phase=Phase.BAT_GIFT)
        # gruft-en:bats.doubt-vampire: the owner gets it, then the doubter puts one in.
        gift = Gift(owner, owner, "gruft-en:bats.doubt-vampire")
        events.append(Event(EventKind.GIVE, owner, grave, content.colour, gift.clause))
        return _g(_with(state, gifts=(gift,), phase=Phase.RECEIVE), then_put=asked)
    state = _garlic_home(state, grave, content, events)
    if not doubt:
        # gruft-en:bats.believed-garlic: no reward; the owner puts a vampire in.
        return _g(_with(state, phase=Phase.PUT), putter=owner)
    # gruft-en:bats.doubt-garlic: rewards as in du-en:ch3.other-garlic / ch3.own-garlic.
    if content.owner == owner:
        gifts = tuple(Gift(g, owner, "gruft-en:bats.doubt-garlic")
                      for g in _others(config, owner) for _ in range(config.gift_own_garlic))
    else:
        gifts = (Gift(content.owner, owner, "gruft-en:bats.doubt-garlic"),) \
            * config.gift_other_garlic
    return _g(_with(state, gifts=gifts, phase=Phase.GIVE), then_put=asked)


def _put(state: State, end: End, events: list[Event]) -> State:
    """An outermost vampire into ``pending`` whatever its colour (gruft-en:count.empty,
    gruft-en:bats.believed-empty and the other bat outcomes); then the Count moves on
    (gruft-en:count.move) or the bat's turn ends (gruft-en:bats.close-ends)."""
    player = state.putter
    grave = state.pending
    assert player is not None and grave is not None
    colour, row = _remove_end(state.rows[player], end, state.config)
    clause = "gruft-en:bats.open" if state.bat is not None else "gruft-en:count.empty"
    events.append(Event(EventKind.PUT, player, grave, colour, clause))
    rows = _set(state.rows, player, row)
    contents = _set(state.contents, grave, VampireIn(colour))
    state = _g(_with(state, rows=rows, contents=contents), putter=None)
    if not row:
        return _win(state, player, events)
    if state.bat is not None:
        state = _g(_with(state, pending=None), bat=None)
        return _end_turn(state, events, "gruft-en:bats.close-ends")
    return _with(state, phase=Phase.COUNT_MOVE)


def _win(state: State, player: int, events: list[Event]) -> State:
    """du-en:end.first-empty / du-en:aim.win: the game ends at once."""
    events.append(Event(EventKind.WIN, player, None, None, "du-en:end.first-empty"))
    # A vampire still in transit stays counted in ``in_transit`` (conservation).
    return _with(state, phase=Phase.OVER, winner=player, gifts=(), pending=None)


__all__ = [
    "apply",
    "current_player",
    "deal",
    "initial_state",
    "is_terminal",
    "legal_actions",
    "new_game",
    "step",
    "winner",
]
