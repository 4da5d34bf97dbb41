"""Contracts of du-en's worked example of a rat plague (chapter 4, figures 4a-4d), written from
the example alone: the part ``du-en:example`` (clause ids ``du-en:example.*``). What a step of
the example shows to be allowed is a permission, what it shows to happen a requirement, what it
says is not allowed a prohibition; discovery compares them with the chapters on the same states
(``chapters``).

Only the state vocabulary of du-en's module is shared (small helpers, no du-en contract).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.state import (
    RAT,
    End,
    GarlicIn,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    VampireIn,
)
from ruleproof.properties.contracts.core import Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import (
    _alias,
    actor,
    any_cfg,
    base,
    colour_lid,
    colours,
    deciding,
    in_range,
    is_open,
    left,
    opened_content,
    outer,
    over,
)

S = State
A = Any


# the example is played by four players under the basic rules: `basic` is du-en's `base`
every = any_cfg
basic = base


def _rat(s: S, a: A) -> bool:
    return is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] == RAT


def _matching_ends(s: S) -> list[End]:
    g = s.pending
    if g is None or not colour_lid(s, g) or s.contents[g] is not None:
        return []
    row = s.rows[actor(s)]
    return [e for e in (End.LEFT, End.RIGHT) if outer(row, e) == s.lids[g]]


def _in_plague_deciding(s: S, a: A) -> bool:
    return s.plague is not None and deciding(s) and getattr(a, "grave", None) == s.pending


# ----------------------------------------------------------------------------- 4a


def _finder_starts(s: S, a: A, t: S) -> bool | None:
    """Tom finds a rat, lays it before him and can now turn the surrounding lids."""
    if not _rat(s, a) or s.plague is not None or over(t) or t.plague is None:
        return None
    p = actor(s)
    return t.plague.origin == a.grave and t.plague.holder == p and t.plague.current == p


def _any_order_permits(s: S, a: A) -> bool:
    """... in any order he wishes: any surrounding grave not yet turned."""
    p = s.plague
    return (p is not None and s.phase is Phase.OPEN and is_open(s, a) and in_range(s, a.grave)
            and s.lids[a.grave] is not None and a.grave in s.config.board.neighbours[p.origin]
            and a.grave not in p.opened)


# ----------------------------------------------------------------------------- 4b


def _leave_permits(s: S, a: A) -> bool:
    """An empty grave no outermost vampire matches stays empty: he does not want garlic."""
    return isinstance(a, LeaveEmpty) and _in_plague_deciding(s, a) and not _matching_ends(s)


def _place_permits(s: S, a: A) -> bool:
    """He can put his outermost yellow vampire into the yellow grave."""
    return isinstance(a, PlaceVampire) and _in_plague_deciding(s, a) and \
        a.end in _matching_ends(s)


def _place_requires(s: S, a: A, t: S) -> bool | None:
    """... with this move a new vampire is outermost: the placed one left the row's end."""
    if not (isinstance(a, PlaceVampire) and s.plague is not None and deciding(s)):
        return None
    row = s.rows[actor(s)]
    placed = outer(row, a.end)
    return placed is not None and t.contents[a.grave] == VampireIn(placed) and \
        colours(t.rows[actor(s)]) == colours(row[1:] if a.end is End.LEFT else row[:-1])


def _no_late_forbids(s: S, a: A) -> bool:
    """Not allowed: the vampire now outermost into the grave opened before."""
    p = s.plague
    return (p is not None and isinstance(a, PlaceVampire | PlaceGarlic) and a.grave in p.opened
            and not (deciding(s) and a.grave == s.pending))


def _stop_permits(s: S, a: A) -> bool:
    """Tom decides to stop; Diana passes without turning a lid."""
    return s.plague is not None and s.phase is Phase.OPEN and isinstance(a, Stop)


def _stop_passes(s: S, a: A, t: S) -> bool | None:
    """... and so the left neighbour gets the chance to play (unless the plague is over)."""
    if s.plague is None or not isinstance(a, Stop) or over(t) or t.plague is None:
        return None
    return t.plague.current == left(s, s.plague.current)


