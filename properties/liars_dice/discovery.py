"""Liar's Dice's part of discovery (capability ``"discovery"``, :data:`DISCOVERY`, a
:class:`~ruleproof.properties.contracts.discovery.DiscoveryGame`): what the clause contracts of
ld-wp leave open, searched by the generic searches.

* Action space: every bid of the table up to the dice on the table, ``liar`` and ``spot-on``.
* Situations: ``opening`` (no bid yet), ``raise`` (a bid stands), ``roll``, ``over``.
* Targets: a bid against the standing one, as the signs of its quantity and face change
  (``q+ f-``: more dice of a lower face), so one question has one key.
* Perturbations of a successor (each a :class:`~ruleproof.model.liars_dice.rules.Table` the
  contracts read): after a call, the other side loses the die, nobody loses one, both do, or
  the game ends at once though two players hold dice; after a bid, a different bid is
  recorded, or the bid is credited to another seat; the opener of the next round changes.
  Each breaks a contract (no finding) unless a clause leaves it open.
* A finding is explained by the register entry (spec/liars_dice/ambiguities.toml) one of whose
  other readings, applied to the witness state, changes the action's legality (a legality
  finding) or the perturbed fields of the successor (an effect).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.liars_dice.rules import LIAR, SPOT, Bid, Call, Table, act, all_bids
from ruleproof.properties.contracts.discovery import Budget, Finding, Perturbation
from ruleproof.properties.plugin import RuleSet

from .contracts import deciding, holders, next_holder, standing


def _sign(new: int, old: int) -> str:
    return "+" if new > old else "=" if new == old else "-"


def situation(state: Any) -> str:
    """``opening``, ``raise``, ``roll`` or ``over``."""
    t: Table = state
    if len(holders(t)) <= 1 or (t.rules.rounds == "one" and t.ended):
        return "over"
    if not deciding(t):
        return "roll"
    return "raise" if t.bids else "opening"


def target(state: Any, action: Any) -> str:
    """A bid against the standing one (``q+ f-``); '' otherwise."""
    last = standing(state)
    if isinstance(action, Bid) and last is not None:
        return f"q{_sign(action.quantity, last[1].quantity)} f{_sign(action.face, last[1].face)}"
    return ""


def perturbations(state: Any, action: Any, nxt: Any) -> Iterable[Perturbation]:
    """Alternatives to the successor ``nxt`` (see the module docstring), each differing from
    it."""
    s: Table = state
    t: Table = nxt
    out: list[Perturbation] = []
    if isinstance(action, Call) and t.ended and len(t.ended) > len(s.ended):
        shown = t.ended[-1]
        other = shown.bidder if shown.loser == shown.caller else shown.caller
        cups = list(s.cups)
        cups[other] -= 1
        out.append(("the other side of the challenge loses the die",
                    replace(t, cups=tuple(cups), ended=(*t.ended[:-1],
                                                        replace(shown, loser=other)),
                            opener=other if cups[other] > 0 else next_holder(
                                replace(t, cups=tuple(cups)), other)),
                    ("cups", "ended", "opener")))
        out.append(("nobody loses a die", replace(t, cups=s.cups), ("cups",)))
        both = [n - (p in (shown.caller, shown.bidder)) for p, n in enumerate(s.cups)]
        out.append(("both sides lose a die", replace(t, cups=tuple(both)), ("cups",)))
        if t.rules.rounds != "one" and len(holders(t)) > 1:
            out.append(("the game ends with this challenge",
                        replace(t, rules=replace(t.rules, rounds="one")), ("rules",)))
        if t.rules.rounds == "one":
            out.append(("the game goes on to another round",
                        replace(t, rules=replace(t.rules, rounds="last")), ("rules",)))
        if len(holders(t)) > 1:
            nxt_opener = next_holder(t, t.opener)
            out.append(("another seat opens the next round", replace(t, opener=nxt_opener),
                        ("opener",)))
    if isinstance(action, Bid) and len(t.bids) > len(s.bids):
        seat, bid = t.bids[-1]
        other_face = bid.face % t.rules.sides + 1
        out.append(("another bid is recorded",
                    replace(t, bids=(*t.bids[:-1], (seat, Bid(bid.quantity, other_face)))),
                    ("bids",)))
        out.append(("the bid is credited to another seat",
                    replace(t, bids=(*t.bids[:-1], (next_holder(t, seat), bid))), ("bids",)))
    return [(name, alt, fields) for name, alt, fields in out if alt != t]


def _replay(rs: RuleSet, f: Finding) -> Any:
    """The engine state where ``f``'s action was taken (None if the witness does not replay)."""
    from ruleproof.properties.contracts.games import game_of, parse, settle

    game = game_of(rs)
    try:
        st = settle(rs, game.new_seeded_state(f.seed))
        for a in f.prefix:
            st = settle(rs, st.apply_typed(parse(game, a)))
    except (IllegalAction, MalformedInput, ValueError):
        return None
    return st.model


