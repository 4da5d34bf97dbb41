"""Clause blame by contracts: the clause whose executable contract separates the model's step
from the engine's.

A divergence is a transition ``pre --action--> post`` on which the model and an engine
disagree. The game rebuilds the engine's successor as a typed model state (the model's
successor with every field the engine reported substituted, its conformance capability's
``engine_post``);
the clause contracts of the rule set in play (``properties/contracts``: du-en or du-cs, the
2-player clauses, gruft-en with the expansion, dracula-en) are evaluated on both steps. A
contract the model's step satisfies (or does not concern) and the engine's step breaks
*separates* them; its clause is blamed. For an action only one side allows, the contracts'
other side decides: a contract that forbids an action the engine offers or accepts, or that
permits an action the engine withholds or refuses.

Order among several separating contracts:

1. contracts in play on the model's step (``requires`` True: the clause governs this
   transition) before frame conditions the model's step does not concern (None);
2. contracts a single field's difference breaks: each contract is re-evaluated on the
   model's successor with one differing field at a time substituted; a contract broken by
   one field alone pins that difference on its clause, before one broken only by the
   differences together;
3. a contract that observes its clause through another clause's rule
   (``Contract.observed_through``: the payment came before the card's functions, seen by the
   markers already lost) after that clause when its contract separates the steps too: a wrong
   amount is the amount's clause's fault, whatever the witness's last step resolved;
4. the more specific rule first: the smaller the share of sampled model transitions on
   which the contract is in play (:func:`scope_of`), the more a breach of it says (a drawn
   battle's contract, dracula-en:enemy.draw, before the contract of every battle). Contracts
   do not restate each other's rules for this to hold: the clauses that end a turn check
   that it ends, the direction is du-en:play.clockwise's alone;
5. body clauses before quick-reference summaries of them, then the order of the contract set.

For actions only one side allows, the clause forbidding (or permitting) the most of those
actions comes first.

Each blame names its mechanism (:data:`MECHANISMS`): ``contract``, ``reading`` (the engine's
report is what another registered reading of an ambiguity gives, properties/conformance/
readings.py), ``set-up`` (the engine's report is what the model gives when one set-up field is
ignored or misread -- the start player, the seating, the expansion, the deal's lids -- its
set-up clauses; ``GameModel.blame_setup``), ``model`` (the model's IllegalAction clauses for an
action no contract forbids) or ``field heuristic`` (no contract separates the steps: clauses
mapped to the differing fields).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruleproof.properties.contracts.core import Contract

if TYPE_CHECKING:
    from ruleproof.properties.conformance.games import GameModel

MECHANISMS = ("contract", "reading", "set-up", "model", "field heuristic")
"""How a divergence's clauses were found, most principled first."""

CONTRACT = "contract"
READING = "reading"
SETUP = "set-up"
MODEL = "model"
HEURISTIC = "field heuristic"


@dataclass(frozen=True)
class Blame:
    """Clause ids blamed for a divergence and the mechanism that found them.

    Attributes:
        clauses: clause ids, most specific first (may be empty).
        by: one of :data:`MECHANISMS` ('' when nothing was blamed).
    """

    clauses: tuple[str, ...]
    by: str


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _summary(clause: str) -> bool:
    """True for a quick-reference clause (a summary of body clauses: du-en's section "Quick
    Reference", ids beginning ``qr.``)."""
    return clause.split(":", 1)[-1].startswith("qr.")


def _requires(c: Contract, pre: Any, action: Any, post: Any) -> bool | None:
    assert c.requires is not None
    try:
        return c.requires(pre, action, post)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError, AssertionError):
        return False  # a successor the clause cannot even read breaks it


def separating(contracts: Sequence[Contract], pre: Any, action: Any, model_post: Any,
               engine_post: Any, partial: Sequence[Any] = (),
               scope: Mapping[tuple[str, str], float] | None = None) -> tuple[str, ...]:
    """Clause ids of the contracts the model's step ``pre --action--> model_post`` satisfies
    (True or None) and the engine's step to ``engine_post`` breaks, in the order of the module
    docstring. ``partial`` holds the model's successor with one of the engine's differing fields
    substituted each (order 2); ``scope`` the share of sampled transitions on which each contract
    (by clause and ``what``) is in play (order 4, :func:`scope_of`)."""
    broken: list[tuple[Contract, bool, bool, int]] = []
    for index, c in enumerate(contracts):
        if c.requires is None:
            continue
        model = _requires(c, pre, action, model_post)
        if model is False or _requires(c, pre, action, engine_post) is not False:
            continue
        single = any(_requires(c, pre, action, p) is False for p in partial)
        broken.append((c, bool(model), single, index))
    blamed = {c.clause for c, _, _, _ in broken}
    shares = scope or {}
    found = sorted(((0 if model else 1, 0 if single else 1,
                     1 if blamed.intersection(c.observed_through) else 0,
                     shares.get((c.clause, c.what), 0.0), 1 if _summary(c.clause) else 0,
                     index), c.clause) for c, model, single, index in broken)
    return _dedup(clause for _, clause in found)


