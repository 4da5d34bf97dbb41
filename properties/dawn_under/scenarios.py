"""Scenario files for Dawn Under: one edge case each, human-writable TOML.

Format (full reference with examples in docs/scenarios.md)::

    title = "..."
    game = "dawn-under"
    players = 4
    names = ["Tom", "Diana", "Mike", "Kate"]     # optional, for logs and expectations
    clauses = ["du-en:ch4.just-opened"]          # the clauses the scenario exercises
    actions = ["Tom: open 36", "place left 27"]  # "NAME: " checks who acts (optional)

    [options]                 # rule options (optional), see docs/rules-options.md
    [setup]                   # explicit start position on top of a seeded deal
    seed = 0                  # the deal everything not given comes from
    start = "Tom"             # who moves first
    lids = { 36 = "rat" }     # lid values moved onto graves (swapped, so counts stay right)
    rows = [["yellow", "green", "red?", ...], ...]   # "?" marks a face-down vampire
    contents = { 4 = "garlic Diana", 9 = "vampire red" }
    stakes = [0, 2, 0, 0]     # held per player (the path holds the rest)
    garlic = [3, 3, 3, 3]     # in hand (default: 3 minus garlic placed in graves)

    [expect]                  # facts after the actions (see FACTS below)
    "grave.27" = "vampire yellow"
    [[expect_error]]          # optional, repeatable: an action (1-based number) that must be
    action = 5                # rejected citing this clause; the state stays as it was and
    clause = "du-en:ch4.just-opened"   # the scenario goes on with the next action

Facts: ``to_move``, ``turn``, ``phase``, ``winner``, ``plague`` (bool), ``plague.holder``,
``plague.origin``, ``plague.opened`` (list), ``removed_rats``, ``reserve``, ``stakes_path``,
``stakes.P``, ``garlic.P``, ``row.P`` (list as in ``rows``), ``outermost.P`` ([left, right]),
``row_length.P``, ``grave.G`` ("empty", "vampire COLOUR", "garlic PLAYER"), ``lid.G``
(colour, "rat" or "none"), ``known.G`` (bool). P is a player name or 0-based index.

Expansion gruft-en (``expansion = "gruft"`` in [options]): actions ``bat G``, ``believe``,
``doubt``, ``count G``, ``gift P`` (0-based index); set-up keys ``post`` (player),
``count`` (grave, needs ``post``), ``bats`` (per player in hand, 0..2); facts ``post``
(player or "middle"), ``count`` (grave or "post"), ``bats.P``, ``open`` (graves left open).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options
from ruleproof.model.dawn_under.engine import current_player, legal_actions, new_game, step
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
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    Vampire,
    VampireIn,
)
from ruleproof.model.gruft import Believe, CountTo, Doubt, GiftTo, GruftPhase, PlayBat, part
from ruleproof.properties.dawn_under.invariants import Totals, graves_consistent, rows_show_open, violations
from ruleproof.properties.report import CheckResult
from ruleproof.spec import _read_toml, all_clause_ids, line_of

TOP_KEYS = {"title", "game", "players", "names", "clauses", "actions", "options", "setup",
            "expect", "expect_error", "description", "preset", "reading", "ambiguity"}
READING_KEYS = {"name", "options", "expect", "expect_error"}
SETUP_KEYS = {"seed", "start", "lids", "rows", "contents", "stakes", "garlic",
              "post", "count", "bats"}


@dataclass(frozen=True)
class Reading:
    """One rule reading a scenario is run under: its config, start and expectations."""

    name: str
    config: Config
    start: State
    expect: dict[str, Any]
    expect_errors: dict[int, str]  # action number -> clause that must reject it


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario: shared set-up and actions, one or more readings."""

    path: str
    title: str
    names: tuple[str, ...]
    clauses: tuple[str, ...]
    actions: tuple[tuple[Action, int | None, int | None], ...]  # action, actor, line
    readings: tuple[Reading, ...]
    text: str
    ambiguity: str | None

    @property
    def config(self) -> Config:
        """The configuration of the first reading."""
        return self.readings[0].config

    @property
    def start(self) -> State:
        """The start state of the first reading."""
        return self.readings[0].start


