"""The set-up of Dawn Under as chance nodes of the engine, one item at a time.

Before the first turn the engine's state is a :class:`Dealing`: the set-up dealt so far. Its
player to move is chance; each chance outcome places one item, with probability (items of that
kind left) / (items left), in this order:

1. the reserve stack, top first: coloured lids only (du-en:prep.reserve: the reserve is drawn
   before the rats are mixed in; with 2 players du-en:2p.reserve);
2. the lid of each grave in grave order: a colour, a rat (du-en:prep.mix-rats), or with two
   players no lid at all (du-en:2p.lids: forty lids on sixty graves);
3. each player's row, left to right: vampire colours (du-en:prep.deal).

So every deal is one path, and the distribution over paths is the uniform arrangement the
seeded shuffles of :func:`ruleproof.model.dawn_under.engine.deal` produce. Once the last item is
dealt the successor is the engine's :class:`~ruleproof.model.dawn_under.state.State` (start
player 0, du-en:play.start leaves the choice to the players).

Outcome codes: ``0..5`` a colour, :data:`RAT_OUTCOME` a rat lid, :data:`NO_LID_OUTCOME` a grave
without a lid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under.engine import initial_state
from ruleproof.model.dawn_under.state import RAT, Config, Setup, State, fast_init

RAT_OUTCOME = 6
"""Outcome code of a rat lid."""
NO_LID_OUTCOME = 7
"""Outcome code of a grave dealt without a lid (2 players only)."""
OUTCOMES = 8
"""Number of outcome codes (colours 0..5, rat, no lid)."""
DEAL_CLAUSES = ("du-en:prep.deal",)


@dataclass(frozen=True, slots=True)
class DealItem:
    """A chance outcome of the deal: ``code`` is a colour 0..5, :data:`RAT_OUTCOME` or
    :data:`NO_LID_OUTCOME`. Printed ``colour K``, ``rat`` or ``no-lid``."""

    code: int

    def __str__(self) -> str:
        return chance_string(self.code)


def chance_string(outcome: int) -> str:
    """Notation of a deal outcome: ``colour 0``..``colour 5``, ``rat``, ``no-lid``.

    Raises:
        MalformedInput: an outcome outside ``0..7``.
    """
    if 0 <= outcome < 6:
        return f"colour {outcome}"
    if outcome == RAT_OUTCOME:
        return "rat"
    if outcome == NO_LID_OUTCOME:
        return "no-lid"
    raise MalformedInput(f"chance outcome {outcome} is not in 0..7")


@fast_init
@dataclass(frozen=True, slots=True)
class Dealing:
    """The set-up while it is dealt (the engine's state before the first turn).

    Attributes:
        config: the game configuration.
        dealt: outcome codes dealt so far, in deal order (see the module docstring).
        left: items of each outcome code (8 counts) still to deal at this position, kept by
            :func:`deal_step` so that a step does not recount ``dealt`` (None: counted from
            ``dealt`` when asked; not part of equality, a function of ``config`` and
            ``dealt``).
    """

    config: Config
    dealt: tuple[int, ...] = ()
    left: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def length(self) -> int:
        """How many items the whole deal has."""
        return deal_length(self.config)


def deal_length(config: Config) -> int:
    """Items of a whole deal: the reserve, one per grave, every vampire."""
    total = config.vampires_per_colour * len(config.vampire_colours)
    return config.reserve_size + config.board.size + (total // config.players) * config.players


def _remaining(d: Dealing) -> tuple[int, ...]:
    """Items of each outcome code still to deal at the current position (kept on ``d``, or
    counted from its ``dealt``)."""
    if d.left is not None:
        return d.left
    return _count_remaining(d)


def _count_remaining(d: Dealing) -> tuple[int, ...]:
    """:func:`_remaining` counted from ``d.dealt`` (O(items dealt))."""
    c = d.config
    lid_counts = [c.lids_per_colour if k in c.lid_colours else 0 for k in range(6)]
    k = len(d.dealt)
    graves = c.board.size
    if k < c.reserve_size:
        counts = [*lid_counts, 0, 0]
        for x in d.dealt:
            counts[x] -= 1
        return tuple(counts)
    if k < c.reserve_size + graves:
        lids_on_board = sum(lid_counts) - c.reserve_size + c.rat_lids
        counts = [*lid_counts, c.rat_lids, graves - lids_on_board]
        for x in d.dealt:
            counts[x] -= 1
        return tuple(counts)
    counts = [c.vampires_per_colour if k in c.vampire_colours else 0 for k in range(6)] + [0, 0]
    for x in d.dealt[c.reserve_size + graves:]:
        counts[x] -= 1
    return tuple(counts)


def deal_outcomes(d: Dealing) -> list[tuple[int, Fraction]]:
    """(outcome code, exact probability) of the next item, sorted by code, summing to 1.
    Not cached by the counts left: random deals met the same counts in about one chance node
    of eight (40 games), and a cache of 16,384 count vectors held about 160,000 long-lived
    objects that every full collection of the garbage collector walked; the fractions
    themselves are kept per total (:func:`_fractions`)."""
    counts = _remaining(d)
    fraction = _fractions(sum(counts))
    return [(k, fraction[n]) for k, n in enumerate(counts) if n]


@lru_cache(maxsize=1 << 8)
def _fractions(total: int) -> tuple[Fraction, ...]:
    """``Fraction(n, total)`` for ``n`` in ``0..total`` (kept: a deal has a few dozen totals,
    a Fraction is immutable; one look-up per chance node instead of one per outcome)."""
    return tuple(Fraction(n, total) for n in range(total + 1))


def deal_step(d: Dealing, outcome: int) -> Dealing | State:
    """Deal one item; after the last one, the initial :class:`State` (start player 0).

    Raises:
        IllegalAction: no item of that kind is left to deal (du-en:prep.deal); ``d`` is
            untouched.
    """
    if isinstance(outcome, bool) or not isinstance(outcome, int) or \
            not 0 <= outcome < OUTCOMES or _remaining(d)[outcome] <= 0:
        raise IllegalAction(f"chance {outcome}", "no such item is left to deal", DEAL_CLAUSES)
    dealt = (*d.dealt, outcome)
    c = d.config
    k = len(dealt)
    if k < d.length:
        if k == c.reserve_size or k == c.reserve_size + c.board.size:
            return Dealing(c, dealt)  # a new part of the deal: counted afresh when asked
        left = list(_remaining(d))
        left[outcome] -= 1
        return Dealing(c, dealt, tuple(left))
    return initial_state(c, setup_of(c, dealt))


def setup_of(config: Config, dealt: tuple[int, ...]) -> Setup:
    """The :class:`Setup` a whole deal path describes (start player 0)."""
    r, b = config.reserve_size, config.board.size
    lids: tuple[int | None, ...] = tuple(
        None if x == NO_LID_OUTCOME else RAT if x == RAT_OUTCOME else x for x in dealt[r:r + b])
    rest = dealt[r + b:]
    share = len(rest) // config.players
    rows = tuple(rest[p * share:(p + 1) * share] for p in range(config.players))
    return Setup(lids, dealt[:r], rows, 0)


def setup_outcomes(setup: Setup) -> list[int]:
    """The deal path (outcome codes, in deal order) that deals ``setup``."""
    out = [int(x) for x in setup.reserve]
    out += [NO_LID_OUTCOME if lid is None else RAT_OUTCOME if lid == RAT else int(lid)
            for lid in setup.lids]
    for row in setup.rows:
        out += [int(x) for x in row]
    return out


__all__ = ["DEAL_CLAUSES", "NO_LID_OUTCOME", "OUTCOMES", "RAT_OUTCOME", "DealItem", "Dealing",
           "chance_string", "deal_length", "deal_outcomes", "deal_step", "setup_of",
           "setup_outcomes"]
