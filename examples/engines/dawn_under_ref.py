#!/usr/bin/env python3
"""A small reference engine for Dawn Under (du-en and du-cs with 3-6 players, the 2-player game,
and the expansion "Frische Luft fuer die Gruft" with 3-6 players), written plainly from the
rulebooks.

It is deliberately independent of ``model/``: imperative, mutable, its own data structures; the
only thing it shares with the project is the board file (``spec/dawn_under/boards/default.toml``),
read with :mod:`tomllib`. Where the rulebook is silent it follows the readings documented in
``docs/rules-options.md`` (the model is the specification), including the four rule options.
The expansion (``"expansion": "gruft"`` in ``new_game``: Count Rucola, two bats per player,
graves left open until the end of the turn) follows the default readings of ``docs/gruft.md``
(three matching placements in one's own turn get the Count; garlic under the Count counts as
occupied; the Count is stood on any closed grave with a lid, moving on into the next quarter
clockwise; a player who got the Count from the right stands it down after their own turn; a
bat's placement does not count toward the three) and, on request, the other reading of each
of its six options (``gruft_three``, ``gruft_garlic``, ``gruft_plague_open``,
``gruft_count_choice``, ``gruft_lost_place``, ``gruft_bat_counts``), declared in the handshake.
Player names (``setup.names``, one per seat in seat order) are kept as labels only: seats are
numbers, and duplicate names are fine.

Run it as a subprocess speaking the ruleproof engine protocol (JSON Lines on stdin/stdout, see
``docs/conformance.md``)::

    python examples/engines/dawn_under_ref.py                        # the reference engine
    python examples/engines/dawn_under_ref.py --mutant gift-on-fourth-stake
    python examples/engines/dawn_under_ref.py --list-mutants    # rule mutants, then set-up bugs

A *mutant* breaks exactly one rule the way a real implementation might; ``ruleproof conform``
must catch every one of them (``PRESET_OF`` and ``EXPANSION_OF`` name the rule set a mutant
needs; ``SETUP_BUGS`` are bugs in the handling of one set-up field, including the expansion and
the player names). ``--fault crash|hang|garbage|flood`` with ``--fault-at N`` makes the
engine misbehave at its N-th ``apply`` (used to test the harness's failure reports).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

PROTOCOL = 1
BOARD_FILE = Path(__file__).resolve().parents[2] / "spec" / "dawn_under" / "boards" / "default.toml"
STAKES = 13
GARLIC = 3
OPEN_PER_SIDE = 2
ALL_OPEN_AT_MOST = 4
STAKES_FOR_GIFT = 3

MUTANTS: dict[str, str] = {
    "gift-on-fourth-stake": "the gift comes with the fourth stake instead of the third",
    "garlic-owner-gives-two": "the owner of another player's garlic hands over two vampires",
    "received-face-down": "a received vampire goes into the row face down",
    "plague-opens-non-neighbours": "in a rat plague any grave may be opened, not only neighbours",
    "rat-lid-replaced-at-once": "the rat's grave gets the reserve lid at once, not at plague end",
    "turn-passes-after-placement": "a successful placement ends the turn",
    "garlic-back-to-finder": "found garlic is credited to the finder instead of its owner",
    "stakes-kept-after-gift": "after the gift the three stakes stay with the player",
    "own-garlic-one-gift": "finding one's own garlic brings only one vampire (left neighbour)",
    "one-open-per-side": "only one vampire is kept open at each end of a row",
    "all-open-at-five": "rows of five or fewer vampires are all open",
    "stop-before-opening": "a turn may be ended before any grave is opened",
    "plague-turn-after-last-passer": "after a plague the left neighbour of its last player moves",
    "plague-short-round": "a plague ends when all but one player have had their go",
    "second-rat-no-hand-over": "the starter of a plague keeps a second rat they find",
    "reopen-in-plague": "graves opened earlier in a plague may be opened again",
    "garlic-without-stock": "garlic may be placed with none left in hand",
    "placement-optional": "a matching vampire need not be placed (garlic or leave offered too)",
    "single-vampire-two-ends": "a single vampire can be addressed as the left and the right end",
    "counter-clockwise": "play passes to the right neighbour",
    "gifts-counter-clockwise": "several givers hand over starting from the receiver's right",
    "stake-ends-plague": "finding a vampire during a rat plague ends the plague",
    "no-refill-after-give": "the giver's row is not refilled after handing a vampire over",
    "rat-grave-not-relidded": "at the end of a plague the rat's grave stays without a lid",
    "path-not-decremented": "taking a stake does not remove it from the path",
    "apply-without-check": "apply does not check legality (legal_actions is right)",
    # Mutants of the du-cs rule set (preset du-cs): the engine gets one du-cs rule wrong.
    "cs-match-continues": "du-cs: after a placement the player may go on (as in du-en)",
    "cs-gift-on-third": "du-cs: the gift comes with the third stake (as in du-en)",
    "cs-second-rat-finder": "du-cs: a second rat goes to its finder (as in du-en)",
    "cs-plague-one-round": "du-cs: a plague ends after one round (as in du-en)",
    "cs-occupied-continues": "du-cs: a stake found in a plague does not end the player's go",
    "cs-must-open": "du-cs: a turn may not be passed without opening a grave (as in du-en)",
    # Mutants of the 2-player game (preset 2p).
    "2p-rat-lid-removed": "2p: the rat lid leaves its grave as with 3-6 players",
    "2p-stake-gift-one": "2p: the third stake brings one vampire, not four",
    "2p-other-garlic-one": "2p: the opponent's garlic brings one vampire, not two",
    "2p-reopen-normal": "2p: a grave the opponent opened after you is opened as usual",
    "2p-second-rat-finder": "2p: a second rat stays with its finder (as with 3-6 players)",
    "2p-lidless-openable": "2p: a grave without a lid may be opened",
    # Mutants of the expansion (expansion gruft): the engine gets one gruft-en rule wrong.
    "gruft-bats-reusable": "gruft: a player with no bats left may still play one",
    "gruft-guard-ignored": "gruft: others may open the grave Count Rucola keeps (no plague)",
    "gruft-doubter-no-stake": "gruft: a wrong doubt of an empty grave costs no stake",
    "gruft-bat-turn-continues": "gruft: after a bat's grave is dealt with the turn goes on",
    "gruft-doubted-vampire-to-doubter": "gruft: the vampire under a doubted bat goes to the "
                                        "doubter, not the bat's owner",
    "gruft-count-on-fourth": "gruft: Count Rucola comes with the fourth placement, not the third",
    "gruft-count-moves-anywhere": "gruft: the Count moves on to any grave, not the next quarter",
    "gruft-graves-closed-after-use": "gruft: graves are closed after use, not left open until "
                                     "the end of the turn",
}
CLAUSES: dict[str, str] = {
    # The clause each mutant changes (as the rule set it plays cites it); `conform` must blame it.
    "gift-on-fourth-stake": "du-en:ch2.gift",
    "garlic-owner-gives-two": "du-en:ch3.other-garlic",
    "received-face-down": "du-en:ch3.received-open",
    "plague-opens-non-neighbours": "du-en:ch4.only-neighbours",
    "rat-lid-replaced-at-once": "du-en:ch4.rat",
    "turn-passes-after-placement": "du-en:ch1.continue",
    "garlic-back-to-finder": "du-en:ch3.garlic-back",
    "stakes-kept-after-gift": "du-en:ch2.stakes-back",
    "own-garlic-one-gift": "du-en:ch3.own-garlic",
    "one-open-per-side": "du-en:row.refill",
    # a row of five shows all its vampires: the middle one is turned up although each side
    # shows two open, which du-en:ch3.flip-when-short forbids (du-en:row.four-or-fewer, "four or
    # fewer lie face up", says nothing about rows of five)
    "all-open-at-five": "du-en:ch3.flip-when-short",
    "stop-before-opening": "du-en:ch1.open",
    "plague-turn-after-last-passer": "du-en:ch4.next-turn",
    "plague-short-round": "du-en:ch4.end-all-passed",
    "second-rat-no-hand-over": "du-en:ch5.hand-over",
    "reopen-in-plague": "du-en:ch4.stay-open",
    "garlic-without-stock": "du-en:ch1.garlic",
    # du-en:ch1.match says the vampire "can" go in: its contract names both readings (must /
    # may, ambiguity du.match-optional); the model follows "must", so blame names the clause
    # whose reading the engine leaves
    "placement-optional": "du-en:ch1.match",
    "single-vampire-two-ends": "du-en:ch1.outermost",
    "counter-clockwise": "du-en:play.clockwise",
    "gifts-counter-clockwise": "du-en:ch2.gift",
    "stake-ends-plague": "du-en:ch4.occupied",
    "no-refill-after-give": "du-en:row.refill",
    "rat-grave-not-relidded": "du-en:ch4.cleanup",
    "path-not-decremented": "du-en:ch2.stake",
    "apply-without-check": "du-en:ch1.open",
    "cs-match-continues": "du-cs:prubeh.match-ends",
    "cs-gift-on-third": "du-cs:prubeh.gift",
    "cs-second-rat-finder": "du-cs:prubeh.new-starter",
    "cs-plague-one-round": "du-cs:prubeh.rat-end",
    "cs-occupied-continues": "du-cs:prubeh.rat-resolve",
    "cs-must-open": "du-cs:prubeh.open",
    "2p-rat-lid-removed": "du-en:2p.rat-stays",
    "2p-stake-gift-one": "du-en:2p.own-garlic-stake",
    "2p-other-garlic-one": "du-en:2p.other-garlic",
    "2p-reopen-normal": "du-en:2p.reopen",
    "2p-second-rat-finder": "du-en:2p.plague",
    "2p-lidless-openable": "du-en:2p.lids",
    "gruft-bats-reusable": "gruft-en:bats.once",
    "gruft-guard-ignored": "gruft-en:count.guard",
    "gruft-doubter-no-stake": "gruft-en:bats.doubt-empty",
    "gruft-bat-turn-continues": "gruft-en:bats.close-ends",
    "gruft-doubted-vampire-to-doubter": "gruft-en:bats.doubt-vampire",
    "gruft-count-on-fourth": "gruft-en:count.get-three",
    "gruft-count-moves-anywhere": "gruft-en:count.move",
    "gruft-graves-closed-after-use": "gruft-en:play.keep-open",
}
PRESET_OF: dict[str, str] = {name: "du-cs" if name.startswith("cs-") else "2p"
                             for name in MUTANTS if name.startswith(("cs-", "2p-"))}
"""Mutants that only differ under a preset other than du-en."""
EXPANSION_OF: dict[str, str] = {name: "gruft" for name in MUTANTS if name.startswith("gruft-")}
"""Mutants that only differ when the expansion is played."""
EXPANSIONS = ("gruft",)
"""Expansions this engine plays (declared in its handshake)."""
SETUP_BUGS: dict[str, str] = {
    # Bugs in the handling of one set-up field; each shows only if that field varies.
    "ignores-start-player": "start player: the engine always lets player 0 begin",
    "lids-shifted": "deal: the engine reads the dealt lids shifted by one grave",
    "four-seat-table": "player count: turns go round a table of four seats",
    "ignores-option-after-match": "options: the option after_match is ignored",
    "ignores-preset": "preset: the preset is ignored (du-en rules always)",
    "ignores-expansion": "expansion: the expansion is ignored (the base game always)",
    "seats-sorted-by-name": "names: players are seated in alphabetical order of their names, "
                            "not in the order given",
}
FAULTS = ("crash", "hang", "garbage", "flood", "fork-crash", "extra-answer", "exit-clean",
          "slow", "hang-new-game")
SUPPORTED_OPTIONS = frozenset({"after_match", "gift_trigger", "receiver_chooses_end", "second_rat",
                               "empty_path", "plague_round", "plague_occupied", "turn_start",
                               "lidless_grave", "reopen_rule", "removed_colours",
                               "gruft_three", "gruft_garlic", "gruft_plague_open",
                               "gruft_count_choice", "gruft_lost_place", "gruft_bat_counts"})
OPTION_VALUES: dict[str, list[str]] = {
    "after_match": ["may-continue", "turn-ends"],
    "gift_trigger": ["third-stake", "holding-three"],
    "receiver_chooses_end": ["true", "false"],
    "second_rat": ["finder", "left-of-starter", "opponent"],
    "empty_path": ["no-stake", "gift-now"],
    "plague_round": ["one-round", "until-all-pass"],
    "plague_occupied": ["continue", "pass"],
    "turn_start": ["must-open", "may-pass"],
    "lidless_grave": ["unusable", "wild"],
    "reopen_rule": ["stake-and-end", "forbidden"],
    "removed_colours": ["same", "different"],
    # the expansion's readings (docs/gruft.md); ignored in the base game
    "gruft_three": ["one-turn", "in-a-row"],
    "gruft_garlic": ["occupied", "empty"],
    "gruft_plague_open": ["stay-open", "closed"],
    "gruft_count_choice": ["blind", "empty-only"],
    "gruft_lost_place": ["own-turn", "at-once"],
    "gruft_bat_counts": ["matching-only", "any-placement"],
}
PRESETS: dict[str, dict[str, str]] = {
    "du-en": {},
    "du-cs": {"after_match": "turn-ends", "gift_trigger": "holding-three",
              "second_rat": "left-of-starter", "plague_round": "until-all-pass",
              "plague_occupied": "pass", "turn_start": "may-pass"},
    "2p": {"second_rat": "opponent"},
}
TWO_PLAYER_GIFTS = {"stake": 4, "own-garlic": 4, "other-garlic": 2}
"""Vampires handed over with 2 players (the 2-player rules); 3-6 players: 1 each."""
CS_MUTANT_KEEPS: dict[str, tuple[str, str]] = {
    # du-cs mutant -> the option it leaves at the du-en value
    "cs-match-continues": ("after_match", "may-continue"),
    "cs-gift-on-third": ("gift_trigger", "third-stake"),
    "cs-second-rat-finder": ("second_rat", "finder"),
    "cs-plague-one-round": ("plague_round", "one-round"),
    "cs-occupied-continues": ("plague_occupied", "continue"),
    "cs-must-open": ("turn_start", "must-open"),
}


def load_neighbours(path: Path) -> list[list[int]]:
    """The neighbour lists of the board file (grave id -> sorted neighbour ids)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    graves = data["grave"]
    out: list[list[int]] = [[] for _ in graves]
    for grave in graves:
        out[int(grave["id"])] = sorted(int(n) for n in grave["neighbours"])
    return out


