"""Reading user files safely, and reporting every problem of a file with ``FILE:LINE:COL``.

Every reader of a user-supplied file goes through :func:`read_toml` (or :func:`read_bytes`):

* at most :data:`MAX_FILE_BYTES` bytes are *read* (``limit + 1`` bytes, then refused), never
  trusting ``stat``: ``/dev/zero`` and other character devices are safe; FIFOs, sockets and
  directories are refused before they are opened for reading;
* text must be UTF-8; a bad byte is reported at its line and column;
* TOML nesting is limited to :data:`MAX_DEPTH` levels (arrays and tables);
* positions come from :class:`ruleproof.spec.tomlpos.Positions` (a linear scan of the text).

Typed formats are pydantic v2 models (in :mod:`ruleproof.spec.schemas`); :func:`validate` runs
one and turns all its errors into :class:`Problems` (collected in one pass, python-chess
``status()`` style); :meth:`Problems.raise_if_any` raises one
:class:`ruleproof.errors.MalformedInput` carrying the first problem and the rest in ``more``.
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ruleproof.errors import MalformedInput
from ruleproof.spec.tomlpos import Positions

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Largest file any reader accepts (bytes)."""
MAX_DEPTH = 24
"""Deepest nesting of arrays and tables accepted in a TOML file."""
MAX_SHOWN = 60
"""Longest value shown in an error message (characters) before it is cut."""

M = TypeVar("M", bound=BaseModel)
KeyPath = tuple[str | int, ...]


