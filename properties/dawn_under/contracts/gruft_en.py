"""Contracts of gruft-en, the expansion "Frische Luft für die Gruft" (with its FAQ), written from
each clause's text. They are checked together with du-en's contracts (gruft-en:play.base: the
base rules hold except where the expansion says otherwise).
"""

from __future__ import annotations

from typing import Any

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
from ruleproof.properties.contracts.core import Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import G, _alias, _first_empty, actor, left, outer, over

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


def _own_opening(s: S, a: A) -> bool:
    return isinstance(a, OpenGrave) and s.phase is Phase.OPEN and s.plague is None


def _keep_open_forbids(s: S, a: A) -> bool:
    return isinstance(a, OpenGrave | PlayBat) and s.phase is Phase.OPEN and a.grave in \
        G(s).open_graves


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


def _guard_forbids(s: S, a: A) -> bool:
    g = G(s).count_grave
    if g is None or not isinstance(a, OpenGrave | PlayBat) or a.grave != g:
        return False
    if s.phase is GruftPhase.COUNT_OPEN:
        return False
    return actor(s) != G(s).post or s.plague is not None or isinstance(a, PlayBat)


def _open_start_permits(s: S, a: A) -> bool:
    return s.phase is GruftPhase.COUNT_OPEN and isinstance(a, OpenGrave) and a.grave == G(s).count_grave


def _go_on_permits(s: S, a: A) -> bool:
    """After the Count's grave took a vampire the turn goes on: open another grave or stop."""
    return (isinstance(a, Stop) and s.phase is Phase.OPEN and s.plague is None and any(
        isinstance(s.contents[g], VampireIn) for g in G(s).open_graves))


def _count_placed_wait(s: S, a: A, t: S) -> bool | None:
    """Having stood the Count on a grave, the holder waits for their next turn."""
    if not (isinstance(a, CountTo) and s.phase is GruftPhase.COUNT_PLACE) or over(t):
        return None
    return t.turn_player != G(s).post and t.turn_player == G(s).next_turn


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
    return t.known[g] == s.known[g] and t.lids[g] == s.lids[g]  # the lid is not turned


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
    gone = set(G(s).open_graves) - set(G(t).open_graves)
    if gone and (t.turn_player == s.turn_player and t.phase is not GruftPhase.COUNT_PLACE
                 and t.plague is None and s.plague is None):
        return False
    # a bat is opened only once the claim is settled; plague graves are the plague's
    return not (new and (isinstance(a, PlayBat) or s.plague is not None))


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
    """Bats never come back: in hand plus used stays two per player, used ones only grow."""
    on_grave = _bat(t).owner if G(t).bat is not None else None
    return all((h + o == 2 or (h + o == 1 and p == on_grave)) and o >= o0
               for p, (h, o, o0) in enumerate(zip(G(t).bats, G(t).bats_out, G(s).bats_out, strict=True)))


def _close_ends(s: S, a: A, t: S) -> bool | None:
    """After the bat's grave got its vampire, the turn passes to the bat owner's left."""
    if not (isinstance(a, PlaceVampire) and s.phase is GruftPhase.PUT and G(s).bat is not None) or \
            over(t):
        return None
    nxt = left(s, _bat(s).owner)
    return (t.turn_player == nxt or t.phase is GruftPhase.COUNT_PLACE) and not G(t).open_graves


def _rat_ignored(s: S, a: A, t: S) -> bool | None:
    if _count_opened(s, a):
        return t.plague is None and t.known[a.grave] == s.known[a.grave]
    return _bat_open(s, a, t)


def _count_plague_forbids(s: S, a: A) -> bool:
    return (s.plague is not None and isinstance(a, OpenGrave) and G(s).count_grave is not None
            and a.grave == G(s).count_grave)


def _no_stop_at_start(s: S, a: A) -> bool:
    """A bat is played instead of opening: the turn still begins with one or the other."""
    return False


