"""State invariants of Liar's Dice: each returns None or a readable violation.

Clauses: ld-wp:setup.dice and ld-wp:challenge.lose (dice are conserved: the dice held plus
the rounds lost make the dice dealt, nobody holds more than at the start), ld-wp:round.roll
(every die rolled shows a face of the die, no seat has more dice rolled than it holds),
ld-wp:bid.raise (this round's bids strictly increase under the bidding rule played),
ld-wp:challenge.lose (exactly one loser per challenge: each showdown is one of its two
sides, the caller or the bidder), ld-wp:end.last (the game is over exactly when the rules
say: one seat with dice, or one round under ``rounds = one``).
"""

from __future__ import annotations

from collections.abc import Callable

from ruleproof.model.api import GameState
from ruleproof.model.liars_dice.rules import Table, counted, higher

Invariant = Callable[[Table], str | None]


def dice_conserved(t: Table) -> str | None:
    """Dice held plus rounds lost equal the dice at the start; each seat holds 0..dice."""
    r = t.rules
    if sum(t.cups) + len(t.ended) != r.total or any(not 0 <= n <= r.dice for n in t.cups):
        return (f"cups {t.cups} after {len(t.ended)} lost rounds do not conserve the "
                f"{r.total} dice")
    for p, n in enumerate(t.cups):
        lost = sum(1 for s in t.ended if s.loser == p)
        if n != r.dice - lost:
            return f"seat {p} holds {n} dice after losing {lost} rounds of {r.dice} dice"
    return None


def dice_rolled(t: Table) -> str | None:
    """No seat has more dice rolled than it holds; every face is one of the die's."""
    for p, cup in enumerate(t.rolled):
        if len(cup) > t.cups[p] or any(not 1 <= d <= t.rules.sides for d in cup):
            return f"seat {p} rolled {cup} holding {t.cups[p]} dice"
    return None


def bids_increase(t: Table) -> str | None:
    """Each bid of the round is higher than the one before under the bidding rule; no bid
    names more dice than are on the table."""
    for (_p, a), (_q, b) in zip(t.bids, t.bids[1:], strict=False):
        if not higher(t.rules, b, a):
            return f"bid {b} does not raise {a} under raise={t.rules.raise_rule}"
    if any(b.quantity > sum(t.cups) for _p, b in t.bids):
        return f"a bid names more than the {sum(t.cups)} dice on the table"
    return None


def one_loser(t: Table) -> str | None:
    """Every showdown has exactly one loser, the caller or the bidder, and it is the side the
    count says (liar: the challenger iff the bid holds; spot-on: the bidder iff exact)."""
    for s in t.ended:
        if s.caller == s.bidder or s.loser not in (s.caller, s.bidder):
            return f"showdown {s} has no single loser among caller and bidder"
        n = counted(t.rules, s.dice, s.bid.face)
        if n != s.count:
            return f"showdown {s} counted {s.count}, the dice show {n}"
        wrong = (s.caller if n >= s.bid.quantity else s.bidder) if s.call == "liar" else \
            (s.bidder if n == s.bid.quantity else s.caller)
        if s.loser != wrong:
            return f"showdown {s}: seat {wrong} was wrong but seat {s.loser} lost"
    return None


def game_length(t: Table) -> str | None:
    """At most one round under ``rounds = one``; no bids while one seat holds dice."""
    if t.rules.rounds == "one" and len(t.ended) > 1:
        return f"{len(t.ended)} rounds played under rounds=one"
    if sum(1 for n in t.cups if n) <= 1 and t.bids:
        return "bids with one seat holding dice"
    return None


INVARIANTS: dict[str, Invariant] = {
    "dice-conserved": dice_conserved,
    "dice-rolled": dice_rolled,
    "bids-increase": bids_increase,
    "one-loser": one_loser,
    "game-length": game_length,
}


def violations(t: Table) -> list[str]:
    """Every broken invariant as ``name: text``."""
    return [f"{name}: {text}" for name, f in INVARIANTS.items() if (text := f(t)) is not None]


class InterfaceInvariants:
    """Liar's Dice's invariants over the one game interface (capability ``invariants``):
    every invariant of :data:`INVARIANTS` in every state, and of every step: a decision leaves
    the dice rolled as they were (ld-wp:round.roll), and no seat's dice grow
    (ld-wp:setup.dice)."""

    def baseline(self, state: GameState) -> None:
        """None: the dice at the start are a parameter, not the set-up's."""
        return None

    def violations(self, state: GameState, baseline: object) -> list[str]:
        return violations(state.model)

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        b, a = before.model, after.model
        out: list[str] = []
        if len(a.bids) > len(b.bids) and a.rolled != b.rolled:
            out.append(f"dice-kept: a bid changed the dice {b.rolled} into {a.rolled}")
        if any(x > y for x, y in zip(a.cups, b.cups, strict=True)):
            out.append(f"no-gain: cups went from {b.cups} to {a.cups}")
        return out


INTERFACE_INVARIANTS = InterfaceInvariants()
"""The ``invariants`` capability of the plugin record."""

__all__ = ["INTERFACE_INVARIANTS", "INVARIANTS", "violations"]