def parse_action(text: str) -> Action:
    """Parse the action notation (``open 12``, ``place left 12``, ``garlic 12``, ``leave 12``,
    ``stop``, ``give left``, ``receive right``).

    Raises:
        ValueError: with the expected forms.
    """
    words = text.split()
    ends = {"left": End.LEFT, "right": End.RIGHT}
    try:
        if words == ["stop"]:
            return Stop()
        if words in (["believe"], ["doubt"]):  # expansion gruft-en:bats.ask
            return Believe() if words == ["believe"] else Doubt()
        if len(words) == 2 and words[0] in ("bat", "count", "gift"):
            number = int(words[1])
            if words[0] == "bat":
                return PlayBat(number)
            return CountTo(number) if words[0] == "count" else GiftTo(number)
        if len(words) == 2 and words[0] in ("open", "garlic", "leave"):
            grave = int(words[1])
            if words[0] == "open":
                return OpenGrave(grave)
            return PlaceGarlic(grave) if words[0] == "garlic" else LeaveEmpty(grave)
        if len(words) == 3 and words[0] == "place" and words[1] in ends:
            return PlaceVampire(int(words[2]), ends[words[1]])
        if len(words) == 2 and words[0] in ("give", "receive") and words[1] in ends:
            cls = GiveVampire if words[0] == "give" else ReceiveVampire
            return cls(ends[words[1]])
    except ValueError:
        pass
    raise ValueError(f"unknown action {text!r}; expected 'open G', 'place left|right G', "
                     "'garlic G', 'leave G', 'stop', 'give left|right', 'receive left|right', "
                     "or with the expansion 'bat G', 'believe', 'doubt', 'count G', "
                     "'gift PLAYER' (0-based index)")


