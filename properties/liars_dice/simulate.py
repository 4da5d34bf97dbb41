"""Liar's Dice's capability ``simulate``: the seeded first roll (``new_seeded_state``),
uniformly random bids and calls, later rolls drawn by the seeded generator, and a log in the
game's terms: each seat's dice, each bid and call, each showdown (ld-wp:challenge.count,
ld-wp:challenge.lose) and the winner (ld-wp:end.last). Unless everything is asked for, the
log is shown per player (``[P1] ...``): the others' dice stay hidden until a call reveals
them (ld-wp:round.roll).
"""

from __future__ import annotations

from collections.abc import Sequence

from ruleproof.model.api import CHANCE
from ruleproof.model.liars_dice.rules import Table
from ruleproof.properties.simulate import Played, UniformPlay


def _dice(cup: tuple[int, ...]) -> str:
    return "".join(map(str, sorted(cup))) or "-"


def log_lines(played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
    """The log of a played game: everything, or each player's view labelled ``[NAME]``."""
    start: Table = played.start.model
    n = len(start.cups)
    who = tuple(names) if names and len(names) >= n else tuple(f"P{p + 1}" for p in range(n))
    events: list[tuple[int | None, str, str]] = []
    for p, cup in enumerate(start.rolled):
        if cup:
            events.append((p, f"{who[p]} rolls {_dice(cup)}", f"{who[p]} rolls"))
    for step in played.steps:
        before, after = step.before.model, step.after.model
        if step.actor == CHANCE:
            p = next(q for q in range(n) if after.rolled[q] != before.rolled[q])
            events.append((p, f"{who[p]} rolls a {after.rolled[p][-1]}", f"{who[p]} rolls a die"))
            continue
        events.append((None, f"{who[step.actor]}: {step.action}", ""))
        if len(after.ended) > len(before.ended):
            s = after.ended[-1]
            dice = " ".join(f"{who[p]} {_dice(c)}" for p, c in enumerate(s.dice) if c)
            events.append((None, f"showdown ({dice}): {s.count} count for {s.bid}; "
                                 f"{who[s.loser]} loses a die", ""))
    w = played.final.winner()
    end = f"{who[w]} wins" if w is not None else "No winner: the game was cut off"
    if full_view:
        return [text for _only, text, _hidden in events] + [end]
    out: list[str] = []
    for view in range(n):
        out += [f"[{who[view]}] " + (text if only in (None, view) else hidden)
                for only, text, hidden in events]
    return [*out, end]


class LiarsSimulation(UniformPlay):
    """See the module docstring."""

    policy = "uniformly random legal bids and calls"
    names = True
    hidden = True

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        return log_lines(played, names, full_view)


SIMULATION = LiarsSimulation()
"""The capability ``simulate``."""

__all__ = ["SIMULATION", "LiarsSimulation", "log_lines"]
