"""Where a value sits in a TOML text: a key path -> (line, column) map.

``tomllib`` returns plain data without positions; error messages need ``FILE:LINE:COL``. This
module scans the (already valid) TOML text once, in linear time, and records the offset of every
key and every array element under its *key path*, e.g. ``("setup", "lids", "36")`` or
``("actions", 4)`` or ``("reading", 1, "expect", "to_move")``. Comments and strings are skipped
properly, so a comment that mentions a key is never taken for it (the old ``line_of`` grep did
that).

Only positions are computed here; values come from ``tomllib``. On text that is not valid TOML
the scan stops early and positions found so far are kept (callers fall back to the nearest
known parent).
"""

from __future__ import annotations

import contextlib
from bisect import bisect_right
from collections.abc import Sequence

Path = tuple[str | int, ...]

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\",
            "e": "\x1b"}


class _Stop(Exception):
    """The text is not TOML this scanner understands; keep what was found."""


class Positions:
    """Offsets of keys and array elements of one TOML text, by key path.

    ``where(path)`` gives the 1-based (line, column) of the value at ``path``, or of its nearest
    ancestor that has a position (a missing key points at its table), or (1, 1).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._starts.append(i + 1)
        self.offsets: dict[Path, int] = {}
        self.key_offsets: dict[Path, int] = {}
        self._aot: dict[Path, int] = {}
        self._i = 0
        with contextlib.suppress(_Stop, IndexError):
            self._document()

    # ------------------------------------------------------------------ queries

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1

    def where(self, path: Sequence[str | int], at_key: bool = False) -> tuple[int, int]:
        """(line, column) of the value at ``path`` (of its key with ``at_key``) or of its
        nearest recorded ancestor; (1, 1) if none."""
        key = tuple(path)
        if at_key and key in self.key_offsets:
            return self.line_col(self.key_offsets[key])
        while key:
            if key in self.offsets:
                return self.line_col(self.offsets[key])
            key = key[:-1]
        return 1, 1

    # ------------------------------------------------------------------ scanning

    def _peek(self, k: int = 0) -> str:
        j = self._i + k
        return self.text[j] if j < len(self.text) else ""

    def _skip_ws(self, newlines: bool) -> None:
        text, n = self.text, len(self.text)
        while self._i < n:
            ch = text[self._i]
            if ch in " \t" or (newlines and ch in "\r\n"):
                self._i += 1
            elif ch == "#":
                end = text.find("\n", self._i)
                self._i = n if end < 0 else end
            else:
                return

    def _document(self) -> None:
        table: Path = ()
        n = len(self.text)
        while True:
            self._skip_ws(True)
            if self._i >= n:
                return
            if self._peek() == "[":
                at = self._i
                double = self._peek(1) == "["
                self._i += 2 if double else 1
                self._skip_ws(False)
                parts = self._key()
                self._skip_ws(False)
                self._i += 2 if double else 1
                table = self._resolve(parts[:-1] if double else parts)
                if double:
                    table = (*table, parts[-1])
                    index = self._aot.get(table, 0)
                    self._aot[table] = index + 1
                    self.offsets.setdefault(table, at)
                    table = (*table, index)
                self.offsets.setdefault(table, at)
            else:
                self._keyval(table)

    def _resolve(self, parts: Sequence[str]) -> Path:
        """A header's key path with the current index of every array of tables inserted."""
        out: list[str | int] = []
        for part in parts:
            out.append(part)
            count = self._aot.get(tuple(out))
            if count:
                out.append(count - 1)
        return tuple(out)

    def _keyval(self, table: Path) -> None:
        at = self._i
        parts = self._key()
        path = (*table, *parts)
        for k in range(1, len(parts) + 1):
            self.key_offsets.setdefault((*table, *parts[:k]), at)
            if k < len(parts):
                self.offsets.setdefault((*table, *parts[:k]), at)
        self._skip_ws(False)
        if self._peek() != "=":
            raise _Stop
        self._i += 1
        self._skip_ws(False)
        self._value(path)

    def _key(self) -> list[str]:
        parts: list[str] = []
        while True:
            self._skip_ws(False)
            ch = self._peek()
            if ch == '"':
                parts.append(self._basic_string())
            elif ch == "'":
                parts.append(self._literal_string())
            else:
                start = self._i
                while self._peek() in _BARE and self._peek():
                    self._i += 1
                if self._i == start:
                    raise _Stop
                parts.append(self.text[start:self._i])
            self._skip_ws(False)
            if self._peek() != ".":
                return parts
            self._i += 1

    def _basic_string(self) -> str:
        text = self.text
        if text.startswith('"""', self._i):
            end = self._i + 3
            while True:
                end = text.find('"""', end)
                if end < 0:
                    raise _Stop
                backslashes = 0
                while text[end - 1 - backslashes] == "\\":
                    backslashes += 1
                if backslashes % 2 == 0:
                    break
                end += 1
            while text.startswith('"', end + 3):  # up to two quotes may close the string
                end += 1
            self._i = end + 3
            return ""
        self._i += 1
        out: list[str] = []
        while True:
            ch = self._peek()
            if ch in ("", "\n"):
                raise _Stop
            self._i += 1
            if ch == '"':
                return "".join(out)
            if ch == "\\":
                esc = self._peek()
                self._i += 1
                if esc in ("u", "U"):
                    width = 4 if esc == "u" else 8
                    try:
                        out.append(chr(int(self.text[self._i:self._i + width], 16)))
                    except (ValueError, OverflowError):
                        raise _Stop from None
                    self._i += width
                else:
                    out.append(_ESCAPES.get(esc, esc))
            else:
                out.append(ch)

    def _literal_string(self) -> str:
        text = self.text
        if text.startswith("'''", self._i):
            end = text.find("'''", self._i + 3)
            if end < 0:
                raise _Stop
            while text.startswith("'", end + 3):
                end += 1
            self._i = end + 3
            return ""
        end = text.find("'", self._i + 1)
        newline = text.find("\n", self._i + 1)
        if end < 0 or 0 <= newline < end:
            raise _Stop
        value = text[self._i + 1:end]
        self._i = end + 1
        return value

    def _value(self, path: Path) -> None:
        self.offsets.setdefault(path, self._i)
        ch = self._peek()
        if ch == '"':
            self._basic_string()
        elif ch == "'":
            self._literal_string()
        elif ch == "[":
            self._i += 1
            index = 0
            while True:
                self._skip_ws(True)
                if self._peek() == "]":
                    self._i += 1
                    return
                if not self._peek():
                    raise _Stop
                self._value((*path, index))
                index += 1
                self._skip_ws(True)
                if self._peek() == ",":
                    self._i += 1
        elif ch == "{":
            self._i += 1
            while True:
                self._skip_ws(False)
                if self._peek() == "}":
                    self._i += 1
                    return
                if not self._peek() or self._peek() == "\n":
                    raise _Stop
                self._keyval(path)
                self._skip_ws(False)
                if self._peek() == ",":
                    self._i += 1
        else:
            text, n = self.text, len(self.text)
            start = self._i
            while self._i < n and text[self._i] not in ",]}\n#\r":
                self._i += 1
            if self._i == start:
                raise _Stop
