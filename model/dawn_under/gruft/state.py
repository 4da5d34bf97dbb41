"""The expansion's part of a Dawn Under state, its phases, actions and events (gruft-en).

"Frische Luft für die Gruft" adds Count Rucola with his post, two bats per player and graves
left open until the end of the turn. Its part of the state lives in ``State.extension`` as a
:class:`Gruft`; read it with :func:`part`. All of it lies open on the table
(gruft-en:prep.count, gruft-en:prep.bats), so observations carry it whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import cast

from ruleproof.model.dawn_under.state import ExpansionAction, State


class GruftPhase(Enum):
    """The decisions the expansion adds to the base phases."""

    COUNT_OPEN = "count-open"  # the holder's turn starts by opening the Count's grave
    COUNT_PLACE = "count-place"  # the holder stands the Count on a grave (turn over)
    COUNT_MOVE = "count-move"  # the holder moves the Count into the next quarter
    BAT = "bat"  # a bat claims a grave is empty: the next player believes or doubts
    BAT_GIFT = "bat-gift"  # a believed bat found a vampire: its owner picks the receiver
    PUT = "put"  # an outermost vampire goes into ``pending`` whatever its colour


class GruftEvent(Enum):
    """The expansion's events (all public, like the base game's)."""

    COUNT_GET = "count-get"
    COUNT_PLACE = "count-place"
    COUNT_OPEN = "count-open"
    COUNT_LOST = "count-lost"
    BAT = "bat"
    BELIEVE = "believe"
    DOUBT = "doubt"
    BAT_OPEN = "bat-open"
    PUT = "put"


@dataclass(frozen=True, slots=True)
class BatClaim:
    """A bat standing on ``grave``: its ``owner`` claims the grave is empty (gruft-en:bats.declare);
    ``believed`` lists the players who believed so far, in turn order (gruft-en:bats.ask)."""

    grave: int
    owner: int
    believed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Gruft:
    """The parts of the expansion gruft-en in a state (``State.extension``).

    Attributes:
        bats: per player, bats in front of them (gruft-en:prep.bats).
        bats_out: per player, bats used and back in the box (gruft-en:bats.once).
        open_graves: graves opened in the running turn, open until it ends
            (gruft-en:play.keep-open).
        count_grave: the grave the Count Rucola figure stands on (None: on the post).
        post: the player the post stands in front of; None: in the middle of the board
            (gruft-en:prep.count).
        bat: the bat claim being answered (phase BAT, and until the grave is dealt with).
        putter: who puts a vampire into ``pending`` in phase PUT.
        then_put: who puts a vampire into ``pending`` once the pending hand-overs are done.
        streak: matching placements counting toward the Count (gruft-en:count.get-three).
        next_turn: whose turn starts once the Count is stood on a grave (phase COUNT_PLACE).
    """

    bats: tuple[int, ...]
    bats_out: tuple[int, ...]
    open_graves: tuple[int, ...] = ()
    count_grave: int | None = None
    post: int | None = None
    bat: BatClaim | None = None
    putter: int | None = None
    then_put: int | None = None
    streak: int = 0
    next_turn: int | None = None


class _GruftDraft:
    """A writable twin of :class:`Gruft` (the same slots), the expansion's part of a
    transition's draft state: drafted the first time the transition changes the part
    (``rules._part``) and sealed with the state (the engine's ``_seal``, through the
    ``sealed_as`` that the engine's ``slot_updater`` gives this class). The annotations mirror
    :class:`Gruft`'s fields (tests/test_transition_drafts.py checks)."""

    __slots__ = Gruft.__slots__

    bats: tuple[int, ...]
    bats_out: tuple[int, ...]
    open_graves: tuple[int, ...]
    count_grave: int | None
    post: int | None
    bat: BatClaim | None
    putter: int | None
    then_put: int | None
    streak: int
    next_turn: int | None


def part(state: State) -> Gruft | None:
    """The expansion's part of ``state``; None when the expansion is not played (inside a
    transition the part may be its draft, :class:`_GruftDraft`, read alike)."""
    ext = state.extension
    if ext.__class__ is _GruftDraft:
        return cast(Gruft, ext)
    return ext if isinstance(ext, Gruft) else None


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class PlayBat(ExpansionAction):
    """Put one of your bats on ``grave`` instead of opening a grave, claiming it is empty
    (gruft-en:bats.declare)."""

    grave: int

    def __str__(self) -> str:
        return f"bat {self.grave}"


@dataclass(frozen=True, slots=True)
class Believe(ExpansionAction):
    """Answer a bat's claim: believe it (gruft-en:bats.ask)."""

    def __str__(self) -> str:
        return "believe"


@dataclass(frozen=True, slots=True)
class Doubt(ExpansionAction):
    """Answer a bat's claim: doubt it (gruft-en:bats.ask, gruft-en:bats.open)."""

    def __str__(self) -> str:
        return "doubt"


@dataclass(frozen=True, slots=True)
class CountTo(ExpansionAction):
    """Stand the Count Rucola figure on ``grave`` (gruft-en:count.place, gruft-en:count.move)."""

    grave: int

    def __str__(self) -> str:
        return f"count {self.grave}"


@dataclass(frozen=True, slots=True)
class GiftTo(ExpansionAction):
    """Hand the vampire found under a believed bat to ``player``
    (gruft-en:bats.believed-vampire)."""

    player: int

    def __str__(self) -> str:
        return f"gift {self.player}"
