"""Pictures of Kuhn poker: the table with the two players' cards, the decisions and the pot,
for everybody and for each player (capability ``render``, :data:`RENDER`).

A position is drawn for one *view*: ``None`` shows everything; ``0`` or ``1`` what that
player may know: its own card, the other card face down until a showdown turns both up
(kuhn-wp:rules.deal, kuhn-wp:rules.showdown), everything else (the decisions, the chips in
the pot, the result) being public. The third card of the deck stays face down and out of
play for everybody (kuhn-wp:rules.deal). Element ids: ``card-0``, ``card-1`` (with
``data-card`` = J, Q, K or ``hidden``), ``deck``, ``moves``, ``pot``, ``result``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.kuhn_poker.rules import (
    RANKS,
    TERMINAL,
    Card,
    Hand,
    act,
    deal,
    pot,
    shown,
    to_move,
    winner,
)
from ruleproof.properties.render.svg import Canvas, Picture, document, el, text

WIDTH, HEIGHT = 560, 300
CANVAS = Canvas(WIDTH, HEIGHT)
SEAT_X = (60, 380)
"""Left edge of each player's corner of the table."""
CARD_W, CARD_H = 70, 100


def _names(names: Sequence[str]) -> tuple[str, str]:
    return (names[0], names[1]) if len(names) >= 2 else ("P1", "P2")


def _card(x: float, y: float, rank: int | None, key: str, title: str) -> str:
    """A card face up (``rank``) or face down (None)."""
    if rank is None:
        body = (el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=6, fill="#27457a",
                   stroke="#111")
                + el("rect", x=x + 6, y=y + 6, width=CARD_W - 12, height=CARD_H - 12, rx=4,
                     fill="none", stroke="#9db4dd", stroke_dasharray="4 3"))
        return el("g", body, id=key, data_card="hidden", title=title)
    body = (el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=6, fill="#fbfaf5",
               stroke="#111")
            + text(x + CARD_W / 2, y + CARD_H / 2 + 12, RANKS[rank], size=34, weight="bold",
                   fill="#8c1c2c" if rank == 2 else "#222"))
    return el("g", body, id=key, data_card=RANKS[rank], title=title)


def table_picture(title: str) -> Picture:
    """The empty table: its felt, the title, the deck's place."""
    return {
        "00bg": el("rect", x=0, y=0, width="100%", height="100%", fill="#f4f1ea"),
        "01felt": el("rect", x=16, y=34, width=WIDTH - 32, height=HEIGHT - 50, rx=40,
                     fill="#2e6b45", stroke="#1d4a2e", stroke_width=4),
        "02title": text(20, 22, title, size=13, anchor="start", weight="bold"),
    }


def state_picture(h: Hand, view: int | None, caption: str, names: Sequence[str]) -> Picture:
    """``h`` drawn for ``view`` (None everything, 0 or 1 a player)."""
    who = _names(names)
    pic = table_picture(caption or "Kuhn poker")
    up = shown(h)
    moving = to_move(h)
    w = winner(h)
    put = pot(h)
    for seat in (0, 1):
        x = SEAT_X[seat]
        dealt = len(h.cards) > seat
        visible = dealt and (view is None or view == seat or bool(up))
        rank = h.cards[seat] if visible else None
        flags = [f for f, on in (("to act", moving == seat), ("takes the pot", w == seat),
                                 ("you", view == seat)) if on]
        label = who[seat] + (f" ({', '.join(flags)})" if flags else "")
        pic[f"10name{seat}"] = text(x, 62, label, size=12, anchor="start", weight="bold",
                                    fill="#fff")
        if dealt:
            pic[f"11card{seat}"] = _card(x, 74, rank, f"card-{seat}",
                                         f"{who[seat]}'s card" + ("" if visible else
                                                                  " (face down)"))
        chips = "".join(el("circle", cx=x + 90 + 14 * i, cy=160, r=9, fill="#e9c46a",
                           stroke="#6b4f12") for i in range(put[seat]))
        pic[f"12chips{seat}"] = el("g", chips + text(x + 90, 190, f"{put[seat]} in the pot",
                                                     size=11, anchor="start", fill="#fff"),
                                   id=f"pot-{seat}")
    if len(h.cards) == 2:
        pic["20deck"] = _card(WIDTH / 2 - CARD_W / 2, 74, None, "deck",
                              "the third card: face down, out of play")
    moves = " ".join(f"{who[i % 2]} {m}" for i, m in enumerate(h.moves)) or "no decision yet"
    pic["30moves"] = el("g", text(40, 228, "decisions: " + moves, size=12, anchor="start",
                                  fill="#fff"), id="moves")
    pic["31pot"] = el("g", text(40, 248, f"pot: {sum(put)} chips", size=12, anchor="start",
                                fill="#fff"), id="pot")
    if w is not None:
        how = "showdown" if up else f"{who[1 - w]} folds"
        result = f"{how}: {who[w]} wins {put[1 - w]}"
    elif to_move(h) == TERMINAL:
        result = "hand over"
    else:
        result = ""
    pic["40result"] = el("g", text(40, 268, result, size=12, anchor="start", fill="#ffe08a",
                                   weight="bold"), id="result")
    return pic


