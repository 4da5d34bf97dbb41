"""Contracts of gruft-en, the expansion "Frische Luft für die Gruft" (with its FAQ), written from
each clause's text. They are checked together with du-en's contracts (gruft-en:play.base: the
base rules hold except where the expansion says otherwise).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.gruft.rules import bats_per_player, count_in_play
from ruleproof.model.dawn_under.gruft.state import (
    BatClaim,
    Believe,
    CountTo,
    Doubt,
    GiftTo,
    GruftPhase,
    PlayBat,
)
from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    End,
    GarlicIn,
    OpenGrave,
    Phase,
    PlaceVampire,
    State,
    Stop,
    VampireIn,
)
from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import (
    G,
    _alias,
    _clockwise,
    _first_empty,
    actor,
    left,
    outer,
    over,
    row_emptied,
)
from ruleproof.properties.dawn_under.moves import GiveTo, ReceiveAside, ReceiveAt

S = State
A = Any


def _bat(s: S) -> BatClaim:
    """The bat claim in play (only asked where one is)."""
    b = G(s).bat
    assert b is not None
    return b


def _putter(s: S) -> int:
    p = G(s).putter
    assert p is not None
    return p


def gruft(cfg: Config) -> bool:
    return cfg.options.expansion == "gruft"


def count_on(cfg: Config) -> bool:
    """The expansion with the Count in play: a reduced configuration may leave the Count in
    the box (``count_figures`` 0), and then no contract of the Count speaks."""
    return gruft(cfg) and count_in_play(cfg)


def bats_on(cfg: Config) -> bool:
    """The expansion with bats in play (a reduced configuration may deal none:
    ``bats_per_player`` 0), and then no contract of the bats speaks."""
    return gruft(cfg) and bats_per_player(cfg) > 0


def _own_opening(s: S, a: A) -> bool:
    return isinstance(a, OpenGrave) and s.phase is Phase.OPEN and s.plague is None


def _keep_open_forbids(s: S, a: A) -> bool:
    """A grave opened this turn is not opened again -- outside a plague (in one, the readings
    of gruft.plague-open-graves below)."""
    return isinstance(a, OpenGrave | PlayBat) and s.phase is Phase.OPEN and a.grave in \
        G(s).open_graves and s.plague is None


def _finder_grave_in_plague(s: S, a: A) -> bool:
    """``a`` opens (or sets a bat on), in a rat plague, a grave the finder left open in their
    turn before the rat."""
    return (s.plague is not None and isinstance(a, OpenGrave | PlayBat)
            and s.phase is Phase.OPEN and a.grave in G(s).open_graves)


def _stays_open_forbids(s: S, a: A) -> bool:
    """Reading 'stay-open': it stays open "until that player's turn is over", through the
    plague: not turned as a neighbour."""
    return _finder_grave_in_plague(s, a)


def _closed_permits(s: S, a: A) -> bool:
    """Reading 'closed': the finder's turn gave way to the plague, so the grave was closed and
    may be turned as a neighbour like any other."""
    p = s.plague
    return (_finder_grave_in_plague(s, a) and isinstance(a, OpenGrave) and p is not None
            and a.grave in s.config.board.neighbours[p.origin] and a.grave not in p.opened
            and s.lids[a.grave] is not None and a.grave != G(s).count_grave)


PLAGUE_OPEN = (
    Alternative("stay-open", forbids=_stays_open_forbids,
                option=("gruft_plague_open", "stay-open"),
                what="the finder's open graves stay open through the plague"),
    Alternative("closed", permits=_closed_permits, option=("gruft_plague_open", "closed"),
                what="they closed when the plague began and may be turned in it"),
)


def _keep_open_requires(s: S, a: A, t: S) -> bool | None:
    if not (_own_opening(s, a) or _count_opened(s, a)) or over(t) \
            or t.turn_player != s.turn_player or t.plague \
            or t.phase is GruftPhase.COUNT_PLACE:
        return None
    if s.lids[a.grave] == RAT:
        return None
    return a.grave in G(t).open_graves


def _turn_over_closes(s: S, a: A, t: S) -> bool | None:
    """Once the turn has passed, no grave of it is left open."""
    if over(t) or t.plague is not None:
        return None
    if t.turn_player == s.turn_player and not (t.phase is GruftPhase.COUNT_PLACE
                                               and s.phase is not GruftPhase.COUNT_PLACE):
        return None
    return not G(t).open_graves


def _gets_three(s: S, a: A, t: S) -> bool | None:
    """Three matching placements in one turn win the Count (for a player who has not got it)."""
    if not (isinstance(a, PlaceVampire) and s.phase is Phase.PLACE and s.plague is None) or \
            over(t):
        return None
    p = actor(s)
    if G(s).post == p:
        return None
    if s.placed_this_turn + 1 == 3:
        return G(t).post == p
    if s.placed_this_turn + 1 < 3:
        return G(t).post == G(s).post
    return None


def _count_continue(s: S, a: A, t: S) -> bool | None:
    if over(t) or G(t).post == G(s).post or G(t).post != actor(s) or s.plague is not None:
        return None
    return t.turn_player == s.turn_player and t.phase is Phase.OPEN


def _count_place_forbids(s: S, a: A) -> bool:
    """Once the holder's turn is over, the Count is stood on a grave: nothing else first."""
    return s.phase is GruftPhase.COUNT_PLACE and not isinstance(a, CountTo)


