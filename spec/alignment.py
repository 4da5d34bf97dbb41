"""Alignments between clause registries: how a second source relates to ``du-en``.

Two kinds of alignment ship in ``spec/dawn_under/alignment/<source>.toml``:

* a **translation** (``du-cs``): every source clause appears exactly once as a source, and every
  clause of the target document appears in at least one pair. Relations: ``agree``, ``differs``,
  ``source-only`` (no target) and ``target-only`` (no source);
* an **expansion** (``kind = "expansion"``, e.g. ``gruft-en``): every source clause appears
  exactly once, with the target clauses it ``changes``, restates (``agree``), or none when it
  ``adds`` a new rule. The target document need not be covered.

File format (see ``docs/translations.md``)::

    source = "du-cs"
    target = "du-en"

    [[pair]]
    source = "du-cs:prubeh.match-ends"      # omitted for target-only
    target = ["du-en:ch1.continue"]          # [] for source-only / adds
    relation = "differs"
    note = "du-cs ends the turn after a placement"

Every error raises :class:`ruleproof.errors.MalformedInput` naming the file, the line and the
offending clause id; the loader never returns a half-valid alignment.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.spec import (
    ClauseRegistry,
    _read_toml,
    clause_registry,
    game_folders,
    line_of,
    source_files,
    table_lines,
)

TRANSLATION_RELATIONS = ("agree", "differs", "source-only", "target-only")
EXPANSION_RELATIONS = ("changes", "adds", "agree")
KINDS = ("translation", "expansion")
"""What an alignment file's ``kind`` says its source is to its target (default translation)."""

NOTE_REQUIRED = ("differs", "source-only", "target-only", "changes")
"""Relations whose pairs must say in a note what the difference is."""

PAIR_FIELDS = frozenset({"source", "target", "relation", "note"})


def relations_for(kind: str) -> tuple[str, ...]:
    """The relation values allowed in an alignment of ``kind`` (:data:`KINDS`)."""
    return EXPANSION_RELATIONS if kind == "expansion" else TRANSLATION_RELATIONS


@dataclass(frozen=True)
class Pair:
    """One ``[[pair]]`` of an alignment.

    Attributes:
        source: clause id of the source document, or None for a ``target-only`` pair.
        targets: counterpart clause ids in the target document (empty for ``source-only``/``adds``).
        relation: one of :data:`TRANSLATION_RELATIONS` or :data:`EXPANSION_RELATIONS`.
        note: what differs, changes or is missing (may be empty for ``agree``/``adds``).
        line: line of the ``[[pair]]`` header in the alignment file.
    """

    source: str | None
    targets: tuple[str, ...]
    relation: str
    note: str = ""
    line: int = 0


@dataclass(frozen=True)
class Alignment:
    """A validated alignment of ``source`` to ``target``, pairs in file order."""

    source: str
    target: str
    pairs: tuple[Pair, ...]
    file: str = ""
    kind: str = "translation"
    """``expansion`` or ``translation`` (the file's ``kind``)."""

    def __iter__(self) -> Iterator[Pair]:
        return iter(self.pairs)

    def of(self, source_id: str) -> Pair:
        """The pair whose source is ``source_id``; KeyError if there is none."""
        for p in self.pairs:
            if p.source == source_id:
                return p
        raise KeyError(source_id)

    def with_relation(self, relation: str) -> tuple[Pair, ...]:
        """Every pair with this relation, in file order."""
        return tuple(p for p in self.pairs if p.relation == relation)

    def counterparts(self, target_id: str) -> tuple[Pair, ...]:
        """Every pair that lists ``target_id`` among its targets."""
        return tuple(p for p in self.pairs if target_id in p.targets)

    def counts(self) -> dict[str, int]:
        """Number of pairs per allowed relation (zero included)."""
        found = Counter(p.relation for p in self.pairs)
        return {r: found[r] for r in relations_for(self.kind)}


