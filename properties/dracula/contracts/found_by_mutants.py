"""Contracts of dracula-en that the mutant search (properties/discovery/mutants.py) showed
missing: each mutant below changed play and broke no contract, although its clause settles the
question. Each predicate is written from the clause text (the paraphrase in
``spec/dracula/sources/dracula-en.toml``), not from the engine; :data:`CONTRACTS` is added to
dracula-en's set (``properties/dracula/contracts/__init__.py``).

* dracula-en:meet.reveal-hands -- the player who moved decides whether hands are shown (the
  mutant ``meeting-decider=other`` gave the decision to the player met);
* dracula-en:look.opponent-card -- a revealed card is revealed: the opponent sees it too
  (``revealed-card=looker``);
* dracula-en:meet.reveal-hands -- shown hands are shown to each other: each player sees every
  card of the other's hand (``meeting-view=mover-only``);
* dracula-en:look.own-card -- after laying a card for the own card taken, the player may move
  on (``own-look-move=move-ends``); the card taken is not shown to the opponent
  (``own-card-taken=shown``);
* dracula-en:early-end.give-target -- a target may be given away at any time before the last
  life marker goes (``target-gift-when=last-marker``);
* dracula-en:cards.bar -- the played card's bar says which barrier may be placed or moved
  (``barrier-colour=any``);
* dracula-en:pay.then-functions -- the life markers owed for extra steps are part of the
  payment, which comes before the card's other functions (``overpay-order=resolve-first``).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dracula import State
from ruleproof.model.dracula.data import Kind
from ruleproof.model.dracula.engine import GiveTarget, Look, Meet, Move, Place, PlayCard
from ruleproof.properties.contracts.core import Contract

S = State
A = Any


def _head(s: S) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _over(t: S) -> bool:
    return t.winner is not None


def _mover_decides(s: S, a: A, t: S) -> bool | None:
    """A meeting that a move brings about is decided by the player who moved."""
    if not (isinstance(a, Move) and _head(s) == "move") or _head(t) != "meet":
        return None
    return t.agenda[0].player == s.active


def _revealed_to_both(s: S, a: A, t: S) -> bool | None:
    """An opposing card looked at is revealed: both players know it afterwards."""
    if not (isinstance(a, Look) and _head(s) == "move"):
        return None
    loc = s.pos[s.active]
    card = s.board_cards[loc]
    if card is None or int(s.cards.enc(card).owner) == s.active:
        return None
    return t.known[0][loc] == card and t.known[1][loc] == card


def _hands_shown(s: S, a: A, t: S) -> bool | None:
    """Hands shown at a meeting are shown to each other: what each player saw of the step
    names every card of the other's hand."""
    if not (isinstance(a, Meet) and a.reveal and _head(s) == "meet"):
        return None
    fresh = t.log[len(s.log):]
    for p in (0, 1):
        seen = set(" ".join(e.seen[p] for e in fresh).replace(",", " ").split())
        if not set(s.hand[1 - p]) <= seen:
            return False
    return True


def _own_card_hidden(s: S, a: A, t: S) -> bool | None:
    """An own card taken into the hand is not shown to the opponent: nothing the opponent saw
    of the step names it."""
    if not (isinstance(a, Look) and _head(s) == "move"):
        return None
    card = s.board_cards[s.pos[s.active]]
    if card is None or int(s.cards.enc(card).owner) != s.active:
        return None
    other = 1 - s.active
    seen = set(" ".join(e.seen[other] for e in t.log[len(s.log):]).replace(",", " ").split())
    return card not in seen


def _may_move_on(s: S, a: A, t: S) -> bool | None:
    """After laying a card where the player took one of his own (or found the place empty),
    the move goes on: he may walk on or end it."""
    if not (isinstance(a, Place) and _head(s) == "place" and len(s.agenda) > 1
            and s.agenda[1].kind == "move") or _over(t):
        return None
    return _head(t) in ("move", "meet", "place")


def _gift_any_time(s: S, a: A) -> bool:
    """At any of his decisions, a player below his starting life markers may hand a target
    from his hand to the opponent."""
    if not isinstance(a, GiveTarget) or not s.agenda or _over(s):
        return False
    p = s.agenda[0].player
    return (a.card in s.hand[p] and s.cards.enc(a.card).kind is Kind.TARGET
            and s.life[p] < s.board.life_markers)


def _bar_colour(s: S, a: A, t: S) -> bool | None:
    """The barrier a player may place or move is the one of the played card's bar colour (a
    grey bar: any; the player aid's Eyes and Whisper of Night aside)."""
    if _head(t) != "barrier" or _head(s) == "barrier" or t.played is None:
        return None
    card = t.cards.act(t.played)
    if card.bar == "grey" or (t.use_special and card.special == "eyes"):
        return None
    return tuple(t.agenda[0].colours) == (card.bar,) or set(t.agenda[0].colours) == {card.bar}


def _payment_first(s: S, a: A, t: S) -> bool | None:
    """Paying a move includes the life markers owed for steps beyond the card's number; the
    card's other functions (the battle) come after that payment. A target found on the move is
    not a function of the card: its order against the payment stays open."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay"):
        return None
    p = s.active
    owed = max(0, s.steps - s.cards.act(a.card).move)
    if owed == 0:
        return None
    card = s.board_cards[s.revealed] if s.revealed is not None else None
    if card is not None and s.cards.enc(card).kind is Kind.TARGET:
        # a target is taken when revealed, not by a function of the card: whether it counts
        # before the payment's markers the text leaves open (dracula.last-target-last-marker)
        return None
    if _over(t):
        return owed < s.life[p] or t.winner != p
    if s.revealed is None or t.revealed is not None:
        return None  # no card was resolved in this step: nothing came after the payment
    return s.life[p] - t.life[p] >= min(owed, s.life[p])

C = Contract
CONTRACTS: tuple[Contract, ...] = (
    C("dracula-en:meet.reveal-hands", requires=_mover_decides,
      what="the player who moved decides whether hands are shown"),
    C("dracula-en:look.opponent-card", requires=_revealed_to_both,
      what="an opposing card looked at is revealed to both players"),
    C("dracula-en:meet.reveal-hands", requires=_hands_shown,
      what="shown hands are shown to each other"),
    C("dracula-en:look.own-card", requires=_may_move_on,
      what="after laying a card for the own card taken, the move goes on"),
    C("dracula-en:look.own-card", requires=_own_card_hidden,
      what="an own card taken into the hand is not shown to the opponent"),
    C("dracula-en:early-end.give-target", permits=_gift_any_time,
      what="a target may be given away at any time below four life markers"),
    C("dracula-en:cards.bar", requires=_bar_colour,
      what="the barrier placed or moved is the card's bar colour"),
    C("dracula-en:pay.then-functions", requires=_payment_first,
      what="the life markers for extra steps are paid before the card's other functions",
      # the order is seen by the markers lost when the card resolves: a wrong amount breaks
      # this contract too, and is dracula-en:pay.overpay's fault first (blame)
      observed_through=("dracula-en:pay.overpay",)),
)
"""The contracts the mutant search showed missing (added to dracula-en's set)."""

__all__ = ["CONTRACTS"]