def _count_place_permits(s: S, a: A) -> bool:
    return (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE
            and 0 <= a.grave < len(s.contents) and s.contents[a.grave] is None
            and s.lids[a.grave] is not None)


def _closed_lidded(s: S, g: int) -> bool:
    return 0 <= g < len(s.lids) and s.lids[g] is not None and g not in G(s).open_graves


def _blind_permits(s: S, a: A) -> bool:
    """Reading 'blind': graves are closed, so "any of the empty graves of your choice" is any
    closed grave the holder takes to be empty (it may turn out occupied,
    gruft-en:count.occupied)."""
    return (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE
            and _closed_lidded(s, a.grave))


def _empty_only_forbids(s: S, a: A) -> bool:
    """Reading 'empty-only': only a grave known to be empty (contents are public), while
    there is one."""
    if not (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE):
        return False
    if not 0 <= a.grave < len(s.contents) or s.contents[a.grave] is None:
        return False
    return any(c is None and _closed_lidded(s, g) for g, c in enumerate(s.contents))


COUNT_CHOICE = (
    Alternative("blind", permits=_blind_permits, option=("gruft_count_choice", "blind"),
                what="any closed grave, which may turn out occupied"),
    Alternative("empty-only", forbids=_empty_only_forbids,
                option=("gruft_count_choice", "empty-only"),
                what="only a grave known to be empty"),
)


def _count_place_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE):
        return None
    return G(t).count_grave == a.grave and G(t).post == G(s).post


def _count_place_due(s: S, a: A, t: S) -> bool | None:
    """When the holder's turn is over with the Count on their post, the Count is stood on a
    grave before the next turn starts."""
    if over(t) or G(s).post is None or G(s).count_grave is not None or G(s).post != s.turn_player \
            or s.phase is GruftPhase.COUNT_PLACE or t.plague is not None:
        return None
    if t.turn_player != s.turn_player and t.phase is not GruftPhase.COUNT_PLACE:
        return False
    return None


def _lost_count_stood_now(s: S, a: A, t: S) -> bool | None:
    """Whether a player who got the Count from their right neighbour (it is on their post, not
    on a grave, as the turn passes to them) stands it on a grave now, before their own turn
    (None where the two readings of gruft.lost-count-placement do not part)."""
    g = G(t)
    if over(t) or g.post is None or g.count_grave is not None or t.plague is not None \
            or t.gifts or s.phase is GruftPhase.COUNT_PLACE:
        return None
    if t.phase is GruftPhase.COUNT_PLACE:
        return True if g.next_turn == g.post else None
    if t.turn_player != s.turn_player and t.turn_player == g.post:
        return False
    return None


def _lost_at_once(s: S, a: A, t: S) -> bool | None:
    return _lost_count_stood_now(s, a, t)


def _lost_own_turn(s: S, a: A, t: S) -> bool | None:
    now = _lost_count_stood_now(s, a, t)
    return None if now is None else not now


LOST_PLACE = (
    Alternative("own-turn", requires=_lost_own_turn, option=("gruft_lost_place", "own-turn"),
                what="the new holder plays their own turn first and stands it after"),
    Alternative("at-once", requires=_lost_at_once, option=("gruft_lost_place", "at-once"),
                what="the new holder stands it on a grave at once, before their turn"),
)


def _guard_forbids(s: S, a: A) -> bool:
    g = G(s).count_grave
    if g is None or not isinstance(a, OpenGrave | PlayBat) or a.grave != g:
        return False
    if s.phase is GruftPhase.COUNT_OPEN:
        return False
    # "Other players are not allowed to open it, even during a plague" (whether its holder may
    # open it in a plague is the FAQ's answer, gruft-en:faq.count-plague)
    return actor(s) != G(s).post or isinstance(a, PlayBat)


