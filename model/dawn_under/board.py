"""Board files for Dawn Under: graves, quarters and the neighbour relation (format
``dawn-under-board``: :class:`DawnUnderBoard`, ``ruleproof schema dawn-under-board``).

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

from pydantic import Field

from ruleproof.spec import spec_path
from ruleproof.spec.models import PROVENANCE, Name, NonNegative, StrictModel

MAX_NEIGHBOURS = 8
QUARTER_COUNT = 4


class Grave(StrictModel):
    """One grave of a Dawn Under board."""

    id: NonNegative
    quarter: Name
    neighbours: list[NonNegative] = Field(max_length=8)
    x: int = Field(0, ge=-10_000, le=10_000)
    y: int = Field(0, ge=-10_000, le=10_000)


class DawnUnderBoard(StrictModel):
    """A Dawn Under board file (graves, quarters, neighbours)."""

    name: Name | None = None
    provenance: PROVENANCE
    quarters: list[Name] = Field(min_length=4, max_length=4)
    grave: list[Grave] = Field(max_length=1000)


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
    from ruleproof.spec.formats import read_toml, validate

    doc = read_toml(path)
    problems = doc.problems()
    model = validate(DawnUnderBoard, doc.data, problems)
    problems.raise_if_any()
    assert model is not None
    quarters = list(model.quarters)
    if len(set(quarters)) != QUARTER_COUNT:
        problems.add(("quarters",), "'quarters' must list 4 distinct quarter names in "
                                    "clockwise order")
    if len(model.grave) != graves:
        problems.add(("grave",), f"board has {len(model.grave)} graves, the game needs "
                                 f"exactly {graves}")
    by_id: dict[int, tuple[int, int, list[int], tuple[int, int]]] = {}
    for index, entry in enumerate(model.grave):
        at = ("grave", index)
        gid = entry.id
        if not 0 <= gid < graves:
            problems.add((*at, "id"), f"grave id {gid} must be an integer in 0..{graves - 1}")
            continue
        if gid in by_id:
            problems.add((*at, "id"), f"grave {gid}: duplicate id")
            continue
        if entry.quarter not in quarters:
            problems.add((*at, "quarter"), f"grave {gid}: quarter {entry.quarter!r} is not one "
                                           f"of {quarters}")
            continue
        by_id[gid] = (index, quarters.index(entry.quarter), list(entry.neighbours),
                      (entry.x, entry.y))
    problems.raise_if_any()

    for gid, (index, q, nbrs, _xy) in sorted(by_id.items()):
        where = ("grave", index, "neighbours")
        if len(set(nbrs)) != len(nbrs):
            problems.add(where, f"grave {gid}: a neighbour is listed twice")
        for k, n in enumerate(nbrs):
            if n == gid:
                problems.add((*where, k), f"grave {gid}: a grave cannot be its own neighbour")
            elif n not in by_id:
                problems.add((*where, k), f"grave {gid}: neighbour {n} does not exist")
            elif by_id[n][1] != q:
                problems.add((*where, k), f"grave {gid}: neighbour {n} lies in another quarter "
                             f"({quarters[by_id[n][1]]}); no neighbours across a path")
            elif gid not in by_id[n][2]:
                problems.add((*where, k), f"grave {gid}: neighbour {n} does not list {gid} back "
                             "(neighbours must be symmetric)")
    sizes = [sum(1 for v in by_id.values() if v[1] == q) for q in range(QUARTER_COUNT)]
    if 0 in sizes:
        problems.add(("quarters",), f"quarter {quarters[sizes.index(0)]} has no graves")
    elif len(set(sizes)) != QUARTER_COUNT:
        problems.add(("quarters",), f"quarter sizes {sizes} must all differ (the paths split "
                     "the graveyard into four parts of different sizes)")
    problems.raise_if_any()
    ids = range(graves)
    return Board(
        name=model.name or path.stem,
        provenance=model.provenance,
        quarters=tuple(quarters),
        quarter_of=tuple(by_id[g][1] for g in ids),
        neighbours=tuple(tuple(sorted(by_id[g][2])) for g in ids),
        coords=tuple(by_id[g][3] for g in ids),
    )


@cache
def default_board() -> Board:
    """The shipped, ``assumed`` default board."""
    return load_board(spec_path("dawn_under", "boards", "default.toml"))
