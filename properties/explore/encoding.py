"""Compact codes of states and their 64-bit fingerprints (the explorer's innermost loop).

A Dawn Under state's *code* is a flat tuple of small ints (each in 0..255), an injective
encoding of the state's view (``games.DawnUnderExplore``: every field but ``config``,
``known`` and ``placed_this_turn``). Fixed-length parts (one entry per grave or per player)
are written as they are; variable-length parts carry their length first; ``None`` and the
rat lid get codes of their own, so two different views never share a code. The fingerprint
is the first 8 bytes of BLAKE2b over the code's bytes. Symmetry reduction relabels the same
code (:func:`encode_fields`), so the canonical form is a code too.

Why a code and not ``repr``: the repr of nested frozen dataclasses runs the dataclasses'
Python ``__repr__`` for every vampire and grave content (about 20 microseconds a state, as
much as the transition itself); the code is built from ints, and the parts a successor
shares with its parent (lids, grave contents, rows: the engine keeps unchanged fields as the
same objects) are encoded once and found again by identity.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable
from enum import Enum
from typing import Any

from ruleproof.model.dawn_under.state import (
    RAT,
    GarlicIn,
    Gift,
    Phase,
    Plague,
    Row,
    State,
    VampireIn,
)

Code = tuple[int, ...]
"""A state's code: ints, each in 0..255 (any int is accepted by :func:`fingerprint`)."""

Memo = dict[int, tuple[object, Code]]
"""Codes of state components by ``id``; each entry keeps its object alive, so an id cannot be
reused by another object while its entry exists."""

MEMO_LIMIT = 1 << 17
"""A memo is cleared when it grows beyond this many entries (bounded memory)."""

_GARLIC = 16
"""Grave content codes: 0 empty, 1 + colour a vampire, 16 + owner a garlic bundle."""

_PHASE_CODE: dict[int, int] = {id(p): i for i, p in enumerate(Phase)}
"""Base phases by ``id`` (enum members live as long as their class; hashing an enum member
runs Python code, ``id`` does not)."""


def fingerprint(canonical: str | Code) -> int:
    """64-bit fingerprint (BLAKE2b, first 8 bytes, big endian) of a canonical view: a string
    (Dracula: ``repr`` of its view) or a code (Dawn Under). A code of bytes-sized ints is
    hashed as those bytes, any other code as 64-bit signed ints; a one-byte tag keeps the
    three kinds of input apart."""
    if isinstance(canonical, str):
        data = b"s" + canonical.encode()
    else:
        try:
            data = b"b" + bytes(canonical)
        except ValueError:
            data = b"q" + array("q", canonical).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def _bytes_code(text: str) -> Code:
    data = text.encode()
    return (len(data) >> 8, len(data) & 255, *data)


def _lids_code(lids: tuple[int | None, ...]) -> Code:
    # None 0, rat 1, colour c + 2 (RAT is -1)
    return tuple(0 if x is None else x + 2 for x in lids)


def _content(x: object, seat: Callable[[int], int], col: Callable[[int], int]) -> int:
    if x is None:
        return 0
    if type(x) is VampireIn:
        return 1 + col(x.colour)
    if type(x) is GarlicIn:
        return _GARLIC + seat(x.owner)
    raise TypeError(f"no code for grave content {x!r}")


def _same(x: int) -> int:
    return x


def _contents_code(contents: tuple[object, ...]) -> Code:
    return tuple(_content(x, _same, _same) for x in contents)


def _rows_code(rows: tuple[Row, ...]) -> Code:
    out: list[int] = []
    for row in rows:
        out.append(len(row))
        out.extend(v.colour * 2 + (1 if v.face_up else 0) for v in row)
    return tuple(out)


def _extension_code(ext: object) -> Code:
    return (0,) if ext is None else (1, *_bytes_code(repr(ext)))


def _enum_code(phase: Enum) -> Code:
    """A phase an expansion adds: 255, then its class and member name."""
    return (255, *_bytes_code(f"{type(phase).__name__}.{phase.name}"))


def _phase_code(phase: Enum) -> Code:
    code = _PHASE_CODE.get(id(phase))
    return (code,) if code is not None else _enum_code(phase)


def _plague_code(p: Plague | None, seat: Callable[[int], int]) -> Code:
    if p is None:
        return (0,)
    return (1, p.origin, seat(p.holder), seat(p.current), p.turns, len(p.opened), *p.opened,
            p.idle, 1 if p.current_opened else 0)


def _gifts_code(gifts: tuple[Gift, ...], seat: Callable[[int], int]) -> Code:
    out: list[int] = [len(gifts)]
    for g in gifts:
        out += (seat(g.giver), seat(g.receiver), *_bytes_code(g.clause))
    return tuple(out)


