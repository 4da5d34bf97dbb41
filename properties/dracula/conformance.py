"""Dracula's ``conformance`` capability (model ``ruleproof.model.dracula``, document
``dracula-en``): the game as the conformance harness sees it
(:class:`~ruleproof.properties.conformance.games.ConformanceGame`).

Dracula has hidden information and chance in the middle of the game. The harness handles them so:

* **Chance is explicit.** The set-up (``{"current": {"dracula": [5 action cards],
  "van-helsing": [5 action cards]}}``) fixes the first draw of action cards; every later chance
  step (the deal of the twelve chosen encounter cards, action-card draws after a reshuffle,
  Deception's draw) is an action ``chance ITEM`` without a player, chosen by the harness (or
  recorded in the trace) and sent to the engine like any other action. While chance is to
  move, ``to_move`` is ``"chance"`` and the legal actions are the possible outcomes.
* **Public state and observations.** :meth:`DraculaConformance.public_state` holds what both
  sides see (figures, barriers, life markers, captured targets and discard piles, hand and pile
  sizes, which locations hold a card, the revealed card, ...).
  :meth:`DraculaConformance.observation` adds what one side alone knows: its hand, its current
  and set-aside action cards, its cards in the deal pool and the card it knows at each
  location. Engines report both (protocol command ``observation``); the harness compares both
  sides' observations after every step.

Public state fields: ``phase`` (the pending step: choose, deal, draw-action, move, meet,
place, pay, rescue, barrier, special-choice, depths-place, deception-draw, over),
``to_move`` (0 Dracula, 1 Van Helsing, ``"chance"``, null when over), ``turn``, ``active``,
``steps``, ``can_look``, ``pos`` (two location names), ``life``, ``cards_at`` (per location:
a card lies there), ``revealed`` (null or [location, card]), ``played``, ``use_special``,
``barriers`` (colour -> border ``a1-b1`` or null), ``captured``, ``enemy_discard``,
``action_discard`` (per side, sorted ids), ``hand_size``, ``current_size``, ``aside_size``,
``pool_size``, ``winner``. Observations add ``hand``, ``current``, ``aside``, ``pool`` (own
cards) and ``known`` (per location, the card the player knows lies there, or null).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model import CHANCE
from ruleproof.model.api import GameState
from ruleproof.model.dracula import rules as _rules_module
from ruleproof.model.dracula.data import COLOURS, Kind, Side, default_board, default_cards
from ruleproof.model.dracula.engine import (
    ChooseCard,
    Move,
    PlayCard,
    State,
    apply,
    current_player,
    legal_actions,
    new_game,
    phase,
)
from ruleproof.model.dracula.game import DraculaGame
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.model.dracula.rules import DraculaRules, rules_from_mapping
from ruleproof.model.dracula.state import Step
from ruleproof.properties.conformance.blame import scope_of
from ruleproof.properties.conformance.games import REDUCED_KEY, Alternative, FieldTypes
from ruleproof.properties.conformance.jsontypes import Named, has_type
from ruleproof.properties.conformance.readings import ambiguity_register
from ruleproof.properties.contracts.core import Contract

GAME = "dracula"
"""The game's name (its plugin record's)."""

UNBOUNDED = 10**9
"""The interface's truncation bound for the harness's games: conformance bounds a game by its
own ``max_steps`` (a trace by its length), so the interface never truncates one."""

SIDES = ("dracula", "van-helsing")
"""Side names in set-ups (index = player)."""


_FIELD_TYPES: dict[str, str] = {
    "phase": "str", "to_move": "mover", "turn": "int", "active": "int", "steps": "int",
    "can_look": "bool", "pos": "[str]", "life": "[int]", "cards_at": "[bool]",
    "revealed": "[str]?", "played": "str?", "use_special": "bool",
    "barriers": "barriers", "captured": "[[str]]", "enemy_discard": "[[str]]",
    "action_discard": "[[str]]", "hand_size": "[int]", "current_size": "[int]",
    "aside_size": "[int]", "pool_size": "int", "winner": "int?",
}
_PRIVATE_TYPES: dict[str, str] = {
    "hand": "[str]", "current": "[str]", "aside": "[str]", "pool": "[str]", "known": "[str?]",
}
_TYPE_WORDS = {
    "str": "a string", "int": "an integer", "bool": "true or false", "[str]": "a list of strings",
    "[int]": "a list of integers", "[bool]": "a list of booleans",
    "[str]?": "null or a list [location, card]", "str?": "a string or null",
    "int?": "an integer or null", "[[str]]": "two lists of strings",
    "mover": "0, 1, \"chance\" or null", "barriers": "an object colour -> border or null",
    "[str?]": "a list of strings or nulls",
}

_FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "winner": ("dracula-en:end.simultaneous", "dracula-en:end.hand-proof",
               "dracula-en:end.all-captured", "dracula-en:early-end.last-marker"),
    "life": ("dracula-en:pay.overpay", "dracula-en:early-end.give-target",
             "dracula-en:power.exception", "dracula-en:power.lose-life", "dracula-en:enemy.lose"),
    "captured": ("dracula-en:target.capture", "dracula-en:early-end.give-target"),
    "enemy_discard": ("dracula-en:enemy.win", "dracula-en:enemy.draw"),
    "cards_at": ("dracula-en:enemy.win", "dracula-en:enemy.draw", "dracula-en:target.capture",
                 "dracula-en:look.own-card"),
    "current_size": ("dracula-en:cards.cycle", "dracula-en:cards.discard"),
    "aside_size": ("dracula-en:cards.cycle",),
    "action_discard": ("dracula-en:cards.cycle", "dracula-en:cards.discard"),
    "phase": ("dracula-en:look.opponent-card", "dracula-en:example.enemy-ends-move",
              "dracula-en:enemy.draw", "dracula-en:enemy.win", "dracula-en:cards.cycle",
              "dracula-en:play.turn-parts"),
    "to_move": ("dracula-en:play.alternate", "dracula-en:play.first-player",
                "dracula-en:look.opponent-card",
                "dracula-en:cards.cycle", "dracula-en:special.rebellion"),
    "active": ("dracula-en:play.alternate", "dracula-en:special.rebellion"),
    "turn": ("dracula-en:play.alternate",),
    "steps": ("dracula-en:move.orthogonal",),
    "can_look": ("dracula-en:move.look-choice", "dracula-en:look.opponent-card"),
    "pos": ("dracula-en:move.orthogonal",),
    "revealed": ("dracula-en:look.opponent-card", "dracula-en:pay.then-functions"),
    "played": ("dracula-en:move.pay",),
    "use_special": ("dracula-en:move.pay",),
    "barriers": ("dracula-en:barriers.colour", "dracula-en:pay.barrier-first"),
    "hand_size": ("dracula-en:look.own-card", "dracula-en:early-end.give-target"),
    "pool_size": ("dracula-en:setup.secret-choice", "dracula-en:setup.deal"),
    "hand": ("dracula-en:look.own-card", "dracula-en:early-end.give-target"),
    "current": ("dracula-en:cards.cycle",),
    "aside": ("dracula-en:cards.cycle",),
    "pool": ("dracula-en:setup.secret-choice", "dracula-en:setup.deal"),
    "known": ("dracula-en:look.opponent-card", "dracula-en:look.own-card"),
}
_PRIORITY = ("winner", "life", "captured", "enemy_discard", "cards_at", "current_size",
             "aside_size", "action_discard", "current", "aside", "phase", "to_move", "active")

# What the model's log lines of a transition tell about the rules it used.
_LOG_CLAUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("hands shown", ("dracula-en:meet.reveal-hands", "dracula-en:end.hand-proof",
                     "dracula-en:end.simultaneous")),
    ("and reveals", ("dracula-en:look.opponent-card", "dracula-en:example.enemy-ends-move")),
    ("over its move number", ("dracula-en:pay.overpay",)),
    ("draws with", ("dracula-en:enemy.draw",)),
    ("beats", ("dracula-en:enemy.win",)),
    ("loses to", ("dracula-en:enemy.lose",)),
    ("no life marker lost thanks to", ("dracula-en:power.exception",)),
    ("loses a life marker; the card goes back", ("dracula-en:power.exception",
                                                 "dracula-en:power.lose-life")),
    ("takes back life markers", ("dracula-en:early-end.give-target",)),
    ("takes up the five set-aside", ("dracula-en:cards.cycle",)),
    ("shuffles all action cards", ("dracula-en:cards.cycle",)),
    ("takes target", ("dracula-en:target.capture",)),
    ("own card", ("dracula-en:look.own-card",)),
    ("Rebellion", ("dracula-en:special.rebellion",)),
    ("Inspiration", ("dracula-en:special.inspiration",)),
    ("Composure:", ("dracula-en:special.composure",)),
    ("Perception:", ("dracula-en:special.perception",)),
    ("Deception:", ("dracula-en:special.deception",)),
    ("Vigilance:", ("dracula-en:special.vigilance",)),
    ("Breath of Night", ("dracula-en:special.breath-of-night",)),
    ("Whisper of Night", ("dracula-en:special.whisper-of-night",)),
    ("Reinforcement:", ("dracula-en:special.reinforcement",)),
    ("Resistance:", ("dracula-en:special.resistance",)),
    ("Wings of Night:", ("dracula-en:special.wings-of-night",)),
    ("Depths of Night:", ("dracula-en:special.depths-of-night",)),
    ("barrier to", ("dracula-en:barriers.colour", "dracula-en:pay.barrier-first")),
    ("last life marker", ("dracula-en:early-end.last-marker",)),
    ("found all five", ("dracula-en:end.all-captured",)),
)


_NAMED: Named = {
    "mover": lambda v: v is None or v == "chance" or (v in (0, 1) and not isinstance(v, bool)),
    "barriers": lambda v: isinstance(v, dict) and set(v) == set(COLOURS) and all(
        x is None or isinstance(x, str) for x in v.values()),
    "[str]?": lambda v: v is None or (isinstance(v, list) and len(v) == 2
                                      and all(isinstance(x, str) for x in v)),
    "[[str]]": lambda v: isinstance(v, list) and len(v) == 2 and all(
        has_type(x, "[str]") for x in v),
}


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _parse(action: str) -> Any:
    """The model action of a notation string (exactly one action). Raises ValueError."""
    found = parse_actions(default_board(), action)
    if len(found) != 1:
        raise ValueError(f"{action!r} is {len(found)} actions; a trace line holds one")
    return found[0]


def _setup_current(raw: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The current action cards of an explicit set-up. Raises MalformedInput."""
    unknown = sorted(set(raw) - {"current"})
    if unknown:
        raise MalformedInput(f"setup: unknown field {unknown[0]!r}; expected current")
    current = raw.get("current")
    if not isinstance(current, dict) or set(current) != set(SIDES):
        raise MalformedInput("setup.current must be {\"dracula\": [...], \"van-helsing\": [...]}")
    cards = default_cards()
    out: list[tuple[str, ...]] = []
    for index, side in enumerate(SIDES):
        ids = current[side]
        own = cards.action_of(Side(index))
        if (not isinstance(ids, list) or len(ids) != 5 or len(set(map(str, ids))) != 5
                or not all(isinstance(c, str) and c in own for c in ids)):
            raise MalformedInput(f"setup.current.{side} must list 5 different action cards of "
                                 f"{Side(index).label} (dracula-en:setup.action-cards)")
        out.append(tuple(sorted(ids)))
    return out[0], out[1]


