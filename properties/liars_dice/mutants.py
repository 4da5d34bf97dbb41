"""Liar's Dice's rule sites for the mutant search (capability ``"mutants"``, :data:`MUTANTS`;
the operators and the search are :mod:`ruleproof.properties.discovery.mutants`).

Each site is a point where a reader of ld-wp could decide otherwise than the engine, written
as readings that replace the engine's legal actions or transition (the engine's source is never
edited):

* ``cap bid-limit`` (ld-wp:bid.claim, ld-wp:bid.raise): a bid names at most the dice on the
  table now (the engine's assumed value, docs/liars-dice.md), or any number up to the dice the
  game started with (after a die is lost, a bid beyond what is left is a sure loss, but may
  it be made?).
* ``forced challenge`` (ld-wp:challenge.call): a player facing a bid may raise or challenge;
  read as "must raise while a raise is possible" the challenge is refused until no bid is left.
* ``next-seat next-opener`` (ld-wp:round.next, until one player is left): the loser opens the
  next round (engine), or the winner of the challenge does, or the player after the loser.

Not a site: who pays for a right spot-on call. The text has the claimant win against the
bidder; the house rule "every other player loses a die" differs from it only with three or
more players, and the spot-on rule set is searched with two.

A reading that changes play and breaks no contract of ld-wp survives: a question the text
leaves open (registered, or a finding of ``ruleproof ambiguities --discover``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ruleproof.model.api import GameBase
from ruleproof.model.liars_dice.rules import (
    LIAR,
    Bid,
    Showdown,
    Table,
    all_bids,
    higher,
    next_seat,
    on_table,
)
from ruleproof.properties.contracts.discovery import Finding
from ruleproof.properties.discovery.mutants import Reading, Site, SiteList, mutant
from ruleproof.properties.plugin import RuleSet


def _engine(value: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        return value
    return engine


def _option(rs: RuleSet, name: str, default: str) -> str:
    return dict(rs.options).get(name, default)


def _same(base: GameBase[Any]) -> GameBase[Any]:
    return base


# ----------------------------------------------------------------------------- bid-limit


def _any_number(base: GameBase[Any]) -> GameBase[Any]:
    """Bids up to the dice the game started with, whatever is left on the table."""
    def legal(b: GameBase[Any], m: Any) -> Sequence[Any]:
        out = tuple(b.model_legal(m))
        t: Table = m
        if not out or b.model_to_move(t) < 0:
            return out
        standing = t.bids[-1][1] if t.bids else None
        extra = [x for x in all_bids(t.rules) if x.quantity > on_table(t) and
                 (standing is None or higher(t.rules, x, standing))]
        bids = [a for a in out if isinstance(a, Bid)]
        calls = [a for a in out if not isinstance(a, Bid)]
        return (*bids, *extra, *calls)

    def step(b: GameBase[Any], m: Any, action: Any) -> tuple[Any, Any]:
        t: Table = m
        if isinstance(action, Bid) and action.quantity > on_table(t):
            who = b.model_to_move(t)
            return replace(t, bids=(*t.bids, (who, action))), ()
        return b.model_step(m, action)

    return mutant(base, legal=legal, step=step, label="a bid may exceed the dice left")


# ----------------------------------------------------------------------------- challenge


def _must_raise(base: GameBase[Any]) -> GameBase[Any]:
    """The challenge refused while some bid still raises the standing one."""
    def legal(b: GameBase[Any], m: Any) -> Sequence[Any]:
        out = tuple(b.model_legal(m))
        if any(isinstance(a, Bid) for a in out):
            return tuple(a for a in out if a != LIAR)
        return out
    return mutant(base, legal=legal, label="raise while a raise is possible")


# ----------------------------------------------------------------------------- next opener


def _opener(choose: Callable[[Table, Showdown], int], label: str
            ) -> Callable[[GameBase[Any]], GameBase[Any]]:
    """The round after a challenge is opened by ``choose(successor, showdown)`` (a seat with
    dice; the game's end and the engine's rule for an eliminated loser are kept)."""
    def step(b: GameBase[Any], m: Any, action: Any) -> tuple[Any, Any]:
        nxt, seen = b.model_step(m, action)
        t: Table = nxt
        if len(t.ended) > len(m.ended) and sum(1 for n in t.cups if n > 0) > 1:
            shown = t.ended[-1]
            if t.cups[shown.loser] > 0:
                seat = choose(t, shown)
                if t.cups[seat] > 0:
                    t = replace(t, opener=seat)
        return t, seen

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, step=step, label=label)
    return make


def _winner_opens(t: Table, s: Showdown) -> int:
    return s.bidder if s.loser == s.caller else s.caller


def _after_loser_opens(t: Table, s: Showdown) -> int:
    return next_seat(t, s.loser)


def sites(rs: RuleSet) -> list[Site]:
    """The sites of ld-wp's engine under ``rs`` (see the module docstring)."""
    last = _option(rs, "rounds", "last") == "last"
    out = [
        Site("cap", "bid-limit", ("ld-wp:bid.claim", "ld-wp:bid.raise"),
             "May a bid name more dice than are left on the table (up to the dice the game "
             "started with)?",
             (Reading("on-table", "at most the dice on the table", _same),
              Reading("started-with", "up to the dice the game started with", _any_number)),
             _engine("on-table")),
        Site("forced", "challenge", ("ld-wp:challenge.call",),
             "Facing a bid, may a player challenge while a higher bid is still possible?",
             (Reading("raise-or-call", "raise or challenge", _same),
              Reading("must-raise", "raise while a raise is possible", _must_raise)),
             _engine("raise-or-call")),
    ]
    if last:
        out.append(Site(
            "next-seat", "next-opener", ("ld-wp:round.next",),
            "Who opens the round after a challenge: its loser, its winner, or the player after "
            "the loser?",
            (Reading("loser", "the loser opens", _same),
             Reading("winner", "the winner of the challenge opens",
                     _opener(_winner_opens, "the winner opens the next round")),
             Reading("after-loser", "the player after the loser opens",
                     _opener(_after_loser_opens, "the player after the loser opens"))),
            _engine("loser")))
    return out


def _witness(rs: RuleSet, finding: Finding) -> str:
    from .discovery import DISCOVERY

    return DISCOVERY.witness(rs, finding)


MUTANTS = SiteList(sites, _witness)
"""The capability ``"mutants"`` of Liar's Dice's plugin record."""

__all__ = ["MUTANTS", "sites"]
