"""mkdocs hook (named in ``mkdocs.yml``): add the generated pages to every build.

``on_files`` asks :func:`ruleproof.cli.site.generated_pages` for the pages made from spec/ and
the code and adds them as generated files (``ambiguities.md``, ``clauses.md`` and
``scenarios.md`` among them, not committed: they list every registered game), so ``mkdocs build
--strict`` cannot publish stale pages. ``on_page_markdown`` makes every registered clause id on
every page a link to its entry in the clause tables. A second bar counts the pages as mkdocs
renders them (``on_nav`` opens it, ``on_post_page`` advances it, ``on_post_build`` or
``on_build_error`` closes it; it is kept in the build's own configuration, not in this module).
Environment: ``RULEPROOF_DOCS_GAMES`` (games per rule set on the statistics page, default 200),
``RULEPROOF_DOCS_STATS=0`` (leave the statistics page out, for a quick preview).
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import Any

from mkdocs.structure.files import File, Files

from ruleproof.cli.progress import progress
from ruleproof.cli.site import fill_markers, generated_pages, work_units
from ruleproof.cli.sitelinks import link_clause_ids
from ruleproof.spec import all_clause_ids


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


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Every registered clause id on the page links to its row in the clause tables
    (:func:`ruleproof.cli.sitelinks.link_clause_ids`)."""
    markdown = fill_markers(markdown)
    return link_clause_ids(markdown, page.file.src_uri, all_clause_ids())


_RENDERING = "ruleproof_rendering"
"""The key of the rendering bar in the build's configuration (one build, one bar)."""


def on_nav(nav: Any, config: Any, files: Files) -> Any:
    """Open the rendering bar over the documentation pages."""
    stack = ExitStack()
    advance = stack.enter_context(progress("rendering pages", len(files.documentation_pages())))
    config[_RENDERING] = (stack, advance)
    return nav


def on_post_page(output: str, page: Any, config: Any) -> str:
    """One page rendered."""
    bar = config.get(_RENDERING)
    if bar is not None:
        bar[1](1)
    return output


def _close(config: Any) -> None:
    bar = config.get(_RENDERING)
    if bar is not None:
        config[_RENDERING] = None
        bar[0].close()


def on_post_build(config: Any) -> None:
    """Close the rendering bar."""
    _close(config)


def on_build_error(error: Exception) -> None:  # pragma: no cover - mkdocs passes no config
    """Nothing to close here: mkdocs gives no configuration; the process is ending."""
