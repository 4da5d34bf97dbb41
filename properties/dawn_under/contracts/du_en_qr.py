"""Contracts of du-en's quick reference (the rulebook's section "Quick Reference"), written from
its own lines alone: the part ``du-en:qr`` (clause ids ``du-en:qr.*``), not from the chapters
they summarise, so that the two can disagree. Discovery compares them with the chapters on the
same states (``chapters``) and reports the readings of these lines the engine does not follow
(``reading``).

Where a line is terser than its chapter, the contract says less: "one of their vampires" is any
vampire of the giver's row, nothing says when a plague ends or that the stakes go back. Where
a line says something its chapter does not, the contract says it, and where the line can be
read two ways it names both: "Your turn is over" inside a rat plague; "If you also find the
second rat, you pass the rat plague" for a finder who did not start the plague.

Only the state vocabulary of du-en's module is shared (small helpers, no du-en contract).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.gruft.state import GruftPhase
from ruleproof.model.dawn_under.state import (
    RAT,
    End,
    GarlicIn,
    GiveVampire,
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
from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import (
    _GARLIC_GIFT,
    G,
    _alias,
    _gift_clause,
    actor,
    any_cfg,
    base,
    colour_lid,
    colours,
    deciding,
    face_down_row_shrank,
    in_range,
    is_open,
    left,
    opened_content,
    outer,
    over,
    stake_gift_given,
)

S = State
A = Any


# the quick reference summarises the basic rules (3-6 players): `basic` is du-en's `base`
every = any_cfg
basic = base


# ----------------------------------------------------------------------------- vocabulary


def _matches(s: S) -> bool:
    g = s.pending
    if g is None or not colour_lid(s, g) or s.contents[g] is not None:
        return False
    row = s.rows[actor(s)]
    return any(outer(row, e) == s.lids[g] for e in (End.LEFT, End.RIGHT))


def _turn_over(s: S, t: S) -> bool | None:
    """"Your turn is over": another player's turn begins (None while hand-overs are owed, a
    plague runs, the expansion's Count is being stood, or the game is over)."""
    if over(t) or t.gifts or t.plague is not None or t.phase is GruftPhase.COUNT_PLACE:
        return None
    return t.turn_player != s.turn_player


def _go_passes(s: S, t: S) -> bool | None:
    """Reading 'pass': inside a rat plague, "your turn is over" ends the player's go: the
    plague passes on or is over."""
    if s.plague is None or over(t) or t.gifts:
        return None
    return t.plague is None or t.plague.current != s.plague.current


def _resolves(s: S, a: A) -> bool:
    """``a`` ends what a quick-reference line describes: garlic placed or the grave left
    empty, a grave with a vampire or garlic opened (its hand-overs owed), or the last
    hand-over received."""
    if isinstance(a, PlaceGarlic | LeaveEmpty) and deciding(s):
        return True
    if is_open(s, a) and colour_lid(s, a.grave) and a.grave not in s.barred:
        return opened_content(s, a) is not None
    return isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1


def _go_passes_after(kind: str) -> Any:
    def requires(s: S, a: A, t: S) -> bool | None:
        if s.plague is None or not _resolves(s, a) or _kind(s, a) != kind:
            return None
        return _go_passes(s, t)
    return requires


def _kind(s: S, a: A) -> str:
    """Which quick-reference line ``a`` ends: ``no-match``, ``stake`` or ``garlic`` (the last
    hand-over is the line of what was found; '' when it cannot be told)."""
    if isinstance(a, PlaceGarlic | LeaveEmpty):
        return "no-match"
    if isinstance(a, OpenGrave):
        c = opened_content(s, a)
        return "stake" if isinstance(c, VampireIn) else "garlic" if isinstance(c, GarlicIn) \
            else ""
    return "gift"


def _readings(kind: str, option: str | None) -> tuple[Alternative, ...]:
    names = ("continue", "pass")
    return (Alternative(names[0], option=(option, names[0]) if option else None,
                        what="only outside a plague: in a plague the player may go on"),
            Alternative(names[1], requires=_go_passes_after(kind),
                        option=(option, names[1]) if option else None,
                        what="in a plague too: the player's go ends and the plague passes"))


TURN_OVER_QUESTION = ("The quick reference ends this case with 'Your turn is over'. Inside a "
                      "rat plague, does that end the player's go (so the plague passes on), "
                      "or may the player go on turning lids as chapter 4 says?")


# ----------------------------------------------------------------------------- qr.match


