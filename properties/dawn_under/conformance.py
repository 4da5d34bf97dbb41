"""Dawn Under's ``conformance`` capability: the game as the conformance harness sees it
(:class:`~ruleproof.properties.conformance.games.ConformanceGame`).

Public state fields (all players see the same, du-en:ch1.open, du-en:prep.row):
``phase`` (open|place|give|receive|over), ``to_move`` (int or null when over),
``turn_player``, ``may_stop``, ``pending`` (grave or null), ``lids`` (per grave: colour name,
``"rat"``, ``"?"`` for a lid not seen since it was put there, null for no lid),
``contents`` (null, ``"vampire COLOUR"`` or ``"garlic P"``), ``rows`` (per player, colour
names left to right, ``"?"`` face down), ``stakes_held``, ``stakes_path``, ``garlic_hand``,
``reserve_size``, ``removed_rats``, ``plague`` (null or ``{origin, holder, current, turns,
opened}``), ``gifts`` (``[[giver, receiver], ...]`` still to come, first is next),
``in_transit`` (colour or null), ``winner`` (int or null); with the expansion
(``expansion=gruft``) also ``gruft``: ``{bats: [per player], open_graves: [graves],
count_grave: grave or null, post: player or null, bat: null or {grave, owner, believed}}``
(gruft-en:prep.bats, gruft-en:play.keep-open, gruft-en:prep.count, gruft-en:bats.declare,
gruft-en:bats.ask); the expansion's phases are ``count-open``, ``count-place``,
``count-move``, ``bat``, ``bat-gift`` and ``put``. An observation is the public state plus
``player`` (nothing is private).

The explicit set-up (``lids``, ``reserve``, ``rows`` as colour names or ``rat``,
``start_player``, ``names``) names the start player and the players (``names``, one per seat,
in seat order: labels only, duplicates allowed; the model ignores them). Presets: du-en (the
default), du-cs, 2p; the expansion gruft on the 3-6 player rule sets.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, is_dataclass, replace
from dataclasses import fields as dc_fields
from fractions import Fraction
from functools import cache
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameState
from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options, presets
from ruleproof.model.dawn_under.config import option_values as all_option_values
from ruleproof.model.dawn_under.engine import (
    current_player,
    deal,
    initial_state,
    is_terminal,
    legal_actions,
    step,
)
from ruleproof.model.dawn_under.expansion import all_expansions
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dawn_under.gruft import GruftPhase
from ruleproof.model.dawn_under.gruft import part as gruft_part
from ruleproof.model.dawn_under.gruft.state import BatClaim
from ruleproof.model.dawn_under.state import (
    OPTION_VALUES,
    RAT,
    Config,
    EventKind,
    GarlicIn,
    Gift,
    Phase,
    Plague,
    Row,
    Setup,
    State,
    Vampire,
    VampireIn,
)
from ruleproof.properties.conformance.blame import scope_of
from ruleproof.properties.conformance.games import (
    DEFAULT_NAMES,
    EXPANSION_KEY,
    MAX_NAME,
    NAMES_KEY,
    PRESET_KEY,
    REDUCED_KEY,
    START_KEY,
    Alternative,
    FieldTypes,
    SetupVariant,
    name_problem,
)
from ruleproof.properties.conformance.jsontypes import Named, has_type
from ruleproof.properties.conformance.readings import (
    ambiguity_register,
    counterparts,
    reading_clauses,
)
from ruleproof.properties.contracts.core import Contract, expanded
from ruleproof.properties.dawn_under.scenarios import parse_action

GAME = "dawn-under"
"""The game's name (its plugin record's)."""

UNBOUNDED = 10**9
"""The interface's truncation bound for the harness's games: conformance bounds a game by its
own ``max_steps`` (a trace by its length), so the interface never truncates one."""

_TWO_PLAYER_SECTION = "du-en:" "2p."
"""Prefix of the ids of du-en's 2-player section (split so the citation scanner does not read
the prefix as a clause id)."""

_FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "phase": ("du-en:2p.reopen", "du-en:ch1.continue", "du-en:ch1.no-match-ends", "du-en:ch2.ends",
              "du-en:ch2.gift", "du-en:ch3.ends", "du-en:ch4.occupied",
              "du-en:ch4.end-all-opened", "du-en:ch4.end-all-passed", "du-en:end.first-empty"),
    "to_move": ("du-en:play.clockwise", "du-en:ch1.continue", "du-en:ch2.ends", "du-en:ch3.ends",
                "du-en:ch1.no-match-ends", "du-en:ch2.gift", "du-en:ch3.own-garlic",
                "du-en:ch4.pass", "du-en:ch4.next-turn", "du-en:ch4.occupied",
                "du-en:ch5.hand-over"),
    "turn_player": ("du-en:play.clockwise", "du-en:ch4.next-turn", "du-en:ch1.continue",
                    "du-en:ch2.ends", "du-en:ch3.ends", "du-en:ch1.no-match-ends",
                    "du-en:ch4.occupied", "du-en:ch5.hand-over"),
    "may_stop": ("du-en:ch1.continue",),
    "pending": ("du-en:2p.reopen", "du-en:ch1.match", "du-en:ch1.garlic"),
    "lids": ("du-en:2p.rat-stays", "du-en:ch4.rat", "du-en:ch4.cleanup", "du-en:ch5.cleanup",
             "du-en:ch1.open", "du-en:2p.lids"),
    "contents": ("du-en:ch1.match", "du-en:ch1.garlic", "du-en:ch3.garlic-back"),
    "rows": ("du-en:row.refill", "du-en:row.four-or-fewer", "du-en:ch1.match",
             "du-en:ch3.received-open", "du-en:ch3.flip-when-short", "du-en:ch2.gift",
             "du-en:ch3.other-garlic", "du-en:ch3.own-garlic", "du-en:prep.row"),
    "stakes_held": ("du-en:ch2.stake", "du-en:ch2.stakes-back", "du-en:ch2.gift",
                    "du-en:2p.reopen"),
    "stakes_path": ("du-en:ch2.stake", "du-en:ch2.stakes-back", "du-en:ch2.gift",
                    "du-en:2p.reopen"),
    "garlic_hand": ("du-en:ch1.garlic", "du-en:ch3.garlic-back"),
    "reserve_size": ("du-en:ch4.cleanup", "du-en:ch5.cleanup"),
    "removed_rats": ("du-en:ch4.cleanup", "du-en:ch5.cleanup"),
    "plague": ("du-en:ch4.rat", "du-en:ch4.pass", "du-en:ch4.stay-open",
               "du-en:ch4.end-all-opened", "du-en:ch4.end-all-passed", "du-en:ch4.end-new-rat",
               "du-en:ch4.occupied", "du-en:ch5.hand-over", "du-en:ch5.holder-starts",
               "du-en:2p.plague"),
    "gifts": ("du-en:ch2.gift", "du-en:ch3.other-garlic", "du-en:ch3.own-garlic",
              "du-en:2p.own-garlic-stake", "du-en:2p.other-garlic"),
    "in_transit": ("du-en:ch2.gift", "du-en:ch3.other-garlic", "du-en:ch3.own-garlic",
                   "du-en:ch3.received-open", "du-en:2p.own-garlic-stake",
                   "du-en:2p.other-garlic"),
    "winner": ("du-en:end.first-empty", "du-en:aim.win"),
    # The expansion gruft-en (only in the public state of a game with expansion=gruft).
    "gruft": ("gruft-en:count.get-three", "gruft-en:count.place", "gruft-en:count.move",
              "gruft-en:count.get-lost", "gruft-en:bats.declare", "gruft-en:bats.once",
              "gruft-en:play.keep-open", "gruft-en:bats.ask"),
}

_GRUFT_FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "phase": ("gruft-en:bats.close-ends", "gruft-en:count.occupied-ends",
              "gruft-en:count.open-start", "gruft-en:count.empty-continue",
              "gruft-en:count.place", "gruft-en:bats.declare", "gruft-en:bats.ask"),
    "to_move": ("gruft-en:bats.close-ends", "gruft-en:count.occupied-ends",
                "gruft-en:bats.ask", "gruft-en:count.place"),
    "turn_player": ("gruft-en:bats.close-ends", "gruft-en:count.occupied-ends",
                    "gruft-en:count.place"),
    "may_stop": ("gruft-en:count.empty-continue", "gruft-en:bats.close-ends"),
    "pending": ("gruft-en:bats.open", "gruft-en:count.empty"),
    "contents": ("gruft-en:bats.open", "gruft-en:count.empty", "gruft-en:count.occupied"),
    "rows": ("gruft-en:bats.doubt-vampire", "gruft-en:bats.believed-vampire",
             "gruft-en:bats.doubt-garlic", "gruft-en:bats.open", "gruft-en:count.empty"),
    "stakes_held": ("gruft-en:bats.doubt-empty", "gruft-en:count.no-penalty"),
    "stakes_path": ("gruft-en:bats.doubt-empty", "gruft-en:count.no-penalty"),
    "garlic_hand": ("gruft-en:bats.doubt-garlic", "gruft-en:bats.believed-garlic"),
    "gifts": ("gruft-en:bats.doubt-vampire", "gruft-en:bats.believed-vampire",
              "gruft-en:bats.doubt-garlic", "gruft-en:bats.doubt-empty"),
    "in_transit": ("gruft-en:bats.doubt-vampire", "gruft-en:bats.believed-vampire"),
}
"""Expansion clauses of the base fields (gruft-en), consulted only when the expansion is
played: the model's expansion transitions cite them in their events."""