def _open_start_permits(s: S, a: A) -> bool:
    return s.phase is GruftPhase.COUNT_OPEN and isinstance(a, OpenGrave) and a.grave == G(s).count_grave


def _go_on_permits(s: S, a: A) -> bool:
    """After the Count's grave took a vampire the turn goes on: open another grave or stop."""
    # the Count's grave is closed again once its vampire is in (gruft-en:count.empty); a holder
    # whose Count stands on a grave during their own turn began the turn there
    counted = G(s).post == s.turn_player and G(s).count_grave is not None
    return (isinstance(a, Stop) and s.phase is Phase.OPEN and s.plague is None and (counted or any(
        isinstance(s.contents[g], VampireIn) for g in G(s).open_graves)))


def _count_placed_wait(s: S, a: A, t: S) -> bool | None:
    """Having stood the Count on a grave, the holder waits for their next turn."""
    if not (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE) or over(t):
        return None
    return t.turn_player == G(s).next_turn  # (whose turn that is: entry
    # gruft.lost-count-placement -- after the new holder's own turn, or at once)


def _gift_due(s: S, held: int) -> bool:
    """Whether taking a stake while holding ``held`` brings the gift, by the base rules the
    expansion sits on (gruft-en:play.base): du-en's third stake, du-cs's fourth (holding three)."""
    if s.config.preset == "du-cs":
        return held >= s.config.stakes_for_gift
    return held + 1 == s.config.stakes_for_gift


def _doubt_gift(s: S, a: A, t: S) -> bool | None:
    """A doubter's third stake brings the base game's gift (du-en:ch2.gift holds on)."""
    if not _case(None, True)(s, a, t):
        return None
    d = _doubter(s)
    if not _gift_due(s, s.stakes_held[d]) or s.stakes_path == 0:
        return not t.gifts
    want = sorted(q for q in range(s.config.players) if q != d)
    return sorted(g.giver for g in t.gifts) == want and all(g.receiver == d for g in t.gifts)


def _open_start(s: S, a: A) -> bool:
    """At the start of the holder's turn the Count's grave is opened first."""
    return (s.phase is GruftPhase.COUNT_OPEN and not (isinstance(a, OpenGrave)
                                                and a.grave == G(s).count_grave))


def _open_start_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, OpenGrave) and s.phase is GruftPhase.COUNT_OPEN):
        return None
    g = a.grave
    # the lid is not turned ("its colour does not matter"), so what is under it starts nothing
    return t.known[g] == s.known[g] and t.lids[g] == s.lids[g] and t.plague is None


def _turn_start_count(s: S, a: A, t: S) -> bool | None:
    """A new turn of the Count's holder (Count on a grave) begins with opening that grave."""
    if over(t) or t.turn_player == s.turn_player or t.plague is not None:
        return None
    if G(t).post == t.turn_player and G(t).count_grave is not None and t.phase is not GruftPhase.COUNT_PLACE:
        return t.phase is GruftPhase.COUNT_OPEN
    return None


def _count_opened(s: S, a: A) -> bool:
    return isinstance(a, OpenGrave) and s.phase is GruftPhase.COUNT_OPEN


def _count_empty(s: S, a: A, t: S) -> bool | None:
    if not _count_opened(s, a) or s.contents[a.grave] is not None:
        return None
    return t.pending == a.grave and G(t).putter == G(s).post


def _put_forbids(s: S, a: A) -> bool:
    """A vampire is due in the opened grave: only an outermost vampire goes in, into it."""
    if s.phase is not GruftPhase.PUT:
        return False
    return not (isinstance(a, PlaceVampire) and a.grave == s.pending)


def _by_count(s: S) -> bool:
    """The vampire due in phase PUT goes into the Count's grave (no bat claim is being dealt
    with). Phase PUT serves both the Count (gruft-en:count.empty) and a bat's grave
    (gruft-en:bats.open and the six outcomes): each clause's contract speaks only on its own
    puts, so clause coverage does not count a bat's put as the Count's clause firing."""
    return G(s).bat is None


def _count_put_forbids(s: S, a: A) -> bool:
    return _by_count(s) and _put_forbids(s, a)


def _count_put_permits(s: S, a: A) -> bool:
    return _by_count(s) and _put_permits(s, a)


def _count_put_requires(s: S, a: A, t: S) -> bool | None:
    return _put_requires(s, a, t) if _by_count(s) else None


def _bat_put_forbids(s: S, a: A) -> bool:
    return not _by_count(s) and _put_forbids(s, a)


