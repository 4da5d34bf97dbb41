"""Contracts of dracula-en that discovery showed missing (``ruleproof ambiguities --discover``,
properties/dracula/discovery.py): each states what its clause's text does say and no contract
said, so that a perturbed successor the text rules out is no longer taken for an open
question. Part of dracula-en's contract set (:mod:`.dracula_en` adds :data:`SHARPENED`).

* dracula-en:pay.move-ends -- a move ends only when an opposing card is revealed or the player
  declares it finished: a plain step does not end it.
* dracula-en:look.opponent-card -- an opposing card looked at is revealed: both sides see it.
* dracula-en:look.own-card -- an own card is taken into the hand without showing it: the
  opponent learns nothing of it.
* dracula-en:early-end.last-marker -- life markers are lost in a battle, to a power symbol or
  for steps beyond the move number, and only by the side whose move it is; no more than those
  call for.
* dracula-en:early-end.give-target -- life markers come back only by giving a target away,
  and a gift does bring the giver one or two back (up to the four a side has), the receiver
  none and loses none.
* dracula-en:special.rebellion -- a side moves twice in a row only by Rebellion's special,
  used (not by the card paid with its special declined); having used it and beaten a vampire,
  Van Helsing does move again (both readings of rebellion-extra-turn agree).
* dracula-en:empty.battle with special.breath-of-night -- a draw costs no marker: a battle is
  lost only below the vampire's strength (one more with Breath of Night).
* dracula-en:pay.one-card -- the card paid with is one of the side's current action cards.
* dracula-en:empty.special-timing -- a player decides whether to use the special of the card
  paid with: either choice is allowed, and the choice made is the one that takes effect.
* dracula-en:setup.secret-choice -- each side chooses its own encounter cards, each once.
* dracula-en:look.own-card -- the card laid is one of the side's own cards.
* dracula-en:pay.move-ends -- the player may declare the move finished (after a step).
* dracula-en:move.look-choice -- at each location the player decides once whether to look.
* dracula-en:early-end.give-target -- a target given away is an own target from the hand;
  the loss may be accepted instead.
* dracula-en:pay.barrier-first -- a barrier once placed can only be moved: to another border.
* dracula-en:barriers.side-by-side -- two barriers meeting at a corner of one location (an L)
  lie side by side under every reading of the clause; whether barriers on opposite borders of
  one location do is the open question (register entry barrier-side-by-side, the rule option
  barrier_adjacency), so the contract states only the corner.
* dracula-en:special.composure, special.wings-of-night, special.resistance -- what each of
  those specials is described as doing (a played or set-aside card taken back; a move to
  another location; a card turned).
* dracula-en:end.proof, target.all-five, early-end.last-marker -- a game is won only as
  those clauses say, and a hand proof by Perception wins.
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dracula.data import Kind, Side
from ruleproof.model.dracula.engine import (
    Accept,
    ChooseCard,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlaceBarrier,
    PlayCard,
    Stop,
    TakeBack,
    TurnCard,
)
from ruleproof.properties.contracts.core import Contract


def _head(s: Any) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _over(t: Any) -> bool:
    return t.winner is not None


def _step_goes_on(s: Any, a: Any, t: Any) -> bool | None:
    """After a step the move goes on (or a meeting is settled first), in the same turn.

    A step onto an empty location is followed by laying an own card there first
    (dracula-en:empty.fill: the rulebook's section on running out of encounter cards says
    the arriving player fills it, and nothing there ends the move), so ``place`` with the
    move still on the agenda after it also goes on. Found by exploring dr-1x2-deception,
    where Deception empties Dracula's hand and a location is left empty."""
    if not (isinstance(a, Move) and _head(s) == "move") or _over(t) or t.turn != s.turn:
        return None
    if s.board_cards[a.to] is None and _head(t) == "place":
        return any(x.kind == "move" for x in t.agenda[1:])
    return bool(_head(t) in ("move", "meet"))


