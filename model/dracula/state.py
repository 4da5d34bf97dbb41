"""The Dracula state: a frozen, slotted record of everything on the table, its agenda of steps
still to do, and the game log kept as a persistent list shared between successive states.

The helpers at the bottom derive new states; :func:`_with` is the one way a field changes
(a copy with some fields replaced, like :func:`dataclasses.replace` but without its per-call
introspection, which was the engine's largest cost after the log copies).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, overload

from .actions import Action
from .data import Board, CardSet, Kind, Side
from .rules import DraculaRules, Edge

TERMINAL = -2
"""Value of :func:`current_player` once the game is over."""


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the agenda.

    Attributes:
        kind: ``choose``, ``draw-action``, ``set-aside``, ``deal``, ``start-turn``, ``move``,
            ``meet``, ``place``, ``pay``, ``loss``, ``rescue``, ``resolve``, ``special``,
            ``special-choice``, ``barrier-choice``, ``depths-place``, ``deception-draw``,
            ``barrier``, ``end-turn``.
        player: the side concerned (int value of :class:`Side`).
        n: a count or a location index, by kind.
        colours: allowed barrier colours (``barrier`` steps).
    """

    kind: str
    player: int = 0
    n: int = 0
    colours: tuple[str, ...] = ()


CHANCE_KINDS = frozenset({"draw-action", "deal", "deception-draw"})


DECISION_KINDS = frozenset({"choose", "move", "meet", "place", "pay", "rescue",
                            "special-choice", "depths-place", "barrier"})


@dataclass(frozen=True, slots=True)
class Event:
    """One log line: the omniscient text, what each side sees ('' = nothing) and what both
    see alike (``public``; None: the sides' common text, or nothing when they differ)."""

    full: str
    seen: tuple[str, str]
    public: str | None = None

    @property
    def public_text(self) -> str:
        """What both sides see of this event (the common knowledge)."""
        if self.public is not None:
            return self.public
        return self.seen[0] if self.seen[0] == self.seen[1] else ""


class Log(Sequence[Event]):
    """The events of a game, oldest first, as a persistent list: :meth:`add` makes a longer log
    in O(1) that shares every earlier event with the log it extends, so successive states of
    one game share one log instead of each copying it (issue #14).

    Supports ``len``, iteration (O(n)), ``log[i]`` and ``log[-1]``, and slices; the slice
    ``log[k:]`` (the events added since a state whose log had ``k`` events) costs only the
    number of events it returns. Equality is by events; ``repr`` gives the length only, so a
    state's repr stays the same size however long the game.
    """

    __slots__ = ("_before", "_last", "_size")

    _last: Event | None
    _before: Log | None
    _size: int

    def __init__(self, last: Event | None = None, before: Log | None = None) -> None:
        # set once here and never again (no method changes them): the log is immutable
        self._last = last
        self._before = before
        self._size = 0 if before is None else before._size + 1

    def add(self, event: Event) -> Log:
        """This log with ``event`` appended (O(1); ``self`` is unchanged)."""
        return Log(event, self)

    def __len__(self) -> int:
        return self._size

    def _newest(self, count: int) -> list[Event]:
        out: list[Event] = []
        node: Log = self
        for _ in range(count):
            assert node._last is not None and node._before is not None
            out.append(node._last)
            node = node._before
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Event]:
        return iter(self._newest(self._size))

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step == 1 and stop == self._size:
                return tuple(self._newest(max(0, self._size - start)))
            return tuple(self)[index]
        i = index + self._size if index < 0 else index
        if not 0 <= i < self._size:
            raise IndexError("log index out of range")
        return self._newest(self._size - i)[0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Log):
            return NotImplemented
        a: Log | None = self
        b: Log | None = other
        if self._size != other._size:
            return False
        while a is not b and a is not None and b is not None:
            if a._last != b._last:
                return False
            a, b = a._before, b._before
        return True

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Log({self._size} events)"

    def __reduce__(self) -> tuple[Callable[[tuple[Event, ...]], Log], tuple[tuple[Event, ...]]]:
        # pickled (and deep-copied) as its events, not as a chain nested as deep as it is long
        return (_log_of, (tuple(self),))


def _log_of(events: tuple[Event, ...]) -> Log:
    """The log of ``events`` in order (used to unpickle a :class:`Log`)."""
    log = EMPTY_LOG
    for e in events:
        log = Log(e, log)
    return log


