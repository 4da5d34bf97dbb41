"""The ``reading`` search: which reading of each ambiguous clause the engine follows, and the
other readings the text allows (search kind ``reading`` of
:data:`~ruleproof.properties.contracts.discovery.SEARCH_KINDS`, one unit per rule set).

A contract names the readings its clause's text admits as alternatives
(:class:`~ruleproof.properties.contracts.core.Alternative`). On states of seeded random play
(:func:`~ruleproof.properties.contracts.discovery.walk`) every alternative is held against the
engine: its ``forbids`` against every action the engine allows, its ``permits`` against the
actions the engine refuses (the game's systematic action space where it has one, else the
legal actions), its ``requires`` against the engine's successor. An alternative the engine
never departs from is the engine's reading; each alternative it departs from is a finding
(kind ``reading``): the engine follows X, the text also allows Y, with the first state and
action where they part as the witness. The contracts searched are those of the rule set's
sources and of their parts (quick reference, FAQ, worked examples: properties/contracts/core.py).

A finding is explained by the register entry of the rule option that plays the other reading
(the alternative's ``option``): an entry of the game's ambiguity register with that option,
both readings among its values, and the clause among its clauses; otherwise the game's
discovered register must list its key.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet, parts_of
from ruleproof.properties.contracts.discovery import (
    Budget,
    Finding,
    SearchResult,
    Step,
    discovery_of,
    walk,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set
from ruleproof.properties.plugin import plugin

KIND = "reading"
"""The finding kind and the search's name."""


@dataclass
class _Parting:
    """Where an alternative first parts from the engine: the step, the action (the engine's,
    or one from the action space), and how."""

    step: Step
    action: Any
    how: str


@dataclass
class _Track:
    """One contract with alternatives, followed through the search."""

    contract: Contract
    source: str
    spoke: dict[str, int] = field(default_factory=dict)
    parted: dict[str, _Parting] = field(default_factory=dict)


def contract_sets(rs: RuleSet, sets: Sequence[ContractSet] | None = None
                  ) -> list[tuple[ContractSet, tuple[str, ...]]]:
    """The contract sets the search reads for ``rs``, each with the clause ids it leaves out:
    the rule set's own (``sets`` replace them, teeth tests), then the parts of their documents
    (none when ``sets`` are given)."""
    own = list(sets) if sets is not None else list(rs.contract_sets())
    out = [(cs, rs.drop) for cs in own]
    if sets is None:
        for doc in dict.fromkeys(cs.source for cs in own):
            out += [(p, ()) for p in parts_of(doc)]
    return out


def _candidates(rs: RuleSet, state: Any, legal: Iterable[Any]) -> list[Any]:
    """Actions to hold against the alternatives at ``state``: the game's systematic action
    space (capability ``discovery``) where it has one, and the legal actions."""
    cap = discovery_of(plugin(rs.game))
    out = list(legal)
    if cap is not None:
        out += [a for a in cap.questions(state) if a not in out]
    return out


def _space(rs: RuleSet, state: Any, game: Any, read: Sequence[tuple[ContractSet, tuple[str, ...]]],
           alternatives: Sequence[Alternative]) -> list[tuple[Any, bool]]:
    """The actions to hold against ``alternatives`` at ``state``, each with whether the
    engine allows it: every legal one (when one of them forbids anything), and every refused
    one that one of them permits and no contract of the rule set forbids under all of its
    readings (a refusal another clause settles says nothing about this one's readings)."""
    legal = list(game.model_legal(state))
    forbid = [x for x in alternatives if x.forbids is not None]
    permit = [x for x in alternatives if x.permits is not None]
    out = [(b, True) for b in legal if forbid and not rs.alias(state, b)]
    if not permit:
        return out
    own: list[Contract] | None = None
    for b in _candidates(rs, state, legal):
        if b in legal or rs.alias(state, b):
            continue
        if not any(x.permits is not None and x.permits(state, b) for x in permit):
            continue
        if own is None:
            own = [c for cs, drop in read if not cs.part for c in cs.active(state, drop)]
        if not any(c.forbids_all(state, b) for c in own):
            out.append((b, False))
    return out


def _departs(alt: Alternative, state: Any, action: Any, allowed: bool) -> str:
    """How the engine's legality of ``action`` departs from ``alt`` ('' if it does not)."""
    if allowed and alt.forbids is not None and alt.forbids(state, action):
        return "forbids what the engine allows"
    if not allowed and alt.permits is not None and alt.permits(state, action):
        return "permits what the engine refuses"
    return ""


