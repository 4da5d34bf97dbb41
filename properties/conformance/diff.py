"""Divergences between the model and an engine or a trace, and readable state diffs."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("illegal-action", "wrong-player", "state", "observation", "legal-actions", "rejected",
         "accepted-illegal", "engine-failure")
"""Kinds of divergence, in the order a step is checked."""


@dataclass(frozen=True)
class Divergence:
    """The first point where an implementation disagrees with the model.

    Attributes:
        step: 0 for the initial position, k for the position after the k-th action.
        action: the k-th action (None at step 0).
        kind: one of :data:`KINDS`.
        clauses: clause ids blamed, most specific first.
        detail: readable explanation; for states a diff ``path: expected X, reported Y``.
        line: the trace line, when replaying a file.
        blamed_by: how ``clauses`` were found: ``contract`` (a clause contract separates the
            model's step from the engine's), ``reading`` (another registered reading of an
            ambiguity gives the engine's report), ``model`` (the model's IllegalAction clauses)
            or ``field heuristic`` (clauses mapped to the differing fields); '' if none.
    """

    step: int
    action: str | None
    kind: str
    clauses: tuple[str, ...]
    detail: str
    line: int | None = None
    blamed_by: str = ""

    def describe(self) -> str:
        """A multi-line, human-readable report."""
        where = f"step {self.step}" + (f" (line {self.line})" if self.line is not None else "")
        head = f"{where}: {self.kind}"
        if self.action is not None:
            head += f" after action {self.action!r}"
        if self.clauses:
            head += f" [{', '.join(self.clauses)}]"
            if self.blamed_by:
                head += f" (blamed by: {self.blamed_by})"
        body = "\n".join("  " + line for line in self.detail.splitlines())
        return f"{head}\n{body}" if body else head


def _j(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 300 else text[:297] + "..."


def _scalar_list(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 16 and not any(
        isinstance(v, list | dict) for v in value)


def diff_values(path: str, expected: Any, reported: Any) -> list[str]:
    """Lines ``path: expected X, reported Y`` for every differing leaf (short lists whole)."""
    if expected == reported and type(expected) is type(reported):
        return []
    if isinstance(expected, dict) and isinstance(reported, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(reported)):
            if key not in expected:
                out.append(f"{path}.{key}: not expected, reported {_j(reported[key])}")
            elif key not in reported:
                out.append(f"{path}.{key}: expected {_j(expected[key])}, missing")
            else:
                out += diff_values(f"{path}.{key}", expected[key], reported[key])
        return out
    if (isinstance(expected, list) and isinstance(reported, list)
            and len(expected) == len(reported) and not _scalar_list(expected)):
        out = []
        for index, (e, r) in enumerate(zip(expected, reported, strict=True)):
            out += diff_values(f"{path}[{index}]", e, r)
        return out
    return [f"{path}: expected {_j(expected)}, reported {_j(reported)}"]


def diff_states(expected: Mapping[str, Any], reported: Mapping[str, Any],
                fields: Iterable[str] | None = None) -> tuple[list[str], list[str]]:
    """Differing fields and diff lines; only ``fields`` (default: all in either) are compared.

    A field missing from ``reported`` counts as a difference when ``fields`` is None.
    """
    names = sorted(set(expected) | set(reported)) if fields is None else sorted(fields)
    differing: list[str] = []
    lines: list[str] = []
    for name in names:
        if name not in reported:
            differing.append(name)
            lines.append(f"{name}: expected {_j(expected.get(name))}, missing")
            continue
        found = diff_values(name, expected.get(name), reported[name])
        if found:
            differing.append(name)
            lines += found
    return differing, lines


def legal_diff(expected: Iterable[str], reported: Iterable[str]) -> tuple[list[str], list[str]]:
    """(actions the model allows but the engine does not, actions only the engine allows)."""
    e, r = set(expected), set(reported)
    return sorted(e - r, key=_natural), sorted(r - e, key=_natural)


def _natural(text: str) -> tuple[Any, ...]:
    """A sort key ordering numbers in ``text`` by value (``2`` before ``10``); only ASCII
    digits are numbers (``²`` is a digit to :meth:`str.isdigit` but not to :func:`int`)."""
    return tuple((0, int(w), "") if w.isascii() and w.isdigit() else (1, 0, w)
                 for w in text.split())
