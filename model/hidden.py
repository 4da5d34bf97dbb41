"""Hidden information over the one game interface: the histories a seat cannot tell apart, and
drawing one of them (OpenSpiel's ``ResampleFromInfostate``).

Two histories are *consistent* for a seat when they start from the same state, have the same
length, and every node shows that seat the same thing (:meth:`GameBase.node_view
<ruleproof.model.api.GameBase.node_view>`, public and private parts): the seat's own decisions
are then the same, and so is its information state. A history's weight is the product of the
probabilities of its chance outcomes; the other seats' decisions count once each (nothing is
assumed about how they play). :func:`resample_exact` draws a consistent history with
probability proportional to its weight by enumerating them all (depth first, a branch pruned
at the first node whose view differs), which is exact and fit for small games and reduced
set-ups; a game with a large hidden part overrides
:meth:`~ruleproof.model.api.GameBase.resample_history` with its own sampler and may use
:func:`replay` and :func:`views_agree` to check a candidate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import CHANCE, GameState, Node, walk

ENUMERATION_LIMIT = 20_000
"""The most consistent histories :func:`resample_exact` enumerates before giving up."""


class TooManyHistories(MalformedInput):
    """More consistent histories than an enumeration may visit (the message says how many)."""


def start_of(state: GameState) -> GameState:
    """The state the history of ``state`` starts from (its base, no history)."""
    return state.game.from_model(state.base, state.base_moves)


def replay(start: GameState, ids: Sequence[int]) -> GameState:
    """``start`` with the action and chance ids ``ids`` applied in order.

    Raises:
        IllegalAction: an id that is not legal where it is applied.
    """
    state = start
    for i in ids:
        state = state.apply(i)
    return state


def views(state: GameState, player: int) -> list[tuple[str, str]]:
    """What each node of ``state``'s history showed ``player`` (oldest first)."""
    game = state.game
    return [game.node_view(n, player) for n in walk(state.node)]


def views_agree(a: GameState, b: GameState, player: int) -> bool:
    """Whether ``player`` cannot tell the histories of ``a`` and ``b`` apart (same start
    assumed): the same number of nodes, each showing it the same."""
    return views(a, player) == views(b, player)


def chance_weight(state: GameState) -> Fraction:
    """The product of the probabilities of the chance outcomes in ``state``'s history."""
    weight = Fraction(1)
    current = start_of(state)
    for n in walk(state.node):
        if n.actor == CHANCE:
            weight *= dict(current.chance_outcomes())[n.action_id]
        current = current.apply(n.action_id)
    return weight