EMPTY_LOG = Log()
"""The log of no events (the log every game starts from)."""


@dataclass(frozen=True, slots=True)
class State:
    """A complete, immutable Dracula game state. Per-side tuples are indexed by ``Side``.

    Slotted and frozen; the repr leaves out the card and board data (fixed for a game) and
    shows the log by its length, so it stays the same size however long the game.

    Attributes:
        rules, cards, board: options and data.
        seed: seed for chance outcomes (:func:`resolve_chance`); step: actions applied so far.
        agenda: steps still to do; the head is the pending decision.
        board_cards: the encounter card id at each of the 12 locations, or None (empty).
        pos: location of Dracula's and Van Helsing's figure.
        hand: encounter hands (sorted ids). pool: cards chosen for the deal, not yet dealt.
        enc_discard: beaten enemies, on their owner's pile (dracula-en:enemy.win).
        captured: opposing targets won by each side (dracula-en:target.capture).
        life: life markers. current / aside / adiscard: action cards (dracula-en:cards.cycle).
        barriers: border of each colour (COLOURS order) or None if not placed yet.
        known: per side, the card it knows to lie at each location (perfect recall).
        turn, active: turn number and side whose turn it is.
        steps, can_look: steps made this move; whether the card here may be looked at.
        revealed: location of a revealed opposing card awaiting resolution.
        played, use_special, battle_won: the card paid with this turn and its use.
        breath_turn, whisper_turn: turn in which Breath / Whisper of Night act (-1: none).
        vigilance: Dracula's next special action is blocked. turned: Resistance location.
        winner, reason: result once over.
        log: the events so far (a :class:`Log` shared with the earlier states of the game;
            see :func:`observation`).
    """

    rules: DraculaRules
    cards: CardSet = field(repr=False)
    board: Board = field(repr=False)
    seed: int
    step: int
    agenda: tuple[Step, ...]
    board_cards: tuple[str | None, ...]
    pos: tuple[int, int]
    hand: tuple[tuple[str, ...], tuple[str, ...]]
    pool: tuple[str, ...]
    enc_discard: tuple[tuple[str, ...], tuple[str, ...]]
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    life: tuple[int, int]
    current: tuple[tuple[str, ...], tuple[str, ...]]
    aside: tuple[tuple[str, ...], tuple[str, ...]]
    adiscard: tuple[tuple[str, ...], tuple[str, ...]]
    barriers: tuple[Edge | None, ...]
    known: tuple[tuple[str | None, ...], tuple[str | None, ...]]
    turn: int = 0
    active: int = 0
    steps: int = 0
    can_look: bool = False
    revealed: int | None = None
    played: str | None = None
    use_special: bool = False
    battle_won: bool = False
    breath_turn: int = -1
    whisper_turn: int = -1
    vigilance: bool = False
    turned: int | None = None
    winner: int | None = None
    reason: str = ""
    log: Log = EMPTY_LOG
    _legal: tuple[Action, ...] | None = field(default=None, init=False, repr=False,
                                              compare=False, hash=False)
    _draft: bool = field(default=False, init=False, repr=False, compare=False, hash=False)


_FIELDS = tuple(f.name for f in fields(State) if f.init)
_field_values = attrgetter(*_FIELDS)
_set_field = object.__setattr__


def _draft_builder() -> Callable[..., State]:
    """A positional constructor of a draft :class:`State` (the init fields in order; the kept
    legal actions empty, the draft mark set), about twice as fast as the frozen dataclass's
    ``__init__``, which stores every field through ``object.__setattr__`` by name. This one
    stores each slot through its member descriptor; its code is generated once from
    ``fields(State)``, the way ``dataclasses`` generates ``__init__`` (as the Dawn Under
    engine builds its states)."""
    env: dict[str, Any] = {"new": object.__new__, "State": State}
    body = []
    for i, name in enumerate((*_FIELDS, "_legal", "_draft")):
        env[f"set{i}"] = State.__dict__[name].__set__
        value = {"_legal": "None", "_draft": "True"}.get(name, name)
        body.append(f"    set{i}(s, {value})")
    src = (f"def build({', '.join(_FIELDS)}):\n    s = new(State)\n"
           + "\n".join(body) + "\n    return s\n")
    exec(src, env)
    build: Callable[..., State] = env["build"]
    return build


