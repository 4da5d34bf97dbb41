"""State invariants of Kuhn poker: each returns None or a readable violation.

Clauses: kuhn-wp:rules.deck and kuhn-wp:rules.deal (three distinct cards, one to each player),
kuhn-wp:rules.ante and kuhn-wp:rules.payoff (chips are conserved: what one player wins the
other loses, and nobody puts in more than the ante and one bet), kuhn-wp:rules.showdown (a hand
ends after at most three decisions).
"""

from __future__ import annotations

from collections.abc import Callable

from ruleproof.model.api import GameState
from ruleproof.model.kuhn_poker.rules import ANTE, BET, RANKS, Hand, pot, returns, to_move

Invariant = Callable[[Hand], str | None]


def cards_distinct(h: Hand) -> str | None:
    """At most two cards dealt, distinct, each one of the three ranks (kuhn-wp:rules.deal)."""
    if len(h.cards) > 2 or len(set(h.cards)) != len(h.cards) or \
            any(not 0 <= c < len(RANKS) for c in h.cards):
        return f"cards dealt {h.cards} are not at most two distinct cards of the deck"
    return None


def chips_conserved(h: Hand) -> str | None:
    """Each player has put in the ante and at most one more chip; the returns sum to zero and
    nobody wins more than the other put in (kuhn-wp:rules.ante, kuhn-wp:rules.payoff)."""
    put = pot(h)
    if any(not ANTE <= p <= ANTE + BET for p in put):
        return f"chips in the pot {put} are not an ante plus at most one bet each"
    r = returns(h)
    if sum(r) != 0 or any(abs(x) > max(put) for x in r):
        return f"returns {r} do not conserve the chips in the pot {put}"
    return None


def short_hand(h: Hand) -> str | None:
    """No decision after the third (kuhn-wp:rules.showdown, kuhn-wp:rules.fold)."""
    if len(h.moves) > 3 or (len(h.moves) == 3 and to_move(h) >= 0):
        return f"the hand goes on after {len(h.moves)} decisions"
    if h.moves and len(h.cards) < 2:
        return "a player acted before both cards were dealt"
    return None


INVARIANTS: dict[str, Invariant] = {
    "cards-distinct": cards_distinct,
    "chips-conserved": chips_conserved,
    "short-hand": short_hand,
}


def violations(h: Hand) -> list[str]:
    """Every broken invariant as ``name: text``."""
    return [f"{name}: {text}" for name, f in INVARIANTS.items() if (text := f(h)) is not None]


class InterfaceInvariants:
    """Kuhn poker's invariants over the one game interface (the capability ``invariants``,
    :class:`ruleproof.properties.play.GameInvariants`): every invariant of :data:`INVARIANTS`
    in every state, and two properties of every step: a decision leaves the dealt cards as they
    were (kuhn-wp:rules.deal) and nobody takes chips back out of the pot (kuhn-wp:rules.ante,
    kuhn-wp:rules.first)."""

    def baseline(self, state: GameState) -> None:
        """None: the deck and the antes are fixed by the rules, not by the set-up."""
        return None

    def violations(self, state: GameState, baseline: object) -> list[str]:
        """:func:`violations` of the hand."""
        return violations(state.model)

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        """A decision that changes the cards, or a step after which a player has fewer chips
        in the pot."""
        b, a = before.model, after.model
        out: list[str] = []
        if len(a.moves) > len(b.moves) and a.cards != b.cards:
            out.append(f"cards-kept: a decision changed the cards {b.cards} into {a.cards}")
        if any(x < y for x, y in zip(pot(a), pot(b), strict=True)):
            out.append(f"pot-grows: chips in the pot went from {pot(b)} to {pot(a)}")
        return out


INTERFACE_INVARIANTS = InterfaceInvariants()
"""The ``invariants`` capability of the plugin record."""