def _key_line(text: str, key: str) -> int | None:
    """Line of the top-level ``key = ...`` (before the first table header)."""
    pattern = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("["):
            return None
        if pattern.match(line):
            return number
    return None


def _registry(document: object, key: str, file: str, text: str) -> ClauseRegistry:
    """The shipped registry named by the top-level ``key`` (``source`` or ``target``)."""
    line = _key_line(text, key)
    known = source_files()
    if not isinstance(document, str) or document not in known:
        raise MalformedInput(f"'{key}' must be one of {', '.join(known)}, got {document!r}",
                             file=file, line=line)
    path = known[document]
    if not path.is_file():
        raise MalformedInput(f"'{key}': no clause registry ships for {document} ({path})",
                             file=file, line=line)
    return clause_registry(document)


def _ids(value: object) -> list[str] | None:
    """``value`` as a list of strings, or None if it is not one."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _pair(entry: Any, line: int | None, file: str, text: str, src: ClauseRegistry,
          tgt: ClauseRegistry, allowed: tuple[str, ...], expansion: bool) -> Pair:
    """Validate one ``[[pair]]`` table (everything that does not need the other pairs)."""

    def at(key: str, clause_id: str) -> int | None:
        """The line inside this pair where ``key`` names ``clause_id`` (else the header line)."""
        if not line:
            return None
        start = line_of(text, key, line) or line
        return line_of(text, f'"{clause_id}"', start) or line

    if not isinstance(entry, dict):
        raise MalformedInput("[[pair]] must be a table", file=file, line=line)
    source = entry.get("source")
    raw_targets = entry.get("target")
    # the id to name in messages: the source, else the first target
    name = source if isinstance(source, str) else (
        raw_targets[0] if isinstance(raw_targets, list) and raw_targets
        and isinstance(raw_targets[0], str) else "(no id)")
    unknown = set(entry) - PAIR_FIELDS
    if unknown:
        raise MalformedInput(f"pair {name}: unknown field(s) {', '.join(sorted(unknown))}",
                             file=file, line=line)
    if source is not None:
        if not isinstance(source, str):
            raise MalformedInput(f"pair {name}: 'source' must be a clause id string",
                                 file=file, line=line)
        if source not in src:
            raise MalformedInput(f"pair {source}: unknown {src.document} clause {source}",
                                 file=file, line=at("source", source))
    targets = _ids(raw_targets)
    if targets is None:
        raise MalformedInput(f"pair {name}: 'target' must be a list of {tgt.document} clause ids",
                             file=file, line=line)
    for t in targets:
        if t not in tgt:
            raise MalformedInput(f"pair {name}: unknown {tgt.document} clause {t}",
                                 file=file, line=at("target", t))
    doubled = sorted({t for t in targets if targets.count(t) > 1})
    if doubled:
        raise MalformedInput(f"pair {name}: target {doubled[0]} listed twice", file=file, line=line)
    relation = entry.get("relation")
    if relation not in allowed:
        raise MalformedInput(
            f"pair {name}: relation {relation!r} is not one of {', '.join(allowed)}",
            file=file, line=line)
    assert isinstance(relation, str)
    note = entry.get("note", "")
    if not isinstance(note, str):
        raise MalformedInput(f"pair {name}: 'note' must be a string", file=file, line=line)
    note = " ".join(note.split())
    if relation in NOTE_REQUIRED and not note:
        raise MalformedInput(f"pair {name}: a '{relation}' pair needs a note saying what differs",
                             file=file, line=line)
    # shape of each relation
    if relation == "target-only":
        if source is not None:
            raise MalformedInput(f"pair {name}: a target-only pair has no 'source'",
                                 file=file, line=line)
        if not targets:
            raise MalformedInput("target-only pair without targets", file=file, line=line)
    elif source is None:
        what = "needs a 'source'" if expansion else "without 'source' must be target-only"
        raise MalformedInput(f"pair {name}: a '{relation}' pair {what}", file=file, line=line)
    elif relation in ("source-only", "adds"):
        if targets:
            raise MalformedInput(f"pair {source}: a '{relation}' pair must have target = []",
                                 file=file, line=line)
    elif not targets:
        raise MalformedInput(f"pair {source}: a '{relation}' pair needs at least one target",
                             file=file, line=line)
    return Pair(source, tuple(targets), relation, note, line or 0)


def load_alignment(path: Path) -> Alignment:
    """Load and validate an alignment file against the shipped clause registries.

    Raises:
        MalformedInput: on a TOML error, an unknown document or clause id, an unknown relation, a
            pair whose shape does not fit its relation, a source clause aligned twice or not at all,
            or (translations) a target clause no pair mentions. The message names the clause id;
            ``file`` and ``line`` point into the alignment file.
    """
    data, text = _read_toml(path)
    file = str(path)
    src = _registry(data.get("source"), "source", file, text)
    tgt = _registry(data.get("target"), "target", file, text)
    if src.document == tgt.document:
        raise MalformedInput(f"an alignment needs two documents, got {src.document} twice",
                             file=file, line=_key_line(text, "target"))
    unknown = set(data) - {"source", "target", "pair", "kind"}
    if unknown:
        raise MalformedInput(f"unknown top-level key(s) {', '.join(sorted(unknown))}", file=file,
                             line=_key_line(text, sorted(unknown)[0]))
    raw = data.get("pair")
    if not isinstance(raw, list) or not raw:
        raise MalformedInput("expected at least one [[pair]] table", file=file)
    kind = data.get("kind", "translation")
    if kind not in KINDS:
        raise MalformedInput(f"'kind' must be one of {', '.join(KINDS)}, got {kind!r}",
                             file=file, line=_key_line(text, "kind"))
    expansion = kind == "expansion"
    allowed = relations_for(kind)
    lines = table_lines(text, "pair")
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else None
        p = _pair(entry, line, file, text, src, tgt, allowed, expansion)
        if p.source is not None:
            if p.source in seen:
                raise MalformedInput(
                    f"pair {p.source}: {p.source} is already aligned at line {seen[p.source]}; "
                    f"each {src.document} clause appears exactly once as a source",
                    file=file, line=line)
            seen[p.source] = p.line
        pairs.append(p)
    header = _key_line(text, "source")
    for c in src:
        if c.id not in seen:
            raise MalformedInput(
                f"{src.document} clause {c.id} (registry line {c.line}) has no [[pair]]; every "
                f"{src.document} clause must appear exactly once as a source",
                file=file, line=header)
    if not expansion:
        covered = {t for p in pairs for t in p.targets}
        for c in tgt:
            if c.id not in covered:
                raise MalformedInput(
                    f"{tgt.document} clause {c.id} (registry line {c.line}) appears in no [[pair]]; "
                    f"add it as a counterpart or in a target-only pair",
                    file=file, line=_key_line(text, "target"))
    return Alignment(src.document, tgt.document, tuple(pairs), file, str(kind))


def alignment_files() -> dict[str, Path]:
    """Source document -> its shipped alignment file (``spec/<game>/alignment/<document>.toml``,
    over every game folder)."""
    return {p.stem: p for folder in game_folders()
            for p in sorted(folder.glob("alignment/*.toml")) if p.stem in source_files()}


def shipped_alignments() -> tuple[str, ...]:
    """Source documents whose alignment ships in a game folder's ``alignment/``."""
    return tuple(alignment_files())


@cache
def alignment(source: str) -> Alignment:
    """The shipped alignment of ``source`` (cached; the files are read-only data).

    Raises:
        MalformedInput: if no alignment ships for ``source`` or the shipped file is broken.
    """
    path = alignment_files().get(source)
    if path is None:
        known = ", ".join(shipped_alignments()) or "none"
        raise MalformedInput(f"no alignment ships for {source!r}; known: {known}")
    return load_alignment(path)
