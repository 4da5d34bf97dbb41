"""Contracts of the Dracula rulebook's "Detailed Example of a Turn", written from the example
alone: the part ``dracula-en:example`` (clause ids ``dracula-en:example.*``), compared with the
rest of the rulebook by discovery's ``chapters`` search. What a step of the example shows to be
allowed is a permission, what it shows to happen a requirement.

The example walks Van Helsing over a location without looking and on to the next one, where the
chapter on looking says that a player who does not look "ends his move there"; the two texts
meet here (register entry no-look-ends-move).

Only the state vocabulary of dracula-en's module is shared (small helpers, no contract).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dracula import State
from ruleproof.model.dracula.data import Kind
from ruleproof.model.dracula.engine import Look, Move, Place, PlayCard
from ruleproof.properties.contracts.core import Contract, ContractSet
from ruleproof.properties.dracula.contracts.dracula_en import head, over, side

S = State
A = Any


def _moves_on_permits(s: S, a: A) -> bool:
    """He moves to the next location, does not look at the card there, and moves on: a step
    from a location reached this turn without looking (a neighbour, no barrier between). The
    example is Van Helsing's ordinary move (no card turned by a special in his way): it
    shows nothing about Dracula's move or a special's effect."""
    if not (isinstance(a, Move) and head(s) == "move" and s.steps > 0):
        return False
    if side(s) != 1 or s.turned is not None:
        return False
    here = s.pos[side(s)]
    edge = (min(here, a.to), max(here, a.to))
    return a.to in s.board.neighbours(here) and edge not in {e for e in s.barriers
                                                            if e is not None}


def _own_card_permits(s: S, a: A) -> bool:
    """He takes his own card into his hand and lays another of his cards there -- or could
    have put the same one back."""
    return isinstance(a, Place) and head(s) == "place" and a.card in s.hand[s.agenda[0].player]


def _still_his_turn(s: S, a: A, t: S) -> bool | None:
    """Once his own card is replaced "it is still his turn": he may move on."""
    if not (isinstance(a, Place) and head(s) == "place") or over(t):
        return None
    if s.revealed is not None or s.played is not None:
        return None  # a card laid after a won fight, a capture or a paid move: it is over
    return head(t) == "move" and t.active == s.active


def _enemy_ends_move(s: S, a: A, t: S) -> bool | None:
    """He finds a vampire: an enemy card, so his move ends there."""
    if not (isinstance(a, Look) and head(s) == "move"):
        return None
    card = s.board_cards[s.pos[side(s)]]
    if card is None or int(s.cards.enc(card).owner) == side(s):
        return None
    return head(t) != "move"


def _pays(s: S, a: A, card: str) -> bool:
    return isinstance(a, PlayCard) and head(s) == "pay" and a.card == card


_VALUES = {"resistance": (5, 2), "strength": (3, 4)}


def _card_values(s: S, a: A, t: S) -> bool | None:
    """Resistance: move 5, battle strength 2; Strength: move 3, strength 4; Deception:
    strength 1 and a move number of at least 4 ("his move would be correctly paid for")."""
    if not (isinstance(a, PlayCard) and head(s) == "pay"):
        return None
    c = s.cards.act(a.card)
    if a.card in _VALUES:
        return (c.move, c.strength) == _VALUES[a.card]
    if a.card == "deception":
        return c.strength == 1 and c.move >= 4
    return None


def _choice(s: S, a: A, t: S) -> bool | None:
    """With a vampire of strength 2 after four steps: the card with the higher strength wins
    but costs a life marker per step beyond its move number; a weaker one loses the battle; an
    equal one draws and the vampire stays."""
    if not (isinstance(a, PlayCard) and head(s) == "pay") or s.revealed is None or over(t):
        return None
    if any(x.kind == "resolve" for x in t.agenda):
        return None  # resolved after the rescue offer
    card = s.board_cards[s.revealed]
    if card is None:
        return None
    enemy = s.cards.enc(card)
    if enemy.kind is not Kind.ENEMY or a.special or s.breath_turn == s.turn:
        return None
    mine = s.cards.act(a.card)
    owed = max(0, s.steps - mine.move)
    p = side(s)
    lost = s.life[p] - t.life[p]
    pending = any(x.kind in ("loss", "rescue") and x.player == p for x in t.agenda)
    if mine.strength == enemy.strength:
        return t.board_cards[s.revealed] == card and lost <= owed
    if owed and mine.strength > enemy.strength:
        return lost >= min(owed, s.life[p]) or pending
    return None


def _green_barrier(s: S, a: A, t: S) -> bool | None:
    """After Resistance's special action he moves the green barrier: the card lets him."""
    if not _pays(s, a, "resistance"):
        return None
    return s.cards.act("resistance").bar in ("green", "grey")


def every(rules: Any) -> bool:
    return True


C = Contract
CONTRACTS = ContractSet(
    source="dracula-en",
    part="example",
    contracts=(
        C("dracula-en:example.own-swap", permits=_own_card_permits, requires=_still_his_turn,
          applies=every, what="his own card swapped (or put back), and he moves on"),
        C("dracula-en:example.pass-without-look", permits=_moves_on_permits, applies=every,
          what="a location passed without looking, and on to the next"),
        C("dracula-en:example.enemy-ends-move", requires=_enemy_ends_move, applies=every,
          what="an enemy card found ends the move"),
        C("dracula-en:example.card-values", requires=_card_values, applies=every,
          what="Resistance 5/2, Strength 3/4, Deception strength 1, move at least 4"),
        C("dracula-en:example.choice", requires=_choice, applies=every,
          what="overpaying costs markers, equal strengths draw"),
        C("dracula-en:example.resistance-barrier", requires=_green_barrier, applies=every,
          what="Resistance lets him move the green barrier"),
    ),
    uncovered={},
    config_of=lambda s: s.rules,
)
"""The part ``dracula-en:example``: the worked example of a turn as a contract set of its
own."""
