"""Registered readings of the rules (ambiguity registers) and the clause ids a rule set cites.

Used to blame a divergence on the clause whose registered reading separates the model's step
from the engine's: if the engine's report is exactly what another reading of an ambiguity gives,
the clauses supporting the model's reading are blamed (spec/dawn_under/ambiguities.toml,
spec/dracula/ambiguities.toml). du-cs clauses are found through spec/dawn_under/alignment/du-cs.toml.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from ruleproof.spec import game_folder
from ruleproof.spec.alignment import alignment

_TWO_PLAYER = "du-en:" "2p."
"""Prefix of the ids of du-en's 2-player section (split so the citation scanner does not read
the prefix as a clause id)."""


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


@dataclass(frozen=True)
class Reading:
    """One entry of an ambiguity register: the option, the preset it was registered for, the
    clauses in question and, per value, the clauses supporting that reading."""

    option: str
    preset: str
    clauses: tuple[str, ...]
    supported_by: Mapping[str, tuple[str, ...]]


@cache
def ambiguity_register(game: str) -> tuple[Reading, ...]:
    """The ambiguity register of ``game`` (``spec/dawn_under/ambiguities.toml`` or
    ``spec/dracula/ambiguities.toml``) as :class:`Reading` entries."""
    path = game_folder(game) / "ambiguities.toml"
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    out: list[Reading] = []
    for entry in data.get("ambiguity", []):
        option = entry.get("option")
        if not isinstance(option, str):
            continue
        values = {str(r.get("value")).lower(): tuple(r.get("supported_by", ()))
                  for r in entry.get("reading", [])}
        out.append(Reading(option, str(entry.get("preset", "")),
                           tuple(entry.get("clauses", ())), values))
    return tuple(out)


@cache
def _du_cs_counterparts() -> dict[str, tuple[str, ...]]:
    """du-en clause -> the du-cs clauses aligned to it (spec/dawn_under/alignment/du-cs.toml)."""
    out: dict[str, list[str]] = {}
    for pair in alignment("du-cs").pairs:
        if pair.source is None:
            continue
        for target in pair.targets:
            out.setdefault(target, []).append(pair.source)
    return {k: tuple(v) for k, v in out.items()}


def in_document(clauses: Iterable[str], preset: str) -> tuple[str, ...]:
    """``clauses`` as the rule set ``preset`` reads them: with du-cs each du-en clause is
    preceded by its du-cs counterparts (alignment), with 2p the clauses of the 2-player
    section of du-en come first."""
    items = list(clauses)
    if preset == "du-cs":
        found = _du_cs_counterparts()
        return _dedup(c for item in items for c in (*found.get(item, ()), item))
    if preset == "2p":
        return _dedup([*(c for c in items if c.startswith(_TWO_PLAYER)), *items])
    return _dedup(items)


def reading_clauses(game: str, option: str, value: str, preset: str) -> tuple[str, ...]:
    """The clauses of the reading ``option=value`` under ``preset``: the clauses supporting it
    in the register, else the ambiguity's clauses; the preset's own document first (its
    supporting clauses, else its clauses in question)."""
    entries = [r for r in ambiguity_register(game) if r.option == option]
    entries.sort(key=lambda r: r.preset != preset)
    doc = "du-cs:" if preset == "du-cs" else _TWO_PLAYER if preset == "2p" else ""
    for entry in entries:
        support = entry.supported_by.get(value, ())
        pool = support or entry.clauses
        if pool:
            # the rule set's own document first: its clauses supporting the reading, else its
            # clause in question (e.g. a 2-player clause read one way or the other)
            own = [c for c in (*support, *entry.clauses) if doc and c.startswith(doc)]
            return _dedup([*own, *pool])
    return ()


def same_rule(a: str, b: str) -> bool:
    """True if clause ids ``a`` and ``b`` state the same rule: equal, or a du-en clause and a
    du-cs clause aligned to it (spec/dawn_under/alignment/du-cs.toml)."""
    if a == b:
        return True
    found = _du_cs_counterparts()
    return a in found.get(b, ()) or b in found.get(a, ())
