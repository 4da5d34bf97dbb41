"""Replay a recorded game against the model and report the first divergence."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.properties.conformance.blame import (
    HEURISTIC,
    MODEL,
    READING,
    Blame,
    blame_step,
    first_of,
    rank_by_actions,
)
from ruleproof.properties.conformance.diff import Divergence, diff_states, legal_diff
from ruleproof.properties.conformance.games import GameModel, model_of
from ruleproof.properties.conformance.jsonsafe import TraceError, column_of_key
from ruleproof.properties.conformance.trace import Expectations, Trace, read_trace


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a replay.

    Attributes:
        path: the trace file.
        steps: actions replayed successfully.
        divergence: the first divergence, or None if none was found.
        unchecked: why the replay proves nothing although nothing diverged (a trace with no
            actions and no recorded state, observation or legal set); '' otherwise. A trace
            that checked nothing does not conform: no check passes on zero work.
    """

    path: str
    steps: int
    divergence: Divergence | None
    unchecked: str = ""

    @property
    def conforms(self) -> bool:
        """True if something was checked, every action was legal and every recorded fact
        matched."""
        return self.divergence is None and not self.unchecked


def replay_file(path: Path) -> ReplayResult:
    """Read a trace file and replay it (see :func:`replay`).

    Raises:
        TraceError: the file is unreadable or malformed (line and column given).
    """
    return replay(read_trace(path))


def replay(trace: Trace) -> ReplayResult:
    """Replay ``trace`` against the model.

    A line recording that the engine failed (``engine_failure``) or refused a legal action
    (``rejected``) is a divergence of that kind: a trace saved after an engine failure never
    replays as conforming.

    Each action must be legal in the model (else an ``illegal-action`` divergence citing the
    clauses of the model's :class:`IllegalAction`), be taken by the recorded ``player``
    (``wrong-player``), and the recorded ``state``, ``observation`` and ``legal`` facts must match
    the model's (``state``/``observation``/``legal-actions``; clauses from the field -> clause
    map, narrowed to those the model's transition used).

    Raises:
        TraceError: an action string that is not an action of the game (line and column).
    """
    game = model_of(trace.header.game)
    h = trace.header
    state = game.start(h.players, h.options, h.seed, h.setup)
    found = check_position(game, state, h.expect, 0, None, (), None, options=h.options)
    if found is not None:
        return ReplayResult(trace.path, 0, found)
    if h.expect.engine_failure is not None:
        return ReplayResult(trace.path, 0, Divergence(
            0, None, "engine-failure", (), f"recorded: {h.expect.engine_failure}", 1))
    for st in trace.steps:
        expected_player = game.to_move(state)
        if st.player is not None and st.player != expected_player:
            chance = game.public_state(state).get("to_move") == "chance"
            who = ("chance (a 'chance ITEM' step has no player)" if chance
                   else "nobody (the game is over)" if expected_player is None
                   else f"P{expected_player + 1}")  # the trace's numbering (P1 first)
            return ReplayResult(trace.path, st.number - 1, Divergence(
                st.number, st.action, "wrong-player", game.blame_state({}, {}, ["to_move"], ()),
                f"P{st.player + 1} acts, but {who} is to move", st.line, HEURISTIC))
        if st.expect.rejected is not None:
            legal = st.action in game.legal(state)
            if legal:
                why = game.blame_missing(state, st.action)
                return ReplayResult(trace.path, st.number - 1, Divergence(
                    st.number, st.action, "rejected", why.clauses,
                    f"recorded: the engine rejected a legal action: {st.expect.rejected}",
                    st.line, why.by))
        try:
            stepped = game.apply(state, st.action)
        except ValueError as exc:
            raise TraceError(str(exc), file=trace.path, line=st.line,
                             column=column_of_key(st.text, "action")) from None
        except IllegalAction as exc:
            why = first_of(game.blame_extra(state, st.action), Blame(exc.clauses, MODEL))
            return ReplayResult(trace.path, st.number - 1, Divergence(
                st.number, st.action, "illegal-action", game.localise(why.clauses, h.options),
                exc.reason, st.line, why.by))
        previous, state = state, stepped.state
        found = check_position(game, state, st.expect, st.number, st.action, stepped.clauses,
                               st.line, previous=previous, options=h.options)
        if found is not None:
            return ReplayResult(trace.path, st.number - 1, found)
        if st.expect.engine_failure is not None:
            return ReplayResult(trace.path, st.number, Divergence(
                st.number, st.action, "engine-failure", (),
                f"recorded: {st.expect.engine_failure}", st.line))
    if not trace.steps and h.expect.state is None and h.expect.observation is None and (
            h.expect.legal is None and not h.expect.state_unusable
            and not h.expect.observation_unusable):
        return ReplayResult(trace.path, 0, None, "nothing was checked: the trace has no actions "
                                                 "and its header records no state, observation "
                                                 "or legal actions")
    return ReplayResult(trace.path, len(trace.steps), None)


