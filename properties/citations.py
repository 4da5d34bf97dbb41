"""Where the code cites clause ids: the traceability link from the registry to the model.

A citation is any occurrence of a clause id (``spec.clause_id_re()``) in the source of the
``model`` and ``properties`` packages and of every registered game's folders (a game registered
from another package brings the folder of its plugin module), in code, comments or docstrings.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from ruleproof import model, properties
from ruleproof.properties.plugin import GamePlugin, plugins
from ruleproof.spec import clause_id_re

LAYERS = ("model", "properties")
"""The packages a game's code lives in (``model/<game>/``, ``properties/<game>/``)."""


def _root(package: object) -> Path:
    return Path(str(package.__file__)).parent  # type: ignore[attr-defined]


def game_folders(p: GamePlugin, layers: Sequence[str] = LAYERS) -> list[Path]:
    """The code folders of a game: ``<layer>/<package>`` for each of ``layers`` that exists;
    for a game registered from another package (no such folder), the folder of the module
    that defines its ``make_game``."""
    roots = {"model": _root(model), "properties": _root(properties)}
    out = [roots[layer] / p.package for layer in layers if (roots[layer] / p.package).is_dir()]
    if not out:
        module = sys.modules.get(getattr(p.make_game, "__module__", ""))
        where = getattr(module, "__file__", None)
        if where:
            out.append(Path(where).parent)
    return out


def source_files() -> list[Path]:
    """The Python files of the ``model`` and ``properties`` packages and of every registered
    game's folders, sorted, each once."""
    files: list[Path] = []
    for package in (model, properties):
        files.extend(sorted(_root(package).rglob("*.py")))
    seen = set(files)
    for p in plugins().values():
        for folder in game_folders(p):
            extra = [f for f in sorted(folder.rglob("*.py")) if f not in seen]
            files.extend(extra)
            seen.update(extra)
    return files


def _relative(path: Path) -> str:
    """``model/...`` or ``properties/...`` for the packages' files; else the path from the
    file's top folder."""
    root = path
    while root.parent.name not in ("", "site-packages") and root.name not in LAYERS:
        root = root.parent
    return path.relative_to(root.parent).as_posix()


def citations() -> dict[str, list[str]]:
    """Clause id -> sorted ``package/path.py:line`` locations citing it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in source_files():
        rel = _relative(path)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in clause_id_re().finditer(line):
                where = f"{rel}:{number}"
                if where not in found[match.group(0)]:
                    found[match.group(0)].append(where)
    return dict(found)


def model_citations() -> dict[str, list[str]]:
    """Only the citations inside ``model/`` (where the rules are implemented)."""
    return {cid: [w for w in where if w.startswith("model/")]
            for cid, where in citations().items()
            if any(w.startswith("model/") for w in where)}


def source_citations(p: GamePlugin, source: str,
                     layers: Sequence[str] = LAYERS) -> dict[str, list[str]]:
    """The ids of clauses of ``source`` cited in game ``p``'s code folders of ``layers``
    (:func:`game_folders`): clause id -> the names of the files citing it."""
    out: dict[str, list[str]] = {}
    for root in game_folders(p, layers):
        for f in sorted(root.rglob("*.py")):
            for cid in clause_id_re().findall(f.read_text(encoding="utf-8")):
                if cid.startswith(source + ":"):
                    out.setdefault(cid, []).append(f.name)
    return out


def check_source_cited(p: GamePlugin, source: str) -> tuple[bool, int, str]:
    """The check "every cited ``source`` id is registered and every clause of ``source`` is
    cited by the game's model": (passed, clauses, detail) as a check outcome."""
    from ruleproof.spec import clause_registry

    registry = {c.id for c in clause_registry(source)}
    unknown = sorted(set(source_citations(p, source)) - registry)
    uncited = sorted(registry - set(source_citations(p, source, ("model",))))
    if unknown or uncited:
        return False, len(registry), (f"unknown cited ids: {unknown or '-'}\n"
                                      f"clauses not cited by model/{p.package}: "
                                      f"{uncited or '-'}")
    return True, len(registry), f"{len(registry)} clauses, all cited by the model; no unknown ids"
