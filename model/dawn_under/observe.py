"""Observations (information states) of Dawn Under.

Everything that is ever shown in Dawn Under is shown to all players (du-en:ch1.open: the lid is
turned so everybody sees it), and nobody, not even the owner, knows a face-down vampire
(du-en:prep.row). So all players' observations carry the same public information; they differ
only in ``player``. A lid seen once stays known while it lies on its grave (``State.known``),
until it is replaced from the reserve (du-en:ch4.cleanup).

An :class:`Observation` is *not* a perfect-recall information state: two histories that differ in
what a player did can end in equal observations (open a grave whose lid everybody knows, find it
empty, leave it -- which grave was opened is forgotten; found by
``properties/recall.py``). The perfect-recall information state is
:class:`InformationState`: the observations along the history and the actions taken, all of
which are public in Dawn Under.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ruleproof.model.dawn_under.engine import current_player
from ruleproof.model.dawn_under.state import Action, Content, Gift, Plague, State


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``player`` knows.

    Attributes:
        player: the observer.
        lids: per grave: the lid value if known (colour index or -1 for a rat), None if unseen;
            graves without a lid show None and ``lid_present`` False.
        lid_present: per grave, whether a lid lies on it.
        contents: per grave contents (public).
        rows: per player, the row with face-down vampires as None.
        stakes_held, stakes_path, garlic_hand, reserve_size, removed_rats: public counts.
        phase, to_move, turn_player, pending, plague, gifts, in_transit, winner: public flow.
        extension: the expansion's part of the state (``State.extension``); what the
            expansions add lies open on the table.
    """

    player: int
    lids: tuple[int | None, ...]
    lid_present: tuple[bool, ...]
    contents: tuple[Content, ...]
    rows: tuple[tuple[int | None, ...], ...]
    stakes_held: tuple[int, ...]
    stakes_path: int
    garlic_hand: tuple[int, ...]
    reserve_size: int
    removed_rats: int
    phase: Enum
    to_move: int
    turn_player: int
    may_stop: bool
    pending: int | None
    plague: Plague | None
    gifts: tuple[Gift, ...]
    in_transit: int | None
    winner: int | None
    extension: object = None


def observation(state: State, player: int) -> Observation:
    """The information state of ``player`` in ``state``.

    Raises:
        ValueError: if ``player`` is not a player of the game.
    """
    if not 0 <= player < state.config.players:
        raise ValueError(f"no player {player}")
    return Observation(
        player=player,
        lids=tuple(lid if k else None for lid, k in zip(state.lids, state.known, strict=True)),
        lid_present=tuple(lid is not None for lid in state.lids),
        contents=state.contents,
        rows=tuple(tuple(v.colour if v.face_up else None for v in row) for row in state.rows),
        stakes_held=state.stakes_held,
        stakes_path=state.stakes_path,
        garlic_hand=state.garlic_hand,
        reserve_size=len(state.reserve),
        removed_rats=state.removed_rats,
        phase=state.phase,
        to_move=current_player(state),
        turn_player=state.turn_player,
        may_stop=state.may_stop,
        pending=state.pending,
        plague=state.plague,
        gifts=state.gifts,
        in_transit=state.in_transit,
        winner=state.winner,
        extension=state.extension,
    )


@dataclass(frozen=True, slots=True)
class InformationState:
    """What ``player`` knows and remembers after a history: the observation after every step
    and every action taken (Dawn Under has no private actions: each is made in view of all,
    du-en:ch1.open).

    Attributes:
        player: the observer.
        observations: the observation of the start and after each action, in order.
        actions: the actions of the history as text, each with the player who took it.
    """

    player: int
    observations: tuple[Observation, ...]
    actions: tuple[tuple[int, str], ...]


def information_state(history: Sequence[State], actions: Sequence[Action],
                      player: int) -> InformationState:
    """The perfect-recall information state of ``player`` after ``history`` (the states, the
    start first) reached by ``actions`` (one fewer than the states).

    Raises:
        ValueError: if the lengths do not fit, or ``player`` is not a player.
    """
    if len(history) != len(actions) + 1:
        raise ValueError(f"{len(history)} states need {len(history) - 1} actions, "
                         f"got {len(actions)}")
    return InformationState(
        player, tuple(observation(s, player) for s in history),
        tuple((current_player(s), str(a)) for s, a in zip(history, actions, strict=False)))
