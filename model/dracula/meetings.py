"""Meetings and battles: the two figures on one location, and what a revealed opposing card
does (a target is won, a vampire or hunter is fought, a power symbol costs a life marker).

Clauses: dracula-en:meet.reveal-hands, dracula-en:meet.still-look, dracula-en:end.hand-proof,
dracula-en:end.simultaneous, dracula-en:target.capture, dracula-en:enemy.fight,
dracula-en:enemy.win, dracula-en:enemy.lose, dracula-en:enemy.draw, dracula-en:power.lose-life,
dracula-en:power.exception, dracula-en:cards.battle-uses-strength.
"""

from __future__ import annotations

from .data import Kind
from .ending import _check_captures, _win, hand_proves
from .rules import battle
from .specials import _bonus
from .state import State, Step, _add, _know, _log, _name, _push_front, _put, _special, _with


def _meet(s: State, reveal: bool) -> State:
    """dracula-en:meet.reveal-hands, dracula-en:end.hand-proof, dracula-en:end.simultaneous;
    afterwards the mover still decides whether to look (dracula-en:meet.still-look)."""
    side = s.active
    if not reveal:
        return _log(s, f"{_name(side)} meets {_name(1 - side)} and does not ask to see hands")
    d, h = s.hand
    s = _log(s, f"{_name(side)} meets {_name(1 - side)}: hands shown. Dracula: "
                f"{', '.join(d) or '-'}; Van Helsing: {', '.join(h) or '-'}",
             f"hands shown at the meeting; Van Helsing's hand: {', '.join(h) or '-'}",
             f"hands shown at the meeting; Dracula's hand: {', '.join(d) or '-'}",
             f"{_name(side)} meets {_name(1 - side)}: hands shown")
    for finder in (side, 1 - side):
        if hand_proves(s, finder):
            return _win(s, finder, "all remaining targets seen in the opponent's hand "
                                   "(dracula-en:end.hand-proof)")
    return s


def _resolve(s: State) -> State:
    """Deal with the revealed card (dracula-en:target.capture, dracula-en:enemy.fight,
    dracula-en:enemy.win, dracula-en:enemy.lose, dracula-en:enemy.draw,
    dracula-en:power.lose-life, dracula-en:power.exception, dracula-en:power.replace,
    dracula-en:special.inspiration, dracula-en:special.dark-of-night, dracula-en:empty.battle,
    dracula-en:cards.battle-uses-strength)."""
    if s.revealed is None:
        return s
    side = s.active
    loc = s.revealed
    card = s.board_cards[loc]
    assert card is not None
    s = _with(s, revealed=None)
    where = s.board.label(loc)
    sp = _special(s)
    ec = s.cards.enc(card)
    if sp == "inspiration":
        return _log(s, f"Inspiration: {card} at {where} is ignored and turned face down")
    if ec.kind is Kind.TARGET:
        s = _with(s, board_cards=_put(s, loc, None), captured=_add(s.captured, side, card),
                  known=_know(s, side, loc, None))
        s = _with(s, known=_know(s, 1 - side, loc, None))
        s = _log(s, f"{_name(side)} takes target {card} from {where} "
                    f"({len(s.captured[side])} of 5)")
        s = _check_captures(s, side)
        if s.winner is not None:
            return s
        return _push_front(s, Step("place", side, loc))
    if ec.kind is Kind.ENEMY:
        assert s.played is not None
        mine = s.cards.act(s.played).strength
        bonus = _bonus(s, card)
        enemy = ec.strength + bonus
        won, lost = battle(mine, enemy)
        extra = " (+1 Breath of Night)" if bonus else ""
        if won:
            s = _with(s, board_cards=_put(s, loc, None), battle_won=True,
                      enc_discard=_add(s.enc_discard, int(ec.owner), card),
                      known=_know(s, side, loc, None))
            s = _with(s, known=_know(s, 1 - side, loc, None))
            s = _log(s, f"Battle at {where}: strength {mine} beats {card} ({enemy}{extra}); "
                        f"{card} goes to the discard pile")
            return _push_front(s, Step("place", side, loc))
        if lost:
            s = _log(s, f"Battle at {where}: strength {mine} loses to {card} ({enemy}{extra}); "
                        f"the card is turned face down again")
            return _push_front(s, Step("loss", side, 1))
        return _log(s, f"Battle at {where}: strength {mine} draws with {card} ({enemy}{extra}); "
                       f"the card stays face down")
    # power symbol
    if side == 0 and sp == s.rules.crucifix_exception:
        return _log(s, f"{card} at {where}: no life marker lost thanks to "
                       f"{s.cards.act(s.played or '').name} (option crucifix_exception)")
    s = _log(s, f"{card} at {where}: {_name(side)} loses a life marker; the card goes back face "
                "down")
    return _push_front(s, Step("loss", side, 1))
