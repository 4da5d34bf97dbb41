"""Contracts of kuhn-wp, the rules of Kuhn poker, written from each clause's text; and the
capability ``"contracts"`` of the game's plugin record (:data:`CONTRACTS`, a
:class:`~ruleproof.properties.contracts.games.GameContracts`).

A contract reads a hand through :func:`view`: the dealt cards, the decisions, and what the
hand shows (who is to decide, the chips each player has in the pot, who took the pot, the
chips won, the cards turned up). For the model's states (:class:`~ruleproof.model.kuhn_poker.
rules.Hand`) those come from the model; the conformance harness hands the contracts an engine's
report rebuilt as a :class:`Table` (properties/kuhn_poker/conformance.py), so the same clause
judges both.

What the clauses say, restated here without the model's code: the first player decides first
(kuhn-wp:rules.first), then the players alternate (the other player answers,
kuhn-wp:rules.after-pass, kuhn-wp:rules.facing-bet); a bet stands when the last decision was a
bet; the hand ends after two passes in a row or a call (kuhn-wp:rules.showdown) or a pass
facing a bet (kuhn-wp:rules.fold), and pays one chip, or two after a called bet
(kuhn-wp:rules.payoff).
Decisions and deals are the transitions (chance deals appear in exhaustive exploration).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.model.kuhn_poker.rules import Card, Hand, Move
from ruleproof.properties.contracts.core import Contract, ContractSet
from ruleproof.properties.contracts.games import GameContracts, Recall, ScenarioRun
from ruleproof.properties.plugin import RuleSet

PASS, BET = Move.PASS, Move.BET
ANTE = 1
"""One chip each before the deal (kuhn-wp:rules.ante), as the clause states it."""


@dataclass(frozen=True)
class Table:
    """A hand as the clauses read it.

    Attributes:
        cards: the dealt cards (ranks 0 jack .. 2 king), the first player's first.
        moves: the decisions so far, in order.
        to_move: the seat to decide, or None (over, or cards still to deal).
        over: whether the hand has ended.
        pot: chips each player has put in.
        winner: the seat that took the pot (None while it goes on).
        won: chips the winner took from the other (None while it goes on).
        shown: the cards turned up, in seat order (empty unless there was a showdown).
    """

    cards: tuple[int, ...]
    moves: tuple[Move, ...]
    to_move: int | None
    over: bool
    pot: tuple[int, int]
    winner: int | None
    won: int | None
    shown: tuple[int, ...]


def table_of(h: Hand) -> Table:
    """What the model's hand ``h`` shows (read off the model)."""
    from ruleproof.model.kuhn_poker import rules

    who = rules.to_move(h)
    w = rules.winner(h)
    put = rules.pot(h)
    won = None if w is None else int(abs(rules.returns(h)[w]))
    return Table(h.cards, h.moves, who if who >= 0 else None, who == rules.TERMINAL,
                 (put[0], put[1]), w, won, rules.shown(h))


def view(x: Any) -> Table:
    """``x`` as a :class:`Table` (a model hand is read off the model)."""
    return x if isinstance(x, Table) else table_of(x)


# ----------------------------------------------------------------------------- the clauses


def seat_of(decision: int) -> int:
    """The seat making decision number ``decision`` (0-based): the first player first, then
    the other one in turn (kuhn-wp:rules.first, kuhn-wp:rules.after-pass,
    kuhn-wp:rules.facing-bet)."""
    return decision % 2


def facing_bet(moves: tuple[Move, ...]) -> bool:
    """A bet stands: the last decision was a bet (kuhn-wp:rules.facing-bet)."""
    return bool(moves) and moves[-1] is BET


def two_passes(moves: tuple[Move, ...]) -> bool:
    """Both players have passed in a row (kuhn-wp:rules.showdown)."""
    return len(moves) >= 2 and moves[-1] is PASS and moves[-2] is PASS


def called(moves: tuple[Move, ...]) -> bool:
    """The last decision called a standing bet (kuhn-wp:rules.facing-bet)."""
    return len(moves) >= 2 and moves[-1] is BET and moves[-2] is BET


def folded(moves: tuple[Move, ...]) -> bool:
    """The last decision passed facing a bet (kuhn-wp:rules.fold)."""
    return len(moves) >= 2 and moves[-1] is PASS and moves[-2] is BET


def ended(moves: tuple[Move, ...]) -> bool:
    """The decisions end the hand: two passes, a call, or a fold."""
    return two_passes(moves) or called(moves) or folded(moves)


def deciding(x: Any) -> bool:
    """Both cards are dealt and the hand goes on."""
    s = view(x)
    return len(s.cards) == 2 and not ended(s.moves)


def _decision(s: Any, a: Any) -> bool:
    return isinstance(a, Move) and deciding(s)


def _after(s: Any, a: Any) -> tuple[Move, ...]:
    return (*view(s).moves, a)


def _first_permits(s: Any, a: Any) -> bool:
    """At the first decision the first player may pass or bet."""
    return _decision(s, a) and not view(s).moves


