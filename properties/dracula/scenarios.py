"""Dracula's scenario capability for the runner (:mod:`ruleproof.properties.scenarios`).

Everything a scenario needs that is Dracula's own: the preset (``dracula-en``) and rule options
(:class:`ruleproof.model.dracula.rules.DraculaRules`), the ``[setup]`` table
(:class:`ruleproof.properties.dracula.formats.DraculaSetup`: ``seed`` alone, or an explicit ``board``), the
action notation (:mod:`ruleproof.model.dracula.notation`), the facts (:data:`FACTS`) and the
transition with its game log. The players are the two sides, named ``dracula`` and
``van-helsing`` unless ``names`` renames them. Chance steps not written as ``chance ITEM``
are resolved from the state's seed before each action and before expectations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model import CHANCE
from ruleproof.model.dracula import engine
from ruleproof.model.dracula.data import COLOURS, Board, CardSet, Side, default_board, default_cards
from ruleproof.model.dracula.engine import Action, ChanceOutcome, State
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.model.dracula.observe import observation
from ruleproof.model.dracula.rules import DraculaRules, rules_from_mapping
from ruleproof.properties.dracula.formats import DraculaSetup
from ruleproof.properties.report import CheckResult
from ruleproof.properties.scenarios import (
    ActionForm,
    Fact,
    LoadedScenario,
    SetupProblems,
    load,
    player_of,
    run,
)
from ruleproof.spec import spec_path
from ruleproof.spec.formats import Problems, TomlFile, read_toml, show, validate
from ruleproof.spec.models import PresetFile, ScenarioTop

GAME = "dracula"
SIDES = ("dracula", "van-helsing")
ACTIONS = (
    ActionForm("choose CARD [CARD ...]", "set-up: choose encounter cards (one action each)"),
    ActionForm("move LOC [LOC ...]", "one step per location (a1..d3, harbour, "
                                     "carriage-station)"),
    ActionForm("look", "look at the card where you stand"),
    ActionForm("stop", "end the move"),
    ActionForm("reveal | no-reveal", "at a meeting: show the card or not"),
    ActionForm("place CARD", "put an encounter card on your location"),
    ActionForm("play CARD [special]", "pay with an action card (and use its special action)"),
    ActionForm("take CARD | recall CARD", "special actions taking a card back"),
    ActionForm("turn LOC | fly LOC | depths LOC", "special actions on a location"),
    ActionForm("roar dracula | roar van-helsing", "Roar of Night: whose figure"),
    ActionForm("barrier COLOUR LOC-LOC | no-barrier", "place a barrier, or none"),
    ActionForm("give CARD | accept", "hand over a target card, or accept it"),
    ActionForm("chance ITEM", "the outcome of a chance step (otherwise drawn from the seed)"),
)


@dataclass(frozen=True)
class DraculaConfig:
    """Rules, cards and board of a Dracula scenario."""

    rules: DraculaRules
    cards: CardSet
    board: Board


@cache
def presets() -> dict[str, dict[str, object]]:
    """The shipped presets (``spec/dracula/presets.toml``): name -> options.

    Raises:
        MalformedInput: for a malformed preset file or an unknown option in it.
    """
    return load_presets(spec_path("dracula", "presets.toml"))


def load_presets(path: Path) -> dict[str, dict[str, object]]:
    """Dracula presets from a preset file (format ``presets``): name -> options.

    Raises:
        MalformedInput: at the offending value: bad structure or an unknown option.
    """
    doc = read_toml(path)
    problems = doc.problems()
    model = validate(PresetFile, doc.data, problems)
    problems.raise_if_any()
    assert model is not None
    out: dict[str, dict[str, object]] = {}
    for i, p in enumerate(model.preset):
        try:
            rules_from_mapping(dict(p.options))
        except MalformedInput as err:
            problems.add(("preset", i, "options"), err.what)
        out[p.name] = dict(p.options)
    problems.raise_if_any()
    return out


def _side(s: State, p: int | None, names: Sequence[str]) -> str:
    return "none" if p is None else names[p]


def _loc(board: Board, loc: int | None) -> str:
    return "" if loc is None else board.name(loc)


FACTS: dict[str, Fact] = {f.name: f for f in (
    Fact("winner", None, "the winning side, or 'none'",
         lambda s, a, c: _side(s, s.winner, c.names), player=True),
    Fact("reason", None, "why the game ended (use 'reason contains')", lambda s, a, c: s.reason),
    Fact("to_move", None, "side to decide, 'chance' or 'over'",
         lambda s, a, c: {CHANCE: "chance", engine.TERMINAL: "over"}.get(
             engine.current_player(s)) or c.names[engine.current_player(s)]),
    Fact("pending", None, "kind of the pending step (move, pay, barrier, ... over)",
         lambda s, a, c: engine.phase(s)),
    Fact("turn", None, "turn number", lambda s, a, c: s.turn),
    Fact("life", "player", "life markers of a side", lambda s, a, c: s.life[a]),
    Fact("at", "player", "location of a side's figure (a1..d3)",
         lambda s, a, c: s.board.name(s.pos[a])),
    Fact("captured", "player", "targets won by a side (sorted list)",
         lambda s, a, c: sorted(s.captured[a])),
    Fact("captured_count", "player", "number of targets won by a side",
         lambda s, a, c: len(s.captured[a])),
    Fact("hand", "player", "a side's encounter hand (list)", lambda s, a, c: list(s.hand[a])),
    Fact("current", "player", "a side's current action cards (list)",
         lambda s, a, c: list(s.current[a])),
    Fact("discard", "player", "a side's encounter discard pile (list)",
         lambda s, a, c: list(s.enc_discard[a])),
    Fact("board", "location", "card at a location ('' = empty)",
         lambda s, a, c: s.board_cards[a] or ""),
    Fact("barrier", "colour", "edge of a barrier ('a1-b1'; '' = not placed)",
         lambda s, a, c: s.board.edge_name(s.barriers[a]) if s.barriers[a] else ""),
    Fact("turned", None, "location of the turned card ('' = none)",
         lambda s, a, c: _loc(s.board, s.turned)),
    Fact("seen", "player", "the log lines a side has seen (list; hidden information)",
         lambda s, a, c: list(observation(s, a).log)),
)}


class _Setup(SetupProblems):
    """Builds the start position from a validated ``[setup]`` (errors at their key path)."""

    def __init__(self, config: DraculaConfig, setup: DraculaSetup, names: Sequence[str],
                 doc: TomlFile) -> None:
        super().__init__(doc)
        self.c, self.su, self.names = config, setup, names

    def side(self, key: str, path: tuple[str | int, ...]) -> int:
        try:
            return player_of(key, self.names)
        except ValueError as exc:
            return self.note(path, str(exc))

    def loc(self, value: str, path: tuple[str | int, ...]) -> int:
        try:
            return self.c.board.parse(value)
        except ValueError as exc:
            return self.note(path, str(exc))

    def cards(self, values: Sequence[str], path: tuple[str | int, ...], action: bool = False
              ) -> tuple[str, ...]:
        for i, v in enumerate(values):
            try:
                self.c.cards.act(v) if action else self.c.cards.enc(v)
            except KeyError:
                self.note((*path, i), f"unknown card {show(v)}")
        return tuple(values)

    def pair(self, table: Mapping[str, Sequence[str]], key: str, action: bool = False
             ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        if not table:
            return None
        got: list[tuple[str, ...]] = [(), ()]
        for name, values in table.items():
            got[self.side(name, (key, name))] = self.cards(values, (key, name), action)
        return got[0], got[1]

    def build(self) -> State:
        su, c = self.su, self.c
        if su.board is None:
            others = [k for k in su.model_fields_set if k != "seed"]
            if others:
                raise self.fail((others[0],), f"{others[0]} needs an explicit board "
                                              "(board = [12 card ids])")
            if su.seed is None:
                raise self.fail((), "[setup]: give seed = N, or an explicit board")
            return engine.new_game(su.seed, c.rules, c.cards, c.board)
        if len(su.board) != c.board.size:
            raise self.fail(("board",), f"board: expected {c.board.size} card ids ('' = empty) "
                                        "in the order a1 b1 c1 d1 a2 ... d3")
        for i, v in enumerate(su.board):
            if v:
                self.cards([v], ("board", i))
        to_move = (self.side(su.to_move, ("to_move",)) if su.to_move is not None
                   else SIDES.index(c.rules.first_player))
        pos = (self.loc(su.dracula or "harbour", ("dracula",)),
               self.loc(su.van_helsing or "carriage-station", ("van_helsing",)))
        life = [c.board.life_markers, c.board.life_markers]
        for name, markers in su.life.items():
            if markers > c.board.life_markers:
                self.note(("life", name), f"life: at most {c.board.life_markers}")
            life[self.side(name, ("life", name))] = markers
        current = self.pair(su.current, "current", True)
        if current is not None:
            current = (current[0] or c.cards.action_of(Side.DRACULA)[:5],
                       current[1] or c.cards.action_of(Side.VAN_HELSING)[:5])
        barriers: list[tuple[int, int] | None] = [None] * len(COLOURS)
        for colour, edge in su.barriers.items():
            if colour not in COLOURS:
                self.note(("barriers", colour), f"unknown colour {show(colour)} "
                                                f"({', '.join(COLOURS)})")
                continue
            try:
                barriers[COLOURS.index(colour)] = c.board.parse_edge(edge)
            except ValueError as exc:
                self.note(("barriers", colour), str(exc))
        turned = self.loc(su.turned, ("turned",)) if su.turned is not None else None
        captured = self.pair(su.captured, "captured") or ((), ())
        discard = self.pair(su.discard, "discard") or ((), ())
        self.problems.raise_if_any()
        try:
            return engine.custom_start(
                c.rules, c.cards, c.board, board_cards=tuple(v or None for v in su.board),
                to_move=to_move, pos=pos, life=(life[0], life[1]),
                captured=captured, enc_discard=discard, current=current,
                barriers=tuple(barriers), breath=su.breath, whisper=su.whisper,
                vigilance=su.vigilance, turned=turned, seed=su.seed or 0)
        except (ValueError, KeyError) as exc:
            raise self.fail((), f"[setup]: {exc}") from None


@dataclass(frozen=True)
class DraculaScenarios:
    """The capability ``scenarios`` of Dracula
    (a :class:`ruleproof.properties.scenarios.ScenarioFacts`)."""

    setup_model: type[DraculaSetup] = DraculaSetup

    @property
    def facts(self) -> Mapping[str, Fact]:
        """Dracula's facts."""
        return FACTS

    @property
    def actions(self) -> Sequence[ActionForm]:
        """The action notation."""
        return ACTIONS

    @property
    def arg_kinds(self) -> Mapping[str, str]:
        """What a fact argument may be."""
        return {"player": "a side (dracula, van-helsing)", "location": "a1..d3",
                "colour": ", ".join(COLOURS)}

    def configure(self, top: ScenarioTop, preset: str | None, options: Mapping[str, object],
                  problems: Problems, at: tuple[str | int, ...]) -> DraculaConfig | None:
        if top.players not in (None, 2):
            problems.add(("players",), f"dracula is played by 2 players; got {top.players}")
        chosen = preset or top.preset or "dracula-en"
        if chosen not in presets():
            problems.add(("preset",), f"{'--preset: ' if preset else ''}unknown preset "
                                      f"{show(chosen)}; known: {', '.join(presets())}")
            return None
        ok = True
        for key, value in options.items():
            try:
                rules_from_mapping({key: value})
            except MalformedInput as err:
                problems.add((*at, key), err.what)
                ok = False
        if not ok:
            return None
        rules = rules_from_mapping({**presets()[chosen], **options})
        return DraculaConfig(rules, default_cards(), default_board())

    def default_names(self, config: DraculaConfig) -> tuple[str, ...]:
        return SIDES

    def start(self, config: DraculaConfig, setup: Any, names: Sequence[str],
              doc: TomlFile) -> State:
        return _Setup(config, setup, names, doc).build()

    def parse_action(self, config: DraculaConfig, text: str, names: Sequence[str]
                     ) -> tuple[Action, ...]:
        return tuple(parse_actions(config.board, text))

    def parse_arg(self, config: DraculaConfig, kind: str, token: str, names: Sequence[str]
                  ) -> int:
        if kind == "player":
            return player_of(token, names)
        if kind == "colour":
            if token not in COLOURS:
                raise ValueError(f"{show(token)} is not a barrier colour ({', '.join(COLOURS)})")
            return COLOURS.index(token)
        if token not in [config.board.name(i) for i in range(config.board.size)]:
            raise ValueError(f"{show(token)} is not a location (a1..d3)")
        return config.board.parse(token)

    def settle(self, state: State, action: tuple[Action, ...] | None) -> State:
        if action and isinstance(action[0], ChanceOutcome):
            return state
        return engine.resolve_chance(state)

    def to_move(self, state: State) -> int | None:
        p = engine.current_player(state)
        return p if p in (0, 1) else None

    def apply(self, state: State, action: tuple[Action, ...], names: Sequence[str]
              ) -> tuple[State, list[str]]:
        s = state
        for k, a in enumerate(action):
            if k and not isinstance(a, ChanceOutcome):
                s = engine.resolve_chance(s)
            s = engine.apply(s, a)  # IllegalAction leaves ``state`` as it was
        return s, [e.full for e in s.log[len(state.log):]]

    def legal(self, state: State, names: Sequence[str]) -> list[str]:
        return sorted(str(a) for a in engine.legal_actions(state))

    def broken(self, start: State, state: State) -> list[str]:
        return []


