"""Moving and barriers: the steps of a move, looking at cards, laying own cards, and placing or
moving the barriers after the move is paid.

Clauses: dracula-en:move.orthogonal, dracula-en:move.revisit, dracula-en:move.look-choice,
dracula-en:look.own-card, dracula-en:look.opponent-card, dracula-en:empty.fill,
dracula-en:pay.no-crossing, dracula-en:barriers.colour, dracula-en:barriers.grey,
dracula-en:barriers.between, dracula-en:barriers.side-by-side, dracula-en:pay.barrier-first,
dracula-en:pay.barrier-restrictions, dracula-en:empty.barrier-ends-turn.
"""

from __future__ import annotations

from .actions import LOOK, STOP, Action, edge_name, move_to, place_barrier
from .data import COLOURS, Kind
from .rules import Edge, barrier_violation, beside, still_joined
from .state import (
    State,
    Step,
    _add,
    _know,
    _log,
    _name,
    _pair,
    _private,
    _push,
    _push_front,
    _put,
    _remove,
    _special,
    _with,
)


def _moves(s: State) -> list[int]:
    """The neighbouring locations the active figure may step to: not across a barrier
    (dracula-en:pay.no-crossing), and for Dracula not onto the card turned by Resistance
    (dracula-en:special.resistance)."""
    side = s.active
    here = s.pos[side]
    barriers = s.barriers
    turned = s.turned if side == 0 else None
    return [n for n in s.board.neighbours(here)
            if ((here, n) if here < n else (n, here)) not in barriers and n != turned]


def _move(s: State, to: int) -> State:
    """One step (dracula-en:move.orthogonal, dracula-en:move.revisit, dracula-en:meet.allowed,
    dracula-en:empty.fill)."""
    side = s.active
    s = _with(s, pos=_pair(s.pos, side, to), steps=s.steps + 1,
              can_look=s.board_cards[to] is not None)
    s = _log(s, f"{_name(side)} moves to {s.board.label(to)} (step {s.steps})")
    front: list[Step] = []
    if s.pos[1 - side] == to:
        front.append(Step("meet", side, to))
    if s.board_cards[to] is None:
        front.append(Step("place", side, to))
    return _push_front(s, *front)


def _look(s: State) -> State:
    """dracula-en:look.own-card (a bluff is placing the same card back,
    dracula-en:example.own-swap) and dracula-en:look.opponent-card (any opposing card ends the
    move, dracula-en:example.enemy-ends-move)."""
    side = s.active
    loc = s.pos[side]
    card = s.board_cards[loc]
    assert card is not None
    owner = int(s.cards.enc(card).owner)
    where = s.board.label(loc)
    if owner == side:
        s = _with(s, hand=_add(s.hand, side, card), board_cards=_put(s, loc, None),
                  can_look=False)
        s = _private(s, side, f"{_name(side)} looks at {where}: own card {card}, taken into hand",
                     f"{_name(side)} looks at {where}: an own card, taken into hand")
        return _push_front(s, Step("place", side, loc))
    s = _with(s, revealed=loc, can_look=False, known=_know(s, side, loc, card))
    s = _with(s, known=_know(s, 1 - side, loc, card))
    s = _log(s, f"{_name(side)} looks at {where} and reveals {_describe(s, card)}; the move ends "
                f"(dracula-en:look.opponent-card)")
    return _push(s, Step("pay", side))


def _describe(s: State, card: str) -> str:
    c = s.cards.enc(card)
    if c.kind is Kind.ENEMY:
        return f"{card} (strength {c.strength})"
    return card


def _place(s: State, side: int, loc: int, card: str) -> State:
    s = _with(s, hand=_remove(s.hand, side, card), board_cards=_put(s, loc, card))
    s = _with(s, known=_know(s, side, loc, card))
    s = _with(s, known=_know(s, 1 - side, loc, None))
    return _private(s, side, f"{_name(side)} lays {card} face down at {s.board.label(loc)}",
                    f"{_name(side)} lays a card face down at {s.board.label(loc)}")