def _revealed_to_both(s: Any, a: Any, t: Any) -> bool | None:
    if not (isinstance(a, Look) and _head(s) == "move"):
        return None
    p = s.active
    loc = s.pos[p]
    card = s.board_cards[loc]
    if card is None or int(s.cards.enc(card).owner) == p:
        return None
    return bool(t.known[0][loc] == card and t.known[1][loc] == card)


def _own_card_unseen(s: Any, a: Any, t: Any) -> bool | None:
    if not (isinstance(a, Look) and _head(s) == "move"):
        return None
    p = s.active
    card = s.board_cards[s.pos[p]]
    if card is None or int(s.cards.enc(card).owner) != p:
        return None
    return bool(t.known[1 - p] == s.known[1 - p])


def _owed(s: Any, a: Any) -> int:
    return max(0, int(s.steps) - int(s.cards.act(a.card).move))


def _resolution_cost(s: Any, a: Any) -> int:
    """The most a payment's resolution of the revealed card can cost: one marker for a
    battle not won or a power symbol, none for a target or a won battle (Inspiration ignores
    the card)."""
    if s.revealed is None or (a.special and s.cards.act(a.card).special == "inspiration"):
        return 0
    card = s.board_cards[s.revealed]
    if card is None:
        return 0
    c = s.cards.enc(card)
    if c.kind is Kind.TARGET:
        return 0
    if c.kind is Kind.POWER:
        return 1
    mine = s.cards.act(a.card).strength or 0
    breath = s.active == 1 and s.breath_turn == s.turn and c.owner is Side.DRACULA
    # a draw costs nothing (dracula-en:empty.battle); Breath of Night adds one to the vampire
    # (dracula-en:special.breath-of-night), so a battle can be lost only below that strength
    return 1 if mine < c.strength + (1 if breath else 0) else 0


def _life_lost_only_as_said(s: Any, a: Any, t: Any) -> bool | None:
    """No side loses more life markers in a decision than a battle, a power symbol and the
    steps beyond the move number call for; the side whose decision it is not loses none
    (a target given away at the last marker settles the pending loss: not bounded here)."""
    if _over(t) or not s.agenda or isinstance(a, GiveTarget) or _head(s) == "rescue":
        return None
    decider = s.agenda[0].player
    for p in (0, 1):
        lost = s.life[p] - t.life[p]
        if lost <= 0:
            continue
        if p != decider:
            return False
        if isinstance(a, PlayCard) and _head(s) == "pay":
            if lost > _owed(s, a) + _resolution_cost(s, a):
                return False
        elif isinstance(a, Meet | Move | Look):
            return False
    return True


def _pending(t: Any, p: int) -> int:
    return sum(int(x.n) for x in t.agenda if x.kind in ("loss", "rescue") and x.player == p)


