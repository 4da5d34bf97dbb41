"""Output that fits: a console width that honours ``COLUMNS``, and tables that never break an
identifier (a clause id, a ``file:line``, a property name) in the middle.

* Width: ``COLUMNS`` when set (a positive integer), else the terminal's width on a terminal,
  else :data:`PIPE_WIDTH` (piped output has no terminal to ask).
* Tables: each column's minimum width is its longest unbreakable token (text between spaces),
  and cells fold at spaces (never cut with "…"), so rich wraps long cells between words and
  splits no identifier. A table whose tokens cannot all fit side by side is printed as records
  instead (:func:`records`: one ``header: value`` line per cell, a rule between rows), which
  fits any width that holds the longest token; only a single token longer than the whole width
  goes past it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

PIPE_WIDTH = 150
"""Columns of output when stdout is not a terminal and ``COLUMNS`` is not set."""

MAX_COLUMNS = 1000
"""The widest output: a larger ``COLUMNS`` counts as this (rich pads a panel's every line to
the width: ``COLUMNS=99999999`` made ``--help`` write hundreds of MB, 10**30 overflowed)."""


def _columns(raw: str) -> int | None:
    """``raw`` as a positive width, at most :data:`MAX_COLUMNS`; None if it is not a positive
    whole number (digits only: no sign, no spaces)."""
    if not (raw.isascii() and raw.isdigit()) or not raw.strip("0"):
        return None
    digits = raw.lstrip("0")
    return MAX_COLUMNS if len(digits) > len(str(MAX_COLUMNS)) else min(int(digits), MAX_COLUMNS)


def console_width(stream: Any = None) -> int | None:
    """The width to give rich: ``COLUMNS`` if set to a positive integer (at most
    :data:`MAX_COLUMNS`), None (rich asks the terminal) on a terminal, else
    :data:`PIPE_WIDTH`."""
    width = _columns(os.environ.get("COLUMNS", ""))
    if width is not None:
        return width
    return None if (stream or sys.stdout).isatty() else PIPE_WIDTH


def cap_columns() -> None:
    """Lower a ``COLUMNS`` above :data:`MAX_COLUMNS` to it in this process's environment, and
    drop a zero one (``--help`` printed one empty line), for the consoles ruleproof does not
    fit itself (Typer's help, usage errors: rich reads ``COLUMNS`` when a console is made).
    Called once when the command line is imported (``ruleproof.cli``), before its consoles
    are made."""
    raw = os.environ.get("COLUMNS", "")
    width = _columns(raw)
    if width is not None and raw != str(width):
        os.environ["COLUMNS"] = str(width)
    elif width is None and raw.isascii() and raw.isdigit():  # zero: rich would print nothing
        del os.environ["COLUMNS"]


def _plain(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        try:
            return Text.from_markup(cell).plain
        except Exception:  # not markup after all: measure it as it is
            return cell
    return ""


def fit_table(table: Table, width: int) -> int:
    """``table`` laid out in ``width`` columns without splitting a token: each column gets at
    least its longest token (header included), the rest of the width is shared in proportion
    to what each column's longest line still needs, and cells fold at spaces instead of being
    cut (the table is changed in place). Returns the width to print it in: ``width``, or more
    when the longest tokens alone need more (an identifier is never split to fit)."""
    mins, wants = [], []
    for column in table.columns:
        texts = [_plain(cell) for cell in (column.header, *column.cells)]
        mins.append(max((len(t) for x in texts for t in x.split()), default=1))
        wants.append(max((len(line) for x in texts for line in x.splitlines()), default=1))
    room = width - (3 * len(mins) + 1)  # borders and one space of padding each side
    spare = room - sum(mins)
    need = [w - m for w, m in zip(wants, mins, strict=True)]
    total = sum(need)
    for column, low, more in zip(table.columns, mins, need, strict=True):
        extra = more if spare >= total else (spare * more // total if spare > 0 else 0)
        column.width = low + extra
        column.overflow = "fold"
        column.no_wrap = False
    return max(width, sum(mins) + 3 * len(mins) + 1)


def records(table: Table, width: int) -> str:
    """``table`` as records for a console too narrow for its columns: its title, then per row
    one ``header: value`` line per non-empty cell (folded at spaces to ``width``, continuation
    lines indented), rows separated by a line of ``-``. Markup is dropped; every identifier
    stays whole on one line.

    >>> t = Table(title="registered games"); t.add_column("game"); t.add_column("players")
    >>> t.add_row("dawn-under", "2, 3, 4, 5, 6"); t.add_row("dracula", "2")
    >>> print(records(t, 30))
    registered games
    game: dawn-under
    players: 2, 3, 4, 5, 6
    ------------------------------
    game: dracula
    players: 2
    """
    heads = [_plain(c.header).replace("\n", " ") or f"column {i + 1}"
             for i, c in enumerate(table.columns)]
    cells = [list(c.cells) for c in table.columns]
    lines: list[str] = [_plain(table.title)] if table.title else []
    for r in range(table.row_count):
        if r:
            lines.append("-" * width)
        for head, column in zip(heads, cells, strict=True):
            value = " ".join(_plain(column[r]).split()) if r < len(column) else ""
            if value:
                lines.append(fold(f"{head}: {value}", width))
    if table.caption:
        lines.append(_plain(table.caption))
    return "\n".join(lines)


class FitConsole(Console):
    """A rich console that fits every table it prints (:func:`fit_table`; as
    :func:`records` when its columns cannot fit side by side). Made without a ``width``, it
    takes :func:`console_width` of its file at every print (``COLUMNS`` as it is then)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._follow = kwargs.get("width") is None
        super().__init__(*args, **kwargs)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """:meth:`rich.console.Console.print`, tables fitted first (or printed as records)."""
        if self._follow:
            self._width = console_width(self.file)  # None on a terminal: rich asks it
        width = self.width
        fitted = [Text(records(o, width)) if isinstance(o, Table) and fit_table(o, width) > width
                  else o for o in objects]
        super().print(*fitted, **kwargs)


def fold(text: str, width: int | None = None) -> str:
    """``text`` with every line longer than ``width`` (default: :func:`console_width`, or the
    terminal's) folded at spaces, continuation lines indented two more than the line; a token
    longer than the width stays whole."""
    import shutil
    import textwrap

    cols = width or console_width() or shutil.get_terminal_size().columns
    out: list[str] = []
    for line in text.splitlines():
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out += textwrap.wrap(line, cols, initial_indent="", subsequent_indent=indent + "  ",
                             break_long_words=False, break_on_hyphens=False,
                             drop_whitespace=True) or [""]
    return "\n".join(out)