# ----------------------------------------------------------------------------- 4c


def _go_on(s: S, t: S) -> bool:
    return t.plague is None or (s.plague is not None and t.plague.current == s.plague.current)


def _garlic_go_on(s: S, a: A, t: S) -> bool | None:
    """Mike puts garlic into the blue grave and opens another one: he goes on."""
    if not (isinstance(a, PlaceGarlic) and s.plague is not None and deciding(s)) or over(t):
        return None
    return _go_on(s, t)


def _garlic_found(s: S, a: A) -> GarlicIn | None:
    if s.plague is None or not is_open(s, a) or not colour_lid(s, a.grave):
        return None
    c = opened_content(s, a)
    return c if isinstance(c, GarlicIn) else None


def _found_garlic(s: S, a: A, t: S) -> bool | None:
    """He finds Diana's garlic: she gives him one of her vampires and takes the garlic back."""
    found = _garlic_found(s, a)
    if found is None or found.owner == actor(s) or over(t):
        return None
    return ([g.giver for g in t.gifts] == [found.owner]
            and all(g.receiver == actor(s) for g in t.gifts) and t.contents[a.grave] is None
            and t.garlic_hand[found.owner] == s.garlic_hand[found.owner] + 1)


def _chooses_to_end(s: S, a: A, t: S) -> bool | None:
    """... the risk is too high for him, so he ends his go: the go did not end by itself once
    the vampire was handed over."""
    if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1
            and s.plague is not None) or over(t):
        return None
    return _go_on(s, t)


# ----------------------------------------------------------------------------- 4d


def _new_rat(s: S, a: A, t: S) -> bool | None:
    """Kate, who did not start the plague, turns a rat: the old plague's graves are closed,
    its rat lid leaves the game for a lid from the stack, and she starts the new plague."""
    if s.plague is None or not _rat(s, a) or over(t) or s.plague.current == s.plague.holder:
        return None
    o = s.plague.origin
    finder = s.plague.current
    return (bool(s.reserve) and t.lids[o] == s.reserve[0] and t.reserve == s.reserve[1:]
            and t.plague is not None and t.plague.origin == a.grave and t.plague.opened == ()
            and t.plague.holder == finder and t.plague.current == finder)


C = Contract
CONTRACTS = ContractSet(
    source="du-en",
    part="example",
    contracts=(
        C("du-en:example.rat-lid", permits=_any_order_permits, requires=_finder_starts,
          applies=every, what="the finder starts the plague, any surrounding grave in any order"),
        C("du-en:example.leave-empty", permits=_leave_permits, applies=every,
          what="an unmatched empty grave may stay empty in a plague"),
        C("du-en:example.place", permits=_place_permits, requires=_place_requires,
          applies=every, what="a matching outermost vampire goes into the grave"),
        C("du-en:example.no-late", forbids=_no_late_forbids, applies=every,
          what="not into a grave opened earlier in the plague"),
        C("du-en:example.stop-and-pass", permits=_stop_permits, requires=_stop_passes,
          applies=every, what="a player stops or passes; the left neighbour goes on"),
        C("du-en:example.garlic-go-on", requires=_garlic_go_on, applies=every,
          what="after garlic in a plague the player goes on"),
        C("du-en:example.garlic-found", requires=_found_garlic, applies=basic,
          what="another's garlic in a plague: its owner gives one vampire, garlic back"),
        C("du-en:example.garlic-found", permits=_stop_permits, requires=_chooses_to_end,
          applies=every, what="after the hand-over the finder may still go on, or stop"),
        C("du-en:example.new-rat", requires=_new_rat, applies=basic,
          what="a non-starter's rat: old plague closed, she starts the new one"),
    ),
    uncovered={},
    alias=_alias,
)
"""The part ``du-en:example``: the worked example of a rat plague as a contract set of its own."""

_ = (OpenGrave,)
