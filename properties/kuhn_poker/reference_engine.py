#!/usr/bin/env python3
"""A small Kuhn poker engine written plainly from the rules (kuhn-wp), speaking ruleproof's
engine protocol (JSON Lines over stdin/stdout, docs/conformance.md section 3). It imports
nothing from ruleproof: it is the independent implementation ``conform`` checks the model
against in the worked example (docs/add-a-game.md), and ``--mutant NAME`` plants one rule bug
(``--list-mutants``) so the check can be seen to bite.

Usage: ``python reference_engine.py [--mutant NAME]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

RANKS = ["J", "Q", "K"]
MUTANTS = {
    "fold-wins": "a player who folds takes the pot",
    "call-pays-one": "a called bet wins only one chip",
    "second-acts-first": "the second player acts first",
    "no-bet-after-pass": "after a pass the other player may only pass",
}


class Hand:
    """One hand, mutable, its own data structures."""

    def __init__(self, cards: list[int], mutant: str | None) -> None:
        self.cards = cards
        self.moves: list[str] = []
        self.mutant = mutant

    def finished(self) -> bool:
        m = self.moves
        if len(m) < 2:
            return False
        if m[-1] == "pass":
            return True  # two passes, or a fold
        return m[-2] == "bet" or "bet" in m[:-1]

    def to_move(self) -> int | None:
        if self.finished():
            return None
        first = 1 if self.mutant == "second-acts-first" else 0
        return (first + len(self.moves)) % 2

    def legal(self) -> list[str]:
        if self.finished():
            return []
        if self.mutant == "no-bet-after-pass" and self.moves == ["pass"]:
            return ["pass"]
        return ["pass", "bet"]

    def put_in(self) -> list[int]:
        chips = [1, 1]
        first = 1 if self.mutant == "second-acts-first" else 0
        for i, m in enumerate(self.moves):
            if m == "bet":
                chips[(first + i) % 2] += 1
        return chips

    def winner(self) -> int | None:
        if not self.finished():
            return None
        first = 1 if self.mutant == "second-acts-first" else 0
        m = self.moves
        if m[-1] == "pass" and "bet" in m:
            folder = (first + len(m) - 1) % 2
            return folder if self.mutant == "fold-wins" else 1 - folder
        return 0 if self.cards[0] > self.cards[1] else 1

    def shown(self) -> list[str]:
        """Both cards after a showdown (two passes, or a called bet); none after a fold."""
        if not self.finished() or (self.moves[-1] == "pass" and "bet" in self.moves):
            return []
        return [RANKS[c] for c in self.cards]

    def state(self) -> dict[str, Any]:
        w = self.winner()
        won = None
        if w is not None:
            won = self.put_in()[1 - w]
            if self.mutant == "call-pays-one":
                won = 1
        return {"to_move": self.to_move(), "moves": list(self.moves), "pot": self.put_in(),
                "winner": w, "won": won, "shown": self.shown()}


def handle(hand: Hand | None, request: dict[str, Any], mutant: str | None
           ) -> tuple[Hand | None, dict[str, Any]]:
    cmd = request.get("cmd")
    if cmd == "hello":
        return hand, {"ok": True, "protocol": 1,
                      "supports": {"kuhn-poker": {"presets": ["kuhn-wp"], "players": [2],
                                                  "options": {}}}}
    if cmd == "new_game":
        if request.get("game") != "kuhn-poker" or request.get("players") != 2:
            return hand, {"ok": False, "error": "this engine plays 2-player Kuhn poker only",
                          "unsupported": True}
        cards = [RANKS.index(c) for c in request.get("setup", {}).get("cards", [])]
        if len(cards) != 2 or cards[0] == cards[1]:
            return hand, {"ok": False, "error": "the set-up must deal two different cards"}
        return Hand(cards, mutant), {"ok": True}
    if hand is None:
        return hand, {"ok": False, "error": "no game"}
    if cmd == "legal_actions":
        return hand, {"ok": True, "actions": hand.legal()}
    if cmd == "apply":
        action = request.get("action")
        if action not in hand.legal():
            return hand, {"ok": False, "error": "illegal", "reason": f"{action} is not allowed now"}
        hand.moves.append(str(action))
        return hand, {"ok": True}
    if cmd == "state":
        return hand, {"ok": True, "state": hand.state()}
    if cmd == "observation":
        p = int(request.get("player", 0))
        return hand, {"ok": True, "observation": {"player": p, "card": RANKS[hand.cards[p]],
                                                  **hand.state()}}
    if cmd == "quit":
        return hand, {"ok": True}
    return hand, {"ok": False, "error": f"unknown command {cmd!r}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mutant", choices=sorted(MUTANTS))
    parser.add_argument("--list-mutants", action="store_true")
    args = parser.parse_args(argv)
    if args.list_mutants:
        for name, what in MUTANTS.items():
            print(f"{name}: {what}")
        return 0
    hand: Hand | None = None
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            print(json.dumps({"ok": False, "error": "not JSON"}), flush=True)
            continue
        hand, answer = handle(hand, request, args.mutant)
        print(json.dumps(answer), flush=True)
        if request.get("cmd") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