_GRUFT_PARTS: dict[str, tuple[str, ...]] = {
    "bats": ("gruft-en:bats.once", "gruft-en:bats.declare", "gruft-en:prep.bats"),
    "open_graves": ("gruft-en:play.keep-open",),
    "count_grave": ("gruft-en:count.place", "gruft-en:count.move", "gruft-en:count.get-three",
                    "gruft-en:count.get-lost"),
    "post": ("gruft-en:count.get-three", "gruft-en:count.get-lost", "gruft-en:prep.count"),
    "bat": ("gruft-en:bats.declare", "gruft-en:bats.ask", "gruft-en:bats.open"),
}
"""The parts of the public ``gruft`` field and the clauses that change each."""

_TWO_PLAYER: dict[str, str] = {
    "du-en:ch2.gift": "du-en:2p.own-garlic-stake",
    "du-en:ch3.own-garlic": "du-en:2p.own-garlic-stake",
    "du-en:ch3.other-garlic": "du-en:2p.other-garlic",
    "du-en:ch4.rat": "du-en:2p.rat-stays",
    "du-en:ch5.holder-starts": "du-en:2p.plague",
}
"""With 2 players a transition citing the key also applies the 2-player rule of the value
(du-en:2p.own-garlic-stake: four vampires; du-en:2p.other-garlic: two; du-en:2p.rat-stays;
du-en:2p.plague)."""

_PRIORITY = ("winner", "gruft", "plague", "gifts", "in_transit", "stakes_held", "stakes_path", "garlic_hand",
             "contents", "rows", "phase", "to_move", "turn_player", "may_stop", "pending", "lids",
             "reserve_size", "removed_rats")
"""The field fallback's order of fields (causes before consequences): used only where no
registered reading and no clause contract separates the model's step from the engine's."""

