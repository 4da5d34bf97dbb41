"""Registered readings of the rules (ambiguity registers) and the clause ids a rule set cites.

Used to blame a divergence on the clause whose registered reading separates the model's step
from the engine's: if the engine's report is exactly what another reading of an ambiguity gives,
the clauses supporting the model's reading are blamed. A game's register is
``ambiguities.toml`` in its spec folder (the plugin record's ``spec_folder``); clauses of a
translation are related to those of the document it translates through the game's alignment
files (``spec/<game>/alignment/<source>.toml`` of kind ``translation``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from ruleproof.properties.plugin import plugin
from ruleproof.spec.alignment import alignment, shipped_alignments


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
    """The ambiguity register of ``game`` (``ambiguities.toml`` in its spec folder) as
    :class:`Reading` entries; empty if the game registers none.

    Raises:
        MalformedInput: an unknown game (naming the known ones); a register file that is not
            TOML (at FILE:LINE:COL).
    """
    path = plugin(game).spec_folder / "ambiguities.toml"
    if not path.is_file():
        return ()
    from ruleproof.spec.formats import read_toml

    data = read_toml(path).data  # a broken file: MalformedInput at FILE:LINE:COL
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
def counterparts(source: str) -> dict[str, tuple[str, ...]]:
    """Clause of the document ``source`` is aligned to -> the clauses of ``source`` aligned
    to it (its shipped alignment file).

    Raises:
        MalformedInput: no alignment ships for ``source``.
    """
    out: dict[str, list[str]] = {}
    for pair in alignment(source).pairs:
        if pair.source is None:
            continue
        for target in pair.targets:
            out.setdefault(target, []).append(pair.source)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _translations() -> tuple[str, ...]:
    """The shipped alignments of kind ``translation`` (a second text of the same rules)."""
    return tuple(s for s in shipped_alignments() if alignment(s).kind == "translation")


def reading_clauses(game: str, option: str, value: str, preset: str,
                    own_document: str = "") -> tuple[str, ...]:
    """The clauses of the reading ``option=value`` under ``preset``: the clauses supporting it
    in ``game``'s register (entries registered for ``preset`` first), else the ambiguity's
    clauses; those whose ids begin with ``own_document`` (the rule set's own document or
    section, e.g. ``doc:``) first: its clauses supporting the reading, else its clauses in
    question."""
    entries = [r for r in ambiguity_register(game) if r.option == option]
    entries.sort(key=lambda r: r.preset != preset)
    for entry in entries:
        support = entry.supported_by.get(value, ())
        pool = support or entry.clauses
        if pool:
            own = [c for c in (*support, *entry.clauses)
                   if own_document and c.startswith(own_document)]
            return _dedup([*own, *pool])
    return ()


def same_rule(a: str, b: str) -> bool:
    """True if clause ids ``a`` and ``b`` state the same rule: equal, or a clause and the
    clause of a translation aligned to it (the translations' alignment files)."""
    if a == b:
        return True
    for source in _translations():
        found = counterparts(source)
        if a in found.get(b, ()) or b in found.get(a, ()):
            return True
    return False


__all__ = ["Reading", "ambiguity_register", "counterparts", "reading_clauses", "same_rule"]
