"""The status table of the home page: one row per rule set of every registered game, made at
build time from the game data and from the last ``ruleproof check --json`` run.

Columns: the game and rule set, its sources, their clauses, the share of rule clauses with a
contract, the game's registered ambiguities (its ambiguity and discovered registers), its
shipped scenarios, the z3 proofs and the check verdict of the rule set in the last run, and the
game's exhaustively explored set-ups (``spec/<game>/reduced/``). Without a results file the
last two columns say the check was not run for this build; the results file is named by
``RULEPROOF_DOCS_RESULTS`` (the JSON written by ``ruleproof check --json``; .ci/run writes it
before it builds the site).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput

__all__ = ["RESULTS_ENV", "StatusRow", "load_results", "status_markdown", "status_rows"]

RESULTS_ENV = "RULEPROOF_DOCS_RESULTS"
"""The environment variable naming the ``check --json`` results the table reports."""


@dataclass(frozen=True)
class StatusRow:
    """One rule set's line of the status table (counts as ints; ``None``: not known)."""

    game: str
    rule_set: str
    sources: tuple[str, ...]
    clauses: int
    coverage: str
    ambiguities: int
    scenarios: int
    explored: int
    proofs: str
    verdict: str


def load_results(path: Path | None = None) -> dict[str, Any] | None:
    """The ``ruleproof check --json`` results named by ``path`` or ``$RULEPROOF_DOCS_RESULTS``
    (None when neither names a file).

    Raises:
        MalformedInput: the file is not the JSON object ``check --json`` writes.
    """
    if path is None:
        named = os.environ.get(RESULTS_ENV, "")
        if not named:
            return None
        path = Path(named)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedInput(f"{path}: cannot read the check results ({exc})") from None
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("rule_sets"), list):
        raise MalformedInput(f"{path}: not the output of 'ruleproof check --json' "
                             "(no list 'rule_sets')")
    return data


def _coverage(sources: tuple[str, ...]) -> str:
    from ruleproof.properties.contracts import _coverages

    cov = _coverages()
    parts = []
    for s in sources:
        c = cov.get(s)
        if c is not None and c.rule_clauses:
            parts.append(f"{s} {len(c.covered)}/{len(c.rule_clauses)}")
    return ", ".join(parts) or "—"


def _sources(p: Any, rs: Any) -> tuple[str, ...]:
    """The documents a rule set follows: its own list, else its preset's document (the game's
    first source without a preset) and its expansion's."""
    if rs.sources:
        return tuple(rs.sources)
    presets = p.presets()
    doc = presets[rs.preset][0] if rs.preset in presets else p.sources[0]
    extra = [p.expansions[v] for k, v in rs.options if k == "expansion" and v in p.expansions]
    return (doc, *extra)


def _outcome(run: Mapping[str, Any] | None) -> tuple[str, str]:
    if run is None:
        return "not run", "not run"
    props = [p for p in run.get("properties", []) if isinstance(p, dict)]
    z3 = [p for p in props if p.get("method") == "z3"]
    proofs = f"{sum(1 for p in z3 if p.get('passed'))}/{len(z3)}" if z3 else "—"
    held, failed = int(run.get("held", 0)), int(run.get("failed", 0))
    verdict = (f"passed ({held} held)" if failed == 0 else f"FAILED ({failed} of {held + failed})")
    profile = run.get("profile")
    return proofs, verdict + (f", {profile}" if profile else "")


def status_rows(results: Mapping[str, Any] | None) -> list[StatusRow]:
    """A row per rule set ``check`` covers by default, for every registered game, in the
    registry's order; the proofs and verdict from ``results`` (see :func:`load_results`)."""
    from ruleproof.cli.site import shipped_files
    from ruleproof.properties.contracts.register import entries
    from ruleproof.properties.plugin import Selection, plugins
    from ruleproof.spec import clause_registry

    runs = {(r.get("game"), r.get("rule_set")): r for r in (results or {}).get("rule_sets", [])
            if isinstance(r, dict)}
    files = shipped_files()
    rows = []
    for p in plugins().values():
        registered = len(entries(p.name))
        scenarios = sum(1 for f in files if f.path.resolve().is_relative_to(p.spec_folder.resolve())
                        and f.path.suffix == ".toml")
        explored = sum(1 for f in (p.spec_folder / "reduced").glob("*.toml")
                       if f.name != "expected.toml")
        for rs in p.rule_sets(Selection()):
            if rs.shared:
                continue
            sources = _sources(p, rs)
            clauses = sum(len(list(clause_registry(s))) for s in sources)
            proofs, verdict = _outcome(runs.get((p.name, rs.name)) if results is not None else None)
            rows.append(StatusRow(p.name, rs.name, sources, clauses, _coverage(sources),
                                  registered, scenarios, explored, proofs, verdict))
    return rows


def status_markdown(results: Mapping[str, Any] | None) -> str:
    """The status table as Markdown (with a line saying which run it reports)."""
    rows = status_rows(results)
    if results is None:
        said = ("The check columns are empty in this build: no results file was given "
                f"(`{RESULTS_ENV}`, the JSON of `ruleproof check --json`).")
    else:
        said = (f"Proofs and verdicts from `ruleproof check --profile {results.get('profile', '?')}"
                "`, run for this build.")
    out = [said, "",
           "| game | rule set | sources | clauses | contracts | ambiguities | scenarios "
           "| explored set-ups | z3 proofs | check |",
           "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        out.append(f"| {r.game} | {r.rule_set} | {', '.join(r.sources)} | {r.clauses} | "
                   f"{r.coverage} | {r.ambiguities} | {r.scenarios} | {r.explored} | "
                   f"{r.proofs} | {r.verdict} |")
    return "\n".join(out) + "\n"
