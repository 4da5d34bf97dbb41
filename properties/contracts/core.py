"""Clauses as executable contracts: the framework (dataclass, registry, evaluation, coverage).

A contract is a second, independent statement of one clause, written from the clause text: what
it *forbids* in a state (``forbids(state, action) -> bool``), what it *permits*
(``permits(state, action) -> bool``) and what it *requires* of the successor
(``requires(state, action, next_state) -> bool | None``; None when the clause is not in play).
Every contract is tagged with the clause id it states (design notes, "Clauses as contracts"; the
same idea as a TLA+ action: a predicate over a state and its successor).

Each game writes one :class:`ContractSet` per source document in its own folder
(``properties/<game>/``): its contracts plus, for every rule clause without a contract, the
reason; the game's plugin lists them (capability ``"contracts"``, see
:mod:`ruleproof.properties.contracts.games`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ruleproof.spec import clause_registry

Forbids = Callable[[Any, Any], bool]
Permits = Callable[[Any, Any], bool]
Requires = Callable[[Any, Any, Any], "bool | None"]


def _always(_config: Any) -> bool:
    return True


@dataclass(frozen=True)
class Contract:
    """One clause as predicates (any of the three may be absent).

    Attributes:
        clause: the clause id (``<source>:<section>.<name>``).
        forbids: (state, action) -> True when the clause forbids the action.
        permits: (state, action) -> True when the clause explicitly permits the action.
        requires: (state, action, next_state) -> False when the successor breaks the clause,
            True when it meets it, None when the clause says nothing about this transition.
        applies: (config or rules) -> whether the clause belongs to that rule set (e.g. the
            2-player clauses only with two players).
        what: a short paraphrase of what the predicate checks (for reports).
    """

    clause: str
    forbids: Forbids | None = None
    permits: Permits | None = None
    requires: Requires | None = None
    applies: Callable[[Any], bool] = _always
    what: str = ""


@dataclass(frozen=True)
class Violation:
    """A contract broken by a transition: the clause, how, and the transition."""

    clause: str
    how: str  # "forbids" or "requires"
    what: str
    action: str


@dataclass(frozen=True)
class ContractSet:
    """The contracts of one source document.

    Attributes:
        source: the document id (a source of the game's plugin record).
        contracts: the contracts, several may share a clause.
        uncovered: for each rule clause without a contract, why (``"flavour"``, ``"component
            list"``, ``"set-up parameter"``...).
        config_of: how to get the rule set (config) out of a state, for ``applies``.
        alias: (state, action) -> True when the action only renames another legal action
            (an encoding artefact, e.g. the one vampire of a row named by either end); such
            actions are left out of the legality comparison.
    """

    source: str
    contracts: tuple[Contract, ...]
    uncovered: dict[str, str] = field(default_factory=dict)
    config_of: Callable[[Any], Any] = lambda s: s.config
    alias: Callable[[Any, Any], bool] = lambda s, a: False

    def active(self, state: Any, drop: Iterable[str] = ()) -> tuple[Contract, ...]:
        """The contracts that apply to ``state``'s rule set, without the clause ids ``drop``."""
        cfg = self.config_of(state)
        dropped = set(drop)
        return tuple(c for c in self.contracts if c.clause not in dropped and c.applies(cfg))

    def without(self, clause: str) -> ContractSet:
        """This set with every contract of ``clause`` removed (for teeth tests)."""
        return ContractSet(self.source, tuple(c for c in self.contracts if c.clause != clause),
                           {**self.uncovered, clause: "removed"}, self.config_of, self.alias)


def forbidding(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts that forbid ``action`` in ``state``."""
    return [c.clause for c in contracts if c.forbids is not None and c.forbids(state, action)]


def permitting(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts that permit ``action`` in ``state``."""
    return [c.clause for c in contracts if c.permits is not None and c.permits(state, action)]


def broken(contracts: Iterable[Contract], state: Any, action: Any, nxt: Any) -> list[Violation]:
    """Every contract the transition ``state --action--> nxt`` breaks (a forbidden action, or a
    successor a clause does not allow)."""
    out: list[Violation] = []
    for c in contracts:
        if c.forbids is not None and c.forbids(state, action):
            out.append(Violation(c.clause, "forbids", c.what, str(action)))
        if c.requires is not None and c.requires(state, action, nxt) is False:
            out.append(Violation(c.clause, "requires", c.what, str(action)))
    return out


@dataclass(frozen=True)
class Coverage:
    """How many rule clauses of a source have a contract.

    Attributes:
        source: the document.
        rule_clauses: ids of the clauses that constrain play (kind other than ``setup``).
        covered: rule clauses with at least one contract.
        uncovered: rule clauses without a contract, with the reason given by the module.
        unexplained: rule clauses without a contract and without a reason (a defect).
        setup: set-up clauses (component lists, preparation), never counted.
    """

    source: str
    rule_clauses: tuple[str, ...]
    covered: tuple[str, ...]
    uncovered: dict[str, str]
    unexplained: tuple[str, ...]
    setup: tuple[str, ...]

    @property
    def ratio(self) -> float:
        """Covered share of the rule clauses (0..1)."""
        return len(self.covered) / len(self.rule_clauses) if self.rule_clauses else 0.0


def coverage(cs: ContractSet) -> Coverage:
    """The coverage of ``cs`` against its clause registry.

    Raises:
        ValueError: if a contract names a clause that is not in the source's registry.
    """
    reg = clause_registry(cs.source)
    ids = {c.id: c for c in reg}
    with_contract = {c.clause for c in cs.contracts}
    stray = sorted(with_contract - set(ids))
    if stray:
        raise ValueError(f"contracts of {cs.source} name unknown clauses: {stray}")
    rule = tuple(c.id for c in reg if c.kind != "setup")
    setup = tuple(c.id for c in reg if c.kind == "setup")
    covered = tuple(c for c in rule if c in with_contract)
    uncovered = {c: cs.uncovered[c] for c in rule if c not in with_contract and c in cs.uncovered}
    unexplained = tuple(c for c in rule if c not in with_contract and c not in cs.uncovered)
    return Coverage(cs.source, rule, covered, uncovered, unexplained, setup)


def contract_set(source: str) -> ContractSet:
    """The shipped contracts of ``source``: those of the game whose plugin lists the source
    (its capability ``"contracts"``, :class:`~ruleproof.properties.contracts.games.
    GameContracts`).

    Raises:
        KeyError: for a source no registered game has contracts for.
    """
    from ruleproof.properties.contracts.games import contracts_of
    from ruleproof.properties.plugin import plugins

    for p in plugins().values():
        cap = contracts_of(p)
        if cap is not None and source in cap.sets:
            found = cap.sets[source]()
            assert isinstance(found, ContractSet)
            return found
    raise KeyError(source)