def dracula_setup_json(state: State) -> dict[str, Any]:
    """The explicit set-up of a trace header (``{"current": {"dracula": [...], "van-helsing":
    [...]}}``) of a state whose opening action-card draws are done
    (dracula-en:setup.action-cards)."""
    return {"current": {SIDES[i]: sorted(state.current[i]) for i in (0, 1)}}




_TYPES = FieldTypes(_FIELD_TYPES, _PRIVATE_TYPES, _TYPE_WORDS, _NAMED)


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


_NOT_IDENTITY = frozenset({"rules", "cards", "board", "seed", "step", "log"})
"""State fields that are not part of a state's identity (``state_identity``)."""


@cache
def _game(rules: DraculaRules) -> DraculaGame:
    """The interface's game that wraps the harness's engine states (their own rules and cards
    rule every step; the game gives the action table and the flow)."""
    return DraculaGame(rules, UNBOUNDED)


def _wrap(state: State) -> GameState:
    if state.cards is default_cards() and state.board is default_board():
        return _game(state.rules).from_model(state)
    return DraculaGame(state.rules, UNBOUNDED, state.cards).from_model(state)  # a reduced game


def _register_clauses(option: str) -> tuple[str, ...]:
    """The clauses in question of the register's entry for ``option`` (empty if none)."""
    for entry in ambiguity_register(GAME):
        if entry.option == option:
            return entry.clauses
    return ()


