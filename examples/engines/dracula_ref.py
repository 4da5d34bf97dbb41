#!/usr/bin/env python3
"""A small reference engine for Dracula (2 players), written plainly from the rulebook.

Independent of ``model/``: imperative, mutable, its own data structures; it reads only the
shipped card and board data (``spec/dracula/cards.toml``, ``spec/dracula/board.toml``) with
:mod:`tomllib`. Where the rulebook is silent it follows the readings of docs/dracula.md.

It implements all fifteen special actions (Inspiration, Composure, Rebellion, Perception,
Deception, Reinforcement, Vigilance, Resistance for Van Helsing; Breath, Dark, Wings, Whisper and
Depths of Night, Pulse and Roar -- and Eyes -- for Dracula). Chance is explicit: ``new_game``
gets the first five action cards of each side, and every later chance step (the deal,
action-card draws, Deception's draw) arrives as ``chance ITEM``.

Run it as a subprocess speaking the ruleproof engine protocol (docs/conformance.md)::

    python examples/engines/dracula_ref.py
    python examples/engines/dracula_ref.py --mutant draw-is-win
    python examples/engines/dracula_ref.py --list-mutants
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

PROTOCOL = 1
SPEC = Path(__file__).resolve().parents[2] / "spec" / "dracula"
COLOURS = ["red", "blue", "green", "yellow"]
SIDE_NAMES = ["dracula", "van-helsing"]
DECEPTION_STRENGTH = 1
OPTIONS = {  # option -> allowed values, default first; the last three only matter for specials
    # this engine does not implement
    "first_player": ("dracula", "van-helsing"),
    "barrier_optional": ("true", "false"),
    "barrier_adjacency": ("shared-location", "corner"),
    "no_look_ends_move": ("false", "true"),
    "crucifix_exception": ("dark-of-night", "breath-of-night"),
    "rebellion_extra_turn": ("on-win", "always"),
    "vigilance_scope": ("next-turn", "next-special"),
    "reinforcement": ("move-only", "move-and-hunter"),
    "depths": ("look-and-return", "known-own-only"),
}

MUTANTS: dict[str, str] = {
    "reveal-continues-move": "a revealed opponent card does not end the move",
    "overpay-free": "stepping beyond the move number costs no life marker",
    "draw-is-win": "a battle drawn on strength counts as a win",
    "barrier-divides": "barriers may divide the board (no connectivity check)",
    "barrier-side-by-side": "two barriers may lie side by side at one location",
    "early-reshuffle": "an empty hand of action cards reshuffles all cards, ignoring the five "
                       "set aside",
    "gift-one-marker": "giving a target away brings back one life marker instead of two",
    "crucifix-free": "the crucifix costs Dracula no life marker even without Dark of Night",
    "tie-other-wins": "when both hands prove at a meeting, the other player wins, not the mover",
    "stop-without-step": "the move may be ended before the first step",
    "last-marker-no-rescue": "losing the last life marker offers no target gift",
    "rebellion-always": "Rebellion gives Van Helsing another turn even without a won battle",
    "draw-is-loss": "a battle drawn on strength costs the player a life marker",
    "inspiration-fights": "with Inspiration the revealed card is resolved anyway",
    "pool-leak": "a side's observation shows the opponent's secretly chosen cards too",
    "composure-takes-itself": "Composure may take back the Composure card itself",
    "vigilance-ignored": "Dracula may use a special action right after Vigilance",
    "whisper-ignored": "Van Helsing may place a barrier in the turn after Whisper of Night",
    "breath-no-bonus": "Breath of Night does not make vampires stronger",
}
CLAUSES: dict[str, str] = {
    # The clause each mutant changes; `conform` must blame it first.
    "reveal-continues-move": "dracula-en:look.opponent-card",
    "overpay-free": "dracula-en:pay.overpay",
    "draw-is-win": "dracula-en:enemy.draw",
    "barrier-divides": "dracula-en:pay.barrier-restrictions",
    "barrier-side-by-side": "dracula-en:barriers.side-by-side",
    "early-reshuffle": "dracula-en:cards.cycle",
    "gift-one-marker": "dracula-en:early-end.give-target",
    "crucifix-free": "dracula-en:power.exception",
    "tie-other-wins": "dracula-en:end.simultaneous",
    "stop-without-step": "dracula-en:move.minimum",
    "last-marker-no-rescue": "dracula-en:early-end.give-target",
    "rebellion-always": "dracula-en:special.rebellion",
    "draw-is-loss": "dracula-en:enemy.draw",
    "inspiration-fights": "dracula-en:special.inspiration",
    "pool-leak": "dracula-en:setup.secret-choice",
    "composure-takes-itself": "dracula-en:special.composure",
    "vigilance-ignored": "dracula-en:special.vigilance",
    "whisper-ignored": "dracula-en:special.whisper-of-night",
    "breath-no-bonus": "dracula-en:special.breath-of-night",
}


class Bad(Exception):
    """A request the engine cannot answer."""


class NotSupported(Exception):
    """A game, option or action this engine does not implement."""


def load_data() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, Any]]:
    """Encounter cards, action cards and board, by id, from the shipped TOML files."""
    cards = tomllib.loads((SPEC / "cards.toml").read_text(encoding="utf-8"))
    board = tomllib.loads((SPEC / "board.toml").read_text(encoding="utf-8"))

    def val(entry: dict[str, Any], key: str) -> Any:
        v = entry.get(key)
        return v["value"] if isinstance(v, dict) else v

    enc = {}
    for e in cards["encounter"]:
        enc[e["id"]] = {"owner": SIDE_NAMES.index(e["owner"]), "kind": val(e, "kind"),
                        "strength": val(e, "strength") or 0}
    act = {}
    for a in cards["action"]:
        strength = val(a, "strength")
        special = val(a, "special")
        act[a["id"]] = {"owner": SIDE_NAMES.index(a["owner"]), "move": val(a, "move"),
                        "strength": 0 if strength == "none" else strength, "bar": val(a, "bar"),
                        "special": None if special in (None, "none") else special}
    info = {k: v["value"] for k, v in board.items() if isinstance(v, dict) and "value" in v}
    return enc, act, info


ENC, ACT, BOARD = load_data()
ROWS: int = BOARD["rows"]
COLS: int = BOARD["columns"]
SIZE = ROWS * COLS
LIFE: int = BOARD["life_markers"]
NAMES = ["abcdefgh"[i % COLS] + str(i // COLS + 1) for i in range(SIZE)]
HARBOUR, STATION = NAMES.index(BOARD["harbour"]), NAMES.index(BOARD["carriage_station"])


def neighbours(loc: int) -> list[int]:
    r, c = divmod(loc, COLS)
    out = []
    for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            out.append(rr * COLS + cc)
    return sorted(out)


EDGES = sorted({(min(a, b), max(a, b)) for a in range(SIZE) for b in neighbours(a)})


def edge_name(e: tuple[int, int]) -> str:
    return f"{NAMES[e[0]]}-{NAMES[e[1]]}"


class DraculaEngine:
    """One Dracula game at a time, answering protocol messages (:meth:`handle`)."""

    def __init__(self, mutant: str | None = None) -> None:
        self.mutant = mutant
        self.started = False

    def m(self, name: str) -> bool:
        return bool(self.mutant == name)

    # ------------------------------------------------------------------ protocol

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (see docs/conformance.md for the messages)."""
        cmd = msg.get("cmd")
        try:
            if cmd == "hello":
                return {"ok": True, "protocol": PROTOCOL, "engine": "dracula-ref",
                        "games": ["dracula"], "mutant": self.mutant,
                        "supports": {"dracula": {"players": [2], "options": {
                            k: list(v) for k, v in OPTIONS.items()}}}}
            if cmd == "quit":
                return {"ok": True}
            if cmd == "new_game":
                try:
                    self.new_game(msg)
                except (KeyError, TypeError, ValueError, IndexError) as exc:
                    self.started = False
                    raise Bad(f"bad new_game request: {exc!r}") from None
                return {"ok": True}
            if not self.started:
                raise Bad("no game started")
            if cmd == "legal_actions":
                return {"ok": True, "actions": self.legal()}
            if cmd == "apply":
                action = msg.get("action")
                if not isinstance(action, str) or action not in self.legal():
                    return {"ok": False, "error": "illegal", "reason": f"not legal: {action!r}"}
                self.apply(action)
                return {"ok": True}
            if cmd == "state":
                return {"ok": True, "state": self.public()}
            if cmd == "observation":
                player = msg.get("player")
                if player not in (0, 1):
                    raise Bad("observation needs a player 0 or 1")
                return {"ok": True, "observation": self.seen_by(int(player))}
            raise Bad(f"unknown command {cmd!r}")
        except NotSupported as exc:
            return {"ok": False, "error": str(exc), "unsupported": True}
        except Bad as exc:
            return {"ok": False, "error": str(exc)}

    def new_game(self, msg: dict[str, Any]) -> None:
        self.started = False
        if msg.get("game") != "dracula":
            raise NotSupported("this engine only plays dracula")
        if msg.get("players") != 2:
            raise Bad("dracula is played by 2 players")
        opts = {str(k).replace("-", "_"): str(v).lower()
                for k, v in (msg.get("options") or {}).items()}
        for k, v in opts.items():
            if k not in OPTIONS or v not in OPTIONS[k]:
                raise NotSupported(f"rule option {k}={v} is not supported by this engine")
        self.opt = {k: vals[0] for k, vals in OPTIONS.items()}
        self.opt.update(opts)
        current = msg["setup"]["current"]
        self.current = [sorted(current["dracula"]), sorted(current["van-helsing"])]
        for side in (0, 1):
            if len(set(self.current[side])) != 5 or any(ACT[c]["owner"] != side
                                                        for c in self.current[side]):
                raise Bad("setup.current: 5 own action cards per side")
        self.aside = [sorted(c for c in ACT if ACT[c]["owner"] == s and c not in self.current[s])
                      for s in (0, 1)]
        self.played_pile: list[list[str]] = [[], []]
        self.hand = [sorted(c for c in ENC if ENC[c]["owner"] == s) for s in (0, 1)]
        self.pool: list[str] = []
        self.cards: list[str | None] = [None] * SIZE
        self.known: list[list[str | None]] = [[None] * SIZE, [None] * SIZE]
        self.pos = [HARBOUR, STATION]
        self.life = [LIFE, LIFE]
        self.captured: list[list[str]] = [[], []]
        self.beaten: list[list[str]] = [[], []]
        self.barriers: dict[str, tuple[int, int] | None] = {c: None for c in COLOURS}
        self.turn = 0
        self.active = 0
        self.steps = 0
        self.can_look = False
        self.revealed: int | None = None
        self.played: str | None = None
        self.special = False
        self.battle_won = False
        self.winner: int | None = None
        self.turned: int | None = None  # Resistance: Dracula may not go there
        self.vigilance = False  # Vigilance: Dracula's next special action is blocked
        self.breath_turn: int | None = None  # Breath of Night: vampires +1 in this turn
        self.whisper_turn: int | None = None  # Whisper of Night: no barrier in this turn
        first = 0 if self.opt["first_player"] == "dracula" else 1
        # The to-do list of the game: (kind, side, number, colours); the head is what is next.
        self.todo: list[tuple[str, int, int, tuple[str, ...]]] = []
        self.todo += [("choose", 0, 6, ()), ("choose", 1, 6, ())]
        self.todo += [("deal", 0, loc, ()) for loc in range(SIZE)]
        self.todo += [("start", first, 0, ())]
        self.started = True
        self.run()

    # ------------------------------------------------------------------ queries

    def head(self) -> tuple[str, int, int, tuple[str, ...]] | None:
        if self.winner is not None or not self.todo:
            return None
        return self.todo[0]

    def gifts(self, side: int) -> list[str]:
        if self.life[side] >= LIFE:
            return []
        return [f"give {c}" for c in self.hand[side] if ENC[c]["kind"] == "target"]

    def open_moves(self) -> list[int]:
        here = self.pos[self.active]
        walls = {e for e in self.barriers.values() if e is not None}
        return [n for n in neighbours(here) if (min(here, n), max(here, n)) not in walls
                and not (self.active == 0 and self.turned == n)]

    def barrier_ok(self, edges: list[tuple[int, int]]) -> bool:
        if not self.m("barrier-side-by-side"):
            for i, a in enumerate(edges):
                for b in edges[i + 1:]:
                    if a != b and set(a) & set(b):
                        if self.opt["barrier_adjacency"] == "shared-location":
                            return False
                        if (a[1] - a[0] == COLS) != (b[1] - b[0] == COLS):
                            return False
        if self.m("barrier-divides"):
            return True
        seen, todo = {0}, [0]
        while todo:
            loc = todo.pop()
            for n in neighbours(loc):
                if n not in seen and (min(loc, n), max(loc, n)) not in edges:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == SIZE

    def legal(self) -> list[str]:
        h = self.head()
        if h is None:
            return []
        kind, side, _n, colours = h
        if kind == "choose":
            return [f"choose {c}" for c in self.hand[side]]
        if kind == "deal":
            return [f"chance {c}" for c in sorted(set(self.pool))]
        if kind == "draw":
            return [f"chance {c}" for c in self.played_pile[side]]
        if kind == "move":
            out = []
            moves = self.open_moves()
            stuck_on_card = (self.opt["no_look_ends_move"] == "true" and self.can_look
                             and self.steps > 0)
            if not stuck_on_card:
                out += [f"move {NAMES[x]}" for x in moves]
            if self.can_look:
                out.append("look")
            if self.steps >= 1 or not moves or self.m("stop-without-step"):
                out.append("stop")
            return out + self.gifts(side)
        if kind == "meet":
            return ["reveal", "no-reveal"]
        if kind == "place":
            return [f"place {c}" for c in self.hand[side]]
        if kind == "pay":
            out = []
            blocked = side == 0 and self.vigilance and not self.m("vigilance-ignored")
            for c in self.current[side]:
                out.append(f"play {c}")
                if ACT[c]["special"] is not None and not blocked:
                    out.append(f"play {c} special")
            return out + self.gifts(side)
        if kind == "deception-draw":
            return [f"chance {c}" for c in sorted(self.hand[0])]
        if kind == "depths-place":
            return [f"place {c}" for c in self.hand[side]]
        if kind == "special-choice":
            return self.special_choices()
        if kind == "rescue":
            return [f"give {c}" for c in self.hand[side] if ENC[c]["kind"] == "target"] + [
                "accept"]
        if kind == "barrier":
            out = []
            for colour in colours:
                others = [e for c, e in self.barriers.items() if c != colour and e is not None]
                for e in EDGES:
                    if e == self.barriers[colour] or e in others:
                        continue
                    if self.barrier_ok([*others, e]):
                        out.append(f"barrier {colour} {edge_name(e)}")
            if self.opt["barrier_optional"] == "true" or not out:
                out.append("no-barrier")
            return out
        return []

    def public(self) -> dict[str, Any]:
        h = self.head()
        to_move: int | str | None = None
        if h is not None:
            to_move = "chance" if h[0] in ("deal", "draw") else h[1]
        phase = "over" if h is None else {"start": "start-turn", "draw": "draw-action"}.get(
            h[0], h[0])
        if h is not None and h[0] == "deception-draw":
            to_move = "chance"
        return {
            "phase": phase, "to_move": to_move, "turn": self.turn, "active": self.active,
            "steps": self.steps, "can_look": self.can_look,
            "pos": [NAMES[self.pos[0]], NAMES[self.pos[1]]], "life": list(self.life),
            "cards_at": [c is not None for c in self.cards],
            "revealed": None if self.revealed is None else [NAMES[self.revealed],
                                                             self.cards[self.revealed]],
            "played": self.played, "use_special": self.special,
            "barriers": {c: None if e is None else edge_name(e)
                         for c, e in self.barriers.items()},
            "captured": [sorted(x) for x in self.captured],
            "enemy_discard": [sorted(x) for x in self.beaten],
            "action_discard": [sorted(x) for x in self.played_pile],
            "hand_size": [len(x) for x in self.hand],
            "current_size": [len(x) for x in self.current],
            "aside_size": [len(x) for x in self.aside],
            "pool_size": len(self.pool), "winner": self.winner,
        }

    def seen_by(self, p: int) -> dict[str, Any]:
        return {"player": p, **self.public(), "hand": sorted(self.hand[p]),
                "current": sorted(self.current[p]), "aside": sorted(self.aside[p]),
                "pool": sorted(c for c in self.pool
                               if ENC[c]["owner"] == p or self.m("pool-leak")),
                "known": list(self.known[p])}

    # ------------------------------------------------------------------ actions

    def win(self, side: int) -> None:
        self.winner = side
        self.todo = []

    def proves(self, finder: int) -> bool:
        owner = 1 - finder
        left = [c for c in ENC if ENC[c]["owner"] == owner and ENC[c]["kind"] == "target"
                and c not in self.captured[finder]]
        return all(c in self.hand[owner] for c in left)

    def give(self, side: int, card: str) -> None:
        self.hand[side].remove(card)
        self.captured[1 - side].append(card)
        back = 1 if self.m("gift-one-marker") else 2
        self.life[side] = min(LIFE, self.life[side] + back)
        if len(self.captured[1 - side]) >= 5:
            self.win(1 - side)

    def apply(self, action: str) -> None:
        kind, side, n, _colours = self.todo[0]
        words = action.split()
        verb = words[0]
        if verb == "give":
            self.give(side, words[1])
            if self.winner is None and kind == "rescue":
                self.todo[0] = ("loss", side, n, ())
        elif verb == "chance" and kind == "deception-draw":
            self.todo.pop(0)
            self.deception(words[1])
        elif verb == "chance":
            card = words[1]
            if kind == "deal":
                self.pool.remove(card)
                self.cards[n] = card
            else:
                self.played_pile[side].remove(card)
                self.current[side].append(card)
                self.current[side].sort()
            self.todo.pop(0)
        elif verb == "choose":
            self.hand[side].remove(words[1])
            self.pool.append(words[1])
            self.pool.sort()
            if n > 1:
                self.todo[0] = ("choose", side, n - 1, ())
            else:
                self.todo.pop(0)
        elif verb == "move":
            self.step_to(NAMES.index(words[1]))
        elif verb == "look":
            self.look()
        elif verb == "stop":
            self.todo[0] = ("pay", side, 0, ())
        elif verb in ("reveal", "no-reveal"):
            self.todo.pop(0)
            if verb == "reveal":
                for finder in ((1 - side, side) if self.m("tie-other-wins") else (side, 1 - side)):
                    if self.proves(finder):
                        self.win(finder)
                        break
        elif verb == "place":
            self.todo.pop(0)
            self.hand[side].remove(words[1])
            self.cards[n] = words[1]
            self.known[side][n] = words[1]
            self.known[1 - side][n] = None
        elif verb == "play":
            self.pay(side, words[1], len(words) == 3)
        elif verb == "accept":
            self.life[side] = 0
            self.win(1 - side)
        elif verb == "barrier":
            self.todo.pop(0)
            a, b = (NAMES.index(x) for x in words[2].split("-"))
            self.barriers[words[1]] = (min(a, b), max(a, b))
        elif verb == "no-barrier":
            self.todo.pop(0)
        elif verb in ("take", "recall", "turn", "fly", "roar", "depths"):
            self.todo.pop(0)
            self.do_special(verb, words[1])
        self.run()

    def step_to(self, to: int) -> None:
        side = self.active
        self.pos[side] = to
        self.steps += 1
        self.can_look = self.cards[to] is not None
        front = []
        if self.pos[1 - side] == to:
            front.append(("meet", side, to, ()))
        if self.cards[to] is None:
            front.append(("place", side, to, ()))
        self.todo[0:0] = front

    def look(self) -> None:
        side = self.active
        loc = self.pos[side]
        card = self.cards[loc]
        assert card is not None
        self.can_look = False
        if ENC[card]["owner"] == side:
            self.hand[side].append(card)
            self.hand[side].sort()
            self.cards[loc] = None
            self.todo.insert(0, ("place", side, loc, ()))
            return
        self.revealed = loc
        self.known[0][loc] = card
        self.known[1][loc] = card
        if not self.m("reveal-continues-move"):
            self.todo[0] = ("pay", side, 0, ())

    def pay(self, side: int, card: str, special: bool) -> None:
        self.current[side].remove(card)
        self.played_pile[side].append(card)
        self.played_pile[side].sort()
        self.played = card
        self.special = special
        owed = max(0, self.steps - ACT[card]["move"])
        if self.m("overpay-free"):
            owed = 0
        rest = [("resolve", side, 0, ()), ("special", side, 0, ()), ("barrier-choice", side, 0, ()),
                ("end", side, 0, ())]
        if owed:
            rest.insert(0, ("loss", side, owed, ()))
        self.todo[0:1] = rest

    def special_in_force(self) -> str | None:
        if self.played is None or not self.special:
            return None
        return ACT[self.played]["special"]  # type: ignore[no-any-return]

    def resolve(self) -> None:
        loc = self.revealed
        if loc is None:
            return
        self.revealed = None
        side = self.active
        card = self.cards[loc]
        assert card is not None
        sp = self.special_in_force()
        if sp == "inspiration" and not self.m("inspiration-fights"):
            return
        kind = ENC[card]["kind"]
        if kind == "target":
            self.cards[loc] = None
            self.captured[side].append(card)
            self.known[0][loc] = self.known[1][loc] = None
            if len(self.captured[side]) >= 5:
                self.win(side)
                return
            self.todo.insert(0, ("place", side, loc, ()))
        elif kind == "enemy":
            assert self.played is not None
            mine, theirs = ACT[self.played]["strength"], ENC[card]["strength"] + self.bonus(card)
            won = mine >= theirs if self.m("draw-is-win") else mine > theirs
            if won:
                self.cards[loc] = None
                self.battle_won = True
                self.beaten[ENC[card]["owner"]].append(card)
                self.known[0][loc] = self.known[1][loc] = None
                self.todo.insert(0, ("place", side, loc, ()))
            elif mine < theirs or self.m("draw-is-loss"):
                self.todo.insert(0, ("loss", side, 1, ()))
        else:  # amulet or crucifix
            if side == 0 and (sp == self.opt["crucifix_exception"] or self.m("crucifix-free")):
                return
            self.todo.insert(0, ("loss", side, 1, ()))

    def lose(self, side: int, n: int) -> None:
        if self.life[side] - n > 0:
            self.life[side] -= n
            self.todo.pop(0)
            return
        has_target = any(ENC[c]["kind"] == "target" for c in self.hand[side])
        if self.life[side] < LIFE and has_target and not self.m("last-marker-no-rescue"):
            self.todo[0] = ("rescue", side, n, ())
            return
        self.life[side] = 0
        self.win(1 - side)

    def end_turn(self) -> None:
        side = self.active
        front: list[tuple[str, int, int, tuple[str, ...]]] = []
        if not self.current[side]:
            if self.aside[side] and not self.m("early-reshuffle"):
                self.current[side] = sorted(self.aside[side])
                self.aside[side] = []
            else:
                self.played_pile[side] = sorted(self.played_pile[side] + self.aside[side])
                self.aside[side] = []
                front = [("draw", side, 0, ())] * 5
                front.append(("set-aside", side, 0, ()))
        if side == 0 and self.vigilance:
            used = self.played is not None and ACT[self.played]["special"] is not None
            if self.opt["vigilance_scope"] == "next-turn" or used:
                self.vigilance = False
        nxt = 1 - side
        if side == 1 and self.special_in_force() == "rebellion" and (
                self.battle_won or self.opt["rebellion_extra_turn"] == "always"
                or self.m("rebellion-always")):
            nxt = 1
        self.todo[0:0] = [*front, ("start", nxt, 0, ())]

    def run(self) -> None:
        """Do the automatic steps until a player or chance must decide, or the game is over."""
        while self.winner is None and self.todo:
            kind, side, n, colours = self.todo[0]
            if kind in ("deal", "draw", "deception-draw"):
                if kind == "draw" and not self.played_pile[side]:
                    self.todo.pop(0)
                    continue
                if kind == "deception-draw" and not self.hand[0]:
                    self.todo.pop(0)
                    continue
                return
            if kind in ("choose", "place", "depths-place") and not self.hand[side]:
                self.todo.pop(0)
                continue
            if kind == "special":
                self.todo.pop(0)
                self.auto_special()
                continue
            if kind in ("special-choice", "depths-place"):
                return
            if kind == "barrier" and not colours:
                self.todo.pop(0)
                continue
            if kind in ("choose", "move", "meet", "place", "pay", "rescue", "barrier"):
                return
            self.todo.pop(0)
            if kind == "set-aside":
                self.aside[side] = sorted(self.played_pile[side])
                self.played_pile[side] = []
            elif kind == "start":
                self.turn += 1
                if side == 1:
                    self.turned = None  # Resistance's card is turned back
                self.active = side
                self.steps = 0
                self.can_look = False
                self.revealed = None
                self.played = None
                self.special = False
                self.battle_won = False
                self.todo.insert(0, ("move", side, 0, ()))
            elif kind == "loss":
                self.todo.insert(0, (kind, side, n, colours))
                self.lose(side, n)
            elif kind == "resolve":
                self.resolve()
            elif kind == "barrier-choice":
                assert self.played is not None
                bar = ACT[self.played]["bar"]
                if side == 1 and self.whisper_turn == self.turn and not self.m("whisper-ignored"):
                    continue  # Whisper of Night: no barrier this turn
                if self.special_in_force() == "eyes":
                    self.todo[0:0] = [("barrier", side, 0, ("yellow",)),
                                      ("barrier", side, 1, tuple(c for c in COLOURS
                                                                 if c != "yellow"))]
                    continue
                self.todo.insert(0, ("barrier", side, 0, tuple(COLOURS) if bar == "grey"
                                     else (bar,)))
            elif kind == "end":
                self.end_turn()

    # ------------------------------------------------------------------ special actions

    def bonus(self, card: str) -> int:
        """Breath of Night: vampires are 1 stronger in Van Helsing's turn after it."""
        if (self.active == 1 and ENC[card]["owner"] == 0 and self.breath_turn == self.turn
                and not self.m("breath-no-bonus")):
            return 1
        return 0


    def special_choices(self) -> list[str]:
        """The choices of the special action in force (Composure, Resistance, Wings, Pulse,
        Reinforcement with a hunter, Depths, Roar)."""
        sp = self.special_in_force()
        side = self.active
        if sp == "composure":
            return [f"take {c}" for c in sorted(self.aside[side] + self.played_pile[side])
                    if ACT[c]["special"] != "composure" or self.m("composure-takes-itself")]
        if sp == "resistance":
            return [f"turn {NAMES[x]}" for x in range(SIZE)]
        if sp == "wings-of-night":
            return [f"fly {NAMES[x]}" for x in range(SIZE) if x != self.pos[0] and x != self.turned]
        if sp == "pulse" or (sp == "reinforcement"
                             and self.opt["reinforcement"] == "move-and-hunter"):
            return [f"recall {c}" for c in sorted(self.beaten[side])]
        if sp == "depths-of-night":
            if self.opt["depths"] == "known-own-only":
                return [f"depths {NAMES[x]}" for x in range(SIZE)
                        if self.cards[x] is not None and self.known[0][x] == self.cards[x]
                        and ENC[self.cards[x] or ""]["owner"] == 0]
            return [f"depths {NAMES[x]}" for x in range(SIZE) if self.cards[x] is not None]
        if sp == "roar":
            figs = ["roar van-helsing"]
            if self.turned != HARBOUR:
                figs.insert(0, "roar dracula")
            return figs
        return []


    def auto_special(self) -> None:
        """The special action in force once the revealed card is dealt with."""
        sp = self.special_in_force()
        if sp in (None, "inspiration", "dark-of-night", "eyes", "rebellion"):
            return
        if sp == "perception":
            if self.proves(1):
                self.win(1)
            return
        if sp == "deception":
            self.todo.insert(0, ("deception-draw", 1, 0, ()))
            return
        if sp == "vigilance":
            self.vigilance = True
            return
        if sp == "breath-of-night":
            self.breath_turn = self.turn + 1
            return
        if sp == "whisper-of-night":
            self.whisper_turn = self.turn + 1
            return
        if sp == "reinforcement":
            self.pos[1] = STATION
            if self.opt["reinforcement"] == "move-and-hunter" and self.beaten[1]:
                self.todo.insert(0, ("special-choice", 1, 0, ()))
            return
        if self.special_choices():
            self.todo.insert(0, ("special-choice", self.active, 0, ()))


    def do_special(self, verb: str, what: str) -> None:
        """Apply the choice of a special action."""
        side = self.active
        if verb == "take":
            pile = self.aside[side] if what in self.aside[side] else self.played_pile[side]
            pile.remove(what)
            self.current[side].append(what)
            self.current[side].sort()
        elif verb == "recall":
            self.beaten[side].remove(what)
            self.hand[side].append(what)
            self.hand[side].sort()
        elif verb == "turn":
            self.turned = NAMES.index(what)
        elif verb == "fly":
            self.pos[0] = NAMES.index(what)
        elif verb == "roar":
            self.pos[SIDE_NAMES.index(what)] = HARBOUR
        elif verb == "depths":
            loc = NAMES.index(what)
            card = self.cards[loc]
            assert card is not None
            if ENC[card]["owner"] == 0:
                self.hand[0].append(card)
                self.hand[0].sort()
                self.cards[loc] = None
                self.todo.insert(0, ("depths-place", 0, loc, ()))
            else:
                self.known[0][loc] = card


    def deception(self, card: str) -> None:
        """Van Helsing draws a card from Dracula's hand."""
        kind = ENC[card]["kind"]
        if kind == "target":
            self.hand[0].remove(card)
            self.captured[1].append(card)
            if len(self.captured[1]) >= 5:
                self.win(1)
            return
        if kind == "enemy":
            if ENC[card]["strength"] + self.bonus(card) > DECEPTION_STRENGTH:
                self.todo.insert(0, ("loss", 1, 1, ()))
            return
        self.todo.insert(0, ("loss", 1, 1, ()))  # amulet or crucifix


def serve(engine: DraculaEngine) -> int:
    """The subprocess loop: one JSON request per stdin line, one JSON answer per stdout line."""
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            print(json.dumps({"ok": False, "error": "request is not JSON"}), flush=True)
            continue
        if not isinstance(msg, dict):
            print(json.dumps({"ok": False, "error": "request is not an object"}), flush=True)
            continue
        print(json.dumps(engine.handle(msg)), flush=True)
        if msg.get("cmd") == "quit":
            return 0
    return 0


def mutant_listing() -> str:
    """``--list-mutants``: one line per name ``--mutant`` takes, ``NAME: what it breaks``, as
    the Dawn Under reference engine lists them (this engine has no set-up bugs: no mutant
    mishandles its only set-up field, the dealt action cards)."""
    return "".join(f"{name}: {what}\n" for name, what in MUTANTS.items())


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mutant", choices=sorted(MUTANTS))
    parser.add_argument("--list-mutants", action="store_true")
    args = parser.parse_args(argv)
    if args.list_mutants:
        print(mutant_listing(), end="")
        return 0
    return serve(DraculaEngine(args.mutant))


if __name__ == "__main__":
    sys.exit(main())