_ACTION_CLAUSES: dict[str, tuple[str, ...]] = {  # fallback for a withheld action no contract permits
    "open": ("du-en:ch1.open", "du-en:ch4.neighbours"),
    "place": ("du-en:ch1.match", "du-en:ch1.two-match", "du-en:ch1.outermost"),
    "garlic": ("du-en:ch1.garlic", "du-en:ch1.no-match"),
    "leave": ("du-en:ch1.garlic", "du-en:ch1.no-match"),
    "stop": ("du-en:ch1.continue", "du-en:ch4.pass"),
    "give": ("du-en:ch2.gift", "du-en:ch1.outermost"),
    "receive": ("du-en:ch3.received-open",),
    "bat": ("gruft-en:bats.declare", "gruft-en:bats.once"),
    "believe": ("gruft-en:bats.ask",),
    "doubt": ("gruft-en:bats.ask",),
    "count": ("gruft-en:count.place", "gruft-en:count.move"),
    "gift": ("gruft-en:bats.believed-vampire",),
}


_FIELD_TYPES: dict[str, str] = {
    "phase": "str", "to_move": "int?", "turn_player": "int", "may_stop": "bool",
    "pending": "int?", "lids": "[str?]", "contents": "[str?]", "rows": "[[str]]",
    "stakes_held": "[int]", "stakes_path": "int", "garlic_hand": "[int]", "reserve_size": "int",
    "removed_rats": "int", "plague": "plague?", "gifts": "[[int]]", "in_transit": "str?",
    "winner": "int?", "gruft": "gruft",
}
_TYPE_WORDS = {
    "str": "a string", "int?": "an integer or null", "int": "an integer", "bool": "true or false",
    "[str?]": "a list of strings or nulls", "[[str]]": "a list of lists of strings",
    "[int]": "a list of integers", "[[int]]": "a list of lists of integers",
    "str?": "a string or null",
    "plague?": "null or an object {origin, holder, current, turns: integers, opened: list of "
               "integers}",
    "gruft": "an object {bats: list of integers, open_graves: list of integers, count_grave: "
             "integer or null, post: integer or null, bat: null or {grave, owner: integers, "
             "believed: list of integers}}",
}
_PLAGUE_KEYS = {"origin": "int", "holder": "int", "current": "int", "turns": "int",
                "opened": "[int]"}


_GRUFT_KEYS = {"bats": "[int]", "open_graves": "[int]", "count_grave": "int?", "post": "int?",
               "bat": "bat?"}
_BAT_KEYS = {"grave": "int", "owner": "int", "believed": "[int]"}


def _keyed(value: Any, keys: Mapping[str, str]) -> bool:
    return isinstance(value, dict) and set(value) == set(keys) and all(
        has_type(value[k], t, _NAMED) for k, t in keys.items())


_NAMED: Named = {
    "plague": lambda v: _keyed(v, _PLAGUE_KEYS),
    "gruft": lambda v: _keyed(v, _GRUFT_KEYS),
    "bat?": lambda v: v is None or _keyed(v, _BAT_KEYS),
}


def _field_clauses(name: str, expected: Mapping[str, Any],
                   reported: Mapping[str, Any]) -> tuple[str, ...]:
    """The clauses that change public-state field ``name``. With the expansion (a ``gruft``
    field in the model's state) its clauses come first, and for ``gruft`` itself those of the
    parts that differ (:data:`_GRUFT_PARTS`)."""
    if "gruft" not in expected:
        return _FIELD_CLAUSES.get(name, ())
    if name == "gruft":
        mine, theirs = expected.get("gruft"), reported.get("gruft")
        if not isinstance(theirs, dict):  # the engine does not play the expansion at all
            return ("gruft-en:prep.base", "gruft-en:prep.bats", "gruft-en:prep.count")
        if isinstance(mine, dict):
            parts = [k for k in _GRUFT_PARTS if mine.get(k) != theirs.get(k)]
            if parts:
                return _dedup(c for k in parts for c in _GRUFT_PARTS[k])
        return _FIELD_CLAUSES["gruft"]
    return (*_GRUFT_FIELD_CLAUSES.get(name, ()), *_FIELD_CLAUSES.get(name, ()))


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def transition_clauses(old: State, events: Iterable[Any], new: State) -> tuple[str, ...]:
    """The clause ids the model's transition ``old -> new`` used, from its ``events``
    (``engine.step``): each event's clause, du-en:ch4.cleanup (and du-en:ch5.cleanup after a
    new rat) for the clean-up that ends a plague, the clause of every pending gift before or
    after, and with 2 players the 2-player rule each cited clause brings in
    (:data:`_TWO_PLAYER`). Used by the conformance blame and by clause coverage
    (``ruleproof explore --coverage``)."""
    happened = []
    for e in events:
        happened.append(e.clause)
        if e.kind is EventKind.PLAGUE_END:  # the clean-up (model: _close_plague) has no event
            happened.append("du-en:ch4.cleanup")
            if e.clause == "du-en:ch4.end-new-rat":
                happened.append("du-en:ch5.cleanup")
    happened += [g.clause for g in (*old.gifts, *new.gifts)]
    if old.config.players == 2:
        happened += [_TWO_PLAYER[c] for c in happened if c in _TWO_PLAYER]
    return _dedup(c for c in happened if c)


_TYPES = FieldTypes(_FIELD_TYPES, {}, _TYPE_WORDS, _NAMED)


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@cache
def _game(players: int, preset: str) -> DawnUnderGame:
    """The interface's game that wraps the harness's engine states (their own configuration
    rules every step; the game gives the action table and the flow)."""
    return DawnUnderGame(players, preset, max_moves=UNBOUNDED)


def _wrap(config: Config, state: State) -> GameState:
    preset = config.preset if config.preset in presets() else None
    return _game(config.players, preset or ("2p" if config.players == 2 else "du-en")
                 ).from_model(state)


