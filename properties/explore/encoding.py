"""Compact codes of states and their 64-bit fingerprints (the explorer's innermost loop).

A game's view (``ExploreGame.view``) may be a *code*: a flat tuple of small ints (each in
0..255), an injective encoding of the view that the game writes itself (fixed-length parts as
they are, variable-length parts with their length first, absent values with codes of their
own, so two different views never share a code). The fingerprint is the first 8 bytes of
BLAKE2b over the code's bytes, or over the ``repr`` of a view that is no code.

Why a code and not ``repr``: the repr of nested frozen dataclasses runs the dataclasses'
Python ``__repr__`` for every component (as much time as the transition itself); a code is
built from ints, and the parts a successor shares with its parent (the engines keep unchanged
fields as the same objects) are encoded once and found again by identity (:func:`memoised`).
The helpers here are game-free; a game's encoder lives in ``properties/<game>/explore.py``.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable
from enum import Enum
from typing import Any

Code = tuple[int, ...]
"""A state's code: ints, each in 0..255 (any int is accepted by :func:`fingerprint`)."""

Memo = dict[int, tuple[object, Code]]
"""Codes of state components by ``id``; each entry keeps its object alive, so an id cannot be
reused by another object while its entry exists."""

MEMO_LIMIT = 1 << 17
"""A memo is cleared when it grows beyond this many entries (bounded memory)."""


def fingerprint(canonical: str | Code) -> int:
    """64-bit fingerprint (BLAKE2b, first 8 bytes, big endian) of a canonical view: a string
    (``repr`` of a view) or a code. A code of bytes-sized ints is hashed as those bytes, any
    other code as 64-bit signed ints; a one-byte tag keeps the three kinds of input apart."""
    if isinstance(canonical, str):
        data = b"s" + canonical.encode()
    else:
        try:
            data = b"b" + bytes(canonical)
        except ValueError:
            data = b"q" + array("q", canonical).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def bytes_code(text: str) -> Code:
    """``text`` as a code: its UTF-8 length in two bytes, then the bytes."""
    data = text.encode()
    return (len(data) >> 8, len(data) & 255, *data)


def enum_code(member: Enum) -> Code:
    """An enum member no fixed table numbers (e.g. a phase an expansion adds): 255, then its
    class and member name (:func:`bytes_code`)."""
    return (255, *bytes_code(f"{type(member).__name__}.{member.name}"))


def memoised(memo: Memo, obj: Any, encode: Callable[[Any], Code]) -> Code:
    """``encode(obj)``, cached in ``memo`` by identity (a successor shares most of its parts
    with its parent, so each part is encoded once)."""
    hit = memo.get(id(obj))
    if hit is None or hit[0] is not obj:
        hit = memo[id(obj)] = (obj, encode(obj))
    return hit[1]
