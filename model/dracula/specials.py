"""The special actions of the action cards (15 in the shipped card data): those without a
choice run at once, the others offer a choice to the side that played the card.

Clauses: dracula-en:empty.special-timing, dracula-en:special.composure,
dracula-en:special.resistance, dracula-en:special.wings-of-night,
dracula-en:special.depths-of-night, dracula-en:special.rebellion, dracula-en:special.perception,
dracula-en:special.deception, dracula-en:special.reinforcement, dracula-en:special.vigilance,
dracula-en:special.breath-of-night, dracula-en:special.whisper-of-night,
dracula-en:special.inspiration, dracula-en:special.dark-of-night; Pulse, Roar and Eyes from the
player aid.
"""

from __future__ import annotations

from .actions import Action, Depths, Fly, Recall, Roar, TakeBack, TurnCard
from .data import Kind, Side
from .ending import _check_captures, _win, hand_proves
from .rules import deception_loss
from .state import (
    State,
    Step,
    _add,
    _know,
    _log,
    _name,
    _pair,
    _pop,
    _private,
    _push,
    _push_front,
    _put,
    _remove,
    _special,
    _with,
)


def _bonus(s: State, card: str) -> int:
    """Breath of Night: +1 to vampires Van Helsing meets in the turn after it was played
    (dracula-en:special.breath-of-night)."""
    c = s.cards.enc(card)
    if s.active == 1 and c.owner is Side.DRACULA and s.breath_turn == s.turn:
        return 1
    return 0


def _special_options(s: State) -> list[Action]:
    sp = _special(s)
    side = s.active
    if sp == "composure":
        mine = s.cards.act
        return [TakeBack(c) for c in sorted((*s.aside[side], *s.adiscard[side]))
                if mine(c).special != "composure"]
    if sp == "resistance":
        return [TurnCard(loc) for loc in range(s.board.size)]
    if sp == "wings-of-night":
        return [Fly(loc) for loc in range(s.board.size)
                if loc != s.pos[0] and loc != s.turned]
    if sp == "pulse" or (sp == "reinforcement" and s.rules.reinforcement == "move-and-hunter"):
        return [Recall(c) for c in s.enc_discard[side]]
    if sp == "depths-of-night":
        if s.rules.depths == "known-own-only":
            return [Depths(loc) for loc in range(s.board.size)
                    if s.board_cards[loc] is not None and s.known[0][loc] == s.board_cards[loc]
                    and s.cards.enc(s.board_cards[loc] or "").owner is Side.DRACULA]
        return [Depths(loc) for loc in range(s.board.size) if s.board_cards[loc] is not None]
    if sp == "roar":
        figs = [Roar(Side.VAN_HELSING)]
        if s.turned != s.board.harbour:
            figs.insert(0, Roar(Side.DRACULA))
        return list(figs)
    return []


def _auto_special(s: State) -> State:
    """Specials without a choice, or skip the special step (dracula-en:empty.special-timing,
    dracula-en:special.rebellion, dracula-en:special.perception, dracula-en:special.deception,
    dracula-en:special.reinforcement, dracula-en:special.vigilance,
    dracula-en:special.breath-of-night, dracula-en:special.whisper-of-night)."""
    sp = _special(s)
    if s.played is not None and s.cards.act(s.played).special is not None and not s.use_special:
        s = _log(s, f"{_name(s.active)} does not use the special action")
    if sp in (None, "inspiration", "dark-of-night", "eyes", "rebellion"):
        return _pop(s)
    if sp == "perception":
        d = ", ".join(s.hand[0]) or "-"
        s = _log(s, f"Perception: Van Helsing looks at Dracula's hand: {d}",
                 "Perception: Van Helsing looks at Dracula's hand", f"Perception: Dracula's hand: {d}",
                 "Perception: Van Helsing looks at Dracula's hand")
        if hand_proves(s, 1):
            return _win(s, 1, "all remaining coffins seen in Dracula's hand "
                              "(dracula-en:special.perception, dracula-en:end.hand-proof)")
        return _pop(s)
    if sp == "deception":
        return _push(s, Step("deception-draw", 1))
    if sp == "vigilance":
        return _pop(_log(_with(s, vigilance=True), "Vigilance: Dracula's next special action "
                                                     "is blocked"))
    if sp == "breath-of-night":
        return _pop(_log(_with(s, breath_turn=s.turn + 1),
                         "Breath of Night: vampires are 1 stronger in Van Helsing's next turn"))
    if sp == "whisper-of-night":
        return _pop(_log(_with(s, whisper_turn=s.turn + 1),
                         "Whisper of Night: Van Helsing may not place or move a barrier in his "
                         "next turn"))
    if sp == "reinforcement":
        cs = s.board.carriage_station
        s = _with(s, pos=_pair(s.pos, 1, cs))
        s = _log(s, f"Reinforcement: Van Helsing returns to {s.board.label(cs)}")
        if s.rules.reinforcement == "move-and-hunter" and s.enc_discard[1]:
            return _push(s, Step("special-choice", 1))
        return _pop(s)
    if _special_options(s):
        return _push(s, Step("special-choice", s.active))
    return _pop(_log(s, f"{s.cards.act(s.played or '').name}: nothing to do"))


