"""Dracula card and board data with provenance, loaded from ``spec/dracula/``.

Every value in ``spec/dracula/cards.toml`` and ``spec/dracula/board.toml`` is a table
``{ value = ..., provenance = "rulebook" | "public" | "assumed", source = "..." }``.
User card files in the same format are validated by :func:`load_cards`; a bad value raises
:class:`ruleproof.errors.MalformedInput` naming the file, line, card and field.

Clauses: dracula-en:contents.components, dracula-en:setup.dracula-kit,
dracula-en:setup.van-helsing-kit, dracula-en:enemy.fight, dracula-en:cards.strength,
dracula-en:cards.bar, dracula-en:barriers.grey, dracula-en:pay.specials-count,
dracula-en:setup.board. Values from the worked example (dracula-en:example.card-values;
Resistance's green bar from dracula-en:example.resistance-barrier) are marked ``rulebook``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.spec import PROVENANCES, spec_path


class Side(IntEnum):
    """The two players; the int value is the player index used by the Game protocol."""

    DRACULA = 0
    VAN_HELSING = 1

    @property
    def label(self) -> str:
        """``Dracula`` or ``Van Helsing``."""
        return "Dracula" if self is Side.DRACULA else "Van Helsing"

    @property
    def slug(self) -> str:
        """``dracula`` or ``van-helsing`` (the spelling used in data files and notation)."""
        return "dracula" if self is Side.DRACULA else "van-helsing"

    @property
    def other(self) -> Side:
        """The opponent."""
        return Side(1 - int(self))


SIDE_BY_SLUG = {"dracula": Side.DRACULA, "van-helsing": Side.VAN_HELSING}


class Kind(Enum):
    """Encounter card kinds (dracula-en:setup.dracula-kit, dracula-en:setup.van-helsing-kit)."""

    ENEMY = "enemy"    # vampire / vampire hunter
    POWER = "power"    # amulet / crucifix
    TARGET = "target"  # coffin / victim


KIND_COUNTS = {Kind.ENEMY: 9, Kind.POWER: 1, Kind.TARGET: 5}
COLOURS = ("red", "blue", "green", "yellow")
BAR_VALUES = (*COLOURS, "grey")
SPECIALS: dict[Side, tuple[str, ...]] = {
    Side.VAN_HELSING: ("inspiration", "composure", "rebellion", "perception", "deception",
                       "reinforcement", "vigilance", "resistance"),
    Side.DRACULA: ("wings-of-night", "pulse", "depths-of-night", "breath-of-night", "roar",
                   "eyes", "dark-of-night", "whisper-of-night"),
}
MAX_MOVE = 9


@dataclass(frozen=True)
class EncounterCard:
    """One encounter card.

    Attributes:
        id: unique id, e.g. ``vampire4``, ``amulet``, ``victim2``.
        owner: the side whose deck it belongs to.
        kind: enemy, power symbol or target.
        strength: 1-3 for enemies, 0 otherwise (dracula-en:enemy.fight).
    """

    id: str
    owner: Side
    kind: Kind
    strength: int


@dataclass(frozen=True)
class ActionCard:
    """One action card (dracula-en:cards.move-number, dracula-en:cards.strength,
    dracula-en:cards.special, dracula-en:cards.bar).

    Attributes:
        id: slug, e.g. ``resistance``.
        owner: side.
        name: display name.
        move: move number (1..9).
        strength: battle strength 1-4, or 0 for the card without one.
        bar: ``red``, ``blue``, ``green``, ``yellow`` or ``grey`` (free choice).
        special: special action id (see :data:`SPECIALS`) or ``None``.
    """

    id: str
    owner: Side
    name: str
    move: int
    strength: int
    bar: str
    special: str | None


@dataclass(frozen=True)
class Provenanced:
    """One data value with provenance (``what`` names it, e.g. ``card resistance move``)."""

    what: str
    value: str
    provenance: str
    source: str


@dataclass(frozen=True)
class CardSet:
    """Both decks of both kinds, validated.

    Attributes:
        encounter: the 30 encounter cards (Dracula's 15 first).
        action: the 20 action cards (Dracula's 10 first).
        values: every value with its provenance, in file order.
        path: the file it was read from.
    """

    encounter: tuple[EncounterCard, ...]
    action: tuple[ActionCard, ...]
    values: tuple[Provenanced, ...]
    path: str
    # Lookup tables by id, built once (hashing the whole card set on every lookup, as a
    # functools.cache keyed on it did, was the engine's largest cost).
    _enc: dict[str, EncounterCard] = field(init=False, repr=False, compare=False, hash=False)
    _act: dict[str, ActionCard] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_enc", {c.id: c for c in self.encounter})
        object.__setattr__(self, "_act", {c.id: c for c in self.action})

    def enc(self, card_id: str) -> EncounterCard:
        """The encounter card ``card_id`` (KeyError if unknown)."""
        return self._enc[card_id]

    def act(self, card_id: str) -> ActionCard:
        """The action card ``card_id`` (KeyError if unknown)."""
        return self._act[card_id]

    def encounter_of(self, side: Side) -> tuple[str, ...]:
        """Ids of the 15 encounter cards of ``side``, in file order."""
        return tuple(c.id for c in self.encounter if c.owner is side)

    def action_of(self, side: Side) -> tuple[str, ...]:
        """Ids of the 10 action cards of ``side``, in file order."""
        return tuple(c.id for c in self.action if c.owner is side)


@dataclass(frozen=True)
class Board:
    """The 3 x 4 board (dracula-en:setup.board, dracula-en:move.orthogonal).

    Attributes:
        rows, columns: grid size; location ``i`` is row ``i // columns``, column ``i % columns``.
        harbour, carriage_station: location indices of the two corners.
        life_markers: life markers per side.
        colours: barrier colours.
        values: every value with provenance.
    """

    rows: int
    columns: int
    harbour: int
    carriage_station: int
    life_markers: int
    colours: tuple[str, ...]
    values: tuple[Provenanced, ...]

    @property
    def size(self) -> int:
        """Number of locations."""
        return self.rows * self.columns

    def name(self, loc: int) -> str:
        """Location name: the name of the full board's location of the same index (column
        letter + row number, ``a1`` .. ``d3``, row by row in 4 columns), so that a name means
        one index on every board, as the action notation and a trace's replay need
        (:func:`.actions.loc_name`). On the full board and on one-row boards it is the
        location's column and row; a reduced board of several rows of fewer than 4 columns
        numbers its locations row by row as well (a 2 x 2 board: ``a1 b1`` above ``c1 d1``).

        Raises:
            IndexError: ``loc`` beyond the 12 locations of the full board.
        """
        return "abcd"[loc % 4] + str(loc // 4 + 1) if 0 <= loc < 12 else _no_location(loc)

    def label(self, loc: int) -> str:
        """Name with the harbour/carriage station marked, for logs."""
        if loc == self.harbour:
            return f"{self.name(loc)} (harbour)"
        if loc == self.carriage_station:
            return f"{self.name(loc)} (carriage station)"
        return self.name(loc)

    def parse(self, text: str) -> int:
        """Location index of a name (``a1``, ``harbour``, ``carriage-station``); ValueError."""
        t = text.strip().lower()
        if t == "harbour":
            return self.harbour
        if t in ("carriage-station", "carriage"):
            return self.carriage_station
        for loc in range(self.size):
            if self.name(loc) == t:
                return loc
        raise ValueError(f"unknown location {text!r}")

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """:meth:`neighbours` of every location, indexed by location."""
        return _neighbours(self.rows, self.columns)

    @property
    def detours(self) -> dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]]:
        """For each border, the other three borders of each 2 x 2 block of locations it lies
        in: if none of them is blocked, the two locations of the border stay joined."""
        return _detours(self.rows, self.columns)

    def neighbours(self, loc: int) -> tuple[int, ...]:
        """Orthogonal neighbours of ``loc`` (dracula-en:move.orthogonal), ascending."""
        return _neighbours(self.rows, self.columns)[loc]

    @property
    def edges(self) -> tuple[tuple[int, int], ...]:
        """All borders between orthogonal neighbours as (low, high) pairs
        (dracula-en:barriers.between)."""
        return _edges(self.rows, self.columns)

    def edge_name(self, edge: tuple[int, int]) -> str:
        """``a1-b1`` style name of a border."""
        return f"{self.name(edge[0])}-{self.name(edge[1])}"

    def parse_edge(self, text: str) -> tuple[int, int]:
        """Border from ``a1-b1``; ValueError if not two neighbouring locations."""
        parts = text.strip().lower().split("-")
        if len(parts) != 2:
            raise ValueError(f"border {text!r} is not of the form a1-b1")
        a, b = sorted((self.parse(parts[0]), self.parse(parts[1])))
        if (a, b) not in self.edges:
            raise ValueError(f"{text!r}: the two locations are not neighbours")
        return (a, b)


def _no_location(loc: int) -> str:
    raise IndexError(f"location {loc} is not one of the 12 of the full board")


@cache
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for loc in range(rows * cols):
        r, c = divmod(loc, cols)
        n = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                n.append(rr * cols + cc)
        out.append(tuple(sorted(n)))
    return tuple(out)


@cache
def _detours(rows: int, cols: int) -> dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]]:
    """For each border, the other three borders of each 2 x 2 block of locations it lies in
    (the short way round it)."""
    out: dict[tuple[int, int], list[tuple[tuple[int, int], ...]]] = {e: [] for e in _edges(rows, cols)}
    for r in range(rows - 1):
        for c in range(cols - 1):
            a, b = r * cols + c, r * cols + c + 1
            d, e = a + cols, b + cols
            square = ((a, b), (d, e), (a, d), (b, e))
            for side in square:
                out[side].append(tuple(x for x in square if x != side))
    return {e: tuple(v) for e, v in out.items()}


@cache
def _edges(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    nb = _neighbours(rows, cols)
    return tuple(sorted({(min(a, b), max(a, b)) for a in range(rows * cols) for b in nb[a]}))


# --------------------------------------------------------------------------- loading


def _field(entry: dict[str, Any], name: str, what: str, fail: Any) -> tuple[Any, Provenanced]:
    raw = entry.get(name)
    if not isinstance(raw, dict):
        raise fail(f"{what}: field '{name}' must be a table {{ value, provenance, source }}", name)
    prov = raw.get("provenance")
    if prov not in PROVENANCES:
        raise fail(f"{what}: field '{name}': provenance must be one of "
                   f"{', '.join(PROVENANCES)}, got {prov!r}", name)
    source = raw.get("source")
    if not isinstance(source, str) or not source.strip():
        raise fail(f"{what}: field '{name}': 'source' must be a non-empty string", name)
    if "value" not in raw:
        raise fail(f"{what}: field '{name}': missing 'value'", name)
    value = raw["value"]
    return value, Provenanced(f"{what} {name}", str(value), prov, source)


def load_cards(path: Path | str) -> CardSet:
    """Load and validate a Dracula card file (format of ``spec/dracula/cards.toml``).

    Returns:
        the validated :class:`CardSet`.

    Raises:
        MalformedInput: naming file, line, card and field for any bad value (e.g. an enemy of
            strength 9, an action card strength outside 1-4/"none", an unknown bar colour),
            and for wrong deck compositions (dracula-en:setup.dracula-kit,
            dracula-en:setup.van-helsing-kit, dracula-en:cards.strength,
            dracula-en:barriers.grey, dracula-en:pay.specials-count).
    """
    from ruleproof.model.dracula.formats import DraculaCards
    from ruleproof.spec.formats import read_toml, validate

    p = Path(path)
    doc = read_toml(p)
    problems = doc.problems()
    validate(DraculaCards, doc.data, problems)
    problems.raise_if_any()
    data = doc.data
    file = str(p)
    values: list[Provenanced] = []

    def failer(at: tuple[str, int]) -> Any:
        def fail(what: str, fieldname: str | None = None) -> MalformedInput:
            return doc.error(at if fieldname is None else (*at, fieldname), what)
        return fail

    def side_of(entry: dict[str, Any], what: str, fail: Any) -> Side:
        owner = entry.get("owner")
        if owner not in SIDE_BY_SLUG:
            raise fail(f"{what}: field 'owner' must be 'dracula' or 'van-helsing', got {owner!r}",
                       "owner")
        return SIDE_BY_SLUG[owner]

    seen: set[str] = set()
    enc: list[EncounterCard] = []
    raw_enc = data.get("encounter")
    if not isinstance(raw_enc, list):
        raise MalformedInput("expected [[encounter]] tables", file=file)
    for i, entry in enumerate(raw_enc):
        fail = failer(("encounter", i))
        cid = entry.get("id")
        if not isinstance(cid, str) or not cid:
            raise fail("encounter card without a string 'id'", "id")
        what = f"card {cid}"
        if cid in seen:
            raise fail(f"{what}: duplicate id", "id")
        seen.add(cid)
        owner = side_of(entry, what, fail)
        kind_v, pv = _field(entry, "kind", what, fail)
        values.append(pv)
        if kind_v not in ("enemy", "power", "target"):
            raise fail(f"{what}: field 'kind' must be enemy, power or target, got {kind_v!r}",
                       "kind")
        kind = Kind(kind_v)
        strength = 0
        if kind is Kind.ENEMY:
            s, pv = _field(entry, "strength", what, fail)
            values.append(pv)
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 3:
                raise fail(f"{what}: field 'strength' must be 1, 2 or 3 "
                           f"(dracula-en:enemy.fight), got {s!r}", "strength")
            strength = s
        elif "strength" in entry:
            raise fail(f"{what}: field 'strength' is only allowed on enemies", "strength")
        enc.append(EncounterCard(cid, owner, kind, strength))
    for side in Side:
        counts = Counter(c.kind for c in enc if c.owner is side)
        want = dict(KIND_COUNTS)
        if dict(counts) != want:
            got = ", ".join(f"{counts.get(k, 0)} {k.value}" for k in Kind)
            raise MalformedInput(
                f"{side.label}'s encounter deck must have 9 enemy, 1 power and 5 target cards "
                f"(dracula-en:setup.dracula-kit, dracula-en:setup.van-helsing-kit), got {got}",
                file=file)

    act: list[ActionCard] = []
    raw_act = data.get("action")
    if not isinstance(raw_act, list):
        raise MalformedInput("expected [[action]] tables", file=file)
    for i, entry in enumerate(raw_act):
        fail = failer(("action", i))
        cid = entry.get("id")
        if not isinstance(cid, str) or not cid:
            raise fail("action card without a string 'id'", "id")
        what = f"card {cid}"
        if cid in seen:
            raise fail(f"{what}: duplicate id", "id")
        seen.add(cid)
        owner = side_of(entry, what, fail)
        name, pv = _field(entry, "name", what, fail)
        values.append(pv)
        if not isinstance(name, str) or not name:
            raise fail(f"{what}: field 'name' must be a non-empty string", "name")
        move, pv = _field(entry, "move", what, fail)
        values.append(pv)
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= MAX_MOVE:
            raise fail(f"{what}: field 'move' must be an integer 1..{MAX_MOVE} "
                       f"(dracula-en:cards.move-number), got {move!r}", "move")
        st, pv = _field(entry, "strength", what, fail)
        values.append(pv)
        if st == "none":
            strength = 0
        elif isinstance(st, bool) or not isinstance(st, int) or not 1 <= st <= 4:
            raise fail(f"{what}: field 'strength' must be 1..4 or \"none\" "
                       f"(dracula-en:cards.strength), got {st!r}", "strength")
        else:
            strength = st
        bar, pv = _field(entry, "bar", what, fail)
        values.append(pv)
        if bar not in BAR_VALUES:
            raise fail(f"{what}: field 'bar' must be one of {', '.join(BAR_VALUES)} "
                       f"(dracula-en:cards.bar), got {bar!r}", "bar")
        sp, pv = _field(entry, "special", what, fail)
        values.append(pv)
        if sp != "none" and sp not in SPECIALS[owner]:
            raise fail(f"{what}: field 'special' must be \"none\" or one of "
                       f"{', '.join(SPECIALS[owner])}, got {sp!r}", "special")
        act.append(ActionCard(cid, owner, name, move, strength, bar,
                              None if sp == "none" else sp))
    for side in Side:
        mine = [c for c in act if c.owner is side]
        if len(mine) != 10:
            raise MalformedInput(f"{side.label} must have 10 action cards "
                                 f"(dracula-en:contents.components), got {len(mine)}", file=file)
        if sum(1 for c in mine if c.strength == 0) != 1:
            raise MalformedInput(f"{side.label}: exactly one action card must have strength "
                                 "\"none\" (dracula-en:cards.strength)", file=file)
        specials = [c.special for c in mine if c.special is not None]
        if len(specials) != 8 or len(set(specials)) != 8:
            raise MalformedInput(f"{side.label}: 8 of the 10 action cards must carry 8 different "
                                 "special actions (dracula-en:pay.specials-count)", file=file)
    if sum(1 for c in act if c.bar == "grey") != 2:
        raise MalformedInput("exactly two action cards must have a grey bar "
                             "(dracula-en:barriers.grey)", file=file)
    order = {Side.DRACULA: 0, Side.VAN_HELSING: 1}
    enc.sort(key=lambda c: order[c.owner])
    act.sort(key=lambda c: order[c.owner])
    return CardSet(tuple(enc), tuple(act), tuple(values), file)


def _plain(data: dict[str, Any], key: str, file: str, text: str) -> tuple[Any, Provenanced]:
    raw = data.get(key)
    line = None
    if not isinstance(raw, dict) or "value" not in raw:
        raise MalformedInput(f"board: missing table [{key}] with a value", file=file, line=line)
    prov = raw.get("provenance")
    if prov not in PROVENANCES or not isinstance(raw.get("source"), str):
        raise MalformedInput(f"board: [{key}] needs a provenance and a source",
                             file=file, line=line)
    v = raw["value"]
    shown = ", ".join(v) if isinstance(v, list) else str(v)
    return v, Provenanced(f"board {key}", shown, prov, raw["source"])


def load_board(path: Path | str) -> Board:
    """Load and validate a board file (format of ``spec/dracula/board.toml``).

    Raises:
        MalformedInput: if the grid is not 12 locations (dracula-en:setup.board), the harbour
            and carriage station are not opposite corners, adjacency is not orthogonal
            (dracula-en:move.orthogonal) or there are not 4 barrier colours.
    """
    from ruleproof.model.dracula.formats import DraculaBoard
    from ruleproof.spec.formats import read_toml, validate

    p = Path(path)
    doc = read_toml(p)
    problems = doc.problems()
    validate(DraculaBoard, doc.data, problems)
    problems.raise_if_any()
    data, text = doc.data, doc.text
    file = str(p)
    vals: list[Provenanced] = []
    got: dict[str, Any] = {}
    for key in ("rows", "columns", "harbour", "carriage_station", "adjacency", "life_markers",
                "barrier_colours"):
        v, pv = _plain(data, key, file, text)
        got[key] = v
        vals.append(pv)
    rows, cols = got["rows"], got["columns"]
    if not (isinstance(rows, int) and isinstance(cols, int) and rows * cols == 12
            and rows > 1 and cols > 1):
        raise doc.error(("rows", "value"), "board must be a grid of 12 locations (dracula-en:setup.board)")
    if got["adjacency"] != "orthogonal":
        raise doc.error(("adjacency", "value"), "adjacency must be 'orthogonal' (dracula-en:move.orthogonal)")
    life = got["life_markers"]
    if not isinstance(life, int) or life < 1:
        raise doc.error(("life_markers", "value"), "life_markers must be a positive integer")
    colours = got["barrier_colours"]
    if not isinstance(colours, list) or tuple(colours) != COLOURS:
        raise doc.error(("barrier_colours", "value"), f"barrier_colours must be {list(COLOURS)}")
    proto = Board(rows, cols, 0, 0, life, COLOURS, ())
    try:
        h = proto.parse(str(got["harbour"]))
        cs = proto.parse(str(got["carriage_station"]))
    except ValueError as exc:
        raise doc.error(("harbour", "value"), str(exc)) from None
    corners = {0, cols - 1, (rows - 1) * cols, rows * cols - 1}
    if h not in corners or cs != rows * cols - 1 - h:
        raise doc.error(("carriage_station", "value"), "harbour and carriage station must be "
                        "opposite corners (dracula-en:setup.board)")
    return Board(rows, cols, h, cs, life, COLOURS, tuple(vals))


@cache
def default_cards() -> CardSet:
    """The shipped card data ``spec/dracula/cards.toml``."""
    return load_cards(spec_path("dracula", "cards.toml"))


@cache
def default_board() -> Board:
    """The shipped board ``spec/dracula/board.toml``."""
    return load_board(spec_path("dracula", "board.toml"))