def check_position(game: GameModel, state: Any, expect: Expectations, step: int,
                   action: str | None, happened: tuple[str, ...],
                   line: int | None, *, previous: Any = None,
                   options: Mapping[str, str] | None = None) -> Divergence | None:
    """Compare recorded facts about one position with the model (None if they agree).

    Clauses are blamed as in ``conform``: first the model's reading of a registered ambiguity
    when another reading reproduces the recorded facts, then the field map; in the citation
    form of the trace's rule set (``localise``)."""
    found = _check_position(game, state, expect, step, action, happened, line, previous,
                            dict(options or {}))
    if found is None or not found.clauses:
        return found
    return replace(found, clauses=game.localise(found.clauses, dict(options or {})))


def _check_position(game: GameModel, state: Any, expect: Expectations, step: int,
                    action: str | None, happened: tuple[str, ...], line: int | None,
                    previous: Any, options: Mapping[str, str]) -> Divergence | None:
    if expect.state_unusable:
        model_state = game.public_state(state)
        known = [f for f in sorted(expect.state_unusable) if f in model_state]
        clauses = game.blame_state(model_state, {}, known, happened) if known else ()
        shown = {name: json.dumps(model_state[name])[:200] if name in model_state
                 else "(no such field)" for name in expect.state_unusable}
        return Divergence(step, action, "state", clauses, "\n".join(
            f"{name}: expected {shown[name]}, reported unusable: {what}"
            for name, what in sorted(expect.state_unusable.items())), line)
    if expect.observation_unusable:
        who = int(expect.observation_unusable["player"])
        seen = {k: v for k, v in game.observation(state, who).items() if k != "player"}
        problems = {k: str(v) for k, v in expect.observation_unusable.items() if k != "player"}
        known = [f for f in sorted(problems) if f in seen]
        clauses = game.blame_state(seen, {}, known, happened) if known else ()
        return Divergence(step, action, "observation", clauses, f"observation of player {who}:\n"
                          + "\n".join(
                              f"{name}: expected "
                              f"{json.dumps(seen[name])[:200] if name in seen else '(no such field)'}"
                              f", reported unusable: {what}" for name, what in sorted(problems.items())),
                          line)
    for kind, recorded in (("state", expect.state), ("observation", expect.observation)):
        if recorded is None:
            continue
        model: Mapping[str, Any]
        if kind == "observation":
            model = game.observation(state, int(recorded["player"]))
        else:
            model = game.public_state(state)
        fields, lines = diff_states(model, recorded, fields=recorded.keys())
        if fields:
            observer = int(recorded["player"]) if kind == "observation" else None
            facts = {k: v for k, v in recorded.items() if k != "player"}
            blamed = blame_step(game, previous, action, state, model, facts, fields, happened,
                                options, observer)
            return Divergence(step, action, kind, blamed.clauses, "\n".join(lines), line,
                              blamed.by)
    if expect.legal is not None:
        missing, extra = legal_diff(game.legal(state), expect.legal)
        if missing or extra:
            div = _legal_divergence(game, state, missing, extra, step, action, line)
            reading = game.blame_reading(previous, action, state, None, sorted(expect.legal),
                                         options)
            if reading:
                div = replace(div, clauses=tuple(dict.fromkeys([*reading, *div.clauses])),
                              blamed_by=READING)
            return div
    return None


def _legal_divergence(game: GameModel, state: Any, missing: list[str], extra: list[str],
                      step: int, action: str | None, line: int | None) -> Divergence:
    """A ``legal-actions`` divergence: an action only the engine offers is blamed on the
    contracts forbidding it (else the model's IllegalAction clauses), an action only the model
    offers on the contracts permitting it (else clauses mapped to its kind); the clauses
    blamed for the most of those actions first (:func:`rank_by_actions`)."""
    blamed: list[Blame] = []
    lines: list[str] = []
    for a in extra:
        why = game.blame_extra(state, a)
        blamed.append(why)
        try:  # a name outside the notation (an engine's own spelling) is said to be one
            game.spec.parse(a)
            unknown = ""
        except ValueError as exc:
            unknown = f" ({exc})"
        lines.append(f"reported legal, the model forbids: {a}"
                     + (f" [{', '.join(why.clauses)}]" if why.clauses else "") + unknown)
    for a in missing:
        blamed.append(game.blame_missing(state, a))
        lines.append(f"the model allows, not reported legal: {a}")
    if len(lines) > 12:
        lines = [*lines[:12], f"... and {len(lines) - 12} more"]
    ranked = rank_by_actions(blamed)
    return Divergence(step, action, "legal-actions", ranked.clauses, "\n".join(lines), line,
                      ranked.by)
