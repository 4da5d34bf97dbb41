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
DOCUMENT_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""What a source document id looks like (``du-en``, ``dracula-en``): the stem of its registry file."""


def spec_path(*parts: str) -> Path:
    """Absolute path of a file shipped in ``spec/`` (works from a wheel or a checkout)."""
    # This package's own files: ``ruleproof.spec`` when installed (there is no top-level
    # ``spec`` then); resolved, so a checkout reports the real ``spec/`` folder, not the link.
    root = Path(str(resources.files(__name__))).resolve()
    return root.joinpath(*parts)


def game_folders() -> tuple[Path, ...]:
    """Every game's data folder shipped in ``spec/`` (a folder holding ``game.toml``), sorted.

    A game is a folder: ``spec/<game>/`` holds its source registries (``sources/*.toml``),
    presets, boards, ambiguity register, scenarios, traces and pinned results. Nothing here
    names a game; the folders are found.
    """
    root = spec_path()
    return tuple(sorted(p.parent for p in root.glob("*/game.toml")))


@cache
def game_names() -> dict[str, Path]:
    """Game name (``game.toml``'s ``name``) -> its data folder, for every shipped game."""
    out: dict[str, Path] = {}
    for folder in game_folders():
        data, text = _read_toml(folder / "game.toml")
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise MalformedInput("'name' must be the game's name", file=str(folder / "game.toml"),
                                 line=line_of(text, "name"))
        out[name] = folder
    return out


def game_folder(game: str) -> Path:
    """The data folder of the shipped game ``game``.

    Raises:
        MalformedInput: an unknown game (naming the known ones).
    """
    found = game_names().get(game)
    if found is None:
        raise MalformedInput(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    return found


def source_files(roots: tuple[Path, ...] | None = None) -> dict[str, Path]:
    """Source document id -> its clause registry file, over the game folders ``roots``
    (default: :func:`game_folders`). A registry is ``<game folder>/sources/<document>.toml``."""
    out: dict[str, Path] = {}
    for folder in game_folders() if roots is None else roots:
        for path in sorted(folder.glob("sources/*.toml")):
            if DOCUMENT_RE.fullmatch(path.stem):
                out[path.stem] = path
    return out


def documents() -> tuple[str, ...]:
    """The ids of every shipped source document, in game-folder order."""
    return tuple(source_files())


def clause_id_pattern(docs: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern matching a clause id ``<document>:<section>.<name>`` of one of ``docs``
    (longest document first, so ``du-en`` never shadows a longer id)."""
    alternatives = "|".join(re.escape(d) for d in sorted(docs, key=lambda d: (-len(d), d)))
    return re.compile(rf"\b(?:{alternatives}):[a-z0-9]+(?:[.-][a-z0-9]+)*")


@cache
def clause_id_re() -> re.Pattern[str]:
    """:func:`clause_id_pattern` over every shipped document (citations, registries)."""
    return clause_id_pattern(documents())


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
    if not isinstance(document, str) or not DOCUMENT_RE.fullmatch(document):
        raise MalformedInput(
            f"'document' must be a document id (lower-case words joined by '-'), got "
            f"{document!r}",
            file=file,
            line=line_of(text, "document"),
        )
    id_re = clause_id_pattern((document,))
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
        if not isinstance(cid, str) or not id_re.fullmatch(cid):
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
    """The shipped registry of ``document`` (cached; the files are read-only data).

    Raises:
        MalformedInput: no registry of that name ships (naming the shipped ones).
    """
    path = source_files().get(document)
    if path is None:
        raise MalformedInput(f"no clause registry ships for {document!r}; known: "
                             f"{', '.join(documents())}")
    registry = load_clause_registry(path)
    if registry.document != document:
        raise MalformedInput(f"'document' must be {document!r} (the file's name), got "
                             f"{registry.document!r}", file=str(path))
    return registry


def shipped_documents() -> tuple[str, ...]:
    """Documents whose clause registry ships in ``spec/`` (see :func:`documents`)."""
    return documents()


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
def manifest(folder: str) -> Manifest:
    """The shipped component manifest of the game whose data folder is ``spec/<folder>/``
    (its ``components.toml``)."""
    return load_manifest(spec_path(folder, "components.toml"))
