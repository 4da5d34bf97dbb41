"""The rules of Kuhn poker (kuhn-wp) as pure functions over a frozen state.

Two players (kuhn-wp:rules.players) ante one chip each (kuhn-wp:rules.ante); a deck of three
ranked cards, jack < queen < king (kuhn-wp:rules.deck), deals one private card to each player
(kuhn-wp:rules.deal): two chance nodes, each card equally likely among those left. Then the
players act in turn, the first player first (kuhn-wp:rules.first): ``pass`` or ``bet``.
Facing a bet, ``bet`` calls and ``pass`` folds (kuhn-wp:rules.facing-bet, kuhn-wp:rules.fold).
Two passes in a row or a called bet end the hand in a showdown (kuhn-wp:rules.showdown); the
winner takes the other's chips in the pot (kuhn-wp:rules.payoff).

>>> s = deal(deal(Hand(), 2), 0)        # the first player holds the king, the second the jack
>>> to_move(s), [str(a) for a in legal(s)]
(0, ['pass', 'bet'])
>>> s = act(act(s, Move.BET), Move.PASS)  # bet, fold
>>> to_move(s), returns(s)
(-4, [1.0, -1.0])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from ruleproof.errors import IllegalAction

CHANCE = -1
TERMINAL = -4
RANKS = ("J", "Q", "K")
"""Card names, lowest first (kuhn-wp:rules.deck)."""
ANTE = 1
"""Chips each player puts in before the deal (kuhn-wp:rules.ante)."""
BET = 1
"""Chips a bet or a call adds (kuhn-wp:rules.first)."""


class Move(enum.Enum):
    """A player's decision: ``pass`` (check, or fold facing a bet) or ``bet`` (bet, or call)."""

    PASS = "pass"
    BET = "bet"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Card:
    """A chance outcome: the card dealt next (``rank`` 0 jack, 1 queen, 2 king)."""

    rank: int

    def __str__(self) -> str:
        return f"deal {RANKS[self.rank]}"


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of Kuhn poker.

    Attributes:
        cards: the cards dealt so far, the first player's first (ranks 0..2).
        moves: the players' decisions so far, in order (the first player's first).
    """

    cards: tuple[int, ...] = ()
    moves: tuple[Move, ...] = ()


def _finished(moves: tuple[Move, ...]) -> bool:
    """Two passes, a fold, or a call end the hand (kuhn-wp:rules.showdown, kuhn-wp:rules.fold)."""
    if len(moves) < 2:
        return False
    return moves[-1] is Move.PASS or Move.BET in moves[:-1] or moves[-2] is Move.BET


def to_move(h: Hand) -> int:
    """``CHANCE`` while dealing, the seat to act (0 first, kuhn-wp:rules.first), or
    ``TERMINAL``."""
    if len(h.cards) < 2:
        return CHANCE
    if _finished(h.moves):
        return TERMINAL
    return len(h.moves) % 2


def legal(h: Hand) -> tuple[Move, ...]:
    """Both moves at every decision (kuhn-wp:rules.first, kuhn-wp:rules.after-pass,
    kuhn-wp:rules.facing-bet); none otherwise."""
    return (Move.PASS, Move.BET) if to_move(h) >= 0 else ()


def chance(h: Hand) -> list[tuple[Card, Fraction]]:
    """The cards left, each equally likely (kuhn-wp:rules.deal)."""
    if to_move(h) != CHANCE:
        return []
    left = [r for r in range(len(RANKS)) if r not in h.cards]
    return [(Card(r), Fraction(1, len(left))) for r in left]


def deal(h: Hand, rank: int) -> Hand:
    """Deal card ``rank`` to the next player. Raises IllegalAction if it is not in the deck."""
    if to_move(h) != CHANCE:
        raise IllegalAction(f"deal {rank}", "no card is dealt now: both cards are out",
                            ("kuhn-wp:rules.deal",))
    if rank in h.cards or not 0 <= rank < len(RANKS):
        raise IllegalAction(f"deal {rank}", "that card is not left to deal", ("kuhn-wp:rules.deal",))
    return Hand((*h.cards, rank), h.moves)


def act(h: Hand, move: Move) -> Hand:
    """The seat to act plays ``move``.

    Raises:
        IllegalAction: before both cards are dealt (kuhn-wp:rules.deal), or once the hand is
            over (kuhn-wp:rules.showdown, kuhn-wp:rules.fold).
    """
    who = to_move(h)
    if who == CHANCE:
        raise IllegalAction(move, "the cards are not dealt yet", ("kuhn-wp:rules.deal",))
    if who < 0:
        raise IllegalAction(move, "the hand is over", ("kuhn-wp:rules.showdown",
                                                       "kuhn-wp:rules.fold"))
    return Hand(h.cards, (*h.moves, move))


def pot(h: Hand) -> list[int]:
    """Chips each player has put in: the ante plus one per bet or call (kuhn-wp:rules.ante)."""
    out = [ANTE, ANTE]
    for i, m in enumerate(h.moves):
        if m is Move.BET:
            out[i % 2] += BET
    return out


def winner(h: Hand) -> int | None:
    """Who takes the pot once the hand is over: the bettor after a fold (kuhn-wp:rules.fold),
    else the higher card (kuhn-wp:rules.showdown); None while it goes on."""
    if to_move(h) != TERMINAL:
        return None
    m = h.moves
    if m[-1] is Move.PASS and Move.BET in m:
        return (len(m) - 1 + 1) % 2  # the one who did not fold
    return 0 if h.cards[0] > h.cards[1] else 1


def shown(h: Hand) -> tuple[int, ...]:
    """The cards turned face up: both, in seat order, once the hand ends in a showdown
    (kuhn-wp:rules.showdown); none while it goes on or after a fold (kuhn-wp:rules.fold)."""
    if to_move(h) != TERMINAL or (Move.BET in h.moves and h.moves[-1] is Move.PASS):
        return ()
    return h.cards


def returns(h: Hand) -> list[float]:
    """Chips won (+) and lost (-) per seat once the hand is over (kuhn-wp:rules.payoff);
    zeros while it goes on."""
    w = winner(h)
    if w is None:
        return [0.0, 0.0]
    stake = float(pot(h)[1 - w])
    return [stake, -stake] if w == 0 else [-stake, stake]


__all__ = ["ANTE", "BET", "CHANCE", "RANKS", "TERMINAL", "Card", "Hand", "Move", "act", "chance",
           "deal", "legal", "pot", "returns", "shown", "to_move", "winner"]