def _rules_of(options: Mapping[str, str]) -> DraculaRules:
    return rules_from_mapping(dict(options))


def transition_clauses(state: State, new: State) -> tuple[str, ...]:
    """The clauses the model's transition ``state -> new`` used, as its log lines added by
    the transition tell (:data:`_LOG_CLAUSES`), and dracula-en:special.rebellion when the
    turn with Rebellion ended. Used by the conformance blame and by clause coverage
    (``ruleproof explore --coverage``)."""
    happened: list[str] = []
    for event in new.log[len(state.log):]:
        for key, clauses in _LOG_CLAUSES:
            if key in event.full:
                happened += clauses
    if (state.use_special and state.played is not None and new.turn != state.turn
            and state.cards.act(state.played).special == "rebellion"):
        happened.append("dracula-en:special.rebellion")  # the turn with Rebellion ended
    return _dedup(happened)


@dataclass(frozen=True)
class DraculaConformance:
    """Dracula's :class:`~ruleproof.properties.conformance.games.ConformanceGame` (2 players;
    see the module docstring for the JSON). The set-up names neither a start player (who
    starts is the option ``first_player``) nor the players (the two sides are fixed roles)."""

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
        defaults = DraculaRules()
        out: dict[str, tuple[str, ...]] = {}
        for f in fields(DraculaRules):
            value = getattr(defaults, f.name)
            if isinstance(value, bool):
                out[f.name] = ("true", "false") if value else ("false", "true")
            else:
                choices = _rules_module._CHOICES.get(f.name, (str(value),))
                out[f.name] = (str(value), *(c for c in choices if c != value))
        return out

    def option_owners(self) -> Mapping[str, str]:
        return {}

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        if players != 2:
            raise MalformedInput(f"dracula is played by 2 players; got {players}")
        if REDUCED_KEY in options:  # a reduced set-up of ``ruleproof explore`` (spec/reduced/)
            from ruleproof.properties.explore.games import start_state
            return _wrap(start_state(GAME, dict(options), seed, None))
        rules = _rules_of(options)
        if setup is None:
            return _wrap(new_game(seed or 0, rules))
        d, h = _setup_current(setup)
        s = new_game(0, rules)
        cards = s.cards
        aside = tuple(tuple(sorted(c for c in cards.action_of(Side(i)) if c not in cur))
                      for i, cur in enumerate((d, h)))
        return _wrap(replace(s, current=(d, h), aside=(aside[0], aside[1])))

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        s = new_game(seed, _rules_of(options))
        return {"current": {SIDES[i]: list(s.current[i]) for i in (0, 1)}}

    def setup_json(self, state: GameState) -> dict[str, Any]:
        return dracula_setup_json(state.model)

    def parse(self, action: str) -> Any:
        return _parse(action)

    # -- observer -------------------------------------------------------------------------
    def public_state(self, state: GameState) -> dict[str, Any]:
        return public_state(state.model)

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        return observation(state.model, player)

    def state_identity(self, state: GameState) -> str:
        """Every field of the state but the game's data and options (fixed for a game), the
        seed and step counter of its own chance resolution and its log (history;
        ``ruleproof perft``)."""
        m = state.model
        return repr(tuple(getattr(m, f.name) for f in fields(m)
                          if f.compare and f.name not in _NOT_IDENTITY))

    def turn_of(self, state: GameState) -> int | None:
        active = state.model.active
        return active if isinstance(active, int) and not isinstance(active, bool) else None

    def choice_order(self, state: GameState, actions: tuple[Any, ...]) -> Sequence[Any]:
        """Most telling first (index 0 is what hypothesis's simplest games take):
        non-targets first when choosing cards, steps towards the other figure first, plays
        with the special action first."""
        s: State = state.model
        acts = list(actions)
        cards = s.cards
        if phase(s) == "choose":
            acts.sort(key=lambda a: isinstance(a, ChooseCard)
                      and cards.enc(a.card).kind is Kind.TARGET)
        elif phase(s) == "move":
            other = s.pos[1 - s.active]
            cols = s.board.columns

            def dist(a: Any) -> int:
                if not isinstance(a, Move):
                    return 99
                return abs(a.to % cols - other % cols) + abs(a.to // cols - other // cols)

            acts.sort(key=dist)
        elif phase(s) == "pay":
            acts.sort(key=lambda a: not (isinstance(a, PlayCard) and a.special))
        return acts

    # -- blame ----------------------------------------------------------------------------
    def cited(self, before: GameState, after: GameState) -> tuple[str, ...]:
        """The clauses the model's log lines of the transition tell it used."""
        return transition_clauses(before.model, after.model)

    def field_clauses(self, name: str, expected: Mapping[str, Any],
                      reported: Mapping[str, Any]) -> tuple[str, ...]:
        return _FIELD_CLAUSES.get(name, ())

    def withheld_clauses(self, action: str) -> tuple[str, ...]:
        kind = action.split()[0] if action.split() else ""
        return _MISSING_CLAUSES.get(kind, ("dracula-en:play.turn-parts",))

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        """The contracts of dracula-en that apply to ``state``'s rules."""
        from ruleproof.properties.contracts.core import contract_set, expanded

        return expanded(contract_set("dracula-en").active(state.model))

    def scope(self, state: GameState) -> Mapping[tuple[str, str], float]:
        return _scope(state.model.rules)

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[State, tuple[State, ...]] | None:
        """The engine's successor as a typed state: the model's successor ``state`` with every
        field of the engine's public state (or of ``observer``'s observation) substituted;
        what neither shows (the other side's cards, the seed, the log) is the model's, and a
        count the engine reports differently is met by the cards of the state before the
        step. Also the model's successor with one differing field substituted each. None if
        the report cannot be read as a state."""
        before, after = previous.model, state.model
        seen = public_state(after) if observer is None else observation(after, observer)
        fields = [k for k, v in reported.items() if k in seen and k != "player" and seen[k] != v]
        try:
            full = _substitute(before, after, reported, fields, observer)
            single = tuple(_substitute(before, after, reported, [f], observer) for f in fields)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None
        return full, single

    def alternatives(self, state: GameState, options: Mapping[str, str]
                     ) -> Iterator[Alternative]:
        """``state`` under every other value of every rule option, with the clauses in
        question of the option's register entry (options the register does not name are not
        blamed)."""
        base: DraculaRules = state.model.rules
        for name, values in self.option_values().items():
            current = getattr(base, name)
            current_text = _text(current)
            for value in values:
                if value == current_text:
                    continue
                typed: object = value == "true" if isinstance(current, bool) else value
                try:
                    rules = replace(base, **{name: typed})  # type: ignore[arg-type]
                except (MalformedInput, TypeError, ValueError):
                    continue
                yield Alternative(_register_clauses(name), state.game.from_model(
                    replace(state.model, rules=rules), state.moves))

    def restore(self, alternative: GameState, state: GameState) -> GameState:
        return state.game.from_model(replace(alternative.model, rules=state.model.rules),
                                     alternative.moves)

    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(clauses)

    def probe_actions(self, state: GameState) -> list[str]:
        s = state.model
        out: list[str] = []
        k = phase(s)
        cards = s.cards
        if k == "move":
            here = s.pos[s.active]
            far = next((loc for loc in range(s.board.size)
                        if loc != here and loc not in s.board.neighbours(here)), None)
            out += ["stop", "look"]
            if far is not None:  # a reduced board of two locations has none
                out.append(f"move {s.board.name(far)}")
            out += [f"move {s.board.name(n)}" for n in s.board.neighbours(here)]
            out += [f"give {c}" for c in s.hand[s.active] if cards.enc(c).kind is Kind.TARGET]
        elif k == "pay":
            out += [f"play {c}" for c in s.aside[s.active][:1]]
            out += [f"play {c} special" for c in s.current[s.active]]
            out.append("stop")
        elif k == "barrier":
            colours = s.agenda[0].colours
            for colour in COLOURS:
                for edge in s.board.edges:
                    out.append(f"barrier {colour} {s.board.edge_name(edge)}")
            if not colours:
                out.append("no-barrier")
        elif k in ("place", "meet", "rescue"):
            other = cards.encounter_of(Side(1 - s.agenda[0].player))
            out += [f"place {other[0]}", "stop", "move a2"]
        elif k == "choose":
            other = cards.encounter_of(Side(1 - s.agenda[0].player))
            out += [f"choose {other[0]}", "stop"]
        legal = {str(a) for a in legal_actions(s)}
        found = list(dict.fromkeys(a for a in out if a not in legal))
        if k == "barrier" and len(found) > 8:  # a few near misses of each kind, not all 68
            found = found[:: max(1, len(found) // 8)]
        return found


def public_state(state: State) -> dict[str, Any]:
    """The public state of an engine state (see the module docstring)."""
    s = state
    p = current_player(s)
    name = s.board.name
    revealed = None
    if s.revealed is not None:
        revealed = [name(s.revealed), s.board_cards[s.revealed]]
    return {
        "phase": phase(s),
        "to_move": p if p in (0, 1) else "chance" if p == CHANCE else None,
        "turn": s.turn,
        "active": s.active,
        "steps": s.steps,
        "can_look": s.can_look,
        "pos": [name(s.pos[0]), name(s.pos[1])],
        "life": list(s.life),
        "cards_at": [c is not None for c in s.board_cards],
        "revealed": revealed,
        "played": s.played,
        "use_special": s.use_special,
        "barriers": {c: None if e is None else s.board.edge_name(e)
                     for c, e in zip(COLOURS, s.barriers, strict=True)},
        "captured": [sorted(s.captured[0]), sorted(s.captured[1])],
        "enemy_discard": [sorted(s.enc_discard[0]), sorted(s.enc_discard[1])],
        "action_discard": [sorted(s.adiscard[0]), sorted(s.adiscard[1])],
        "hand_size": [len(s.hand[0]), len(s.hand[1])],
        "current_size": [len(s.current[0]), len(s.current[1])],
        "aside_size": [len(s.aside[0]), len(s.aside[1])],
        "pool_size": len(s.pool),
        "winner": s.winner,
    }


def observation(state: State, player: int) -> dict[str, Any]:
    """What ``player`` sees of an engine state: the public state and its own cards.

    Raises:
        MalformedInput: no such player.
    """
    if player not in (0, 1):
        raise MalformedInput(f"no player {player} in dracula (0 Dracula, 1 Van Helsing)")
    mine = set(state.cards.encounter_of(Side(player)))
    return {"player": player, **public_state(state),
            "hand": sorted(state.hand[player]), "current": sorted(state.current[player]),
            "aside": sorted(state.aside[player]),
            "pool": sorted(c for c in state.pool if c in mine),
            "known": list(state.known[player])}


_MISSING_CLAUSES: dict[str, tuple[str, ...]] = {
    "move": ("dracula-en:move.orthogonal", "dracula-en:pay.no-crossing",
             "dracula-en:look.opponent-card"),
    "look": ("dracula-en:move.look-choice",),
    "stop": ("dracula-en:move.minimum", "dracula-en:pay.move-ends"),
    "play": ("dracula-en:pay.one-card", "dracula-en:cards.cycle"),
    "barrier": ("dracula-en:barriers.colour", "dracula-en:barriers.side-by-side",
                "dracula-en:pay.barrier-restrictions"),
    "no-barrier": ("dracula-en:barriers.colour",),
    "give": ("dracula-en:early-end.give-target",),
    "accept": ("dracula-en:early-end.give-target",),
    "place": ("dracula-en:look.own-card", "dracula-en:empty.fill"),
    "reveal": ("dracula-en:meet.reveal-hands",), "no-reveal": ("dracula-en:meet.reveal-hands",),
    "choose": ("dracula-en:setup.secret-choice",),
    "chance": ("dracula-en:setup.deal", "dracula-en:cards.cycle"),
}
"""The fallback for an action the model allows and an engine withholds, when no contract
permits it: clauses about the action's kind."""


SCOPE_GAMES = 6
"""Random games of the model sampled (seeds 0..SCOPE_GAMES-1) to measure how general each
contract is (:func:`~ruleproof.properties.conformance.blame.scope_of`)."""


@cache
def _scope(rules: DraculaRules) -> dict[tuple[str, str], float]:
    """How often each contract of dracula-en is in play in random games under ``rules``."""
    from ruleproof.model.dracula import is_terminal, resolve_chance
    from ruleproof.properties.contracts.core import contract_set, expanded

    def transitions() -> Iterable[tuple[State, Any, State]]:
        for seed in range(SCOPE_GAMES):
            rng = random.Random(seed)
            state = resolve_chance(new_game(seed, rules))
            for _ in range(400):
                legal = legal_actions(state)
                if is_terminal(state) or not legal:
                    break
                action = legal[rng.randrange(len(legal))]
                nxt = apply(state, action)
                yield state, action, nxt
                state = resolve_chance(nxt)

    sample = list(transitions())
    contracts = expanded(contract_set("dracula-en").active(sample[0][0])) if sample else ()
    return scope_of(contracts, sample)


def _resized(model: tuple[str, ...], before: tuple[str, ...], n: int) -> tuple[str, ...]:
    """``model`` cut or grown to ``n`` cards (grown by the cards ``before`` held)."""
    if n <= len(model):
        return model[:n]
    return (*model, *[c for c in before if c not in model][:n - len(model)])


def _ordered(model: tuple[str, ...], before: tuple[str, ...], wanted: Sequence[str]
             ) -> tuple[str, ...]:
    """The cards ``wanted`` in the model's order (those the model lacks after, in the order
    of the state before the step)."""
    rest = [c for c in wanted if c not in model]
    rest.sort(key=lambda c: before.index(c) if c in before else len(before))
    return (*[c for c in model if c in wanted], *rest)


def _pair(values: list[Any]) -> tuple[Any, Any]:
    return values[0], values[1]


def _substitute(previous: State, state: State, reported: Mapping[str, Any],
                fields: Sequence[str], observer: int | None) -> State:
    """``state`` with the reported values of ``fields`` substituted (public-state fields and,
    with ``observer``, that side's private ones).

    Raises:
        KeyError, IndexError, TypeError, ValueError, AttributeError: a value naming no
            location, border or card of the game.
    """
    board = state.board
    where = {board.name(i): i for i in range(board.size)}
    edges = {board.edge_name(e): e for e in board.edges}
    changes: dict[str, Any] = {}
    cards = list(state.board_cards)
    for f in fields:
        v = reported[f]
        if f in ("turn", "active", "steps", "can_look", "played", "use_special", "winner"):
            changes[f] = v
        elif f == "life":
            changes["life"] = _pair([int(x) for x in v])
        elif f == "pos":
            changes["pos"] = _pair([where[x] for x in v])
        elif f == "cards_at":
            for loc, there in enumerate(v):
                if not there:
                    cards[loc] = None
                elif cards[loc] is None:
                    cards[loc] = previous.board_cards[loc] or next(
                        (k[loc] for k in state.known if k[loc] is not None), "?")
        elif f == "revealed":
            if v is None:
                changes["revealed"] = None
            else:
                changes["revealed"] = where[v[0]]
                cards[where[v[0]]] = v[1]
        elif f == "barriers":
            changes["barriers"] = tuple(None if v[c] is None else edges[v[c]] for c in COLOURS)
        elif f in ("captured", "enemy_discard", "action_discard"):
            attr = {"enemy_discard": "enc_discard", "action_discard": "adiscard"}.get(f, f)
            now, before = getattr(state, attr), getattr(previous, attr)
            changes[attr] = _pair([_ordered(now[i], before[i], v[i]) for i in (0, 1)])
        elif f in ("hand_size", "current_size", "aside_size"):
            attr = f[: -len("_size")]
            now, before = changes.get(attr, getattr(state, attr)), getattr(previous, attr)
            changes[attr] = _pair([_resized(now[i], before[i], int(v[i])) for i in (0, 1)])
        elif f == "pool_size":
            changes["pool"] = _resized(state.pool, previous.pool, int(v))
        elif f in ("hand", "current", "aside") and observer is not None:
            now, before = getattr(state, f), getattr(previous, f)
            mine = _ordered(now[observer], before[observer], v)
            changes[f] = (mine, now[1]) if observer == 0 else (now[0], mine)
        elif f == "pool" and observer is not None:
            own = set(state.cards.encounter_of(Side(observer)))
            others = tuple(c for c in state.pool if c not in own)
            changes["pool"] = (*_ordered(tuple(c for c in state.pool if c in own),
                                         previous.pool, v), *others)
        elif f == "known" and observer is not None:
            known = tuple(v)
            changes["known"] = (known, state.known[1]) if observer == 0 else (
                state.known[0], known)
        elif f == "phase":
            mover = reported.get("to_move")
            changes["agenda"] = _agenda(previous, state, str(v), mover if isinstance(
                mover, int) else reported.get("active", state.active))
        elif f == "to_move" and isinstance(v, int) and "phase" not in fields:
            agenda = state.agenda
            if agenda and agenda[0].player != v:
                changes["agenda"] = (replace(agenda[0], player=v), *agenda[1:])
    if cards != list(state.board_cards):
        changes["board_cards"] = tuple(cards)
    return replace(state, **changes)


def _agenda(previous: State, state: State, kind: str, mover: Any) -> tuple[Step, ...]:
    """The agenda whose pending step is ``kind``: the model's from that step on if it is
    still to come, the one before the step if the engine stayed there, else the model's with
    a step of that kind for side ``mover`` first (``over``: none)."""
    if kind == "over":
        return ()
    for i, item in enumerate(state.agenda):
        if item.kind == kind:
            return state.agenda[i:]
    if previous.agenda and previous.agenda[0].kind == kind:
        return previous.agenda
    return (Step(kind, mover if isinstance(mover, int) else state.active), *state.agenda)


CONFORMANCE = DraculaConformance()
"""Dracula's ``conformance`` capability (registered in properties/dracula/plugin.py)."""

__all__ = ["CONFORMANCE", "SIDES", "DraculaConformance", "dracula_setup_json", "observation",
           "public_state"]
