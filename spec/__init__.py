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

import importlib.util
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
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


ENTRY_POINT_GROUP = "ruleproof.games"
"""The entry-point group a package of one's own registers its game plugin in."""
ENV_PLUGINS = "RULEPROOF_PLUGINS"
"""``module:attribute`` game plugins separated by commas (quick experiments)."""
ENV_SPEC_PATH = "RULEPROOF_SPEC_PATH"
"""Extra game data folders (each holding ``game.toml``), separated by :data:`os.pathsep`."""


@cache
def _entry_points() -> tuple[tuple[str, str], ...]:
    return tuple((ep.value, f"entry point {ep.name!r} of {ep.dist.name if ep.dist else '?'}")
                 for ep in metadata.entry_points(group=ENTRY_POINT_GROUP))


def registrations() -> tuple[tuple[str, str], ...]:
    """Every game registered from outside this package, in registry order: ``(reference,
    where)`` pairs, ``reference`` being ``module:attribute`` and ``where`` how it was
    registered (an entry point of :data:`ENTRY_POINT_GROUP`, or :data:`ENV_PLUGINS`).

    The registry (``ruleproof.properties.plugin``) loads these; this layer only needs them to
    find the games' data folders (:func:`game_folders`).
    """
    env = os.environ.get(ENV_PLUGINS, "")
    return _entry_points() + tuple((item.strip(), ENV_PLUGINS) for item in env.split(",")
                                   if item.strip())


def module_folder(module: str) -> Path | None:
    """The folder holding module ``module`` (dotted), found without running the module
    (only a package's ``__init__`` may run); None if it cannot be found."""
    parts = module.strip().split(".")
    try:
        found = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    if found.submodule_search_locations:
        base = Path(next(iter(found.submodule_search_locations)))
    elif found.origin and len(parts) == 1:
        return Path(found.origin).parent
    else:
        return None
    return base.joinpath(*parts[1:-1])


@cache
def _out_of_tree(references: tuple[str, ...], search_path: str) -> tuple[Path, ...]:
    out: list[Path] = []
    for reference in references:
        folder = module_folder(reference.partition(":")[0])
        if folder is not None and (folder / "spec" / "game.toml").is_file():
            out.append((folder / "spec").resolve())
    for item in search_path.split(os.pathsep):
        if item.strip() and (Path(item.strip()) / "game.toml").is_file():
            out.append(Path(item.strip()).resolve())
    return tuple(dict.fromkeys(out))


def spec_path_problems() -> tuple[str, ...]:
    """One line per problem of an entry of :data:`ENV_SPEC_PATH`: not a game data folder (no
    ``game.toml``: left out by :func:`out_of_tree_folders`), an unreadable ``game.toml``
    (file:line:col), a game or source document that repeats a shipped one (the shipped one
    stays: :func:`source_files` keeps the first registry of a document). The registry prints
    these lines as warnings, so such a folder is not ignored or obeyed silently."""
    out: list[str] = []
    shipped = _with_shipped(())
    known = {p.stem: p.parent.parent for p in (q for f in shipped
                                               for q in f.glob("sources/*.toml"))}
    names = _game_names(shipped)
    for item in dict.fromkeys(i.strip() for i in
                              os.environ.get(ENV_SPEC_PATH, "").split(os.pathsep)):
        if not item:
            continue
        folder = Path(item)
        if not (folder / "game.toml").is_file():
            what = "does not exist" if not folder.exists() else \
                "is not a folder" if not folder.is_dir() else "holds no game.toml"
            out.append(f"{ENV_SPEC_PATH}: {item!r} is not a game data folder (it {what}); "
                       "left out")
            continue
        try:
            data, _ = _read_toml(folder / "game.toml")
        except MalformedInput as err:
            out.append(f"{ENV_SPEC_PATH}: {err.one_line()}")
            continue
        name = data.get("name")
        if isinstance(name, str) and name in names:
            out.append(f"{ENV_SPEC_PATH}: {item!r} repeats the game {name!r} of {names[name]}; "
                       "the shipped one stays")
        for registry in sorted(folder.glob("sources/*.toml")):
            if registry.stem in known and known[registry.stem] != folder.resolve():
                out.append(f"{ENV_SPEC_PATH}: {registry} repeats the source document "
                           f"{registry.stem!r} of {known[registry.stem]}; the shipped one "
                           "stays")
    return tuple(out)


def out_of_tree_folders() -> tuple[Path, ...]:
    """The data folders of games registered from outside this package (the search path).

    In order: for every :func:`registrations` reference ``pkg.mod:NAME``, the folder ``spec``
    next to ``pkg/mod.py`` if it holds ``game.toml``; then every folder of
    :data:`ENV_SPEC_PATH` that holds ``game.toml``. Resolved, without duplicates.
    """
    return _out_of_tree(tuple(r for r, _ in registrations()),
                        os.environ.get(ENV_SPEC_PATH, ""))


