"""Contracts of Dawn Under's sources that the mutant search (properties/discovery/mutants.py)
showed missing: a mutant changed play and broke no contract, although its clause settles the
question. Written from the clause text (``spec/dawn_under/sources/``), not from the engine;
:data:`DU_CS` is added to du-cs's set (``properties/dawn_under/contracts/__init__.py``).

* du-cs:priprava.refill -- a hidden vampire is turned up only when its side falls short of two
  face-up vampires (the mutants ``open-per-side=3`` and ``all-open-at=5`` turned up more, and
  the du-cs contract asked only for "at least two").
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.state import Config, State
from ruleproof.properties.contracts.core import Contract
from ruleproof.properties.dawn_under.contracts.du_en import face_down_row_changed

S = State
A = Any


def _cs(cfg: Config) -> bool:
    """du-cs describes the 3-6 player base game only."""
    return cfg.players >= 3 and cfg.options.expansion == "none"


def _offsets(b: tuple[Any, ...], c: tuple[Any, ...]) -> list[int]:
    """How index i of the new row ``c`` maps to index i + off of the old row ``b`` (one
    vampire off an end, one onto an end, or none)."""
    bc, cc = [v.colour for v in b], [v.colour for v in c]
    out = []
    if cc == bc:
        out.append(0)
    if len(cc) == len(bc) - 1:
        if cc == bc[1:]:
            out.append(1)
        if cc == bc[:-1]:
            out.append(0)
    if len(cc) == len(bc) + 1:
        if cc[1:] == bc:
            out.append(-1)
        if cc[:-1] == bc:
            out.append(0)
    return out


def _turned_when_short(s: S, a: A, t: S) -> bool | None:
    """Every vampire turned up in the step is the next hidden one of a side that showed fewer
    than two face-up vampires (so it lies within two of an end of its row)."""
    for b, c in zip(s.rows, t.rows, strict=True):
        offsets = _offsets(b, c)
        if not offsets:
            return None  # not a change at the ends: other clauses judge it
        if not any(all(i < 2 or len(c) - 1 - i < 2 for i, v in enumerate(c)
                       if v.face_up and 0 <= i + off < len(b) and not b[i + off].face_up)
                   for off in offsets):
            return False
    return True


C = Contract
DU_CS: tuple[Contract, ...] = (
    C("du-cs:priprava.refill", requires=_turned_when_short, applies=_cs,
      when=face_down_row_changed,
      what="a hidden vampire is turned up only when its side falls short of two"),
)
"""du-cs contracts the mutant search showed missing (added to du-cs's set)."""