def consistent_histories(state: GameState, player: int, limit: int = ENUMERATION_LIMIT
                         ) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every history consistent with ``state``'s for ``player``, with its chance weight.

    Raises:
        TooManyHistories: more than ``limit`` of them (or more than ``limit * 50`` nodes
            tried on the way).
    """
    game = state.game
    nodes: list[Node] = walk(state.node)
    targets = [game.node_view(n, player) for n in nodes]
    out: list[tuple[tuple[int, ...], Fraction]] = []
    budget = [limit * 50]

    def visit(current: GameState, depth: int, ids: tuple[int, ...], weight: Fraction) -> None:
        if depth == len(nodes):
            out.append((ids, weight))
            if len(out) > limit:
                raise TooManyHistories(f"{game.name}: more than {limit} histories are "
                                       f"consistent with seat {player}'s information state")
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise TooManyHistories(f"{game.name}: the consistent histories of seat {player} "
                                   f"take more than {limit * 50} nodes to enumerate")
        node = nodes[depth]
        if current.current_player() != node.actor:
            return
        if node.actor == player:
            options: list[tuple[int, Fraction]] = [(node.action_id, Fraction(1))]
        elif node.actor == CHANCE:
            options = current.chance_outcomes()
        else:
            options = [(a, Fraction(1)) for a in current.legal_actions()]
        target = targets[depth]
        for a, p in options:
            try:
                nxt = current.apply(a)
            except IllegalAction:
                continue
            assert nxt.node is not None
            if game.node_view(nxt.node, player) != target:
                continue
            visit(nxt, depth + 1, (*ids, a), weight * p)

    visit(start_of(state), 0, (), Fraction(1))
    return out


def draw(choices: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """One of ``choices`` with probability proportional to its weight (exact: a uniform
    integer below the common denominator's multiple)."""
    total = sum(w for _, w in choices)
    if total <= 0:
        raise ValueError("nothing to draw from")
    scale = 1
    for _, w in choices:
        scale = scale * w.denominator // _gcd(scale, w.denominator)
    ticket = rng.randrange(int(total * scale))
    for item, w in choices:
        ticket -= int(w * scale)
        if ticket < 0:
            return item
    return choices[-1][0]  # pragma: no cover - the tickets cover the total


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def resample_exact(state: GameState, player: int, rng: random.Random,
                   limit: int = ENUMERATION_LIMIT) -> GameState:
    """A history consistent with ``state``'s for ``player``, drawn with probability
    proportional to its chance weight among all of them (exact; see the module docstring).

    Raises:
        TooManyHistories: more than ``limit`` consistent histories.
    """
    found = consistent_histories(state, player, limit)
    ids = draw(found, rng)
    return replay(start_of(state), ids)


Allowed = Callable[[int, GameState, list[tuple[int, float]]], list[tuple[int, float]]]
"""A game's restriction of the options at a history node: ``(node index, state before it,
options)`` -> the options kept (see :func:`resample_walk`)."""


def resample_walk(state: GameState, player: int, rng: random.Random, tries: int = 200,
                  budget: int = 40, allowed: Allowed | None = None) -> GameState:
    """A history consistent with ``state``'s for ``player``, found by a randomized depth-first
    walk: at each node the seat's own action is kept, a chance outcome is drawn by its
    probability and another seat's decision uniformly, among those showing ``player`` the
    same as the true node (a rejected one is struck and the draw repeated; a node left
    with none backtracks). A try gives up after ``budget`` nodes per history node and the
    walk restarts (randomized restarts cut the heavy tail of chronological backtracking).

    This is an *approximate* sampler, not the exact conditional distribution: every history it
    returns is consistent (same views, so the same information state), and every consistent
    history has a positive chance of being drawn, but a history whose early choices leave
    fewer consistent continuations is drawn more often than its weight says (sequential
    sampling without look-ahead). tests/test_hidden.py measures the gap against
    :func:`resample_exact` on a small game.

    ``allowed`` (a game's, built from what ``player`` knows) drops, at a node of another seat
    or of chance, options that cannot lead to a consistent history (e.g. Dracula: a card dealt
    to a location where the seat later sees another card): it must keep every option of every
    consistent history, so that it only spares the walk dead ends.

    Raises:
        TooManyHistories: no consistent history found in ``tries`` tries (the message says
            how many nodes were tried).
    """
    game = state.game
    nodes: list[Node] = walk(state.node)
    targets = [game.node_view(n, player) for n in nodes]
    start = start_of(state)
    tried = 0
    for _ in range(tries):
        left = [budget * max(1, len(nodes))]
        found = _walk(game, nodes, targets, player, start, rng, left, allowed)
        tried += budget * max(1, len(nodes)) - left[0]
        if found is not None:
            return found
    raise TooManyHistories(f"{game.name}: no history consistent with seat {player}'s "
                           f"information state found in {tries} tries ({tried} nodes)")


def _walk(game: Any, nodes: Sequence[Node], targets: Sequence[tuple[str, str]], player: int,
          start: GameState, rng: random.Random, left: list[int],
          allowed: Allowed | None = None) -> GameState | None:
    """One try of :func:`resample_walk` (iterative, so a long history needs no deep stack)."""
    stack: list[tuple[GameState, list[tuple[int, float]]]] = []
    current = start
    depth = 0
    options: list[tuple[int, float]] | None = None
    while depth < len(nodes):
        if options is None:
            node = nodes[depth]
            if current.current_player() != node.actor:
                options = []
            elif node.actor == player:
                options = [(node.action_id, 1.0)]
            elif node.actor == CHANCE:
                options = [(a, float(p)) for a, p in current.chance_outcomes()]
            else:
                options = [(a, 1.0) for a in current.legal_actions()]
            if allowed is not None and node.actor != player and len(options) > 1:
                options = allowed(depth, current, options)
        moved = False
        while options:
            left[0] -= 1
            if left[0] < 0:
                return None
            k = _pick(options, rng)
            a, _ = options.pop(k)
            try:
                nxt = current.apply(a)
            except IllegalAction:
                continue
            assert nxt.node is not None
            if game.node_view(nxt.node, player) != targets[depth]:
                continue
            stack.append((current, options))
            current, depth, options, moved = nxt, depth + 1, None, True
            break
        if not moved:
            if not stack:
                return None
            current, options = stack.pop()
            depth -= 1
    return current


def _pick(options: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """The index of an option drawn with probability proportional to its weight."""
    total = sum(w for _, w in options)
    ticket = rng.random() * total
    for k, (_, w) in enumerate(options):
        ticket -= w
        if ticket < 0:
            return k
    return len(options) - 1


__all__ = ["ENUMERATION_LIMIT", "Allowed", "TooManyHistories", "chance_weight", "consistent_histories",
           "draw", "replay", "resample_exact", "resample_walk", "start_of", "views",
           "views_agree"]