def _match_forbids(s: S, a: A) -> bool:
    """"place the matching vampire in the grave": not garlic, not an empty close."""
    return isinstance(a, PlaceGarlic | LeaveEmpty) and deciding(s) and \
        a.grave == s.pending and _matches(s)


def _match_permits(s: S, a: A) -> bool:
    return (isinstance(a, PlaceVampire) and deciding(s) and a.grave == s.pending
            and colour_lid(s, a.grave) and s.contents[a.grave] is None
            and outer(s.rows[actor(s)], a.end) == s.lids[a.grave])


def _match_requires(s: S, a: A, t: S) -> bool | None:
    """The matching vampire goes from the row into the grave, and the player keeps playing
    (it is still their turn, or their go in the plague)."""
    if not (isinstance(a, PlaceVampire) and deciding(s)):
        return None
    p = actor(s)
    row = s.rows[p]
    placed = outer(row, a.end)
    moved = placed is not None and t.contents[a.grave] == VampireIn(placed) and \
        colours(t.rows[p]) == colours(row[1:] if a.end is End.LEFT else row[:-1])
    if over(t) or not moved:
        return moved
    if s.plague is not None:
        return t.plague is None or t.plague.current == p
    return t.turn_player == s.turn_player


# ----------------------------------------------------------------------------- qr.no-match


def _no_match_permits(s: S, a: A) -> bool:
    """"you can place a garlic bundle in the grave" (so it may also stay empty)."""
    if not deciding(s) or _matches(s) or getattr(a, "grave", None) != s.pending:
        return False
    return isinstance(a, LeaveEmpty) or (isinstance(a, PlaceGarlic)
                                         and s.garlic_hand[actor(s)] > 0)


def _no_match_requires(s: S, a: A, t: S) -> bool | None:
    if not (isinstance(a, PlaceGarlic | LeaveEmpty) and deciding(s)):
        return None
    p = actor(s)
    if isinstance(a, PlaceGarlic):
        placed = t.contents[a.grave] == GarlicIn(p) and t.garlic_hand[p] == s.garlic_hand[p] - 1
    else:
        placed = t.contents[a.grave] is None
    if not placed or s.plague is not None:
        return placed
    return _turn_over(s, t) is not False  # "Your turn is over."


# ----------------------------------------------------------------------------- qr.stake


def _vampire_found(s: S, a: A) -> bool:
    return (is_open(s, a) and colour_lid(s, a.grave) and a.grave not in s.barred
            and isinstance(opened_content(s, a), VampireIn))


def _stake_requires(s: S, a: A, t: S) -> bool | None:
    """"you have to take a wooden stake from the road": a stake leaves the path for the
    finder (whatever becomes of the three -- the line does not say they go back)."""
    if not _vampire_found(s, a) or s.stakes_path == 0:
        return None
    p = actor(s)
    if s.stakes_held[p] + 1 >= s.config.stakes_for_gift:
        return t.stakes_path <= s.stakes_path - 1 + s.stakes_held[p] + 1
    return t.stakes_held[p] == s.stakes_held[p] + 1 and t.stakes_path == s.stakes_path - 1


def _stake_ends(s: S, a: A, t: S) -> bool | None:
    if not _vampire_found(s, a) or s.plague is not None:
        return None
    return _turn_over(s, t)


def _offered(s: S, a: A, t: S) -> bool | None:
    """"When you collect the third wooden stake, every player 'offers' you one of their
    vampires": one from each of the others."""
    if not _vampire_found(s, a) or s.stakes_path == 0:
        return None
    p = actor(s)
    if s.stakes_held[p] + 1 != s.config.stakes_for_gift:
        return None
    return sorted(g.giver for g in t.gifts) == sorted(
        q for q in range(s.config.players) if q != p) and all(g.receiver == p for g in t.gifts)


def _hands_a_vampire(s: S, a: A, t: S) -> bool | None:
    """A giver hands over "one of their vampires" (the line says no more: any vampire of the
    row, the others keeping their order)."""
    if not (isinstance(a, GiveVampire) and s.phase is Phase.GIVE and s.gifts):
        return None
    g = s.gifts[0].giver
    row, after = colours(s.rows[g]), colours(t.rows[g])
    return len(after) == len(row) - 1 and t.in_transit is not None and any(
        row[i] == t.in_transit and row[:i] + row[i + 1:] == after for i in range(len(row)))


