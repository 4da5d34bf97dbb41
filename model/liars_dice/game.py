"""Liar's Dice on the one game interface (:class:`ruleproof.model.api.GameBase`).

Ids: chance outcomes ``0..sides-1`` the face rolled minus one; player actions: every bid
``bid quantity-face`` (quantities 1..players*dice, faces 1..sides), numbered quantity-major
(``order = quantity``: id ``(q-1)*sides + f-1``, OpenSpiel's ``reset-face``) or face-major
(``order = face``: id ``(f-1)*total + q-1``, OpenSpiel's ``reset-quantity``), then ``liar``
(id ``total*sides``), then ``spot-on`` when the variant is played. The numbering is a
parameter of its own, so any reading can be driven with either of OpenSpiel's tables.

Information (ld-wp:round.roll): a seat sees its own dice, every bid and call, the dice each
seat holds, and every die once a call reveals them (ld-wp:challenge.count). Observation
string: ``p<seat> dice <own dice, sorted> cups <dice per seat> bids <this round's bids>``
(plus ``last <the last showdown>`` after a round has ended); the seat and the dice are
private. Tensor: the seat (players), the own dice one-hot per die sorted (dice*sides), the
dice per seat (players*(dice+1)), this round's bids and calls as bits (total*sides + 2): all
public but the first two sections. The information state is the chain of what each node
showed (own rolls, the others' rolls as ``?``, every action, the dice a call revealed): perfect
recall, its tensor offered.

>>> g = LiarsDiceGame(Rules(players=2, dice=1, sides=2, rounds="one"))
>>> s = g.new_initial_state().apply(0).apply(1)     # P1 rolls a one, P2 a two
>>> [g.action_to_string(0, a) for a in s.legal_actions()]
['bid 1-1', 'bid 2-1', 'bid 1-2', 'bid 2-2']
>>> s = s.apply(3).apply(4)                          # "two twos" (id 3), liar (id 4)
>>> s.returns()
[1.0, -1.0]
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE, ActionTable, GameBase, GameState, Node, Section
from ruleproof.model.liars_dice.rules import (
    LIAR,
    ORDERS,
    SPOT,
    Bid,
    Call,
    Roll,
    Rules,
    Table,
    act,
    chance,
    legal,
    returns,
    roll,
    to_move,
    winner,
)

GAME_NAME = "liars-dice"


def bid_order(r: Rules, order: str) -> list[Bid]:
    """The bids in action-id order (see the module docstring)."""
    if order == "quantity":
        return [Bid(q, f) for q in range(1, r.total + 1) for f in range(1, r.sides + 1)]
    return [Bid(q, f) for f in range(1, r.sides + 1) for q in range(1, r.total + 1)]


class LiarsDiceGame(GameBase[Table]):
    """Liar's Dice under the rules ``rules`` with the action numbering ``order``.

    Raises:
        MalformedInput: an unknown ``order``, a ``max_moves`` that is not a positive whole
            number.
    """

    name = GAME_NAME
    over_clauses = ("ld-wp:end.last",)
    chance_clauses = ("ld-wp:round.roll",)
    chance_refused = "no die is to roll"

    def __init__(self, rules: Rules | None = None, order: str | None = None,
                 max_moves: int | None = None) -> None:
        self.rules = rules or Rules()
        r = self.rules
        self.order = order or ("face" if r.raise_rule == "face" else "quantity")
        if self.order not in ORDERS:
            raise MalformedInput(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
        rounds = 1 if r.rounds == "one" else r.total - 1
        self.natural_moves = rounds * (r.total * r.sides + 1)
        if max_moves is None:
            max_moves = self.natural_moves
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.max_moves = max_moves
        self.num_players = r.players
        calls: list[Bid | Call] = [LIAR, SPOT] if r.spot_on == "yes" else [LIAR]
        self.table: ActionTable[Bid | Call] = ActionTable([*bid_order(r, self.order), *calls],
                                                          GAME_NAME)
        self.chance_table: ActionTable[Roll] = ActionTable(
            [Roll(f) for f in range(1, r.sides + 1)], GAME_NAME + " chance")
        n = r.players
        if r.rounds == "one":
            self.min_utility, self.max_utility = -1.0, 1.0 / (n - 1)
        else:
            self.min_utility, self.max_utility = -1.0 / (n - 1), 1.0

    # -- hooks --------------------------------------------------------------------------------
    def initial_model(self) -> Table:
        return Table.start(self.rules)

    def seeded_model(self, seed: int) -> Table:
        """The first round rolled by ``random.Random(seed)``: seat by seat, die by die,
        ``randint(1, sides)``."""
        rng = random.Random(seed)
        t = Table.start(self.rules)
        while to_move(self.rules, t) == CHANCE:
            t = roll(self.rules, t, rng.randint(1, self.rules.sides))
        return t

    def model_to_move(self, m: Table) -> int:
        return to_move(self.rules, m)

    def model_legal(self, m: Table) -> tuple[Bid | Call, ...]:
        return legal(self.rules, m)

    def model_chance(self, m: Table) -> list[tuple[Roll, Fraction]]:
        return chance(self.rules, m)

    def model_step(self, m: Table, action: Any) -> tuple[Table, Any]:
        """The successor and what the step showed: the seat that rolled (only it sees the
        die, ld-wp:round.roll), the dice a call revealed (ld-wp:challenge.count), or nothing
        (a bid is seen by everybody)."""
        if isinstance(action, Roll):
            from ruleproof.model.liars_dice.rules import rolling

            seat = rolling(m)
            return roll(self.rules, m, action.face), (seat,)
        nxt = act(self.rules, m, action)
        if isinstance(action, Call):
            return nxt, tuple(tuple(sorted(c)) for c in m.rolled)
        return nxt, ()

    def model_winner(self, m: Table) -> int | None:
        return winner(self.rules, m)

    def model_returns(self, m: Table) -> list[float]:
        return returns(self.rules, m)

    @property
    def params(self) -> dict[str, Any]:
        r = self.rules
        return {"players": r.players, "dice": r.dice, "sides": r.sides, "order": self.order,
                "options": {**r.options, "dice": str(r.dice), "sides": str(r.sides),
                            "order": self.order},
                "max_moves": self.max_moves}

    @property
    def max_chance_nodes(self) -> int:
        t = self.rules.total
        return t if self.rules.rounds == "one" else t * (t + 1) // 2 - 1

    # -- the observer -------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        r = self.rules
        return r.players + r.dice * r.sides + r.players * (r.dice + 1) + r.total * r.sides + 2

    def _bids(self, m: Table) -> str:
        return " ".join(f"{b.quantity}-{b.face}" for _p, b in m.bids) or "-"

    def _last(self, m: Table) -> str:
        if not m.ended:
            return ""
        s = m.ended[-1]
        dice = " ".join("".join(map(str, sorted(c))) or "-" for c in s.dice)
        return (f" last p{s.caller} {s.call} on p{s.bidder} {s.bid.quantity}-{s.bid.face}: "
                f"dice {dice} count "
                f"{s.count} loser p{s.loser}")

    def observation_string(self, state: GameState, player: int) -> str:
        """``p<seat> dice <own> cups <counts> bids <bids>`` (see the module docstring)."""
        return (self.private_observation_string(state, player) + " " +
                self.public_observation_string(state))

    def information_state_text(self, state: GameState, player: int) -> str:
        """The seat, then what each node showed it."""
        return super().information_state_text(state, player)

    def observation_sections(self) -> tuple[Section, ...]:
        """The seat and the own dice are private; the cups and the bids public."""
        r = self.rules
        return (Section("seat", r.players, True), Section("dice", r.dice * r.sides, True),
                Section("cups", r.players * (r.dice + 1)),
                Section("bids", r.total * r.sides + 2))

    def public_observation_string(self, state: GameState) -> str:
        """``cups <dice per seat> bids <this round's bids>`` and the last showdown."""
        m: Table = state.model
        return (f"cups {' '.join(map(str, m.cups))} bids {self._bids(m)}" + self._last(m))

    def private_observation_string(self, state: GameState, player: int) -> str:
        """``p<seat> dice <own dice rolled so far, sorted>``."""
        m: Table = state.model
        return f"p{player} dice {''.join(map(str, sorted(m.rolled[player]))) or '-'}"

    def node_view(self, node: Node, player: int) -> tuple[str, str]:
        """A roll shows its face to the roller only (ld-wp:round.roll); a bid is public; a
        call shows every die (ld-wp:challenge.count)."""
        if node.actor == CHANCE:
            seat = node.seen[0]
            return (f"roll p{seat}", str(node.action_id + 1) if seat == player else "")
        action = self.table.from_id(node.action_id)
        text = f"p{node.actor} {action}"
        if isinstance(action, Call):
            text += " dice " + " ".join("".join(map(str, c)) or "-" for c in node.seen)
        return (text, "")

    @property
    def recall_width(self) -> int:  # type: ignore[override]
        """Codes of a node: the own roll's face (sides), another seat's roll (1), an action
        (the table), a revealed die per seat and die (players*dice*sides)."""
        r = self.rules
        return r.sides + 1 + len(self.table) + r.players * r.dice * r.sides

    def recall_indices(self, node: Node, player: int) -> list[int]:
        r = self.rules
        if node.actor == CHANCE:
            return [node.action_id] if node.seen[0] == player else [r.sides]
        out = [r.sides + 1 + node.action_id]
        if isinstance(self.table.from_id(node.action_id), Call):
            base = r.sides + 1 + len(self.table)
            for p, cup in enumerate(node.seen):
                out += [base + (p * r.dice + i) * r.sides + d - 1 for i, d in enumerate(cup)]
        return out

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        r = self.rules
        m: Table = state.model
        out = [player]
        base = r.players
        out += [base + i * r.sides + d - 1 for i, d in enumerate(sorted(m.rolled[player]))]
        base += r.dice * r.sides
        out += [base + p * (r.dice + 1) + n for p, n in enumerate(m.cups)]
        base += r.players * (r.dice + 1)
        bids = sorted({self.table.to_id(b) for _p, b in m.bids})
        out += [base + i for i in bids]
        return out

    def state_repr(self, state: GameState) -> str:
        m: Table = state.model
        dice = " ".join("".join(map(str, c)) or "-" for c in m.rolled)
        return f"<liars-dice cups {m.cups} dice {dice} bids {self._bids(m)}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (LiarsDiceGame, (self.rules, self.order, self.max_moves))


__all__ = ["GAME_NAME", "LiarsDiceGame", "bid_order"]
