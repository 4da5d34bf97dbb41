"""Dawn Under's scenario capability for the runner (:mod:`ruleproof.properties.scenarios`).

Everything a scenario needs that is Dawn Under's own: presets (du-en, du-cs, 2p) and rule
options, the ``[setup]`` table (:class:`ruleproof.properties.dawn_under.formats.DawnUnderSetup`), the action
notation (:func:`parse_action`, canonical spelling only), the facts (:data:`FACTS`) and the
transition with its game log. Players are named (``names``, default ``P1``, ``P2``...). The
shared format and the list of every action and fact are in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options
from ruleproof.model.dawn_under.engine import current_player, legal_actions, new_game, step
from ruleproof.model.dawn_under.gruft import Believe, CountTo, Doubt, GiftTo, GruftPhase, PlayBat, part
from ruleproof.model.dawn_under.observe import observation
from ruleproof.model.dawn_under.render import event_text, player_name
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    Config,
    Content,
    End,
    GarlicIn,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    Vampire,
    VampireIn,
)
from ruleproof.properties.dawn_under.formats import DawnUnderSetup
from ruleproof.properties.dawn_under.invariants import (
    Totals,
    graves_consistent,
    rows_show_open,
    violations,
)
from ruleproof.properties.report import CheckResult
from ruleproof.properties.scenarios import (
    CANONICAL_NUMBER,
    ActionForm,
    Fact,
    LoadedScenario,
    Reading,
    RunContext,
    SetupProblems,
    grave_number,
    load,
    player_of,
    run,
)
from ruleproof.properties.scenarios import run_reading as _run_reading
from ruleproof.spec.formats import Problems, TomlFile, show
from ruleproof.spec.models import ScenarioTop

GAME = "dawn-under"
ACTIONS = (
    ActionForm("open G", "open grave G (a number, e.g. open 12)"),
    ActionForm("place left G | place right G", "put the outermost vampire of that end of your "
               "row into open grave G"),
    ActionForm("garlic G", "put a garlic bulb into open grave G"),
    ActionForm("leave G", "leave open grave G empty"),
    ActionForm("stop", "end your turn"),
    ActionForm("give left | give right", "hand over the outermost vampire of that end"),
    ActionForm("receive left | receive right", "add a received vampire at that end"),
    ActionForm("bat G", "expansion: play a bat on grave G, claiming it is empty"),
    ActionForm("believe | doubt", "expansion: answer a bat's claim"),
    ActionForm("count G", "expansion: put Count Rucola on grave G"),
    ActionForm("gift PLAYER", "expansion: give to PLAYER (a name)"),
)


def parse_action(text: str, names: Sequence[str] | None = None) -> Action:
    """Parse the action notation (``open 12``, ``place left 12``, ``garlic 12``, ``leave 12``,
    ``stop``, ``give left``, ``receive right``; expansion: ``bat 12``, ``believe``, ``doubt``,
    ``count 12``, ``gift NAME``). Numbers are canonical: ASCII digits without leading zeros
    (``open ²``, ``open ٣`` and ``open 054`` are refused). With ``names`` (scenarios) ``gift``
    takes a player name; without (the engine's ``str`` of an action, traces) a 0-based seat.

    Raises:
        ValueError: with the expected forms.
    """
    words = text.split(" ")
    ends = {"left": End.LEFT, "right": End.RIGHT}

    def number(token: str) -> int:
        if not CANONICAL_NUMBER.fullmatch(token):
            raise ValueError
        return int(token)

    try:
        if words == ["stop"]:
            return Stop()
        if words in (["believe"], ["doubt"]):  # expansion gruft-en:bats.ask
            return Believe() if words == ["believe"] else Doubt()
        if len(words) == 2 and words[0] == "gift":
            if names is not None:
                return GiftTo(player_of(words[1], names))
            return GiftTo(number(words[1]))  # the engine's own notation: 0-based seat
        if len(words) == 2 and words[0] in ("bat", "count"):
            n = number(words[1])
            return PlayBat(n) if words[0] == "bat" else CountTo(n)
        if len(words) == 2 and words[0] in ("open", "garlic", "leave"):
            grave = number(words[1])
            if words[0] == "open":
                return OpenGrave(grave)
            return PlaceGarlic(grave) if words[0] == "garlic" else LeaveEmpty(grave)
        if len(words) == 3 and words[0] == "place" and words[1] in ends:
            return PlaceVampire(number(words[2]), ends[words[1]])
        if len(words) == 2 and words[0] in ("give", "receive") and words[1] in ends:
            cls = GiveVampire if words[0] == "give" else ReceiveVampire
            return cls(ends[words[1]])
    except ValueError:
        pass
    raise ValueError(f"unknown action {show(text)}; expected 'open G', 'place left|right G', "
                     "'garlic G', 'leave G', 'stop', 'give left|right', 'receive left|right', "
                     "or with the expansion 'bat G', 'believe', 'doubt', 'count G', "
                     "'gift PLAYER' (G: ASCII digits, no leading zeros)")


def action_text(action: Action, names: Sequence[str]) -> str:
    """An action in the notation (``gift`` by player name)."""
    if isinstance(action, GiftTo):
        return f"gift {player_name(action.player, names)}"
    return str(action)


def default_names(players: int) -> tuple[str, ...]:
    """``P1``, ``P2``... (as in the logs)."""
    return tuple(player_name(p) for p in range(players))


# --------------------------------------------------------------------------- set-up


class _Setup(SetupProblems):
    """Builds the start position from a validated ``[setup]`` (errors at their key path)."""

    def __init__(self, config: Config, setup: DawnUnderSetup, names: Sequence[str],
                 doc: TomlFile) -> None:
        super().__init__(doc)
        self.config, self.setup, self.names = config, setup, names

    def player(self, value: str, path: tuple[str | int, ...]) -> int:
        try:
            return player_of(value, self.names)
        except ValueError as exc:
            return self.note(path, f"{'.'.join(map(str, path))}: {exc}")

    def colour(self, name: str, path: tuple[str | int, ...]) -> int:
        if name in self.config.colours:
            return self.config.colours.index(name)
        return self.note(path, f"{show(name)} is not a colour "
                               f"({', '.join(self.config.colours)})")

    def grave(self, key: str, path: tuple[str | int, ...]) -> int:
        try:
            return grave_number(key, self.config.board.size)
        except ValueError as exc:
            return self.note(path, str(exc))

    def build(self) -> State:
        cfg, su = self.config, self.setup
        state = new_game(cfg, su.seed, self.player(su.start, ("start",)) if su.start else 0)
        lids: list[int | None] = list(state.lids)
        reserve: list[int] = list(state.reserve)
        wanted: dict[int, int] = {}
        for key, value in su.lids.items():
            g = self.grave(key, ("lids", key))
            wanted[g] = RAT if value == "rat" else self.colour(value, ("lids", key))
        contents: list[Content] = [None] * cfg.board.size
        for key, value in su.contents.items():
            g = self.grave(key, ("contents", key))
            words = value.split(" ")
            if len(words) == 2 and words[0] == "vampire":
                contents[g] = VampireIn(self.colour(words[1], ("contents", key)))
            elif len(words) == 2 and words[0] == "garlic":
                contents[g] = GarlicIn(self.player(words[1], ("contents", key)))
            else:
                self.note(("contents", key), f"contents.{key}: expected 'vampire COLOUR' "
                                             f"or 'garlic PLAYER', got {show(value)}")
        rows = state.rows
        if su.rows is not None:
            if len(su.rows) != cfg.players:
                self.note(("rows",), f"'rows' must list {cfg.players} rows")
            rows = tuple(tuple(Vampire(self.colour(v.removesuffix("?"), ("rows", i, k)),
                                       not v.endswith("?")) for k, v in enumerate(row))
                         for i, row in enumerate(su.rows))
        self.problems.raise_if_any()
        for g, want in wanted.items():
            if lids[g] == want:
                continue
            donor = next((h for h, lid in enumerate(lids) if lid == want and h not in wanted),
                         None)
            if donor is not None:
                lids[donor], lids[g] = lids[g], want
            elif want != RAT and want in reserve and lids[g] is not None:
                displaced = lids[g]
                assert displaced is not None
                reserve[reserve.index(want)] = displaced
                lids[g] = want
            else:
                raise self.fail(("lids", str(g)), f"lids.{g}: no such lid left to move there")
        held = list(su.stakes) if su.stakes is not None else [0] * cfg.players
        if len(held) != cfg.players or sum(held) > cfg.stakes:
            raise self.fail(("stakes",), f"'stakes' must list {cfg.players} counts, at most "
                                         f"{cfg.stakes} in all")
        in_graves = [sum(1 for c in contents if isinstance(c, GarlicIn) and c.owner == p)
                     for p in range(cfg.players)]
        hand = list(su.garlic) if su.garlic is not None else [
            max(0, cfg.garlic - n) for n in in_graves]
        if len(hand) != cfg.players or any(h > cfg.garlic for h in hand):
            raise self.fail(("garlic",), f"'garlic' must list {cfg.players} counts of "
                                         f"0..{cfg.garlic}")
        start = replace(state, lids=tuple(lids), reserve=tuple(reserve), contents=tuple(contents),
                        rows=rows, stakes_held=tuple(held), stakes_path=cfg.stakes - sum(held),
                        garlic_hand=tuple(hand))
        start = self.gruft(start)
        problems = rows_show_open(start, Totals.of_state(start)) + graves_consistent(
            start, Totals.of_state(start))
        if problems:
            if problems[0].startswith("row"):
                raise self.fail(("rows",), f"the start position breaks a rule: {problems[0]} "
                                "(mark face-down vampires with '?': two open at each end, all "
                                "open at four or fewer)")
            raise self.fail((), f"the start position breaks a rule: {problems[0]}")
        return start

    def gruft(self, start: State) -> State:
        """Expansion set-up keys: ``post``, ``count`` (needs ``post``), ``bats``."""
        su = self.setup
        keys = [k for k in ("post", "count", "bats") if getattr(su, k) is not None]
        if not keys:
            return start
        gp = part(start)
        if gp is None:
            raise self.fail((keys[0],), f"[setup] {keys[0]} needs the expansion "
                                        "(expansion = \"gruft\" in [options])")
        post = self.player(su.post, ("post",)) if su.post is not None else None
        count = self.grave(str(su.count), ("count",)) if su.count is not None else None
        self.problems.raise_if_any()
        if count is not None and post is None:
            raise self.fail(("count",), "[setup] count: a Count on a grave needs 'post' "
                                        "(its holder)")
        bats = list(su.bats) if su.bats is not None else [2] * start.config.players
        if len(bats) != start.config.players:
            raise self.fail(("bats",), f"'bats' must list {start.config.players} counts of 0..2")
        phase = GruftPhase.COUNT_OPEN if count is not None and post == start.turn_player \
            else start.phase
        return replace(start, phase=phase, extension=replace(
            gp, post=post, count_grave=count, bats=tuple(bats),
            bats_out=tuple(2 - b for b in bats)))


# --------------------------------------------------------------------------- facts


def _name(p: int | None, ctx: RunContext) -> str:
    return "none" if p is None else player_name(p, ctx.names)


def _lid(state: State, lid: int | None) -> str:
    return "none" if lid is None else "rat" if lid == RAT else state.config.colours[lid]


def _content(state: State, g: int, ctx: RunContext) -> str:
    content = state.contents[g]
    if content is None:
        return "empty"
    if isinstance(content, VampireIn):
        return f"vampire {state.config.colours[content.colour]}"
    return f"garlic {_name(content.owner, ctx)}"


def _to_move(state: State, ctx: RunContext) -> str:
    return "over" if state.phase is Phase.OVER else _name(current_player(state), ctx)


def _gruft(state: State, what: str, ctx: RunContext) -> Any:
    """The expansion's post holder ('middle'), Count's grave ('post'), bats per player or
    graves left open (gruft-en:prep.count, gruft-en:prep.bats)."""
    gp = part(state)
    if what == "bats":
        return list(gp.bats) if gp is not None else [0] * state.config.players
    if what == "open":
        return list(gp.open_graves) if gp is not None else []
    if what == "post":
        return "middle" if gp is None or gp.post is None else _name(gp.post, ctx)
    return "post" if gp is None or gp.count_grave is None else gp.count_grave


def _seen(state: State, p: int) -> list[int]:
    obs = observation(state, p)
    return [g for g, lid in enumerate(obs.lids) if lid is not None]


FACTS: dict[str, Fact] = {f.name: f for f in (
    Fact("to_move", None, "player who decides next, or 'over'",
         lambda s, a, c: _to_move(s, c)),
    Fact("turn", None, "player whose turn it is", lambda s, a, c: _name(s.turn_player, c),
         player=True),
    Fact("phase", None, "open, place, give, receive, ... or over", lambda s, a, c: s.phase.value),
    Fact("winner", None, "the winner, or 'none'", lambda s, a, c: _name(s.winner, c), player=True),
    Fact("plague", None, "true while a rat plague runs", lambda s, a, c: s.plague is not None),
    Fact("plague.holder", None, "who turned the rat lid ('none' without a plague)",
         lambda s, a, c: _name(s.plague.holder if s.plague else None, c), player=True),
    Fact("plague.current", None, "who acts in the plague ('none' without one)",
         lambda s, a, c: _name(s.plague.current if s.plague else None, c), player=True),
    Fact("plague.origin", None, "grave of the rat lid (-1 without a plague)",
         lambda s, a, c: s.plague.origin if s.plague else -1),
    Fact("plague.opened", None, "graves opened in the plague (list)",
         lambda s, a, c: list(s.plague.opened) if s.plague else []),
    Fact("removed_rats", None, "rat lids taken out of the game",
         lambda s, a, c: s.removed_rats),
    Fact("reserve", None, "lids left in the reserve", lambda s, a, c: len(s.reserve)),
    Fact("stakes_path", None, "stakes left on the path", lambda s, a, c: s.stakes_path),
    Fact("stakes", "player", "stakes held by PLAYER", lambda s, a, c: s.stakes_held[a]),
    Fact("garlic", "player", "garlic bulbs in PLAYER's hand", lambda s, a, c: s.garlic_hand[a]),
    Fact("row", "player", "PLAYER's row, 'colour?' face down (list)",
         lambda s, a, c: [s.config.colours[v.colour] + ("" if v.face_up else "?")
                          for v in s.rows[a]]),
    Fact("row_length", "player", "vampires in PLAYER's row", lambda s, a, c: len(s.rows[a])),
    Fact("outermost", "player", "[left, right] colours of PLAYER's row ([] if empty)",
         lambda s, a, c: [s.config.colours[s.rows[a][0].colour],
                          s.config.colours[s.rows[a][-1].colour]] if s.rows[a] else []),
    Fact("grave", "grave", "'empty', 'vampire COLOUR' or 'garlic PLAYER'",
         lambda s, a, c: _content(s, a, c)),
    Fact("lid", "grave", "colour, 'rat' or 'none' (no lid)", lambda s, a, c: _lid(s, s.lids[a])),
    Fact("known", "grave", "true if the lid's value is known to all", lambda s, a, c: s.known[a]),
    Fact("seen", "player", "graves whose lid value PLAYER knows (list)",
         lambda s, a, c: _seen(s, a)),
    Fact("barred", None, "graves barred in this turn (list)", lambda s, a, c: list(s.barred)),
    Fact("post", None, "expansion: who holds the post, or 'middle'",
         lambda s, a, c: _gruft(s, "post", c)),
    Fact("count", None, "expansion: Count Rucola's grave, or 'post'",
         lambda s, a, c: _gruft(s, "count", c)),
    Fact("bats", "player", "expansion: bats in PLAYER's hand",
         lambda s, a, c: _gruft(s, "bats", c)[a]),
    Fact("open", None, "expansion: graves left open this turn (list)",
         lambda s, a, c: _gruft(s, "open", c)),
)}


def fact(state: State, key: str, names: Sequence[str] = ()) -> Any:
    """The value of fact ``key`` (``stakes.Ann``, ``grave.12``, ``legal``...) in ``state``;
    players by name (default ``P1``, ``P2``...).

    Raises:
        KeyError: for an unknown fact or argument.
    """
    who = tuple(names) or default_names(state.config.players)
    if key == "legal":
        return SCENARIOS.legal(state, who)
    base, _dot, arg = key.partition(".")
    found = FACTS.get(key)
    if found is None or found.arg is not None:
        found = FACTS.get(base)
        if found is None or found.arg is None:
            raise KeyError(key)
        try:
            value = SCENARIOS.parse_arg(state.config, found.arg, arg, who)
        except ValueError:
            raise KeyError(key) from None
    else:
        value = None
    return found.value(state, value, RunContext(who, [], SCENARIOS))


# --------------------------------------------------------------------------- plug-in


@dataclass(frozen=True)
class DawnUnderScenarios:
    """The capability ``scenarios`` of Dawn Under
    (a :class:`ruleproof.properties.scenarios.ScenarioFacts`)."""

    setup_model: type[DawnUnderSetup] = DawnUnderSetup

    @property
    def facts(self) -> Mapping[str, Fact]:
        """Dawn Under's facts; dotted fact names without argument (``plague.holder``) too."""
        return FACTS

    @property
    def actions(self) -> Sequence[ActionForm]:
        """The action notation."""
        return ACTIONS

    @property
    def arg_kinds(self) -> Mapping[str, str]:
        """What a fact argument may be."""
        return {"player": "a player name", "grave": "a grave number 0..59"}

    def configure(self, top: ScenarioTop, preset: str | None, options: Mapping[str, object],
                  problems: Problems, at: tuple[str | int, ...]) -> Config | None:
        chosen = preset or top.preset or "du-en"
        if top.players is None:
            problems.add(("players",), "players: missing (dawn-under is played by 2-6)")
            return None
        try:
            base = preset_options(chosen)
        except MalformedInput as err:
            problems.add(("preset",), ("--preset: " if preset else "") + err.what)
            return None
        text = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
        ok = True
        for key, value in text.items():
            try:
                parse_options({key: value})
            except MalformedInput as err:
                problems.add((*at, key), err.what)
                ok = False
        if not ok:
            return None
        try:
            return make_config(top.players, parse_options(text, base=base), preset=chosen)
        except MalformedInput as err:
            problems.add(("players",) if "players" in err.what else at, err.what)
            return None

    def default_names(self, config: Config) -> tuple[str, ...]:
        return default_names(config.players)

    def start(self, config: Config, setup: Any, names: Sequence[str], doc: TomlFile) -> State:
        return _Setup(config, setup, names, doc).build()

    def parse_action(self, config: Config, text: str, names: Sequence[str] = ()) -> Action:
        action = parse_action(text, names or default_names(config.players))
        grave = getattr(action, "grave", None)
        if grave is not None and not 0 <= grave < config.board.size:
            raise ValueError(f"there is no grave {grave} (0..{config.board.size - 1})")
        return action

    def parse_arg(self, config: Config, kind: str, token: str, names: Sequence[str]) -> int:
        if kind == "player":
            return player_of(token, names)
        return grave_number(token, config.board.size)

    def settle(self, state: State, action: Action | None) -> State:
        return state

    def to_move(self, state: State) -> int | None:
        return None if state.phase is Phase.OVER else current_player(state)

    def apply(self, state: State, action: Action, names: Sequence[str]
              ) -> tuple[State, list[str]]:
        new, events = step(state, action)
        mover = current_player(state)
        return new, [f"{player_name(mover, names)}: {action_text(action, names)}",
                     *("    " + event_text(state, e, names) for e in events)]

    def legal(self, state: State, names: Sequence[str] = ()) -> list[str]:
        who = tuple(names) or default_names(state.config.players)
        return [action_text(a, who) for a in legal_actions(state)]

    def broken(self, start: State, state: State) -> list[str]:
        return violations(state, Totals.of_state(start))


SCENARIOS = DawnUnderScenarios()


# --------------------------------------------------------------------------- entry points


def load_scenario(path: Path, *, preset: str | None = None,
                  options: dict[str, str] | None = None) -> LoadedScenario:
    """Load and validate a Dawn Under scenario file.

    Raises:
        MalformedInput: every problem of the file (first in the message); also when the file
            is another game's.
    """
    sc = load(path, preset=preset, options=options)
    if sc.game != GAME:
        raise sc.doc.error(("game",), f"game must be {GAME!r}, got {sc.game!r}")
    return sc


def run_reading(sc: LoadedScenario, reading: Reading) -> tuple[State, list[str], list[str]]:
    """Run the actions of ``sc`` under one reading: (final state, log lines, problems)."""
    final, log, problems = _run_reading(sc, reading)
    return final, log, problems


def run_scenario(path: Path, *, preset: str | None = None,
                 options: dict[str, str] | None = None) -> CheckResult:
    """Run one Dawn Under scenario file under each of its readings (see
    :func:`ruleproof.properties.scenarios.run_scenario`).

    Raises:
        MalformedInput: if the file is malformed.
    """
    return run(load_scenario(path, preset=preset, options=options))