def follow(rs: RuleSet, budget: Budget, sets: Sequence[ContractSet] | None = None,
           game: Any = None, deadline: float | None = None) -> list[_Track]:
    """Every contract with alternatives that applied in ``budget``'s random games of ``rs``,
    with how often each alternative spoke and where it first parted from the engine."""
    game = game or game_of(rs)
    read = contract_sets(rs, sets)
    tracks: dict[tuple[str, str, str], _Track] = {}
    for i, st in enumerate(walk(rs, budget.games, budget.max_steps, game=game)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        s, a, t = st.state, st.action, st.nxt
        pending: list[tuple[_Track, Contract]] = []
        for cs, drop in read:
            for c in cs.active(s, drop):
                if not c.alternatives:
                    continue
                tr = tracks.setdefault((cs.name, c.clause, c.what), _Track(c, cs.name))
                for x in c.alternatives:
                    if x.speaks(s, a, t):
                        tr.spoke[x.name] = tr.spoke.get(x.name, 0) + 1
                        if x.name not in tr.parted and not x.accepts(s, a, t):
                            tr.parted[x.name] = _Parting(st, a, "rejects the engine's step")
                if i % budget.stride == 0 and any(
                        x.name not in tr.parted and (x.forbids or x.permits)
                        for x in c.alternatives):
                    pending.append((tr, c))
        if not pending:
            continue
        open_alts = [x for tr, c in pending for x in c.alternatives if x.name not in tr.parted]
        for b, allowed in _space(rs, s, game, read, open_alts):
            for tr, c in pending:
                if c.forbids is not None and c.forbids(s, b):
                    continue
                for x in c.alternatives:
                    how = "" if x.name in tr.parted else _departs(x, s, b, allowed)
                    if how:
                        tr.spoke[x.name] = tr.spoke.get(x.name, 0) + 1
                        tr.parted[x.name] = _Parting(st, b, how)
    return list(tracks.values())


def findings(rs: RuleSet, tracks: Iterable[_Track]) -> list[tuple[Finding, Contract]]:
    """A finding for every alternative the engine departs from (with its contract): the
    engine's reading (the alternatives it never departs from), the other, and the witness
    where they part."""
    out: list[tuple[Finding, Contract]] = []
    for tr in tracks:
        c = tr.contract
        kept = [x for x in c.alternatives if x.name not in tr.parted]
        engine = "/".join(x.name for x in kept) or "none"
        engine_what = "; ".join(x.what for x in kept) or \
            "none of the readings on every step (it mixes them)"
        for x in c.alternatives:
            p = tr.parted.get(x.name)
            if p is None:
                continue
            key = f"{KIND} {c.clause}: {engine} | {x.name}"
            question = c.question or f"{c.clause} ({c.what}): '{engine}' or '{x.name}'?"
            out.append((Finding(
                KIND, key, rs.name, (c.clause,), p.step.seed,
                tuple(map(str, p.step.prefix)), str(p.action),
                f"the engine follows the reading '{engine}' of {c.clause}; the reading "
                f"'{x.name}' ({x.what}) {p.how} at '{p.action}'",
                question=question,
                readings=(f"{engine}: {engine_what}", f"{x.name}: {x.what}"),
                source=tr.source, search=KIND), c))
    return out


# ----------------------------------------------------------------------------- explanation


@dataclass(frozen=True)
class Entry:
    """What the explanation needs of an ambiguity register entry."""

    id: str
    option: str | None
    values: tuple[str, ...]
    clauses: tuple[str, ...]


def register_entries(game: str) -> tuple[Entry, ...]:
    """The entries of ``game``'s ambiguity register (``ambiguities.toml`` in its data folder:
    ``[[ambiguity]]`` tables with ``id``, ``option``, ``clauses`` and ``[[ambiguity.reading]]``
    values); () without one."""
    import tomllib

    path = plugin(game).spec_folder / "ambiguities.toml"
    if not path.is_file():
        return ()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(Entry(str(e.get("id", "")), e.get("option"),
                       tuple(str(r.get("value")) for r in e.get("reading", [])),
                       tuple(map(str, e.get("clauses", []))))
                 for e in data.get("ambiguity", []))


def entry_for(entries: Iterable[Entry], clauses: Iterable[str],
              options: Iterable[tuple[str, str]]) -> str:
    """The id of the register entry posing the question of the alternatives that play
    ``options`` (option, value) on one of ``clauses``: its option is theirs, their values are
    among its readings and it names one of the clauses ('' if none does)."""
    opts = list(options)
    names = {o for o, _ in opts}
    if len(names) != 1:
        return ""
    option = names.pop()
    values = {v for _, v in opts}
    wanted = set(clauses)
    for e in entries:
        if e.option == option and values <= set(e.values) and wanted & set(e.clauses):
            return e.id
    return ""


def explain(rs: RuleSet, found: Sequence[tuple[Finding, Contract]]) -> list[Finding]:
    """Each finding explained by the register entry of the options that play its two readings
    (:func:`entry_for`), where there is one."""
    entries = register_entries(rs.game)
    out = []
    for f, c in found:
        engine, _, other = f.key.rpartition(": ")[2].partition(" | ")
        named = {x.name: x for x in c.alternatives}
        picked = [named[n] for n in (*engine.split("/"), other) if n in named]
        options = [x.option for x in picked if x.option is not None]
        hit = entry_for(entries, f.clauses, options) if len(options) == len(picked) else ""
        out.append(f.with_explanation(hit) if hit else f)
    return out


def search(unit: Any, budget: Budget, deadline: float | None, context: Any) -> SearchResult:
    """The ``reading`` search on the unit's rule set (``context.sets_for``/``game_for``
    replace its contracts or game). Figures: per source, the contracts with alternatives
    that applied, and the readings the engine departs from."""
    rs = rule_set(unit.rule_set)
    sets = context.sets_for(rs) if getattr(context, "sets_for", None) else None
    game = context.game_for(rs) if getattr(context, "game_for", None) else None
    tracks = follow(rs, budget, sets, game, deadline)
    found = explain(rs, findings(rs, tracks))
    stats: dict[str, Any] = {}
    for tr in tracks:
        row = stats.setdefault(tr.source, {"contracts": 0, "readings": 0, "parted": 0})
        row["contracts"] += 1
        row["readings"] += len(tr.contract.alternatives)
        row["parted"] += len(tr.parted)
    return SearchResult(found, {"readings": stats})


__all__ = ["KIND", "Entry", "contract_sets", "entry_for", "explain", "findings", "follow",
           "register_entries", "search"]