def _bat_put_permits(s: S, a: A) -> bool:
    return not _by_count(s) and _put_permits(s, a)


def _bat_put_requires(s: S, a: A, t: S) -> bool | None:
    return None if _by_count(s) else _put_requires(s, a, t)


def _open_changed(s: S, a: A, t: S) -> bool:
    """A grave was left open or closed (situation of gruft-en:play.keep-open's frame)."""
    return G(s).open_graves != G(t).open_graves


def _bat_used(s: S, a: A, t: S) -> bool:
    """A bat left a hand or was used up (situation of gruft-en:bats.once)."""
    return G(s).bats != G(t).bats or G(s).bats_out != G(t).bats_out


def _open_frame(s: S, a: A, t: S) -> bool | None:
    """Graves are left open only by being opened in the running turn (by turning a lid, by the
    Count or by a bat), and all of them stay open until the turn is over."""
    if over(t):
        return None
    new = set(G(t).open_graves) - set(G(s).open_graves)
    g = getattr(a, "grave", None) if isinstance(a, OpenGrave) else None
    if isinstance(a, Believe | Doubt) and G(s).bat is not None:
        g = _bat(s).grave
    if new - ({g} if g is not None else set()):
        return False
    gone = set(G(s).open_graves) - set(G(t).open_graves) - _count_closed(s, a)
    if gone and (t.turn_player == s.turn_player and t.phase is not GruftPhase.COUNT_PLACE
                 and t.plague is None and s.plague is None):
        return False
    # a bat is opened only once the claim is settled; plague graves are the plague's
    return not (new and (isinstance(a, PlayBat) or s.plague is not None))


def _count_closed(s: S, a: A) -> set[int]:
    """The Count's grave once its vampire is in: closed at once (gruft-en:count.empty), since
    its lid was never turned over (gruft-en:count.open-start; gruft-en:play.keep-open keeps
    open only graves whose lids were turned)."""
    if isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and G(s).bat is None \
            and s.pending is not None:
        return {s.pending}
    return set()


def _count_grave_open(s: S, a: A, t: S) -> bool | None:
    """gruft-en:count.open-start: the holder opens the Count's grave; it is open while the
    vampire goes in (found by discovery: nothing said so)."""
    if not _count_opened(s, a) or over(t) or t.phase is not GruftPhase.PUT:
        return None
    return a.grave in G(t).open_graves


def _count_grave_closed(s: S, a: A, t: S) -> bool | None:
    """gruft-en:count.empty: the vampire is put in and the grave is closed (found by
    discovery: the engine left it open for the rest of the turn, showing the vampire)."""
    closed = _count_closed(s, a)
    if not closed or over(t):
        return None
    return not closed & set(G(t).open_graves)


def _count_garlic_home(s: S, a: A, t: S) -> bool | None:
    """gruft-en:play.base: the base rules hold where the expansion says nothing; garlic found
    in a grave goes back to its owner (du-en:ch3.garlic-back, du-en:qr.garlic), and the Count's
    rules only spare the opener the stake and the vampires (gruft-en:count.no-penalty), so the
    Count's grave is no exception (found by discovery: nothing said where the garlic goes)."""
    if not _count_opened(s, a):
        return None
    found = s.contents[a.grave]
    if not isinstance(found, GarlicIn):
        return None
    return (t.contents[a.grave] is None
            and t.garlic_hand[found.owner] == s.garlic_hand[found.owner] + 1)


def _put_permits(s: S, a: A) -> bool:
    return (isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and a.grave == s.pending
            and G(s).putter is not None and (len(s.rows[_putter(s)]) > 1 or a.end is End.LEFT))


def _put_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and G(s).putter is not None):
        return None
    row = s.rows[_putter(s)]
    colour = outer(row, a.end)
    rest = [v.colour for v in (row[1:] if a.end is End.LEFT else row[:-1])]
    return colour is not None and t.contents[a.grave] == VampireIn(colour) and \
        [v.colour for v in t.rows[_putter(s)]] == rest


def _next_quarter(s: S, g: int) -> bool:
    b = s.config.board
    src = G(s).count_grave
    if src is None:
        src = s.pending
    if src is None:
        return False
    return b.quarter_of[g] == (b.quarter_of[src] + 1) % len(b.quarters)


def _move_permits(s: S, a: A) -> bool:
    return (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_MOVE
            and 0 <= a.grave < len(s.lids) and _next_quarter(s, a.grave))


def _move_forbids(s: S, a: A) -> bool:
    return (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_MOVE
            and 0 <= a.grave < len(s.lids) and not _next_quarter(s, a.grave))