def in_document(clauses: Iterable[str], preset: str) -> tuple[str, ...]:
    """``clauses`` as the rule set ``preset`` reads them: with du-cs each du-en clause is
    preceded by its du-cs counterparts (spec/dawn_under/alignment/du-cs.toml), with 2p the
    clauses of the 2-player section of du-en come first."""
    items = list(clauses)
    if preset == "du-cs":
        found = counterparts("du-cs")
        return _dedup(c for item in items for c in (*found.get(item, ()), item))
    if preset == "2p":
        return _dedup([*(c for c in items if c.startswith(_TWO_PLAYER_SECTION)), *items])
    return _dedup(items)


def _own_document(preset: str) -> str:
    """The prefix of the clause ids of the rule set's own document or section."""
    return "du-cs:" if preset == "du-cs" else _TWO_PLAYER_SECTION if preset == "2p" else ""


@dataclass(frozen=True)
class DawnUnderConformance:
    """Dawn Under's :class:`~ruleproof.properties.conformance.games.ConformanceGame` (model
    ``ruleproof.model.dawn_under``, documents du-en, du-cs, gruft-en); see the module
    docstring for the JSON."""

    has_start_player: bool = True
    has_names: bool = True
    observed_players: tuple[int, ...] = ()
    field_priority: tuple[str, ...] = _PRIORITY

    @property
    def field_types(self) -> FieldTypes:
        return _TYPES

    # -- set-up codec ---------------------------------------------------------------------
    def _config(self, players: int, options: Mapping[str, str]) -> Config:
        opts = dict(options)
        if REDUCED_KEY in opts:  # a reduced set-up of ``ruleproof explore`` (spec/reduced/)
            from ruleproof.properties.dawn_under.explore import reduced_config
            if str(opts.get(EXPANSION_KEY, "none")) != "none":
                # the reduced configurations model the base game only: refuse, do not drop it
                raise MalformedInput(f"reduced configuration {opts[REDUCED_KEY]} does not "
                                     f"support the expansion {opts[EXPANSION_KEY]!r}")
            config = reduced_config(opts)
            if config.players != players:
                raise MalformedInput(f"reduced configuration {opts[REDUCED_KEY]} has "
                                     f"{config.players} players, the header says {players}")
            return config
        preset = str(opts.pop(PRESET_KEY, "du-en"))
        return make_config(players, parse_options(opts, base=preset_options(preset)),
                           preset=preset)

    def presets(self) -> tuple[str, ...]:
        return tuple(presets())

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        preset = str(options.get(PRESET_KEY, "du-en"))
        found = presets().get(preset)
        if found is None:
            raise MalformedInput(f"unknown preset {preset!r}; known: {', '.join(presets())}")
        if str(options.get(EXPANSION_KEY, "none")) != "none":
            # gruft-en:prep.base: the expansion is played on top of the 3-6 player rules
            return tuple(n for n in found.players if n != 2)
        return found.players

    def option_values(self) -> dict[str, tuple[str, ...]]:
        # The expansion itself is a set-up field of its own (SetupSpace.expansions); its
        # readings (gruft_*) are options like the base game's (ignored in the base game).
        return {k: v for k, v in all_option_values().items() if k != EXPANSION_KEY}

    def option_owners(self) -> Mapping[str, str]:
        return _option_owners()

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> GameState:
        config = self._config(players, options)
        if setup is None:
            return _wrap(config, initial_state(config, deal(config, random.Random(seed or 0))))
        return _wrap(config, initial_state(config, setup_from_json(config, setup)))

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        config = self._config(players, options)
        return setup_json(config, deal(config, random.Random(seed)))

    def setup_json(self, state: GameState) -> dict[str, Any]:
        return setup_json_of(state.model)

    def deal_chance(self, players: int, options: Mapping[str, str],
                    setup: Mapping[str, Any]) -> list[tuple[list[tuple[str, Fraction]], str]]:
        """The explicit set-up as the engine's chance nodes dealt it (``conform --log``'s
        chance test): per item, in deal order (the reserve top first, each grave's lid, each
        row left to right; ``ruleproof.model.dawn_under.dealing``), the exact distribution
        (outcome name, probability) and the outcome the set-up shows (du-en:prep.deal,
        du-en:prep.mix-rats, du-en:prep.reserve).

        Raises:
            MalformedInput: a set-up or option the rule set does not allow.
        """
        from ruleproof.model.dawn_under.dealing import (
            Dealing,
            chance_string,
            deal_outcomes,
            deal_step,
            setup_outcomes,
        )

        config = self._config(players, options)
        path = setup_outcomes(setup_from_json(config, setup))
        state: Any = Dealing(config)
        out: list[tuple[list[tuple[str, Fraction]], str]] = []
        for code in path:
            dist = [(chance_string(k), p) for k, p in deal_outcomes(state)]
            out.append((dist, chance_string(code)))
            state = deal_step(state, code)
        return out

    def parse(self, action: str) -> Any:
        return parse_action(action)

    # -- observer -------------------------------------------------------------------------
    def public_state(self, state: GameState) -> dict[str, Any]:
        return public_state(state.model)

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        m = state.model
        if not 0 <= player < m.config.players:
            raise MalformedInput(f"no player {player} in a {m.config.players}-player game")
        return {"player": player, **public_state(m)}

    def setup_variants(self, players: int, options: Mapping[str, str],
                       setup: Mapping[str, Any]) -> list[SetupVariant]:
        """The set-ups an engine ignoring or misreading one set-up field plays: another start
        player (du-en:play.start), the rows dealt to the seats in the sorted order of the
        players' names or its inverse (du-en:prep.deal), the expansion left out or added
        (gruft-en:prep.base), the lids read one grave shifted either way
        (du-en:prep.mix-rats)."""
        out: list[SetupVariant] = []
        start = setup.get(START_KEY, 0)
        for seat in range(players):
            if seat != start:
                out.append(SetupVariant("start player", ("du-en:play.start",), players,
                                        options, {**setup, START_KEY: seat}))
        names, rows = setup.get(NAMES_KEY), setup.get("rows")
        if isinstance(names, list) and isinstance(rows, list) and len(rows) == players:
            order = sorted(range(players), key=lambda p: str(names[p]))
            inverse = sorted(range(players), key=lambda p: order[p])
            for perm in (order, inverse):
                if perm != list(range(players)):
                    out.append(SetupVariant("seating", ("du-en:prep.deal", "du-en:prep.row"),
                                            players, options,
                                            {**setup, "rows": [rows[p] for p in perm]}))
        other = "none" if str(options.get(EXPANSION_KEY, "none")) != "none" else "gruft"
        flipped = {k: v for k, v in options.items() if k != EXPANSION_KEY}
        if other != "none":
            flipped[EXPANSION_KEY] = other
        out.append(SetupVariant("expansion", ("gruft-en:prep.base",), players, flipped, setup))
        lids = setup.get("lids")
        if isinstance(lids, list) and lids:
            for shifted in (lids[1:] + lids[:1], lids[-1:] + lids[:-1]):
                out.append(SetupVariant("deal", ("du-en:prep.mix-rats",), players, options,
                                        {**setup, "lids": shifted}))
        return out

    def state_identity(self, state: GameState) -> str:
        """Every field of the state but its configuration (fixed for a game): Dawn Under's
        state carries no history (``ruleproof perft``)."""
        m = state.model
        return repr(tuple(getattr(m, f.name) for f in dc_fields(m) if f.name != "config"))

    def turn_of(self, state: GameState) -> int | None:
        turn = state.model.turn_player
        return turn if isinstance(turn, int) and not isinstance(turn, bool) else None

    def choice_order(self, state: GameState, actions: tuple[Any, ...]) -> Sequence[Any]:
        return actions

    # -- blame ----------------------------------------------------------------------------
    def cited(self, before: GameState, after: GameState) -> tuple[str, ...]:
        events = after.node.seen if after.node is not None else ()
        return transition_clauses(before.model, events, after.model)

    def field_clauses(self, name: str, expected: Mapping[str, Any],
                      reported: Mapping[str, Any]) -> tuple[str, ...]:
        return _field_clauses(name, expected, reported)

    def withheld_clauses(self, action: str) -> tuple[str, ...]:
        kind = action.split()[0] if action.split() else ""
        return _ACTION_CLAUSES.get(kind, ())

    def contracts(self, state: GameState) -> tuple[Contract, ...]:
        """The clause contracts of the rule set ``state`` is played under: du-cs's own with
        preset du-cs, else du-en's (its 2-player clauses apply with two players), plus
        gruft-en's with the expansion (the base clauses it replaces dropped, as the
        refinement check does: properties/contracts/checks.py)."""
        return _rule_set_contracts(state.model.config)

    def scope(self, state: GameState) -> Mapping[tuple[str, str], float]:
        return _scope(state.model.config)

    def engine_post(self, previous: GameState, action: str, state: GameState,
                    reported: Mapping[str, Any], observer: int | None = None
                    ) -> tuple[State, tuple[State, ...]] | None:
        """The engine's successor as a typed state: the model's successor ``state`` with every
        public field the engine reported substituted (lids shown as "?" keep the model's
        value, unseen; face-down vampires take the colour of the model's vampire at the same
        place; what the public state does not show, e.g. the reserve's order, is the
        model's). Also the model's successor with one differing field substituted each.
        None if the report cannot be read as a state."""
        before, after = previous.model, state.model
        model = public_state(after)
        fields = [k for k, v in reported.items() if k in _FIELD_TYPES and model.get(k) != v]
        try:
            full = _substitute(before, after, reported, fields)
            single = tuple(_substitute(before, after, reported, [f]) for f in fields)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None
        return full, single

    def alternatives(self, state: GameState, options: Mapping[str, str]
                     ) -> Iterator[Alternative]:
        """``state`` under every other value of every rule option the ambiguity register
        names (the expansion and the colours removed aside), with the clauses supporting the
        model's reading (the rule set's own document first)."""
        preset = str(options.get(PRESET_KEY, "du-en"))
        m: State = state.model
        opts = m.config.options
        names = {r.option for r in ambiguity_register(GAME)}
        for name in sorted(names):
            if name in ("removed_colours", "expansion") or name.startswith("gruft_") or (
                    not hasattr(opts, name)):
                continue
            current = getattr(opts, name)
            current_text = _text(current)
            clauses = reading_clauses(GAME, name, current_text, preset, _own_document(preset))
            for value in OPTION_VALUES.get(name, ()):
                if value == current_text:
                    continue
                typed: object = value == "true" if isinstance(current, bool) else value
                try:
                    config = replace(m.config,
                                     options=replace(opts, **{name: typed}))  # type: ignore[arg-type]
                    alt = replace(m, config=config)
                except (TypeError, ValueError, MalformedInput):
                    continue
                yield Alternative(clauses, state.game.from_model(alt, state.moves))

    def restore(self, alternative: GameState, state: GameState) -> GameState:
        return state.game.from_model(replace(alternative.model, config=state.model.config),
                                     alternative.moves)

    def localise(self, clauses: Sequence[str], options: Mapping[str, str]) -> tuple[str, ...]:
        return in_document(clauses, str(options.get(PRESET_KEY, "du-en")))

    def probe_actions(self, state: GameState) -> list[str]:
        m = state.model
        last = m.config.board.size - 1
        out = ["stop", "open 0", f"open {last}", "give left", "receive right", "leave 0",
               "garlic 0", "place left 0", f"open {last + 1}"]
        if m.pending is not None:
            out += [f"place right {m.pending}", f"garlic {m.pending}", f"leave {m.pending}"]
        plague = m.plague
        if plague is not None:
            near = set(m.config.board.neighbours[plague.origin])
            far = next((g for g in range(last + 1) if g not in near and g != plague.origin), 0)
            out += [f"open {far}", f"open {plague.origin}"]
            out += [f"open {g}" for g in plague.opened[:1]]
            out += [f"place left {g}" for g in plague.opened[:1]]
        g = gruft_part(m)
        if g is not None:  # the expansion's near misses (gruft-en)
            out += ["believe", "doubt", "count 0", "gift 0", f"bat {last + 1}"]
            out += [f"open {x}" for x in g.open_graves[:1]]
            out += [f"bat {x}" for x in g.open_graves[:1]]
            if g.count_grave is not None:
                out += [f"open {g.count_grave}", f"bat {g.count_grave}"]
        legal = {str(a) for a in legal_actions(m)}
        return list(dict.fromkeys(a for a in out if a not in legal))


