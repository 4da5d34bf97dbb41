"""Random play over the one game interface, for ``ruleproof simulate`` and random walks.

:func:`play` plays one game on :class:`ruleproof.model.api.GameState`: it asks the game's
capability ``simulate`` (a :class:`Simulation`) for the set-up, each player action and each
chance outcome, applies them through the interface, and records every step. The readable log
(``ruleproof simulate``) is the capability's :meth:`Simulation.log` of the result: each game
writes it in its own terms, and says whether it takes player names and whether it shows each
seat's view (hidden information) unless everything is asked for.

Determinism: one ``random.Random(seed)`` drives the set-up (where the game deals from it) and
every choice, so the same seed gives the same game in any process. :class:`UniformPlay` is the
default behaviour (the seeded set-up, uniformly random legal actions in the engine's order,
chance outcomes by their exact probabilities); a game overrides what it does differently.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ruleproof.model.api import CHANCE, GameBase, GameState

CAPABILITY = "simulate"
"""The plugin capability :func:`play` and ``ruleproof simulate`` need."""


@dataclass(frozen=True)
class Step:
    """One applied step of a played game.

    Attributes:
        before: the state the step was taken in.
        actor: the seat that acted, or :data:`ruleproof.model.api.CHANCE`.
        action: the typed action (or chance outcome).
        after: the successor; ``after.node.seen`` is what the step showed.
    """

    before: GameState
    actor: int
    action: Any
    after: GameState


@dataclass(frozen=True)
class Played:
    """A played game.

    Attributes:
        seed: the seed it was played from.
        max_steps: the cap on player actions it was played with.
        start: the state after the set-up.
        steps: every step, chance steps included, in order.
    """

    seed: int
    max_steps: int
    start: GameState
    steps: tuple[Step, ...]

    @property
    def final(self) -> GameState:
        """The last state."""
        return self.steps[-1].after if self.steps else self.start

    @property
    def actions(self) -> tuple[Any, ...]:
        """The player actions (typed), in order."""
        return tuple(s.action for s in self.steps if s.actor != CHANCE)


def seat_views(lines: Sequence[str]) -> tuple[str, ...]:
    """The seats whose views a per-seat log shows (its ``[Seat] ...`` labels, in order of
    first appearance); empty for a log of one view."""
    import re

    found: dict[str, None] = {}
    for line in lines:
        m = re.match(r"\[([^\]]+)\] ", line)
        if m:
            found.setdefault(m.group(1))
    return tuple(found)


def one_view(lines: Sequence[str], view: str) -> list[str]:
    """The lines of a per-seat log seen by ``view`` (a seat label, or its slug: ``van-helsing``
    for ``[Van Helsing]``), label removed; unlabelled lines are kept.

    Raises:
        MalformedInput: ``view`` is not a seat of the log (naming the seats).
    """
    from ruleproof.errors import MalformedInput

    def slug(x: str) -> str:
        return "-".join(x.lower().split())

    seats = {slug(s): s for s in seat_views(lines)}
    seat = seats.get(slug(view))
    if seat is None:
        raise MalformedInput(f"--view {view}: the log's views are "
                             f"{', '.join([*seats, 'all']) if seats else 'only one (all)'}")
    label = f"[{seat}] "
    return [x[len(label):] if x.startswith(label) else x for x in lines
            if x.startswith(label) or not x.startswith("[")]


class Simulation(Protocol):
    """What a game supplies to random play and to ``ruleproof simulate`` (capability
    ``simulate``). :class:`UniformPlay` implements everything but :meth:`log`.

    Attributes:
        policy: one line saying how the actions are chosen (notes of random walks).
        names: whether :meth:`log` takes player names (``simulate --names``).
        hidden: whether :meth:`log` shows each seat's view unless ``full_view`` is asked for
            (``simulate --full-view``); False: the log always shows everything.
    """

    policy: str
    names: bool
    hidden: bool

    def deal(self, game: GameBase[Any], seed: int, rng: random.Random) -> GameState:
        """The state after the set-up of a simulated game (``rng`` is the game's generator,
        also used for every later choice)."""
        ...

    def choose(self, state: GameState, rng: random.Random) -> Any:
        """A typed legal action of the seat to move."""
        ...

    def chance(self, state: GameState, rng: random.Random) -> Any:
        """A typed chance outcome at a chance node."""
        ...

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        """The readable log of ``played`` in the game's terms, ending with the result
        (``names``: player names, if the game takes them; ``full_view``: everything, for a
        game whose log is per seat)."""
        ...


class UniformPlay:
    """The default of every :class:`Simulation` member: the seeded set-up
    (``game.new_seeded_state(seed)``), uniformly random legal actions in the engine's order,
    chance outcomes drawn by their exact probabilities, and a plain log (:meth:`log`); a
    game's own simulation overrides ``log`` to write in the game's terms."""

    policy = "uniformly random legal actions"
    names = True
    hidden = False

    def deal(self, game: GameBase[Any], seed: int, rng: random.Random) -> GameState:
        """``game.new_seeded_state(seed)`` (``rng`` unused)."""
        return game.new_seeded_state(seed)

    def choose(self, state: GameState, rng: random.Random) -> Any:
        """``legal[rng.randrange(len(legal))]`` over the engine's order."""
        legal = state.legal_typed_actions()
        return legal[rng.randrange(len(legal))]

    def chance(self, state: GameState, rng: random.Random) -> Any:
        """An outcome drawn with its exact probability."""
        outcomes = state.chance_outcomes()
        pick = rng.random()
        total = 0.0
        chosen = outcomes[-1][0]
        for outcome, p in outcomes:
            total += float(p)
            if pick < total:
                chosen = outcome
                break
        return state.game.chance_table.from_id(chosen)

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        """One line per step (``P1: <action>``, ``chance: <outcome>``, the action's text),
        then the result: the winner (or none) and the returns; ``names`` replace ``P1``..."""
        def seat(n: int) -> str:
            return names[n] if names is not None and n < len(names) else f"P{n + 1}"

        out = [f"{'chance' if s.actor == CHANCE else seat(s.actor)}: {s.action}"
               for s in played.steps]
        final = played.final
        if not final.is_terminal():
            out.append(f"stopped after {len(played.actions)} actions (--max-steps)")
            return out
        winner = final.winner()
        out.append(f"winner: {seat(winner) if winner is not None else 'none'}; returns: "
                   + ", ".join(f"{seat(i)} {r:g}" for i, r in enumerate(final.returns())))
        return out


def play(game: GameBase[Any], sim: Simulation, seed: int, max_steps: int,
         start: GameState | None = None) -> Played:
    """Play ``game`` from ``seed``: the set-up (``sim.deal``, or ``start``), then
    ``sim.choose`` for each player action and ``sim.chance`` at each chance node, until the game
    is over (by the rules or the game's truncation) or ``max_steps`` player actions are done.
    One ``random.Random(seed)`` drives everything."""
    rng = random.Random(seed)
    state = start if start is not None else sim.deal(game, seed, rng)
    first = state
    steps: list[Step] = []
    moves = 0
    while not state.is_terminal() and moves < max_steps:
        actor = state.current_player()
        if actor == CHANCE:
            action = sim.chance(state, rng)
        else:
            action = sim.choose(state, rng)
            moves += 1
        after = state.apply_typed(action)
        steps.append(Step(state, actor, action, after))
        state = after
    return Played(seed, max_steps, first, tuple(steps))


__all__ = ["CAPABILITY", "Played", "Simulation", "Step", "UniformPlay", "play"]
