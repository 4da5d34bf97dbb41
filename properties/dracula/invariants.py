"""State invariants of the Dracula model. Each returns None or a readable violation.

Clauses: dracula-en:contents.components (30 encounter and 20 action cards, 4 life markers each,
4 barriers), dracula-en:pay.barrier-restrictions, dracula-en:barriers.side-by-side,
dracula-en:setup.figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ruleproof.model.api import GameState
from ruleproof.model.dracula.data import Side
from ruleproof.model.dracula.engine import State
from ruleproof.model.dracula.rules import barrier_violation

Invariant = Callable[[State], str | None]


def conservation_of(encounter_total: int = 30, action_per_side: int = 10,
                    cards: object = None) -> Invariant:
    """The conservation invariant for a deck of ``encounter_total`` encounter cards and
    ``action_per_side`` action cards a side (30 and 10 in the full game,
    dracula-en:contents.components; a reduced card set for exhaustive exploration passes its
    own numbers, ``cards`` only documents which set it is for)."""

    def conservation(s: State) -> str | None:
        """Every encounter card is in exactly one place (board, hands, deal pool, discard
        piles, won targets) and every action card of a side in exactly one of its current,
        set-aside or discard piles."""
        places = Counter[str]()
        for c in s.board_cards:
            if c is not None:
                places[c] += 1
        for side in (0, 1):
            places.update(s.hand[side])
            places.update(s.enc_discard[side])
            places.update(s.captured[side])
        places.update(s.pool)
        expected = {c.id for c in s.cards.encounter}
        missing = sorted(expected - set(places))
        twice = sorted(c for c, n in places.items() if n > 1)
        alien = sorted(set(places) - expected)
        if missing or twice or alien or len(expected) != encounter_total:
            return (f"encounter cards: missing {missing}, more than once {twice}, unknown "
                    f"{alien}")
        for side in (0, 1):
            mine = Counter([*s.current[side], *s.aside[side], *s.adiscard[side]])
            own = set(s.cards.action_of(Side(side)))
            if set(mine) != own or any(n != 1 for n in mine.values()) or (
                    action_per_side >= 0 and len(own) != action_per_side):
                return f"{Side(side).label}'s action cards are not exactly its cards: {dict(mine)}"
        for side in (0, 1):
            for c in s.captured[side]:
                if int(s.cards.enc(c).owner) == side:
                    return f"{Side(side).label} has won its own card {c}"
        return None

    return conservation


conservation = conservation_of()
"""Every one of the 30 encounter cards is in exactly one place (board, hands, deal pool,
discard piles, won targets) and every action card of a side in exactly one of its current,
set-aside or discard piles (dracula-en:contents.components)."""


def life_bounds(s: State) -> str | None:
    """Life markers stay within 0..4, and 0 only once that side has lost."""
    cap = s.board.life_markers
    for side in (0, 1):
        life = s.life[side]
        if not 0 <= life <= cap:
            return f"{Side(side).label} has {life} life markers (allowed 0..{cap})"
        if life == 0 and s.winner != 1 - side:
            return f"{Side(side).label} has no life marker left but the game goes on"
    return None


def barriers_ok(s: State) -> str | None:
    """At most 4 barriers, on distinct borders, none side by side, and the board connected
    (every location reachable, no figure enclosed)."""
    placed = [e for e in s.barriers if e is not None]
    if len(s.barriers) != 4:
        return f"{len(s.barriers)} barrier slots"
    why = barrier_violation(s.board, placed, s.rules.barrier_adjacency)
    if why is not None:
        return f"barriers {placed} break {why}"
    return None


def figures_on_board(s: State) -> str | None:
    """Both figures stand on one of the 12 locations."""
    for side in (0, 1):
        if not 0 <= s.pos[side] < s.board.size:
            return f"{Side(side).label}'s figure is off the board at {s.pos[side]}"
    return None


INVARIANTS: dict[str, Invariant] = {
    "conservation": conservation,
    "life-bounds": life_bounds,
    "barriers": barriers_ok,
    "figures-on-board": figures_on_board,
}


def violations(s: State, invariants: dict[str, Invariant] | None = None) -> list[str]:
    """All invariant violations of ``s`` as ``name: text`` lines."""
    out = []
    for name, fn in (invariants or INVARIANTS).items():
        v = fn(s)
        if v is not None:
            out.append(f"{name}: {v}")
    return out


class InterfaceInvariants:
    """Dracula's invariants over the one game interface (the ``invariants`` capability,
    :class:`ruleproof.properties.play.GameInvariants`): every invariant of ``table`` (default
    :data:`INVARIANTS`) in every state; no baseline (the card set is in the state) and no
    transition properties.
    """

    def __init__(self, table: dict[str, Invariant] | None = None) -> None:
        self.table = table or INVARIANTS

    def baseline(self, state: GameState) -> None:
        """None: the conservation laws read the card set from the state."""
        return None

    def violations(self, state: GameState, baseline: object) -> list[str]:
        """:func:`violations` of the engine state."""
        return violations(state.model, self.table)

    def transition_violations(self, before: GameState, after: GameState) -> list[str]:
        """None: every Dracula property is a state invariant."""
        return []


INTERFACE_INVARIANTS = InterfaceInvariants()
"""The ``invariants`` capability of the plugin record."""
