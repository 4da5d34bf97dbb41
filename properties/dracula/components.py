"""Dracula's components as moves (capability ``"components"``, :data:`COMPONENTS`; the search is
:mod:`ruleproof.properties.discovery.components`).

Per decision, every card or figure a side could move where it could go, where the model's
eligibility is narrower than "any": an action card from the set-aside or the discard pile
paid with, the figure to a location that is not next to it, across a barrier or (Dracula) onto
the card turned by Resistance, Wings of Night to the location Dracula stands on or to the
turned card, a card not in the hand laid on a location (a beaten one from the discard pile, a
won target), and a target handed over for life markers "at any time": by the side that is not
to decide, at a step where the model does not offer it, or with all life markers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ruleproof.model.dracula.data import Kind
from ruleproof.model.dracula.engine import Fly, GiveTarget, Move, PlayCard, State
from ruleproof.properties.discovery.components import Move as ComponentMove
from ruleproof.properties.dracula.moves import GiveTargetBy, PlaceFrom

GIVE = ("Must a target be handed over for life markers only on one's own move or payment, "
        "or 'at any time' as the text says (also in the opponent's turn, at any step, with all "
        "four markers)?")


def _head(s: State) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _targets(s: State, side: int) -> list[str]:
    return [c for c in s.hand[side] if s.cards.enc(c).kind is Kind.TARGET]


def moves(s: State) -> list[ComponentMove]:
    """The component moves of the decision ``s`` asks for (see the module docstring)."""
    head = _head(s)
    if head == "over" or head in ("choose", "deal", "draw-action", "deception-draw"):
        return []
    decider = s.agenda[0].player
    out: list[ComponentMove] = []
    give = ("dracula-en:early-end.give-target",)
    other = 1 - decider
    for card in _targets(s, other)[:1]:
        out.append(ComponentMove(GiveTargetBy(other, card), "a target handed over for life "
                                 "markers by the player who is not to decide", GIVE, give))
    mine = _targets(s, decider)[:1]
    if mine and head not in ("move", "pay", "rescue"):
        out.append(ComponentMove(GiveTarget(mine[0]), "a target handed over for life markers "
                                 "at a step of the turn where the model offers none", GIVE,
                                 give, True))
    if mine and head in ("move", "pay") and s.life[decider] >= s.board.life_markers:
        out.append(ComponentMove(GiveTarget(mine[0]), "a target handed over for life markers "
                                 "with no life marker lost", GIVE, give, True))
    if head == "pay":
        for pile, cards in (("set-aside", s.aside[decider]), ("discard", s.adiscard[decider])):
            for card in cards[:1]:
                out.append(ComponentMove(PlayCard(card, False), f"an action card from the "
                                         f"{pile} pile paid with", "May a move be paid with "
                                         "an action card that is not one of the current five?",
                                         ("dracula-en:cards.cycle", "dracula-en:pay.one-card"),
                                         True))
    elif head == "move":
        here = s.pos[decider]
        near = set(s.board.neighbours(here))
        blocked = {e for e in s.barriers if e is not None}
        far = [x for x in range(s.board.size) if x != here and x not in near]
        if far:
            out.append(ComponentMove(Move(far[0]), "the figure moved to a location that is not "
                                     "next to it", "May a figure jump?",
                                     ("dracula-en:move.orthogonal",), True))
        for x in sorted(near):
            if (min(here, x), max(here, x)) in blocked:
                out.append(ComponentMove(Move(x), "the figure moved across a barrier",
                                         "May a figure cross a barrier?",
                                         ("dracula-en:pay.no-crossing",), True))
                break
        if decider == 0 and s.turned in near:
            out.append(ComponentMove(Move(s.turned), "Dracula moved onto the card turned by "
                                     "Resistance", "May Dracula go to the turned card?",
                                     ("dracula-en:special.resistance",), True))
    elif head in ("place", "depths-place"):
        for pile, cards in (("discard pile", s.enc_discard[decider]),
                            ("won targets", s.captured[decider])):
            for card in cards[:1]:
                out.append(ComponentMove(PlaceFrom(card, pile), f"a card from the {pile} laid "
                                         "on a location", "May a card that is not in the hand "
                                         "be laid on a location?",
                                         ("dracula-en:look.own-card",)))
    elif head == "special-choice" and decider == 0 and any(
            isinstance(a, Fly) for a in _legal(s)):
        out.append(ComponentMove(Fly(s.pos[0]), "Wings of Night to the location Dracula stands "
                                 "on", "May Wings of Night leave Dracula where he is?",
                                 ("dracula-en:special.wings-of-night",), True))
        if s.turned is not None and s.turned != s.pos[0]:
            out.append(ComponentMove(Fly(s.turned), "Wings of Night onto the card turned by "
                                     "Resistance", "May Dracula fly to the turned card?",
                                     ("dracula-en:special.resistance",), True))
    return out


def _legal(s: State) -> tuple[Any, ...]:
    from ruleproof.model.dracula.engine import legal_actions

    return legal_actions(s)


@dataclass(frozen=True)
class _Components:
    """Dracula's capability ``"components"`` (see
    :class:`ruleproof.properties.discovery.components.ComponentSpace`)."""

    def moves(self, state: Any) -> Sequence[ComponentMove]:
        return moves(state) if isinstance(state, State) else ()


COMPONENTS = _Components()
"""The capability ``"components"`` of Dracula's plugin record."""
