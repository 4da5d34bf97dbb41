"""How the game ends: the proof (all remaining targets found, on the board or seen in the
opponent's hand) and the early end (the last life marker), with the target gift that buys life
markers back.

Clauses: dracula-en:end.proof, dracula-en:end.hand-proof, dracula-en:end.all-captured,
dracula-en:target.all-five, dracula-en:early-end.last-marker, dracula-en:early-end.give-target,
dracula-en:power.last-marker.
"""

from __future__ import annotations

from .actions import ACCEPT, Action, give_target
from .data import Side
from .rules import life_after_gift
from .state import (
    State,
    Step,
    _add,
    _is_target,
    _log,
    _name,
    _pair,
    _pop,
    _push,
    _remaining_targets,
    _remove,
    _with,
)


def is_terminal(s: State) -> bool:
    """True once a side has won (dracula-en:end.proof, dracula-en:early-end.last-marker)."""
    return s.winner is not None


def winner(s: State) -> Side | None:
    """The winning side, or None while the game runs."""
    return None if s.winner is None else Side(s.winner)


def hand_proves(s: State, finder: int) -> bool:
    """Whether all of the opponent's remaining targets are in the opponent's hand
    (dracula-en:end.hand-proof)."""
    owner = 1 - finder
    hand = set(s.hand[owner])
    return all(c in hand for c in _remaining_targets(s, owner))


def _win(s: State, side: int, reason: str) -> State:
    s = _with(s, winner=side, reason=reason, agenda=())
    return _log(s, f"{_name(side)} wins: {reason}")


def _check_captures(s: State, side: int) -> State:
    """Five targets won ends the game (dracula-en:target.all-five, dracula-en:end.all-captured)."""
    if len(s.captured[side]) >= 5:
        return _win(s, side, "found all five targets (dracula-en:end.all-captured)")
    return s


def _gifts(s: State, side: int) -> list[Action]:
    if s.life[side] >= s.board.life_markers:
        return []
    return [give_target(c) for c in s.hand[side] if _is_target(s, c)]


def _give(s: State, side: int, card: str) -> State:
    """dracula-en:early-end.give-target: the card counts as won by the opponent."""
    other = 1 - side
    life = life_after_gift(s.life[side], s.board.life_markers)
    s = _with(s, hand=_remove(s.hand, side, card), captured=_add(s.captured, other, card),
              life=_pair(s.life, side, life))
    s = _log(s, f"{_name(side)} gives {card} to {_name(other)} and takes back life markers "
                f"(now {life})")
    return _check_captures(s, other)


def _loss(s: State, side: int, n: int) -> State:
    """Lose ``n`` life markers (dracula-en:power.last-marker, dracula-en:early-end.last-marker),
    offering the target gift first when the last marker is at stake
    (dracula-en:early-end.give-target)."""
    life = s.life[side]
    if life - n > 0:
        s = _with(s, life=_pair(s.life, side, life - n))
        return _pop(_log(s, f"{_name(side)} loses {n} life marker(s), {life - n} left"))
    can_give = life < s.board.life_markers and any(_is_target(s, c) for c in s.hand[side])
    if can_give:
        return _push(s, Step("rescue", side, n))
    s = _with(s, life=_pair(s.life, side, 0))
    s = _log(s, f"{_name(side)} loses {n} life marker(s), none left")
    return _win(s, 1 - side, f"{_name(side)} lost the last life marker "
                             "(dracula-en:early-end.last-marker)")


def _accept(s: State, side: int) -> State:
    """The last life marker is given up rather than a target (dracula-en:early-end.last-marker)."""
    s = _log(s, f"{_name(side)} gives up the last life marker")
    return _win(_with(s, life=_pair(s.life, side, 0)), 1 - side,
                f"{_name(side)} lost the last life marker (dracula-en:early-end.last-marker)")


def _rescue_options(s: State, side: int) -> tuple[Action, ...]:
    """Before the last life marker goes: give a target away, or accept the loss
    (dracula-en:early-end.give-target)."""
    return (*[give_target(c) for c in s.hand[side] if _is_target(s, c)], ACCEPT)
