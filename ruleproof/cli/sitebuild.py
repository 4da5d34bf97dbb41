"""Building and serving the documentation site with mkdocs (the ``docs`` extra).

``ruleproof docs --build`` = ``mkdocs build --strict`` with this project's hook regenerating
every generated page (:mod:`ruleproof.cli.site`); ``--serve`` = ``mkdocs serve``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ruleproof.errors import MalformedInput

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


def _config(config_file: Path, site_dir: str | None = None) -> MkDocsConfig:
    if not config_file.is_file():
        raise MalformedInput("no mkdocs configuration here (run from the repository root)",
                             file=str(config_file))
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    try:
        from mkdocs.config import load_config
    except ImportError:
        raise MalformedInput('the site needs mkdocs-material: pip install ".[docs]" from the '
                             "clone") from None
    from mkdocs.exceptions import MkDocsException

    # mkdocs logs each configuration problem, then raises (Abort is also a SystemExit): both
    # are caught here and said in one line
    problems: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR:
                problems.append(" ".join(record.getMessage().split()))

    log = logging.getLogger("mkdocs")
    collect, propagate = Collect(), log.propagate
    saved = log.handlers[:]
    log.handlers[:] = [collect]
    log.propagate = False
    try:
        if site_dir is None:
            return load_config(str(config_file), strict=True)
        return load_config(str(config_file), strict=True, site_dir=site_dir)
    except (MkDocsException, UnicodeError, OSError) as exc:
        said = "; ".join(problems) or " ".join(str(exc).split())
        raise MalformedInput(f"not a usable mkdocs configuration: {said}",
                             file=str(config_file)) from None
    finally:
        log.handlers[:] = saved
        log.propagate = propagate


def _show_warnings() -> None:
    """Print mkdocs' warnings (the reasons a strict build aborts) on stderr, once."""
    log = logging.getLogger("mkdocs")
    if not any(getattr(h, "_ruleproof", False) for h in log.handlers):
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter("mkdocs %(levelname)s: %(message)s"))
        handler._ruleproof = True  # type: ignore[attr-defined]
        log.addHandler(handler)
        log.setLevel(min(log.level or logging.INFO, logging.INFO))


def check_config(config_file: Path, site_dir: Path | None = None) -> None:
    """Load the mkdocs configuration, to refuse a bad one before any page is written.

    Raises:
        MalformedInput: no configuration, mkdocs missing, or a configuration mkdocs refuses
            (one line: its problems, the file named).
    """
    _config(config_file, None if site_dir is None else str(site_dir.resolve()))


def build_site(config_file: Path, site_dir: Path) -> None:
    """A strict build into ``site_dir``.

    Raises:
        MalformedInput: no configuration, mkdocs missing, or the strict build failed (a broken
            link, a page missing from the nav...; mkdocs has logged what).
    """
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, MkDocsException

    config = _config(config_file, site_dir=str(site_dir.resolve()))
    _show_warnings()
    try:
        build(config)
    except (Abort, MkDocsException) as exc:
        raise MalformedInput(f"the strict site build failed: {exc}", file=str(config_file)) \
            from None


def serve_site(config_file: Path) -> None:
    """``mkdocs serve`` (live reload on http://127.0.0.1:8000) until interrupted."""
    _config(config_file)
    from mkdocs.commands.serve import serve

    serve(config_file=str(config_file), strict=True)
