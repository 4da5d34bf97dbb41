"""Board files for Dawn Under: graves, quarters and the neighbour relation.

The real layout is not published anywhere (docs/provenance.md), so the shipped board is
``assumed``. Users load their own with :func:`load_board`; it is validated against every
constraint the sources state (du-en:content.graves, du-en:ch4.neighbours, du-en:ch4.path):

* exactly ``graves`` graves with ids 0..graves-1;
* four quarters, listed in clockwise order, of pairwise different sizes, none empty;
* the neighbour relation is irreflexive and symmetric, with at most 8 neighbours per grave;
* no two neighbours lie in different quarters (a footpath separates quarters).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ruleproof.errors import MalformedInput
from ruleproof.spec import PROVENANCES, _read_toml, line_of, spec_path, table_lines

MAX_NEIGHBOURS = 8
QUARTER_COUNT = 4


@dataclass(frozen=True)
class Board:
    """A validated Dawn Under board.

    Attributes:
        name: board name.
        provenance: ``rulebook``, ``public`` or ``assumed``.
        quarters: quarter names in clockwise order.
        quarter_of: quarter index of each grave (tuple indexed by grave id).
        neighbours: sorted neighbour ids of each grave.
        coords: (x, y) of each grave, for display only.
    """

    name: str
    provenance: str
    quarters: tuple[str, ...]
    quarter_of: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    coords: tuple[tuple[int, int], ...]

    @property
    def size(self) -> int:
        """Number of graves."""
        return len(self.quarter_of)

    def quarter_sizes(self) -> tuple[int, ...]:
        """Number of graves in each quarter, in clockwise order."""
        return tuple(self.quarter_of.count(q) for q in range(len(self.quarters)))


def load_board(path: Path, graves: int = 60) -> Board:
    """Load and validate a board file.

    Args:
        path: TOML board file (format in docs/formats.md).
        graves: the number of graves the game needs (from the manifest).

    Raises:
        MalformedInput: naming file, line, grave and the broken constraint.
    """
    data, text = _read_toml(path)
    file = str(path)

    def fail(what: str, line: int | None = None) -> MalformedInput:
        return MalformedInput(what, file=file, line=line)

    prov = data.get("provenance")
    if prov not in PROVENANCES:
        got = "nothing (the key is missing)" if prov is None else repr(prov)
        raise fail(f"'provenance' must be one of {', '.join(PROVENANCES)}, got {got}",
                   line_of(text, "provenance") or 1)
    quarters = data.get("quarters")
    if (not isinstance(quarters, list) or len(quarters) != QUARTER_COUNT
            or not all(isinstance(q, str) for q in quarters) or len(set(quarters)) != QUARTER_COUNT):
        raise fail("'quarters' must list 4 distinct quarter names in clockwise order",
                   line_of(text, "quarters"))
    raw = data.get("grave")
    if not isinstance(raw, list):
        raise fail("expected [[grave]] tables")
    lines = table_lines(text, "grave")
    if len(raw) != graves:
        raise fail(f"board has {len(raw)} graves, the game needs exactly {graves}")
    by_id: dict[int, tuple[int, int, list[int], tuple[int, int]]] = {}
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else None
        gid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(gid, int) or isinstance(gid, bool) or not 0 <= gid < graves:
            raise fail(f"grave id {gid!r} must be an integer in 0..{graves - 1}", line)
        if gid in by_id:
            raise fail(f"grave {gid}: duplicate id", line)
        unknown = set(entry) - {"id", "quarter", "neighbours", "x", "y"}
        if unknown:
            raise fail(f"grave {gid}: unknown field(s) {', '.join(sorted(unknown))} (expected id, "
                       "quarter, neighbours, x, y)", line)
        quarter = entry.get("quarter")
        if quarter not in quarters:
            raise fail(f"grave {gid}: quarter {quarter!r} is not one of {quarters}", line)
        nbrs = entry.get("neighbours")
        if not isinstance(nbrs, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in nbrs):
            raise fail(f"grave {gid}: 'neighbours' must be a list of grave ids", line)
        x, y = entry.get("x", 0), entry.get("y", 0)
        if not isinstance(x, int) or not isinstance(y, int):
            raise fail(f"grave {gid}: x and y must be integers", line)
        by_id[gid] = (index, quarters.index(quarter), nbrs, (x, y))

    def gline(gid: int) -> int | None:
        index = by_id[gid][0]
        return lines[index] if index < len(lines) else None

    for gid, (_, q, nbrs, _xy) in sorted(by_id.items()):
        if len(set(nbrs)) != len(nbrs):
            raise fail(f"grave {gid}: a neighbour is listed twice", gline(gid))
        if len(nbrs) > MAX_NEIGHBOURS:
            raise fail(f"grave {gid}: {len(nbrs)} neighbours, at most {MAX_NEIGHBOURS} allowed",
                       gline(gid))
        for n in nbrs:
            if n == gid:
                raise fail(f"grave {gid}: a grave cannot be its own neighbour", gline(gid))
            if n not in by_id:
                raise fail(f"grave {gid}: neighbour {n} does not exist", gline(gid))
            if by_id[n][1] != q:
                raise fail(f"grave {gid}: neighbour {n} lies in another quarter "
                           f"({quarters[by_id[n][1]]}); no neighbours across a path", gline(gid))
            if gid not in by_id[n][2]:
                raise fail(f"grave {gid}: neighbour {n} does not list {gid} back "
                           "(neighbours must be symmetric)", gline(gid))
    sizes = [sum(1 for v in by_id.values() if v[1] == q) for q in range(QUARTER_COUNT)]
    if 0 in sizes:
        raise fail(f"quarter {quarters[sizes.index(0)]} has no graves")
    if len(set(sizes)) != QUARTER_COUNT:
        raise fail(f"quarter sizes {sizes} must all differ (the paths split the graveyard "
                   "into four parts of different sizes)")
    ids = range(graves)
    return Board(
        name=str(data.get("name", path.stem)),
        provenance=str(prov),
        quarters=tuple(quarters),
        quarter_of=tuple(by_id[g][1] for g in ids),
        neighbours=tuple(tuple(sorted(by_id[g][2])) for g in ids),
        coords=tuple(by_id[g][3] for g in ids),
    )


@cache
def default_board() -> Board:
    """The shipped, ``assumed`` default board."""
    return load_board(spec_path("boards", "dawn-under-default.toml"))