C = Contract
CONTRACTS = ContractSet(
    source="gruft-en",
    contracts=(
        C("gruft-en:aim.win", requires=_first_empty, applies=gruft,
          what="first rid of all vampires wins"),
        C("gruft-en:end.win", requires=_first_empty, applies=gruft,
          what="first rid of all vampires wins"),
        C("gruft-en:play.keep-open", forbids=_keep_open_forbids, requires=_keep_open_requires,
          applies=gruft, what="opened graves stay open until the turn is over"),
        C("gruft-en:play.keep-open", requires=_turn_over_closes, applies=gruft,
          what="at the end of the turn they are closed"),
        C("gruft-en:count.get-three", requires=_gets_three, applies=gruft,
          what="three matching placements in one turn get the Count"),
        C("gruft-en:count.get-lost", requires=_count_occupied, applies=gruft,
          what="the right neighbour's loss gets the Count"),
        C("gruft-en:count.continue", requires=_count_continue, applies=gruft,
          what="the Count goes on the post and the turn goes on"),
        C("gruft-en:count.place", forbids=_count_place_forbids, permits=_count_place_permits,
          requires=_count_place_requires, applies=gruft,
          what="after the turn the Count is stood on an empty grave"),
        C("gruft-en:count.place", requires=_count_place_due, applies=gruft,
          what="the Count is stood on a grave when the holder's turn is over"),
        C("gruft-en:count.guard", forbids=_guard_forbids, applies=gruft,
          what="nobody else opens the Count's grave, not in a plague either"),
        C("gruft-en:count.open-start", forbids=_open_start, permits=_open_start_permits,
          requires=_open_start_requires,
          applies=gruft, what="the holder's turn starts by opening it, lid not turned"),
        C("gruft-en:count.open-start", requires=_turn_start_count, applies=gruft,
          what="the holder's next turn begins at the Count's grave"),
        C("gruft-en:play.keep-open", requires=_open_frame, applies=gruft,
          what="only graves opened this turn are open, until the turn is over"),
        C("gruft-en:count.empty", forbids=_put_forbids, permits=_put_permits,
          requires=_count_empty, applies=gruft,
          what="an empty Count grave takes an outermost vampire, any colour"),
        C("gruft-en:count.empty", requires=_put_requires, applies=gruft,
          what="the vampire put in is an outermost one"),
        C("gruft-en:count.move", forbids=_move_forbids, permits=_move_permits,
          requires=_move_due, applies=gruft, what="the Count moves to the next quarter"),
        C("gruft-en:count.empty-continue", permits=_go_on_permits, applies=gruft,
          what="the turn goes on: another grave or a stop"),
        C("gruft-en:count.place", requires=_count_placed_wait, applies=gruft,
          what="then the holder waits for their next turn"),
        C("gruft-en:bats.doubt-empty", requires=_doubt_gift, applies=gruft,
          what="a doubter's third stake brings the gift"),
        C("gruft-en:count.empty-continue", requires=_empty_continue, applies=gruft,
          what="then the turn goes on"),
        C("gruft-en:count.occupied", requires=_count_occupied, applies=gruft,
          what="an occupied Count grave: Count and post to the left"),
        C("gruft-en:count.no-penalty", requires=_no_penalty, applies=gruft,
          what="no stake, no vampires for it"),
        C("gruft-en:count.occupied-ends", requires=_occupied_ends, applies=gruft,
          what="then the turn is over"),
        C("gruft-en:bats.declare", permits=_declare_permits, requires=_declare_requires,
          applies=gruft, what="instead of opening, a bat claims a grave empty"),
        C("gruft-en:bats.ask", forbids=_ask_forbids, permits=_ask_permits,
          requires=_ask_order, applies=gruft, what="the others are asked one by one"),
        C("gruft-en:bats.open", requires=_bat_open, applies=gruft,
          what="the first doubt or the last belief opens the grave, lid not turned"),
        C("gruft-en:bats.doubt-empty", requires=_doubt_empty, applies=gruft,
          what="doubted and empty: the doubter takes a stake, the owner puts a vampire in"),
        C("gruft-en:bats.doubt-vampire", requires=_doubt_vampire, applies=gruft,
          what="doubted, vampire: the owner receives it, the doubter puts one in"),
        C("gruft-en:bats.doubt-garlic", requires=_doubt_garlic, applies=gruft,
          what="doubted, garlic: rewards to the owner, the doubter puts one in"),
        C("gruft-en:bats.believed-empty", requires=_believed_empty, applies=gruft,
          what="believed and empty: the owner puts a vampire in"),
        C("gruft-en:bats.believed-vampire", permits=_gift_to_permits,
          requires=_believed_vampire, applies=gruft,
          what="believed, vampire: the owner gives it to a player of their choice"),
        C("gruft-en:bats.believed-vampire", requires=_gift_to_requires, applies=gruft,
          what="the chosen player receives it; the owner then puts a vampire in"),
        C("gruft-en:bats.believed-garlic", requires=_believed_garlic, applies=gruft,
          what="believed, garlic: garlic home, no reward, the owner puts a vampire in"),
        C("gruft-en:bats.once", forbids=_once_forbids, requires=_once_requires, applies=gruft,
          what="each bat is used once"),
        C("gruft-en:bats.close-ends", requires=_close_ends, applies=gruft,
          what="the grave is closed and the left neighbour plays"),
        C("gruft-en:faq.rat-ignored", requires=_rat_ignored, applies=gruft,
          what="the Count's or a bat's grave: the lid's rat counts for nothing"),
        C("gruft-en:faq.count-plague", forbids=_count_plague_forbids, applies=gruft,
          what="no one opens the Count's grave during a plague"),
    ),
    uncovered={
        "gruft-en:play.base": "meta-rule: du-en's contracts are checked under the expansion "
                              "(properties/dawn_under/plugin.py lists the ones it replaces)",
    },
    alias=_alias,
)
_ = (Stop, _no_stop_at_start)
