"""Kuhn poker's ``conformance`` capability (model ``ruleproof.model.kuhn_poker``, document
``kuhn-wp``): the game as the conformance harness sees it
(:class:`~ruleproof.properties.conformance.games.ConformanceGame`).

* **Set-up.** The explicit set-up is the deal: ``{"cards": ["K", "J"]}``, P1's card first
  (kuhn-wp:rules.deal); a seed deals as ``new_seeded_state(seed)``. There is no chance after
  the deal, no preset to choose, no option, no start player (P1 decides first,
  kuhn-wp:rules.first) and no player names. A trace of ``ruleproof explore`` (option
  ``reduced``) starts before the deal; its deals are steps ``deal J|Q|K`` without a player.
* **Actions.** The action table's notation: ``pass``, ``bet`` (and ``deal X`` for chance).
* **Public state.** ``to_move`` (0, 1, ``"chance"`` while cards are to be dealt, null once the
  hand is over), ``moves`` (the decisions, ``"pass"``/``"bet"``), ``pot`` (chips each player has
  put in, ante included), ``winner`` (null while the hand goes on), ``won`` (the chips the
  winner takes from the other, null while it goes on) and ``shown`` (both cards, in seat order,
  after a showdown; ``[]`` otherwise). **Observations** add the player's own ``card`` (null
  before it is dealt): the other card is hidden until a showdown shows it.

Blame: the clause contracts of kuhn-wp (properties/kuhn_poker/contracts.py) judge the engine's
report rebuilt as a :class:`~ruleproof.properties.kuhn_poker.contracts.Table`, so every field
an engine reports differently is held against the clause that fixes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameState
from ruleproof.model.kuhn_poker.game import KuhnPokerGame
from ruleproof.model.kuhn_poker.rules import RANKS, Card, Hand, Move, to_move
from ruleproof.properties.conformance.blame import scope_of
from ruleproof.properties.conformance.games import REDUCED_KEY, Alternative, FieldTypes
from ruleproof.properties.conformance.jsontypes import Named
from ruleproof.properties.contracts.core import Contract

from .contracts import Table, called, facing_bet, folded, two_passes, view

GAME = "kuhn-poker"
"""The game's name (its plugin record's)."""

UNBOUNDED = 10**9
"""The interface's truncation bound for the harness's games (a hand ends after three
decisions anyway)."""

_PUBLIC: dict[str, str] = {"to_move": "mover", "moves": "[move]", "pot": "pair", "winner": "int?",
                           "won": "int?", "shown": "[card]"}
_PRIVATE: dict[str, str] = {"card": "card?"}
_WORDS = {"mover": "0, 1, \"chance\" or null", "[move]": "a list of \"pass\"/\"bet\"",
          "pair": "a list of two integers", "int?": "an integer or null",
          "[card]": "a list of cards (J, Q, K)", "card?": "a card (J, Q, K) or null"}
_NAMED: Named = {
    "mover": lambda v: v is None or v == "chance" or (v in (0, 1) and not isinstance(v, bool)),
    "[move]": lambda v: isinstance(v, list) and all(x in ("pass", "bet") for x in v),
    "pair": lambda v: isinstance(v, list) and len(v) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) for x in v),
    "[card]": lambda v: isinstance(v, list) and all(x in RANKS for x in v),
    "card?": lambda v: v is None or v in RANKS,
}
_TYPES = FieldTypes(_PUBLIC, _PRIVATE, _WORDS, _NAMED)

_FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "winner": ("kuhn-wp:rules.fold", "kuhn-wp:rules.showdown"),
    "won": ("kuhn-wp:rules.payoff",),
    "shown": ("kuhn-wp:rules.showdown", "kuhn-wp:rules.fold"),
    "pot": ("kuhn-wp:rules.first", "kuhn-wp:rules.facing-bet", "kuhn-wp:rules.ante"),
    "moves": ("kuhn-wp:rules.first", "kuhn-wp:rules.after-pass", "kuhn-wp:rules.facing-bet"),
    "to_move": ("kuhn-wp:rules.first", "kuhn-wp:rules.after-pass", "kuhn-wp:rules.facing-bet",
                "kuhn-wp:rules.fold", "kuhn-wp:rules.showdown"),
    "card": ("kuhn-wp:rules.deal",),
}
_PRIORITY = ("winner", "won", "shown", "pot", "moves", "to_move", "card")

_WITHHELD: dict[str, tuple[str, ...]] = {
    "pass": ("kuhn-wp:rules.first", "kuhn-wp:rules.after-pass", "kuhn-wp:rules.facing-bet"),
    "bet": ("kuhn-wp:rules.first", "kuhn-wp:rules.after-pass", "kuhn-wp:rules.facing-bet"),
    "deal": ("kuhn-wp:rules.deal",),
}


@cache
def _game() -> KuhnPokerGame:
    return KuhnPokerGame(UNBOUNDED)


def parse_action(action: str) -> Move | Card:
    """The typed action of ``pass``, ``bet`` or ``deal J|Q|K``.

    Raises:
        ValueError: anything else.
    """
    for move in Move:
        if action == str(move):
            return move
    words = action.split()
    if len(words) == 2 and words[0] == "deal" and words[1] in RANKS:
        return Card(RANKS.index(words[1]))
    raise ValueError(f"{action!r} is not an action of kuhn-poker (pass, bet, deal J|Q|K)")


def setup_cards(setup: Mapping[str, Any]) -> tuple[int, int]:
    """The deal of an explicit set-up ``{"cards": [P1's, P2's]}``.

    Raises:
        MalformedInput: another field, or not two different cards of the deck
            (kuhn-wp:rules.deck, kuhn-wp:rules.deal).
    """
    unknown = sorted(set(setup) - {"cards"})
    if unknown:
        raise MalformedInput(f"setup: unknown field {unknown[0]!r}; expected cards")
    cards = setup.get("cards")
    if not isinstance(cards, list) or len(cards) != 2 or not all(c in RANKS for c in cards) \
            or cards[0] == cards[1]:
        raise MalformedInput("setup.cards must list two different cards of J, Q, K, P1's first "
                             "(kuhn-wp:rules.deal)")
    return RANKS.index(cards[0]), RANKS.index(cards[1])


def public_table(t: Table) -> dict[str, Any]:
    """The public state of a hand as the clauses read it."""
    if t.over:
        mover: int | str | None = None
    elif len(t.cards) < 2:
        mover = "chance"
    else:
        mover = t.to_move
    return {"to_move": mover, "moves": [str(m) for m in t.moves], "pot": list(t.pot),
            "winner": t.winner, "won": t.won, "shown": [RANKS[c] for c in t.shown]}


def public_state(h: Hand) -> dict[str, Any]:
    """The public state of a model hand (see the module docstring)."""
    return public_table(view(h))


def observation(h: Hand, player: int) -> dict[str, Any]:
    """What ``player`` sees of a hand: the public state and its own card.

    Raises:
        MalformedInput: no such player.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise MalformedInput(f"no player {player} in kuhn-poker (0 or 1)")
    card = RANKS[h.cards[player]] if len(h.cards) > player else None
    return {"player": player, **public_state(h), "card": card}