def load_scenario(path: Path, *, preset: str | None = None,
                  options: dict[str, str] | None = None) -> Scenario:
    """Parse and validate a scenario file.

    Raises:
        MalformedInput: naming file, line and what is wrong.
    """
    data, text = _read_toml(path)
    file = str(path)

    def fail(what: str, needle: str | None = None) -> MalformedInput:
        return MalformedInput(what, file=file, line=line_of(text, needle) if needle else None)

    unknown = set(data) - TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise fail(f"unknown key {key!r}; expected one of {', '.join(sorted(TOP_KEYS))}", key)
    if data.get("game") != "dawn-under":
        raise fail(f"game must be 'dawn-under', got {data.get('game')!r}", "game")
    players = data.get("players")
    if not isinstance(players, int):
        raise fail("'players' must be an integer", "players")
    file_preset = data.get("preset", "du-en")
    if not isinstance(file_preset, str):
        raise fail("'preset' must be a string", "preset")
    chosen = preset or file_preset
    overrides = dict(options or {})

    def configure(file_options: object, where: str) -> Config:
        if not isinstance(file_options, dict):
            raise fail(f"{where} must be a table", where)
        try:
            base = preset_options(chosen)
            merged = {**{k: str(v) for k, v in file_options.items()}, **overrides}
            return make_config(players, parse_options(merged, base=base, where=file, text=text),
                               preset=chosen)
        except MalformedInput as err:
            if err.line is not None:
                raise
            needle = "players" if "players" in err.what else "preset" if "preset" in err.what \
                else where
            raise fail(err.what, needle) from None

    config = configure(data.get("options", {}), "[options]")
    names = tuple(str(n) for n in data.get("names", []))
    if names and len(names) != players:
        raise fail(f"'names' lists {len(names)} names for {players} players", "names")

    def player(value: object, where: str) -> int:
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        elif (isinstance(value, str) and value[:1] == "P" and value[1:].isdigit()
              and value not in names):
            value = int(value[1:]) - 1  # "P1" is player 0, as in the logs
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
            return value
        if isinstance(value, str) and value in names:
            return names.index(value)
        raise fail(f"{where}: {value!r} is not a player (name or 0-based index)", where)

    clauses = tuple(data.get("clauses", []))
    known = all_clause_ids()
    for c in clauses:
        if c not in known:
            raise fail(f"clause {c} is not in any clause registry", c)
    actions: list[tuple[Action, int | None, int | None]] = []
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise fail("'actions' must be a list of strings", "actions")
    search_from = line_of(text, "actions") or 1
    for raw in raw_actions:
        if not isinstance(raw, str):
            raise fail(f"action {raw!r} must be a string", "actions")
        line = line_of(text, f'"{raw}"', search_from)
        if line:
            search_from = line
        actor: int | None = None
        body = raw
        if ":" in raw:
            who, body = raw.split(":", 1)
            actor = player(who.strip(), f'"{raw}"')
        try:
            parsed = parse_action(body.strip())
        except ValueError as err:
            raise MalformedInput(str(err), file=file, line=line) from None
        if isinstance(parsed, GiftTo) and not 0 <= parsed.player < players:
            raise MalformedInput(f"action {raw!r}: there is no player {parsed.player}",
                                 file=file, line=line)
        grave = getattr(parsed, "grave", 0)
        if not 0 <= grave < config.board.size:
            raise MalformedInput(f"action {raw!r}: there is no grave {grave} "
                                 f"(0..{config.board.size - 1})", file=file, line=line)
        actions.append((parsed, actor, line))
    def errors_of(raw_errors: object) -> dict[int, str]:
        found: dict[int, str] = {}
        if not isinstance(raw_errors, list):
            raise fail("expect_error must be written as [[expect_error]] tables", "expect_error")
        for ee in raw_errors:
            if (not isinstance(ee, dict) or not isinstance(ee.get("action"), int)
                    or not isinstance(ee.get("clause"), str)):
                raise fail("[[expect_error]] needs 'action' (1-based number) and 'clause'",
                           "expect_error")
            if ee["clause"] not in known:
                raise fail(f"clause {ee['clause']} is not in any clause registry", ee["clause"])
            if not 1 <= ee["action"] <= len(actions):
                raise fail(f"expect_error action {ee['action']} is not an action number",
                           "expect_error")
            found[ee["action"]] = ee["clause"]
        return found

    setup = data.get("setup", {})
    readings: list[Reading] = []
    raw_readings = data.get("reading")
    if raw_readings is None:
        expect = data.get("expect", {})
        if not isinstance(expect, dict):
            raise fail("[expect] must be a table", "[expect]")
        start = _build_start(setup, config, names, player, fail)
        readings.append(Reading("default", config, start, expect,
                                errors_of(data.get("expect_error", []))))
    else:
        if not isinstance(raw_readings, list) or not raw_readings:
            raise fail("readings must be written as [[reading]] tables", "reading")
        if "expect" in data or "expect_error" in data:
            raise fail("with [[reading]] tables, put expect and expect_error inside each reading",
                       "expect")
        for entry in raw_readings:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise fail("each [[reading]] needs a 'name'", "[[reading]]")
            unknown = set(entry) - READING_KEYS
            if unknown:
                raise fail(f"reading {entry['name']}: unknown key {sorted(unknown)[0]!r}",
                           sorted(unknown)[0])
            merged = {**data.get("options", {}), **entry.get("options", {})}
            rconfig = configure(merged, "[[reading]]")
            expect = entry.get("expect", {})
            if not isinstance(expect, dict):
                raise fail(f"reading {entry['name']}: expect must be a table", entry["name"])
            readings.append(Reading(entry["name"], rconfig,
                                    _build_start(setup, rconfig, names, player, fail),
                                    expect, errors_of(entry.get("expect_error", []))))
    ambiguity = data.get("ambiguity")
    return Scenario(file, str(data.get("title", path.stem)), names, clauses, tuple(actions),
                    tuple(readings), text, str(ambiguity) if ambiguity else None)