def load_quarters(path: Path) -> list[int]:
    """The quarter of every grave (index into the board's clockwise list of quarters)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    order = list(data["quarters"])
    out = [0] * len(data["grave"])
    for grave in data["grave"]:
        out[int(grave["id"])] = order.index(grave["quarter"])
    return out


class NotSupported(Exception):
    """A preset, player count or rule option this engine does not implement."""


class Bad(Exception):
    """A request the engine refuses (illegal action, malformed message)."""


class DawnUnderEngine:
    """One Dawn Under game at a time; :meth:`handle` answers one protocol message."""

    def __init__(self, mutant: str | None = None, board: Path = BOARD_FILE,
                 presets: tuple[str, ...] = tuple(PRESETS),
                 readings: dict[str, str] | None = None) -> None:
        if mutant is not None and mutant not in MUTANTS and mutant not in SETUP_BUGS:
            raise ValueError(f"unknown mutant {mutant!r}")
        self.mutant = mutant
        self.presets = presets
        # readings played whatever new_game says, and no options declared (conform --identify)
        self.readings = dict(readings or {})
        self.neighbours = load_neighbours(board)
        self.quarter_of = load_quarters(board)
        self.quarters = max(self.quarter_of) + 1
        self.started = False
        self.n = 0
        self.after_match = "may-continue"
        self.gift_trigger = "third-stake"
        self.receiver_chooses = True
        self.second_rat = "finder"
        self.empty_path = "no-stake"
        self.plague_round = "one-round"
        self.lidless = "unusable"
        self.reopen = "stake-and-end"
        self.windows: list[list[int]] = []
        self.barred: list[int] = []
        self.plague_occupied = "continue"
        self.turn_start = "must-open"
        self.lids: list[str | None] = []
        self.known: list[bool] = []
        self.contents: list[str | None] = []
        self.rows: list[list[list[Any]]] = []  # [colour, face_up]
        self.stakes: list[int] = []
        self.path = STAKES
        self.garlic: list[int] = []
        self.reserve: list[str] = []
        self.removed = 0
        self.turn = 0
        self.phase = "open"
        self.may_stop = False
        self.pending: int | None = None
        self.plague: dict[str, Any] | None = None
        self.gifts: list[tuple[int, int]] = []
        self.transit: str | None = None
        self.winner: int | None = None
        self.names: list[str] = []
        # The expansion "Frische Luft fuer die Gruft" (gruft-en), if played.
        self.gruft = False
        self.bats: list[int] = []  # bats in front of each player
        self.open_graves: list[int] = []  # graves left open this turn
        self.count_grave: int | None = None  # the grave Count Rucola stands on
        self.post: int | None = None  # who the post stands in front of (None: the middle)
        self.bat: dict[str, Any] | None = None  # the bat claim being answered
        self.putter: int | None = None  # who puts a vampire into ``pending`` (phase put)
        self.then_put: int | None = None  # who puts one in once the hand-overs are done
        self.streak = 0  # matching placements in a row this turn (three get the Count)
        self.next_turn: int | None = None  # whose turn starts once the Count is stood down
        self.gruft_rules: dict[str, str] = {}  # the expansion's readings (gruft_* options)

    # ------------------------------------------------------------------ protocol

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (see docs/conformance.md for the messages)."""
        cmd = msg.get("cmd")
        try:
            if cmd == "hello":
                return {"ok": True, "protocol": PROTOCOL, "engine": "dawn-under-ref",
                        "games": ["dawn-under"], "mutant": self.mutant,
                        "supports": {"dawn-under": {"presets": sorted(self.presets),
                                                    "players": [2, 3, 4, 5, 6],
                                                    "options": ({} if self.readings
                                                                else OPTION_VALUES),
                                                    "expansions": list(EXPANSIONS),
                                                    "names": True}}}
            if cmd == "new_game":
                try:
                    self.new_game(msg)
                except (KeyError, TypeError, ValueError, IndexError) as exc:
                    self.started = False
                    raise Bad(f"bad new_game request: {exc!r}") from None
                return {"ok": True}
            if cmd == "quit":
                return {"ok": True}
            if not self.started:
                raise Bad("no game started")
            if cmd == "legal_actions":
                return {"ok": True, "actions": self.legal()}
            if cmd == "apply":
                action = msg.get("action")
                if self.m("apply-without-check") and isinstance(action, str):
                    return self.apply_unchecked(action)
                if not isinstance(action, str) or action not in self.legal():
                    return {"ok": False, "error": "illegal", "reason": f"not legal: {action!r}"}
                self.apply(action)
                return {"ok": True}
            if cmd == "state":
                return {"ok": True, "state": self.public_state()}
            raise Bad(f"unknown command {cmd!r}")
        except NotSupported as exc:
            self.started = False
            return {"ok": False, "error": str(exc), "unsupported": True}
        except Bad as exc:
            return {"ok": False, "error": str(exc)}

    def apply_unchecked(self, action: str) -> dict[str, Any]:
        """The mutant ``apply-without-check``: trust the caller, only catch what breaks."""
        try:
            self.apply(action)
        except (IndexError, ValueError, TypeError, AttributeError, AssertionError, KeyError):
            return {"ok": False, "error": "illegal", "reason": "could not apply"}
        return {"ok": True}

    def new_game(self, msg: dict[str, Any]) -> None:
        if msg.get("game") != "dawn-under":
            raise Bad("this engine only plays dawn-under")
        setup = msg.get("setup")
        players = msg.get("players")
        if not isinstance(setup, dict) or not isinstance(players, int):
            raise Bad("new_game needs 'players' and an explicit 'setup'")
        given = msg.get("options") or {}
        preset = msg.get("preset", "du-en")
        if (preset not in self.presets or (players == 2) != (preset == "2p")
                or not 2 <= players <= 6):
            raise NotSupported(f"preset {preset!r} with {players} players is not supported by "
                               f"this engine (it plays {', '.join(self.presets)}; du-en and du-cs "
                               "with 3-6 players, 2p with 2)")
        unsupported = sorted(set(given) - SUPPORTED_OPTIONS)
        if unsupported:
            raise NotSupported(f"rule option {unsupported[0]!r} is not supported by this engine")
        expansion = msg.get("expansion", "none")
        if expansion != "none" and (expansion not in EXPANSIONS or players == 2):
            raise NotSupported(f"expansion {expansion!r} with {players} players is not "
                               "supported by this engine (it plays gruft with 3-6 players)")
        if self.m("ignores-expansion"):
            expansion = "none"
        if self.m("ignores-preset"):
            preset = "du-en"
        if self.m("ignores-option-after-match"):
            given = {k: v for k, v in given.items() if k != "after_match"}
        options = {**PRESETS[preset], **given, **self.readings}
        if self.m("2p-second-rat-finder") and preset == "2p":
            options["second_rat"] = "finder"
        if preset == "du-cs" and self.mutant in CS_MUTANT_KEEPS:
            name, value = CS_MUTANT_KEEPS[self.mutant]
            options[name] = value
        self.n = players
        self.after_match = str(options.get("after_match", "may-continue"))
        self.gift_trigger = str(options.get("gift_trigger", "third-stake"))
        self.receiver_chooses = str(options.get("receiver_chooses_end", "true")).lower() == "true"
        self.second_rat = str(options.get("second_rat", "finder"))
        self.empty_path = str(options.get("empty_path", "no-stake"))
        self.plague_round = str(options.get("plague_round", "one-round"))
        self.plague_occupied = str(options.get("plague_occupied", "continue"))
        self.turn_start = str(options.get("turn_start", "must-open"))
        self.lidless = str(options.get("lidless_grave", "unusable"))
        self.reopen = str(options.get("reopen_rule", "stake-and-end"))
        self.gruft_rules = {name: str(options.get(name, values[0]))
                            for name, values in OPTION_VALUES.items() if name.startswith("gruft_")}
        self.windows = [[] for _ in range(players)]
        self.barred = []
        self.lids = list(setup["lids"])
        if self.m("lids-shifted"):
            self.lids = self.lids[1:] + self.lids[:1]
        self.known = [False] * len(self.lids)
        self.contents = [None] * len(self.lids)
        names = setup.get("names") or [f"player {p}" for p in range(players)]
        if not isinstance(names, list) or len(names) != players:
            raise Bad("setup.names must name every player")
        self.names = [str(name) for name in names]
        dealt = list(setup["rows"])
        if self.m("seats-sorted-by-name"):
            # seats taken in alphabetical order of the names, not in the order given
            dealt = [dealt[p] for p in sorted(range(players), key=lambda p: self.names[p])]
        self.rows = []
        for colours in dealt:
            row = [[c, False] for c in colours]
            self.refill(row)
            self.rows.append(row)
        self.stakes = [0] * players
        self.path = STAKES
        self.garlic = [GARLIC] * players
        self.reserve = list(setup["reserve"])
        self.removed = 0
        self.turn = 0 if self.m("ignores-start-player") else int(setup.get("start_player", 0))
        self.phase = "open"
        self.may_stop = False
        self.pending = None
        self.plague = None
        self.gifts = []
        self.transit = None
        self.winner = None
        # gruft-en:prep.bats: two bats each; gruft-en:prep.count: the Count on the post in the
        # middle of the board.
        self.gruft = expansion == "gruft"
        self.bats = [2] * players if self.gruft else []
        self.open_graves = []
        self.count_grave = None
        self.post = None
        self.bat = None
        self.putter = None
        self.then_put = None
        self.streak = 0
        self.next_turn = None
        self.started = True

    # ------------------------------------------------------------------ helpers

    def m(self, name: str) -> bool:
        return self.mutant == name

    def left_of(self, player: int) -> int:
        step = -1 if self.m("counter-clockwise") else 1
        seats = 4 if self.m("four-seat-table") else self.n
        return (player + step) % seats

    def actor(self) -> int:
        """Who opens graves now: the plague's current player, else the turn player."""
        return self.plague["current"] if self.plague is not None else self.turn

    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase == "put":
            return self.putter
        if self.phase == "bat":
            return self.asked()
        if self.phase == "bat-gift":
            assert self.bat is not None
            return int(self.bat["owner"])
        if self.phase.startswith("count-"):
            return self.post
        if self.phase == "give":
            return self.gifts[0][0]
        if self.phase == "receive":
            giver, receiver = self.gifts[0]
            return receiver if self.receiver_chooses else giver
        return self.actor()

    def ends(self, row: list[list[Any]]) -> list[str]:
        if len(row) > 1 or self.m("single-vampire-two-ends"):
            return ["left", "right"]
        return ["left"]

    def refill(self, row: list[list[Any]]) -> None:
        """Keep two open vampires at each end; four or fewer are all open (rulebook)."""
        all_open = 5 if self.m("all-open-at-five") else ALL_OPEN_AT_MOST
        need = 1 if self.m("one-open-per-side") else OPEN_PER_SIDE
        if len(row) <= all_open:
            for v in row:
                v[1] = True
            return
        for order in (range(len(row)), range(len(row) - 1, -1, -1)):
            seen_open = 0
            for i in order:
                if row[i][1]:
                    seen_open += 1
                elif seen_open >= need:
                    break
                else:
                    row[i][1] = True
                    seen_open += 1

    def take_end(self, player: int, end: str, refill: bool = True) -> str:
        row = self.rows[player]
        vampire = row.pop(0) if end == "left" else row.pop()
        if refill:
            self.refill(row)
        return str(vampire[0])

    def usable(self, grave: int) -> bool:
        """A grave with a lid, or (2 players, lidless_grave=wild) without one."""
        if self.lids[grave] is not None or self.m("2p-lidless-openable"):
            return True
        return self.n == 2 and self.lidless == "wild"

    def closed(self) -> set[int]:
        """The expansion: graves left open this turn are not opened again, and nobody opens
        the grave Count Rucola keeps, not even in a plague."""
        if not self.gruft:
            return set()
        keep = self.plague is None or self.gruft_rules["gruft_plague_open"] == "stay-open"
        shut = set() if self.m("gruft-graves-closed-after-use") or not keep \
            else set(self.open_graves)
        if self.count_grave is not None and not (
                self.m("gruft-guard-ignored") and self.plague is None):
            shut.add(self.count_grave)
        return shut

    def openable(self) -> list[int]:
        shut = self.closed()
        if self.plague is None:
            barred = set(self.barred) if self.reopen == "forbidden" else set()
            return [g for g in range(len(self.lids)) if self.usable(g) and g not in barred
                    and g not in shut]
        origin = self.plague["origin"]
        if self.m("plague-opens-non-neighbours"):
            candidates = [g for g in range(len(self.lids)) if g != origin]
        else:
            candidates = self.neighbours[origin]
        return [g for g in candidates if self.usable(g) and g not in shut
                and (g not in self.plague["opened"] or self.m("reopen-in-plague"))]

    def matching(self, grave: int) -> list[str]:
        row = self.rows[self.actor()]
        lid = self.lids[grave]
        if not row or lid == "rat":
            return []
        if lid is None:
            return self.ends(row) if self.n == 2 and self.lidless == "wild" else []
        return [e for e in self.ends(row) if (row[0] if e == "left" else row[-1])[0] == lid]

    # ------------------------------------------------------------------ legal actions

    def legal(self) -> list[str]:
        if self.phase == "open":
            out = [f"open {g}" for g in self.openable()]
            if self.gruft and self.plague is None and (
                    self.bats[self.turn] > 0 or self.m("gruft-bats-reusable")):
                out += [f"bat {g}" for g in self.openable()]  # instead of opening a grave
            if (self.plague is not None or self.may_stop or self.m("stop-before-opening")
                    or self.turn_start == "may-pass"):
                out.append("stop")
            return out
        if self.phase == "place":
            grave = self.pending
            assert grave is not None
            ends = self.matching(grave)
            out = [f"place {e} {grave}" for e in ends]
            if ends and not self.m("placement-optional"):
                return out
            if self.garlic[self.actor()] > 0 or self.m("garlic-without-stock"):
                out.append(f"garlic {grave}")
            out.append(f"leave {grave}")
            return out
        if self.phase == "give":
            return [f"give {e}" for e in self.ends(self.rows[self.gifts[0][0]])]
        if self.phase == "receive":
            return [f"receive {e}" for e in self.ends(self.rows[self.gifts[0][1]])]
        return self.gruft_legal()

    # ------------------------------------------------------------------ transitions

    def apply(self, action: str) -> None:
        words = action.split()
        if words[0] == "open" and self.phase == "count-open":
            self.count_open()
        elif words[0] == "open":
            self.open_grave(int(words[1]))
        elif words[0] == "place" and self.phase == "put":
            self.put(words[1])
        elif words[0] == "place":
            self.place(int(words[2]), words[1])
        elif words[0] == "bat":
            self.play_bat(int(words[1]))
        elif words[0] in ("believe", "doubt"):
            self.answer_bat(words[0] == "doubt")
        elif words[0] == "gift":
            self.gift_to(int(words[1]))
        elif words[0] == "count":
            self.count_to(int(words[1]))
        elif words[0] in ("garlic", "leave"):
            self.no_match(int(words[1]), words[0] == "garlic")
        elif words[0] == "stop":
            self.stop()
        elif words[0] == "give":
            self.give(words[1])
        elif words[0] == "receive":
            self.receive(words[1])
        else:
            raise Bad(f"unknown action {action!r}")

    def open_grave(self, grave: int) -> None:
        player = self.actor()
        self.may_stop = False
        lid = self.lids[grave]
        if self.n == 2:
            self.windows[player].append(grave)
        if lid is not None:
            self.known[grave] = True
        if lid == "rat":
            self.rat_found(player, grave)
            return
        if self.gruft and self.plague is None and not self.m("gruft-graves-closed-after-use"):
            self.open_graves.append(grave)  # it stays open until the end of the turn
        if (self.plague is None and grave in self.barred
                and not self.m("2p-reopen-normal")):
            self.take_stake(player)  # opened again: a stake, the grave is not used
            return
        if self.plague is not None:
            self.plague["idle"] = 0
            if grave not in self.plague["opened"]:
                self.plague["opened"].append(grave)
        content = self.contents[grave]
        if content is None:
            self.phase = "place"
            self.pending = grave
        elif content.startswith("vampire"):
            self.take_stake(player)
        else:
            self.garlic_found(player, grave, int(content.split()[1]))

    def take_stake(self, player: int) -> None:
        self.streak = 0
        if self.path == 0:
            # Only reachable with gift_trigger=holding-three and 5-6 players; the model's
            # reading (option empty_path): no stake is taken, or the gift comes at once.
            if self.empty_path == "no-stake":
                self.after_resolution(occupied=True)
            else:
                self.path += self.stakes[player]
                self.stakes[player] = 0
                self.start_gifts([(g, player) for g in self.others(player)
                                  for _ in range(self.gift_count("stake"))])
            return
        self.stakes[player] += 1
        if not self.m("path-not-decremented"):
            self.path -= 1
        limit = STAKES_FOR_GIFT + (1 if self.m("gift-on-fourth-stake") else 0)
        held = self.stakes[player]
        due = held >= limit if self.gift_trigger == "third-stake" else held > limit
        if due:
            if not self.m("stakes-kept-after-gift"):
                self.path += held
                self.stakes[player] = 0
            self.start_gifts([(g, player) for g in self.others(player)
                              for _ in range(self.gift_count("stake"))])
            return
        if self.plague is not None and self.m("stake-ends-plague"):
            self.end_plague()
            return
        self.after_resolution(occupied=True)

    def others(self, player: int) -> list[int]:
        order = [(player + k) % self.n for k in range(1, self.n)]
        return order[::-1] if self.m("gifts-counter-clockwise") else order

    def garlic_found(self, player: int, grave: int, owner: int) -> None:
        self.streak = 0
        self.contents[grave] = None
        self.garlic[player if self.m("garlic-back-to-finder") else owner] += 1
        if owner == player:
            givers = self.others(player)
            if self.m("own-garlic-one-gift"):
                givers = givers[:1]
            self.start_gifts([(g, player) for g in givers
                              for _ in range(self.gift_count("own-garlic"))])
        elif self.m("garlic-owner-gives-two"):
            self.start_gifts([(owner, player), (owner, player)])
        else:
            self.start_gifts([(owner, player)] * self.gift_count("other-garlic"))

    def gift_count(self, why: str) -> int:
        """Vampires each giver hands over (2-player rules: more)."""
        if self.n != 2:
            return 1
        if (why == "stake" and self.m("2p-stake-gift-one")) or (
                why == "other-garlic" and self.m("2p-other-garlic-one")):
            return 1
        return TWO_PLAYER_GIFTS[why]

    def start_gifts(self, gifts: list[tuple[int, int]]) -> None:
        self.gifts = gifts
        self.phase = "give"
        self.pending = None

    def give(self, end: str) -> None:
        giver = self.gifts[0][0]
        self.transit = self.take_end(giver, end, refill=not self.m("no-refill-after-give"))
        self.phase = "receive"
        if not self.rows[giver]:
            self.win(giver)

    def receive(self, end: str) -> None:
        receiver = self.gifts[0][1]
        vampire: list[Any] = [self.transit, not self.m("received-face-down")]
        if end == "left":
            self.rows[receiver].insert(0, vampire)
        else:
            self.rows[receiver].append(vampire)
        self.transit = None
        self.gifts.pop(0)
        if self.gifts:
            self.phase = "give"
        elif self.then_put is not None:  # the expansion: a vampire goes into the grave now
            self.put_by(self.then_put)
            self.then_put = None
        else:
            self.after_resolution(occupied=True)

    def place(self, grave: int, end: str) -> None:
        player = self.actor()
        colour = self.take_end(player, end)
        self.contents[grave] = f"vampire {colour}"
        self.pending = None
        if not self.rows[player]:
            self.win(player)
            return
        if self.gruft:
            self.count_placement(player)
        if self.plague is not None:
            self.continue_plague()
        elif self.after_match == "turn-ends" or self.m("turn-passes-after-placement"):
            self.end_turn()
        else:
            self.phase = "open"
            self.may_stop = True

    def no_match(self, grave: int, garlic: bool) -> None:
        self.streak = 0
        if garlic:
            player = self.actor()
            self.contents[grave] = f"garlic {player}"
            self.garlic[player] -= 1
        self.pending = None
        self.after_resolution()

    def after_resolution(self, occupied: bool = False) -> None:
        if self.plague is not None:
            if occupied and self.plague_occupied == "pass":
                if not self.openable():  # nothing left to open: the plague is over
                    self.end_plague()
                    return
                self.phase = "open"
                self.stop()
                return
            self.continue_plague()
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.next_turn_of(self.left_of(self.turn))

    def next_turn_of(self, player: int) -> None:
        """The turn passes to ``player``; with the expansion the open graves close, and a
        holder of the Count who has not stood it on a grave does so first."""
        if self.gruft:
            self.open_graves = []
            self.bat = None
            if self.post is not None and self.count_grave is None and (
                    self.post != player or self.gruft_rules["gruft_lost_place"] == "at-once"):
                self.phase = "count-place"
                self.pending = None
                self.may_stop = False
                self.next_turn = player
                return
        self.start_turn(player)

    def start_turn(self, player: int) -> None:
        """A new turn; with 2 players the graves the opponent opened after this player's own
        opening of them are barred for the turn."""
        self.turn = player
        self.phase = "open"
        self.may_stop = False
        self.pending = None
        if self.n == 2:
            mine = set(self.windows[player])
            self.barred = sorted(g for g in set(self.windows[1 - player]) if g in mine)
            self.windows[player] = []
        if self.gruft:
            self.open_graves = []
            self.streak = 0
            self.next_turn = None
            if self.post == player and self.count_grave is not None:
                self.phase = "count-open"  # the turn starts at the Count's grave

    def stop(self) -> None:
        if self.plague is None:
            self.end_turn()
            return
        self.streak = 0
        rounds = self.n - 1 if self.m("plague-short-round") else self.n
        self.plague["idle"] += 1
        count = self.plague["turns"] if self.plague_round == "one-round" else self.plague["idle"]
        if count >= rounds:
            self.end_plague()
            return
        self.plague["current"] = self.left_of(self.plague["current"])
        self.plague["turns"] += 1
        self.phase = "open"

    def continue_plague(self) -> None:
        if not self.openable():
            self.end_plague()
        else:
            self.phase = "open"
            self.pending = None

    def close_plague(self, new_rat: bool = False) -> None:
        """The rat lid leaves play and the reserve's top lid covers its grave, unseen (at the
        plague's end, or when a new rat ends it)."""
        assert self.plague is not None
        origin = self.plague["origin"]
        # (the mutant rat-grave-not-relidded breaks the end of a plague only, du-en:ch4.cleanup;
        # the clean-up when a new rat ends it is du-en:ch5.cleanup's, kept right)
        forgets = self.m("rat-grave-not-relidded") and not new_rat
        if not self.m("rat-lid-replaced-at-once") and not forgets:
            self.lids[origin] = self.reserve.pop(0)
            self.known[origin] = False
        self.removed += 1
        self.plague = None

    def end_plague(self) -> None:
        assert self.plague is not None
        holder, last = self.plague["holder"], self.plague["current"]
        self.close_plague()
        self.next_turn_of(self.left_of(last if self.m("plague-turn-after-last-passer")
                                       else holder))

    def rat_found(self, finder: int, grave: int) -> None:
        self.streak = 0
        holder = finder
        old = self.plague
        if old is not None:
            self.close_plague(new_rat=True)
            if self.second_rat == "finder":
                if finder == old["holder"] and not self.m("second-rat-no-hand-over"):
                    holder = self.left_of(finder)
            elif self.second_rat == "opponent":
                holder = self.left_of(finder)
            else:
                holder = self.left_of(old["holder"])
        if self.n == 2 and not self.m("2p-rat-lid-removed"):
            pass  # the 2-player rules: the rat lid stays face up on its grave
        elif self.m("rat-lid-replaced-at-once"):
            self.lids[grave] = self.reserve.pop(0)
            self.known[grave] = False
        else:
            self.lids[grave] = None
            self.known[grave] = False
        self.plague = {"origin": grave, "holder": holder, "current": holder, "turns": 1,
                       "opened": [], "idle": 0}
        self.turn = holder
        self.continue_plague()

    def win(self, player: int) -> None:
        self.phase = "over"
        self.winner = player
        self.gifts = []
        self.pending = None

    # ------------------------------------------------------------------ the expansion

    def seats_after(self, player: int) -> list[int]:
        """The other players clockwise, starting at the left neighbour."""
        return [(player + k) % self.n for k in range(1, self.n)]

    def asked(self) -> int:
        """The player who answers the bat next: the others in turn, from the owner's left."""
        assert self.bat is not None
        return self.seats_after(int(self.bat["owner"]))[len(self.bat["believed"])]

    def count_graves(self) -> list[int]:
        """Graves the Count may stand on: closed ones with a lid (chosen without looking);
        moving on, only those of the next quarter clockwise."""
        shut = set(self.open_graves)
        if self.count_grave is not None:
            shut.add(self.count_grave)
        graves = [g for g in range(len(self.lids)) if self.lids[g] is not None
                  and g not in shut]
        if self.phase == "count-move" and not self.m("gruft-count-moves-anywhere"):
            assert self.pending is not None
            quarter = (self.quarter_of[self.pending] + 1) % self.quarters
            graves = [g for g in graves if self.quarter_of[g] == quarter]
        if self.gruft_rules["gruft_count_choice"] == "empty-only":
            return [g for g in graves if self.contents[g] is None] or graves
        return graves

    def gruft_legal(self) -> list[str]:
        if self.phase == "count-open":
            return [f"open {self.count_grave}"]
        if self.phase in ("count-place", "count-move"):
            return [f"count {g}" for g in self.count_graves()]
        if self.phase == "bat":
            return ["believe", "doubt"]
        if self.phase == "bat-gift":
            assert self.bat is not None
            return [f"gift {p}" for p in self.seats_after(int(self.bat["owner"]))]
        if self.phase == "put":
            assert self.putter is not None
            return [f"place {e} {self.pending}" for e in self.ends(self.rows[self.putter])]
        return []

    def count_placement(self, player: int) -> None:
        """Three vampires placed in one's own turn get the Count (onto the post in front of
        the player, who goes on)."""
        self.streak += 1
        needed = 4 if self.m("gruft-count-on-fourth") else 3
        own_turn = self.plague is None or self.gruft_rules["gruft_three"] == "in-a-row"
        if self.streak == needed and own_turn and self.post != player:
            self.post = player
            self.count_grave = None

    def put_by(self, player: int) -> None:
        """``player`` puts an outermost vampire into ``pending``, whatever its colour."""
        self.phase = "put"
        self.putter = player

    def put(self, end: str) -> None:
        player = self.putter
        grave = self.pending
        assert player is not None and grave is not None
        colour = self.take_end(player, end)
        self.contents[grave] = f"vampire {colour}"
        self.putter = None
        if not self.rows[player]:
            self.win(player)
            return
        if self.bat is not None:  # a bat's grave: the turn is over
            if (self.gruft_rules["gruft_bat_counts"] == "any-placement"
                    and player == self.turn):
                self.count_placement(player)
            if self.m("gruft-bat-turn-continues"):
                self.bat = None
                self.pending = None
                self.phase = "open"
                self.may_stop = True
                return
            self.bat = None
            self.pending = None
            self.end_turn()
            return
        # the Count's grave is closed once its vampire is in (its lid was never turned)
        self.open_graves = [g for g in self.open_graves if g != grave]
        self.phase = "count-move"  # the Count moves on to the next quarter

    def play_bat(self, grave: int) -> None:
        """A bat on ``grave`` instead of opening one: "this grave is empty"."""
        owner = self.turn
        self.bats[owner] -= 1
        self.bat = {"grave": grave, "owner": owner, "believed": []}
        self.phase = "bat"
        self.may_stop = False
        self.pending = None

    def answer_bat(self, doubt: bool) -> None:
        """The asked player believes or doubts; the first doubt, or the last belief, opens
        the grave (its lid is not turned) and the bat goes back into the box."""
        bat = self.bat
        assert bat is not None
        asked = self.asked()
        if not doubt:
            bat["believed"].append(asked)
            if len(bat["believed"]) < self.n - 1:
                return
        grave, owner = int(bat["grave"]), int(bat["owner"])
        content = self.contents[grave]
        self.pending = grave
        self.open_graves.append(grave)
        if content is None:
            if not doubt or self.path == 0 or self.m("gruft-doubter-no-stake"):
                self.put_by(owner)
                return
            # the doubter was wrong: a stake for them (a third brings the gift), then the
            # bat's owner puts a vampire in
            self.stakes[asked] += 1
            self.path -= 1
            held = self.stakes[asked]
            due = held >= STAKES_FOR_GIFT if self.gift_trigger == "third-stake" \
                else held > STAKES_FOR_GIFT
            if due:
                self.path += held
                self.stakes[asked] = 0
                self.gifts = [(g, asked) for g in self.others(asked)
                              for _ in range(self.gift_count("stake"))]
                self.phase = "give"
                self.then_put = owner
                return
            self.put_by(owner)
            return
        if content.startswith("vampire"):
            self.contents[grave] = None
            self.transit = content.split()[1]
            if not doubt:
                self.phase = "bat-gift"  # the owner gives it to any other player
                return
            # the doubter was right: the owner gets it, then the doubter puts one in
            receiver = asked if self.m("gruft-doubted-vampire-to-doubter") else owner
            self.gifts = [(owner, receiver)]
            self.phase = "receive"
            self.then_put = asked
            return
        garlic_owner = int(content.split()[1])
        self.contents[grave] = None
        self.garlic[garlic_owner] += 1
        if not doubt:
            self.put_by(owner)  # a perfect bluff: no reward, the owner puts a vampire in
            return
        if garlic_owner == owner:
            self.gifts = [(g, owner) for g in self.others(owner)
                          for _ in range(self.gift_count("own-garlic"))]
        else:
            self.gifts = [(garlic_owner, owner)] * self.gift_count("other-garlic")
        self.phase = "give"
        self.then_put = asked

    def gift_to(self, player: int) -> None:
        """The vampire found under a believed bat goes to ``player``."""
        assert self.bat is not None
        owner = int(self.bat["owner"])
        self.gifts = [(owner, player)]
        self.phase = "receive"
        self.then_put = owner

    def count_open(self) -> None:
        """The holder's turn starts at the Count's grave (the lid is not turned)."""
        grave, holder = self.count_grave, self.post
        assert grave is not None and holder is not None
        self.open_graves.append(grave)
        content = self.contents[grave]
        if content is not None and content.startswith("garlic"):
            self.contents[grave] = None  # the garlic goes home; the grave counts as occupied
            self.garlic[int(content.split()[1])] += 1
            if self.gruft_rules["gruft_garlic"] == "empty":
                content = None  # reading: then it is empty, and a vampire goes in
        if content is None:
            self.pending = grave
            self.put_by(holder)
            return
        # occupied: no penalty, the Count and the post go to the left neighbour, turn over
        self.post = self.left_of(holder)
        self.count_grave = None
        self.end_turn()

    def count_to(self, grave: int) -> None:
        """The Count stands on ``grave``: after the turn (count-place) or moving on."""
        self.count_grave = grave
        if self.phase == "count-move":
            self.phase = "open"
            self.may_stop = True
            self.pending = None
            return
        player = self.next_turn
        assert player is not None
        self.next_turn = None
        self.start_turn(player)

    # ------------------------------------------------------------------ public state

    def public_state(self) -> dict[str, Any]:
        def lid(g: int) -> str | None:
            value = self.lids[g]
            if value is None:
                return None
            return value if self.known[g] else "?"

        plague = None
        if self.plague is not None:
            plague = {k: (list(v) if isinstance(v, list) else v) for k, v in self.plague.items()
                      if k != "idle"}
        return {
            "phase": self.phase,
            "to_move": self.to_move(),
            "turn_player": self.turn,
            "may_stop": self.may_stop,
            "pending": self.pending,
            "lids": [lid(g) for g in range(len(self.lids))],
            "contents": list(self.contents),
            "rows": [[v[0] if v[1] else "?" for v in row] for row in self.rows],
            "stakes_held": list(self.stakes),
            "stakes_path": self.path,
            "garlic_hand": list(self.garlic),
            "reserve_size": len(self.reserve),
            "removed_rats": self.removed,
            "plague": plague,
            "gifts": [[g, r] for g, r in self.gifts],
            "in_transit": self.transit,
            "winner": self.winner,
            **({"gruft": {"bats": list(self.bats), "open_graves": list(self.open_graves),
                          "count_grave": self.count_grave, "post": self.post,
                          "bat": None if self.bat is None else {
                              "grave": self.bat["grave"], "owner": self.bat["owner"],
                              "believed": list(self.bat["believed"])}}}
               if self.gruft else {}),
        }


