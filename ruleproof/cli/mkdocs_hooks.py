"""mkdocs hook (named in ``mkdocs.yml``): add the generated pages to every build.

``on_files`` asks :func:`ruleproof.cli.site.generated_pages` for the pages made from spec/ and
the code and adds them as generated files (``ambiguities.md``, ``clauses.md`` and
``scenarios.md`` among them, not committed: they list every registered game), so ``mkdocs build
--strict`` cannot publish stale pages.
Environment: ``RULEPROOF_DOCS_GAMES`` (games per rule set on the statistics page, default 30),
``RULEPROOF_DOCS_STATS=0`` (leave the statistics page out, for a quick preview).
"""

from __future__ import annotations

import os
from typing import Any

from mkdocs.structure.files import File, Files

from ruleproof.cli.progress import progress
from ruleproof.cli.site import generated_pages, work_units


def on_files(files: Files, config: Any) -> Files:
    """Add (or replace) every generated file."""
    stats = os.environ.get("RULEPROOF_DOCS_STATS", "1") != "0"
    with progress("generating pages", work_units(stats)) as advance:
        pages = generated_pages(lambda label: advance(1, label), stats=stats)
    for name, content in pages.items():
        old = files.get_file_from_path(name)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, name, content=content))
    return files