def _windows_code(windows: tuple[tuple[int, ...], ...]) -> Code:
    out: list[int] = [len(windows)]
    for w in windows:
        out.append(len(w))
        out.extend(w)
    return tuple(out)


def _opt(x: int | None) -> int:
    return 0 if x is None else x + 1


def _memoised(memo: Memo, obj: Any, encode: Callable[[Any], Code]) -> Code:
    """``encode(obj)``, cached in ``memo`` by identity (a successor shares most of its parts
    with its parent, so each part is encoded once)."""
    hit = memo.get(id(obj))
    if hit is None or hit[0] is not obj:
        hit = memo[id(obj)] = (obj, encode(obj))
    return hit[1]


def state_code(state: State, memo: Memo) -> Code:
    """The code of ``state``'s view (the fast path of :func:`encode_fields` without
    relabelling: both give the same code, tests/test_explore.py checks it state by state).
    ``memo`` caches the codes of ``lids``, ``contents``, ``rows``, ``windows`` and
    ``extension`` by identity (it is cleared beyond :data:`MEMO_LIMIT` entries)."""
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    lids = _memoised(memo, state.lids, _lids_code)
    contents = _memoised(memo, state.contents, _contents_code)
    rows = _memoised(memo, state.rows, _rows_code)
    windows = _memoised(memo, state.windows, _windows_code)
    ext = _memoised(memo, state.extension, _extension_code)
    phase = state.phase
    code = _PHASE_CODE.get(id(phase))
    plague = state.plague
    gifts = state.gifts
    pending = state.pending
    transit = state.in_transit
    winner = state.winner
    barred = state.barred
    return (*lids, *contents, *rows, *state.stakes_held, state.stakes_path,
            *state.garlic_hand, len(state.reserve), *state.reserve, state.removed_rats,
            state.turn_player, *((code,) if code is not None else _enum_code(phase)),
            1 if state.may_stop else 0, 0 if pending is None else pending + 1,
            *((0,) if plague is None else _plague_code(plague, _same)),
            *((0,) if not gifts else _gifts_code(gifts, _same)),
            0 if transit is None else transit + 1, 0 if winner is None else winner + 1,
            *windows, len(barred), *barred, *ext)


def view_fields(state: State) -> tuple[Any, ...]:
    """The view's fields as a tuple (what :func:`encode_fields` relabels)."""
    return (state.lids, state.contents, state.rows, state.stakes_held, state.stakes_path,
            state.garlic_hand, state.reserve, state.removed_rats, state.turn_player,
            state.phase, state.may_stop, state.pending, state.plague, state.gifts,
            state.in_transit, state.winner, state.windows, state.barred, state.extension)


def encode_fields(view: tuple[Any, ...], k: int, n: int,
                  class_of: dict[int, tuple[int, ...]] | None) -> Code:
    """The code of a view (:func:`view_fields`) with seats rotated by ``k`` (seat ``p``
    becomes ``(p - k) % n``; per-seat tuples start at seat ``k``) and, if ``class_of`` is
    given, colours renamed within their classes (``class_of[c]``: the colours of c's class,
    in order) in order of first appearance: rows, grave contents, lids, reserve, in transit.
    ``k = 0`` without ``class_of`` gives :func:`state_code`."""
    (lids, contents, rows, held, path, garlic, reserve, rats, turn, phase, may_stop,
     pending, plague, gifts, transit, winner, windows, barred, ext) = view

    def seat(p: int) -> int:
        return (p - k) % n

    def rot(t: tuple[Any, ...]) -> tuple[Any, ...]:
        return t[k:] + t[:k] if t else t

    mapping: dict[int, int] = {}
    used: dict[tuple[int, ...], int] = {}

    def col(c: int) -> int:
        if class_of is None:
            return c
        got = mapping.get(c)
        if got is None:
            cls = class_of[c]
            got = cls[used.get(cls, 0)]
            used[cls] = used.get(cls, 0) + 1
            mapping[c] = got
        return got

    rows_code: list[int] = []
    for row in rot(rows):
        rows_code.append(len(row))
        rows_code.extend(col(v.colour) * 2 + (1 if v.face_up else 0) for v in row)
    contents_code = tuple(_content(x, seat, col) for x in contents)
    lids_code = tuple(0 if x is None else 1 if x == RAT else col(x) + 2 for x in lids)
    reserve_code = tuple(col(x) for x in reserve)
    transit_code = 0 if transit is None else col(transit) + 1
    return (*lids_code, *contents_code, *rows_code, *rot(held), path, *rot(garlic),
            len(reserve), *reserve_code, rats, seat(turn), *_phase_code(phase),
            1 if may_stop else 0, _opt(pending), *_plague_code(plague, seat),
            *_gifts_code(gifts, seat), transit_code, _opt(None if winner is None else seat(winner)),
            *_windows_code(rot(windows)), len(barred), *barred, *_extension_code(ext))