def serve(engine: DawnUnderEngine, fault: str | None, fault_at: int) -> int:
    """The subprocess loop: one JSON request per stdin line, one JSON answer per stdout line."""
    applies = 0
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            print(json.dumps({"ok": False, "error": "request is not JSON"}), flush=True)
            continue
        if not isinstance(msg, dict):
            print(json.dumps({"ok": False, "error": "request is not an object"}), flush=True)
            continue
        if msg.get("cmd") == "new_game" and fault == "hang-new-game":
            time.sleep(3600)
        if msg.get("cmd") == "apply":
            applies += 1
            if fault == "slow":
                time.sleep(1.0)
            if fault is not None and applies >= fault_at:
                if fault == "crash":
                    raise RuntimeError("simulated crash in the engine")
                if fault == "fork-crash":
                    for _ in range(3):
                        if os.fork() == 0:  # children keep stdout open and sleep
                            time.sleep(3600)
                            os._exit(0)
                    print("simulated crash after forking", file=sys.stderr, flush=True)
                    os._exit(3)
                if fault == "exit-clean":
                    sys.exit(0)
                if fault == "extra-answer":  # both lines in one write (a few bytes, atomic
                    # on a pipe): the harness reads them together, whatever the scheduling
                    sys.stdout.write(json.dumps(engine.handle(msg)) + "\n"
                                     + json.dumps({"ok": True}) + "\n")
                    sys.stdout.flush()
                    continue
                if fault == "hang":
                    time.sleep(3600)
                if fault == "garbage":
                    print("<html>this is not JSON</html>", flush=True)
                    continue
                if fault == "flood":
                    sys.stdout.write("x" * (4 << 20))
                    sys.stdout.flush()
                    continue
        print(json.dumps(engine.handle(msg)), flush=True)
        if msg.get("cmd") == "quit":
            return 0
    return 0