@cache
def _option_owners() -> dict[str, str]:
    """Rule option name -> the expansion that owns it (``gruft_three``: gruft)."""
    return {opt: exp.name for exp in all_expansions() for opt in exp.options}


def public_state(state: State) -> dict[str, Any]:
    """The public state of an engine state (see the module docstring)."""
    names = state.config.colours

    def lid(value: int | None, known: bool) -> str | None:
        if value is None:
            return None
        if not known:
            return "?"
        return "rat" if value == RAT else names[value]

    def content(c: VampireIn | GarlicIn | None) -> str | None:
        if isinstance(c, VampireIn):
            return f"vampire {names[c.colour]}"
        if isinstance(c, GarlicIn):
            return f"garlic {c.owner}"
        return None

    plague = state.plague
    return {
        "phase": state.phase.value,
        "to_move": None if is_terminal(state) else current_player(state),
        "turn_player": state.turn_player,
        "may_stop": state.may_stop,
        "pending": state.pending,
        "lids": [lid(v, k) for v, k in zip(state.lids, state.known, strict=True)],
        "contents": [content(c) for c in state.contents],
        "rows": [[names[v.colour] if v.face_up else "?" for v in row] for row in state.rows],
        "stakes_held": list(state.stakes_held),
        "stakes_path": state.stakes_path,
        "garlic_hand": list(state.garlic_hand),
        "reserve_size": len(state.reserve),
        "removed_rats": state.removed_rats,
        "plague": None if plague is None else {
            "origin": plague.origin, "holder": plague.holder, "current": plague.current,
            "turns": plague.turns, "opened": list(plague.opened)},
        "gifts": [[g.giver, g.receiver] for g in state.gifts],
        "in_transit": None if state.in_transit is None else names[state.in_transit],
        "winner": state.winner,
        **_gruft_state(state),
    }


