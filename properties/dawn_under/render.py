"""Pictures of Dawn Under: the board (quarters, paths, grave ids) and any position.

A position is drawn for one *view*: ``None`` shows everything (lids not yet turned, face-down
vampires), a player index shows what that player may know (:func:`observation`; in Dawn Under all
players see the same, du-en:ch1.open, du-en:prep.row). Graves: lid back (brown) while the view
has not seen the lid, lid colour once turned, ``rat`` for a rat lid, a dark hole when no lid
lies on it; a vampire (coloured disc) or garlic (white bulb, ``G`` + owner) inside; grave id in
the corner. The panel shows each row, stakes, garlic, bats and the flow (turn, phase, plague).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.model.dawn_under.board import Board
from ruleproof.model.dawn_under.observe import observation
from ruleproof.model.dawn_under.state import RAT, GarlicIn, Phase, State, Vampire, VampireIn
from ruleproof.properties.render.svg import Canvas, Picture, document, el, fill_of, ink_on, text

CELL = 46
MARGIN = 24
TOP = 40
ROW_STEP = 13
ROW_LINE = 30
PLAYER_BLOCK = 62
PANEL_WIDTH = ROW_LINE * ROW_STEP + 40
PUBLIC = -1
"""The view of any player: in Dawn Under every player knows the same (du-en:ch1.open,
du-en:prep.row), so one picture serves them all."""
SAND = "#d8c7a0"
GRASS = "#55664a"
LID_BACK = "#5a4632"
HOLE = "#1b1410"


@cache
def _defs() -> str:
    """Symbols for row vampires: ``vu-C`` face up, ``vh-C`` face down seen in the everything
    view (faded, dashed), ``vd`` face down (grey), for each colour name C."""
    items = [el("circle", id="vd", r=5.5, fill="#6b6b6b", stroke="#333", stroke_width=.8)]
    for name in ("red", "yellow", "white", "blue", "green", "black", "grey", "purple", "orange",
                 "brown"):
        items.append(el("circle", id=f"vu-{name}", r=5.5, fill=fill_of(name), stroke="#111",
                        stroke_width=.8))
        items.append(el("circle", id=f"vh-{name}", r=5.5, fill=fill_of(name), stroke="#777",
                        stroke_width=1.2, stroke_dasharray="2 1.5", opacity=.55))
    return el("defs", "".join(items))


@cache
def _origin(board: Board) -> tuple[int, int, int, int]:
    xs = [x for x, _ in board.coords]
    ys = [y for _, y in board.coords]
    return min(xs), min(ys), max(xs), max(ys)


def _board_size(board: Board) -> tuple[int, int]:
    x0, y0, x1, y1 = _origin(board)
    return (x1 - x0 + 1) * CELL + 2 * MARGIN, (y1 - y0 + 1) * CELL + 2 * MARGIN + TOP


def canvas(board: Board, players: int) -> Canvas:
    """The picture size for ``board`` and ``players`` (fixed for a whole game)."""
    w, h = _board_size(board)
    return Canvas(w + PANEL_WIDTH, max(h, TOP + players * PLAYER_BLOCK + 150))


@cache
def _centre(board: Board, grave: int) -> tuple[float, float]:
    x0, y0, _, _ = _origin(board)
    x, y = board.coords[grave]
    return MARGIN + (x - x0) * CELL + CELL / 2, TOP + MARGIN + (y - y0) * CELL + CELL / 2


def board_picture(board: Board, title: str | None = None) -> Picture:
    """The empty board: paths (sand), the four quarters (green, named), grave outlines and ids,
    and the neighbour relation as thin lines (du-en:ch4.neighbours, du-en:ch4.path)."""
    pic = dict(_board_base(board))
    pic["01title"] = text(MARGIN, 24, title or f"Dawn Under board {board.name} "
                          f"({board.provenance})", size=14, anchor="start", weight="bold")
    return pic


@cache
def _board_base(board: Board) -> Picture:
    w, h = _board_size(board)
    pic: Picture = {
        "00bg": el("rect", x=0, y=0, width="100%", height="100%", fill="#f7f4ec"),
        "00defs": _defs(),
        "02paths": el("rect", x=MARGIN - 12, y=TOP + MARGIN - 12, width=w - 2 * MARGIN + 24,
                      height=h - TOP - 2 * MARGIN + 24, rx=10, fill=SAND,
                      title="paths between the quarters"),
    }
    half = CELL / 2
    for q, name in enumerate(board.quarters):
        graves = [g for g in range(board.size) if board.quarter_of[g] == q]
        cx = [_centre(board, g)[0] for g in graves]
        cy = [_centre(board, g)[1] for g in graves]
        x, y = min(cx) - half + 3, min(cy) - half + 3
        pic[f"03q{q}"] = el("rect", x=f"{x:g}", y=f"{y:g}", width=f"{max(cx) - min(cx) + CELL - 6:g}",
                            height=f"{max(cy) - min(cy) + CELL - 6:g}", rx=8, fill=GRASS,
                            title=f"quarter {name}: {len(graves)} graves")
        pic[f"04q{q}"] = text(x + 4, max(cy) + half + 12, f"{name} ({len(graves)})", size=10,
                              anchor="start", fill="#3b3320")
    lines = []
    for g in range(board.size):
        for n in board.neighbours[g]:
            if n > g:
                (ax, ay), (bx, by) = _centre(board, g), _centre(board, n)
                lines.append(f"M{ax:g} {ay:g}L{bx:g} {by:g}")
    pic["05nbrs"] = el("path", d="".join(lines), stroke="#8fa183", stroke_width=1, fill="none",
                       title="neighbouring graves")
    for g in range(board.size):
        pic[f"20g{g:03d}"] = _grave(board, g, None, False, None, None, ())
    return pic


@lru_cache(maxsize=65536)
def _grave(board: Board, g: int, lid: int | None, lid_seen: bool, colours: Sequence[str] | None,
           content: object, marks: tuple[str, ...], hidden_lid: int | None = None) -> str:
    """One grave as a group: lid (or hole), content, id, marks (pending, plague, count, bat)."""
    cx, cy = _centre(board, g)
    s = CELL - 10
    x, y = cx - s / 2, cy - s / 2
    parts: list[str] = []
    tip = [f"grave {g} ({board.quarters[board.quarter_of[g]]})"]
    stroke = "#2a2118"
    width = 1.2
    if "pending" in marks:
        stroke, width = "#ffd400", 3.5
        tip.append("just opened")
    if "plague" in marks:
        stroke, width = "#e02020", 3.5
        tip.append("rat plague started here")
    if "open" in marks:
        stroke, width = "#7fd3ff", 3
        tip.append("left open this turn")
    if colours is None:  # the empty board
        fill, label, ink = LID_BACK, "", "#fff"
    elif "nolid" in marks:
        fill, label, ink = HOLE, "", "#fff"
        tip.append("no lid")
    elif lid_seen and lid is not None:
        name = "grey" if lid == RAT else colours[lid]
        fill, label, ink = fill_of(name), ("rat" if lid == RAT else ""), ink_on(name)
        tip.append("rat lid" if lid == RAT else f"{colours[lid]} lid")
    else:
        fill, label, ink = LID_BACK, "?", "#e8dcc8"
        tip.append("lid not turned yet")
    parts.append(el("rect", x=f"{x:g}", y=f"{y:g}", width=s, height=s, rx=6, fill=fill,
                    stroke=stroke, stroke_width=width))
    if hidden_lid is not None and colours is not None:
        name = "grey" if hidden_lid == RAT else colours[hidden_lid]
        parts.append(el("rect", x=f"{x + s - 12:g}", y=f"{y + 2:g}", width=10, height=10, rx=2,
                        fill=fill_of(name), stroke="#fff", stroke_width=1,
                        stroke_dasharray="2 1"))
        tip.append("hidden lid: " + ("rat" if hidden_lid == RAT else colours[hidden_lid]))
    if label:
        parts.append(text(cx, cy + 14, label, size=9, fill=ink))
    if isinstance(content, VampireIn) and colours is not None:
        name = colours[content.colour]
        parts.append(el("circle", cx=f"{cx:g}", cy=f"{cy + 2:g}", r=9, fill=fill_of(name),
                        stroke="#fff" if name == "black" else "#111", stroke_width=1.5))
        tip.append(f"{name} vampire inside")
    elif isinstance(content, GarlicIn):
        parts.append(el("ellipse", cx=f"{cx:g}", cy=f"{cy + 2:g}", rx=9, ry=8, fill="#fbfbf2",
                        stroke="#9a8f6a", stroke_width=1.2))
        parts.append(text(cx, cy + 6, f"G{content.owner + 1}", size=9, fill="#333"))
        tip.append(f"garlic of P{content.owner + 1} inside")
    parts.append(text(x + 3, y + 10, str(g), size=9, anchor="start",
                      fill="#222" if fill in (fill_of("yellow"), fill_of("white"), fill_of("grey"))
                      else "#f3ead8"))
    if "count" in marks:
        parts.append(el("path", d=f"M{cx - 9:g} {y - 2:g}l3 -8 3 5 3 -7 3 7 3 -5 3 8z",
                        fill="#7b3fa0", stroke="#fff", stroke_width=1))
        tip.append("Count Rucola stands here")
    if "bat" in marks:
        parts.append(el("path", d=f"M{cx - 12:g} {y + s - 2:g}q6 -8 12 -2q6 -6 12 2q-6 -2 -12 4"
                                  f"q-6 -6 -12 -4z", fill="#222", stroke="#eee", stroke_width=.8))
        tip.append("a bat claims: empty")
    return el("g", "".join(parts), title="; ".join(tip), id=f"grave-{g}")


def state_picture(state: State, view: int | None = None,
                  names: Sequence[str] | None = None, caption: str = "") -> Picture:
    """``state`` drawn for ``view`` (None: everything; a player index: that player's knowledge).

    Returns a :data:`~ruleproof.properties.render.svg.Picture` on :func:`canvas` of the state's board and
    player count; elements have ids ``grave-G`` and ``player-P`` for tests and styling.
    """
    cfg = state.config
    board = cfg.board
    pic = board_picture(board, caption or None)
    if view is not None and view != PUBLIC:
        observation(state, view)  # raises ValueError for a seat the game does not have
    pending = state.pending
    plague_origin = state.plague.origin if state.plague else None
    gruft = _expansion_part(state)
    for g in range(board.size):
        marks: list[str] = []
        if g == pending:
            marks.append("pending")
        if g == plague_origin:
            marks.append("plague")
        if gruft is not None:
            if g in gruft.open_graves:
                marks.append("open")
            if gruft.count_grave == g:
                marks.append("count")
            if gruft.bat is not None and gruft.bat.grave == g:
                marks.append("bat")
        lid = state.lids[g]
        if lid is None:
            marks.append("nolid")
        seen = state.known[g] if view is not None else True
        hidden = None
        if view is None and lid is not None and not state.known[g]:
            seen, hidden = False, lid
        pic[f"20g{g:03d}"] = _grave(board, g, lid if seen else None, seen, cfg.colours,
                                    state.contents[g], tuple(marks), hidden)
    bx, _ = _board_size(board)
    to_move = -1 if state.phase is Phase.OVER else _to_move(state)
    for p in range(cfg.players):
        pic[f"30p{p}"] = _player(state, p, bx, TOP + p * PLAYER_BLOCK, view, names, to_move)
    pic["40info"] = _info(state, bx, TOP + cfg.players * PLAYER_BLOCK + 8, view, names)
    return pic


def _expansion_part(state: State) -> Any:
    """The expansion's pieces on the table (Count Rucola, post, bats, graves left open, a bat
    claim), read by attribute so any expansion offering these names is drawn; None without."""
    part = getattr(state, "extension", None)
    return part if part is not None and hasattr(part, "open_graves") else None


def _to_move(state: State) -> int:
    from ruleproof.model.dawn_under.engine import current_player

    return current_player(state)


def _view_name(view: int | None, names: Sequence[str] | None) -> str:
    if view is None:
        return "everything"
    return "any player (all see the same)" if view == PUBLIC else _name(view, names)


def _name(p: int, names: Sequence[str] | None) -> str:
    return names[p] if names and p < len(names) else f"P{p + 1}"


def _player(state: State, p: int, x: float, y: float, view: int | None,
            names: Sequence[str] | None, to_move: int) -> str:
    cfg = state.config
    gr = _expansion_part(state)
    return _player_cached(cfg.colours, state.rows[p], p, x, y, view, tuple(names or ()),
                          to_move, state.turn_player if state.phase is not Phase.OVER else -1,
                          state.winner, state.stakes_held[p], state.garlic_hand[p],
                          gr.bats[p] if gr is not None else None,
                          gr is not None and gr.post == p)


@lru_cache(maxsize=8192)
def _player_cached(colours: tuple[str, ...], row: tuple[Vampire, ...], p: int, x: float,
                   y: float, view: int | None, names: tuple[str, ...], to_move: int,
                   turn_player: int, winner: int | None, stakes: int, garlic: int,
                   bats: int | None, post: bool) -> str:
    head = names[p] if p < len(names) else f"P{p + 1}"
    head += " (you)" if view == p else ""
    flags = []
    if p == to_move:
        flags.append("to move")
    if p == turn_player:
        flags.append("turn")
    if winner == p:
        flags.append("WINNER")
    parts = [el("rect", x=x, y=y, width=PANEL_WIDTH - 20, height=PLAYER_BLOCK - 6, rx=6,
                fill="#fff8d8" if p == to_move else "#ffffff", stroke="#b8ad90")]
    parts.append(text(x + 8, y + 15, f"{head}{'  [' + ', '.join(flags) + ']' if flags else ''}",
                      size=11, anchor="start", weight="bold"))
    extra = f"stakes {stakes}  garlic {garlic}  vampires {len(row)}"
    if bats is not None:
        extra += f"  bats {bats}"
    if post:
        extra += "  post+Count"
    parts.append(text(x + PANEL_WIDTH - 28, y + 15, extra, size=10, anchor="end", fill="#444"))
    dots = []
    for i, v in enumerate(row):
        cx = x + 12 + (i % ROW_LINE) * ROW_STEP
        cy = y + 29 + (i // ROW_LINE) * 14
        name = colours[v.colour]
        ref = (f"#vu-{name}" if v.face_up else f"#vh-{name}" if view is None else "#vd")
        if name not in _SYMBOLS:
            ref = "#vd"
        dots.append(f'<use href="{ref}" x="{cx:g}" y="{cy:g}"/>')
    parts.append(el("g", "".join(dots), cls="row"))
    return el("g", "".join(parts), id=f"player-{p}",
              title=f"{_name(p, names)}: row left to right; face-down vampires are grey"
              + (" (shown faded: everything view)" if view is None else ""))


_SYMBOLS = frozenset(("red", "yellow", "white", "blue", "green", "black", "grey", "purple",
                      "orange", "brown"))


def _info(state: State, x: float, y: float, view: int | None,
          names: Sequence[str] | None) -> str:
    cfg = state.config
    lines = [f"view: {_view_name(view, names)}",
             f"phase: {state.phase.value}",
             f"stakes on the path: {state.stakes_path}   reserve lids: {len(state.reserve)}"
             f"   rat lids out: {state.removed_rats}"]
    if state.plague is not None:
        pl = state.plague
        lines.append(f"rat plague at grave {pl.origin}: {_name(pl.current, names)} turns lids, "
                     f"{len(pl.opened)} opened")
    if state.gifts:
        lines.append("hand-overs: " + ", ".join(f"{_name(gf.giver, names)}->"
                                               f"{_name(gf.receiver, names)}"
                                               for gf in state.gifts))
    if state.in_transit is not None:
        lines.append(f"in transit: a {cfg.colours[state.in_transit]} vampire")
    if state.winner is not None:
        lines.append(f"{_name(state.winner, names)} has no vampires left and wins")
    parts = [text(x + 4, y + 14 + i * 15, line, size=11, anchor="start",
                  weight="bold" if i == 1 else None) for i, line in enumerate(lines)]
    return el("g", "".join(parts), id="info")


def board_svg(board: Board, title: str | None = None) -> str:
    """The board alone as an SVG document (see :func:`board_picture`)."""
    w, h = _board_size(board)
    return document(board_picture(board, title), Canvas(w, h), f"Dawn Under board {board.name}")


def state_svg(state: State, view: int | None = None, names: Sequence[str] | None = None,
              caption: str = "") -> str:
    """A position as an SVG document (see :func:`state_picture`)."""
    return document(state_picture(state, view, names, caption),
                    canvas(state.config.board, state.config.players),
                    caption or "Dawn Under position")


# ----------------------------------------------------------------------------- the capability


def player_views(players: int, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """View labels (everything, then each player) and the picture each shows: every player's
    view shows the same picture, because everything is shown to all players (du-en:ch1.open)
    and face-down vampires are unknown even to their owner (du-en:prep.row)."""
    labels = [names[p] if p < len(names) else f"P{p + 1}" for p in range(players)]
    return ("everything", *labels), (0, *([1] * players))


class DawnUnderRender:
    """Dawn Under's capability ``render`` (:class:`ruleproof.properties.render.GameRender`):
    two pictures per frame, everything and the one public view."""

    random_steps = 2000
    sample = (7, 80)
    sample_text = ("A position after 80 random actions (seed 7), everything shown (lids not yet "
                   "turned as a dashed corner swatch, face-down vampires faded), then as any "
                   "player sees it:")

    @property
    def board_text(self) -> str:
        """The assumed default board: its name, quarters and what the picture shows."""
        from ruleproof.model.dawn_under.board import default_board

        board = default_board()
        return (f"The **assumed** default board `{board.name}` (no source publishes the real "
                f"layout; load yours with `--board`): quarters {', '.join(board.quarters)} "
                f"(sizes {board.quarter_sizes()}), paths (sand) between them, grave ids, "
                "neighbouring graves joined by thin lines.")

    def views(self, start: State, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Everything, then each player (all showing the one public picture)."""
        return player_views(start.config.players, names)

    def canvas(self, start: State) -> Canvas:
        """The size for the start's board and player count."""
        return canvas(start.config.board, start.config.players)

    def pictures(self, state: State, captions: Sequence[str], names: Sequence[str]
                 ) -> tuple[Picture, ...]:
        """Everything, then what any player sees."""
        return (state_picture(state, None, names, captions[0]),
                state_picture(state, PUBLIC, names, captions[1]))

    def prepare(self, state: State, action: Any) -> State:
        """No automatic steps: the state itself."""
        return state

    def step(self, state: State, action: Any, number: int, names: Sequence[str]
             ) -> tuple[State, tuple[str, ...]]:
        """The successor; the caption names the mover, the action and the first three events."""
        from ruleproof.model.dawn_under.engine import current_player, step
        from ruleproof.model.dawn_under.render import event_text, player_name

        who = player_name(current_player(state), names)
        new, events = step(state, action)
        said = " ".join(event_text(state, e, names) for e in events[:3])
        caption = f"{number}. {who}: {action}" + (f" -- {said}" if said else "")
        return new, (caption, caption)

    def refused(self, state: State, action: Any, number: int, names: Sequence[str],
                err: IllegalAction, expected: str | None) -> tuple[str, ...]:
        """The mover, the action, the reason and the clauses cited."""
        from ruleproof.model.dawn_under.engine import current_player
        from ruleproof.model.dawn_under.render import player_name

        who = player_name(current_player(state), names)
        caption = (f"{number}. {who}: {action} -- REJECTED: {err.reason} "
                   f"[{', '.join(err.clauses)}]")
        return caption, caption

    def notes(self, start: State, reading: str | None) -> tuple[str, ...]:
        """The preset and the player count."""
        return (f"rule set: preset {start.config.preset}, {start.config.players} players",)

    def board_svg(self, board: Path | None) -> str:
        """The assumed default board, or the board file ``board`` (validated)."""
        from ruleproof.model.dawn_under.board import default_board, load_board

        return board_svg(load_board(board) if board is not None else default_board())


RENDER = DawnUnderRender()
"""The capability ``render``."""
