"""Rule options and the pure rule functions shared by the engine and the z3 proofs.

The arithmetic functions take an ``ite`` (if-then-else) argument so that the *same code* runs on
Python ints in the engine and on z3 terms in ``ruleproof.properties.dracula.z3proofs``; this is how the
proofs cover every admissible assignment of the unknown card values.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from ruleproof.errors import MalformedInput

from .data import COLOURS, Board, _edges

Edge = tuple[int, int]

_CHOICES: dict[str, tuple[str, ...]] = {
    "crucifix_exception": ("dark-of-night", "breath-of-night"),
    "barrier_adjacency": ("shared-location", "corner"),
    "rebellion_extra_turn": ("on-win", "always"),
    "vigilance_scope": ("next-turn", "next-special"),
    "reinforcement": ("move-only", "move-and-hunter"),
    "first_player": ("dracula", "van-helsing"),
    "depths": ("look-and-return", "known-own-only"),
}


@dataclass(frozen=True)
class DraculaRules:
    """Named options for every question the rulebook leaves open (see spec/dracula/ambiguities.toml).

    Attributes:
        crucifix_exception: special action whose card spares Dracula the life marker for an
            uncovered crucifix: ``dark-of-night`` (card list, player aid; default) or
            ``breath-of-night`` (rule text of dracula-en:power.exception).
        barrier_adjacency: reading of dracula-en:barriers.side-by-side: ``shared-location``
            (no two barriers on borders of one location; default) or ``corner`` (only two
            barriers meeting at a corner of one location are forbidden; opposite sides are fine).
        barrier_optional: whether the barrier step may be skipped (dracula-en:barriers.colour
            says "may"; dracula-en:empty.barrier-ends-turn says the turn ends with it).
        rebellion_extra_turn: ``on-win`` (default: Dracula's turn is skipped only when Van
            Helsing beats a vampire with Rebellion) or ``always`` (dracula-en:special.rebellion).
        vigilance_scope: ``next-turn`` (default) or ``next-special`` (the block lasts until
            Dracula plays a card that has a special action) (dracula-en:special.vigilance).
        reinforcement: ``move-only`` (default: Van Helsing's figure goes to the carriage station)
            or ``move-and-hunter`` (also takes a hunter back from his discard pile)
            (dracula-en:special.reinforcement).
        no_look_ends_move: True follows the sentence of dracula-en:look.no-look (declining to
            look ends the move); False (default) follows dracula-en:example.pass-without-look.
        first_player: who starts (dracula-en:play.first-player).
        depths: Depths of Night (dracula-en:special.depths-of-night): ``look-and-return``
            (default: pick any location with a card, look at it, exchange it if it is Dracula's,
            otherwise put it back) or ``known-own-only`` (only a location whose card Dracula
            knows to be his own may be picked).

    Raises:
        MalformedInput: (from ``__post_init__``) for an unknown option value.
    """

    crucifix_exception: str = "dark-of-night"
    barrier_adjacency: str = "shared-location"
    barrier_optional: bool = True
    rebellion_extra_turn: str = "on-win"
    vigilance_scope: str = "next-turn"
    reinforcement: str = "move-only"
    no_look_ends_move: bool = False
    first_player: str = "dracula"
    depths: str = "look-and-return"

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise MalformedInput(f"option {name} must be one of {', '.join(allowed)}, "
                                     f"got {value!r}")
        for name in ("barrier_optional", "no_look_ends_move"):
            if not isinstance(getattr(self, name), bool):
                raise MalformedInput(f"option {name} must be true or false")


def option_names() -> tuple[str, ...]:
    """Names of all rule options, in declaration order."""
    return tuple(f.name for f in fields(DraculaRules))


def option_choices(name: str) -> tuple[str, ...]:
    """The values a rule option admits, as written on a command line (``true``/``false`` for
    the boolean ones).

    Raises:
        MalformedInput: unknown option name.
    """
    if name in _CHOICES:
        return _CHOICES[name]
    if name in ("barrier_optional", "no_look_ends_move"):
        return ("true", "false")
    raise MalformedInput(f"unknown rule option {name!r} (known: {', '.join(option_names())})")


def rules_from_mapping(values: dict[str, Any], *, file: str | None = None,
                       line: int | None = None) -> DraculaRules:
    """Build :class:`DraculaRules` from a mapping (keys may use ``-`` or ``_``; boolean options
    also accept the strings ``true``/``false``, as given on a command line).

    Raises:
        MalformedInput: unknown option name or bad value (with file/line if given).
    """
    kwargs: dict[str, Any] = {}
    names = option_names()
    for key, value in values.items():
        name = key.replace("-", "_")
        if name not in names:
            raise MalformedInput(f"unknown rule option {key!r} (known: {', '.join(names)})",
                                 file=file, line=line)
        if name in ("barrier_optional", "no_look_ends_move") and isinstance(value, str):
            if value.lower() not in ("true", "false"):
                raise MalformedInput(f"option {key} must be true or false, got {value!r}",
                                     file=file, line=line)
            value = value.lower() == "true"
        kwargs[name] = value
    try:
        return DraculaRules(**kwargs)
    except MalformedInput as exc:
        raise MalformedInput(exc.what, file=file, line=line) from None


# --------------------------------------------------------------------------- arithmetic

Ite = Callable[[Any, Any, Any], Any]


def py_ite(cond: Any, a: Any, b: Any) -> Any:
    """If-then-else on Python values."""
    return a if cond else b


def battle(player_strength: Any, enemy_strength: Any) -> tuple[Any, Any]:
    """(won, lost) of a battle; neither means a draw (dracula-en:enemy.win,
    dracula-en:enemy.lose, dracula-en:enemy.draw, dracula-en:cards.battle-uses-strength).
    Works on ints and on z3 integer terms. The worked example's choice between Resistance,
    Strength and Deception (dracula-en:example.choice) follows from this and :func:`overpay`."""
    return player_strength > enemy_strength, player_strength < enemy_strength


def overpay(steps: Any, move: Any, ite: Ite = py_ite) -> Any:
    """Life markers owed for the steps beyond the move number (dracula-en:pay.overpay,
    dracula-en:pay.underuse)."""
    return ite(steps > move, steps - move, 0)


DECEPTION_STRENGTH = 1
"""Deception treats a drawn vampire like a battle at strength 1 (dracula-en:special.deception)."""


def deception_loss(vampire_strength: Any, bonus: Any, ite: Ite = py_ite) -> Any:
    """Life markers Van Helsing loses when Deception draws a vampire of the given strength with
    Breath of Night's bonus (dracula-en:special.deception, dracula-en:special.breath-of-night)."""
    return ite(vampire_strength + bonus > DECEPTION_STRENGTH, 1, 0)


def life_after_gift(life: Any, cap: Any, ite: Ite = py_ite) -> Any:
    """Life after giving a target away: two markers back, never more than the side owns
    (dracula-en:early-end.give-target, dracula-en:contents.components)."""
    return ite(life + 2 > cap, cap, life + 2)


# --------------------------------------------------------------------------- barriers


def _touches(a: Edge, b: Edge) -> int | None:
    """The location two different borders share, or None."""
    if a[0] == b[0] or a[0] == b[1]:
        return a[0]
    if a[1] == b[0] or a[1] == b[1]:
        return a[1]
    return None


def _horizontal_border(columns: int, e: Edge) -> bool:
    """True when the border separates two locations of one column (it runs left-right)."""
    return e[1] - e[0] == columns


def side_by_side(board: Board, a: Edge, b: Edge, reading: str) -> bool:
    """Whether barriers on borders ``a`` and ``b`` lie side by side at one location
    (dracula-en:barriers.side-by-side) under ``reading`` (``shared-location`` or ``corner``)."""
    return _side_by_side(board.columns, a, b, reading)


def _side_by_side(columns: int, a: Edge, b: Edge, reading: str) -> bool:
    if a == b or _touches(a, b) is None:
        return False
    if reading == "shared-location":
        return True
    return _horizontal_border(columns, a) != _horizontal_border(columns, b)


def beside(board: Board, reading: str) -> dict[Edge, frozenset[Edge]]:
    """For each border, the borders whose barrier would lie side by side with a barrier on it
    (:func:`side_by_side`, tabulated once per board size and reading)."""
    return _beside(board.rows, board.columns, reading)


@cache
def _beside(rows: int, columns: int, reading: str) -> dict[Edge, frozenset[Edge]]:
    edges = _edges(rows, columns)
    return {a: frozenset(b for b in edges if _side_by_side(columns, a, b, reading))
            for a in edges}


def connected(board: Board, blocked: Iterable[Edge]) -> bool:
    """Whether every location can reach every other without crossing a barrier
    (dracula-en:pay.barrier-restrictions, dracula-en:pay.no-crossing)."""
    cut = set(blocked)
    adjacency = board.adjacency
    seen = {0}
    todo = [0]
    while todo:
        loc = todo.pop()
        for n in adjacency[loc]:
            if n not in seen and ((loc, n) if loc < n else (n, loc)) not in cut:
                seen.add(n)
                todo.append(n)
    return len(seen) == board.size


def still_joined(board: Board, blocked: Collection[Edge], edge: Edge) -> bool:
    """Whether the two locations of ``edge`` can still reach each other without crossing
    ``blocked`` or ``edge`` itself. When the board is connected under ``blocked`` alone, this
    equals ``connected(board, [*blocked, edge])`` (taking one border away can only split the
    board into the part of one of its locations and the part of the other), and it usually
    stops after a few locations (dracula-en:pay.barrier-restrictions)."""
    for detour in board.detours[edge]:  # the short way round, through a 2 x 2 block
        if detour[0] not in blocked and detour[1] not in blocked and detour[2] not in blocked:
            return True
    cut = {*blocked, edge}
    start, goal = edge
    adjacency = board.adjacency
    seen = {start}
    queue = [start]  # breadth first: the way round a barrier is usually short
    for loc in queue:
        for n in adjacency[loc]:
            if n not in seen and ((loc, n) if loc < n else (n, loc)) not in cut:
                if n == goal:
                    return True
                seen.add(n)
                queue.append(n)
    return False


def barrier_violation(board: Board, edges: Iterable[Edge], reading: str) -> str | None:
    """Why a set of barrier borders is not allowed, or None if it is.

    Returns the id of the violated clause: dracula-en:barriers.between (not a border),
    dracula-en:barriers.side-by-side, or dracula-en:pay.barrier-restrictions (board divided, a
    location unreachable or a figure shut in: on a connected grid these coincide).
    """
    es = list(edges)
    if len(es) > len(COLOURS):
        return "dracula-en:contents.components"
    for e in es:
        if e not in board.edges:
            return "dracula-en:barriers.between"
    if len(set(es)) != len(es):
        return "dracula-en:barriers.between"
    for i, a in enumerate(es):
        for b in es[i + 1:]:
            if side_by_side(board, a, b, reading):
                return "dracula-en:barriers.side-by-side"
    if not connected(board, es):
        return "dracula-en:pay.barrier-restrictions"
    return None


def barriers_legal(board: Board, edges: Iterable[Edge], reading: str) -> bool:
    """True iff :func:`barrier_violation` finds nothing (the model's barrier predicate)."""
    return barrier_violation(board, edges, reading) is None