def _gruft_state(state: State) -> dict[str, Any]:
    """The public ``gruft`` field of a game with the expansion (gruft-en: all of it lies
    open on the table, gruft-en:prep.bats, gruft-en:prep.count); empty without it."""
    g = gruft_part(state)
    if g is None:
        return {}
    bat = None if g.bat is None else {"grave": g.bat.grave, "owner": g.bat.owner,
                                      "believed": list(g.bat.believed)}
    return {"gruft": {"bats": list(g.bats), "open_graves": list(g.open_graves),
                      "count_grave": g.count_grave, "post": g.post, "bat": bat}}


def setup_json(config: Config, setup: Setup) -> dict[str, Any]:
    """The explicit set-up of a trace header (JSON: ``lids``, ``reserve``, ``rows`` as colour
    names or ``rat``, ``start_player``, default ``names``) that deals ``setup`` under
    ``config`` (du-en:prep.deal, du-en:prep.reserve, du-en:play.start)."""
    names = config.colours

    def lid(v: int | None) -> str | None:
        return None if v is None else "rat" if v == RAT else names[v]

    return {
        "lids": [lid(v) for v in setup.lids],
        "reserve": [lid(v) for v in setup.reserve],
        "rows": [[names[c] for c in row] for row in setup.rows],
        "start_player": setup.start_player,
        "names": list(DEFAULT_NAMES[:config.players]),
    }


def setup_json_of(state: State) -> dict[str, Any]:
    """The explicit set-up (see :func:`setup_json`) of a state just dealt, before any
    decision: its lids, reserve, rows and turn player."""
    return setup_json(state.config, Setup(
        state.lids, state.reserve, tuple(tuple(v.colour for v in row) for row in state.rows),
        state.turn_player))



def _rule_set_contracts(config: Config) -> tuple[Contract, ...]:
    return tuple(c for c in _sources_contracts(config.preset, config.options.expansion)
                 if c.applies(config))


@cache
def _sources_contracts(preset: str, expansion: str) -> tuple[Contract, ...]:
    """The contracts of a preset's sources (du-cs's own for du-cs, else du-en's), with
    gruft-en's added for the expansion and the base clauses it replaces dropped."""
    from ruleproof.properties.dawn_under.plugin import GRUFT_DROPS
    from ruleproof.properties.plugin import RuleSet

    gruft = expansion == "gruft"
    sources = ("du-cs",) if preset == "du-cs" else ("du-en",)
    rs = RuleSet(GAME, preset, preset,
                 sources=(*sources, "gruft-en") if gruft else sources,
                 drop=GRUFT_DROPS if gruft else ())
    # each clause under each of its readings: blame names the clause whose reading the model
    # follows and the engine does not (a transition another reading allows may still depart)
    return expanded(c for cs in rs.contract_sets() for c in cs.contracts
                    if c.clause not in rs.drop)


SCOPE_GAMES = 6
"""Random games of the model sampled (seeds 0..SCOPE_GAMES-1, at most 300 actions each) to
measure how general each contract is (:func:`~ruleproof.properties.conformance.blame.scope_of`)."""


def _scope(config: Config) -> dict[tuple[str, str], float]:
    """How often each contract of ``config``'s rule set is in play in random games of that
    rule set (preset, player count, expansion; the other options at the preset's readings, so
    games under other options share one sample)."""
    expansion = config.options.expansion
    try:
        options = parse_options({} if expansion == "none" else {"expansion": expansion},
                                base=preset_options(config.preset))
        return _sample_scope(make_config(config.players, options, preset=config.preset))
    except (MalformedInput, KeyError, ValueError):
        return _sample_scope(config)  # a configuration no preset describes (spec/reduced/)