def _colour(config: Config, name: object, fail: Any, where: str) -> int:
    if isinstance(name, str) and name in config.colours:
        return config.colours.index(name)
    raise fail(f"{where}: {name!r} is not a colour ({', '.join(config.colours)})", where)


def _build_start(setup: Any, config: Config, names: Sequence[str], player: Any,
                 fail: Any) -> State:
    if not isinstance(setup, dict):
        raise fail("[setup] must be a table", "[setup]")
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise fail(f"[setup]: unknown key {sorted(unknown)[0]!r}; expected one of "
                   f"{', '.join(sorted(SETUP_KEYS))}", sorted(unknown)[0])
    seed = setup.get("seed", 0)
    start_player = player(setup.get("start", 0), "start")
    state = new_game(config, int(seed), start_player)
    lids: list[int | None] = list(state.lids)
    reserve: list[int] = list(state.reserve)
    wanted: dict[int, int] = {}
    for key, value in setup.get("lids", {}).items():
        g = _grave(config, key, fail)
        wanted[g] = RAT if value == "rat" else _colour(config, value, fail, "lids")
    for g, value in wanted.items():
        if lids[g] == value:
            continue
        donor = next((h for h, lid in enumerate(lids) if lid == value and h not in wanted), None)
        if donor is not None:
            lids[donor], lids[g] = lids[g], value
        elif value != RAT and value in reserve:
            displaced = lids[g]
            assert displaced is not None
            reserve[reserve.index(value)] = displaced
            lids[g] = value
        else:
            raise fail(f"lids.{g}: no {value} lid left to move there", "lids")
    contents: list[Content] = [None] * config.board.size
    for key, value in setup.get("contents", {}).items():
        g = _grave(config, key, fail)
        words = str(value).split(maxsplit=1)
        if len(words) == 2 and words[0] == "vampire":
            contents[g] = VampireIn(_colour(config, words[1], fail, "contents"))
        elif len(words) == 2 and words[0] == "garlic":
            contents[g] = GarlicIn(player(words[1], "contents"))
        else:
            raise fail(f"contents.{key}: expected 'vampire COLOUR' or 'garlic PLAYER'", "contents")
    rows = state.rows
    if "rows" in setup:
        raw_rows = setup["rows"]
        if not isinstance(raw_rows, list) or len(raw_rows) != config.players:
            raise fail(f"'rows' must list {config.players} rows", "rows")
        rows = tuple(
            tuple(Vampire(_colour(config, str(v).rstrip("?"), fail, "rows"), not str(v)
                          .endswith("?")) for v in row) for row in raw_rows)
    held = setup.get("stakes", [0] * config.players)
    if (not isinstance(held, list) or len(held) != config.players
            or not all(isinstance(h, int) and h >= 0 for h in held) or sum(held) > config.stakes):
        raise fail(f"'stakes' must list {config.players} counts, at most {config.stakes} in all",
                   "stakes")
    in_graves = [sum(1 for c in contents if isinstance(c, GarlicIn) and c.owner == p)
                 for p in range(config.players)]
    hand = setup.get("garlic", [config.garlic - n for n in in_graves])
    if not isinstance(hand, list) or len(hand) != config.players or any(
            not isinstance(h, int) or h < 0 for h in hand):
        raise fail(f"'garlic' must list {config.players} non-negative counts", "garlic")
    start = replace(state, lids=tuple(lids), reserve=tuple(reserve), contents=tuple(contents),
                    rows=rows, stakes_held=tuple(held), stakes_path=config.stakes - sum(held),
                    garlic_hand=tuple(hand))
    start = _gruft_setup(setup, start, player, fail)
    problems = rows_show_open(start, Totals.of_state(start)) + graves_consistent(
        start, Totals.of_state(start))
    if problems:
        needle = "rows" if problems[0].startswith("row") else "[setup]"
        raise fail(f"the start position breaks a rule: {problems[0]} (mark face-down vampires "
                   "with '?': two open at each end, all open at four or fewer)"
                   if needle == "rows" else f"the start position breaks a rule: {problems[0]}",
                   needle)
    return start