_build_draft = _draft_builder()


def _with(s: State, **changes: Any) -> State:
    """``s`` with the named fields changed, like ``dataclasses.replace``, without its per-call
    introspection. Raises AttributeError for a name that is not a field (the state is
    slotted).

    The first change made in a transition copies the state it started from into a *draft*;
    the further changes of the same transition write into that draft, which
    :func:`_publish` seals before the transition returns it (Clojure's "transients": a
    transition costs one copy, however many fields it changes). A draft is never seen outside
    the transition that made it, so every state anyone holds is immutable.
    """
    s = _writable(s)
    for name, value in changes.items():
        _set_field(s, name, value)
    return s


def _writable(s: State) -> State:
    """``s`` itself if it is a draft, else a draft copy of it (see :func:`_with`)."""
    if s._draft:
        return s
    return _build_draft(*_field_values(s))


def _publish(s: State) -> State:
    """Seal a draft made by :func:`_with`: from now on changes copy it again."""
    _set_field(s, "_draft", False)
    return s


def _set(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
         value: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    v = tuple(sorted(value))
    return (v, t[1]) if side == 0 else (t[0], v)


def _add(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
         card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return _set(t, side, (*t[side], card))


def _remove(t: tuple[tuple[str, ...], tuple[str, ...]], side: int,
            card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    items = list(t[side])
    items.remove(card)
    return _set(t, side, items)


def _pair(t: tuple[int, int], side: int, value: int) -> tuple[int, int]:
    return (value, t[1]) if side == 0 else (t[0], value)


def _know(s: State, side: int, loc: int, card: str | None) -> tuple[
        tuple[str | None, ...], tuple[str | None, ...]]:
    row = list(s.known[side])
    row[loc] = card
    return (tuple(row), s.known[1]) if side == 0 else (s.known[0], tuple(row))


def _put(s: State, loc: int, card: str | None) -> tuple[str | None, ...]:
    b = list(s.board_cards)
    b[loc] = card
    return tuple(b)


def _log(s: State, full: str, dracula: str | None = None, helsing: str | None = None,
         public: str | None = None) -> State:
    """Append an event; by default both sides see the full text (public). When the sides see
    different texts, ``public`` is what both see alike (default: nothing)."""
    d = full if dracula is None else dracula
    h = full if helsing is None else helsing
    s = _writable(s)
    _set_field(s, "log", Log(Event(full, (d, h), public), s.log))
    return s


def _private(s: State, side: int, full: str, other_sees: str = "") -> State:
    """An event ``side`` sees in full and the other side as ``other_sees`` (which both then
    know: the public part)."""
    if side == 0:
        return _log(s, full, full, other_sees, other_sees)
    return _log(s, full, other_sees, full, other_sees)


_NAMES = (Side.DRACULA.label, Side.VAN_HELSING.label)


def _name(side: int) -> str:
    """``Dracula`` or ``Van Helsing`` for a side index."""
    return _NAMES[side]


def _is_target(s: State, card: str) -> bool:
    return s.cards.enc(card).kind is Kind.TARGET


def _remaining_targets(s: State, owner: int) -> tuple[str, ...]:
    """Targets of ``owner`` not yet won by the opponent."""
    won = set(s.captured[1 - owner])
    return tuple(c for c in s.cards.encounter_of(Side(owner))
                 if s.cards.enc(c).kind is Kind.TARGET and c not in won)


def _push(s: State, *steps: Step) -> State:
    """Replace the head of the agenda by ``steps``."""
    s = _writable(s)
    _set_field(s, "agenda", (*steps, *s.agenda[1:]))
    return s


def _push_front(s: State, *steps: Step) -> State:
    """Put ``steps`` before the agenda."""
    s = _writable(s)
    _set_field(s, "agenda", (*steps, *s.agenda))
    return s


def _pop(s: State) -> State:
    """Drop the head of the agenda."""
    s = _writable(s)
    _set_field(s, "agenda", s.agenda[1:])
    return s


def _special(s: State) -> str | None:
    """The special action in force this turn (played card, if its special is used)."""
    if s.played is None or not s.use_special:
        return None
    return s.cards.act(s.played).special