@cache
def _sample_scope(config: Config) -> dict[tuple[str, str], float]:
    def transitions() -> Iterable[tuple[State, Any, State]]:
        for seed in range(SCOPE_GAMES):
            rng = random.Random(seed)
            state = initial_state(config, deal(config, random.Random(seed)))
            for _ in range(300):
                legal = legal_actions(state)
                if is_terminal(state) or not legal:
                    break
                action = legal[rng.randrange(len(legal))]
                nxt, _ = step(state, action)
                yield state, action, nxt
                state = nxt

    return scope_of(_rule_set_contracts(config), transitions())


def _colour(config: Config, name: str) -> int:
    return config.colours.index(name)


def _row_of(config: Config, reported: Sequence[Any], model: Row, before: Row) -> Row:
    """A reported row (colour names, "?" face down) as typed vampires: a face-down vampire
    takes the colour of the model's vampire at the same place (aligned at the end where the
    face-up colours agree best), else of the row before the step, else colour 0."""
    n = len(reported)

    def aligned(row: Row, offset: int, i: int) -> int | None:
        j = i + offset
        return row[j].colour if 0 <= j < len(row) else None

    def score(offset: int) -> int:
        return sum(1 for i, v in enumerate(reported)
                   if v != "?" and aligned(model, offset, i) == _colour(config, v))

    offset = max((0, len(model) - n), key=score)
    out = []
    for i, v in enumerate(reported):
        if v != "?":
            out.append(Vampire(_colour(config, v), True))
            continue
        colour = aligned(model, offset, i)
        if colour is None:
            colour = aligned(before, offset if len(before) >= n else 0, i)
        out.append(Vampire(colour if colour is not None else 0, False))
    return tuple(out)


def _substitute(previous: State, state: State, reported: Mapping[str, Any],
                fields: Sequence[str]) -> State:
    """``state`` with the reported values of ``fields`` (public-state fields) substituted.

    Raises:
        KeyError, IndexError, TypeError, ValueError: a value that names no colour, player or
            grave of the game.
    """
    cfg = state.config
    changes: dict[str, Any] = {}
    for f in fields:
        v = reported[f]
        if f == "phase":
            try:
                changes["phase"] = Phase(v)
            except ValueError:
                changes["phase"] = GruftPhase(v)
        elif f in ("turn_player", "may_stop", "pending", "stakes_path", "removed_rats", "winner"):
            changes[f] = v
        elif f in ("stakes_held", "garlic_hand"):
            changes[f] = tuple(int(x) for x in v)
        elif f == "lids":
            lids: list[int | None] = []
            known: list[bool] = []
            for g, lid in enumerate(v):
                if lid is None:
                    lids.append(None)
                    known.append(False)
                elif lid == "?":
                    # unseen: the model's lid if the model does not show it either; a lid the
                    # model shows (or no lid) means the engine put another one there, unseen:
                    # the top of the reserve
                    hidden = state.lids[g]
                    lids.append(hidden if hidden is not None and not state.known[g] else
                                (*state.reserve, *previous.reserve, RAT)[0])
                    known.append(False)
                else:
                    lids.append(RAT if lid == "rat" else _colour(cfg, lid))
                    known.append(True)
            if len(lids) != len(state.lids):
                raise ValueError("lids: wrong number of graves")
            changes["lids"], changes["known"] = tuple(lids), tuple(known)
        elif f == "contents":
            contents: list[VampireIn | GarlicIn | None] = []
            for c in v:
                if c is None:
                    contents.append(None)
                elif not isinstance(c, str):
                    raise TypeError(f"contents: {c!r} is not a grave's content")
                elif c.startswith("vampire "):
                    contents.append(VampireIn(_colour(cfg, c.split(" ", 1)[1])))
                else:
                    contents.append(GarlicIn(int(c.split(" ", 1)[1])))
            changes["contents"] = tuple(contents)
        elif f == "rows":
            if len(v) != cfg.players:
                raise ValueError("rows: wrong number of players")
            changes["rows"] = tuple(_row_of(cfg, r, state.rows[p], previous.rows[p])
                                    for p, r in enumerate(v))
        elif f == "reserve_size":
            n = int(v)
            have = len(state.reserve)
            changes["reserve"] = (state.reserve[have - n:] if n <= have
                                  else (*previous.reserve[:n - have], *state.reserve))
        elif f == "plague":
            if v is None:
                changes["plague"] = None
            else:
                old = state.plague or previous.plague
                changes["plague"] = Plague(
                    int(v["origin"]), int(v["holder"]), int(v["current"]), int(v["turns"]),
                    tuple(int(g) for g in v["opened"]), old.idle if old else 0,
                    old.current_opened if old else False)
        elif f == "gifts":
            known_gifts = (*state.gifts, *previous.gifts)
            gifts = []
            for giver, receiver in v:
                clause = next((g.clause for g in known_gifts
                               if (g.giver, g.receiver) == (giver, receiver)),
                              known_gifts[0].clause if known_gifts else "")
                gifts.append(Gift(int(giver), int(receiver), clause))
            changes["gifts"] = tuple(gifts)
        elif f == "in_transit":
            changes["in_transit"] = None if v is None else _colour(cfg, v)
        elif f == "gruft" and gruft_part(state) is not None:
            # the expansion's public part (all of it lies open on the table): bats, graves kept
            # open, the Count's grave and post, the bat claim being answered
            part = changes.get("extension", state.extension)
            bat = v.get("bat")
            changes["extension"] = replace(
                part, bats=_frozen(v["bats"]), open_graves=_frozen(v["open_graves"]),
                count_grave=v["count_grave"], post=v["post"],
                bat=None if bat is None else BatClaim(int(bat["grave"]), int(bat["owner"]),
                                                      _frozen(bat["believed"])))
        elif is_dataclass(state.extension) and f in {x.name for x in dc_fields(state.extension)}:
            # an expansion's public field named as its part of the state (e.g. gruft's bats,
            # count_grave, post): integers, nulls and lists of them are taken as they are
            extension = changes.get("extension", state.extension)
            changes["extension"] = replace(extension, **{f: _frozen(v)})
    return replace(state, **changes)