def _do_special(s: State, a: Action) -> State:
    """Specials with a choice (dracula-en:special.composure, dracula-en:special.resistance,
    dracula-en:special.wings-of-night, dracula-en:special.depths-of-night; Pulse and Roar from
    the player aid)."""
    side = s.active
    if isinstance(a, TakeBack):
        aside = list(s.aside[side])
        if a.card in aside:
            s = _with(s, aside=_remove(s.aside, side, a.card))
        else:
            s = _with(s, adiscard=_remove(s.adiscard, side, a.card))
        s = _with(s, current=_add(s.current, side, a.card))
        return _log(s, f"Composure: Van Helsing takes {s.cards.act(a.card).name} back into his "
                       "current cards")
    if isinstance(a, Recall):
        s = _with(s, enc_discard=_remove(s.enc_discard, side, a.card),
                  hand=_add(s.hand, side, a.card))
        return _log(s, f"{_name(side)} takes {a.card} back from the discard pile into the hand")
    if isinstance(a, TurnCard):
        s = _with(s, turned=a.loc)
        return _log(s, f"Resistance: Van Helsing turns the card at {s.board.label(a.loc)}; "
                       "Dracula may not go there")
    if isinstance(a, Fly):
        s = _with(s, pos=_pair(s.pos, 0, a.loc))
        return _log(s, f"Wings of Night: Dracula flies to {s.board.label(a.loc)} without "
                       "looking there")
    if isinstance(a, Roar):
        s = _with(s, pos=_pair(s.pos, int(a.figure), s.board.harbour))
        return _log(s, f"Roar: {a.figure.label}'s figure is put into the harbour")
    if isinstance(a, Depths):
        card = s.board_cards[a.loc]
        assert card is not None
        where = s.board.label(a.loc)
        if s.cards.enc(card).owner is Side.DRACULA:
            s = _with(s, hand=_add(s.hand, 0, card), board_cards=_put(s, a.loc, None))
            s = _private(s, 0, f"Depths of Night: Dracula takes his {card} from {where}",
                         f"Depths of Night: Dracula takes a card from {where}")
            return _push_front(s, Step("depths-place", 0, a.loc))
        s = _with(s, known=_know(s, 0, a.loc, card))
        return _private(s, 0, f"Depths of Night: Dracula looks at {where}: {card}, not his; "
                              "put back", f"Depths of Night: Dracula looks at the card at {where}")
    raise AssertionError(f"unexpected special action {a}")


def _deception(s: State, card: str) -> State:
    """dracula-en:special.deception (with dracula-en:special.breath-of-night)."""
    s = _pop(s)
    ec = s.cards.enc(card)
    if ec.kind is Kind.TARGET:
        s = _with(s, hand=_remove(s.hand, 0, card), captured=_add(s.captured, 1, card))
        s = _log(s, f"Deception: Van Helsing draws {card} from Dracula's hand and keeps it")
        return _check_captures(s, 1)
    if ec.kind is Kind.POWER:
        s = _log(s, f"Deception: Van Helsing draws the {card}; it goes back, he loses a life "
                    "marker")
        return _push_front(s, Step("loss", 1, 1))
    bonus = _bonus(s, card)
    n = deception_loss(ec.strength, bonus)
    s = _log(s, f"Deception: Van Helsing draws {card} (strength {ec.strength + bonus}); it goes "
                f"back" + ("; he loses a life marker" if n else "; no effect"))
    return _push_front(s, Step("loss", 1, n)) if n else s
