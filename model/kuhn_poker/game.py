"""Kuhn poker on the one game interface (:class:`ruleproof.model.api.GameBase`).

The worked example of docs/add-a-game.md: the hooks of :class:`~ruleproof.model.api.GameBase`
over the pure rules of :mod:`ruleproof.model.kuhn_poker.rules`, nothing else.

Ids: player actions ``0`` pass, ``1`` bet; chance outcomes ``0..2`` the card dealt (jack, queen,
king), as OpenSpiel's ``kuhn_poker`` numbers them. Returns: chips won or lost
(kuhn-wp:rules.payoff), so ``+-1`` or ``+-2``; the game always ends within three decisions.

Information (kuhn-wp:rules.deal): a player sees their own card and every move; the other card
only stays hidden. The observation string is ``seat P card X moves ...``: the seat and the card
are private (:meth:`KuhnPokerGame.private_observation_string`), the moves public. Tensor
(length 11): the observer's seat (2) and its card (3), both private, then the moves so far
(public), each as pass/bet (2 per decision, 3 decisions). The information state is the chain of
what each node showed the seat (its own card dealt, the other card as ``?``, every move), so it
has perfect recall; its tensor is offered (a hand has at most five nodes).

>>> g = KuhnPokerGame()
>>> s = g.new_initial_state()
>>> s.chance_outcomes()
[(0, Fraction(1, 3)), (1, Fraction(1, 3)), (2, Fraction(1, 3))]
>>> s = s.apply(2).apply(0).apply(1).apply(1)   # K vs J, bet, call
>>> s.is_terminal(), s.returns()
(True, [2.0, -2.0])
>>> s.observation_string(1)
'seat 1 card J moves bet bet'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE, ActionTable, GameBase, GameState, Node, Section
from ruleproof.model.kuhn_poker.rules import (
    RANKS,
    Card,
    Hand,
    Move,
    act,
    chance,
    deal,
    legal,
    returns,
    to_move,
    winner,
)

GAME_NAME = "kuhn-poker"
MAX_DECISIONS = 3


class KuhnPokerGame(GameBase[Hand]):
    """Kuhn poker (two players, no parameters but the truncation bound, which never bites).

    Raises:
        MalformedInput: a ``max_moves`` that is not a positive whole number.
    """

    name = GAME_NAME
    over_clauses = ("kuhn-wp:rules.showdown",)
    chance_clauses = ("kuhn-wp:rules.deal",)
    chance_refused = "that card is not left to deal"
    min_utility = -2.0
    max_utility = 2.0

    def __init__(self, max_moves: int = MAX_DECISIONS) -> None:
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.max_moves = max_moves
        self.num_players = 2
        self.table: ActionTable[Move] = ActionTable([Move.PASS, Move.BET], GAME_NAME)
        self.chance_table: ActionTable[Card] = ActionTable(
            [Card(r) for r in range(len(RANKS))], GAME_NAME + " chance")

    # -- hooks --------------------------------------------------------------------------------
    def initial_model(self) -> Hand:
        return Hand()

    def seeded_model(self, seed: int) -> Hand:
        """The deal a seeded shuffle gives: the first two cards of ``random.Random(seed)``'s
        shuffle of the deck."""
        import random

        deck = list(range(len(RANKS)))
        random.Random(seed).shuffle(deck)
        return Hand((deck[0], deck[1]))

    def model_to_move(self, m: Hand) -> int:
        return to_move(m)

    def model_legal(self, m: Hand) -> tuple[Move, ...]:
        return legal(m)

    def model_chance(self, m: Hand) -> list[tuple[Card, Fraction]]:
        return chance(m)

    def model_step(self, m: Hand, action: Any) -> tuple[Hand, Any]:
        """The successor and what the step showed: the seat dealt to (kuhn-wp:rules.deal:
        only that seat sees the card), or nothing (a move is seen by both)."""
        if isinstance(action, Card):
            return deal(m, action.rank), (len(m.cards),)
        return act(m, action), ()

    def model_winner(self, m: Hand) -> int | None:
        return winner(m)

    def model_returns(self, m: Hand) -> list[float]:
        return returns(m)

    @property
    def params(self) -> dict[str, Any]:
        return {"max_moves": self.max_moves}

    @property
    def max_chance_nodes(self) -> int:
        return 2

    # -- the observer -------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return 2 + len(RANKS) + 2 * MAX_DECISIONS

    def observation_string(self, state: GameState, player: int) -> str:
        """``seat P card X moves ...`` (the card once dealt; the other card never)."""
        h: Hand = state.model
        card = RANKS[h.cards[player]] if len(h.cards) > player else "?"
        moves = " ".join(str(m) for m in h.moves) or "-"
        return f"seat {player} card {card} moves {moves}"

    def information_state_text(self, state: GameState, player: int) -> str:
        """The observation string: it already holds everything the player has seen."""
        return self.observation_string(state, player)

    def observation_sections(self) -> tuple[Section, ...]:
        """The seat and the card are private, the moves public."""
        return (Section("seat", 2, True), Section("card", len(RANKS), True),
                Section("moves", 2 * MAX_DECISIONS))

    def public_observation_string(self, state: GameState) -> str:
        """``moves ...`` (both players saw them)."""
        h: Hand = state.model
        return "moves " + (" ".join(str(m) for m in h.moves) or "-")

    def private_observation_string(self, state: GameState, player: int) -> str:
        """``seat P card X`` (the card once dealt)."""
        h: Hand = state.model
        card = RANKS[h.cards[player]] if len(h.cards) > player else "?"
        return f"seat {player} card {card}"

    def node_view(self, node: Node, player: int) -> tuple[str, str]:
        """A deal shows its card to the seat dealt to only (kuhn-wp:rules.deal); a move is
        public."""
        if node.actor == CHANCE:
            seat = node.seen[0]
            return (f"deal {seat}", RANKS[node.action_id] if seat == player else "")
        return (f"{node.actor}:{self.table.from_id(node.action_id)}", "")

    recall_width = len(RANKS) + 1 + 2
    """Codes of a node: the card dealt to the observer (3), a card dealt to the other seat
    (1), a move (pass, bet)."""

    def recall_indices(self, node: Node, player: int) -> list[int]:
        if node.actor == CHANCE:
            return [node.action_id] if node.seen[0] == player else [len(RANKS)]
        return [len(RANKS) + 1 + node.action_id]

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        h: Hand = state.model
        out = [player]
        if len(h.cards) > player:
            out.append(2 + h.cards[player])
        out += [5 + 2 * i + (m is Move.BET) for i, m in enumerate(h.moves)]
        return out

    def state_repr(self, state: GameState) -> str:
        h: Hand = state.model
        return (f"<kuhn-poker cards {''.join(RANKS[c] for c in h.cards) or '-'} "
                f"moves {' '.join(str(m) for m in h.moves) or '-'}>")

    def __reduce__(self) -> tuple[Any, ...]:
        return (KuhnPokerGame, (self.max_moves,))


__all__ = ["GAME_NAME", "MAX_DECISIONS", "KuhnPokerGame"]