def _gruft_setup(setup: dict[str, Any], start: State, player: Any, fail: Any) -> State:
    """Expansion set-up keys: ``post`` (player with the post), ``count`` (grave the Count
    stands on; needs ``post``), ``bats`` (bats in hand per player; the rest are used)."""
    keys = {"post", "count", "bats"} & set(setup)
    if not keys:
        return start
    gp = part(start)
    if gp is None:
        raise fail(f"[setup] {sorted(keys)[0]} needs the expansion (expansion = \"gruft\" in "
                   "[options])", sorted(keys)[0])
    post = player(setup["post"], "post") if "post" in setup else None
    count = _grave(start.config, setup["count"], fail) if "count" in setup else None
    if count is not None and post is None:
        raise fail("[setup] count: a Count on a grave needs 'post' (its holder)", "count")
    bats = setup.get("bats", [2] * start.config.players)
    if (not isinstance(bats, list) or len(bats) != start.config.players
            or not all(isinstance(b, int) and 0 <= b <= 2 for b in bats)):
        raise fail(f"'bats' must list {start.config.players} counts of 0..2", "bats")
    phase = GruftPhase.COUNT_OPEN if count is not None and post == start.turn_player \
        else start.phase
    return replace(start, phase=phase, extension=replace(
        gp, post=post, count_grave=count, bats=tuple(bats), bats_out=tuple(2 - b for b in bats)))


def _grave(config: Config, key: object, fail: Any) -> int:
    try:
        g = int(str(key))
    except ValueError:
        g = -1
    if not 0 <= g < config.board.size:
        raise fail(f"{key!r} is not a grave id (0..{config.board.size - 1})", str(key))
    return g


def fact(state: State, key: str, names: Sequence[str]) -> Any:
    """The value of fact ``key`` in ``state`` (see module docstring).

    Raises:
        KeyError: for an unknown fact.
    """
    cfg = state.config

    def pl(p: int | None) -> Any:
        return None if p is None else (names[p] if names else p)

    def who(token: str) -> int:
        return names.index(token) if token in names else int(token)

    def colour(c: int | None) -> str:
        return "none" if c is None else "rat" if c == RAT else cfg.colours[c]

    base, _, arg = key.partition(".")
    if base == "to_move":
        return pl(current_player(state))
    if base == "turn":
        return pl(state.turn_player)
    if base == "phase":
        return state.phase.value
    if base == "winner":
        return pl(state.winner) if state.winner is not None else "none"
    if base == "plague" and not arg:
        return state.plague is not None
    if base == "plague" and state.plague is not None:
        if arg == "holder":
            return pl(state.plague.holder)
        if arg == "origin":
            return state.plague.origin
        if arg == "opened":
            return list(state.plague.opened)
        if arg == "current":
            return pl(state.plague.current)
    if base == "removed_rats":
        return state.removed_rats
    if base == "reserve":
        return len(state.reserve)
    if base == "stakes_path":
        return state.stakes_path
    if base == "stakes":
        return state.stakes_held[who(arg)]
    if base == "garlic":
        return state.garlic_hand[who(arg)]
    if base == "row":
        return [cfg.colours[v.colour] + ("" if v.face_up else "?") for v in state.rows[who(arg)]]
    if base == "row_length":
        return len(state.rows[who(arg)])
    if base == "outermost":
        row = state.rows[who(arg)]
        return [cfg.colours[row[0].colour], cfg.colours[row[-1].colour]] if row else []
    if base == "grave":
        content = state.contents[int(arg)]
        if content is None:
            return "empty"
        if isinstance(content, VampireIn):
            return f"vampire {cfg.colours[content.colour]}"
        return f"garlic {pl(content.owner)}"
    if base == "lid":
        return colour(state.lids[int(arg)])
    if base == "known":
        return state.known[int(arg)]
    if base == "legal":
        return [str(a) for a in legal_actions(state)]
    if base == "barred":
        return list(state.barred)
    gp = part(state)
    if base == "post":  # expansion facts
        return "middle" if gp is None or gp.post is None else pl(gp.post)
    if base == "count":
        return "post" if gp is None or gp.count_grave is None else gp.count_grave
    if base == "bats":
        return gp.bats[who(arg)] if gp is not None else 0
    if base == "open":
        return list(gp.open_graves) if gp is not None else []
    raise KeyError(key)