def _first_mover(s: Any, a: Any, t: Any) -> bool | None:
    """The first decision is the first player's."""
    if not _decision(s, a) or view(s).moves:
        return None
    return view(s).to_move == 0


def _opening_bet(s: Any, a: Any, t: Any) -> bool | None:
    """A bet with no bet standing adds one chip of the bettor's to the pot."""
    if not (_decision(s, a) and a is BET and not facing_bet(view(s).moves)):
        return None
    me = seat_of(len(view(s).moves))
    before, after = view(s).pot, view(t).pot
    return after[me] == before[me] + 1 and after[1 - me] == before[1 - me]


def _at_first(s: Any) -> bool:
    """The first decision (kuhn-wp:rules.first)."""
    return not view(s).moves


def _at_after_pass(s: Any) -> bool:
    """The decision after a pass with no bet standing (kuhn-wp:rules.after-pass)."""
    return view(s).moves == (PASS,)


def _at_facing_bet(s: Any) -> bool:
    """A decision facing a bet (kuhn-wp:rules.facing-bet)."""
    return facing_bet(view(s).moves)


def _recorded(at: Callable[[Any], bool]) -> Callable[[Any, Any, Any], bool | None]:
    """The decision made at a decision where ``at`` holds is the one that counts: it is
    added to the decisions, nothing else is."""
    def requires(s: Any, a: Any, t: Any) -> bool | None:
        if not (_decision(s, a) and at(s)):
            return None
        return view(t).moves == _after(s, a)
    return requires


def _pass_no_chip(at: Callable[[Any], bool]) -> Callable[[Any, Any, Any], bool | None]:
    """A pass (a check) where ``at`` holds puts no chip into the pot."""
    def requires(s: Any, a: Any, t: Any) -> bool | None:
        if not (_decision(s, a) and a is PASS and at(s)):
            return None
        return view(t).pot == view(s).pot
    return requires


def _after_pass_permits(s: Any, a: Any) -> bool:
    """After a pass with no bet standing the other player may pass or bet."""
    m = view(s).moves
    return _decision(s, a) and m == (PASS,)


def _after_pass(s: Any, a: Any, t: Any) -> bool | None:
    """The first pass does not end the hand: the other player decides next, the pot stays."""
    if not (_decision(s, a) and a is PASS and not view(s).moves):
        return None
    after = view(t)
    return not after.over and after.to_move == seat_of(1) and after.pot == view(s).pot


def _facing_permits(s: Any, a: Any) -> bool:
    """Facing a bet a player may call (bet) or fold (pass)."""
    return _decision(s, a) and facing_bet(view(s).moves)


def _answer_due(s: Any, a: Any, t: Any) -> bool | None:
    """After a bet no one has answered, the other player must answer it: the hand goes on."""
    if not (_decision(s, a) and a is BET and not facing_bet(view(s).moves)):
        return None
    after = view(t)
    return not after.over and after.to_move == 1 - seat_of(len(view(s).moves))


def _call_chip(s: Any, a: Any, t: Any) -> bool | None:
    """A call adds one chip of the caller's: both have as much in the pot."""
    if not (_decision(s, a) and a is BET and facing_bet(view(s).moves)):
        return None
    me = seat_of(len(view(s).moves))
    before, after = view(s).pot, view(t).pot
    return after[me] == before[me] + 1 and after[1 - me] == before[1 - me] and \
        after[0] == after[1]


def _fold(s: Any, a: Any, t: Any) -> bool | None:
    """Passing facing a bet folds: the hand is over, the bettor takes the pot, no card is
    shown, no chip is added."""
    if not (_decision(s, a) and a is PASS and facing_bet(view(s).moves)):
        return None
    bettor = seat_of(len(view(s).moves) - 1)
    after = view(t)
    return after.over and after.winner == bettor and not after.shown and \
        after.pot == view(s).pot


def _showdown(s: Any, a: Any, t: Any) -> bool | None:
    """Two passes in a row or a call: the hand is over, both cards are shown and the higher
    card takes the pot."""
    if not _decision(s, a):
        return None
    moves = _after(s, a)
    if not (two_passes(moves) or called(moves)):
        return None
    after = view(t)
    cards = view(s).cards
    higher = 0 if cards[0] > cards[1] else 1
    return after.over and after.shown == cards and after.winner == higher


def _after_showdown_forbids(s: Any, a: Any) -> bool:
    """Once the cards are shown the hand is over: nobody decides any more."""
    x = view(s)
    return isinstance(a, Move) and len(x.cards) == 2 and (two_passes(x.moves) or
                                                          called(x.moves))


def _after_fold_forbids(s: Any, a: Any) -> bool:
    """Once a player has folded the hand is over: nobody decides any more."""
    x = view(s)
    return isinstance(a, Move) and len(x.cards) == 2 and folded(x.moves)


def _payoff(s: Any, a: Any, t: Any) -> bool | None:
    """The winner takes the other player's chips in the pot: one after two passes or a fold,
    two after a called bet."""
    if not _decision(s, a):
        return None
    moves = _after(s, a)
    if not ended(moves):
        return None
    after = view(t)
    if after.winner not in (0, 1):
        return False
    stake = 2 if called(moves) else 1
    return after.won == stake and after.pot[1 - after.winner] == stake