def show(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` on one line, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def not_a_file(path: Path) -> str:
    """Why ``path`` cannot be read as a file, in words ('' if it is a regular file): ``no
    such file``, ``it is a folder``, ``it is a FIFO``, ``it is a character device``..."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except (OSError, ValueError) as exc:
        return f"cannot read file: {getattr(exc, 'strerror', None) or exc}"
    if stat.S_ISREG(mode):
        return ""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return f"it is {name}, not a file"
    return "it is not a regular file"  # pragma: no cover - no other kinds on POSIX


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, reading at most ``limit + 1`` of them.

    Raises:
        MalformedInput: no such file, a directory, FIFO or socket, unreadable, or larger than
            ``limit`` bytes (checked on what was read, not on ``stat``).
    """
    file = str(path)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        raise MalformedInput(f"cannot read file: {getattr(exc, 'strerror', None) or exc}",
                             file=file) from None
    if not (stat.S_ISREG(mode) or stat.S_ISCHR(mode)):
        kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise MalformedInput(f"cannot read file: it is {kind}", file=file)
    try:
        with open(path, "rb", buffering=0) as handle:
            chunks: list[bytes] = []
            size = 0
            while size <= limit:
                chunk = handle.read(min(1 << 20, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except OSError as exc:
        raise MalformedInput(f"cannot read file: {exc.strerror or exc}", file=file) from None
    if size > limit:
        raise MalformedInput(f"file is larger than {limit} bytes", file=file)
    return b"".join(chunks)


def decode_utf8(raw: bytes, file: str) -> str:
    """UTF-8 text of ``raw``; a bad byte is reported at its line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise MalformedInput(f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x})", file=file,
                             line=line, col=col) from None


@dataclass(frozen=True)
class TomlFile:
    """A parsed TOML file: its data, text and a key path -> position map.

    Attributes:
        file: the path as given (for messages).
        data: the parsed document.
        text: the source text.
    """

    file: str
    data: dict[str, Any]
    text: str

    @cached_property
    def positions(self) -> Positions:
        """Key positions (computed once, on first use)."""
        return Positions(self.text)

    def where(self, path: Sequence[str | int], at_key: bool = False) -> tuple[int, int]:
        """(line, column) of the value at ``path`` (of its key with ``at_key``; or of its
        nearest parent)."""
        return self.positions.where(path, at_key)

    def error(self, path: Sequence[str | int], what: str, at_key: bool = False
              ) -> MalformedInput:
        """A MalformedInput at ``path``."""
        line, col = self.where(path, at_key)
        return MalformedInput(what, file=self.file, line=line, col=col)

    def problems(self) -> Problems:
        """An empty problem collector for this file."""
        return Problems(self)


def read_toml(path: Path, limit: int = MAX_FILE_BYTES, depth: int = MAX_DEPTH) -> TomlFile:
    """Read and parse a TOML file within the limits (see the module docstring).

    Raises:
        MalformedInput: unreadable, too large, not UTF-8, invalid TOML (with line and column)
            or nested deeper than ``depth``.
    """
    file = str(path)
    text = decode_utf8(read_bytes(path, limit), file)
    return parse_toml(text, file, depth)


def parse_toml(text: str, file: str, depth: int = MAX_DEPTH) -> TomlFile:
    """Parse TOML ``text`` (from ``file``) within the nesting limit.

    Raises:
        MalformedInput: invalid TOML (line and column) or nested deeper than ``depth``.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        what = re.sub(r"\s*\(at line \d+, column \d+\)", "", msg) or "syntax error"
        if m:
            raise MalformedInput(f"invalid TOML: {what}", file=file, line=int(m.group(1)),
                                 col=int(m.group(2))) from None
        m = re.search(r"\(at end of document\)", msg)
        line = text.count("\n") + 1
        raise MalformedInput(f"invalid TOML: {what.replace(' (at end of document)', '')}",
                             file=file, line=line if m else None) from None
    except RecursionError:  # the parser is recursive: the first bracket too deep is named
        line, col = _deep_bracket(text, depth)
        raise MalformedInput(f"nested deeper than {depth} levels", file=file, line=line,
                             col=col) from None
    doc = TomlFile(file, data, text)
    deep = _too_deep(data, depth)
    if deep is not None:
        raise doc.error(deep, f"nested deeper than {depth} levels")
    return doc


def _deep_bracket(text: str, limit: int) -> tuple[int, int]:
    """Line and column (1-based) of the first ``[`` or ``{`` of TOML ``text`` nested deeper
    than ``limit`` (strings and comments skipped; iterative), else of the text's last line:
    every rejection names a line."""
    depth, line, col, i, n = 0, 1, 0, 0, len(text)
    quote = ""  # the open string's delimiter ('', '"', "'", '"""', "'''")
    while i < n:
        ch = text[i]
        step = 1
        if ch == "\n":
            line, col = line + 1, -1  # the newline itself: the next character is column 1
        elif quote:
            if ch == "\\" and quote[0] == '"':
                step = 2
            elif text.startswith(quote, i):
                step, quote = len(quote), ""
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            step = len(quote)
        elif ch == "#":
            end = text.find("\n", i)
            step = (n if end < 0 else end) - i
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line, col + 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += step
        col += step
    return line, 1


def _too_deep(data: object, limit: int) -> KeyPath | None:
    """The path of the first value nested deeper than ``limit`` (iterative, no recursion;
    scalars are not visited, so a long flat list costs one pass of ``isinstance``)."""
    stack: list[tuple[object, KeyPath]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) >= limit:
            return path
        items = value.items() if isinstance(value, dict) else enumerate(value)  # type: ignore
        for k, v in items:
            if isinstance(v, (dict, list)):
                stack.append((v, (*path, k)))
    return None


@dataclass
class Problems:
    """Every problem found in one file, each at a key path (collected, then raised once).

    ``add`` records a problem; ``raise_if_any`` raises the first (in file order) as a
    :class:`MalformedInput` whose ``more`` lists the others as ``FILE:LINE:COL: what``.
    """

    doc: TomlFile
    found: list[tuple[KeyPath, str]] = field(default_factory=list)
    at_keys: set[int] = field(default_factory=set)

    def add(self, path: Sequence[str | int], what: str, at_key: bool = False) -> None:
        """Record a problem with the value at ``path`` (with its key if ``at_key``)."""
        if at_key:
            self.at_keys.add(len(self.found))
        self.found.append((tuple(path), what))

    def __bool__(self) -> bool:
        return bool(self.found)

    def __iter__(self) -> Iterator[tuple[KeyPath, str]]:
        return iter(self.found)

    def errors(self) -> list[MalformedInput]:
        """Each problem as a MalformedInput, in file order."""
        made = []
        for index, (path, what) in enumerate(self.found):
            line, col = self.doc.where(path, index in self.at_keys)
            made.append(MalformedInput(what, file=self.doc.file, line=line, col=col))
        made.sort(key=lambda e: (e.line or 0, e.col or 0))
        return made

    def raise_if_any(self) -> None:
        """Raise the first problem (with the others in ``more``), if there is any.

        Raises:
            MalformedInput: if any problem was recorded.
        """
        if not self.found:
            return
        errs = self.errors()
        first = errs[0]
        raise MalformedInput(first.what, file=first.file, line=first.line, col=first.col,
                             more=[e.one_line() for e in errs[1:]])


def validate(model: type[M], data: object, problems: Problems,
             prefix: Sequence[str | int] = ()) -> M | None:
    """Validate ``data`` against a pydantic ``model``; record every error in ``problems``
    (at ``prefix`` + the error's location) and return None if there was any."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        groups: dict[KeyPath, list[tuple[str, Any]]] = {}
        for err in exc.errors(include_url=False):
            loc = tuple(err["loc"])
            cut = _tag_index(data, loc)
            key = loc if cut is None else loc[:cut]
            groups.setdefault(key, []).append(("" if cut is None else str(loc[cut]), err))
        for loc, errs in groups.items():
            tags = [tag for tag, _ in errs if tag]
            err = errs[0][1]
            if len(errs) > 1 and tags:
                kinds = sorted({_TAG_WORDS.get(t.split("[")[0], t.split("[")[0]) for t in tags})
                what = ".".join(str(p) for p in loc) or "file"
                message = f"{what}: expected {' or '.join(kinds)}, got {show(err.get('input'))}"
            else:
                message = _message(loc, err)
            problems.add((*prefix, *loc), message,
                         at_key=err.get("type") in ("extra_forbidden", "missing"))
        return None


def _tag_index(data: object, loc: KeyPath) -> int | None:
    """Index of the first element of a pydantic error location that is not a key or index of
    ``data`` (a union member's tag such as ``str`` or ``list[...]``), or None."""
    here = data
    for i, part in enumerate(loc):
        is_key = isinstance(here, dict) and isinstance(part, str) and part in here
        is_index = isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here)
        if is_key or is_index:
            here = here[part]  # type: ignore[index]
        elif isinstance(part, str) and ("[" in part or part in _TAG_WORDS or part[:1].isupper()):
            return i
        else:
            return None
    return None


_TAG_WORDS = {"str": "text", "int": "an integer", "bool": "a boolean", "list": "a list",
              "dict": "a table", "float": "a number", "function-after": "text",
              "constrained-str": "text", "literal": "one of the listed words"}


def _message(loc: KeyPath, err: Any) -> str:
    """One readable line for a pydantic error."""
    where = ".".join(str(p) for p in loc) or "file"
    kind = err.get("type", "")
    got = err.get("input")
    if kind == "missing":
        return f"{where}: missing (required)"
    if kind == "extra_forbidden" and loc:
        return f"unknown key {str(loc[-1])!r}" + (f" in {'.'.join(map(str, loc[:-1]))}"
                                                   if len(loc) > 1 else "")
    msg = str(err.get("msg", "invalid value"))
    if msg.startswith("Value error, "):
        return f"{where}: {msg[len('Value error, '):]}"
    if isinstance(got, float) and not math.isfinite(got):
        msg = "must be a finite number"
    return f"{where}: {msg}, got {show(got)}"
