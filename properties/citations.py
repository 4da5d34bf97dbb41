"""Where the code cites clause ids: the traceability link from the registry to the model.

A citation is any occurrence of a clause id (``spec.clause_id_re()``) in the source of the
``model`` and ``properties`` packages, in code, comments or docstrings.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ruleproof import model, properties
from ruleproof.spec import clause_id_re


def source_files() -> list[Path]:
    """The Python files of the ``model`` and ``properties`` packages, sorted."""
    files: list[Path] = []
    for package in (model, properties):
        files.extend(sorted(Path(str(package.__file__)).parent.rglob("*.py")))
    return files


def citations() -> dict[str, list[str]]:
    """Clause id -> sorted ``package/path.py:line`` locations citing it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in source_files():
        root = path
        while root.parent.name not in ("", "site-packages") and root.name not in (
                "model", "properties"):
            root = root.parent
        rel = path.relative_to(root.parent)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in clause_id_re().finditer(line):
                where = f"{rel.as_posix()}:{number}"
                if where not in found[match.group(0)]:
                    found[match.group(0)].append(where)
    return dict(found)


def model_citations() -> dict[str, list[str]]:
    """Only the citations inside ``model/`` (where the rules are implemented)."""
    return {cid: [w for w in where if w.startswith("model/")]
            for cid, where in citations().items()
            if any(w.startswith("model/") for w in where)}