def game_folders() -> tuple[Path, ...]:
    """Every game's data folder (a folder holding ``game.toml``): the ones shipped in
    ``spec/``, sorted, then :func:`out_of_tree_folders`.

    A game is a folder: ``<folder>/`` holds its source registries (``sources/*.toml``),
    presets, boards, ambiguity register, scenarios, traces and pinned results. Nothing here
    names a game; the folders are found.
    """
    return _with_shipped(out_of_tree_folders())


@cache
def _with_shipped(extra: tuple[Path, ...]) -> tuple[Path, ...]:
    shipped = tuple(sorted(p.parent for p in spec_path().glob("*/game.toml")))
    return shipped + tuple(f for f in extra if f not in shipped)


@cache
def _game_names(folders: tuple[Path, ...]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder in folders:
        try:
            data, _ = _read_toml(folder / "game.toml")
        except MalformedInput:
            continue  # the registry reports it (check_game_folder), naming its plugin
        name = data.get("name")
        if isinstance(name, str) and name and name not in out:
            out[name] = folder
    return out


def game_names() -> dict[str, Path]:
    """Game name (``game.toml``'s ``name``) -> its data folder, for every game folder whose
    ``game.toml`` reads (a broken one is left out here and reported by the registry)."""
    return dict(_game_names(game_folders()))


def game_folder(game: str) -> Path:
    """The data folder of the game ``game``.

    Raises:
        MalformedInput: an unknown game (naming the known ones).
    """
    found = game_names().get(game)
    if found is None:
        raise MalformedInput(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    return found


@dataclass(frozen=True)
class GameData:
    """What a game's ``game.toml`` says.

    Attributes:
        folder: the data folder.
        name: the game's name (its plugin's ``name``).
        title: its printed name.
        sources: its source documents (each ``sources/<document>.toml``).
    """

    folder: Path
    name: str
    title: str
    sources: tuple[str, ...]


GAME_TOML_KEYS = ("name", "title", "sources")


def check_game_folder(folder: Path, name: str, players: tuple[int, ...] = ()) -> GameData:
    """Validate a game's data folder against its plugin: ``game.toml`` (``name`` equal to
    the plugin's ``name``, a non-empty ``sources`` list of documents each with a registry
    ``sources/<document>.toml``, no other keys than :data:`GAME_TOML_KEYS`), every source
    registry, and ``presets.toml`` if present (its format, each preset's ``source`` one of
    the sources and its ``players`` among ``players`` when given).

    Raises:
        MalformedInput: the first problem, at ``file:line:col``.
    """
    from ruleproof.spec.formats import read_toml

    path = folder / "game.toml"
    if not path.is_file():
        raise MalformedInput(f"the game {name!r} has no game.toml in its data folder {folder}")
    doc = read_toml(path)
    unknown = sorted(set(doc.data) - set(GAME_TOML_KEYS))
    if unknown:
        raise doc.error((unknown[0],), f"unknown key {unknown[0]!r}; game.toml holds "
                        f"{', '.join(GAME_TOML_KEYS)}", at_key=True)
    found = doc.data.get("name")
    if not isinstance(found, str) or not found:
        raise doc.error(("name",), "'name' must be the game's name (its plugin's name)")
    if found != name:
        raise doc.error(("name",), f"name {found!r} does not match its plugin {name!r}")
    sources = doc.data.get("sources")
    if not isinstance(sources, list) or not sources or not all(
            isinstance(d, str) and DOCUMENT_RE.fullmatch(d) for d in sources):
        raise doc.error(("sources",), "'sources' must be a non-empty list of source document "
                        "ids (each the stem of a registry sources/<document>.toml)")
    for index, document in enumerate(sources):
        registry = folder / "sources" / f"{document}.toml"
        if not registry.is_file():
            raise doc.error(("sources", index), f"source {document!r} has no registry "
                            f"sources/{document}.toml")
        load_clause_registry(registry)
    presets = folder / "presets.toml"
    if presets.is_file():
        _check_presets(presets, tuple(sources), players)
    title = doc.data.get("title", name)
    return GameData(folder, name, title if isinstance(title, str) else name, tuple(sources))


def _check_presets(path: Path, sources: tuple[str, ...], players: tuple[int, ...]) -> None:
    from ruleproof.spec.formats import read_toml, validate
    from ruleproof.spec.models import PresetFile

    doc = read_toml(path)
    problems = doc.problems()
    model = validate(PresetFile, doc.data, problems)
    problems.raise_if_any()
    assert model is not None
    seen: set[str] = set()
    for index, preset in enumerate(model.preset):
        if preset.name in seen:
            raise doc.error(("preset", index, "name"), f"duplicate preset {preset.name!r}")
        seen.add(preset.name)
        if preset.source not in sources:
            raise doc.error(("preset", index, "source"), f"preset {preset.name!r}: source "
                            f"{preset.source!r} is not one of the game's ({', '.join(sources)})")
        for j, count in enumerate(preset.players):
            if players and count not in players:
                raise doc.error(("preset", index, "players", j), f"preset {preset.name!r}: "
                                f"the game takes {', '.join(map(str, players))} players, not "
                                f"{count}")


def source_files(roots: tuple[Path, ...] | None = None) -> dict[str, Path]:
    """Source document id -> its clause registry file, over the game folders ``roots``
    (default: :func:`game_folders`). A registry is ``<game folder>/sources/<document>.toml``."""
    return dict(_source_files(game_folders() if roots is None else roots))


@cache
def _source_files(roots: tuple[Path, ...]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder in roots:
        for path in sorted(folder.glob("sources/*.toml")):
            # the first folder wins (shipped ones come first): a folder of the search path
            # cannot replace a shipped registry's clauses (spec_path_problems warns of it)
            if DOCUMENT_RE.fullmatch(path.stem) and path.stem not in out:
                out[path.stem] = path
    return out


def documents() -> tuple[str, ...]:
    """The ids of every source document of every game folder (:func:`game_folders`), in
    game-folder order."""
    return tuple(source_files())


def clause_id_pattern(docs: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern matching a clause id ``<document>:<section>.<name>`` of one of ``docs``
    (longest document first, so ``du-en`` never shadows a longer id). The dot is required: a
    name without one (``du-en:qr``) is a part of a document (a contract set of its quick
    reference, FAQ or worked example), not a clause."""
    alternatives = "|".join(re.escape(d) for d in sorted(docs, key=lambda d: (-len(d), d)))
    return re.compile(rf"\b(?:{alternatives}):[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:[.-][a-z0-9]+)*")


def clause_id_re() -> re.Pattern[str]:
    """:func:`clause_id_pattern` over every document of every game folder (citations,
    registries; out-of-tree games included, see :func:`game_folders`)."""
    return _clause_id_re(documents())


@cache
def _clause_id_re(docs: tuple[str, ...]) -> re.Pattern[str]:
    return clause_id_pattern(docs)


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML file within the size and nesting limits of :mod:`ruleproof.spec.formats`;
    any problem becomes MalformedInput with file, line and column."""
    from ruleproof.spec.formats import read_toml

    doc = read_toml(path)
    return doc.data, doc.text


def _at(path: Path, text: str, key: tuple[str | int, ...], what: str, line: int | None
        ) -> MalformedInput:
    """A MalformedInput at the value ``key`` of the TOML ``text`` (line and column), or at
    ``line`` if the value cannot be placed."""
    from ruleproof.spec.tomlpos import Positions

    try:
        found_line, col = Positions(text).where(key)
    except Exception:
        return MalformedInput(what, file=str(path), line=line)
    return MalformedInput(what, file=str(path), line=found_line, col=col)


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
        if isinstance(cid, str) and ":" in cid and not cid.startswith(f"{document}:"):
            raise _at(path, text, ("clause", index, "id"),
                      f"clause {cid}: the document is wrong: this registry is {document!r}, so "
                      f"its ids start with '{document}:'", line)
        if not isinstance(cid, str) or not id_re.fullmatch(cid):
            raise _at(path, text, ("clause", index, "id"),
                      f"clause id {cid!r} is not of the form {document}:section.name", line)
        if cid in seen:
            raise _at(path, text, ("clause", index, "id"), f"clause {cid}: duplicate id", line)
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


def clause_registry(document: str) -> ClauseRegistry:
    """The registry of ``document`` in a game folder (:func:`game_folders`; cached, the files
    are read-only data).

    Raises:
        MalformedInput: no game folder has a registry of that name (naming the known ones).
    """
    path = source_files().get(document)
    if path is None:
        raise MalformedInput(f"no clause registry ships for {document!r}; known: "
                             f"{', '.join(documents())}")
    return _clause_registry(document, path)


@cache
def _clause_registry(document: str, path: Path) -> ClauseRegistry:
    registry = load_clause_registry(path)
    if registry.document != document:
        raise MalformedInput(f"'document' must be {document!r} (the file's name), got "
                             f"{registry.document!r}", file=str(path))
    return registry


def shipped_documents() -> tuple[str, ...]:
    """Documents whose clause registry ships in ``spec/`` (see :func:`documents`)."""
    return documents()


def all_clause_ids() -> frozenset[str]:
    """Every clause id of every registry of every game folder."""
    return _all_clause_ids(tuple(source_files().items()))


@cache
def _all_clause_ids(files: tuple[tuple[str, Path], ...]) -> frozenset[str]:
    return frozenset(c.id for d, path in files for c in _clause_registry(d, path))


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