def _move_due(s: S, a: A, t: S) -> bool | None:
    """After the vampire went into the Count's grave the Count is moved on."""
    if not (isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and G(s).bat is None) or over(t):
        return None
    return t.phase is GruftPhase.COUNT_MOVE


def _empty_continue(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_MOVE):
        return None
    return t.turn_player == s.turn_player and t.phase is Phase.OPEN and G(t).count_grave == a.grave


def _count_occupied(s: S, a: A, t: S) -> bool | None:
    if not _count_opened(s, a) or not isinstance(s.contents[a.grave], VampireIn):
        return None
    return G(t).post == left(s, G(s).post or 0) and G(t).count_grave is None


def _garlic_under_count(s: S, a: A) -> bool:
    return _count_opened(s, a) and isinstance(s.contents[a.grave], GarlicIn)


def _garlic_occupied(s: S, a: A, t: S) -> bool | None:
    """Reading 'occupied': a grave with garlic is not empty: Count and post go left."""
    if not _garlic_under_count(s, a):
        return None
    return G(t).post == left(s, G(s).post or 0) and G(t).count_grave is None


def _garlic_empty(s: S, a: A, t: S) -> bool | None:
    """Reading 'empty': there is no vampire in it, so the holder puts one in."""
    if not _garlic_under_count(s, a):
        return None
    return t.pending == a.grave and G(t).putter == G(s).post


def _no_penalty(s: S, a: A, t: S) -> bool | None:
    if not _count_opened(s, a) or s.contents[a.grave] is None:
        return None
    return t.stakes_held == s.stakes_held and not t.gifts


def _occupied_ends(s: S, a: A, t: S) -> bool | None:
    if not _count_opened(s, a) or not isinstance(s.contents[a.grave], VampireIn) or over(t):
        return None
    return t.turn_player == left(s, s.turn_player) or t.phase is GruftPhase.COUNT_PLACE


def _declare_permits(s: S, a: A) -> bool:
    return (isinstance(a, PlayBat) and s.phase is Phase.OPEN and s.plague is None
            and G(s).bats[s.turn_player] > 0 and 0 <= a.grave < len(s.lids)
            and s.lids[a.grave] is not None and a.grave not in G(s).open_graves
            and a.grave != G(s).count_grave)


def _declare_requires(s: S, a: A, t: S) -> bool | None:
    if not isinstance(a, PlayBat):
        return None
    p = s.turn_player
    return G(t).bats[p] == G(s).bats[p] - 1 and G(t).bat is not None and _bat(t).grave == a.grave


def _ask_forbids(s: S, a: A) -> bool:
    if s.phase is GruftPhase.BAT:
        return not isinstance(a, Believe | Doubt)
    return isinstance(a, Believe | Doubt)


def _ask_permits(s: S, a: A) -> bool:
    return s.phase is GruftPhase.BAT and isinstance(a, Believe | Doubt)


def _ask_order(s: S, a: A, t: S) -> bool | None:
    """The other players are asked one after another, from the owner's left."""
    if not (s.phase is GruftPhase.BAT and isinstance(a, Believe) and t.phase is GruftPhase.BAT):
        return None
    assert G(s).bat is not None and G(t).bat is not None
    return len(_bat(t).believed) == len(_bat(s).believed) + 1


def _resolved(s: S, a: A, t: S) -> bool:
    """The bat's claim is settled: a doubt, or the last belief."""
    if s.phase is not GruftPhase.BAT or G(s).bat is None:
        return False
    return isinstance(a, Doubt) or (isinstance(a, Believe)
                                    and len(_bat(s).believed) + 1 == s.config.players - 1)


def _bat_open(s: S, a: A, t: S) -> bool | None:
    if not _resolved(s, a, t):
        return None
    assert G(s).bat is not None
    g = _bat(s).grave
    return t.known[g] == s.known[g] and t.plague is None  # the lid is not turned


def _doubter(s: S) -> int:
    assert G(s).bat is not None
    return (_bat(s).owner + 1 + len(_bat(s).believed)) % s.config.players


def _case(content_type: type | None, doubted: bool) -> Any:
    def applies(s: S, a: A, t: S) -> bool:
        if not _resolved(s, a, t) or isinstance(a, Doubt) != doubted:
            return False
        assert G(s).bat is not None
        c = s.contents[_bat(s).grave]
        return c is None if content_type is None else isinstance(c, content_type)
    return applies


def _puts(t: S, who: int) -> bool:
    return G(t).putter == who or G(t).then_put == who


