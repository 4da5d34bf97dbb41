"""Dracula scenarios: TOML files of a start position, actions in notation and expected facts.

Format (documented in docs/dracula.md)::

    game = "dracula"
    title = "..."
    clauses = ["dracula-en:..."]          # what the scenario demonstrates
    actions = ["move b1", "look", ...]    # ruleproof.model.dracula.notation
    [options]                             # DraculaRules overrides (optional)
    [start]                               # seed = N (new game), or an explicit position
    [expect]                              # facts after the last action, or error = "clause id"

:func:`run_scenario` returns a :class:`ruleproof.properties.report.CheckResult` and raises
:class:`ruleproof.errors.MalformedInput` (file:line) for a malformed file.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model import CHANCE
from ruleproof.model.dracula import engine
from ruleproof.model.dracula.data import (
    COLOURS,
    SIDE_BY_SLUG,
    Board,
    CardSet,
    Side,
    default_board,
    default_cards,
)
from ruleproof.model.dracula.engine import ChanceOutcome, State
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.model.dracula.rules import rules_from_mapping
from ruleproof.properties.report import CheckResult
from ruleproof.spec import CLAUSE_ID_RE, _read_toml, line_of, spec_path

TOP_KEYS = {"game", "title", "clauses", "actions", "options", "start", "expect"}
START_KEYS = {"seed", "board", "to_move", "dracula", "van_helsing", "life", "captured",
              "discard", "current", "barriers", "breath", "whisper", "vigilance", "turned"}
EXPECT_KEYS = {"winner", "reason_contains", "life", "at", "to_move", "pending", "captured",
               "hand_contains", "hand_excludes", "board", "barriers", "turned", "discard",
               "error", "legal_contains", "legal_excludes", "log_contains", "turn",
               "current_contains"}


def scenario_dir() -> Path:
    """Directory of the shipped Dracula scenarios."""
    return spec_path("scenarios", "dracula")


def shipped_scenarios() -> list[Path]:
    """All shipped scenario files, sorted by name."""
    return sorted(scenario_dir().glob("*.toml"))


class _File:
    def __init__(self, path: Path, text: str) -> None:
        self.path = str(path)
        self.text = text

    def fail(self, what: str, needle: str | None = None, start: int = 1) -> MalformedInput:
        line = line_of(self.text, needle, start) if needle else None
        return MalformedInput(what, file=self.path, line=line)


def _side(f: _File, value: Any, key: str) -> int:
    if value not in SIDE_BY_SLUG:
        raise f.fail(f"{key}: expected 'dracula' or 'van-helsing', got {value!r}", key)
    return int(SIDE_BY_SLUG[value])


def _per_side(f: _File, value: Any, key: str) -> dict[int, Any]:
    if not isinstance(value, dict):
        raise f.fail(f"{key}: expected a table {{ dracula = ..., van-helsing = ... }}", key)
    out: dict[int, Any] = {}
    for k, v in value.items():
        out[_side(f, k.replace("_", "-"), key)] = v
    return out


def _loc(f: _File, board: Board, value: Any, key: str) -> int:
    try:
        return board.parse(str(value))
    except ValueError as exc:
        raise f.fail(f"{key}: {exc}", key) from None


def _card_list(f: _File, cards: CardSet, value: Any, key: str, action: bool = False) -> tuple[
        str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise f.fail(f"{key}: expected a list of card ids", key)
    for v in value:
        try:
            cards.act(v) if action else cards.enc(v)
        except KeyError:
            raise f.fail(f"{key}: unknown card {v!r}", v) from None
    return tuple(value)


def _start(f: _File, data: dict[str, Any], rules: Any, cards: CardSet, board: Board) -> State:
    start = data.get("start")
    if not isinstance(start, dict):
        raise f.fail("missing [start] table (seed = N, or board = [12 cards])", "[start]")
    unknown = set(start) - START_KEYS
    if unknown:
        raise f.fail(f"[start]: unknown key(s) {', '.join(sorted(unknown))}", sorted(unknown)[0])
    if "board" not in start:
        seed = start.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise f.fail("[start]: give seed = <integer> or an explicit board", "[start]")
        return engine.new_game(seed, rules, cards, board)
    b = start["board"]
    if not isinstance(b, list) or len(b) != board.size:
        raise f.fail(f"[start] board: expected a list of {board.size} card ids ('' = empty) "
                     "in the order a1 b1 c1 d1 a2 ... d3", "board")
    board_cards: list[str | None] = []
    for v in b:
        if not isinstance(v, str):
            raise f.fail("[start] board: card ids must be strings", "board")
        if v:
            _card_list(f, cards, [v], "board")
        board_cards.append(v or None)
    to_move = _side(f, start.get("to_move", rules.first_player), "to_move")
    pos = (_loc(f, board, start.get("dracula", "harbour"), "dracula"),
           _loc(f, board, start.get("van_helsing", "carriage-station"), "van_helsing"))
    life = (board.life_markers, board.life_markers)
    if "life" in start:
        lv = _per_side(f, start["life"], "life")
        for v in lv.values():
            if not isinstance(v, int) or not 1 <= v <= board.life_markers:
                raise f.fail(f"life: values must be 1..{board.life_markers}", "life")
        life = (lv.get(0, life[0]), lv.get(1, life[1]))

    def pair(key: str, action: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        if key not in start:
            return None
        v = _per_side(f, start[key], key)
        return (_card_list(f, cards, v.get(0, []), key, action),
                _card_list(f, cards, v.get(1, []), key, action))

    captured = pair("captured") or ((), ())
    discard = pair("discard") or ((), ())
    current = pair("current", True)
    if current is not None:
        current = (current[0] or cards.action_of(Side.DRACULA)[:5],
                   current[1] or cards.action_of(Side.VAN_HELSING)[:5])
    barriers: list[tuple[int, int] | None] = [None] * len(COLOURS)
    for colour, edge in dict(start.get("barriers", {})).items():
        if colour not in COLOURS:
            raise f.fail(f"barriers: unknown colour {colour!r}", "barriers")
        try:
            barriers[COLOURS.index(colour)] = board.parse_edge(str(edge))
        except ValueError as exc:
            raise f.fail(f"barriers: {exc}", "barriers") from None
    flags = {}
    for key in ("breath", "whisper", "vigilance"):
        v = start.get(key, False)
        if not isinstance(v, bool):
            raise f.fail(f"{key}: expected true or false", key)
        flags[key] = v
    turned = _loc(f, board, start["turned"], "turned") if "turned" in start else None
    try:
        return engine.custom_start(rules, cards, board, board_cards=tuple(board_cards),
                                   to_move=to_move, pos=pos, life=life, captured=captured,
                                   enc_discard=discard, current=current, barriers=tuple(barriers),
                                   breath=flags["breath"], whisper=flags["whisper"],
                                   vigilance=flags["vigilance"], turned=turned,
                                   seed=int(start.get("seed", 0)))
    except (ValueError, KeyError) as exc:
        raise f.fail(f"[start]: {exc}", "[start]") from None


def _facts(s: State, board: Board) -> dict[str, Callable[[], Any]]:
    side_name = {0: "dracula", 1: "van-helsing"}
    cp = engine.current_player(s)
    return {
        "winner": lambda: side_name.get(s.winner, "none") if s.winner is not None else "none",
        "reason": lambda: s.reason,
        "to_move": lambda: {CHANCE: "chance", engine.TERMINAL: "over"}.get(cp, side_name.get(cp)),
        "pending": lambda: engine.phase(s),
        "turn": lambda: s.turn,
    }


def _check(f: _File, s: State, expect: dict[str, Any], board: Board) -> list[str]:
    """Compare expected facts; return mismatch descriptions."""
    bad: list[str] = []
    facts = _facts(s, board)

    def eq(name: str, got: Any, want: Any) -> None:
        if got != want:
            bad.append(f"{name}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "error":
            continue
        if key in ("winner", "to_move", "pending", "turn"):
            eq(key, facts[key](), want)
        elif key == "reason_contains":
            if str(want) not in s.reason:
                bad.append(f"reason: expected to contain {want!r}, got {s.reason!r}")
        elif key == "log_contains":
            full = "\n".join(e.full for e in s.log)
            for w in want if isinstance(want, list) else [want]:
                if str(w) not in full:
                    bad.append(f"log: no line contains {w!r}")
        elif key == "life":
            for side, v in _per_side(f, want, key).items():
                eq(f"life of {Side(side).slug}", s.life[side], v)
        elif key == "at":
            for side, v in _per_side(f, want, key).items():
                eq(f"location of {Side(side).slug}", board.name(s.pos[side]),
                   board.name(_loc(f, board, v, key)))
        elif key == "captured":
            for side, v in _per_side(f, want, key).items():
                got: Any = len(s.captured[side]) if isinstance(v, int) else list(s.captured[side])
                eq(f"targets won by {Side(side).slug}", got,
                   v if isinstance(v, int) else sorted(v))
        elif key in ("hand_contains", "hand_excludes", "current_contains"):
            for side, v in _per_side(f, want, key).items():
                pool = s.current[side] if key == "current_contains" else s.hand[side]
                for c in v:
                    if (c in pool) != (key != "hand_excludes"):
                        bad.append(f"{key} {Side(side).slug}: {c} "
                                   f"{'missing' if key != 'hand_excludes' else 'present'}")
        elif key == "discard":
            for side, v in _per_side(f, want, key).items():
                eq(f"discard pile of {Side(side).slug}", list(s.enc_discard[side]), sorted(v))
        elif key == "board":
            for loc, v in dict(want).items():
                li = _loc(f, board, loc, key)
                eq(f"card at {loc}", s.board_cards[li] or "", v)
        elif key == "barriers":
            for colour, v in dict(want).items():
                if colour not in COLOURS:
                    raise f.fail(f"expect barriers: unknown colour {colour!r}", "barriers")
                e = s.barriers[COLOURS.index(colour)]
                eq(f"{colour} barrier", board.edge_name(e) if e else "",
                   board.edge_name(board.parse_edge(v)) if v else "")
        elif key == "turned":
            eq("turned card", board.name(s.turned) if s.turned is not None else "",
               board.name(_loc(f, board, want, key)) if want else "")
        elif key in ("legal_contains", "legal_excludes"):
            legal = {str(a) for a in engine.legal_actions(s)}
            for w in want:
                if (w in legal) != (key == "legal_contains"):
                    bad.append(f"{key}: {w!r} {'not legal' if key == 'legal_contains' else 'legal'}"
                               f" (legal: {', '.join(sorted(legal))})")
    return bad


def run_scenario(path: Path | str) -> CheckResult:
    """Run one scenario file.

    Returns:
        a CheckResult (method ``scenario``) whose detail lists every mismatch, or the step at
        which an action was unexpectedly illegal.

    Raises:
        MalformedInput: (file:line) for a TOML error, an unknown key, a bad option, a bad start
            position, an action string that is not valid notation, or a bad expected error id.
    """
    p = Path(path)
    started = time.perf_counter()
    data, text = _read_toml(p)
    f = _File(p, text)
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise f.fail(f"unknown key(s) {', '.join(sorted(unknown))}", sorted(unknown)[0])
    if data.get("game") != "dracula":
        raise f.fail("game must be \"dracula\"", "game")
    clauses = data.get("clauses", [])
    if not isinstance(clauses, list) or not all(isinstance(c, str) and CLAUSE_ID_RE.fullmatch(c)
                                                for c in clauses):
        raise f.fail("clauses: expected a list of clause ids", "clauses")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise f.fail("[options] must be a table", "options")
    rules = rules_from_mapping(options, file=str(p), line=line_of(text, "[options]"))
    cards, board = default_cards(), default_board()
    s = _start(f, data, rules, cards, board)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise f.fail("actions: expected a list of strings", "actions")
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        raise f.fail("[expect] must be a table", "[expect]")
    bad_keys = set(expect) - EXPECT_KEYS
    if bad_keys:
        raise f.fail(f"[expect]: unknown key(s) {', '.join(sorted(bad_keys))}", sorted(bad_keys)[0])
    want_error = expect.get("error")
    if want_error is not None and not (isinstance(want_error, str)
                                       and CLAUSE_ID_RE.fullmatch(want_error)):
        raise f.fail("expect.error must be a clause id", "error")
    name = f"scenario {p.stem}"
    parsed: list[tuple[str, list[engine.Action]]] = []
    for text_action in actions:
        try:
            parsed.append((text_action, parse_actions(board, text_action)))
        except ValueError as exc:
            raise f.fail(f"action {text_action!r}: {exc}", f'"{text_action}"') from None
    done = 0
    for index, (text_action, acts) in enumerate(parsed):
        for k, a in enumerate(acts):
            last = index == len(parsed) - 1 and k == len(acts) - 1
            if not isinstance(a, ChanceOutcome):
                s = engine.resolve_chance(s)
            try:
                s = engine.apply(s, a)
                done += 1
            except IllegalAction as exc:
                if last and want_error is not None:
                    ok = want_error in exc.clauses
                    detail = (f"{text_action!r} rejected citing {', '.join(exc.clauses)}"
                              + ("" if ok else f"; expected {want_error}"))
                    return CheckResult(name, "scenario", done + 1, ok,
                                       time.perf_counter() - started, detail, tuple(clauses))
                return CheckResult(name, "scenario", done, False, time.perf_counter() - started,
                                   f"action #{index + 1} {text_action!r} is illegal: {exc}",
                                   tuple(clauses))
    if want_error is not None:
        return CheckResult(name, "scenario", done, False, time.perf_counter() - started,
                           f"expected the last action to be rejected citing {want_error}, "
                           "but it was legal", tuple(clauses))
    s = engine.resolve_chance(s)
    bad = _check(f, s, expect, board)
    detail = "all expectations met" if not bad else "\n".join(bad)
    return CheckResult(name, "scenario", done, not bad, time.perf_counter() - started, detail,
                       tuple(clauses))
