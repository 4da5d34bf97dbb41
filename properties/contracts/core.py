"""Clauses as executable contracts: the framework (dataclass, registry, evaluation, coverage).

A contract is a second, independent statement of one clause, written from the clause text: what
it *forbids* in a state (``forbids(state, action) -> bool``), what it *permits*
(``permits(state, action) -> bool``) and what it *requires* of the successor
(``requires(state, action, next_state) -> bool | None``; None when the clause is not in play).
Every contract is tagged with the clause id it states (design notes, "Clauses as contracts"; the
same idea as a TLA+ action: a predicate over a state and its successor).

A contract states only what every plausible reading of its clause agrees on. Where the text
admits several readings (a "can" that may be a "must", a referent that may be the first or the
running one), the contract names them as :class:`Alternative` readings, each a predicate set of
its own: a transition satisfies the contract when it satisfies the common part and at least one
alternative. Discovery's ``reading`` search reports the alternatives the engine does not follow
(``properties/discovery/readings.py``).

Each game writes one :class:`ContractSet` per source document in its own folder
(``properties/<game>/``): its contracts plus, for every rule clause without a contract, the
reason; the game's plugin lists them (capability ``"contracts"``, see
:mod:`ruleproof.properties.contracts.games`). A section of a document that restates others in
its own words (a quick reference, an FAQ, a worked example) is a *part*: a contract set of its
own, written from that section's text alone (``ContractSet.part``), compared with the rest of
its document by discovery's ``chapters`` search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ruleproof.spec import clause_registry

Forbids = Callable[[Any, Any], bool]
Permits = Callable[[Any, Any], bool]
Requires = Callable[[Any, Any, Any], "bool | None"]
Situation = Callable[[Any, Any, Any], bool]


def _always(_config: Any) -> bool:
    return True


@dataclass(frozen=True)
class Alternative:
    """One reading of a clause whose text admits several: what this reading adds to what every
    reading agrees on (the contract's own predicates).

    Attributes:
        name: a short name of the reading (``must``, ``may``; the value of the rule option
            that plays it where there is one).
        forbids, permits, requires: as for :class:`Contract`, under this reading only.
        what: the reading in words (for reports and findings).
        option: the rule option and value that play this reading, when the game has one
            (``("match_placement", "optional")``); discovery explains a finding about this
            reading by the register entry of that option.
    """

    name: str
    forbids: Forbids | None = None
    permits: Permits | None = None
    requires: Requires | None = None
    what: str = ""
    option: tuple[str, str] | None = None

    def accepts(self, state: Any, action: Any, nxt: Any) -> bool:
        """Whether the transition ``state --action--> nxt`` meets this reading."""
        if self.forbids is not None and self.forbids(state, action):
            return False
        return self.requires is None or self.requires(state, action, nxt) is not False

    def speaks(self, state: Any, action: Any, nxt: Any) -> bool:
        """Whether this reading says anything about the transition (forbids the action or
        has a verdict on the successor)."""
        if self.forbids is not None and self.forbids(state, action):
            return True
        return self.requires is not None and self.requires(state, action, nxt) is not None


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
        alternatives: the readings the clause's text admits beyond what every reading agrees
            on (the three predicates above); empty when the text has one reading. A
            transition satisfies the contract when it satisfies the predicates above and at
            least one alternative.
        question: the question the alternatives answer differently, in plain words (what a
            reader of the text would ask).
        when: (state, action, next_state) -> whether the situation the clause governs arose
            on this transition (a vampire left a row that has face-down ones, a stake gift
            is handed over), for contracts whose predicates hold a verdict on transitions
            where the rule does not come up (a "nobody keeps three stakes" that is also true
            when nobody took a stake). Clause coverage (``explore --coverage``) counts the
            clause only where it holds; the checks ignore it: the predicates are checked on
            every transition as before. None: wherever the predicates speak.
        observed_through: clause ids whose rule this contract's predicate uses to observe its
            own (dracula-en:pay.then-functions sees that the payment came before the card's
            functions by the life markers already lost, dracula-en:pay.overpay's amount).
            Conformance blame puts those clauses first when their contracts also separate a
            step (:func:`ruleproof.properties.conformance.blame.separating`): a wrong amount
            is the amount's fault, not the order's. The checks ignore it.
    """

    clause: str
    forbids: Forbids | None = None
    permits: Permits | None = None
    requires: Requires | None = None
    applies: Callable[[Any], bool] = _always
    what: str = ""
    alternatives: tuple[Alternative, ...] = ()
    question: str = ""
    when: Situation | None = None
    observed_through: tuple[str, ...] = ()

    def forbids_all(self, state: Any, action: Any) -> bool:
        """Whether every reading of the clause forbids ``action`` in ``state``."""
        if self.forbids is not None and self.forbids(state, action):
            return True
        return bool(self.alternatives) and all(
            x.forbids is not None and x.forbids(state, action) for x in self.alternatives)

    def forbids_some(self, state: Any, action: Any) -> bool:
        """Whether some reading of the clause forbids ``action`` in ``state``."""
        if self.forbids is not None and self.forbids(state, action):
            return True
        return any(x.forbids is not None and x.forbids(state, action)
                   for x in self.alternatives)

    def permits_some(self, state: Any, action: Any) -> bool:
        """Whether some reading of the clause permits ``action`` in ``state``."""
        if self.permits is not None and self.permits(state, action):
            return True
        return any(x.permits is not None and x.permits(state, action)
                   for x in self.alternatives)

    def readings(self, state: Any, action: Any, nxt: Any) -> tuple[str, ...]:
        """The names of the alternatives the transition meets (() for a contract without
        alternatives)."""
        return tuple(x.name for x in self.alternatives if x.accepts(state, action, nxt))

    def reading(self, name: str) -> Contract:
        """This contract under one of its readings only: the common part and alternative
        ``name`` as plain predicates (the engine's reading, for conformance blame).

        Raises:
            KeyError: no alternative is called ``name``.
        """
        alt = next((x for x in self.alternatives if x.name == name), None)
        if alt is None:
            raise KeyError(name)
        return Contract(self.clause, _either(self.forbids, alt.forbids),
                        _either(self.permits, alt.permits),
                        _both(self.requires, alt.requires), self.applies,
                        f"{self.what} [{alt.name}]" if self.what else alt.name,
                        question=self.question, when=self.when,
                        observed_through=self.observed_through)


def _either(f: Forbids | None, g: Forbids | None) -> Forbids | None:
    if f is None or g is None:
        return f or g
    return lambda s, a: f(s, a) or g(s, a)


def _both(f: Requires | None, g: Requires | None) -> Requires | None:
    if f is None or g is None:
        return f or g

    def requires(s: Any, a: Any, t: Any) -> bool | None:
        x, y = f(s, a, t), g(s, a, t)
        if x is False or y is False:
            return False
        return None if x is None and y is None else True
    return requires


def expanded(contracts: Iterable[Contract]) -> tuple[Contract, ...]:
    """Each contract with alternatives as one plain contract per reading
    (:meth:`Contract.reading`), the others as they are: for judging an engine against the
    model's reading of every clause (conformance blame), where a transition that one reading
    allows may still depart from the reading the model follows."""
    out: list[Contract] = []
    for c in contracts:
        out += [c.reading(x.name) for x in c.alternatives] if c.alternatives else [c]
    return tuple(out)


@dataclass(frozen=True)
class Violation:
    """A contract broken by a transition: the clause, how, and the transition."""

    clause: str
    how: str  # "forbids", "requires", or "readings" (no alternative of the clause is met)
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
        part: '' for the document's own rules; else the section the set states on its own
            (``qr``, ``faq``, ``example``): its clauses are those whose ids begin with
            ``<source>:<part>.``, written from that section's text alone.
    """

    source: str
    contracts: tuple[Contract, ...]
    uncovered: dict[str, str] = field(default_factory=dict)
    config_of: Callable[[Any], Any] = lambda s: s.config
    alias: Callable[[Any, Any], bool] = lambda s, a: False
    part: str = ""

    @property
    def name(self) -> str:
        """The set's name: the document id, or ``<document>:<part>`` for a part."""
        return f"{self.source}:{self.part}" if self.part else self.source

    def owns(self, clause: str) -> bool:
        """Whether ``clause`` belongs to this part (every clause of the document for the
        document's own set)."""
        return clause.startswith(f"{self.name}.") if self.part else clause.startswith(
            f"{self.source}:")

    def active(self, state: Any, drop: Iterable[str] = ()) -> tuple[Contract, ...]:
        """The contracts that apply to ``state``'s rule set, without the clause ids ``drop``."""
        cfg = self.config_of(state)
        dropped = set(drop)
        return tuple(c for c in self.contracts if c.clause not in dropped and c.applies(cfg))

    def without(self, clause: str) -> ContractSet:
        """This set with every contract of ``clause`` removed (for teeth tests)."""
        return replace(self, contracts=tuple(c for c in self.contracts if c.clause != clause),
                       uncovered={**self.uncovered, clause: "removed"})

    def read_as(self, choose: Callable[[Contract], str | None]) -> ContractSet:
        """This set with the contracts that have alternatives fixed to one reading each:
        ``choose(contract)`` names the alternative (None keeps the contract as it is)."""
        out = []
        for c in self.contracts:
            name = choose(c) if c.alternatives else None
            out.append(c.reading(name) if name is not None else c)
        return replace(self, contracts=tuple(out))


def forbidding_some(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts of which some reading forbids ``action`` in ``state``
    (an engine refusing it may follow that reading)."""
    return [c.clause for c in contracts if c.forbids_some(state, action)]


def forbidding(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts that forbid ``action`` in ``state`` under every reading."""
    return [c.clause for c in contracts if c.forbids_all(state, action)]


def permitting(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts that permit ``action`` in ``state`` under some reading."""
    return [c.clause for c in contracts if c.permits_some(state, action)]


def broken(contracts: Iterable[Contract], state: Any, action: Any, nxt: Any) -> list[Violation]:
    """Every contract the transition ``state --action--> nxt`` breaks: a forbidden action, a
    successor a clause does not allow, or one that meets none of a clause's readings."""
    out: list[Violation] = []
    for c in contracts:
        if c.forbids is not None and c.forbids(state, action):
            out.append(Violation(c.clause, "forbids", c.what, str(action)))
        if c.requires is not None and c.requires(state, action, nxt) is False:
            out.append(Violation(c.clause, "requires", c.what, str(action)))
        if c.alternatives and not any(x.accepts(state, action, nxt) for x in c.alternatives):
            names = " / ".join(x.name for x in c.alternatives)
            out.append(Violation(c.clause, "readings", f"{c.what} (no reading: {names})",
                                 str(action)))
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
    """The coverage of ``cs`` against its clause registry: a document's own set is counted
    together with its parts (:func:`parts_of`: the quick reference's contracts cover the quick
    reference's clauses); a part alone counts the clauses it owns.

    Raises:
        ValueError: if a contract names a clause that is not in the source's registry.
    """
    reg = clause_registry(cs.source)
    ids = {c.id: c for c in reg}
    sets = [cs] if cs.part else [cs, *parts_of(cs.source)]
    with_contract = {c.clause for x in sets for c in x.contracts}
    stray = sorted(with_contract - set(ids))
    if stray:
        raise ValueError(f"contracts of {cs.name} name unknown clauses: {stray}")
    reasons = {k: v for x in sets for k, v in x.uncovered.items()}
    mine = [c for c in reg if cs.owns(c.id)]
    rule = tuple(c.id for c in mine if c.kind != "setup")
    setup = tuple(c.id for c in mine if c.kind == "setup")
    covered = tuple(c for c in rule if c in with_contract)
    uncovered = {c: reasons[c] for c in rule if c not in with_contract and c in reasons}
    unexplained = tuple(c for c in rule if c not in with_contract and c not in reasons)
    return Coverage(cs.name, rule, covered, uncovered, unexplained, setup)


def contract_set(source: str) -> ContractSet:
    """The shipped contracts of ``source``: those of the game whose plugin lists the source
    (its capability ``"contracts"``, :class:`~ruleproof.properties.contracts.games.
    GameContracts`); a part's name (``du-en:qr``) gives that part's set.

    Raises:
        KeyError: for a source no registered game has contracts for.
    """
    from ruleproof.properties.contracts.games import contracts_of
    from ruleproof.properties.plugin import plugins

    for p in plugins().values():
        cap = contracts_of(p)
        if cap is None:
            continue
        load = cap.sets.get(source) or cap.parts.get(source)
        if load is not None:
            found = load()
            assert isinstance(found, ContractSet)
            return found
    raise KeyError(source)


def parts_of(source: str) -> tuple[ContractSet, ...]:
    """The parts of document ``source`` (its quick reference, FAQ, worked examples as contract
    sets of their own), in the order the game lists them."""
    from ruleproof.properties.contracts.games import contracts_of
    from ruleproof.properties.plugin import plugins

    out: list[ContractSet] = []
    for p in plugins().values():
        cap = contracts_of(p)
        if cap is None:
            continue
        for name, load in cap.parts.items():
            if name.split(":", 1)[0] == source:
                found = load()
                assert isinstance(found, ContractSet)
                out.append(found)
    return tuple(out)