def _frozen(value: Any) -> Any:
    """A JSON value with lists as tuples (an expansion's field of plain values).

    Raises:
        TypeError: an object (not a plain value).
    """
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        raise TypeError("an object is not a plain value")
    return value


def setup_from_json(config: Config, raw: Mapping[str, Any]) -> Setup:
    """An explicit set-up from its JSON form.

    Raises:
        MalformedInput: unknown keys, wrong types, unknown colours, wrong component counts
            (naming the field).
    """
    allowed = {"lids", "reserve", "rows", "start_player", "names"}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise MalformedInput(f"setup: unknown field {unknown[0]!r}; expected "
                             f"{', '.join(sorted(allowed))}")
    names = config.colours

    def lid(value: object, where: str) -> int | None:
        if value is None and where == "lids" and config.players == 2:
            return None  # du-en:2p.components: graves left without a lid
        if value == "rat":
            return RAT
        if isinstance(value, str) and value in names:
            return names.index(value)
        raise MalformedInput(f"setup.{where}: {value!r} is not a colour ({', '.join(names)}) "
                             "or 'rat'")

    def strings(value: object, where: str) -> list[object]:
        if not isinstance(value, list):
            raise MalformedInput(f"setup.{where} must be a list")
        return value

    lids = tuple(lid(v, "lids") for v in strings(raw.get("lids"), "lids"))
    reserve = tuple(v for v in (lid(v, "reserve") for v in strings(raw.get("reserve"), "reserve"))
                    if v is not None)
    rows: list[tuple[int, ...]] = []
    for row in strings(raw.get("rows"), "rows"):
        colours = []
        for v in strings(row, "rows[]"):
            if not isinstance(v, str) or v not in names:
                raise MalformedInput(f"setup.rows: {v!r} is not a colour ({', '.join(names)})")
            colours.append(names.index(v))
        rows.append(tuple(colours))
    start = raw.get("start_player", 0)
    if not isinstance(start, int) or isinstance(start, bool):
        raise MalformedInput("setup.start_player must be an integer")
    names_given = raw.get("names")
    if names_given is not None and (
            not isinstance(names_given, list) or len(names_given) != config.players
            or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names_given)):
        raise MalformedInput(f"setup.names must list one name per player ({config.players} "
                             f"strings of 1-{MAX_NAME} characters, in seat order)")
    for i, name in enumerate(names_given or ()):
        problem = name_problem(name)
        if problem is not None:
            raise MalformedInput(f"setup.names[{i}] {name!r}: {problem}")
    _check_components(config, lids, reserve, rows)
    return Setup(lids, reserve, tuple(rows), start)


def _check_components(config: Config, lids: tuple[int | None, ...], reserve: tuple[int, ...],
                      rows: list[tuple[int, ...]]) -> None:
    """An explicit set-up must use exactly the game's components (du-en:content.lids,
    du-en:content.vampires, du-en:prep.reserve), so no replay can run out of lids.

    Raises:
        MalformedInput: naming the first count that is wrong.
    """
    if len(reserve) != config.reserve_size:
        raise MalformedInput(f"setup.reserve must hold {config.reserve_size} lids "
                             f"(du-en:prep.reserve), got {len(reserve)}")
    all_lids = (*lids, *reserve)
    if all_lids.count(RAT) != config.rat_lids:
        raise MalformedInput(f"setup.lids must hold {config.rat_lids} rat lids "
                             f"(du-en:content.lids), got {all_lids.count(RAT)}")
    if len(lids) != config.board.size:
        raise MalformedInput(f"setup.lids must hold one entry per grave ({config.board.size}), "
                             f"got {len(lids)}")
    placed = config.lids_per_colour * len(config.lid_colours) + config.rat_lids - len(reserve)
    if lids.count(None) != len(lids) - placed:
        raise MalformedInput(f"setup.lids must leave {len(lids) - placed} graves without a lid "
                             f"(null, du-en:2p.components), got {lids.count(None)}")
    vampires = [c for row in rows for c in row]
    if len(rows) != config.players:
        raise MalformedInput(f"setup.rows must hold one row per player ({config.players}), "
                             f"got {len(rows)}")
    share = len(vampires) // max(1, config.players)
    uneven = [p for p, row in enumerate(rows) if len(row) != share]
    if uneven:
        raise MalformedInput(f"setup.rows: the vampires must be dealt out equally "
                             f"(du-en:prep.deal): player {uneven[0]} has "
                             f"{len(rows[uneven[0]])}, expected {share} each")
    for colour, name in enumerate(config.colours):
        want = config.lids_per_colour if colour in config.lid_colours else 0
        if all_lids.count(colour) != want:
            raise MalformedInput(f"setup: lids and reserve must hold {want} "
                                 f"{name} lids, got {all_lids.count(colour)}")
        want = config.vampires_per_colour if colour in config.vampire_colours else 0
        if vampires.count(colour) != want:
            raise MalformedInput(f"setup.rows must hold {want} {name} "
                                 f"vampires (du-en:content.vampires), got "
                                 f"{vampires.count(colour)}")


CONFORMANCE = DawnUnderConformance()
"""Dawn Under's ``conformance`` capability (registered in properties/dawn_under/plugin.py)."""

__all__ = ["CONFORMANCE", "DawnUnderConformance", "in_document", "public_state", "setup_from_json",
           "setup_json", "setup_json_of"]
