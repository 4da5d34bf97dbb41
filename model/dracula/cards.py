"""Action cards: paying the move with one card (and the life markers owed for steps beyond its
move number) and the cycle of current, set-aside and played cards.

Clauses: dracula-en:move.pay, dracula-en:pay.overpay, dracula-en:pay.underuse,
dracula-en:pay.one-card, dracula-en:cards.discard, dracula-en:pay.then-functions,
dracula-en:cards.play-after-move, dracula-en:cards.cycle, dracula-en:setup.action-cards,
dracula-en:play.alternate, dracula-en:special.rebellion, dracula-en:special.vigilance.
"""

from __future__ import annotations

from .actions import Action, play_card
from .rules import overpay
from .state import (
    State,
    Step,
    _add,
    _log,
    _name,
    _pop,
    _private,
    _push,
    _push_front,
    _remove,
    _set,
    _special,
    _with,
)


def _draw_action(s: State, side: int, item: str) -> State:
    """Chance: ``side`` draws the action card ``item`` (dracula-en:setup.action-cards,
    dracula-en:cards.cycle)."""
    s = _with(s, adiscard=_remove(s.adiscard, side, item), current=_add(s.current, side, item))
    s = _private(s, side, f"{_name(side)} draws action card {s.cards.act(item).name}",
                 f"{_name(side)} draws an action card")
    return _pop(s)


def _set_aside(s: State, side: int) -> State:
    """The action cards not drawn are set aside (dracula-en:cards.cycle)."""
    return _pop(_with(s, aside=_set(s.aside, side, s.adiscard[side]),
                      adiscard=_set(s.adiscard, side, ())))


def _pay_options(s: State, side: int) -> list[Action]:
    """One current action card, with or without its special action; Vigilance blocks
    Dracula's (dracula-en:pay.one-card, dracula-en:special.vigilance)."""
    out: list[Action] = []
    blocked = side == 0 and s.vigilance
    for c in s.current[side]:
        out.append(play_card(c, False))
        if s.cards.act(c).special is not None and not blocked:
            out.append(play_card(c, True))
    return out


def _play(s: State, card: str, special: bool) -> State:
    """Pay the move (dracula-en:move.pay, dracula-en:pay.overpay, dracula-en:cards.discard,
    dracula-en:pay.then-functions, dracula-en:cards.play-after-move)."""
    side = s.active
    c = s.cards.act(card)
    s = _with(s, current=_remove(s.current, side, card), adiscard=_add(s.adiscard, side, card),
              played=card, use_special=special)
    owed = overpay(s.steps, c.move)
    strength = str(c.strength) if c.strength else "none"
    s = _log(s, f"{_name(side)} plays {c.name} (move {c.move}, strength {strength}, bar {c.bar})"
                + (" using its special action" if special else "")
                + (f"; {owed} step(s) over its move number" if owed else ""))
    rest = [Step("resolve", side), Step("special", side), Step("barrier-choice", side),
            Step("end-turn", side)]
    if owed:
        rest.insert(0, Step("loss", side, owed))
    return _push(s, *rest)


def _end_turn(s: State) -> State:
    """Action-card cycle (dracula-en:cards.cycle), Vigilance bookkeeping and the next player
    (dracula-en:play.alternate, dracula-en:special.rebellion)."""
    side = s.active
    steps: list[Step] = []
    if not s.current[side]:
        if s.aside[side]:
            s = _with(s, current=_set(s.current, side, s.aside[side]),
                      aside=_set(s.aside, side, ()))
            s = _log(s, f"{_name(side)} takes up the five set-aside action cards")
        else:
            s = _log(s, f"{_name(side)} shuffles all action cards and draws five")
            steps = [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    if side == 0 and s.vigilance:
        used = s.played is not None and s.cards.act(s.played).special is not None
        if s.rules.vigilance_scope == "next-turn" or used:
            s = _with(s, vigilance=False)
    nxt = 1 - side
    if side == 1 and _special(s) == "rebellion" and (
            s.rules.rebellion_extra_turn == "always" or s.battle_won):
        nxt = 1
        s = _log(s, "Rebellion: Dracula misses his turn; Van Helsing moves again")
    return _push_front(s, *steps, Step("start-turn", nxt))