def _substitute(t: Table, reported: Mapping[str, Any], fields: Sequence[str],
                observer: int | None) -> Table:
    """``t`` with the reported values of ``fields`` substituted.

    Raises:
        KeyError, IndexError, TypeError, ValueError: a value naming no move or card.
    """
    changes: dict[str, Any] = {}
    for f in fields:
        v = reported[f]
        if f == "to_move":
            changes["to_move"] = v if v in (0, 1) else None
            changes["over"] = v is None
        elif f == "moves":
            changes["moves"] = tuple(Move(x) for x in v)
        elif f == "pot":
            changes["pot"] = (int(v[0]), int(v[1]))
        elif f in ("winner", "won"):
            changes[f] = None if v is None else int(v)
        elif f == "shown":
            changes["shown"] = tuple(RANKS.index(x) for x in v)
        elif f == "card" and observer is not None:
            cards = list(t.cards)
            if v is not None:
                cards[observer] = RANKS.index(v)
            changes["cards"] = tuple(cards)
    return replace(t, **changes)


@cache
def _scope() -> dict[tuple[str, str], float]:
    """How often each contract of kuhn-wp is in play: on every hand of every deal."""
    from ruleproof.model.kuhn_poker.rules import act, deal, legal
    from ruleproof.properties.contracts.core import contract_set

    def transitions() -> Iterable[tuple[Hand, Any, Hand]]:
        for first in range(len(RANKS)):
            for second in range(len(RANKS)):
                if first == second:
                    continue
                todo = [deal(deal(Hand(), first), second)]
                while todo:
                    h = todo.pop()
                    for a in legal(h):
                        nxt = act(h, a)
                        yield h, a, nxt
                        todo.append(nxt)

    sample = list(transitions())
    return scope_of(contract_set("kuhn-wp").active(sample[0][0]), sample)


