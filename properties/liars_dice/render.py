"""Pictures of Liar's Dice: the table with each player's cup of dice, this round's bids and
the last showdown, for everybody and for each player (capability ``render``, :data:`RENDER`).

A position is drawn for one *view*: ``None`` shows everything; a seat what that player may
know: its own dice, the others' dice hidden under their cups (ld-wp:round.roll) until a call
uncovers every die (ld-wp:challenge.count); the bids, the dice each player holds and the
showdowns are public. Element ids: ``cup-P`` (with ``data-dice`` = the faces or ``hidden``),
``bids``, ``result``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.liars_dice.rules import Roll, Table, act, roll, rolling, to_move, winner
from ruleproof.properties.render.svg import Canvas, Picture, document, el, text

WIDTH, HEIGHT = 620, 320
CANVAS = Canvas(WIDTH, HEIGHT)
DIE = 30


def _names(names: Sequence[str], n: int) -> tuple[str, ...]:
    return tuple(names) if len(names) >= n else tuple(f"P{p + 1}" for p in range(n))


def _die(x: float, y: float, face: int | None) -> str:
    """A die face up (its number) or hidden under the cup (None)."""
    if face is None:
        return el("rect", x=x, y=y, width=DIE, height=DIE, rx=5, fill="#5a3b22", stroke="#111")
    return (el("rect", x=x, y=y, width=DIE, height=DIE, rx=5, fill="#fbfaf5", stroke="#111")
            + text(x + DIE / 2, y + DIE / 2 + 6, str(face), size=16, weight="bold",
                   fill="#8c1c2c" if face == 1 else "#222"))


def table_picture(title: str) -> Picture:
    """The empty table: its felt and the title."""
    return {
        "00bg": el("rect", x=0, y=0, width="100%", height="100%", fill="#f4f1ea"),
        "01felt": el("rect", x=16, y=34, width=WIDTH - 32, height=HEIGHT - 50, rx=40,
                     fill="#2e6b45", stroke="#1d4a2e", stroke_width=4),
        "02title": text(20, 22, title, size=13, anchor="start", weight="bold"),
    }


def state_picture(t: Table, view: int | None, caption: str, names: Sequence[str]) -> Picture:
    """``t`` drawn for ``view`` (None everything, a seat that player)."""
    n = len(t.cups)
    who = _names(names, n)
    pic = table_picture(caption or "Liar's Dice")
    moving = to_move(t.rules, t)
    w = winner(t.rules, t)
    for p in range(n):
        x = 40 + (WIDTH - 80) * p / n
        flags = [f for f, on in (("to act", moving == p), ("wins", w == p), ("you", view == p),
                                 ("out", t.cups[p] == 0)) if on]
        pic[f"10name{p}"] = text(x, 62, who[p] + (f" ({', '.join(flags)})" if flags else ""),
                                 size=12, anchor="start", weight="bold", fill="#fff")
        seen = view is None or view == p
        dice = sorted(t.rolled[p])
        body = "".join(_die(x + (DIE + 4) * i, 74, d if seen else None)
                       for i, d in enumerate(dice))
        body += text(x, 124, f"{t.cups[p]} dice", size=11, anchor="start", fill="#fff")
        pic[f"11cup{p}"] = el("g", body, id=f"cup-{p}",
                              data_dice="".join(map(str, dice)) if seen else "hidden",
                              title=f"{who[p]}'s dice" + ("" if seen else " (under the cup)"))
    bids = ", ".join(f"{who[s]} {b.quantity}x{b.face}" for s, b in t.bids) or "no bid yet"
    pic["30bids"] = el("g", text(40, 170, "bids: " + bids[-90:], size=12, anchor="start",
                                 fill="#fff"), id="bids")
    result = ""
    if t.ended:
        s = t.ended[-1]
        shown = "  ".join(f"{who[p]} {''.join(map(str, sorted(c))) or '-'}"
                          for p, c in enumerate(s.dice))
        result = (f"last round: {who[s.caller]} called {s.call} on {who[s.bidder]}'s "
                  f"{s.bid.quantity}x{s.bid.face}; dice {shown}; {s.count} count; "
                  f"{who[s.loser]} loses a die")
    pic["40result"] = el("g", text(40, 200, result[:100], size=11, anchor="start",
                                   fill="#ffe08a"), id="result")
    if w is not None:
        pic["41winner"] = text(40, 230, f"{who[w]} wins", size=14, anchor="start",
                               fill="#ffe08a", weight="bold")
    return pic


def state_svg(t: Table, view: int | None = None, caption: str = "",
              names: Sequence[str] = ()) -> str:
    """A position as an SVG document (see :func:`state_picture`)."""
    return document(state_picture(t, view, caption, names), CANVAS,
                    caption or "Liar's Dice position")


def captions(state: Table, number: int, action: Any, names: Sequence[str]) -> tuple[str, ...]:
    """The caption of action ``number`` for everything and each player: a roll is named only
    to its roller."""
    n = len(state.cups)
    who = _names(names, n)
    if isinstance(action, Roll):
        seat = rolling(state)
        p = seat if seat is not None else 0
        full = f"{number}. chance: {who[p]} rolls a {action.face}"
        secret = f"{number}. chance: {who[p]} rolls a die"
        return (full, *(full if v == p else secret for v in range(n)))
    mover = to_move(state.rules, state)
    full = f"{number}. {who[mover] if mover >= 0 else 'nobody'}: {action}"
    return (full,) * (n + 1)


class LiarsRender:
    """Liar's Dice's capability ``render``: a picture per view, everything and each player."""

    random_steps = 4
    sample = (3, 1)
    board_text = ("Liar's Dice has no board: a table, each player's cup of dice "
                  "(ld-wp:setup.dice) and the bids.")
    sample_text = "A game after one bid (seed 3), for everybody and in each player's view:"

    def views(self, start: Table, names: Sequence[str]
              ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        return ("everything", *_names(names, len(start.cups))), ()

    def canvas(self, start: Table) -> Canvas:
        return CANVAS

    def pictures(self, state: Table, captions: Sequence[str], names: Sequence[str]
                 ) -> tuple[Picture, ...]:
        views: list[int | None] = [None, *range(len(state.cups))]
        return tuple(state_picture(state, v, captions[i], names) for i, v in enumerate(views))

    def prepare(self, state: Table, action: Any) -> Table:
        return state

    def step(self, state: Table, action: Any, number: int, names: Sequence[str]
             ) -> tuple[Table, tuple[str, ...]]:
        shown = captions(state, number, action, names)
        new = roll(state.rules, state, action.face) if isinstance(action, Roll) else \
            act(state.rules, state, action)
        return new, shown

    def refused(self, state: Table, action: Any, number: int, names: Sequence[str],
                err: IllegalAction, expected: str | None) -> tuple[str, ...]:
        note = " (expected)" if expected and expected in err.clauses else ""
        return tuple(f"{c} -- REJECTED{note}: {err.reason} [{', '.join(err.clauses)}]"
                     for c in captions(state, number, action, names))

    def notes(self, start: Table, reading: str | None) -> tuple[str, ...]:
        opts = ", ".join(f"{k}={v}" for k, v in start.rules.options.items())
        return (f"rules: ld-wp ({opts})",)

    def board_svg(self, board: Path | None) -> str:
        """The table (Liar's Dice has no board).

        Raises:
            MalformedInput: a board file is given.
        """
        if board is not None:
            raise MalformedInput("liars-dice has no board; it takes no board file",
                                 file=str(board))
        pic = table_picture("Liar's Dice: the table")
        for i in range(6):
            pic[f"10die{i}"] = _die(200 + 36 * i, 110, i + 1)
        pic["20note"] = text(WIDTH / 2, 200, "five dice a player, under a cup; ones are often "
                             "wild", size=12, fill="#fff")
        return document(pic, CANVAS, "Liar's Dice table")


RENDER = LiarsRender()
"""The capability ``render``."""

__all__ = ["CANVAS", "RENDER", "LiarsRender", "captions", "state_picture", "state_svg"]