def state_svg(h: Hand, view: int | None = None, caption: str = "",
              names: Sequence[str] = ()) -> str:
    """A position as an SVG document (see :func:`state_picture`)."""
    return document(state_picture(h, view, caption, names), CANVAS,
                    caption or "Kuhn poker position")


def captions(state: Hand, number: int, action: Any, names: Sequence[str]) -> tuple[str, ...]:
    """The caption of action ``number`` for everything and each player: a dealt card is named
    only to its receiver."""
    who = _names(names)
    if isinstance(action, Card):
        receiver = len(state.cards)
        full = f"{number}. chance: {who[receiver]} is dealt {RANKS[action.rank]}"
        secret = f"{number}. chance: {who[receiver]} is dealt a card"
        return (full, *(full if v == receiver else secret for v in (0, 1)))
    mover = to_move(state)
    full = f"{number}. {who[mover] if mover in (0, 1) else 'nobody'}: {action}"
    return (full, full, full)


class KuhnRender:
    """Kuhn poker's capability ``render`` (:class:`ruleproof.properties.render.GameRender`):
    three pictures per frame, everything and each player's view."""

    random_steps = 3
    sample = (3, 1)
    board_text = ("Kuhn poker has no board: a table, the three-card deck (jack, queen, king; "
                  "kuhn-wp:rules.deck) and each player's ante in the pot.")
    sample_text = "A hand after one decision (seed 3), for everybody and in each player's view:"

    def views(self, start: Hand, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Everything, then each player: each its own picture."""
        return ("everything", *_names(names)), ()

    def canvas(self, start: Hand) -> Canvas:
        """The one size of every picture."""
        return CANVAS

    def pictures(self, state: Hand, captions: Sequence[str], names: Sequence[str]
                 ) -> tuple[Picture, ...]:
        """Everything, then each player's view."""
        return tuple(state_picture(state, v, captions[i], names)
                     for i, v in enumerate((None, 0, 1)))

    def prepare(self, state: Hand, action: Any) -> Hand:
        """Nothing happens between two actions."""
        return state

    def step(self, state: Hand, action: Any, number: int, names: Sequence[str]
             ) -> tuple[Hand, tuple[str, ...]]:
        """The successor (IllegalAction leaves ``state`` as it was)."""
        shown_captions = captions(state, number, action, names)
        new = deal(state, action.rank) if isinstance(action, Card) else act(state, action)
        return new, shown_captions

    def refused(self, state: Hand, action: Any, number: int, names: Sequence[str],
                err: IllegalAction, expected: str | None) -> tuple[str, ...]:
        """Each view's caption with the reason and clauses; ``(expected)`` when the refusal
        cites ``expected``."""
        note = " (expected)" if expected and expected in err.clauses else ""
        return tuple(f"{c} -- REJECTED{note}: {err.reason} [{', '.join(err.clauses)}]"
                     for c in captions(state, number, action, names))

    def notes(self, start: Hand, reading: str | None) -> tuple[str, ...]:
        """The rule set (kuhn-wp is the only one)."""
        return ("rules: kuhn-wp",)

    def board_svg(self, board: Path | None) -> str:
        """The table and the deck (Kuhn poker has no board).

        Raises:
            MalformedInput: a board file is given.
        """
        if board is not None:
            raise MalformedInput("kuhn-poker has no board; it takes no board file",
                                 file=str(board))
        pic = table_picture("Kuhn poker: the table and the deck")
        for i in range(len(RANKS)):
            pic[f"10deck{i}"] = _card(150 + 95 * i, 90, i, f"deck-{RANKS[i]}",
                                      f"{RANKS[i]} ({('lowest', 'middle', 'highest')[i]})")
        pic["20note"] = text(WIDTH / 2, 240, "one card each; the third stays face down",
                             size=12, fill="#fff")
        return document(pic, CANVAS, "Kuhn poker table")


RENDER = KuhnRender()
"""The capability ``render``."""

__all__ = ["CANVAS", "RENDER", "KuhnRender", "captions", "state_picture", "state_svg"]
