"""Writing the explorer's counterexamples as trace files (``ruleproof replay`` reads them)."""

from __future__ import annotations

from pathlib import Path

from ruleproof.properties.conformance.trace import dump_lines
from ruleproof.properties.explore.search import ExploreResult
from ruleproof.system.outputs import Target, write_files


def write_findings(result: ExploreResult, folder: Path) -> list[Path]:
    """Write one ``KIND-N.jsonl`` trace per finding into ``folder`` (created); return the paths
    in the order of ``result.findings``. Each file is written whole or not at all, and only
    a regular file is replaced (:func:`ruleproof.system.outputs.write_files`).

    Raises:
        MalformedInput: ``folder`` or a trace's path is taken by something else than a
            folder or a regular file (a symbolic link, FIFO, device).
        OutputFailed: a trace could not be written (a full disk...), naming its path.
    """
    return write_files(Target(folder, "--out", "trace", folder=True),
                       [(f"{finding.kind}-{n}.jsonl", dump_lines(finding.trace))
                        for n, finding in enumerate(result.findings, start=1)])
