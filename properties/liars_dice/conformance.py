"""Liar's Dice's ``conformance`` capability (model ``ruleproof.model.liars_dice``, document
``ld-wp``): the game as the conformance harness sees it
(:class:`~ruleproof.properties.conformance.games.ConformanceGame`).

* **Set-up.** The explicit set-up is the first round's roll: ``{"dice": ["13", "26"]}``, each
  seat's dice in the order rolled, P1's first (ld-wp:round.roll); a seed rolls as
  ``new_seeded_state(seed)``. The size of the game rides in the options (``dice``, ``sides``,
  ``order``, beside the rule options ``raise``, ``wild``, ``spot_on``, ``rounds``), so a trace
  header names the whole game. Later rolls are steps ``roll F`` without a player.
* **Actions.** The action table's notation: ``bid Q-F``, ``liar``, ``spot-on`` (``roll F`` for
  chance).
* **Public state.** ``to_move`` (a seat, ``"chance"`` while dice are to roll, null once the
  game is over), ``cups`` (dice per seat), ``bids`` (this round's, ``"Q-F"``), ``rounds``
  (rounds played), ``loser`` (of the last round, null before one) and ``winner`` (null while
  the game goes on). **Observations** add the player's own ``dice`` (sorted, a string).

Blame: the clause contracts of ld-wp (properties/liars_dice/contracts.py) judge the engine's
report substituted into the model's table (cups, bids, the last round's loser), so a field an
engine reports differently is held against the clause that fixes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameState
from ruleproof.model.liars_dice.game import LiarsDiceGame
from ruleproof.model.liars_dice.rules import (
    LIAR,
    SPOT,
    Bid,
    Call,
    Roll,
    Table,
    roll,
    to_move,
    winner,
)
from ruleproof.properties.conformance.games import REDUCED_KEY, Alternative, FieldTypes
from ruleproof.properties.conformance.jsontypes import Named
from ruleproof.properties.contracts.core import Contract

GAME = "liars-dice"
UNBOUNDED = 10**6

_PUBLIC: dict[str, str] = {"to_move": "mover", "cups": "[int]", "bids": "[bid]",
                           "rounds": "int", "loser": "int?", "winner": "int?"}
_PRIVATE: dict[str, str] = {"dice": "dice"}
_WORDS = {"mover": "a seat, \"chance\" or null", "[int]": "a list of integers",
          "[bid]": "a list of bids \"Q-F\"", "int": "an integer", "int?": "an integer or null",
          "dice": "a string of faces"}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_NAMED: Named = {
    "mover": lambda v: v is None or v == "chance" or _is_int(v),
    "[int]": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    "[bid]": lambda v: isinstance(v, list) and all(
        isinstance(x, str) and x.count("-") == 1 and all(p.isdigit() for p in x.split("-"))
        for x in v),
    "int": _is_int,
    "dice": lambda v: (isinstance(v, str) and v.isdigit()) or v == "",
}
_TYPES = FieldTypes(_PUBLIC, _PRIVATE, _WORDS, _NAMED)

_FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "winner": ("ld-wp:end.last", "ld-wp:challenge.lose"),
    "loser": ("ld-wp:challenge.count", "ld-wp:challenge.lose", "ld-wp:variant.spot-on"),
    "cups": ("ld-wp:challenge.lose", "ld-wp:setup.dice"),
    "rounds": ("ld-wp:challenge.call", "ld-wp:end.last"),
    "bids": ("ld-wp:bid.claim", "ld-wp:bid.raise"),
    "to_move": ("ld-wp:bid.turns", "ld-wp:round.opening", "ld-wp:round.next",
                "ld-wp:end.last"),
    "dice": ("ld-wp:round.roll",),
}
_PRIORITY = ("winner", "loser", "cups", "rounds", "bids", "to_move", "dice")

_WITHHELD: dict[str, tuple[str, ...]] = {
    "bid": ("ld-wp:bid.raise", "ld-wp:round.opening"),
    "liar": ("ld-wp:challenge.call",),
    "spot-on": ("ld-wp:variant.spot-on",),
    "roll": ("ld-wp:round.roll",),
}


def game_of(players: int, options: Mapping[str, str]) -> LiarsDiceGame:
    """The model game of ``players`` and the option map (rule options and size).

    Raises:
        MalformedInput: a bad option or size.
    """
    from .plugin import make_game

    return make_game(players, options=dict(options), max_moves=UNBOUNDED)


def _canonical(number: str) -> bool:
    """A number as the notation writes it: ASCII digits without a leading zero (``str.isdigit``
    also takes other scripts' digits, and ``02`` would be a second spelling of ``2``)."""
    return number.isascii() and number.isdigit() and (number == "0" or number[0] != "0")


def parse_action(action: str) -> Bid | Call | Roll:
    """The typed action of ``bid Q-F``, ``liar``, ``spot-on`` or ``roll F``.

    Raises:
        ValueError: anything else.
    """
    if action == "liar":
        return LIAR
    if action == "spot-on":
        return SPOT
    words = action.split(" ")
    if len(words) == 2 and words[0] == "roll" and _canonical(words[1]):
        return Roll(int(words[1]))
    if len(words) == 2 and words[0] == "bid":
        q, sep, f = words[1].partition("-")
        if sep and _canonical(q) and _canonical(f):
            return Bid(int(q), int(f))
    raise ValueError(f"{action!r} is not an action of liars-dice (bid Q-F, liar, spot-on, "
                     "roll F)")


def public_state(t: Table) -> dict[str, Any]:
    """The public state of a table (see the module docstring)."""
    who = to_move(t.rules, t)
    mover: int | str | None = who if who >= 0 else ("chance" if who == -1 else None)
    return {"to_move": mover, "cups": list(t.cups),
            "bids": [f"{b.quantity}-{b.face}" for _p, b in t.bids], "rounds": len(t.ended),
            "loser": t.ended[-1].loser if t.ended else None, "winner": winner(t.rules, t)}


def observation(t: Table, player: int) -> dict[str, Any]:
    """What ``player`` sees: the public state and its own dice.

    Raises:
        MalformedInput: no such player.
    """
    if isinstance(player, bool) or not 0 <= player < len(t.cups):
        raise MalformedInput(f"no player {player} in this liars-dice game (0..{len(t.cups) - 1})")
    return {"player": player, **public_state(t),
            "dice": "".join(map(str, sorted(t.rolled[player])))}


def _substitute(t: Table, reported: Mapping[str, Any], fields: Sequence[str]) -> Table:
    """``t`` with the reported cups, bids and last loser substituted.

    Raises:
        KeyError, IndexError, TypeError, ValueError: a value naming no bid or seat.
    """
    out = t
    for f in fields:
        v = reported[f]
        if f == "cups":
            out = replace(out, cups=tuple(int(x) for x in v))
        elif f == "bids":
            seats = [p for p, _b in t.bids] + [len(t.bids) % len(t.cups)] * len(v)
            bids = tuple((seats[i], Bid(*map(int, str(x).split("-")))) for i, x in enumerate(v))
            out = replace(out, bids=bids)
        elif f == "loser" and v is not None and out.ended:
            out = replace(out, ended=(*out.ended[:-1], replace(out.ended[-1], loser=int(v))))
    return out


@dataclass(frozen=True)
class LiarsConformance:
    """Liar's Dice's conformance capability (see the module docstring)."""

    has_start_player: bool = False
    has_names: bool = False
    observed_players: tuple[int, ...] = (0, 1)
    field_priority: tuple[str, ...] = _PRIORITY

    @property
    def field_types(self) -> FieldTypes:
        return _TYPES

    def presets(self) -> tuple[str, ...]:
        return ()

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        return (2, 3, 4)

    def option_values(self) -> dict[str, tuple[str, ...]]:
        from ruleproof.model.liars_dice.rules import OPTIONS

        return dict(OPTIONS)

    def option_owners(self) -> Mapping[str, str]:
        return {}

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        if REDUCED_KEY in options:
            from ruleproof.properties.explore.games import start_state

            opts = {k: v for k, v in options.items() if k != REDUCED_KEY}
            return game_of(players, opts).from_model(start_state(GAME, dict(options), seed,
                                                                 None))
        game = game_of(players, options)
        if setup is None:
            return game.new_seeded_state(seed or 0)
        unknown = sorted(set(setup) - {"dice"})
        if unknown:
            raise MalformedInput(f"setup: unknown field {unknown[0]!r}; expected dice")
        dice = setup.get("dice")
        r = game.rules
        if not isinstance(dice, list) or len(dice) != players or not all(
                isinstance(c, str) and len(c) == r.dice and
                all(ch.isdigit() and 1 <= int(ch) <= r.sides for ch in c) for c in dice):
            raise MalformedInput(f"setup.dice must list {players} rolls of {r.dice} "
                                 f"{r.sides}-sided dice, P1's first (ld-wp:round.roll)")
        t = game.initial_model()
        for cup in dice:
            for ch in cup:
                t = roll(r, t, int(ch))
        return game.from_model(t)

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return self.setup_json(game_of(players, options).new_seeded_state(seed))

    def setup_json(self, state: GameState) -> dict[str, Any]:
        return {"dice": ["".join(map(str, c)) for c in state.model.rolled]}

    def parse(self, action: str) -> Any:
        return parse_action(action)

    def public_state(self, state: GameState) -> dict[str, Any]:
        return public_state(state.model)

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        return observation(state.model, player)

    def turn_of(self, state: GameState) -> int | None:
        p = to_move(state.model.rules, state.model)
        return p if p >= 0 else None

    def choice_order(self, state: GameState, actions: tuple[Any, ...]) -> Sequence[Any]:
        """Calls first (hypothesis's simplest games end rounds early)."""
        return sorted(actions, key=lambda a: not isinstance(a, Call))

    def cited(self, before: GameState, after: GameState) -> tuple[str, ...]:
        """The clauses the model's step used (:func:`transition_clauses`)."""
        return transition_clauses(before.model, after.model)

    def field_clauses(self, name: str, expected: Mapping[str, Any],
                      reported: Mapping[str, Any]) -> tuple[str, ...]:
        return _FIELD_CLAUSES.get(name, ())

    def withheld_clauses(self, action: str) -> tuple[str, ...]:
        kind = action.split()[0] if action.split() else ""
        return _WITHHELD.get(kind, ("ld-wp:bid.raise",))

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        from ruleproof.properties.contracts.core import contract_set

        return contract_set("ld-wp").active(state.model)

    def scope(self, state: GameState) -> Mapping[tuple[str, str], float]:
        return _scope(state.model.rules)

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[Table, tuple[Table, ...]] | None:
        """The engine's successor as the clauses read it (cups, bids and the last loser
        substituted), and with one differing field substituted each. None if the report
        names no bid or seat."""
        t: Table = state.model
        seen = public_state(t) if observer is None else observation(t, observer)
        fields = [k for k, v in reported.items() if k in ("cups", "bids", "loser") and
                  k in seen and seen[k] != v]
        try:
            full = _substitute(t, reported, fields)
            single = tuple(_substitute(t, reported, [f]) for f in fields)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None
        return full, single

    def alternatives(self, state: GameState, options: Mapping[str, str]
                     ) -> Iterator[Alternative]:
        """None offered here: the readings are identified by running conform per reading
        (docs/liars-dice.md)."""
        return iter(())

    def restore(self, alternative: GameState, state: GameState) -> GameState:
        return alternative

    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(clauses)

    def probe_actions(self, state: GameState) -> list[str]:
        """At a decision: a call with no bid standing (ld-wp:challenge.call) and a roll
        (ld-wp:round.roll); while rolling: a bid."""
        t: Table = state.model
        who = to_move(t.rules, t)
        if who >= 0:
            return (["liar"] if not t.bids else []) + ["roll 1"]
        if who == -1:
            return ["bid 1-1"]
        return []


@cache
def _scope(rules: Any) -> dict[tuple[str, str], float]:
    """How often each contract of ld-wp is in play, over random games of ``rules``."""
    import random

    from ruleproof.properties.conformance.blame import scope_of
    from ruleproof.properties.contracts.core import contract_set

    game = LiarsDiceGame(rules)
    sample: list[tuple[Any, Any, Any]] = []
    for seed in range(20):
        rng = random.Random(seed)
        s = game.new_seeded_state(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                nxt = s.apply(rng.choice(s.chance_outcomes())[0])
                sample.append((s.model, game.chance_table.from_id(nxt.history()[-1]),
                               nxt.model))
            else:
                a = rng.choice(s.legal_typed_actions())
                nxt = s.apply_typed(a)
                sample.append((s.model, a, nxt.model))
            s = nxt
    return scope_of(contract_set("ld-wp").active(sample[0][0]), sample)


CONFORMANCE = LiarsConformance()
"""Liar's Dice's ``conformance`` capability."""

__all__ = ["CONFORMANCE", "LiarsConformance", "game_of", "observation", "parse_action",
           "public_state"]


def transition_clauses(b: Any, a: Any) -> tuple[str, ...]:
    """The clauses the model's step from table ``b`` to table ``a`` used: a roll
    (ld-wp:round.roll); a call (ld-wp:challenge.call, .count, .lose, variant.spot-on for a
    spot-on call, ld-wp:round.wild when a one counted as the face bid under ``wild = ones``,
    then ld-wp:round.next or ld-wp:end.last); else a bid (ld-wp:bid.claim, bid.raise or
    round.opening, bid.turns). Shared by the conformance blame and clause coverage."""
    if any(len(x) > len(y) for x, y in zip(a.rolled, b.rolled, strict=True)):
        return ("ld-wp:round.roll",)
    if len(a.ended) > len(b.ended):
        s = a.ended[-1]
        out = ["ld-wp:challenge.call", "ld-wp:challenge.count", "ld-wp:challenge.lose"]
        if a.rules.wild == "ones" and s.bid.face != 1 and any(
                d == 1 for cup in s.dice for d in cup):
            out.append("ld-wp:round.wild")  # a one counted as the face bid
        if s.call == "spot-on":
            out.append("ld-wp:variant.spot-on")
        out.append("ld-wp:round.next" if winner(a.rules, a) is None else "ld-wp:end.last")
        return tuple(out)
    return ("ld-wp:bid.claim", "ld-wp:bid.raise" if b.bids else "ld-wp:round.opening",
            "ld-wp:bid.turns")
