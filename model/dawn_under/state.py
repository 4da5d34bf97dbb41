"""Typed state, actions and events of Dawn Under (du-en).

All types are frozen and hashable. A state carries its :class:`Config` (rule options, board,
player count), so the module-level functions of :mod:`ruleproof.model.dawn_under.engine` need nothing else.

Grave contents are public knowledge (every placement and removal happens in view of all
players), lids are hidden until turned (du-en:ch1.open), and face-down vampires are unknown even
to their owner (du-en:prep.row).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from ruleproof.model.dawn_under.board import Board
from ruleproof.model.dawn_under.expansions import DAWN_UNDER_EXPANSIONS

if TYPE_CHECKING:
    from ruleproof.model.dawn_under.expansion import Expansion

C = TypeVar("C")


def init_parameters(cls: type, env: dict[str, Any]) -> str:
    """The parameter list of ``cls``'s dataclass ``__init__`` as source text (``a, b=default1``),
    each default bound in ``env`` as ``default<i>``: for ``__init__`` functions generated from
    ``fields(cls)`` (:func:`fast_init`; the engine's drafts, ``engine.slot_updater``)."""
    params = []
    for i, f in enumerate(fields(cls)):
        assert f.init and f.default_factory is MISSING, f"{cls.__name__}.{f.name}"
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"default{i}"] = f.default
            params.append(f"{f.name}=default{i}")
    return ", ".join(params)


