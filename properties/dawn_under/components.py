"""Dawn Under's components as moves (capability ``"components"``, :data:`COMPONENTS`; the search
is :mod:`ruleproof.properties.discovery.components`).

Per decision, every token a player holds to every place it could go: a giver's vampire from
any position of the row or to any player, a received vampire into any position of the row or
kept aside, a vampire from inside the row into the grave just opened (or the Count's or a
bat's grave), a vampire handed to another player or a stake put back when nothing is owed, a
bat on the Count's grave or on a grave left open, the vampire of a believed bat given to its own
owner. The moves the model has no action type for are the frozen dataclasses below; the clause
contracts of du-en, du-cs and gruft-en judge them like the model's actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ruleproof.model.dawn_under.gruft.state import GiftTo, GruftPhase, PlayBat, part
from ruleproof.model.dawn_under.state import RAT, End, OpenGrave, Phase, State
from ruleproof.properties.dawn_under.moves import (
    GiveAt,
    GiveTo,
    HandOver,
    PlaceAt,
    ReceiveAside,
    ReceiveAt,
    StakeBack,
)
from ruleproof.properties.discovery.components import Move

# ----------------------------------------------------------------------------- per decision


GIFT_CAUSE = {
    "du-en:ch2.gift": "as the stake gift",
    "du-en:ch3.other-garlic": "for another player's garlic",
    "du-en:ch3.own-garlic": "for the finder's own garlic",
    "gruft-en:bats.doubt-garlic": "for garlic under a doubted bat",
    "gruft-en:bats.believed-vampire": "from a believed bat's grave",
    "gruft-en:bats.doubt-vampire": "from a doubted bat's grave",
}
"""Why a hand-over is owed, in words (by the clause the engine records for it)."""


def _cause(state: State) -> str:
    return GIFT_CAUSE.get(state.gifts[0].clause, "as a gift") if state.gifts else ""


def _inner(row: Sequence[Any]) -> range:
    """Positions of a row that are not an end."""
    return range(1, len(row) - 1)


def moves(state: State) -> list[Move]:
    """The component moves of the decision ``state`` asks for (see the module docstring)."""
    phase = state.phase
    out: list[Move] = []
    gp = part(state)
    n = state.config.players
    if phase is Phase.GIVE and state.gifts:
        gift = state.gifts[0]
        row = state.rows[gift.giver]
        cause = _cause(state)
        clauses: tuple[str, ...] = (gift.clause,)
        for pos in _inner(row):
            out.append(Move(GiveAt(pos), f"a vampire from inside the row handed over {cause}",
                            f"Must the vampire handed over {cause} be one at an end of the "
                            "row, or may it be any vampire of the row?", clauses))
        for q in range(n):
            if q not in (gift.giver, gift.receiver):
                out.append(Move(GiveTo(End.LEFT, q), f"a vampire handed over {cause} to a "
                                "player it is not owed to",
                                "May the vampire go to another player than the one owed it?",
                                clauses))
    elif phase is Phase.RECEIVE and state.gifts:
        gift = state.gifts[0]
        row = state.rows[gift.receiver]
        bat = gift.clause in ("gruft-en:bats.believed-vampire", "gruft-en:bats.doubt-vampire")
        what = "the vampire from a bat's grave" if bat else "a received vampire"
        clauses = ("du-en:ch3.received-open", gift.clause)
        for pos in range(1, len(row)):
            out.append(Move(ReceiveAt(pos), f"{what} put between two vampires of the row",
                            "Where does a received vampire go: only at an end of the row, or "
                            "anywhere in it?", clauses))
        out.append(Move(ReceiveAside(), f"{what} kept beside the row, not in it",
                        "May received vampires be kept aside (a pool) instead of joining the "
                        "row?", clauses))
    elif phase in (Phase.PLACE, GruftPhase.PUT) and state.pending is not None:
        grave = state.pending
        actor = (gp.putter if phase is GruftPhase.PUT and gp is not None and
                 gp.putter is not None else _actor(state))
        row = state.rows[actor]
        lid = state.lids[grave]
        special = phase is GruftPhase.PUT
        for pos in _inner(row):
            if not special and row[pos].colour != lid:
                continue
            where = "the Count's or a bat's grave" if special else \
                "the grave just opened, of its colour"
            out.append(Move(PlaceAt(grave, pos), f"a vampire from inside the row put into "
                            f"{where}",
                            "May any vampire of the row be put to rest, or only an outermost "
                            "one?", ("du-en:ch1.outermost",)))
    elif phase is Phase.OPEN:
        actor = _actor(state)
        row = state.rows[actor]
        if row:
            for q in range(n):
                if q != actor:
                    out.append(Move(HandOver(End.LEFT, q), "an outermost vampire handed to "
                                    "another player while no gift is owed",
                                    "May a player hand a vampire to another player when no "
                                    "rule asks for it?", ("du-en:aim.win",)))
                    break
        if state.stakes_held[actor] > 0:
            out.append(Move(StakeBack(), "a held stake put back on the path before the third",
                            "May a player give stakes back before holding three?",
                            ("du-en:ch2.stakes-back",)))
        if gp is not None and state.plague is None:
            if gp.count_grave is not None and gp.bats[state.turn_player] > 0:
                out.append(Move(PlayBat(gp.count_grave), "a bat put on the grave the Count "
                                "keeps", "May a bat be put on the grave Count Rucola keeps?",
                                ("gruft-en:count.guard", "gruft-en:bats.declare"), True))
            if gp.count_grave is not None and gp.post != actor:
                out.append(Move(OpenGrave(gp.count_grave), "the grave the Count keeps opened "
                                "by a player who does not hold the Count",
                                "May another player open the grave Count Rucola keeps?",
                                ("gruft-en:count.guard",), True))
            for g in gp.open_graves:
                if gp.bats[state.turn_player] > 0 and state.lids[g] != RAT:
                    out.append(Move(PlayBat(g), "a bat put on a grave left open this turn",
                                    "May a bat be put on a grave that is open already?",
                                    ("gruft-en:play.keep-open", "gruft-en:bats.declare"),
                                    True))
                    break
    elif phase is GruftPhase.BAT_GIFT and gp is not None and gp.bat is not None:
        out.append(Move(GiftTo(gp.bat.owner), "the vampire from a believed bat's grave given "
                        "to the bat's own owner", "May the bat's owner give the vampire to "
                        "themselves ('to any player')?",
                        ("gruft-en:bats.believed-vampire",), True))
    return out


def _actor(state: State) -> int:
    return state.plague.current if state.plague is not None else state.turn_player


@dataclass(frozen=True)
class _Components:
    """Dawn Under's capability ``"components"`` (see
    :class:`ruleproof.properties.discovery.components.ComponentSpace`)."""

    def moves(self, state: Any) -> Sequence[Move]:
        return moves(state) if isinstance(state, State) else ()


COMPONENTS = _Components()
"""The capability ``"components"`` of Dawn Under's plugin record."""
