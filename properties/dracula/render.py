"""Pictures of Dracula: the 3 x 4 board (harbour, carriage station, borders) and any position.

A position is drawn for one *view*: ``None`` shows everything; ``0`` (Dracula) or ``1`` (Van
Helsing) shows what that side may know: its own hand and action cards, the cards it knows at
each location (``State.known``, dracula-en:look.own-card), face-down backs elsewhere (backs are
identical for both decks), and everything public (figures, barriers, life markers, captured
targets, beaten enemies, the turned card, which locations are empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dracula.data import COLOURS, Board, Side
from ruleproof.model.dracula.engine import State, current_player, phase
from ruleproof.properties.render.svg import Canvas, Picture, document, el, fill_of, text

CELL = 118
MARGIN = 24
TOP = 40
PANEL_WIDTH = 420
SIDE_COLOUR = {0: "#8c1c2c", 1: "#1f4f8c"}
VIEWS = ("everything", "Dracula", "Van Helsing")


def canvas(board: Board) -> Canvas:
    """The picture size for ``board``."""
    return Canvas(board.columns * CELL + 2 * MARGIN + PANEL_WIDTH,
                  max(board.rows * CELL + 2 * MARGIN + TOP + 20, 430))


def _cell(board: Board, loc: int) -> tuple[float, float]:
    r, c = divmod(loc, board.columns)
    return MARGIN + c * CELL, TOP + MARGIN + r * CELL


def board_picture(board: Board, title: str | None = None) -> Picture:
    """The empty board: 12 locations named a1..d3, the harbour and the carriage station
    (dracula-en:setup.board), borders between orthogonal neighbours (dracula-en:move.orthogonal,
    dracula-en:barriers.between)."""
    w = board.columns * CELL
    h = board.rows * CELL
    pic: Picture = {
        "00bg": el("rect", x=0, y=0, width="100%", height="100%", fill="#f4f1f6"),
        "01title": text(MARGIN, 24, title or "Dracula board (3 x 4)", size=14, anchor="start",
                        weight="bold"),
        "02frame": el("rect", x=MARGIN - 6, y=TOP + MARGIN - 6, width=w + 12, height=h + 12,
                      rx=8, fill="#3a3340"),
    }
    for loc in range(board.size):
        x, y = _cell(board, loc)
        special = ("harbour" if loc == board.harbour else
                   "carriage station" if loc == board.carriage_station else "")
        fill = "#4e6d86" if loc == board.harbour else "#7d6a4a" if special else "#d7d0c4"
        parts = [el("rect", x=x + 3, y=y + 3, width=CELL - 6, height=CELL - 6, rx=6, fill=fill,
                    stroke="#2b2630")]
        parts.append(text(x + 8, y + 18, board.name(loc), size=12, anchor="start",
                          weight="bold", fill="#fff" if special else "#333"))
        if special:
            parts.append(text(x + CELL / 2, y + CELL - 10, special, size=10, fill="#fff"))
        pic[f"10l{loc:02d}"] = el("g", "".join(parts), id=f"loc-{board.name(loc)}",
                                  title=board.label(loc))
    return pic


def _edge_line(board: Board, edge: tuple[int, int]) -> tuple[float, float, float, float]:
    a, b = edge
    ax, ay = _cell(board, a)
    if b == a + 1:  # horizontal neighbours: vertical border on a's right side
        return ax + CELL, ay + 8, ax + CELL, ay + CELL - 8
    return ax + 8, ay + CELL, ax + CELL - 8, ay + CELL


def _card_label(state: State, card: str) -> str:
    return card


def state_picture(state: State, view: int | None = None, caption: str = "") -> Picture:
    """``state`` drawn for ``view`` (None everything, 0 Dracula, 1 Van Helsing).

    Element ids: ``loc-a1``.., ``card-a1`` (the card there as the view sees it, with
    ``data-card`` = card id or ``hidden``), ``figure-dracula``, ``figure-van-helsing``,
    ``barrier-red``.., ``side-dracula``, ``side-van-helsing``, ``info``.
    """
    board = state.board
    pic = board_picture(board, caption or None)
    for loc in range(board.size):
        card = state.board_cards[loc]
        if card is None:
            continue
        x, y = _cell(board, loc)
        visible = view is None or loc in (state.revealed, state.turned)
        shown: str | None = card if visible or view is None else state.known[view][loc]
        owner = state.cards.enc(card).owner if card in _ids(state) else None
        if shown is not None and owner is not None:
            fill, ink = ("#f7d9de", "#5a0f1c") if owner is Side.DRACULA else ("#d9e6f7", "#0f2f5a")
            tip = f"{shown} ({owner.label}'s card)"
            if view is None and loc not in (state.revealed, state.turned) and \
                    not any(state.known[p][loc] == card for p in (0, 1)):
                tip += "; nobody has looked at it"
        else:
            fill, ink, tip = "#4b3b5c", "#e9e0f3", "face-down card"
        parts = [el("rect", x=x + 30, y=y + 26, width=58, height=40, rx=4, fill=fill,
                    stroke="#222", stroke_width=1.2)]
        parts.append(text(x + 59, y + 50, shown if shown is not None else "?", size=10,
                          fill=ink, weight="bold"))
        if loc == state.turned:
            parts.append(text(x + 59, y + 78, "turned", size=9, fill="#a00"))
        pic[f"20c{loc:02d}"] = el("g", "".join(parts), id=f"card-{board.name(loc)}",
                                  data_card=shown if shown is not None else "hidden", title=tip)
    for i, edge in enumerate(state.barriers):
        if edge is None:
            continue
        x1, y1, x2, y2 = _edge_line(board, edge)
        colour = COLOURS[i]
        pic[f"30b{i}"] = el("line", x1=f"{x1:g}", y1=f"{y1:g}", x2=f"{x2:g}", y2=f"{y2:g}",
                            stroke=fill_of(colour), stroke_width=9, stroke_linecap="round",
                            id=f"barrier-{colour}",
                            title=f"{colour} barrier on {board.edge_name(edge)}")
    for side in (0, 1):
        loc = state.pos[side]
        x, y = _cell(board, loc)
        dx = 28 if side == 0 else CELL - 28
        cx, cy = x + dx, y + CELL - 30
        label = "D" if side == 0 else "VH"
        pic[f"40f{side}"] = el("g", el("circle", cx=f"{cx:g}", cy=f"{cy:g}", r=14,
                                       fill=SIDE_COLOUR[side], stroke="#fff", stroke_width=2)
                               + text(cx, cy + 4, label, size=11, fill="#fff", weight="bold"),
                               id=f"figure-{Side(side).slug}",
                               title=f"{Side(side).label} at {board.label(loc)}")
    px = board.columns * CELL + 2 * MARGIN
    for side in (0, 1):
        pic[f"50s{side}"] = _side_panel(state, side, px, TOP + side * 170, view)
    pic["60info"] = _info(state, px, TOP + 345, view)
    return pic


def _ids(state: State) -> frozenset[str]:
    return frozenset(c.id for c in state.cards.encounter)


def _cards(items: tuple[str, ...], visible: bool) -> str:
    if visible:
        return ", ".join(items) if items else "none"
    return f"{len(items)} face down"


def _side_panel(state: State, side: int, x: float, y: float, view: int | None) -> str:
    me = Side(side)
    visible = view is None or view == side
    to_move = current_player(state)
    head = me.label + (" (you)" if view == side else "")
    flags = []
    if to_move == side:
        flags.append("to move")
    if state.active == side and state.winner is None:
        flags.append("turn")
    if state.winner == side:
        flags.append("WINNER")
    parts = [el("rect", x=x, y=y, width=PANEL_WIDTH - 20, height=160, rx=6,
                fill="#fff8d8" if to_move == side else "#fff", stroke="#b8ad90")]
    parts.append(text(x + 8, y + 16, head + (f"  [{', '.join(flags)}]" if flags else ""),
                      size=12, anchor="start", weight="bold", fill=SIDE_COLOUR[side]))
    for i in range(state.board.life_markers):
        alive = i < state.life[side]
        parts.append(el("circle", cx=x + PANEL_WIDTH - 40 - i * 16, cy=y + 12, r=6,
                        fill="#c0182b" if alive else "#ddd", stroke="#555"))
    rows = [f"hand: {_cards(state.hand[side], visible)}",
            f"action cards: {_cards(state.current[side], visible)}",
            f"set aside: {_cards(state.aside[side], visible)}",
            f"captured targets: {', '.join(state.captured[side]) or 'none'}",
            f"beaten enemies (own pile): {', '.join(state.enc_discard[side]) or 'none'}",
            f"life markers: {state.life[side]}"]
    for i, line in enumerate(rows):
        parts.append(_wrapped(x + 8, y + 36 + i * 21, line, 64))
    return el("g", "".join(parts), id=f"side-{me.slug}")


def _wrapped(x: float, y: float, line: str, width: int) -> str:
    if len(line) <= width:
        return text(x, y, line, size=10, anchor="start", fill="#333")
    return text(x, y, line[:width - 1] + "…", size=10, anchor="start", fill="#333", title=line)


def _info(state: State, x: float, y: float, view: int | None) -> str:
    lines = [f"view: {VIEWS[0] if view is None else Side(view).label}",
             f"turn {state.turn}, pending: {phase(state)}"]
    if state.played:
        lines.append(f"paid with: {state.played}" + (" (special)" if state.use_special else ""))
    if state.winner is not None:
        lines.append(f"{Side(state.winner).label} wins: {state.reason}")
    parts = [_wrapped(x + 4, y + 14 + i * 15, line, 66) for i, line in enumerate(lines)]
    return el("g", "".join(parts), id="info")


def board_svg(board: Board, title: str | None = None) -> str:
    """The board alone as an SVG document."""
    w = board.columns * CELL + 2 * MARGIN
    h = board.rows * CELL + 2 * MARGIN + TOP
    return document(board_picture(board, title), Canvas(w, h), "Dracula board")


def state_svg(state: State, view: int | None = None, caption: str = "") -> str:
    """A position as an SVG document (see :func:`state_picture`)."""
    return document(state_picture(state, view, caption), canvas(state.board),
                    caption or "Dracula position")


# ----------------------------------------------------------------------------- the capability

_SECRET = {"ChooseCard": "chooses a card", "Place": "places a card face down",
           "ChanceOutcome": "a card is dealt or drawn", "TakeBack": "takes a card back",
           "GiveTarget": "gives a target card"}
"""Actions whose content the other side does not learn (their captions are shortened)."""


def captions(number: int, mover: int, action: Any) -> tuple[str, ...]:
    """The caption of action ``number`` for everything, Dracula and Van Helsing: a secret
    action is only named, not shown, to the side that did not take it."""
    who = "chance" if mover not in (0, 1) else Side(mover).label
    full = f"{number}. {who}: {action}"
    hidden = _SECRET.get(type(action).__name__)
    out = [full]
    for view in (0, 1):
        if hidden is None or view == mover:
            out.append(full)
        else:
            out.append(f"{number}. {who}: {hidden}")
    return tuple(out)


class DraculaRender:
    """Dracula's capability ``render`` (:class:`ruleproof.properties.render.GameRender`):
    three pictures per frame, everything, Dracula's view and Van Helsing's; chance steps not
    given as actions are drawn from the state's seed before each player action."""

    random_steps = 400
    sample = (2, 40)
    board_text = ("The 3 x 4 board: harbour and carriage station in opposite corners (which "
                  "corners is assumed), borders for the barriers.")
    sample_text = ("A position after 40 random actions (seed 2), in each view (hidden cards are "
                   "face-down backs):")

    def views(self, start: State, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Everything, Dracula, Van Helsing: each its own picture."""
        return VIEWS, ()

    def canvas(self, start: State) -> Canvas:
        """The size for the board."""
        return canvas(start.board)

    def pictures(self, state: State, captions: Sequence[str], names: Sequence[str]
                 ) -> tuple[Picture, ...]:
        """Everything, then each side's view."""
        return tuple(state_picture(state, v, captions[i]) for i, v in enumerate((None, 0, 1)))

    def prepare(self, state: State, action: Any) -> State:
        """Pending chance steps drawn from the state's seed before a player action."""
        from ruleproof.model import CHANCE
        from ruleproof.model.dracula.engine import ChanceOutcome, resolve_chance

        if not isinstance(action, ChanceOutcome) and current_player(state) == CHANCE:
            return resolve_chance(state)
        return state

    def step(self, state: State, action: Any, number: int, names: Sequence[str]
             ) -> tuple[State, tuple[str, ...]]:
        """The successor; a secret action's caption hides it from the other side."""
        from ruleproof.model.dracula.engine import apply

        shown = captions(number, current_player(state), action)
        return apply(state, action), shown

    def refused(self, state: State, action: Any, number: int, names: Sequence[str],
                err: IllegalAction, expected: str | None) -> tuple[str, ...]:
        """Each view's caption with the reason and clauses; ``(expected)`` when the refusal
        cites ``expected``."""
        note = " (expected)" if expected and expected in err.clauses else ""
        return tuple(f"{c} -- REJECTED{note}: {err.reason} [{', '.join(err.clauses)}]"
                     for c in captions(number, current_player(state), action))

    def notes(self, start: State, reading: str | None) -> tuple[str, ...]:
        """The scenario reading's name (nothing for random play)."""
        return (f"reading: {reading}",) if reading is not None else ()

    def board_svg(self, board: Path | None) -> str:
        """The shipped board (Dracula's board is fixed).

        Raises:
            MalformedInput: a board file is given.
        """
        if board is not None:
            raise MalformedInput("Dracula's board is fixed; it takes no board file",
                                 file=str(board))
        from ruleproof.model.dracula.data import default_board

        return board_svg(default_board())


RENDER = DraculaRender()
"""The capability ``render``."""
