"""Kuhn poker's capability ``simulate`` (:class:`ruleproof.properties.simulate.Simulation`):
the seeded deal (``new_seeded_state``), uniformly random decisions, and a log in the game's
terms: the deal, each decision, the result (kuhn-wp:rules.fold, kuhn-wp:rules.showdown,
kuhn-wp:rules.payoff). Unless everything is asked for, the log is shown per player
(``[P1] ...``): the other player's card stays hidden until a showdown (kuhn-wp:rules.deal).
It takes player names.
"""

from __future__ import annotations

from collections.abc import Sequence

from ruleproof.model.api import CHANCE
from ruleproof.model.kuhn_poker.rules import RANKS, Hand, pot, shown, winner
from ruleproof.properties.simulate import Played, UniformPlay


def _result(h: Hand, who: Sequence[str]) -> str:
    w = winner(h)
    if w is None:
        return "No winner: the hand was cut off before its end"
    up = shown(h)
    how = (f"showdown {RANKS[up[0]]} vs {RANKS[up[1]]}" if up else f"{who[1 - w]} folds")
    return f"{how}: {who[w]} wins {pot(h)[1 - w]} chip{'s' if pot(h)[1 - w] != 1 else ''}"


def log_lines(played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
    """The log of a played hand: everything, or each player's view labelled ``[NAME]``."""
    who = tuple(names) if names and len(names) >= 2 else ("P1", "P2")
    start: Hand = played.start.model
    events: list[tuple[int | None, str, str]] = []  # (only this seat sees it, text, hidden)
    for seat, card in enumerate(start.cards):
        events.append((seat, f"{who[seat]} is dealt {RANKS[card]}",
                       f"{who[seat]} is dealt a card"))
    for step in played.steps:
        if step.actor == CHANCE:
            seat = len(step.before.model.cards)
            card = step.after.model.cards[-1]
            events.append((seat, f"{who[seat]} is dealt {RANKS[card]}",
                           f"{who[seat]} is dealt a card"))
        else:
            events.append((None, f"{who[step.actor]}: {step.action}", ""))
    end = _result(played.final.model, who)
    if full_view:
        return [text for _only, text, _hidden in events] + [end]
    out: list[str] = []
    for view in (0, 1):
        out += [f"[{who[view]}] " + (text if only in (None, view) else hidden)
                for only, text, hidden in events]
    return [*out, end]


class KuhnSimulation(UniformPlay):
    """See the module docstring."""

    policy = "uniformly random legal decisions"
    names = True
    hidden = True

    def log(self, played: Played, names: Sequence[str] | None, full_view: bool) -> list[str]:
        """:func:`log_lines`."""
        return log_lines(played, names, full_view)


SIMULATION = KuhnSimulation()
"""The capability ``simulate``."""

__all__ = ["SIMULATION", "KuhnSimulation", "log_lines"]