def _garlic_gift(s: S, a: A, t: S) -> bool:
    """The gift being handed over is a garlic find's (the clause the engine records on it):
    the situation of qr.garlic's turn end (a stake gift's is qr.stake's)."""
    return _gift_clause(s) in _GARLIC_GIFT


def _gift_over(s: S, a: A, t: S) -> bool | None:
    """After the last vampire handed over, "Your turn is over" (outside a plague)."""
    if not (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1
            and s.plague is None and G(s).bat is None):
        return None
    return _turn_over(s, t)


# ----------------------------------------------------------------------------- qr.garlic


def _garlic_found(s: S, a: A) -> GarlicIn | None:
    if is_open(s, a) and colour_lid(s, a.grave) and a.grave not in s.barred:
        c = opened_content(s, a)
        if isinstance(c, GarlicIn):
            return c
    return None


def _garlic_requires(s: S, a: A, t: S) -> bool | None:
    """a) another's garlic: a vampire from its owner, who takes the bundle back; b) your own:
    a vampire from each of the others, and you take it back."""
    found = _garlic_found(s, a)
    if found is None:
        return None
    p = actor(s)
    want = [found.owner] if found.owner != p else sorted(
        q for q in range(s.config.players) if q != p)
    return (sorted(g.giver for g in t.gifts) == want and all(g.receiver == p for g in t.gifts)
            and t.contents[a.grave] is None
            and t.garlic_hand[found.owner] == s.garlic_hand[found.owner] + 1)


def _garlic_ends(s: S, a: A, t: S) -> bool | None:
    if _garlic_found(s, a) is None or s.plague is not None:
        return None
    return _turn_over(s, t)


# ----------------------------------------------------------------------------- qr.plague


def _rat(s: S, a: A) -> bool:
    return is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] == RAT


def _plague_begins(s: S, a: A, t: S) -> bool | None:
    """"Rat plague (you turn over a rat lid): you can turn over ... neighbouring grave lids"."""
    if not _rat(s, a) or s.plague is not None or over(t) or t.plague is None:
        return None
    return t.plague.origin == a.grave and t.plague.current == actor(s)


def _neighbours_permits(s: S, a: A) -> bool:
    p = s.plague
    if p is None or s.phase is not Phase.OPEN:
        return False
    if isinstance(a, Stop):
        return True  # "If you don't want to turn over more lids ..."
    return (is_open(s, a) and in_range(s, a.grave) and s.lids[a.grave] is not None
            and a.grave in s.config.board.neighbours[p.origin] and a.grave not in p.opened)


def _neighbours_forbids(s: S, a: A) -> bool:
    p = s.plague
    return p is not None and is_open(s, a) and in_range(s, a.grave) and \
        a.grave not in s.config.board.neighbours[p.origin]


def _left_continues(s: S, a: A, t: S) -> bool | None:
    """"your left hand neighbour continues the rat plague" (the line does not say when the
    plague is over, so it may also end here)."""
    if s.plague is None or not isinstance(a, Stop) or over(t) or t.plague is None:
        return None
    return t.plague.current == left(s, s.plague.current)


def _another_rat(s: S, a: A, t: S) -> bool | None:
    """"the current rat plague immediately ends (close all open graves and substitute the rat
    lid with a new grave lid from the deck)"; the new rat starts a new plague."""
    if s.plague is None or not _rat(s, a) or over(t):
        return None
    o = s.plague.origin
    return (bool(s.reserve) and t.lids[o] == s.reserve[0] and t.reserve == s.reserve[1:]
            and t.plague is not None and t.plague.origin == a.grave and t.plague.opened == ())


def _starter_passes(s: S, a: A, t: S) -> bool | None:
    """The holder of the running plague finds the new rat: they pass it to the left (both
    readings of "If you also find the second rat")."""
    if s.plague is None or not _rat(s, a) or over(t) or t.plague is None:
        return None
    finder = s.plague.current
    if finder != s.plague.holder:
        return None
    return t.plague.holder == left(s, finder)


def _finder_passes(s: S, a: A, t: S) -> bool | None:
    """Reading 'finder-passes': whoever finds the second rat passes it to the left."""
    if s.plague is None or not _rat(s, a) or over(t) or t.plague is None:
        return None
    return t.plague.holder == left(s, s.plague.current)


# ----------------------------------------------------------------------------- always true


def _close_at_end(s: S, a: A, t: S) -> bool | None:
    """"When you finish your turn close all graves": once another player's turn begins no
    grave is open (none awaits a decision, no plague's graves, none the expansion left
    open)."""
    if over(t) or t.turn_player == s.turn_player or t.gifts or t.plague is not None:
        return None
    return t.pending is None and not G(t).open_graves