@dataclass(frozen=True)
class KuhnConformance:
    """Kuhn poker's :class:`~ruleproof.properties.conformance.games.ConformanceGame` (see the
    module docstring)."""

    has_start_player: bool = False
    has_names: bool = False
    observed_players: tuple[int, ...] = (0, 1)
    field_priority: tuple[str, ...] = _PRIORITY

    @property
    def field_types(self) -> FieldTypes:
        return _TYPES

    # -- set-up codec ---------------------------------------------------------------------
    def presets(self) -> tuple[str, ...]:
        return ()

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        return (2,)

    def option_values(self) -> dict[str, tuple[str, ...]]:
        return {}

    def option_owners(self) -> Mapping[str, str]:
        return {}

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        if players != 2:
            raise MalformedInput(f"kuhn-poker is played by 2 players; got {players}")
        if REDUCED_KEY in options:  # a trace of ``ruleproof explore``: before the deal
            from ruleproof.properties.explore.games import start_state

            return _game().from_model(start_state(GAME, dict(options), seed, None))
        if options:
            raise MalformedInput(f"kuhn-poker has no rule options; got {', '.join(options)}")
        if setup is None:
            return _game().new_seeded_state(seed or 0)
        return _game().from_model(Hand(setup_cards(setup)))

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        if players != 2:
            raise MalformedInput(f"kuhn-poker is played by 2 players; got {players}")
        return self.setup_json(_game().new_seeded_state(seed))

    def setup_json(self, state: GameState) -> dict[str, Any]:
        return {"cards": [RANKS[c] for c in state.model.cards]}

    def parse(self, action: str) -> Any:
        return parse_action(action)

    # -- observer -------------------------------------------------------------------------
    def public_state(self, state: GameState) -> dict[str, Any]:
        return public_state(state.model)

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        return observation(state.model, player)

    def turn_of(self, state: GameState) -> int | None:
        p = to_move(state.model)
        return p if p >= 0 else None

    def choice_order(self, state: GameState, actions: tuple[Any, ...]) -> Sequence[Any]:
        """Bets first (index 0, hypothesis's simplest games): they reach calls and folds."""
        return sorted(actions, key=lambda a: a is not Move.BET)

    # -- blame ----------------------------------------------------------------------------
    def cited(self, before: GameState, after: GameState) -> tuple[str, ...]:
        """The clauses the model's step used: the deal, an opening bet, a pass, a call, a
        fold, a showdown and its payoff."""
        b, a = before.model, after.model
        if len(a.cards) > len(b.cards):
            return ("kuhn-wp:rules.deal",)
        moves = a.moves
        last = moves[-1]
        out: list[str] = []
        if facing_bet(moves[:-1]):
            out.append("kuhn-wp:rules.facing-bet")
        elif len(moves) == 1:
            out.append("kuhn-wp:rules.first")
        else:
            out.append("kuhn-wp:rules.after-pass")
        if last is Move.BET and not facing_bet(moves[:-1]):
            out.append("kuhn-wp:rules.first")
        if folded(moves):
            out += ["kuhn-wp:rules.fold", "kuhn-wp:rules.payoff"]
        elif two_passes(moves) or called(moves):
            out += ["kuhn-wp:rules.showdown", "kuhn-wp:rules.payoff"]
        return tuple(dict.fromkeys(out))

    def field_clauses(self, name: str, expected: Mapping[str, Any],
                      reported: Mapping[str, Any]) -> tuple[str, ...]:
        return _FIELD_CLAUSES.get(name, ())

    def withheld_clauses(self, action: str) -> tuple[str, ...]:
        kind = action.split()[0] if action.split() else ""
        return _WITHHELD.get(kind, ("kuhn-wp:rules.first",))

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        """The contracts of kuhn-wp."""
        from ruleproof.properties.contracts.core import contract_set

        return contract_set("kuhn-wp").active(state.model)

    def scope(self, state: GameState) -> Mapping[tuple[str, str], float]:
        return _scope()

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[Table, tuple[Table, ...]] | None:
        """The engine's successor as the clauses read it: the model's successor with every
        field the engine reported (its public state, or ``observer``'s observation)
        substituted, and with one differing field substituted each. None if the report names
        no move or card."""
        after = view(state.model)
        seen = public_table(after) if observer is None else observation(state.model, observer)
        fields = [k for k, v in reported.items() if k in seen and k != "player" and seen[k] != v]
        try:
            full = _substitute(after, reported, fields, observer)
            single = tuple(_substitute(after, reported, [f], observer) for f in fields)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None
        return full, single

    def alternatives(self, state: GameState, options: Mapping[str, str]
                     ) -> Iterator[Alternative]:
        """None: the ambiguity register of kuhn-wp has no entry (no other reading)."""
        return iter(())

    def restore(self, alternative: GameState, state: GameState) -> GameState:
        return alternative

    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(clauses)

    def probe_actions(self, state: GameState) -> list[str]:
        """At a decision: dealing the card left out (kuhn-wp:rules.deal); at the deal: a
        decision (nobody decides before both cards are dealt) and a card dealt twice."""
        h: Hand = state.model
        who = to_move(h)
        if who >= 0:
            return [f"deal {RANKS[c]}" for c in range(len(RANKS)) if c not in h.cards][:1]
        if len(h.cards) < 2:
            return ["bet", *(f"deal {RANKS[c]}" for c in h.cards)]
        return []


CONFORMANCE = KuhnConformance()
"""Kuhn poker's ``conformance`` capability (registered in properties/kuhn_poker/plugin.py)."""

__all__ = ["CONFORMANCE", "KuhnConformance", "observation", "parse_action", "public_state",
           "public_table", "setup_cards"]