def _overpay_paid(s: Any, a: Any, t: Any) -> bool | None:
    """The markers owed for steps beyond the move number are all paid (or pending), not a
    part of them (dracula-en:pay.overpay)."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay") or _over(t):
        return None
    p = s.agenda[0].player
    owed = min(_owed(s, a), s.life[p])
    return bool(s.life[p] - t.life[p] + _pending(t, p) >= owed)


def _marker_lost(s: Any, a: Any, t: Any) -> bool:
    """A side lost a life marker (situation of the loss contract, for clause coverage)."""
    return any(t.life[p] < s.life[p] for p in (0, 1))


def _gift_or_marker_back(s: Any, a: Any, t: Any) -> bool:
    """A target is given away or a side got a life marker back (situation of the gift
    contract, for clause coverage)."""
    return isinstance(a, GiveTarget) or any(t.life[p] > s.life[p] for p in (0, 1))


def _life_back_only_by_gift(s: Any, a: Any, t: Any) -> bool | None:
    """Life markers come back only by giving a target away (two, up to the four a side has)."""
    if _over(t):
        return None
    return isinstance(a, GiveTarget) or all(t.life[p] <= s.life[p] for p in (0, 1))


def _gift_gives_back(s: Any, a: Any, t: Any) -> bool | None:
    """A target given away (not to settle the last marker's loss) brings the giver markers
    back: at least one while it has fewer than it owns, two at most, never more than it owns;
    the receiver's markers do not change."""
    if not isinstance(a, GiveTarget) or _over(t) or _head(s) == "rescue" or not s.agenda:
        return None
    p = s.agenda[0].player
    cap = s.board.life_markers
    if t.life[1 - p] != s.life[1 - p]:
        return False
    if s.life[p] >= cap:
        return bool(t.life[p] == s.life[p])
    return bool(s.life[p] < t.life[p] <= min(cap, s.life[p] + 2))


def _rebellion_used(s: Any, a: Any) -> bool:
    """Rebellion's special is used this turn (by the card paid with, or by this payment)."""
    if isinstance(a, PlayCard):
        return bool(a.special) and s.cards.act(a.card).special == "rebellion"
    return s.played is not None and bool(s.use_special) and \
        s.cards.act(s.played).special == "rebellion"


def _extra_turn_only_by_rebellion(s: Any, a: Any, t: Any) -> bool | None:
    """A side moves twice in a row only by Rebellion's special, used; and when Van Helsing used
    it and beat a vampire, he does move again (every reading of the clause agrees; whether he
    does without a won battle is the register's question, rebellion-extra-turn)."""
    if _over(t) or t.turn != s.turn + 1 or s.turn == 0:
        return None
    again = t.active == s.active
    if again and not _rebellion_used(s, a):
        return False
    if s.active == 1 and _rebellion_used(s, a) and (s.battle_won or t.battle_won):
        return bool(again)
    return True


def _current_only(s: Any, a: Any) -> bool:
    """Only one of the side's current action cards pays for the move."""
    return isinstance(a, PlayCard) and _head(s) == "pay" and \
        a.card not in s.current[s.agenda[0].player]


def _give_forbids(s: Any, a: Any) -> bool:
    """Only a target card from one's own hand is given away."""
    if not (isinstance(a, GiveTarget) and s.agenda):
        return False
    p = s.agenda[0].player
    return a.card not in s.hand[p] or s.cards.enc(a.card).kind is not Kind.TARGET


def _choice_recorded(s: Any, a: Any, t: Any) -> bool | None:
    """The special is used exactly when the player chose to use it."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay") or _over(t) or t.turn != s.turn:
        return None
    return bool(t.use_special == a.special and t.played == a.card)


def _special_permits(s: Any, a: Any) -> bool:
    """Paying with a current card, using its special action or not (a card whose move number
    is too low is still played, at a price: dracula-en:pay.overpay)."""
    return isinstance(a, PlayCard) and _head(s) == "pay" and \
        a.card in s.current[s.agenda[0].player] and \
        (not a.special or s.cards.act(a.card).special is not None)


def _choose_permits(s: Any, a: Any) -> bool:
    return isinstance(a, ChooseCard) and _head(s) == "choose" and \
        a.card in s.hand[s.agenda[0].player]


def _choose_forbids(s: Any, a: Any) -> bool:
    return isinstance(a, ChooseCard) and _head(s) == "choose" and \
        a.card not in s.hand[s.agenda[0].player]


def _place_forbids(s: Any, a: Any) -> bool:
    return isinstance(a, Place) and _head(s) in ("place", "depths-place") and \
        a.card not in s.hand[s.agenda[0].player]


def _stop_permits(s: Any, a: Any) -> bool:
    return isinstance(a, Stop) and _head(s) == "move" and s.steps > 0


def _give_permits(s: Any, a: Any) -> bool:
    """An own target from the hand, given before the last marker is lost (whether it may be
    given when no marker can come back is the register's question)."""
    if not (isinstance(a, GiveTarget) and s.agenda and s.winner is None):
        return False
    p = s.agenda[0].player
    return a.card in s.hand[p] and s.cards.enc(a.card).kind is Kind.TARGET and \
        s.life[p] < s.board.life_markers


def _accept_permits(s: Any, a: Any) -> bool:
    return isinstance(a, Accept) and _head(s) == "rescue"


def _barrier_moves(s: Any, a: Any) -> bool:
    """Moving a barrier means to another border: not onto the one it lies on, nor onto a
    border another barrier holds."""
    from ruleproof.model.dracula.data import COLOURS

    if not (isinstance(a, PlaceBarrier) and _head(s) == "barrier") or a.colour not in COLOURS:
        return False
    return tuple(a.edge) in {e for e in s.barriers if e is not None}


def _barrier_at_a_corner(s: Any, a: Any) -> bool:
    """A barrier placed or moved onto a border that meets another barrier at a corner of one
    location (an L): side by side under every reading of the clause (the rule option
    barrier_adjacency chooses only whether barriers on opposite borders are too)."""
    from ruleproof.model.dracula.data import COLOURS
    from ruleproof.model.dracula.rules import side_by_side

    if not (isinstance(a, PlaceBarrier) and _head(s) == "barrier") or a.colour not in COLOURS:
        return False
    ci = COLOURS.index(a.colour)
    return any(side_by_side(s.board, a.edge, e, "corner")
               for i, e in enumerate(s.barriers) if i != ci and e is not None)


def _look_once(s: Any, a: Any) -> bool:
    """At each location the player decides once whether to look: a card looked at (or laid)
    at this visit is not looked at again before the figure moves on (the state's record of
    that decision is ``can_look``)."""
    return isinstance(a, Look) and _head(s) == "move" and s.steps > 0 and not s.can_look \
        and s.board_cards[s.pos[s.active]] is not None


def _composure_takes(s: Any, a: Any) -> bool:
    """Composure takes a played or set-aside card: not one already among the current ones."""
    if not (isinstance(a, TakeBack) and _head(s) == "special-choice"):
        return False
    p = s.agenda[0].player
    return a.card not in (*s.aside[p], *s.adiscard[p])


def _composure_permits(s: Any, a: Any) -> bool:
    if not (isinstance(a, TakeBack) and _head(s) == "special-choice"):
        return False
    p = s.agenda[0].player
    return a.card in (*s.aside[p], *s.adiscard[p]) and \
        s.cards.act(a.card).special != "composure"


def _fly_permits(s: Any, a: Any) -> bool:
    """Wings of Night moves Dracula to another location (whether it may be the other
    figure's, and whether that makes a meeting, is the register's question)."""
    return isinstance(a, Fly) and _head(s) == "special-choice" and a.loc != s.pos[0] and \
        a.loc != s.pos[1]


def _fly_forbids(s: Any, a: Any) -> bool:
    return isinstance(a, Fly) and _head(s) == "special-choice" and a.loc == s.pos[0]


def _turn_permits(s: Any, a: Any) -> bool:
    """Resistance turns a card on the board (which cards besides one Van Helsing laid is
    the register's question)."""
    return isinstance(a, TurnCard) and _head(s) == "special-choice" and \
        s.board_cards[a.loc] is not None and a.loc not in s.pos


def _remaining(s: Any, finder: int) -> list[str]:
    other = 1 - finder
    return [c.id for c in s.cards.encounter if int(c.owner) == other
            and c.kind is Kind.TARGET and c.id not in s.captured[finder]]


def _won_as_said(s: Any, a: Any, t: Any) -> bool | None:
    """A side wins only with all five opposing targets, when the other loses its last life
    marker, or by a hand proof (every opposing target not yet won is in the opposing hand)
    made by the side whose move it is, or by either side when hands are shown."""
    if s.winner is not None or t.winner is None:
        return None
    w = t.winner
    targets = _remaining(t, w)
    if not targets or t.life[1 - w] <= 0:  # every opposing target won, or the last marker
        return True
    shown = isinstance(a, Meet) and a.reveal  # hands shown at a meeting: either side proves
    return bool(targets) and all(c in t.hand[1 - w] for c in targets) and \
        (shown or w == s.active)


def _perception_proves(s: Any, a: Any, t: Any) -> bool | None:
    """Perception's look at Dracula's hand ends the game when it proves that no coffin is
    left on the board (dracula-en:special.perception, dracula-en:end.hand-proof)."""
    pending = [x for x in s.agenda if x.kind == "special"]
    if not pending or s.played is None or not s.use_special or s.active != 1 or \
            s.cards.act(s.played).special != "perception" or \
            (not _over(t) and any(x.kind == "special" for x in t.agenda)):
        return None
    targets = _remaining(s, 1)
    if not targets or not all(c in s.hand[0] for c in targets):
        return None
    if t.life[1] <= 0 < s.life[1] or len(t.captured[0]) >= 5 > len(s.captured[0]):
        # the card is paid for before it functions (dracula-en:pay.then-functions): a loss
        # that takes Van Helsing's last marker while Perception waits (a rescue answered,
        # the overpayment then taken), or a target handed over in that rescue that is
        # Dracula's fifth (dracula-en:early-end.give-target, dracula-en:target.all-five),
        # ends the game before the look
        return None
    return bool(t.winner == 1)


C = Contract
SHARPENED: tuple[Contract, ...] = (
    C("dracula-en:pay.move-ends", requires=_step_goes_on,
      what="a step does not end the move"),
    C("dracula-en:look.opponent-card", requires=_revealed_to_both,
      what="an opposing card looked at is revealed to both sides"),
    C("dracula-en:look.own-card", requires=_own_card_unseen,
      what="an own card is taken without showing it"),
    C("dracula-en:early-end.last-marker", requires=_life_lost_only_as_said, when=_marker_lost,
      what="markers are lost only by the mover, only as battle, symbol and overpay say"),
    C("dracula-en:early-end.give-target", forbids=_give_forbids,
      requires=_life_back_only_by_gift, when=_gift_or_marker_back,
      what="only an own target is given; markers come back only that way"),
    C("dracula-en:early-end.give-target", requires=_gift_gives_back,
      what="a target given away brings one or two markers back, up to the four a side has"),
    C("dracula-en:special.rebellion", requires=_extra_turn_only_by_rebellion,
      what="a side moves again only by Rebellion used, and does after beating a vampire"),
    C("dracula-en:pay.one-card", forbids=_current_only,
      what="the card paid with is a current action card"),
    C("dracula-en:pay.overpay", requires=_overpay_paid,
      what="every marker owed for the steps over the move number is paid"),
    C("dracula-en:empty.special-timing", permits=_special_permits, requires=_choice_recorded,
      what="the special is used or not, as the player chooses"),
    C("dracula-en:setup.secret-choice", forbids=_choose_forbids, permits=_choose_permits,
      what="each side chooses among its own cards, each once"),
    C("dracula-en:look.own-card", forbids=_place_forbids,
      what="the card laid is an own card from the hand"),
    C("dracula-en:move.look-choice", forbids=_look_once,
      what="one look per location visited"),
    C("dracula-en:pay.move-ends", permits=_stop_permits,
      what="the player may declare the move finished"),
    C("dracula-en:early-end.give-target", permits=_give_permits,
      what="an own target is given before the last marker is lost"),
    C("dracula-en:early-end.give-target", permits=_accept_permits,
      what="or the loss is accepted"),
    C("dracula-en:pay.barrier-first", forbids=_barrier_moves,
      what="a barrier is placed or moved onto a free border"),
    C("dracula-en:barriers.side-by-side", forbids=_barrier_at_a_corner,
      what="no barrier meets another at a corner of one location (every reading agrees)"),
    C("dracula-en:special.composure", forbids=_composure_takes, permits=_composure_permits,
      what="a played or set-aside card, not Composure, is taken back"),
    C("dracula-en:special.wings-of-night", forbids=_fly_forbids, permits=_fly_permits,
      what="Dracula moves to another location"),
    C("dracula-en:special.resistance", permits=_turn_permits,
      what="a card on the board is turned"),
    C("dracula-en:end.proof", requires=_won_as_said,
      what="a side wins only as the ending clauses say"),
    C("dracula-en:special.perception", requires=_perception_proves,
      what="Perception's proof ends the game"),
)
"""The contracts discovery showed missing (see the module docstring)."""
