"""Liar's Dice's side of exhaustive exploration: the ``explore`` capability of its plugin
record (:data:`EXPLORE`, :class:`~ruleproof.properties.explore.games.ExploreSupport`).

A reduced Liar's Dice keeps the rules and shrinks the table: ``[count.dice]`` (dice per player,
the article's five, ld-wp:setup.dice) and ``[count.sides]`` (faces, six); the file's
``options`` pick the readings. The root is before the first roll; every roll
(ld-wp:round.roll), every bid and call is a successor, so a small set-up is explored to its
last state (``spec/liars_dice/reduced/``, results pinned in ``expected.toml``).

* View: the whole engine state (:class:`~ruleproof.model.liars_dice.rules.Table`) but the
  rules it carries.
* Invariants: those of ``properties/liars_dice/invariants.py``.
* No symmetry: the seats differ (the opener, ld-wp:round.opening) and the faces are ranked
  (ld-wp:bid.raise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.liars_dice.rules import (
    CHANCE,
    OPTIONS,
    TERMINAL,
    Rules,
    Table,
    act,
    chance,
    legal,
    roll,
    to_move,
)
from ruleproof.properties.explore.games import REDUCED_KEY, ExploreGame, Root, View, spec_ref
from ruleproof.properties.plugin import RuleSet
from ruleproof.spec.reduced import ReducedSpec

from .conformance import parse_action
from .invariants import violations

NAME = "liars-dice"

FULL_COUNTS = {"dice": 5, "sides": 6}
"""The counts a reduced Liar's Dice may reduce, with the article's values (ld-wp:setup.dice:
five dice each; six faces)."""


@dataclass(frozen=True)
class LiarsReduced:
    """Liar's Dice's part of a reduced configuration: the rules it plays."""

    name: str
    rules: Rules


def parse(spec: ReducedSpec) -> LiarsReduced:
    """Liar's Dice's part of ``spec``: the counts ``dice`` and ``sides`` and the options.

    Raises:
        MalformedInput: the file is for another game, has keys of its own, a bad option or an
            out-of-range count.
    """
    from .plugin import SIZE_KEYS, rules_of

    if spec.game != NAME:
        raise spec.error(f"reduced configuration {spec.name!r} is for {spec.game}, not {NAME}",
                         "game")
    spec.refuse_unknown(())  # the counts dice and sides, and options (file:line:col)
    # every count names one the game has and its full value, so a misspelt count cannot
    # leave the full game to be explored and the provenance cannot drift from the game
    wrong = [c for c in spec.counts if FULL_COUNTS.get(c.name) != c.full]
    problems = [f"count {c.name}: not a reducible count (known: {', '.join(FULL_COUNTS)})"
                if c.name not in FULL_COUNTS else
                f"count {c.name}: full value is {FULL_COUNTS[c.name]}" for c in wrong]
    problems += [f"options {k}: a reduced set-up sets the size by [count.NAME] and plays no "
                 f"action order; options are the readings ({', '.join(OPTIONS)})"
                 for k in sorted({k for k, _ in spec.options} & set(SIZE_KEYS))]
    if problems:
        raise spec.error("; ".join(problems), f"[count.{wrong[0].name}]" if wrong else "options")
    try:
        rules = rules_of(spec.players, spec.count("dice", 5), spec.count("sides", 6),
                         None, dict(spec.options))
    except MalformedInput as exc:
        raise spec.error(exc.what, "options") from None
    return LiarsReduced(spec.name, rules)


class LiarsExplore(ExploreGame):
    """Liar's Dice through ``ruleproof.model.liars_dice.rules``; every roll is a successor."""

    name = NAME

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        if symmetry:
            raise MalformedInput("liars-dice has no symmetry to reduce (the opener differs from "
                                 "the others; faces are ranked); run without --symmetry")
        self.reduced = parse(spec)
        self.spec = spec
        # the rule set played: what clause coverage counts against, and (with contracts on)
        # what every transition is checked against
        self.played = RuleSet(NAME, spec.name, "ld-wp", options=spec.options,
                              players=(spec.players,), sources=("ld-wp",))
        self.rule_set = self.played if contracts else None

    def roots(self) -> list[Root]:
        return [Root("before the first roll", Table.start(self.reduced.rules), {
            "players": self.spec.players,
            "options": {**dict(self.spec.options), REDUCED_KEY: spec_ref(self.spec)},
            "seed": 0})]

    def successors(self, state: Table) -> list[tuple[str, Table]]:
        r = state.rules
        if to_move(r, state) == CHANCE:
            return [(str(c), roll(r, state, c.face)) for c, _p in chance(r, state)]
        return [(str(a), act(r, state, a)) for a in legal(r, state)]

    def is_terminal(self, state: Table) -> bool:
        return to_move(state.rules, state) == TERMINAL

    def view(self, state: Table) -> View:
        return (state.cups, state.rolled, tuple((p, str(b)) for p, b in state.bids),
                state.opener, tuple((s.caller, s.call, s.bidder, str(s.bid), s.count, s.loser,
                                     s.dice) for s in state.ended))

    def violations(self, state: Table) -> list[str]:
        return violations(state)

    def engine_clauses(self, before: Table, action: str, after: Table) -> tuple[str, ...]:
        """The clauses the model's step used, as the conformance blame reads them
        (:func:`~ruleproof.properties.liars_dice.conformance.transition_clauses`)."""
        from ruleproof.properties.liars_dice.conformance import transition_clauses

        return transition_clauses(before, after)

    def typed(self, action: str) -> Any:
        return parse_action(action)


def start_state(spec: ReducedSpec, seed: int | None, setup: Mapping[str, Any] | None) -> Table:
    """The initial state of every trace of ``spec``: before the first roll.

    Raises:
        MalformedInput: an invalid configuration.
    """
    return Table.start(parse(spec).rules)


@dataclass(frozen=True)
class LiarsExploreSupport:
    """Liar's Dice's ``explore`` capability."""

    def parse(self, spec: ReducedSpec) -> LiarsReduced:
        return parse(spec)

    def game(self, spec: ReducedSpec, *, symmetry: bool, contracts: bool) -> LiarsExplore:
        return LiarsExplore(spec, symmetry=symmetry, contracts=contracts)

    def start_state(self, spec: ReducedSpec, seed: int | None,
                    setup: Mapping[str, Any] | None) -> Table:
        return start_state(spec, seed, setup)


EXPLORE = LiarsExploreSupport()
"""The capability object the plugin record names (``capabilities["explore"]``)."""

__all__ = ["EXPLORE", "LiarsExplore", "LiarsExploreSupport", "LiarsReduced", "parse",
           "start_state"]