def _open_run(row: Any, from_left: bool) -> int:
    run = 0
    for v in row if from_left else reversed(row):
        if not v.face_up:
            break
        run += 1
    return run


def _two_open(s: S, a: A, t: S) -> bool | None:
    """"On each side of the vampire card row, you can have 2 vampires open": a row that lost
    a vampire shows two open at each end again (all of it, if shorter)."""
    for b, c in zip(s.rows, t.rows, strict=True):
        if len(c) < len(b):
            need = min(2, len(c))
            if _open_run(c, True) < need or _open_run(c, False) < need:
                return False
    return True


def _taboo_forbids(s: S, a: A) -> bool:
    """"Only for the rat plague: You can only place a garlic bundle or a matching vampire in a
    grave you have just opened. Graves that have been opened before are taboo.\""""
    if s.plague is None or not isinstance(a, PlaceVampire | PlaceGarlic):
        return False
    return not (deciding(s) and a.grave == s.pending)


C = Contract
CONTRACTS = ContractSet(
    source="du-en",
    part="qr",
    contracts=(
        C("du-en:qr.match", forbids=_match_forbids, permits=_match_permits,
          requires=_match_requires, applies=every,
          what="match: place the matching vampire and keep playing"),
        C("du-en:qr.no-match", permits=_no_match_permits, requires=_no_match_requires,
          applies=every, what="no match: garlic may go in; the turn is over",
          alternatives=_readings("no-match", None), question=TURN_OVER_QUESTION),
        C("du-en:qr.stake", requires=_stake_requires, applies=every,
          what="a vampire: take a stake; the turn is over"),
        C("du-en:qr.stake", requires=_stake_ends, applies=every,
          what="after the stake the turn is over",
          alternatives=_readings("stake", "plague_occupied"), question=TURN_OVER_QUESTION),
        C("du-en:qr.stake", requires=_offered, applies=basic,
          what="the third stake: every other player offers a vampire"),
        C("du-en:qr.stake", requires=_hands_a_vampire, applies=every, when=stake_gift_given,
          what="a player offers one of their vampires"),
        C("du-en:qr.garlic", requires=_garlic_requires, applies=basic,
          what="garlic: a vampire from its owner (own: from each other player); garlic back"),
        C("du-en:qr.garlic", requires=_garlic_ends, applies=every,
          what="after garlic is found the turn is over",
          alternatives=_readings("garlic", "plague_occupied"), question=TURN_OVER_QUESTION),
        C("du-en:qr.garlic", requires=_gift_over, applies=every, when=_garlic_gift,
          what="the hand-overs done, the turn is over"),
        C("du-en:qr.plague", permits=_neighbours_permits, forbids=_neighbours_forbids,
          requires=_plague_begins, applies=every,
          what="rat: the finder turns as many neighbouring lids as wanted"),
        C("du-en:qr.plague", requires=_left_continues, applies=every,
          what="then the left neighbour continues the plague"),
        C("du-en:qr.plague", requires=_another_rat, applies=every,
          what="a second rat ends the plague: graves closed, rat lid replaced"),
        C("du-en:qr.plague", requires=_starter_passes, applies=basic,
          what="whoever also found the first rat passes the new plague to the left",
          alternatives=(
              Alternative("starter-passes", option=("second_rat", "finder"),
                          what="only a finder who also found the first rat passes it on"),
              Alternative("finder-passes", requires=_finder_passes,
                          option=("second_rat", "opponent"),
                          what="whoever finds the second rat passes it to the left")),
          question="The quick reference: 'If you also find the second rat, you pass the rat "
                   "plague to your left hand neighbour.' Does a player who finds a second rat "
                   "in someone else's plague pass it on too, or only the one who found the "
                   "first rat (chapter 5)?"),
        C("du-en:qr.close-at-end", requires=_close_at_end, applies=every,
          what="when a turn is over every grave is closed"),
        C("du-en:qr.open-count", requires=_two_open, applies=every, when=face_down_row_shrank,
          what="two open vampires at each side of a row"),
        C("du-en:qr.taboo", forbids=_taboo_forbids, applies=every,
          what="in a plague only the grave just opened takes garlic or a vampire"),
    ),
    uncovered={},
    alias=_alias,
)
"""The part ``du-en:qr``: du-en's quick reference as a contract set of its own."""