def _step(t: Table, a: Any) -> Table | None:
    try:
        return act(t.rules, t, a)
    except IllegalAction:
        return None


def explain(rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
    """Mark each finding with the register entry whose other reading changes the engine
    exactly there (see the module docstring)."""
    from ruleproof.properties.contracts.games import game_of, parse

    from .ambiguities import register

    out: list[Finding] = []
    for f in findings:
        about = set(f.subject if f.kind == "effect" else f.clauses)
        hit = ""
        s = _replay(rs, f)
        if s is not None and about:
            a = parse(game_of(rs), f.action)
            base = _step(s, a)
            for e in register():
                if hit:
                    break
                for r in e.readings:
                    current = s.rules.options[e.option]
                    if r.value == current:
                        continue
                    option = "raise_rule" if e.option == "raise" else e.option
                    alt = _step(replace(s, rules=replace(s.rules, **{option: r.value})), a)
                    if _differs(f, base, alt):
                        hit = e.id
                        break
        out.append(f.with_explanation(hit) if hit else f)
    return out


def _differs(f: Finding, base: Table | None, alt: Table | None) -> bool:
    if (alt is None) != (base is None):
        return f.kind != "effect"
    if alt is None or base is None or f.kind != "effect":
        return False
    if "rules" in f.fields:
        return alt.rules.rounds != base.rules.rounds or \
            (len(holders(alt)) > 1) != (len(holders(base)) > 1)
    return any(getattr(base, name) != getattr(alt, name) for name in f.fields)


@dataclass(frozen=True)
class LiarsDiscovery:
    """The capability ``"discovery"`` (see the module docstring)."""

    default_rule_sets: tuple[str, ...] = ("ld-wp/2", "ld-wp/3", "ld-wp spot_on=yes/2")

    def questions(self, state: Any) -> Sequence[Any]:
        """Every bid up to the dice on the table, ``liar``, and ``spot-on`` where the action
        table has it (the variant is played)."""
        t: Table = state
        calls = (LIAR, SPOT) if t.rules.spot_on == "yes" else (LIAR,)
        return (*[b for b in all_bids(t.rules) if b.quantity <= sum(t.cups)], *calls)

    def situation(self, state: Any) -> str:
        return situation(state)

    def target(self, state: Any, action: Any) -> str:
        return target(state, action)

    def why_illegal(self, state: Any, action: Any) -> tuple[str, ...]:
        """The clauses the model names refusing ``action``."""
        t: Table = state
        try:
            act(t.rules, t, action)
        except IllegalAction as exc:
            return exc.clauses
        return ()

    def perturbations(self, state: Any, action: Any, nxt: Any) -> Iterable[Perturbation]:
        return perturbations(state, action, nxt)

    def explain(self, rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
        return explain(rs, findings)

    def translation(self, players: int, budget: Budget, deadline: float | None = None
                    ) -> list[Finding]:
        """None: one text."""
        return []

    def cycle_key(self, rs: RuleSet) -> tuple[str, tuple[str, ...]]:
        return (f"cycle under {rs.name}", ("ld-wp:challenge.lose", "ld-wp:end.last"))

    def symbolic(self) -> list[Finding]:
        """None: no symbolic layer (docs/liars-dice.md says why)."""
        return []

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        """A scenario file replaying the finding's witness: the seeded roll, the actions
        before it (rolls of later rounds settled by the generic rule are not in the prefix,
        so only a first-round witness replays as a scenario).

        Raises:
            ValueError: the witness does not replay.
        """
        from ruleproof.properties.scenarios import run_scenario

        s = _replay(rs, finding)
        if s is None or s.ended:
            raise ValueError(f"the witness of {finding.key} does not replay as a scenario")
        first = replace(s, bids=())
        dice = ", ".join(f'"{"".join(map(str, c))}"' for c in first.rolled)
        opts = ", ".join(f'{k} = "{v}"' for k, v in rs.options)
        actions = [*finding.prefix]
        quoted = ", ".join(f'"{a}"' for a in actions)
        text = "\n".join([
            f"# Discovery finding {finding.key} ({finding.rule_set})", 'game = "liars-dice"',
            f'title = "{finding.key}"', f"players = {len(s.cups)}",
            "clauses = [" + ", ".join(f'"{c}"' for c in finding.clauses) + "]",
            f"actions = [{quoted}]", f"options = {{ {opts} }}", "", "[setup]",
            f"dice = [{dice}]", f"sides = {s.rules.sides}", ""])
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "witness.toml"
            path.write_text(text, encoding="utf-8")
            if not run_scenario(path).passed:
                raise ValueError(f"the witness of {finding.key} does not replay")
        return text


DISCOVERY = LiarsDiscovery()
"""The capability ``"discovery"`` of Liar's Dice's plugin record."""

__all__ = ["DISCOVERY", "LiarsDiscovery", "explain", "perturbations", "situation", "target"]