def _doubt_empty(s: S, a: A, t: S) -> bool | None:
    if not _case(None, True)(s, a, t):
        return None
    d = _doubter(s)
    assert G(s).bat is not None
    if s.stakes_path == 0:  # no stake left to give the doubter: the text does not say
        return _puts(t, _bat(s).owner)
    took = t.stakes_held[d] == s.stakes_held[d] + 1 or (
        t.stakes_held[d] == 0 and _gift_due(s, s.stakes_held[d]))
    return took and _puts(t, _bat(s).owner)


def _doubt_vampire(s: S, a: A, t: S) -> bool | None:
    if not _case(VampireIn, True)(s, a, t):
        return None
    assert G(s).bat is not None
    o = _bat(s).owner
    return (t.contents[_bat(s).grave] is None and len(t.gifts) == 1 and t.gifts[0].receiver == o
            and _puts(t, _doubter(s)))


def _doubt_garlic(s: S, a: A, t: S) -> bool | None:
    if not _case(GarlicIn, True)(s, a, t):
        return None
    assert G(s).bat is not None
    o = _bat(s).owner
    garlic = s.contents[_bat(s).grave]
    assert isinstance(garlic, GarlicIn)
    want = sorted(q for q in range(s.config.players) if q != o) if garlic.owner == o else [garlic.owner]
    return (sorted(g.giver for g in t.gifts) == want and all(g.receiver == o for g in t.gifts)
            and t.garlic_hand[garlic.owner] == s.garlic_hand[garlic.owner] + 1
            and _puts(t, _doubter(s)))


def _believed_empty(s: S, a: A, t: S) -> bool | None:
    if not _case(None, False)(s, a, t):
        return None
    assert G(s).bat is not None
    return _puts(t, _bat(s).owner) and t.stakes_held == s.stakes_held


def _believed_vampire(s: S, a: A, t: S) -> bool | None:
    if not _case(VampireIn, False)(s, a, t):
        return None
    return t.phase is GruftPhase.BAT_GIFT and t.in_transit is not None


def _gift_to_permits(s: S, a: A) -> bool:
    return (s.phase is GruftPhase.BAT_GIFT and isinstance(a, GiftTo) and G(s).bat is not None
            and 0 <= a.player < s.config.players and a.player != _bat(s).owner)


def _gift_to_requires(s: S, a: A, t: S) -> bool | None:
    if not (s.phase is GruftPhase.BAT_GIFT and isinstance(a, GiftTo)):
        return None
    assert G(s).bat is not None
    return bool(t.gifts) and t.gifts[0].receiver == a.player and _puts(t, _bat(s).owner)


def _believed_garlic(s: S, a: A, t: S) -> bool | None:
    if not _case(GarlicIn, False)(s, a, t):
        return None
    assert G(s).bat is not None
    garlic = s.contents[_bat(s).grave]
    assert isinstance(garlic, GarlicIn)
    return (not t.gifts and t.garlic_hand[garlic.owner] == s.garlic_hand[garlic.owner] + 1
            and _puts(t, _bat(s).owner))


def _once_forbids(s: S, a: A) -> bool:
    return isinstance(a, PlayBat) and s.phase is Phase.OPEN and G(s).bats[s.turn_player] == 0


def _once_requires(s: S, a: A, t: S) -> bool:
    """Bats never come back: in hand plus used stays two per player (as many as a reduced
    configuration deals, ``bats_per_player``), used ones only grow."""
    on_grave = _bat(t).owner if G(t).bat is not None else None
    n = bats_per_player(s.config)
    return all((h + o == n or (h + o == n - 1 and p == on_grave)) and o >= o0
               for p, (h, o, o0) in enumerate(zip(G(t).bats, G(t).bats_out, G(s).bats_out, strict=True)))


def _close_ends(s: S, a: A, t: S) -> bool | None:
    """After the bat's grave got its vampire, the turn passes to the bat owner's left."""
    if not (isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and G(s).bat is not None) or \
            over(t):
        return None
    nxt = left(s, _bat(s).owner)
    return (t.turn_player == nxt or t.phase is GruftPhase.COUNT_PLACE) and not G(t).open_graves


def _no_stop_at_start(s: S, a: A) -> bool:
    """A bat is played instead of opening: the turn still begins with one or the other."""
    return False


# ----------------------------------------------------------------------------- component moves
# Moves the model has no action type for (properties/dawn_under/moves.py, issue #24).


def _bat_vampire_at_end(s: S, a: A) -> bool:
    """The vampire from a doubted bat's grave is placed at one end of its owner's row."""
    return (isinstance(a, ReceiveAt | ReceiveAside) and s.phase is Phase.RECEIVE
            and bool(s.gifts) and s.gifts[0].clause == "gruft-en:bats.doubt-vampire")


