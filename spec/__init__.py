"""Loaders for the data in ``spec/``: clause registries, component manifests and boards.

Everything here is data with provenance. Loaders validate what they read and raise
:class:`ruleproof.errors.MalformedInput` naming the file, the line and the broken constraint;
they never return a half-valid object.

Provenance values (see ``docs/provenance.md``):

* ``rulebook`` -- stated in a source document (cite the clause id);
* ``public``   -- stated by a named public source outside the rule texts;
* ``assumed``  -- our choice because no source settles it; always replaceable by the user.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput

PROVENANCES = ("rulebook", "public", "assumed")
CLAUSE_KINDS = ("setup", "legality", "effect", "turn-order", "end")
DOCUMENTS = ("du-en", "du-cs", "gruft-en", "dracula-en")
CLAUSE_ID_RE = re.compile(r"\b(?:du-en|du-cs|gruft-en|dracula-en):[a-z0-9]+(?:[.-][a-z0-9]+)*")


def spec_path(*parts: str) -> Path:
    """Absolute path of a file shipped in ``spec/`` (works from a wheel or a checkout)."""
    # This package's own files: ``ruleproof.spec`` when installed (there is no top-level
    # ``spec`` then); resolved, so a checkout reports the real ``spec/`` folder, not the link.
    root = Path(str(resources.files(__name__))).resolve()
    return root.joinpath(*parts)


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML file within the size and nesting limits of :mod:`ruleproof.spec.formats`;
    any problem becomes MalformedInput with file, line and column."""
    from ruleproof.spec.formats import read_toml

    doc = read_toml(path)
    return doc.data, doc.text