def mutant_listing() -> str:
    """``--list-mutants``: one line per name ``--mutant`` takes, ``NAME: what it breaks``; the
    set-up bugs (``SETUP_BUGS``) too, marked ``set-up bug``, with the set-up field whose
    variation shows them."""
    lines = [f"{name}: {what}" for name, what in MUTANTS.items()]
    lines += [f"{name}: set-up bug: {what}" for name, what in SETUP_BUGS.items()]
    return "".join(line + "\n" for line in lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mutant", choices=sorted({*MUTANTS, *SETUP_BUGS}))
    parser.add_argument("--list-mutants", action="store_true")
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--fault-at", type=int, default=1)
    parser.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE",
                        help="play this reading of a rule option whatever new_game says, and "
                             "declare no options (a planted variant for conform --identify)")
    parser.add_argument("--presets", default=",".join(PRESETS),
                        help="comma-separated presets to play (others are declined)")
    args = parser.parse_args(argv)
    if args.list_mutants:
        print(mutant_listing(), end="")
        return 0
    presets = tuple(p for p in args.presets.split(",") if p in PRESETS)
    readings = dict(r.split("=", 1) for r in args.reading if "=" in r)
    return serve(DawnUnderEngine(args.mutant, presets=presets, readings=readings), args.fault,
                 args.fault_at)


if __name__ == "__main__":
    sys.exit(main())
