"""The ``chapters`` search: a document's quick reference, FAQ and worked examples (its *parts*,
contract sets written from those sections alone, properties/contracts/core.py) compared with
the rest of the rule set's contracts on the same states, the way two translations are compared
(search kind ``chapters`` of :data:`~ruleproof.properties.contracts.discovery.SEARCH_KINDS`,
one unit per rule set).

On states of seeded random play, for the game's systematic action space (capability
``discovery``, else the legal actions): the part forbids under every reading what some reading
of the chapters permits, or the reverse; and on the engine's step: the part rejects the
successor the engine (which refines the chapters) produces, or a perturbed successor (the
game's perturbations) meets the part and not the chapters while the part rejects the
engine's. Each is a finding (kind ``chapters``) whose key names the part, the disagreement, the
decision and the clauses on each side.

A finding is explained by the register entry of the rule option that plays the permitting (or
forbidding) reading on one of the clauses (as the ``reading`` search explains), else by the
game's discovered register.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ruleproof.properties.contracts.core import (
    Contract,
    ContractSet,
    broken,
    parts_of,
)
from ruleproof.properties.contracts.discovery import (
    Budget,
    Finding,
    SearchResult,
    discovery_of,
    kind_of,
    walk,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set
from ruleproof.properties.discovery.readings import entry_for, register_entries
from ruleproof.properties.plugin import plugin

KIND = "chapters"
"""The finding kind and the search's name."""

LABELS = {"qr": "quick reference", "faq": "FAQ", "example": "worked example"}
"""How a part is called in questions (by its section name; others by the name itself)."""


def _label(part: ContractSet) -> str:
    return f"the {LABELS.get(part.part, part.part)} ({part.name})"


def _forbidding(contracts: Sequence[Contract], s: Any, a: Any) -> list[Contract]:
    return [c for c in contracts if c.forbids_all(s, a)]


def _permitting(contracts: Sequence[Contract], s: Any, a: Any) -> list[Contract]:
    return [c for c in contracts if c.permits_some(s, a)]


def _options(contracts: Sequence[Contract], s: Any, a: Any, permit: bool) -> list[tuple[str, str]]:
    """The rule options playing the readings of ``contracts`` that permit (``permit``) or
    forbid ``a`` at ``s``."""
    out = []
    for c in contracts:
        for x in c.alternatives:
            hit = (x.permits is not None and x.permits(s, a)) if permit else (
                x.forbids is not None and x.forbids(s, a))
            if hit and x.option is not None:
                out.append(x.option)
    return out


def _chapters_of(part: ContractSet, own: Sequence[ContractSet],
                 every: dict[str, tuple[Contract, ...]]) -> list[Contract]:
    """The chapters a part is compared with: its own document's and those it builds on (the
    rule set's sources before it); a later source (an expansion on top) overrides the part's
    document and is not a disagreement with it."""
    out: list[Contract] = []
    for cs in own:
        out += every.get(cs.source, ())
        if cs.source == part.source:
            break
    return out