def line_of(text: str, needle: str, start: int = 1) -> int | None:
    """1-based number of the first line at or after ``start`` containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= start and needle in line:
            return number
    return None


def table_lines(text: str, header: str) -> list[int]:
    """Line numbers of every ``[[header]]`` array-of-tables header, in file order."""
    pattern = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
    return [n for n, line in enumerate(text.splitlines(), start=1) if pattern.match(line)]


# --------------------------------------------------------------------------- clauses


@dataclass(frozen=True)
class Clause:
    """One rule clause of a source document.

    Attributes:
        id: stable id ``<document>:<section>.<name>``, e.g. ``du-en:ch2.stake``.
        document: source document id (``du-en``, ``du-cs``, ``gruft-en``, ``dracula-en``).
        section: the section heading of the source the clause comes from.
        kind: one of :data:`CLAUSE_KINDS`.
        text: our own paraphrase (never the rulebook's sentence).
        restates: ids of clauses this one repeats (e.g. quick-reference lines).
        line: line of the clause in its registry file.
    """

    id: str
    document: str
    section: str
    kind: str
    text: str
    restates: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class ClauseRegistry:
    """All clauses of one source document, in file order."""

    document: str
    title: str
    clauses: tuple[Clause, ...]

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses)

    def __contains__(self, clause_id: object) -> bool:
        return any(c.id == clause_id for c in self.clauses)

    def get(self, clause_id: str) -> Clause:
        """The clause with this id; KeyError if absent."""
        for c in self.clauses:
            if c.id == clause_id:
                return c
        raise KeyError(clause_id)


def load_clause_registry(path: Path) -> ClauseRegistry:
    """Load and validate a clause registry TOML file.

    Raises:
        MalformedInput: on a TOML error, a missing field, a duplicate id, an id of the wrong
            document, an unknown kind or an empty paraphrase (message names file, line and id).
    """
    data, text = _read_toml(path)
    file = str(path)
    document = data.get("document")
    if document not in DOCUMENTS:
        raise MalformedInput(
            f"'document' must be one of {', '.join(DOCUMENTS)}, got {document!r}",
            file=file,
            line=line_of(text, "document"),
        )
    raw = data.get("clause")
    if not isinstance(raw, list) or not raw:
        raise MalformedInput("expected at least one [[clause]] table", file=file)
    lines = table_lines(text, "clause")
    seen: set[str] = set()
    clauses: list[Clause] = []
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else None
        if not isinstance(entry, dict):
            raise MalformedInput("[[clause]] must be a table", file=file, line=line)
        cid = entry.get("id")
        if not isinstance(cid, str) or not CLAUSE_ID_RE.fullmatch(cid):
            raise MalformedInput(f"clause id {cid!r} is not of the form doc:section.name",
                                 file=file, line=line)
        if not cid.startswith(f"{document}:"):
            raise MalformedInput(f"clause {cid}: id must start with '{document}:'",
                                 file=file, line=line)
        if cid in seen:
            raise MalformedInput(f"clause {cid}: duplicate id", file=file, line=line)
        seen.add(cid)
        for field in ("section", "kind", "text"):
            value = entry.get(field)
            if not isinstance(value, str) or not value.strip():
                raise MalformedInput(f"clause {cid}: field '{field}' must be a non-empty string",
                                     file=file, line=line)
        if entry["kind"] not in CLAUSE_KINDS:
            raise MalformedInput(
                f"clause {cid}: kind {entry['kind']!r} is not one of {', '.join(CLAUSE_KINDS)}",
                file=file, line=line)
        restates = entry.get("restates", [])
        if not isinstance(restates, list) or not all(isinstance(r, str) for r in restates):
            raise MalformedInput(f"clause {cid}: 'restates' must be a list of clause ids",
                                 file=file, line=line)
        unknown = set(entry) - {"id", "section", "kind", "text", "restates"}
        if unknown:
            raise MalformedInput(f"clause {cid}: unknown field(s) {', '.join(sorted(unknown))}",
                                 file=file, line=line)
        clauses.append(Clause(cid, document, entry["section"], entry["kind"],
                              " ".join(entry["text"].split()), tuple(restates), line or 0))
    for c in clauses:
        for r in c.restates:
            if r not in seen:
                raise MalformedInput(f"clause {c.id}: restates unknown clause {r}",
                                     file=file, line=c.line)
    return ClauseRegistry(document, str(data.get("title", document)), tuple(clauses))


@cache
def clause_registry(document: str) -> ClauseRegistry:
    """The shipped registry of ``document`` (cached; the files are read-only data)."""
    return load_clause_registry(spec_path(document, "clauses.toml"))


def shipped_documents() -> tuple[str, ...]:
    """Documents whose clause registry ships in ``spec/``."""
    return tuple(d for d in DOCUMENTS if spec_path(d, "clauses.toml").is_file())


def all_clause_ids() -> frozenset[str]:
    """Every clause id of every shipped registry."""
    return frozenset(c.id for d in shipped_documents() for c in clause_registry(d))


# --------------------------------------------------------------------------- manifests


@dataclass(frozen=True)
class Fact:
    """One number or list in a component manifest, with where it comes from.

    Attributes:
        name: the fact's key, e.g. ``stakes``.
        value: an int, string or list of strings.
        provenance: one of :data:`PROVENANCES`.
        source: a clause id (rulebook), a named public source, or the reason for an assumption.
    """

    name: str
    value: int | str | tuple[str, ...]
    provenance: str
    source: str


@dataclass(frozen=True)
class Manifest:
    """A component manifest: named facts with provenance."""

    game: str
    facts: Mapping[str, Fact]

    def int(self, name: str) -> int:
        """The integer fact ``name`` (KeyError / TypeError if absent or not an int)."""
        value = self.facts[name].value
        if not isinstance(value, int):
            raise TypeError(f"manifest fact {name} is not an integer")
        return value

    def strings(self, name: str) -> tuple[str, ...]:
        """The list-of-strings fact ``name``."""
        value = self.facts[name].value
        if not isinstance(value, tuple):
            raise TypeError(f"manifest fact {name} is not a list")
        return value


def load_manifest(path: Path) -> Manifest:
    """Load a component manifest (``[[fact]]`` tables with name, value, provenance, source).

    Raises:
        MalformedInput: naming the file, line and fact on any missing or wrong field.
    """
    data, text = _read_toml(path)
    file = str(path)
    lines = table_lines(text, "fact")
    facts: dict[str, Fact] = {}
    raw = data.get("fact")
    if not isinstance(raw, list):
        raise MalformedInput("expected [[fact]] tables", file=file)
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            raise MalformedInput("fact without a string 'name'", file=file, line=line)
        value = entry.get("value")
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = tuple(value)
        elif isinstance(value, bool) or not isinstance(value, int | str):
            raise MalformedInput(f"fact {name}: 'value' must be an integer, string or string list",
                                 file=file, line=line)
        prov = entry.get("provenance")
        if prov not in PROVENANCES:
            raise MalformedInput(
                f"fact {name}: provenance must be one of {', '.join(PROVENANCES)}, got {prov!r}",
                file=file, line=line)
        source = entry.get("source")
        if not isinstance(source, str) or not source:
            raise MalformedInput(f"fact {name}: 'source' must name a clause id or a public source",
                                 file=file, line=line)
        if name in facts:
            raise MalformedInput(f"fact {name}: duplicate", file=file, line=line)
        facts[name] = Fact(name, value, prov, source)
    return Manifest(str(data.get("game", "")), facts)


@cache
def manifest(game: str) -> Manifest:
    """The shipped component manifest of ``game`` (e.g. ``dawn-under``)."""
    return load_manifest(spec_path("manifests", f"{game}.toml"))