def scope_of(contracts: Sequence[Contract],
             transitions: Iterable[tuple[Any, Any, Any]]) -> dict[tuple[str, str], float]:
    """For each contract (by clause and ``what``), the share of ``transitions`` (state,
    action, successor) on which its ``requires`` is in play (not None): how general the rule
    it states is. Empty if there are no transitions."""
    counts: dict[tuple[str, str], int] = {}
    n = 0
    for pre, action, post in transitions:
        n += 1
        for c in contracts:
            if c.requires is not None and _requires(c, pre, action, post) is not None:
                key = (c.clause, c.what)
                counts[key] = counts.get(key, 0) + 1
    return {k: v / n for k, v in counts.items()} if n else {}


def forbidding(contracts: Sequence[Contract], state: Any, action: Any) -> tuple[str, ...]:
    """Clause ids of the contracts forbidding ``action`` in ``state`` (body before summary)."""
    out = [c.clause for c in contracts
           if c.forbids is not None and _safe(c.forbids, state, action)]
    return _dedup(sorted(out, key=_summary))


def permitting(contracts: Sequence[Contract], state: Any, action: Any) -> tuple[str, ...]:
    """Clause ids of the contracts permitting ``action`` in ``state``, unless one of them
    also forbids it (body before summary)."""
    if forbidding(contracts, state, action):
        return ()
    out = [c.clause for c in contracts
           if c.permits is not None and _safe(c.permits, state, action)]
    return _dedup(sorted(out, key=_summary))


def _safe(predicate: Callable[[Any, Any], bool], state: Any, action: Any) -> bool:
    try:
        return bool(predicate(state, action))
    except (IndexError, KeyError, TypeError, ValueError, AttributeError, AssertionError):
        return False


def rank_by_actions(blames: Sequence[Blame]) -> Blame:
    """One blame for several actions only one side allows: each clause ranked by how many of
    the actions it is blamed for (most first; ties in order of appearance), blamed by the
    mechanism that named it first. Clauses found by a contract or reading come before those
    of the model or the fallback."""
    rank = {m: i for i, m in enumerate(MECHANISMS)}
    count: dict[str, int] = {}
    how: dict[str, str] = {}
    for b in blames:
        for c in b.clauses:
            count[c] = count.get(c, 0) + 1
            how.setdefault(c, b.by)
    order = sorted(count, key=lambda c: (rank.get(how[c], len(rank)), -count[c]))
    return Blame(tuple(order), how[order[0]] if order else "")


def first_of(*blames: Blame) -> Blame:
    """The first blame that names a clause (an empty one if none does)."""
    for b in blames:
        if b.clauses:
            return b
    return Blame((), "")


def blame_step(game: GameModel, previous: Any, action: str | None, state: Any,
               expected: Mapping[str, Any], reported: Mapping[str, Any], fields: Sequence[str],
               happened: Iterable[str], options: Mapping[str, str],
               observer: int | None) -> Blame:
    """Clauses to blame for a state (or, with ``observer``, an observation) difference after
    the model's step ``previous --action--> state``: the model's reading of a registered
    ambiguity when another reading reproduces the engine's report (the contracts separating
    the steps follow it), else the separating contracts, else the field fallback."""
    cited = tuple(happened)
    contract: tuple[str, ...] = ()
    if previous is not None and action is not None:
        reading = game.blame_reading(previous, action, state, reported, None, options,
                                     observer=observer)
        contract = game.blame_contracts(previous, action, state, reported, observer)
        if reading:
            return Blame(_dedup([*reading, *contract])[:4], READING)
    return first_of(Blame(contract[:4], CONTRACT),
                    Blame(game.blame_state(expected, reported, fields, cited), HEURISTIC))


__all__ = [
    "CONTRACT",
    "HEURISTIC",
    "MECHANISMS",
    "MODEL",
    "READING",
    "SETUP",
    "Blame",
    "blame_step",
    "first_of",
    "forbidding",
    "permitting",
    "rank_by_actions",
    "scope_of",
    "separating",
]
