"""Symbolic underdetermination on the counts abstraction: for a transition kind, can two
*different* successors of one state both satisfy every contract of a source? (z3)

Transition kind "a stake is due" (an occupied grave is opened): abstract state = the opener's
stakes held ``h`` and the stakes on the path ``p``; successor = ``h2, p2`` and whether the gift
comes ``g``. Each source's stake clauses are encoded as its contract says them (du-en:ch2.stake,
du-en:ch2.gift, du-en:ch2.stakes-back; du-cs:prubeh.stake, du-cs:prubeh.gift); stakes are
neither made nor lost (du-en:content.stakes, 13 in all). A model of "two different successors"
is a finding with the abstract state as witness; ``unsat`` means the clauses settle the
successor; ``unknown`` is a failure, never a pass.
"""

from __future__ import annotations

from typing import Any

import z3

from ruleproof.errors import AmbiguousRule

TOTAL = 13


def _du_en(h: Any, p: Any, h2: Any, p2: Any, g: Any) -> Any:
    third = h + 1 == 3
    return z3.And(p >= 1,  # du-en: stakes never run out (proved by `ruleproof prove`)
                  z3.If(third, z3.And(g, h2 == 0, p2 == p - 1 + 3),
                        z3.And(z3.Not(g), h2 == h + 1, p2 == p - 1)))


def _du_cs(h: Any, p: Any, h2: Any, p2: Any, g: Any) -> Any:
    # holding three already: the gift, stakes back; else a stake is taken if one is there;
    # with none on the path and fewer than three held the text says nothing.
    return z3.If(h >= 3, z3.And(g, h2 == 0),
                 z3.If(p >= 1, z3.And(z3.Not(g), h2 == h + 1, p2 == p - 1), z3.BoolVal(True)))


SOURCES = {"du-en": _du_en, "du-cs": _du_cs}


def two_successors(source: str) -> tuple[str, dict[str, int] | None]:
    """('sat', witness) when two different successors satisfy ``source``'s stake contracts,
    ('unsat', None) when the successor is unique.

    Raises:
        AmbiguousRule: never; z3 ``unknown`` raises :class:`RuntimeError` (not a pass).
    """
    contract = SOURCES[source]
    h, p = z3.Ints("h p")
    h2a, p2a, h2b, p2b = z3.Ints("h2a p2a h2b p2b")
    ga, gb = z3.Bools("ga gb")
    s = z3.Solver()
    s.set("timeout", 10_000)
    s.add(h >= 0, p >= 0, h + p <= TOTAL, h <= 3)
    for h2, p2 in ((h2a, p2a), (h2b, p2b)):
        s.add(h2 >= 0, p2 >= 0, h2 + p2 == h + p)  # stakes are neither made nor lost
    s.add(contract(h, p, h2a, p2a, ga), contract(h, p, h2b, p2b, gb))
    s.add(z3.Or(h2a != h2b, p2a != p2b, ga != gb))
    r = s.check()
    if r == z3.unknown:
        raise RuntimeError(f"z3 returned unknown for {source}: {s.reason_unknown()}")
    if r == z3.unsat:
        return "unsat", None
    m = s.model()
    return "sat", {str(v): m.eval(v, model_completion=True).as_long()
                   for v in (h, p, h2a, p2a, h2b, p2b)} | {
        "ga": int(z3.is_true(m.eval(ga, model_completion=True))),
        "gb": int(z3.is_true(m.eval(gb, model_completion=True)))}


def symbolic_findings() -> list[Any]:
    """Discovery findings of the symbolic query, one per source with two successors."""
    from ruleproof.properties.contracts.discovery import Finding

    out: list[Finding] = []
    for source in SOURCES:
        verdict, w = two_successors(source)
        if verdict == "sat" and w is not None:
            clauses = ("du-cs:prubeh.stake", "du-cs:prubeh.gift") if source == "du-cs" else (
                "du-en:ch2.stake", "du-en:ch2.gift")
            f = Finding("symbolic", f"symbolic {source}: a stake is due", source, clauses, 0,
                        (), "open an occupied grave",
                        f"holding {w['h']} with {w['p']} on the path, both ({w['h2a']} held, "
                        f"{w['p2a']} on the path, gift {bool(w['ga'])}) and ({w['h2b']}, "
                        f"{w['p2b']}, gift {bool(w['gb'])}) meet every {source} contract")
            # the register entry whose question this is: the empty path (du.empty-path)
            out.append(f.with_explanation("du.empty-path") if w["p"] == 0 else f)
    return out


_ = AmbiguousRule