SCENARIOS = DraculaScenarios()


def scenario_dir() -> Path:
    """Directory of the shipped Dracula scenarios."""
    return spec_path("dracula", "scenarios")


def shipped_scenarios() -> list[Path]:
    """All shipped scenario files of ``spec/scenarios/dracula``, sorted by name."""
    return sorted(scenario_dir().glob("*.toml"))


def load_scenario(path: Path | str, *, preset: str | None = None,
                  options: dict[str, str] | None = None) -> LoadedScenario:
    """Load and validate a Dracula scenario file.

    Raises:
        MalformedInput: every problem of the file (first in the message).
    """
    sc = load(Path(path), preset=preset, options=options)
    if sc.game != GAME:
        raise sc.doc.error(("game",), f"game must be {GAME!r}, got {sc.game!r}")
    return sc


def run_scenario(path: Path | str, *, preset: str | None = None,
                 options: dict[str, str] | None = None) -> CheckResult:
    """Run one Dracula scenario file.

    Returns:
        a CheckResult (method ``scenario``) whose detail is the game log and every mismatch.

    Raises:
        MalformedInput: (FILE:LINE:COL) for a malformed file.
    """
    return run(load_scenario(path, preset=preset, options=options))


__all__ = ["FACTS", "SCENARIOS", "load_presets", "load_scenario", "presets", "run_scenario",
           "scenario_dir", "shipped_scenarios"]
