"""Compact state storage for exhaustive exploration (TLC's fingerprint set and trace file).

* :class:`FingerprintSet`: the 64-bit fingerprints of the seen states in one numpy array,
  open addressing with linear probing, filled to at most :data:`MAX_LOAD` and grown by
  :data:`GROWTH` (so it holds between 1/MAX_LOAD and GROWTH/MAX_LOAD slots per state: 8 bytes
  a slot, 10.7 to 16 bytes per stored state). Membership and insertion work on a whole batch
  of fingerprints at once (one BFS level), in numpy.
* :class:`ParentFile`: each level's parent pointers ``(fingerprint, parent fingerprint,
  action index)`` appended to a file on disk, not kept in memory (TLC writes them to its
  trace file as well); a counterexample's path is read back from it.
* :func:`collision_probability`: the chance that two of the states reached share a
  fingerprint, as TLC reports it ("calculated (optimistic)": ``n^2 / 2^65`` for ``n``
  states, assuming a uniform hash; and "based on the actual fingerprints": ``1 /
  min distance`` between the sorted fingerprints).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

MAX_LOAD = 0.75
"""Grow the table when it would be fuller than this."""

GROWTH = 1.5
"""The table's growth factor: after growing it is MAX_LOAD / GROWTH = half full, so it holds
at most 16 bytes per stored state."""

EMPTY = np.uint64(0)
"""The empty slot; the fingerprint 0 is kept apart (:attr:`FingerprintSet.zero`)."""

U64 = npt.NDArray[np.uint64]


class FingerprintSet:
    """A set of 64-bit fingerprints in one ``uint64`` array (see the module docstring).

    Attributes:
        capacity: slots; count: fingerprints held.
    """

    def __init__(self, capacity: int = 16) -> None:
        self.table: U64 = np.zeros(max(16, capacity), dtype=np.uint64)
        self.count = 0
        self.zero = False

    @property
    def capacity(self) -> int:
        return int(self.table.shape[0])

    @property
    def nbytes(self) -> int:
        """Bytes the set holds in memory (the table)."""
        return int(self.table.nbytes)

    def __len__(self) -> int:
        return self.count

    def __contains__(self, fp: int) -> bool:
        return bool(self.contains(np.array([fp], dtype=np.uint64))[0])

    def contains(self, fps: U64) -> npt.NDArray[np.bool_]:
        """Whether each of ``fps`` is in the set (a boolean array of their shape)."""
        fps = np.asarray(fps, dtype=np.uint64)
        out = np.zeros(fps.shape[0], dtype=bool)
        out[fps == EMPTY] = self.zero
        todo = np.nonzero(fps != EMPTY)[0]
        cap = np.uint64(self.capacity)
        slot = fps[todo] % cap
        while todo.size:
            here = self.table[slot]
            hit = here == fps[todo]
            out[todo[hit]] = True
            go_on = ~hit & (here != EMPTY)
            todo, slot = todo[go_on], (slot[go_on] + np.uint64(1)) % cap
        return out

    def add_new(self, fps: U64) -> npt.NDArray[np.bool_]:
        """Insert ``fps`` (distinct fingerprints); return which were new (not held before).

        Raises:
            ValueError: ``fps`` holds a fingerprint twice.
        """
        fps = np.asarray(fps, dtype=np.uint64)
        srt = np.sort(fps)
        if srt.shape[0] > 1 and bool((srt[1:] == srt[:-1]).any()):
            raise ValueError("add_new takes distinct fingerprints")
        new = np.zeros(fps.shape[0], dtype=bool)
        zero = fps == EMPTY
        if zero.any():
            new[zero] = not self.zero
            self.count += int(not self.zero)
            self.zero = True
        # grow for the fingerprints not held yet (a batch repeats many held ones)
        self._reserve(self.count + int((~self.contains(fps[~zero])).sum()))
        todo = np.nonzero(~zero)[0]
        cap = np.uint64(self.capacity)
        slot = fps[todo] % cap
        table = self.table
        while todo.size:
            here = table[slot]
            seen = here == fps[todo]
            empty = here == EMPTY
            # of several fingerprints probing the same empty slot, the first takes it
            e_idx = np.nonzero(empty)[0]
            es = slot[e_idx]
            order = np.argsort(es, kind="stable")
            first = np.ones(order.shape[0], dtype=bool)
            first[1:] = es[order][1:] != es[order][:-1]
            win = e_idx[order[first]]
            table[slot[win]] = fps[todo[win]]
            new[todo[win]] = True
            done = seen.copy()
            done[win] = True
            # the others (a taken slot, or a lost race for an empty one) probe on; a loser
            # looks at the same slot again, now holding the winner
            go_on = ~done
            moved = go_on & ~empty
            nxt = slot.copy()
            nxt[moved] = (slot[moved] + np.uint64(1)) % cap
            todo, slot = todo[go_on], nxt[go_on]
        self.count += int(new[~zero].sum())
        return new

    def _reserve(self, n: int) -> None:
        if n <= MAX_LOAD * self.capacity:
            return
        cap = self.capacity
        while n > MAX_LOAD * cap:
            cap = int(cap * GROWTH) + 1
        old = self.table[self.table != EMPTY]
        self.table = np.zeros(cap, dtype=np.uint64)
        count, zero = self.count, self.zero
        self.count, self.zero = 0, False
        self.add_new(old)
        self.count, self.zero = count, zero

    def values(self) -> U64:
        """Every fingerprint held, sorted."""
        out = np.sort(self.table[self.table != EMPTY])
        return np.concatenate([np.zeros(1, dtype=np.uint64), out]) if self.zero else out


def collision_probability(n: int, fps: U64 | None = None) -> tuple[float, float | None]:
    """TLC's two estimates of the chance that some two of ``n`` distinct states share a
    fingerprint: the calculated (optimistic) ``n^2 / 2^65`` (``n (n-1) / 2`` pairs, each
    colliding with probability ``2^-64``), and, given the fingerprints, ``1 / d`` with ``d``
    the smallest distance between two sorted fingerprints (None without them or with fewer
    than two)."""
    calc = n * (n - 1) / 2 / 2.0**64
    if fps is None or fps.shape[0] < 2:
        return calc, None
    s = np.sort(np.asarray(fps, dtype=np.uint64))
    d = int(np.diff(s).min())
    return calc, 1.0 / d if d else 1.0


RECORD = np.dtype([("fp", "<u8"), ("parent", "<i8"), ("index", "<i4")])
"""One parent pointer on disk: fingerprint, parent fingerprint (-1 for a root; stored as
signed, the parent's 64 bits reinterpreted) and action index."""


class ParentFile:
    """The parent pointers of every level, appended to a temporary file in ``folder`` (the
    system's temporary folder by default), level by level; :meth:`close` removes it."""

    def __init__(self, folder: Path | None = None) -> None:
        fd, name = tempfile.mkstemp(prefix="ruleproof-parents-", suffix=".bin",
                                    dir=None if folder is None else str(folder))
        os.close(fd)
        self.path = Path(name)
        self.levels: list[tuple[int, int]] = []  # (first record, records) per level
        self._records = 0
        self._fh = self.path.open("r+b")

    def append(self, fps: U64, parents: npt.NDArray[np.int64],
               indices: npt.NDArray[np.int32]) -> None:
        """Add one level's records (the next depth)."""
        rec = np.empty(fps.shape[0], dtype=RECORD)
        rec["fp"], rec["parent"], rec["index"] = fps, parents, indices
        order = np.argsort(rec["fp"])
        self._fh.seek(self._records * RECORD.itemsize)
        self._fh.write(rec[order].tobytes())
        self._fh.flush()
        self.levels.append((self._records, rec.shape[0]))
        self._records += rec.shape[0]

    def find(self, fp: int) -> tuple[int, int, int] | None:
        """``(depth, parent fingerprint, action index)`` of ``fp`` (a parent of -1: a root),
        or None."""
        key = np.uint64(fp)
        for depth, (start, n) in enumerate(self.levels):
            if not n:
                continue
            self._fh.seek(start * RECORD.itemsize)
            rec = np.frombuffer(self._fh.read(n * RECORD.itemsize), dtype=RECORD)
            i = int(np.searchsorted(rec["fp"], key))
            if i < n and rec["fp"][i] == key:
                parent = int(rec["parent"][i])
                return depth, (parent if parent == -1 else parent & ((1 << 64) - 1)), int(
                    rec["index"][i])
        return None

    @property
    def disk_bytes(self) -> int:
        return self._records * RECORD.itemsize

    def close(self) -> None:
        self._fh.close()
        self.path.unlink(missing_ok=True)