def _reward_to_owner(s: S, a: A) -> bool:
    """The garlic's reward under a doubted bat goes to the bat's owner ("you receive")."""
    return (isinstance(a, GiveTo) and s.phase is Phase.GIVE and bool(s.gifts)
            and s.gifts[0].clause == "gruft-en:bats.doubt-garlic")


def _gift_to_other(s: S, a: A) -> bool:
    """A believed bat's vampire is given "as a gift": to another player, not kept."""
    return (s.phase is GruftPhase.BAT_GIFT and isinstance(a, GiftTo) and G(s).bat is not None
            and a.player == _bat(s).owner)


C = Contract
CONTRACTS = ContractSet(
    source="gruft-en",
    contracts=(
        C("gruft-en:aim.win", requires=_first_empty, applies=gruft, when=row_emptied,
          what="first rid of all vampires wins"),
        C("gruft-en:end.win", requires=_first_empty, applies=gruft, when=row_emptied,
          what="first rid of all vampires wins"),
        C("gruft-en:play.keep-open", forbids=_keep_open_forbids, requires=_keep_open_requires,
          applies=gruft, what="opened graves stay open until the turn is over"),
        C("gruft-en:play.keep-open", applies=gruft, alternatives=PLAGUE_OPEN,
          what="the finder's open graves in the rat plague that follows",
          question="A player leaves graves open in their turn and then turns a rat: are those "
                   "graves still open during the plague (so nobody turns them as neighbours), "
                   "or did they close when the turn gave way to the plague?"),
        C("gruft-en:play.keep-open", requires=_turn_over_closes, applies=gruft,
          what="at the end of the turn they are closed"),
        C("gruft-en:count.get-three", requires=_gets_three, applies=count_on,
          what="three matching placements in one turn get the Count"),
        C("gruft-en:count.get-lost", requires=_count_occupied, applies=count_on,
          what="the right neighbour's loss gets the Count"),
        C("gruft-en:count.continue", requires=_count_continue, applies=count_on,
          what="the Count goes on the post and the turn goes on"),
        C("gruft-en:count.place", forbids=_count_place_forbids, permits=_count_place_permits,
          requires=_count_place_requires, applies=count_on,
          what="after the turn the Count is stood on an empty grave",
          alternatives=COUNT_CHOICE,
          question="The holder stands the Count on 'any of the empty graves of your choice', "
                   "but the graves are closed: may any closed grave be chosen (it may turn out "
                   "occupied), or only one known to be empty?"),
        C("gruft-en:count.place", requires=_count_place_due, applies=count_on,
          what="the Count is stood on a grave when the holder's turn is over"),
        C("gruft-en:count.place", applies=count_on, alternatives=LOST_PLACE,
          what="when a Count got from the right is stood on a grave",
          question="A player gets the Count when their right neighbour loses it, so they are "
                   "not on turn: do they stand it on a grave after their own next turn ('when "
                   "your turn is over'), or at once, so that it serves them in that turn?"),
        C("gruft-en:count.guard", forbids=_guard_forbids, applies=count_on,
          what="nobody else opens the Count's grave, not in a plague either"),
        C("gruft-en:count.open-start", forbids=_open_start, permits=_open_start_permits,
          requires=_open_start_requires,
          applies=count_on, what="the holder's turn starts by opening it, lid not turned"),
        C("gruft-en:count.open-start", requires=_turn_start_count, applies=count_on,
          what="the holder's next turn begins at the Count's grave"),
        C("gruft-en:play.keep-open", requires=_open_frame, applies=gruft, when=_open_changed,
          what="only graves opened this turn are open, until the turn is over"),
        C("gruft-en:count.empty", forbids=_count_put_forbids, permits=_count_put_permits,
          requires=_count_empty, applies=count_on,
          what="an empty Count grave takes an outermost vampire, any colour"),
        C("gruft-en:count.empty", requires=_count_put_requires, applies=count_on,
          what="the vampire put in is an outermost one"),
        C("gruft-en:bats.open", forbids=_bat_put_forbids, permits=_bat_put_permits,
          requires=_bat_put_requires, applies=bats_on,
          what="the bat's grave takes an outermost vampire, any colour, into it"),
        C("gruft-en:count.move", forbids=_move_forbids, permits=_move_permits,
          requires=_move_due, applies=count_on, what="the Count moves to the next quarter"),
        C("gruft-en:count.empty-continue", permits=_go_on_permits, applies=count_on,
          what="the turn goes on: another grave or a stop"),
        C("gruft-en:count.place", requires=_count_placed_wait, applies=count_on,
          what="then the holder waits for their next turn"),
        C("gruft-en:bats.doubt-empty", requires=_doubt_gift, applies=bats_on,
          what="a doubter's third stake brings the gift"),
        C("gruft-en:count.empty-continue", requires=_empty_continue, applies=count_on,
          what="then the turn goes on"),
        C("gruft-en:count.open-start", requires=_count_grave_open, applies=count_on,
          what="the Count's grave is open while its vampire goes in"),
        C("gruft-en:count.empty", requires=_count_grave_closed, applies=count_on,
          what="then the Count's grave is closed"),
        C("gruft-en:play.base", requires=_clockwise, applies=gruft,
          what="play passes clockwise, as in the base game (du-en:play.clockwise: the "
               "alignment pairs the two)"),
        C("gruft-en:play.base", requires=_count_garlic_home, applies=count_on,
          what="garlic in the Count's grave goes back to its owner, as any garlic found"),
        C("gruft-en:count.occupied", requires=_count_occupied, applies=count_on,
          what="an occupied Count grave: Count and post to the left"),
        C("gruft-en:count.occupied", applies=count_on,
          what="a Count grave with garlic: occupied, or empty",
          alternatives=(
              Alternative("occupied", requires=_garlic_occupied,
                          option=("gruft_garlic", "occupied"),
                          what="garlic makes the grave occupied: Count and post go left"),
              Alternative("empty", requires=_garlic_empty, option=("gruft_garlic", "empty"),
                          what="no vampire in it: the holder puts one in")),
          question="The Count's grave turns out to hold garlic: is it 'occupied' (the holder "
                   "loses the Count) or 'empty' (the holder puts a vampire in)?"),
        C("gruft-en:count.no-penalty", requires=_no_penalty, applies=count_on,
          what="no stake, no vampires for it"),
        C("gruft-en:count.occupied-ends", requires=_occupied_ends, applies=count_on,
          what="then the turn is over"),
        C("gruft-en:bats.declare", permits=_declare_permits, requires=_declare_requires,
          applies=bats_on, what="instead of opening, a bat claims a grave empty"),
        C("gruft-en:bats.ask", forbids=_ask_forbids, permits=_ask_permits,
          requires=_ask_order, applies=bats_on, what="the others are asked one by one"),
        C("gruft-en:bats.open", requires=_bat_open, applies=bats_on,
          what="the first doubt or the last belief opens the grave, lid not turned"),
        C("gruft-en:bats.doubt-empty", requires=_doubt_empty, applies=bats_on,
          what="doubted and empty: the doubter takes a stake, the owner puts a vampire in"),
        C("gruft-en:bats.doubt-vampire", requires=_doubt_vampire, applies=bats_on,
          what="doubted, vampire: the owner receives it, the doubter puts one in"),
        C("gruft-en:bats.doubt-garlic", requires=_doubt_garlic, applies=bats_on,
          what="doubted, garlic: rewards to the owner, the doubter puts one in"),
        C("gruft-en:bats.believed-empty", requires=_believed_empty, applies=bats_on,
          what="believed and empty: the owner puts a vampire in"),
        C("gruft-en:bats.believed-vampire", permits=_gift_to_permits,
          requires=_believed_vampire, applies=bats_on,
          what="believed, vampire: the owner gives it to a player of their choice"),
        C("gruft-en:bats.believed-vampire", requires=_gift_to_requires, applies=bats_on,
          what="the chosen player receives it; the owner then puts a vampire in"),
        C("gruft-en:bats.believed-garlic", requires=_believed_garlic, applies=bats_on,
          what="believed, garlic: garlic home, no reward, the owner puts a vampire in"),
        C("gruft-en:bats.once", forbids=_once_forbids, requires=_once_requires, applies=bats_on,
          when=_bat_used,
          what="each bat is used once"),
        C("gruft-en:bats.close-ends", requires=_close_ends, applies=bats_on,
          what="the grave is closed and the left neighbour plays"),
        C("gruft-en:bats.doubt-vampire", forbids=_bat_vampire_at_end, applies=bats_on,
          what="the bat's vampire goes to an end of the row"),
        C("gruft-en:bats.doubt-garlic", forbids=_reward_to_owner, applies=bats_on,
          what="the garlic's reward goes to the bat's owner"),
        C("gruft-en:bats.believed-vampire", forbids=_gift_to_other, applies=bats_on,
          what="the vampire is given to another player"),
    ),
    uncovered={},
    alias=_alias,
)
_ = (Stop, _no_stop_at_start)