def _deal_forbids(s: Any, a: Any) -> bool:
    """A card is dealt to each player from the three: no card twice, no third card dealt."""
    cards = view(s).cards
    return isinstance(a, Card) and (a.rank in cards or len(cards) >= 2)


def _dealt(s: Any, a: Any, t: Any) -> bool | None:
    """A deal gives the next player the card; a decision leaves the cards as they were."""
    before, after = view(s).cards, view(t).cards
    if isinstance(a, Card):
        return after == (*before, a.rank)
    if isinstance(a, Move):
        return after == before
    return None


def _ante(s: Any, a: Any, t: Any) -> bool | None:
    """The antes stay in the pot: each player has at least one chip in it."""
    if not isinstance(a, Move | Card):
        return None
    return all(p >= ANTE for p in view(t).pot)


C = Contract
CONTRACTS_KUHN_WP = ContractSet(
    source="kuhn-wp",
    contracts=(
        C("kuhn-wp:rules.first", permits=_first_permits, requires=_first_mover,
          what="the first player makes the first decision"),
        C("kuhn-wp:rules.first", requires=_opening_bet, what="a bet adds one chip"),
        C("kuhn-wp:rules.first", requires=_recorded(_at_first), what="the first decision counts"),
        C("kuhn-wp:rules.first", requires=_pass_no_chip(_at_first), what="a pass adds no chip"),
        C("kuhn-wp:rules.after-pass", permits=_after_pass_permits, requires=_after_pass,
          what="after the first pass the other player decides"),
        C("kuhn-wp:rules.after-pass", requires=_recorded(_at_after_pass),
          what="the answer to a pass counts"),
        C("kuhn-wp:rules.after-pass", requires=_pass_no_chip(_at_after_pass),
          what="a second pass adds no chip"),
        C("kuhn-wp:rules.facing-bet", permits=_facing_permits, requires=_answer_due,
          what="a bet is answered by the other player"),
        C("kuhn-wp:rules.facing-bet", requires=_call_chip, what="a call adds one chip"),
        C("kuhn-wp:rules.facing-bet", requires=_recorded(_at_facing_bet),
          what="the answer to a bet counts"),
        C("kuhn-wp:rules.fold", forbids=_after_fold_forbids, requires=_fold,
          what="a pass facing a bet folds"),
        C("kuhn-wp:rules.showdown", forbids=_after_showdown_forbids, requires=_showdown,
          what="two passes or a call: showdown, the higher card takes the pot"),
        C("kuhn-wp:rules.payoff", requires=_payoff, what="one chip, two after a called bet"),
        C("kuhn-wp:rules.deal", forbids=_deal_forbids, requires=_dealt,
          what="one card each from the deck; decisions leave the cards"),
        C("kuhn-wp:rules.ante", requires=_ante, what="the antes stay in the pot"),
    ),
    uncovered={},
    config_of=lambda s: None,
)
"""The contracts of kuhn-wp (every rule clause has one)."""


# ----------------------------------------------------------------------------- capability


def _kuhn_wp() -> ContractSet:
    return CONTRACTS_KUHN_WP


def settle(state: GameState) -> GameState:
    """Pending chance nodes drawn as the generic rule draws them (the seeded set-up already
    dealt both cards: Kuhn poker has no chance after the deal, kuhn-wp:rules.deal)."""
    from ruleproof.properties.play import default_settle

    return default_settle(state)


def refinement_rule_sets(rs: RuleSet) -> tuple[RuleSet, ...]:
    """The rule set kuhn-wp is checked against kuhn-wp (the shared group against nothing)."""
    from ruleproof.properties.kuhn_poker.plugin import contract_rule_sets

    return () if rs.shared else contract_rule_sets()


def scenario_runs(rs: RuleSet) -> Iterable[ScenarioRun]:
    """Every shipped Kuhn poker scenario (each plays kuhn-wp), its start and actions."""
    from ruleproof.properties.scenarios import load, shipped

    for path in shipped("kuhn-poker"):
        sc = load(path)
        yield ScenarioRun(path.name, sc.start, tuple(a for a, _who, _text in sc.actions))


def _information_state() -> Any:
    from ruleproof.properties.recall import information_state

    return information_state


CONTRACTS = GameContracts(
    sets={"kuhn-wp": _kuhn_wp},
    settle=settle,
    refinement_rule_sets=refinement_rule_sets,
    scenario_runs=scenario_runs,
    searched_rule_set="kuhn-wp/2",
    recall=Recall("information state", _information_state, 4, 2, every=1),
)
"""The capability ``"contracts"`` of Kuhn poker's plugin record. The shared group runs the
generic endless-games and recall searches on kuhn-wp/2; a hand ends after at most three
decisions, so the recall search branches at every decision (and the ``cycles`` capability
samples states at any depth of a hand)."""

__all__ = ["CONTRACTS", "CONTRACTS_KUHN_WP", "Table", "called", "deciding", "ended",
           "facing_bet", "folded", "seat_of", "table_of", "two_passes", "view"]
