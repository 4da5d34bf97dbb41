"""Human-writable action notation (used by scenarios), one action per string.

Grammar (locations ``a1``..``d3``, ``harbour``, ``carriage-station``; cards by id):

``choose CARD [CARD ...]`` (expands to one action per card) | ``move LOC [LOC ...]`` (one step
per location) | ``look`` | ``stop`` | ``reveal`` | ``no-reveal`` | ``place CARD`` |
``play CARD [special]`` | ``take CARD`` | ``recall CARD`` | ``turn LOC`` | ``fly LOC`` |
``depths LOC`` | ``roar dracula|van-helsing`` | ``barrier COLOUR LOC-LOC`` | ``no-barrier`` |
``give CARD`` | ``accept`` | ``chance ITEM``.
"""

from __future__ import annotations

from collections.abc import Callable

from .data import SIDE_BY_SLUG, Board
from .engine import (
    Accept,
    Action,
    ChanceOutcome,
    ChooseCard,
    Depths,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlaceBarrier,
    PlayCard,
    Recall,
    Roar,
    SkipBarrier,
    Stop,
    TakeBack,
    TurnCard,
)


def parse_actions(board: Board, text: str) -> list[Action]:
    """Parse one notation string into its action(s).

    Raises:
        ValueError: with a one-line explanation if the string is not valid notation.
    """
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0].lower(), words[1:]

    def one() -> str:
        if len(args) != 1:
            raise ValueError(f"'{verb}' takes exactly one argument")
        return args[0]

    def none() -> None:
        if args:
            raise ValueError(f"'{verb}' takes no argument")

    if verb == "choose":
        if not args:
            raise ValueError("'choose' needs at least one card")
        return [ChooseCard(c) for c in args]
    if verb == "move":
        if not args:
            raise ValueError("'move' needs at least one location")
        return [Move(board.parse(a)) for a in args]
    simple: dict[str, Action] = {"look": Look(), "stop": Stop(), "reveal": Meet(True),
                                 "no-reveal": Meet(False), "no-barrier": SkipBarrier(),
                                 "accept": Accept()}
    if verb in simple:
        none()
        return [simple[verb]]
    if verb == "play":
        if len(args) == 1:
            return [PlayCard(args[0], False)]
        if len(args) == 2 and args[1] == "special":
            return [PlayCard(args[0], True)]
        raise ValueError("'play' takes a card and optionally the word 'special'")
    if verb == "barrier":
        if len(args) != 2:
            raise ValueError("'barrier' takes a colour and a border like a1-b1")
        return [PlaceBarrier(args[0].lower(), board.parse_edge(args[1]))]
    if verb == "roar":
        who = one().lower()
        if who not in SIDE_BY_SLUG:
            raise ValueError("'roar' takes dracula or van-helsing")
        return [Roar(SIDE_BY_SLUG[who])]
    card_verbs: dict[str, Callable[[str], Action]] = {
        "place": Place, "take": TakeBack, "recall": Recall, "give": GiveTarget,
        "chance": ChanceOutcome}
    if verb in card_verbs:
        return [card_verbs[verb](one())]
    loc_verbs: dict[str, Callable[[int], Action]] = {"turn": TurnCard, "fly": Fly,
                                                     "depths": Depths}
    if verb in loc_verbs:
        return [loc_verbs[verb](board.parse(one()))]
    raise ValueError(f"unknown action word {verb!r}")
