"""A progress bar for long commands: shown on a terminal, silent otherwise.

Usage::

    with progress("playing games", total=n) as advance:
        for game in games:
            ...
            advance()          # one unit done (advance(k) for k units)

The bar (rich) goes to stderr, only when stderr is a terminal, with ``--json`` too (the JSON is
on stdout, so it stays clean; a pipe or a log file on stderr gets nothing); it disappears when
the block ends. ``quiet`` silences it for callers that print their own progress. Used by
``check``, ``conform``, discovery, ``stats``, ``prove``, ``docs --build``, ``perft``,
``explore --simulate`` and ``explore --profile`` (``explore`` draws its own, with the depth and
states); tests/test_progress_terminal.py runs them on a pseudo-terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

Advance = Callable[..., None]
"""``advance(amount=1, description=None)``: count units done, optionally relabel the bar."""


def shown(quiet: bool = False) -> bool:
    """Whether a bar would be drawn: stderr is a terminal and the caller is not ``quiet``."""
    return not quiet and sys.stderr.isatty()



@contextmanager
def progress(description: str, total: int | None, *, quiet: bool = False) -> Iterator[Advance]:
    """Show a rich progress bar of ``total`` units (None: unknown total) while the block runs.

    Yields:
        ``advance(amount: int = 1, description: str | None = None) -> None``; it works (and does
        nothing visible) when no bar is shown.
    """
    if not shown(quiet):
        def silent(amount: int = 1, description: str | None = None) -> None:
            del amount, description

        yield silent
        return
    console = Console(stderr=True)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(amount: int = 1, description: str | None = None) -> None:
            if description is None:
                bar.advance(task, amount)
            else:
                bar.update(task, advance=amount, description=description)

        yield advance