def fast_init(cls: type[C]) -> type[C]:
    """Give a frozen, slotted dataclass a faster ``__init__`` with the same signature.

    The generated ``__init__`` of a frozen dataclass stores every field through
    ``object.__setattr__`` by name; this one stores each slot through its member descriptor
    (several times faster; states, events and vampires are built on every transition). The
    code is generated once from ``fields(cls)``, as ``dataclasses`` itself does.

    The class also gets a ``__reduce__`` that pickles an instance as a call of the class
    with its field values (the default for a slotted dataclass goes through ``copyreg`` and a
    ``__setstate__`` that sets field after field): about twice as fast both ways, which
    matters where states travel between processes (``ruleproof explore --workers``).
    """
    env: dict[str, Any] = {"cls": cls}
    body = []
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    exec("def __reduce__(self):\n    return (cls, ("
         + "".join(f"self.{n}, " for n in names) + "))\n", env)
    reduce = env["__reduce__"]
    reduce.__qualname__ = f"{cls.__qualname__}.__reduce__"
    cls.__reduce__ = reduce  # type: ignore[method-assign]
    for i, f in enumerate(fields(cls)):  # type: ignore[arg-type]
        env[f"set{i}"] = cls.__dict__[f.name].__set__
        body.append(f"    set{i}(self, {f.name})")
    params = init_parameters(cls, env)
    exec(f"def __init__(self, {params}):\n" + "\n".join(body) + "\n", env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


RAT = -1
"""Lid value of a rat lid (du-en:content.lids). Coloured lids are colour indices 0..5."""


class End(Enum):
    """An end of a vampire row. LEFT is index 0 of the row tuple."""

    LEFT = "left"
    RIGHT = "right"


class Phase(Enum):
    """What kind of decision the state is waiting for."""

    OPEN = "open"  # the acting player opens a grave (or stops, where allowed)
    PLACE = "place"  # an empty coloured grave was opened: place vampire / garlic / leave empty
    GIVE = "give"  # a giver chooses which outermost vampire to hand over
    RECEIVE = "receive"  # the vampire in transit is put at one end of the receiver's row
    OVER = "over"  # a player has no vampires left


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options: every point where the sources disagree or are silent (docs/rules-options.md,
    and the ambiguity register ``spec/dawn_under/ambiguities.toml``). Defaults read ``du-en``.

    Attributes:
        after_match: ``may-continue`` (du-en:ch1.continue) or ``turn-ends``
            (du-cs:prubeh.match-ends).
        gift_trigger: ``third-stake`` (du-en:ch2.gift) or ``holding-three`` (du-cs:prubeh.gift:
            a stake taken while already holding three).
        receiver_chooses_end: ``true``: the receiver decides at which end a received vampire
            goes (du-en:ch3.received-open is silent; du-cs:prubeh.received-ends,
            du-cs:priprava.add-end: the receiver); ``false``: the giver does.
        gift_end_chooser: ``giver`` (the row's owner picks which outermost vampire to give,
            du-en:ch2.gift, du-cs:priprava.take-end) or ``receiver``.
        second_rat: ``finder`` (du-en:ch5.hand-over), ``left-of-starter``
            (du-cs:prubeh.new-starter) or
            ``opponent`` (du-en:2p.plague: the finder's opponent takes the new plague).
        match_placement: ``mandatory`` or ``optional`` (du-en:ch1.match says "can").
        plague_late_placement: ``forbidden`` (du-en:ch4.just-opened) or ``allowed``.
        after_plague_turn: ``left-of-starter`` (du-en:ch4.next-turn) or ``left-of-last``.
        plague_round: ``one-round`` (du-en:ch4.end-all-passed: everybody had one chance) or
            ``until-all-pass`` (du-cs:prubeh.rat-end: until all players in a row decline).
        plague_occupied: ``continue`` (du-en:ch4.occupied) or ``pass`` (du-cs:prubeh.rat-resolve
            read literally: a stake or garlic ends that player's part of the plague).
        turn_start: ``must-open`` (du-en:ch1.open) or ``may-pass`` (du-cs:prubeh.open: a player
            "may" open one grave).
        lidless_grave: 2 players: ``unusable`` (a grave without a lid cannot be opened, used or
            turned in a plague) or ``wild`` (it can be chosen like an opened grave; any outermost
            vampire fits it), du-en:2p.lids.
        reopen_rule: 2 players: ``stake-and-end`` (opening a barred grave costs a stake and ends
            the turn) or ``forbidden`` (it cannot be opened), du-en:2p.reopen.
        removed_colours: 2 players: ``same`` (the two lid colours removed are the two vampire
            colours removed) or ``different`` (du-en:2p.components).
        expansion: ``none`` or the name of an expansion played on top of the base game
            (``ruleproof.model.dawn_under.expansions``); its own options are in ``expansion_options``.
        empty_path: a stake is due but none is left on the path (impossible under du-en, proved;
            possible under ``gift_trigger=holding-three``): ``no-stake`` (nothing is taken) or
            ``gift-now`` (it counts as the gift, du-en:ch2.gift).
        expansion_options: the options an expansion declares, as sorted ``(name, value)``
            pairs; only values other than the expansion's default are stored.
    """

    after_match: str = "may-continue"
    gift_trigger: str = "third-stake"
    receiver_chooses_end: bool = True
    gift_end_chooser: str = "giver"
    second_rat: str = "finder"
    match_placement: str = "mandatory"
    plague_late_placement: str = "forbidden"
    after_plague_turn: str = "left-of-starter"
    plague_round: str = "one-round"
    plague_occupied: str = "continue"
    turn_start: str = "must-open"
    lidless_grave: str = "unusable"
    reopen_rule: str = "stake-and-end"
    removed_colours: str = "same"
    empty_path: str = "no-stake"
    expansion: str = "none"
    expansion_options: tuple[tuple[str, str], ...] = ()

    def extra(self, name: str, default: str) -> str:
        """The value of the expansion option ``name`` (``default`` when not set)."""
        for key, value in self.expansion_options:
            if key == name:
                return value
        return default


OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "after_match": ("may-continue", "turn-ends"),
    "gift_trigger": ("third-stake", "holding-three"),
    "receiver_chooses_end": ("true", "false"),
    "gift_end_chooser": ("giver", "receiver"),
    "second_rat": ("finder", "left-of-starter", "opponent"),
    "match_placement": ("mandatory", "optional"),
    "plague_late_placement": ("forbidden", "allowed"),
    "after_plague_turn": ("left-of-starter", "left-of-last"),
    "plague_round": ("one-round", "until-all-pass"),
    "plague_occupied": ("continue", "pass"),
    "turn_start": ("must-open", "may-pass"),
    "lidless_grave": ("unusable", "wild"),
    "reopen_rule": ("stake-and-end", "forbidden"),
    "removed_colours": ("same", "different"),
    "empty_path": ("no-stake", "gift-now"),
    "expansion": ("none", *DAWN_UNDER_EXPANSIONS),
}
"""The base game's options and their values, the default first (an expansion's options are
declared by the expansion, :func:`ruleproof.model.dawn_under.config.option_values`)."""


def option_value(options: Options, name: str) -> str:
    """The value of option ``name`` as its string form (``true``/``false`` for booleans); an
    expansion's option by its stored value or the default the expansion declares."""
    if name not in OPTION_VALUES:
        from ruleproof.model.dawn_under.config import option_values

        return options.extra(name, option_values()[name][0])
    value = getattr(options, name)
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for one game.

    Attributes:
        players: number of players (3..6, du-en:content.players).
        board: the validated board.
        options: rule options.
        colours: colour names (labels; index = colour id).
        vampires_per_colour, lids_per_colour, rat_lids, reserve_size, stakes, garlic,
        stakes_for_gift, open_per_side, all_open_at_most: component numbers (manifest).
        vampire_colours, lid_colours: colour indices in play (all six, or four with 2 players).
        gift_other_garlic, gift_own_garlic, gift_stake: vampires each giver hands over.
        rat_lid_stays: the rat lid stays face up on its grave during the plague (du-en:2p.rat-stays)
            instead of lying in front of its holder (du-en:ch4.rat).
        preset: the name of the rule set the options came from (for logs).
        expansion_counts: the expansion's component numbers, ``(manifest fact, value)``
            sorted by fact (gruft: ``bats_per_player``, ``count_figures``); filled from the
            manifest by ``make_config`` for the expansion played, reduced by a reduced
            configuration; read with :meth:`expansion_count`. Empty for the base game.
        expansion: the hooks of the expansion named by ``options.expansion``
            (:class:`~ruleproof.model.dawn_under.expansion.Expansion`), None for the base game;
            derived from the options, not compared.
    """

    players: int
    board: Board
    options: Options
    colours: tuple[str, ...]
    vampires_per_colour: int
    lids_per_colour: int
    rat_lids: int
    reserve_size: int
    stakes: int
    garlic: int
    stakes_for_gift: int
    open_per_side: int
    all_open_at_most: int
    vampire_colours: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
    lid_colours: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
    gift_other_garlic: int = 1
    gift_own_garlic: int = 1
    gift_stake: int = 1
    rat_lid_stays: bool = False
    preset: str = "du-en"
    expansion_counts: tuple[tuple[str, int], ...] = ()
    expansion: Expansion | None = field(init=False, default=None, compare=False, repr=False)

    def expansion_count(self, name: str, default: int) -> int:
        """The expansion's component number ``name`` (a manifest fact), ``default`` (the full
        game's) when this configuration does not give it."""
        for key, value in self.expansion_counts:
            if key == name:
                return value
        return default

    def __post_init__(self) -> None:
        if self.options.expansion != "none":
            from ruleproof.model.dawn_under.expansion import load_expansion

            object.__setattr__(self, "expansion", load_expansion(self.options.expansion))


@fast_init
@dataclass(frozen=True, slots=True)
class Vampire:
    """A vampire in a row: its colour index and whether it lies face up."""

    colour: int
    face_up: bool


@fast_init
@dataclass(frozen=True, slots=True)
class VampireIn:
    """Grave content: a vampire of this colour."""

    colour: int


@fast_init
@dataclass(frozen=True, slots=True)
class GarlicIn:
    """Grave content: a garlic bundle of this player."""

    owner: int


Content = VampireIn | GarlicIn | None
Row = tuple[Vampire, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Plague:
    """A running rat plague (du-en:ch4.rat).

    Attributes:
        origin: the grave whose rat lid started it (lidless while the plague lasts).
        holder: the player with the rat lid in front of them, who started this plague.
        current: the player now turning lids (du-en:ch4.pass).
        turns: how many players have had their go, counting ``current`` (1..players).
        opened: graves opened in this plague, in order; they stay open (du-en:ch4.stay-open).
        idle: stops in a row since the last grave was opened (option plague_round).
        current_opened: whether ``current`` opened a grave in this go.
    """

    origin: int
    holder: int
    current: int
    turns: int
    opened: tuple[int, ...]
    idle: int = 0
    current_opened: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Gift:
    """A pending hand-over of one outermost vampire from ``giver`` to ``receiver``."""

    giver: int
    receiver: int
    clause: str


@dataclass(frozen=True, slots=True)
class Setup:
    """The outcome of the set-up chance node (or an explicit set-up).

    Attributes:
        lids: lid of each grave (colour index, RAT, or None for a grave left without a lid in
            the 2-player game, du-en:2p.lids), du-en:prep.mix-rats.
        reserve: the reserve stack, top first (du-en:prep.reserve).
        rows: each player's row of vampire colours, left to right (du-en:prep.deal).
        start_player: who moves first (du-en:play.start).
    """

    lids: tuple[int | None, ...]
    reserve: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    start_player: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class State:
    """A complete Dawn Under state (the full, hidden-information-including truth).

    Attributes:
        config: fixed game configuration.
        lids: lid on each grave: colour index, RAT, or None (no lid: the rat lid in front of
            a player during a plague).
        known: per grave, whether the lid now on it has been shown to everybody.
        contents: per grave, what lies in it.
        rows: per player, their row (left to right).
        stakes_held: per player, stakes in front of them.
        stakes_path: stakes on the path.
        garlic_hand: per player, garlic bundles in front of them.
        reserve: reserve lid stack, top first.
        removed_rats: rat lids out of play.
        turn_player: whose turn it is (outside a plague).
        phase: what the state waits for: a :class:`Phase`, or a phase an expansion adds.
        may_stop: in a normal turn, whether the player may end the turn instead of opening.
        pending: the grave just opened and awaiting a PLACE decision.
        plague: the running rat plague, if any.
        gifts: pending hand-overs, first is next.
        in_transit: colour of the vampire being handed over (phase RECEIVE).
        winner: the winner once the game is over.
        placed_this_turn: vampires the turn player placed this turn.
        windows: 2 players: per player, graves they opened since the start of their last turn.
        barred: 2 players: graves the turn player may not open this turn (du-en:2p.reopen).

        extension: the expansion's part of the state (None for the base game); the base
            engine never looks inside it, the expansion reads and changes it through its hooks.
    """

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
    may_stop: bool = False
    pending: int | None = None
    plague: Plague | None = None
    gifts: tuple[Gift, ...] = ()
    in_transit: int | None = None
    winner: int | None = None
    placed_this_turn: int = 0
    windows: tuple[tuple[int, ...], ...] = ()
    barred: tuple[int, ...] = ()
    extension: object = None


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class OpenGrave:
    """Turn the lid of ``grave`` (du-en:ch1.open; in a plague du-en:ch4.neighbours)."""

    grave: int

    def __str__(self) -> str:
        return f"open {self.grave}"


@dataclass(frozen=True, slots=True)
class PlaceVampire:
    """Put the outermost vampire at ``end`` into ``grave`` (du-en:ch1.match)."""

    grave: int
    end: End

    def __str__(self) -> str:
        return f"place {self.end.value} {self.grave}"


@dataclass(frozen=True, slots=True)
class PlaceGarlic:
    """Put one of your garlic bundles into ``grave`` (du-en:ch1.garlic, du-en:ch4.garlic)."""

    grave: int

    def __str__(self) -> str:
        return f"garlic {self.grave}"


@dataclass(frozen=True, slots=True)
class LeaveEmpty:
    """Close ``grave`` leaving it empty (du-en:ch1.garlic)."""

    grave: int

    def __str__(self) -> str:
        return f"leave {self.grave}"


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn after a placement (du-en:ch1.continue) or stop in a plague (du-en:ch4.pass)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class GiveVampire:
    """Hand over the outermost vampire at ``end`` (du-en:ch2.gift, du-en:ch3.other-garlic)."""

    end: End

    def __str__(self) -> str:
        return f"give {self.end.value}"


@dataclass(frozen=True, slots=True)
class ReceiveVampire:
    """Put the received vampire face up at ``end`` of the receiver's row (du-en:ch3.received-open)."""

    end: End

    def __str__(self) -> str:
        return f"receive {self.end.value}"


class ExpansionAction:
    """Base class of the actions an expansion adds; the base engine hands them to the
    expansion's hooks (:mod:`ruleproof.model.dawn_under.expansion`)."""

    __slots__ = ()


Action = (OpenGrave | PlaceVampire | PlaceGarlic | LeaveEmpty | Stop | GiveVampire
          | ReceiveVampire | ExpansionAction)


class EventKind(Enum):
    """Things that happen in a transition, for logs and traces."""

    REVEAL = "reveal"
    PLACE_VAMPIRE = "place-vampire"
    PLACE_GARLIC = "place-garlic"
    LEAVE_EMPTY = "leave-empty"
    STAKE = "stake"
    STAKES_BACK = "stakes-back"
    GARLIC_BACK = "garlic-back"
    GIVE = "give"
    RECEIVE = "receive"
    FLIP = "flip"
    PLAGUE_START = "plague-start"
    PLAGUE_PASS = "plague-pass"
    PLAGUE_END = "plague-end"
    RAT_HANDED_OVER = "rat-handed-over"
    STOP = "stop"
    TURN = "turn"
    WIN = "win"


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    """One observable happening (all Dawn Under events are public).

    Attributes:
        kind: what happened: an :class:`EventKind`, or a kind an expansion adds.
        player: the player concerned.
        grave: the grave concerned, if any.
        value: a colour, lid value, count or other player, depending on ``kind``.
        clause: the clause id that made it happen.
    """

    kind: Enum
    player: int
    grave: int | None = None
    value: int | None = None
    clause: str = ""
