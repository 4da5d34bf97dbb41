"""The rules of Liar's Dice (ld-wp, the "single hand" game) as pure functions over a frozen
state.

Each player has a cup of dice (ld-wp:setup.dice); every round each player with dice rolls
them, each die a chance node, seen only by its owner (ld-wp:round.roll). The round's first
bidder opens (ld-wp:round.opening); then in turn each player either raises the standing bid
(ld-wp:bid.raise, under the bidding rule of the option ``raise``) or challenges it
(ld-wp:challenge.call); the option ``spot_on`` adds the call that the bid is exactly right
(ld-wp:variant.spot-on). A challenge reveals every die and counts the bid's face, the ones
counting too under ``wild = ones`` (ld-wp:round.wild, ld-wp:challenge.count); whoever was
wrong loses the round and one die (ld-wp:challenge.lose). With ``rounds = last`` the loser
opens the next round (the next player in turn if the loser has no die left,
ld-wp:round.next) and the last player with dice wins (ld-wp:end.last); with ``rounds = one``
the first challenge ends the game (the reading OpenSpiel's ``liars_dice`` plays).

Options (each a reading of the text, spec/liars_dice/ambiguities.toml):

* ``raise``: ``face`` (a higher quantity of the same face, or any quantity of a higher face),
  ``quantity`` (a higher quantity of any face, or the same quantity of a higher face),
  ``highest`` (the quantity or the face above the larger number of the standing bid),
  ``product`` (quantity times face above the standing bid's), the four bidding systems of
  ld-wp:bid.raise.
* ``wild``: ``ones`` (ones count as the face bid, ld-wp:round.wild) or ``none``.
* ``spot_on``: ``no`` or ``yes`` (ld-wp:variant.spot-on).
* ``rounds``: ``last`` (until one player has dice, ld-wp:end.last) or ``one``.

Values no clause states are assumed (docs/liars-dice.md): a bid names at most as many dice as
are on the table, and the first round is opened by seat 0.

>>> r = Rules(players=2, dice=1, sides=3, rounds="one")
>>> s = roll(r, roll(r, Table.start(r), 1), 3)   # P1 rolls a one, P2 a three
>>> to_move(r, s), [str(a) for a in legal(r, s)][:3]
(0, ['bid 1-1', 'bid 1-2', 'bid 1-3'])
>>> s = act(r, act(r, s, Bid(2, 3)), LIAR)   # "two threes", challenged: a one and a three
>>> to_move(r, s), loser(r, s), returns(r, s)
(-4, 1, [1.0, -1.0])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ruleproof.errors import IllegalAction, MalformedInput

CHANCE = -1
TERMINAL = -4

RAISE_RULES = ("face", "quantity", "highest", "product")
"""The bidding systems of ld-wp:bid.raise (the option ``raise``, the article's order)."""
WILD = ("ones", "none")
"""Whether ones count as the face bid (ld-wp:round.wild)."""
SPOT_ON = ("no", "yes")
"""Whether the spot-on call exists (ld-wp:variant.spot-on)."""
ROUNDS = ("last", "one")
"""Play until one player has dice (ld-wp:end.last), or one round (the first challenge)."""
ORDERS = ("quantity", "face")
"""How the action table numbers the bids: quantity-major (OpenSpiel's ``reset-face``) or
face-major (``reset-quantity``); a numbering only, no rule."""

OPTIONS: dict[str, tuple[str, ...]] = {"raise": RAISE_RULES, "wild": WILD, "spot_on": SPOT_ON,
                                       "rounds": ROUNDS}
"""Every rule option with its values, the default (the article's plainest reading) first."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The fixed parameters of a game.

    Attributes:
        players: seats (2..6; ld-wp:setup.players).
        dice: dice per player at the start (1..5; ld-wp:setup.dice says five).
        sides: faces of a die (2..6; ld-wp:setup.dice: six-sided).
        raise_rule, wild, spot_on, rounds: the options (see the module docstring).

    Raises:
        MalformedInput: a value out of range or not one of an option's values.
    """

    players: int = 2
    dice: int = 5
    sides: int = 6
    raise_rule: str = "face"
    wild: str = "ones"
    spot_on: str = "no"
    rounds: str = "last"

    def __post_init__(self) -> None:
        for name, number, low, high in (("players", self.players, 2, 6),
                                        ("dice", self.dice, 1, 5), ("sides", self.sides, 2, 6)):
            if isinstance(number, bool) or not isinstance(number, int) or \
                    not low <= number <= high:
                raise MalformedInput(f"liars-dice: {name} must be a whole number {low}..{high}, "
                                     f"got {number!r}")
        for name, value in (("raise", self.raise_rule), ("wild", self.wild),
                            ("spot_on", self.spot_on), ("rounds", self.rounds)):
            if value not in OPTIONS[name]:
                raise MalformedInput(f"liars-dice: option {name} must be one of "
                                     f"{', '.join(OPTIONS[name])}, got {value!r}")

    @property
    def total(self) -> int:
        """Dice on the table at the start."""
        return self.players * self.dice

    @property
    def options(self) -> dict[str, str]:
        """The options as ``name -> value``."""
        return {"raise": self.raise_rule, "wild": self.wild, "spot_on": self.spot_on,
                "rounds": self.rounds}


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """A claim: at least ``quantity`` dice on the table show ``face`` (ld-wp:bid.claim).
    Printed ``bid quantity-face`` (OpenSpiel prints ``quantity-face``)."""

    quantity: int
    face: int

    def __str__(self) -> str:
        return f"bid {self.quantity}-{self.face}"


@dataclass(frozen=True, slots=True)
class Call:
    """A call ending the round: ``liar`` (ld-wp:challenge.call) or ``spot-on``
    (ld-wp:variant.spot-on)."""

    name: str

    def __str__(self) -> str:
        return self.name


LIAR = Call("liar")
SPOT = Call("spot-on")


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance outcome: the next die shows ``face`` (1..sides)."""

    face: int

    def __str__(self) -> str:
        return f"roll {self.face}"


@dataclass(frozen=True, slots=True)
class Showdown:
    """How a round ended: who called what on whose bid, the count, and who lost a die."""

    caller: int
    call: str
    bidder: int
    bid: Bid
    count: int
    loser: int
    dice: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Table:
    """The game between two steps.

    Attributes:
        cups: dice each seat holds (0: out of the game).
        rolled: this round's dice per seat, in the order rolled (a seat's tuple fills up while
            the round is being rolled).
        bids: this round's actions so far: ``(seat, Bid)`` in order.
        opener: the seat that opens this round's bidding.
        ended: the showdowns of the rounds played, oldest first.
        rules: the game's fixed parameters (so that a table can be read alone).
    """

    cups: tuple[int, ...]
    rolled: tuple[tuple[int, ...], ...]
    bids: tuple[tuple[int, Bid], ...] = ()
    opener: int = 0
    ended: tuple[Showdown, ...] = field(default=())
    rules: Rules = field(default=Rules())

    @staticmethod
    def start(r: Rules) -> Table:
        """Before the first roll: every seat holds ``r.dice`` dice (ld-wp:setup.dice), seat 0
        opens (assumed)."""
        return Table((r.dice,) * r.players, ((),) * r.players, rules=r)


# --------------------------------------------------------------------------- reading a table


def on_table(t: Table) -> int:
    """Dice in play this round."""
    return sum(t.cups)


def alive(t: Table) -> list[int]:
    """Seats that still hold dice."""
    return [p for p, n in enumerate(t.cups) if n > 0]


def rolling(t: Table) -> int | None:
    """The seat whose next die is still to roll (seat order), or None once all are rolled."""
    for p, n in enumerate(t.cups):
        if len(t.rolled[p]) < n:
            return p
    return None


def over(r: Rules, t: Table) -> bool:
    """The game has ended: one round was played under ``rounds = one``, or one seat holds dice
    (ld-wp:end.last)."""
    if r.rounds == "one":
        return bool(t.ended)
    return len(alive(t)) <= 1


def next_seat(t: Table, seat: int) -> int:
    """The next seat after ``seat`` in turn that holds dice (ld-wp:bid.turns)."""
    n = len(t.cups)
    for step in range(1, n + 1):
        p = (seat + step) % n
        if t.cups[p] > 0:
            return p
    return seat


def to_move(r: Rules, t: Table) -> int:
    """``TERMINAL``, ``CHANCE`` while dice are to roll, else the seat to act: the opener, then
    the next seat in turn after the last bidder (ld-wp:round.opening, ld-wp:bid.turns)."""
    if over(r, t):
        return TERMINAL
    if rolling(t) is not None:
        return CHANCE
    if not t.bids:
        return t.opener
    return next_seat(t, t.bids[-1][0])


def higher(r: Rules, new: Bid, old: Bid) -> bool:
    """Whether ``new`` raises ``old`` under the bidding rule (ld-wp:bid.raise)."""
    if r.raise_rule == "face":
        return new.face > old.face or (new.face == old.face and new.quantity > old.quantity)
    if r.raise_rule == "quantity":
        return new.quantity > old.quantity or (new.quantity == old.quantity and
                                               new.face > old.face)
    if r.raise_rule == "highest":
        top = max(old.quantity, old.face)
        return new.quantity > top or new.face > top
    return new.quantity * new.face > old.quantity * old.face


def all_bids(r: Rules) -> list[Bid]:
    """Every bid the action table holds: quantities 1..the dice at the start, faces
    1..sides."""
    return [Bid(q, f) for q in range(1, r.total + 1) for f in range(1, r.sides + 1)]


def legal(r: Rules, t: Table) -> tuple[Bid | Call, ...]:
    """The seat to act's choices: every bid raising the standing one (any bid to open; at
    most the dice on the table, assumed), then ``liar`` and ``spot-on`` once a bid stands
    (ld-wp:bid.raise, ld-wp:challenge.call, ld-wp:variant.spot-on)."""
    if to_move(r, t) < 0:
        return ()
    limit = on_table(t)
    standing = t.bids[-1][1] if t.bids else None
    out: list[Bid | Call] = [b for b in all_bids(r) if b.quantity <= limit and
                             (standing is None or higher(r, b, standing))]
    if standing is not None:
        out.append(LIAR)
        if r.spot_on == "yes":
            out.append(SPOT)
    return tuple(out)


def chance(r: Rules, t: Table) -> list[tuple[Roll, Fraction]]:
    """Every face of the next die, equally likely (ld-wp:round.roll)."""
    if to_move(r, t) != CHANCE:
        return []
    return [(Roll(f), Fraction(1, r.sides)) for f in range(1, r.sides + 1)]


def counted(r: Rules, dice: tuple[tuple[int, ...], ...], face: int) -> int:
    """Dice showing ``face``, ones included when they are wild (ld-wp:round.wild,
    ld-wp:challenge.count)."""
    return sum(1 for cup in dice for d in cup
               if d == face or (r.wild == "ones" and d == 1))


# --------------------------------------------------------------------------- steps


def roll(r: Rules, t: Table, face: int) -> Table:
    """The next die to roll shows ``face``.

    Raises:
        IllegalAction: no die is to roll, or ``face`` is not a face of the die
            (ld-wp:round.roll).
    """
    seat = rolling(t)
    if seat is None or not 1 <= face <= r.sides or over(r, t):
        raise IllegalAction(f"roll {face}", "no die of that face is to roll",
                            ("ld-wp:round.roll",))
    rolled = list(t.rolled)
    rolled[seat] = (*rolled[seat], face)
    return Table(t.cups, tuple(rolled), t.bids, t.opener, t.ended, t.rules)


def act(r: Rules, t: Table, action: Bid | Call) -> Table:
    """The seat to act bids or calls.

    Raises:
        IllegalAction: dice still to roll (ld-wp:round.roll), the game over (ld-wp:end.last),
            a bid naming no face or no number (ld-wp:bid.claim), a bid that does not raise
            (ld-wp:bid.raise), a call with no bid standing
            (ld-wp:challenge.call), spot-on without the variant (ld-wp:variant.spot-on).
    """
    who = to_move(r, t)
    if who == CHANCE:
        raise IllegalAction(action, "the dice are not rolled yet", ("ld-wp:round.roll",))
    if who < 0:
        raise IllegalAction(action, "the game is over", ("ld-wp:end.last",))
    if isinstance(action, Bid) and not (action.quantity >= 1 and 1 <= action.face <= r.sides):
        raise IllegalAction(action, f"a bid names a face 1..{r.sides} and a number of at least 1",
                            ("ld-wp:bid.claim",))
    if action not in legal(r, t):
        clause = "ld-wp:bid.raise" if isinstance(action, Bid) else (
            "ld-wp:variant.spot-on" if action == SPOT else "ld-wp:challenge.call")
        raise IllegalAction(action, "not a legal bid or call here", (clause,))
    if isinstance(action, Bid):
        return Table(t.cups, t.rolled, (*t.bids, (who, action)), t.opener, t.ended, t.rules)
    bidder, bid = t.bids[-1]
    n = counted(r, t.rolled, bid.face)
    if action == LIAR:  # noqa: SIM108 - one clause per branch
        lost = who if n >= bid.quantity else bidder        # ld-wp:challenge.lose
    else:
        lost = bidder if n == bid.quantity else who        # ld-wp:variant.spot-on
    shown = Showdown(who, action.name, bidder, bid, n, lost, t.rolled)
    cups = list(t.cups)
    cups[lost] -= 1                                        # ld-wp:challenge.lose
    nxt = Table(tuple(cups), ((),) * len(cups), (), lost, (*t.ended, shown), t.rules)
    if cups[lost] == 0:                                    # ld-wp:round.next
        nxt = Table(nxt.cups, nxt.rolled, (), next_seat(nxt, lost), nxt.ended, t.rules)
    return nxt


# --------------------------------------------------------------------------- the end


def loser(r: Rules, t: Table) -> int | None:
    """The seat that lost the last round, or None before any challenge."""
    return t.ended[-1].loser if t.ended else None


def winner(r: Rules, t: Table) -> int | None:
    """Once the game is over: the last seat with dice (ld-wp:end.last); under ``rounds =
    one`` the winner of the one challenge (the other side of it). None while it goes on."""
    if not over(r, t):
        return None
    if r.rounds == "one":
        s = t.ended[-1]
        return s.bidder if s.loser == s.caller else s.caller
    return alive(t)[0]


def returns(r: Rules, t: Table) -> list[float]:
    """Per seat once the game is over: under ``rounds = last`` the winner +1, the others
    -1/(n-1); under ``rounds = one`` the round's loser -1, the others +1/(n-1) (zero-sum);
    zeros while it goes on."""
    n = r.players
    if not over(r, t):
        return [0.0] * n
    if r.rounds == "one":
        lost = t.ended[-1].loser
        return [-1.0 if p == lost else 1.0 / (n - 1) for p in range(n)]
    w = alive(t)[0]
    return [1.0 if p == w else -1.0 / (n - 1) for p in range(n)]


__all__ = ["CHANCE", "LIAR", "OPTIONS", "ORDERS", "RAISE_RULES", "ROUNDS", "SPOT", "SPOT_ON",
           "TERMINAL", "WILD", "Bid", "Call", "Roll", "Rules", "Showdown", "Table", "act",
           "alive", "all_bids", "chance", "counted", "higher", "legal", "loser", "next_seat",
           "on_table", "over", "returns", "roll", "rolling", "to_move", "winner"]