def run_reading(sc: Scenario, reading: Reading) -> tuple[State, list[str], list[str]]:
    """Run the actions of ``sc`` under one reading: (final state, log lines, problems)."""
    state = reading.start
    totals = Totals.of_state(state)
    log: list[str] = []
    problems: list[str] = []
    names = sc.names
    for number, (action, actor, line) in enumerate(sc.actions, start=1):
        where = f"{sc.path}:{line}" if line else sc.path
        mover = current_player(state)
        wanted = reading.expect_errors.get(number)
        if actor is not None and actor != mover and wanted is None:
            problems.append(f"{where}: action {number} ({action}) expected "
                            f"{player_name(actor, names)} to act, but "
                            f"{player_name(mover, names)} is to move")
            break
        try:
            new, events = step(state, action)
        except IllegalAction as err:
            if wanted is not None:
                if wanted not in err.clauses:
                    problems.append(f"{where}: action {number} ({action}) was illegal as "
                                    f"expected, but cites {err.clauses}, not {wanted}")
                    break
                log.append(f"{player_name(mover, names)}: {action} -> rejected as expected: "
                           f"{err.reason} [{', '.join(err.clauses)}]")
                continue
            problems.append(f"{where}: action {number} ({action}) is illegal: {err}")
            break
        if wanted is not None:
            problems.append(f"{where}: action {number} ({action}) was accepted, expected it to "
                            f"be illegal by {wanted}")
            break
        log.append(f"{player_name(mover, names)}: {action}")
        log.extend("    " + event_text(state, e, names) for e in events)
        broken = violations(new, totals)
        if broken:
            problems.append(f"{where}: after action {number}: " + "; ".join(broken))
            break
        state = new
    if not problems:
        for key, want in reading.expect.items():
            try:
                got = fact(state, key, names)
            except (KeyError, ValueError, IndexError):
                raise MalformedInput(f"unknown fact {key!r} in expect", file=sc.path,
                                     line=line_of(sc.text, key)) from None
            if got != want:
                problems.append(f"{sc.path}:{line_of(sc.text, key)}: [{reading.name}] expected "
                                f"{key} = {want!r}, got {got!r}")
    return state, log, problems


def run_scenario(path: Path, *, preset: str | None = None,
                 options: dict[str, str] | None = None) -> CheckResult:
    """Run one scenario file under each of its readings; ``preset`` and ``options`` (from the
    command line) replace the file's preset and override its options, to see how the edge case
    plays under another rule set (its expectations may then fail).

    Returns:
        a CheckResult; ``detail`` holds the log and every mismatch.

    Raises:
        MalformedInput: if the file is malformed (the CLI turns this into exit code 2).
    """
    t0 = time.perf_counter()
    sc = load_scenario(path, preset=preset, options=options)
    lines: list[str] = []
    failed = False
    for reading in sc.readings:
        _state, log, problems = run_reading(sc, reading)
        if len(sc.readings) > 1:
            lines.append(f"== reading {reading.name} ==")
        lines.extend([*log, *problems])
        failed = failed or bool(problems)
    return CheckResult(f"scenario {Path(sc.path).name}", "scenario", len(sc.actions),
                       not failed, time.perf_counter() - t0, "\n".join(lines), sc.clauses)
