"""Contracts of ld-wp, the rules of Liar's Dice, written from each clause's text; and the
capability ``"contracts"`` of the game's plugin record (:data:`CONTRACTS`).

A contract reads the model's :class:`~ruleproof.model.liars_dice.rules.Table` only through the
small readers below (the dice per seat, this round's dice and bids, the rounds ended), never
through the model's rule functions, and states only what every reading of its clause agrees
on (spec/liars_dice/ambiguities.toml): a bid lowering neither number and raising the larger
of them is a raise under all four bidding systems, a bid raising neither is one under none
(ld-wp:bid.raise); a bid met without counting ones holds whether ones are wild or not, a bid
missed even counting ones fails either way (ld-wp:round.wild, ld-wp:challenge.count); what
lies between is left open, for discovery to find.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ruleproof.model.api import GameState
from ruleproof.model.liars_dice.rules import OPTIONS, Bid, Call, Roll, Table
from ruleproof.properties.contracts.core import Contract, ContractSet
from ruleproof.properties.contracts.games import GameContracts, Recall, ScenarioRun
from ruleproof.properties.plugin import RuleSet

# ----------------------------------------------------------------------------- readers


def rolled_all(t: Table) -> bool:
    """Every die in play this round is rolled (ld-wp:round.roll)."""
    return all(len(r) == n for r, n in zip(t.rolled, t.cups, strict=True))


def holders(t: Table) -> list[int]:
    """Seats with dice (ld-wp:end.last)."""
    return [p for p, n in enumerate(t.cups) if n > 0]


def standing(t: Table) -> tuple[int, Bid] | None:
    """The last bid of this round and who made it."""
    return t.bids[-1] if t.bids else None


def deciding(t: Table) -> bool:
    """A decision is due: dice rolled, more than one seat holds dice, and no round ended
    under the one-round reading (the table's own rules say which reading it plays)."""
    if t.rules.rounds == "one" and t.ended:
        return False
    return rolled_all(t) and len(holders(t)) > 1


def next_holder(t: Table, seat: int) -> int:
    """The next seat after ``seat`` around the table that holds dice (ld-wp:bid.turns)."""
    n = len(t.cups)
    return next((seat + k) % n for k in range(1, n + 1) if t.cups[(seat + k) % n] > 0)


def exact(t: Table, face: int) -> int:
    """Dice showing ``face`` itself."""
    return sum(1 for cup in t.rolled for d in cup if d == face)


def with_ones(t: Table, face: int) -> int:
    """Dice showing ``face`` or a one."""
    return sum(1 for cup in t.rolled for d in cup if d == face or d == 1)


def _mover(s: Table) -> int | None:
    """The seat deciding at ``s``: the round's opener, else the one after the last bidder."""
    if not deciding(s):
        return None
    last = standing(s)
    return s.opener if last is None else next_holder(s, last[0])


def _decision(s: Any, a: Any) -> bool:
    return isinstance(a, Bid | Call) and isinstance(s, Table) and deciding(s)


def _lost_one(s: Table, t: Table) -> list[int]:
    """Seats that hold one die fewer after the step (every other seat unchanged), or [] if
    the step changed the cups otherwise."""
    diff = [b - a for b, a in zip(s.cups, t.cups, strict=True)]
    if sorted(diff) != [0] * (len(diff) - 1) + [1]:
        return []
    return [diff.index(1)]


# ----------------------------------------------------------------------------- the clauses


def _opening_permits(s: Any, a: Any) -> bool:
    """To open, any face and any quantity up to the dice on the table."""
    return _decision(s, a) and not s.bids and isinstance(a, Bid) and \
        1 <= a.face <= s.rules.sides and 1 <= a.quantity <= sum(s.cups)


def _opening_mover(s: Any, a: Any, t: Any) -> bool | None:
    """The round's first bid is the opener's: it stands afterwards as that seat's bid."""
    if not (_decision(s, a) and not s.bids and isinstance(a, Bid)):
        return None
    return bool(t.bids == ((s.opener, a),))


def _call_needs_bid(s: Any, a: Any) -> bool:
    """No challenge (nor spot-on) before a bid stands."""
    return _decision(s, a) and isinstance(a, Call) and not s.bids


def _raise_permits(s: Any, a: Any) -> bool:
    """A bid lowering neither number, raising at least one, and raising the larger of the
    two numbers is higher under every bidding system (up to the dice on the table)."""
    last = standing(s) if isinstance(s, Table) else None
    if not (_decision(s, a) and last is not None and isinstance(a, Bid)):
        return False
    q, f = last[1].quantity, last[1].face
    return a.quantity >= q and a.face >= f and (a.quantity, a.face) != (q, f) and \
        max(a.quantity, a.face) > max(q, f) and a.quantity <= sum(s.cups) and \
        a.face <= s.rules.sides


def _raise_forbids(s: Any, a: Any) -> bool:
    """A bid raising neither the quantity nor the face is higher under no bidding system."""
    last = standing(s) if isinstance(s, Table) else None
    return _decision(s, a) and last is not None and isinstance(a, Bid) and \
        a.quantity <= last[1].quantity and a.face <= last[1].face


def _claim(s: Any, a: Any, t: Any) -> bool | None:
    """A bid becomes the standing bid, by the seat that made it; the dice stay as they were."""
    if not (_decision(s, a) and isinstance(a, Bid)):
        return None
    who = _mover(s)
    return bool(t.bids == (*s.bids, (who, a)) and t.rolled == s.rolled and t.cups == s.cups)


def _turns(s: Any, a: Any, t: Any) -> bool | None:
    """After a bid the next seat around the table that holds dice decides."""
    if not (_decision(s, a) and isinstance(a, Bid)):
        return None
    return deciding(t) and _mover(t) == next_holder(s, _mover(s) or 0)


def _call_permits(s: Any, a: Any) -> bool:
    """Once a bid stands, the seat to decide may call it a lie."""
    return _decision(s, a) and isinstance(a, Call) and a.name == "liar" and bool(s.bids)


def _lose_one(s: Any, a: Any, t: Any) -> bool | None:
    """A call ends the round: exactly one seat, the caller or the bidder, gives up exactly one
    die; the round's bids are gone."""
    if not (_decision(s, a) and isinstance(a, Call) and s.bids):
        return None
    lost = _lost_one(s, t)
    return len(lost) == 1 and lost[0] in (_mover(s), s.bids[-1][0]) and not t.bids and \
        len(t.ended) == len(s.ended) + 1


def _count(s: Any, a: Any, t: Any) -> bool | None:
    """A challenge judged by the dice: a bid met by the dice of its face alone holds (the
    challenger loses a die), a bid missed even with the ones counted fails (the bidder
    does); in between the reading of the ones decides."""
    if not (_decision(s, a) and a == Call("liar") and s.bids):
        return None
    bidder, bid = s.bids[-1]
    lost = _lost_one(s, t)
    if not lost:
        return False
    if exact(s, bid.face) >= bid.quantity:
        return lost[0] == _mover(s)
    if with_ones(s, bid.face) < bid.quantity:
        return bool(lost[0] == bidder)
    return None


def _spot_on(s: Any, a: Any, t: Any) -> bool | None:
    """Spot-on: an exact count (counting ones or not alike) makes the bidder lose; a count off
    either way makes the claimant lose."""
    if not (_decision(s, a) and a == Call("spot-on") and s.bids):
        return None
    bidder, bid = s.bids[-1]
    lost = _lost_one(s, t)
    if not lost:
        return False
    plain, wild = exact(s, bid.face), with_ones(s, bid.face)
    if plain == wild == bid.quantity:
        return bool(lost[0] == bidder)
    if plain != bid.quantity and wild != bid.quantity:
        return lost[0] == _mover(s)
    return None


def _next_round(s: Any, a: Any, t: Any) -> bool | None:
    """When the game goes on after a call, the round's loser opens the next round, or the
    next seat in turn if the loser has no die left; the next round starts with a roll."""
    if not (_decision(s, a) and isinstance(a, Call) and s.bids) or not deciding_later(t):
        return None
    lost = _lost_one(s, t)
    if not lost:
        return False
    who = lost[0]
    opener = who if t.cups[who] > 0 else next_holder(t, who)
    return t.opener == opener and all(r == () for r in t.rolled)


def deciding_later(t: Table) -> bool:
    """The game goes on (another round follows)."""
    return not (t.rules.rounds == "one" and t.ended) and len(holders(t)) > 1


def _end_forbids(s: Any, a: Any) -> bool:
    """Once only one seat holds dice, nobody bids or calls any more."""
    return isinstance(s, Table) and isinstance(a, Bid | Call) and len(holders(s)) <= 1


def _last_standing(s: Any, a: Any, t: Any) -> bool | None:
    """A call that leaves one seat with dice ends the game: no round follows (nothing is
    rolled or bid any more)."""
    if not (_decision(s, a) and isinstance(a, Call)) or len(holders(t)) != 1:
        return None
    return all(r == () for r in t.rolled) and not t.bids


def _roll_forbids(s: Any, a: Any) -> bool:
    """No die beyond those in play, none with a face the die lacks; nobody decides while dice
    are still to roll."""
    if not isinstance(s, Table):
        return False
    if isinstance(a, Roll):
        return rolled_all(s) or not 1 <= a.face <= s.rules.sides
    return isinstance(a, Bid | Call) and not rolled_all(s) and len(holders(s)) > 1


def _rolled(s: Any, a: Any, t: Any) -> bool | None:
    """A roll adds the face to the dice of a seat that still has a die to roll; nothing else
    changes. A bid leaves every die as it was."""
    if isinstance(a, Roll) and isinstance(s, Table):
        added = [p for p in range(len(s.cups)) if t.rolled[p] != s.rolled[p]]
        return len(added) == 1 and t.rolled[added[0]] == (*s.rolled[added[0]], a.face) and \
            t.cups == s.cups and t.bids == s.bids
    if isinstance(a, Bid) and isinstance(s, Table):
        return bool(t.rolled == s.rolled)
    return None


def _dice_kept(s: Any, a: Any, t: Any) -> bool | None:
    """No seat ever holds more dice than before, nor more than it started with."""
    if not isinstance(a, Bid | Call | Roll) or not isinstance(s, Table):
        return None
    return all(x <= y <= s.rules.dice for x, y in zip(t.cups, s.cups, strict=True))


C = Contract
CONTRACTS_LD_WP = ContractSet(
    source="ld-wp",
    contracts=(
        C("ld-wp:round.opening", permits=_opening_permits, requires=_opening_mover,
          what="the opener bids any face and quantity; the bid stands as the opener's"),
        C("ld-wp:challenge.call", forbids=_call_needs_bid, permits=_call_permits,
          what="a call needs a standing bid; with one, liar may be called"),
        C("ld-wp:bid.raise", forbids=_raise_forbids, permits=_raise_permits,
          what="a raise lowering neither number and raising the larger is always higher; in neither never"),
        C("ld-wp:bid.claim", requires=_claim, what="a bid stands as the bidder's, dice kept"),
        C("ld-wp:bid.turns", requires=_turns, what="the next seat holding dice decides next"),
        C("ld-wp:challenge.lose", requires=_lose_one,
          what="a call costs the caller or the bidder exactly one die"),
        C("ld-wp:challenge.count", requires=_count,
          what="a bid met by its face holds, one missed with the ones fails"),
        C("ld-wp:variant.spot-on", requires=_spot_on,
          what="spot-on: exact costs the bidder, off costs the claimant"),
        C("ld-wp:round.next", requires=_next_round,
          what="the loser (or the next holder) opens the next round, rolled afresh"),
        C("ld-wp:end.last", forbids=_end_forbids, requires=_last_standing,
          what="no decision, no roll once one seat holds dice"),
        C("ld-wp:round.roll", forbids=_roll_forbids, requires=_rolled,
          what="dice in play are rolled, each once; decisions keep them"),
        C("ld-wp:setup.dice", requires=_dice_kept, what="nobody gains a die"),
    ),
    uncovered={
        "ld-wp:setup.players": "a parameter (2..6 players), checked by the plugin's make_game",
        "ld-wp:round.wild": "a reading (option wild); ld-wp:challenge.count states what both "
                            "readings agree on",
    },
    config_of=lambda s: None,
)
"""The contracts of ld-wp."""


def _ld_wp() -> ContractSet:
    return CONTRACTS_LD_WP


def settle(state: GameState) -> GameState:
    """Pending rolls drawn as the generic rule draws them."""
    from ruleproof.properties.play import default_settle

    return default_settle(state)


def refinement_rule_sets(rs: RuleSet) -> tuple[RuleSet, ...]:
    """A rule set of ``check`` is checked against ld-wp on its own options, one contract rule
    set per player count (the shared group against nothing)."""
    if rs.shared:
        return ()
    counts = rs.players or (2,)
    return tuple(RuleSet(rs.game, f"{rs.name}/{n}", rs.preset, rs.options, (n,),
                         sources=("ld-wp",)) for n in counts)


def scenario_runs(rs: RuleSet) -> Iterable[ScenarioRun]:
    """The shipped scenarios whose start plays ``rs``'s options and player count, each with its
    start and actions."""
    from ruleproof.properties.scenarios import load, shipped

    for path in shipped("liars-dice"):
        sc = load(path)
        start: Table = sc.start
        wanted = dict(rs.options)
        if len(start.cups) != (rs.players[0] if rs.players else 2) or any(
                start.rules.options.get(k) != v for k, v in wanted.items()) or \
                any(v != OPTIONS[k][0] for k, v in start.rules.options.items()
                    if k not in wanted):
            continue
        yield ScenarioRun(path.name, start, tuple(a for a, _who, _text in sc.actions))


def _information_state() -> Any:
    from ruleproof.properties.recall import information_state

    return information_state


CONTRACTS = GameContracts(
    sets={"ld-wp": _ld_wp},
    settle=settle,
    refinement_rule_sets=refinement_rule_sets,
    scenario_runs=scenario_runs,
    searched_rule_set="ld-wp/2",
    recall=Recall("information state", _information_state, 4, 2, every=2),
)
"""The capability ``"contracts"`` of Liar's Dice's plugin record."""

__all__ = ["CONTRACTS", "CONTRACTS_LD_WP", "deciding", "exact", "holders", "next_holder",
           "standing", "with_ones"]
