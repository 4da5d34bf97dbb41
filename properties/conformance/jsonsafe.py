"""Defensive JSON Lines reading: size limits, a nesting-depth guard, exact line and column.

Nothing here evaluates anything: values are parsed with :mod:`json` only after a linear scan has
checked the nesting depth (the standard parser is recursive), integers are limited in length,
``NaN``/``Infinity`` and duplicate keys are rejected. Every problem is a :class:`TraceError`
(a :class:`~ruleproof.errors.MalformedInput`) naming file, line and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput, printable
from ruleproof.spec.formats import read_bytes

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A trace file larger than this is refused."""
MAX_LINE_BYTES = 1024 * 1024
"""A single line (one JSON value) longer than this is refused."""
MAX_DEPTH = 16
"""Maximum nesting of arrays and objects in one line."""
MAX_INT_DIGITS = 18
"""Longest integer literal accepted."""
MAX_LINES = 200_000
"""Maximum number of non-blank lines."""


class TraceError(MalformedInput):
    """A malformed or hostile trace file.

    Attributes:
        column: 1-based column in ``line`` (in characters), if known.
    """

    def __init__(self, what: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.column = column
        super().__init__(what, file=file, line=line, col=column)

    def one_line(self) -> str:
        """:meth:`MalformedInput.one_line` (``file:line:column: what``, control characters
        escaped); without a file, ``line N:column: what``."""
        if self.file is None and self.line is not None:
            col = f":{self.column}" if self.column is not None else ""
            return f"line {self.line}{col}: {printable(self.what, 400)}"
        return super().one_line()


@dataclass(frozen=True)
class JsonLine:
    """One parsed line: its 1-based number, the raw text and the value."""

    number: int
    text: str
    value: Any


class _Reject(ValueError):
    """A value the reader refuses; ``needle`` and ``nth`` locate it in the line."""

    def __init__(self, what: str, needle: str, nth: int = 1) -> None:
        super().__init__(what)
        self.needle = needle
        self.nth = nth


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Reject(f"integer literal longer than {MAX_INT_DIGITS} digits", text)
    return int(text)


def _parse_float(text: str) -> Any:
    raise _Reject(f"numbers in a trace are integers, got {text[:30]}", text)


def _parse_constant(text: str) -> Any:
    raise _Reject(f"{text} is not allowed in a trace", text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Reject(f"duplicate key {key!r}", json.dumps(key), nth=2)
        out[key] = value
    return out


def _column(text: str, needle: str, nth: int) -> int | None:
    at = -1
    for _ in range(nth):
        at = text.find(needle, at + 1)
        if at < 0:
            return None
    return at + 1


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def depth_exceeded(text: str, limit: int = MAX_DEPTH) -> int | None:
    """0-based index of the first bracket nested deeper than ``limit``, else None.

    A linear scan (regular expressions, no recursion) that ignores string literals.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    blanked = _STRING.sub(lambda m: " " * len(m.group()), text)
    depth = 0
    for m in _BRACKET.finditer(blanked):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                return m.start()
        else:
            depth -= 1
    return None


def loads_line(text: str, *, file: str | None, number: int, last: bool = False) -> Any:
    """Parse one JSON value from one line.

    Raises:
        TraceError: with line and column for bad JSON, too deep nesting, long integers,
            NaN/Infinity, duplicate keys; ``last`` marks a final line without a newline
            (reported as truncated when it does not parse).
    """
    deep = depth_exceeded(text)
    if deep is not None:
        raise TraceError(f"values nested deeper than {MAX_DEPTH} levels", file=file,
                         line=number, column=deep + 1)
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_pairs)
    except json.JSONDecodeError as exc:
        what = f"invalid JSON: {exc.msg}"
        if last:
            what = f"truncated last line (no newline at the end): {what}"
        raise TraceError(what, file=file, line=number, column=exc.colno) from None
    except _Reject as exc:
        raise TraceError(f"invalid JSON: {exc}", file=file, line=number,
                         column=_column(text, exc.needle, exc.nth)) from None
    except ValueError as exc:
        raise TraceError(f"invalid JSON: {exc}", file=file, line=number) from None
    except RecursionError:  # pragma: no cover - guarded by depth_exceeded
        raise TraceError("values nested too deeply", file=file, line=number) from None


def read_lines(path: Path) -> Iterator[JsonLine]:
    """Parse a JSON Lines file defensively, one value per non-blank line.

    Raises:
        TraceError: unreadable file, file or line too large, not UTF-8 (with the line and
            column of the first bad byte), or any :func:`loads_line` error.
    """
    file = str(path)
    try:  # at most MAX_FILE_BYTES + 1 bytes are read (devices and FIFOs are safe)
        data = read_bytes(path, MAX_FILE_BYTES)
    except MalformedInput as exc:
        raise TraceError(exc.what, file=file) from None
    yield from parse_bytes(data, file=file)


def parse_bytes(data: bytes, *, file: str | None) -> Iterator[JsonLine]:
    """Like :func:`read_lines` for bytes already in memory."""
    if len(data) > MAX_FILE_BYTES:
        raise TraceError(f"file is {len(data)} bytes, more than the limit {MAX_FILE_BYTES}",
                         file=file)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw_lines = data.split(b"\n")
    ends_with_newline = raw_lines[-1] == b""
    if ends_with_newline:
        raw_lines.pop()
    count = 0
    for index, raw in enumerate(raw_lines):
        number = index + 1
        if len(raw) > MAX_LINE_BYTES:
            raise TraceError(f"line is {len(raw)} bytes, more than the limit {MAX_LINE_BYTES}",
                             file=file, line=number, column=1)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
            raise TraceError("not UTF-8 text", file=file, line=number, column=column) from None
        if text.endswith("\r"):
            text = text[:-1]
        if not text.strip():
            continue
        count += 1
        if count > MAX_LINES:
            raise TraceError(f"more than {MAX_LINES} lines", file=file, line=number, column=1)
        last = index == len(raw_lines) - 1 and not ends_with_newline
        yield JsonLine(number, text, loads_line(text, file=file, number=number, last=last))


def column_of_key(text: str, key: str) -> int | None:
    """1-based column of ``"key"`` in a raw line, for pointing at a bad field."""
    at = text.find(json.dumps(key))
    return at + 1 if at >= 0 else None