def compare(rs: RuleSet, budget: Budget, parts: Sequence[ContractSet] | None = None,
            sets: Sequence[ContractSet] | None = None, game: Any = None,
            deadline: float | None = None) -> list[Finding]:
    """The parts of ``rs``'s documents (or ``parts``) against ``rs``'s contracts (or
    ``sets``) on ``budget``'s random games (``game`` replaces the rule set's game); first
    witness per key, explained where a register entry poses the question."""
    own = list(sets) if sets is not None else list(rs.contract_sets())
    if parts is None:
        parts = [p for doc in dict.fromkeys(cs.source for cs in own) for p in parts_of(doc)]
    if not parts:
        return []
    game = game or game_of(rs)
    cap = discovery_of(plugin(rs.game))
    entries = register_entries(rs.game)
    found: dict[str, Finding] = {}

    def add(key: str, st: Any, action: Any, clauses: set[str], detail: str, question: str,
            readings: tuple[str, ...], part: ContractSet,
            options: Sequence[tuple[str, str]] = ()) -> None:
        if key in found:
            return
        f = Finding(KIND, key, rs.name, tuple(sorted(clauses)), st.seed,
                    tuple(map(str, st.prefix)), str(action), detail, question=question,
                    readings=readings, source=part.name, search=KIND)
        hit = entry_for(entries, clauses, options)
        found[key] = f.with_explanation(hit) if hit else f

    def where(s: Any, a: Any) -> str:
        if cap is None:
            return kind_of(a)
        return f"{kind_of(a)}{cap.target(s, a)} at {cap.situation(s)}"

    for i, st in enumerate(walk(rs, budget.games, budget.max_steps, game=game)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        s, a, t = st.state, st.action, st.nxt
        every = {cs.source: cs.active(s, rs.drop) for cs in own}
        active = [(p, p.active(s)) for p in parts]
        if i % budget.stride == 0:
            legal = list(game.model_legal(s))
            space = list(legal)
            if cap is not None:
                space += [b for b in cap.questions(s) if b not in space]
            verdicts: dict[tuple[str, int], tuple[list[Contract], list[Contract]]] = {}
            for b in space:
                if rs.alias(s, b):
                    continue
                for part, pc in active:
                    if not pc:
                        continue
                    pf, pp = _forbidding(pc, s, b), _permitting(pc, s, b)
                    if not pf and not pp:
                        continue
                    chapters = _chapters_of(part, own, every)
                    memo = (part.source, space.index(b))
                    if memo not in verdicts:
                        verdicts[memo] = (_forbidding(chapters, s, b),
                                          _permitting(chapters, s, b))
                    cf, cp = verdicts[memo]
                    for forb, perm, who in ((cf, pp, "the chapters forbid what it permits"),
                                            (pf, cp, "it forbids what the chapters permit")):
                        if not forb or not perm:
                            continue
                        mine = forb if forb is pf else perm
                        clauses = {c.clause for c in (*forb, *perm)}
                        key = (f"{KIND} {part.name}: {who}: {where(s, b)} "
                               f"({', '.join(sorted(clauses))})")
                        c = mine[0]
                        add(key, st, b, clauses,
                            f"{_label(part)}: {c.clause} ({c.what}) and the chapters "
                            f"({', '.join(sorted(x.clause for x in (perm if mine is forb else forb)))})"
                            f" disagree on '{b}' (the engine {'allows' if b in legal else 'refuses'}"
                            " it)",
                            c.question or f"Does {_label(part)} allow '{kind_of(b)}' here, "
                            f"where the chapters {'forbid' if forb is cf else 'permit'} it?",
                            ("the chapters: " + ("forbidden" if forb is cf else "allowed"),
                             f"{_label(part)}: " + ("allowed" if forb is cf else "forbidden")),
                            part, _options(perm, s, b, True) + _options(forb, s, b, False))
        # the engine's step (it refines the chapters): does the part accept it?
        for part, pc in active:
            if not pc:
                continue
            chapters = _chapters_of(part, own, every)
            bad = broken(pc, s, a, t)
            if not bad:
                continue
            clauses = {v.clause for v in bad}
            key = f"{KIND} {part.name}: it rejects the engine's step: {where(s, a)} " \
                  f"({', '.join(sorted(clauses))})"
            other = ""
            if cap is not None:
                for name, alt, _fields in cap.perturbations(s, a, t):
                    if alt != t and not broken(pc, s, a, alt) and broken(chapters, s, a, alt):
                        other = f"; '{name}' meets it and not the chapters"
                        break
            v = bad[0]
            add(key, st, a, clauses,
                f"{_label(part)}: {v.clause} ({v.what}) rejects the successor of '{a}' "
                f"that the chapters accept{other}",
                next((c.question for c in pc if c.clause == v.clause and c.question), "")
                or f"What does {_label(part)} say happens after '{kind_of(a)}' here?",
                ("the chapters (the engine)", f"{_label(part)}"), part)
    return list(found.values())


def search(unit: Any, budget: Budget, deadline: float | None, context: Any) -> SearchResult:
    """The ``chapters`` search on the unit's rule set (``context.sets_for``/``game_for``
    replace its contracts or game). Figures: per part, the disagreements found."""
    rs = rule_set(unit.rule_set)
    sets = context.sets_for(rs) if getattr(context, "sets_for", None) else None
    game = context.game_for(rs) if getattr(context, "game_for", None) else None
    found = compare(rs, budget, sets=sets, game=game, deadline=deadline)
    stats: dict[str, Any] = {}
    for f in found:
        stats.setdefault(f.source, {"disagreements": 0})["disagreements"] += 1
    return SearchResult(found, {"chapters": stats} if stats else {})


__all__ = ["KIND", "compare", "search"]