def _barrier_options(s: State, colours: tuple[str, ...]) -> list[Action]:
    """Every border each of ``colours`` may be placed or moved to: the borders ``e`` for which
    :func:`.rules.barrier_violation` finds nothing wrong with the other barriers plus ``e``
    (dracula-en:barriers.between, dracula-en:barriers.side-by-side,
    dracula-en:pay.barrier-restrictions).

    The same predicate, evaluated in parts: the other barriers are checked once, then each
    candidate only against them (side by side, from the table :func:`.rules.beside`) and for
    the board staying connected, which, the board being connected under the others, is
    :func:`.rules.still_joined`.
    """
    out: list[Action] = []
    board = s.board
    reading = s.rules.barrier_adjacency
    placed = [e for e in s.barriers if e is not None]
    # every subset of an allowed set of barriers is allowed, so the others need checking only
    # when the barriers as they lie are not
    all_fine = barrier_violation(board, placed, reading) is None
    near = beside(board, reading)
    for colour in colours:
        ci = COLOURS.index(colour)
        others = [e for i, e in enumerate(s.barriers) if i != ci and e is not None]
        if not all_fine and barrier_violation(board, others, reading) is not None:
            continue
        for edge in board.edges:
            if edge == s.barriers[ci] or edge in others:
                continue
            if not near[edge].isdisjoint(others):  # side by side with another barrier
                continue
            if still_joined(board, others, edge):
                out.append(place_barrier(colour, edge))
    return out


def _barrier_step(s: State) -> State:
    """Which barrier operations the played card allows (dracula-en:barriers.colour,
    dracula-en:barriers.grey, dracula-en:empty.barrier-ends-turn; Eyes from the player aid;
    Whisper of Night blocks Van Helsing's barrier, dracula-en:special.whisper-of-night)."""
    side = s.active
    if side == 1 and s.whisper_turn == s.turn:
        return _log(s, "Whisper of Night: Van Helsing may not place or move a barrier this turn")
    assert s.played is not None
    c = s.cards.act(s.played)
    if _special(s) == "eyes":
        others = tuple(x for x in COLOURS if x != "yellow")
        return _push_front(s, Step("barrier", side, 0, ("yellow",)),
                           Step("barrier", side, 1, others))
    colours = COLOURS if c.bar == "grey" else (c.bar,)
    return _push_front(s, Step("barrier", side, 0, colours))


def _barrier(s: State, side: int, colour: str, edge: Edge) -> State:
    ci = COLOURS.index(colour)
    verb = "places" if s.barriers[ci] is None else "moves"
    b = list(s.barriers)
    b[ci] = edge
    s = _with(s, barriers=tuple(b))
    return _log(s, f"{_name(side)} {verb} the {colour} barrier to {edge_name(edge)}")


def _move_options(s: State) -> list[Action]:
    """Steps, looking and stopping during a move (dracula-en:move.orthogonal,
    dracula-en:pay.no-crossing, dracula-en:move.revisit, dracula-en:move.look-choice,
    dracula-en:move.start-location, dracula-en:move.minimum, dracula-en:meet.allowed,
    dracula-en:special.resistance; option no_look_ends_move, dracula-en:look.no-look)."""
    out: list[Action] = []
    moves = _moves(s)
    blocked_on = s.rules.no_look_ends_move and s.can_look and s.steps > 0
    if not blocked_on:
        out += map(move_to, moves)
    if s.can_look:
        out.append(LOOK)
    if s.steps >= 1 or not moves:
        out.append(STOP)
    return out


def _stop(s: State, side: int) -> State:
    """The move is declared over; it is paid next (dracula-en:pay.move-ends)."""
    s = _log(s, f"{_name(side)} ends the move after {s.steps} step(s)")
    return _push(s, Step("pay", side))
