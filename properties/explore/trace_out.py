"""Writing the explorer's counterexamples as trace files (``ruleproof replay`` reads them)."""

from __future__ import annotations

from pathlib import Path

from ruleproof.properties.conformance.trace import dump_lines
from ruleproof.properties.explore.search import ExploreResult


def write_findings(result: ExploreResult, folder: Path) -> list[Path]:
    """Write one ``KIND-N.jsonl`` trace per finding into ``folder`` (created); return the paths
    in the order of ``result.findings``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, finding in enumerate(result.findings, start=1):
        path = folder / f"{finding.kind}-{n}.jsonl"
        path.write_text(dump_lines(finding.trace), encoding="utf-8")
        paths.append(path)
    return paths
