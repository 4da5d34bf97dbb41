"""Kuhn poker's part of discovery (capability ``"discovery"``, :data:`DISCOVERY`, a
:class:`~ruleproof.properties.contracts.discovery.DiscoveryGame`): what the clause contracts of
kuhn-wp leave open, searched by the generic searches.

* Action space: both decisions (``pass``, ``bet``) at every decision.
* Situations: ``first`` (no decision yet), ``after-pass`` (a pass, no bet standing),
  ``facing-bet``.
* Perturbations of a successor, each read by the contracts as a
  :class:`~ruleproof.properties.kuhn_poker.contracts.Table`: the other player takes the pot,
  the pot pays a chip more or less, the hand ends or goes on when it should not, the same
  player decides again, the cards are shown or hidden, a chip more or less in the pot, the
  decision is not recorded. Every one breaks a contract (no finding) unless a clause leaves
  it open.
* No register entry explains a finding (the register has none), no translation, no cycle;
  the symbolic layer (properties/kuhn_poker/symbolic.py) proves its laws, so it adds no
  finding here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.model.kuhn_poker.rules import RANKS, Hand, Move
from ruleproof.properties.contracts.discovery import Budget, Finding, Perturbation
from ruleproof.properties.plugin import RuleSet

from .contracts import Table, facing_bet, view


def situation(state: Any) -> str:
    """``first``, ``after-pass`` or ``facing-bet`` (or ``over``, ``deal``)."""
    t = view(state)
    if len(t.cards) < 2:
        return "deal"
    if t.over:
        return "over"
    if not t.moves:
        return "first"
    return "facing-bet" if facing_bet(t.moves) else "after-pass"


def perturbations(state: Any, action: Any, nxt: Any) -> Iterable[Perturbation]:
    """Alternatives to the successor ``nxt`` (see the module docstring), each differing from
    it."""
    t = view(nxt)
    out: list[tuple[str, Table, tuple[str, ...]]] = []
    if t.winner is not None:
        out.append(("the other player takes the pot", replace(t, winner=1 - t.winner),
                    ("winner",)))
        out += [(f"the pot pays {t.won + d}", replace(t, won=t.won + d), ("won",))
                for d in (-1, 1) if t.won is not None and t.won + d >= 0]
        out.append(("the hand goes on", replace(t, over=False, winner=None, won=None,
                                                to_move=len(t.moves) % 2),
                    ("winner", "won", "to_move")))
        out.append(("the cards are shown" if not t.shown else "no card is shown",
                    replace(t, shown=() if t.shown else t.cards), ("shown",)))
    else:
        mover = view(state).to_move
        if mover is not None:
            out.append(("the hand ends, the decider takes the pot",
                        replace(t, over=True, to_move=None, winner=mover, won=1),
                        ("winner", "won", "to_move")))
            out.append(("the same player decides again", replace(t, to_move=mover),
                        ("to_move",)))
    if t.moves:
        out.append(("the decision is not recorded", replace(t, moves=t.moves[:-1]), ("moves",)))
    for seat in (0, 1):
        for d in (-1, 1):
            pot = list(t.pot)
            pot[seat] += d
            out.append((f"seat {seat} has a chip {'more' if d > 0 else 'less'} in the pot",
                        replace(t, pot=(pot[0], pot[1])), ("pot",)))
    if len(t.cards) == 2:
        third = next(c for c in range(len(RANKS)) if c not in t.cards)
        out.append(("a card is swapped for the third", replace(t, cards=(third, t.cards[1])),
                    ("cards",)))
    return [(name, alt, fields) for name, alt, fields in out if alt != t]


@dataclass(frozen=True)
class KuhnDiscovery:
    """The capability ``"discovery"`` (see the module docstring)."""

    default_rule_sets: tuple[str, ...] = ("kuhn-wp/2",)

    def questions(self, state: Any) -> Sequence[Any]:
        """Both decisions."""
        return (Move.PASS, Move.BET)

    def situation(self, state: Any) -> str:
        return situation(state)

    def target(self, state: Any, action: Any) -> str:
        return ""

    def why_illegal(self, state: Hand, action: Any) -> tuple[str, ...]:
        """The clauses the model names refusing ``action``."""
        from ruleproof.model.kuhn_poker.rules import act

        try:
            act(state, action)
        except IllegalAction as exc:
            return exc.clauses
        return ()

    def perturbations(self, state: Any, action: Any, nxt: Any) -> Iterable[Perturbation]:
        return perturbations(state, action, nxt)

    def explain(self, rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
        """Unchanged: the register has no entry to explain a finding."""
        return list(findings)

    def translation(self, players: int, budget: Budget, deadline: float | None = None
                    ) -> list[Finding]:
        """None: one text."""
        return []

    def cycle_key(self, rs: RuleSet) -> tuple[str, tuple[str, ...]]:
        return (f"cycle under {rs.name}", ("kuhn-wp:rules.showdown", "kuhn-wp:rules.fold"))

    def symbolic(self) -> list[Finding]:
        """None: the symbolic layer's laws are proved, not left open."""
        return []

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        """A scenario file replaying the finding's witness: the seeded deal, the actions.

        Raises:
            ValueError: the witness does not replay.
        """
        from ruleproof.properties.scenarios import run_scenario

        actions = [*finding.prefix, finding.action]
        quoted = ", ".join(f'"{a}"' for a in actions)
        text = "\n".join([
            f"# Discovery finding {finding.key} ({finding.rule_set})", 'game = "kuhn-poker"',
            f'title = "{finding.key}"',
            "clauses = [" + ", ".join(f'"{c}"' for c in finding.clauses) + "]",
            f"actions = [{quoted}]", "", "[setup]", f"seed = {finding.seed}", "",
            "[expect]", f'"log contains" = "{actions[-1]}"', ""])
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "witness.toml"
            path.write_text(text, encoding="utf-8")
            if not run_scenario(path).passed:
                raise ValueError(f"the witness of {finding.key} does not replay")
        return text


DISCOVERY = KuhnDiscovery()
"""The capability ``"discovery"`` of Kuhn poker's plugin record."""

__all__ = ["DISCOVERY", "KuhnDiscovery", "perturbations", "situation"]
