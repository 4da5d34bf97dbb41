"""Recorded games of engines that cannot be driven (``ruleproof conform --log FILE...``, #25).

A web game, an app, an engine with its own random generator: all its authors have are logs of
games played. Each log, in the trace format (docs/conformance.md, section 1; only the recorded
facts are compared, so a log may leave out states, observations and legal actions), is replayed
against the model under the default readings and under every registered reading on its own
(:func:`surviving`): the readings a log survives are those it replays under without a
divergence.

Over many logs the engine's chance is tested against the model's exact probabilities
(:func:`chance_test`): every chance step a log records (``chance ITEM``) is turned into a
randomised probability integral transform ``u = F(x-) + V p(x)`` (outcomes in the order of
their names, ``F`` the model's exact cumulative probability, ``V`` uniform from an explicit
seed), which is uniform on [0, 1) exactly when the outcomes follow the model's probabilities;
a chi-square test of the ``u`` in ten equal bins (scipy) rejects at ``level``. It sees a skew
that moves outcomes within the order of names (towards the first or the last ones), not one
that only swaps outcomes of equal probability. Logs that record no chance step (a set-up
given explicitly) add nothing to it.

**Partial logs** (:func:`replay_partial`): a log may miss steps (its step numbers jump: the
steps in between were played, not recorded) and hide actions (``"action": "?"``: played, not
shown, e.g. the other side's secret choices or a face-down draw), besides leaving out facts.
Such a log is checked by following every completion at once: the set of model states the
game may be in (distinct states, :meth:`GameModel.state_identity`) is expanded over every
legal action at a missing or hidden step (a hidden step's ``player``, if recorded, must be to
move), a shown action is applied where it is legal, and the states whose position contradicts
a recorded fact (``state``, ``legal``, ``observation``) are dropped. The log survives a
reading if some completion survives to its end; it is excluded at the first step no
completion explains. More than :data:`FRONTIER` states at once is not decided (reported as
such, never as a pass or a failure). A recorded chance outcome enters the chance test only
where every surviving completion gives it the same distribution.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from pathlib import Path

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import CHANCE, GameState
from ruleproof.properties.conformance.games import GameModel, model_of
from ruleproof.properties.conformance.identify import reading_space
from ruleproof.properties.conformance.replay import replay
from ruleproof.properties.conformance.trace import (
    HIDDEN,
    Expectations,
    Trace,
    TraceStep,
    read_trace,
)

BINS = 10
"""Equal bins of the transformed chance outcomes in the chi-square test."""

FRONTIER = 20_000
"""Most distinct model states a partial log's completions may reach at once before the
reading is left undecided."""


def is_partial(trace: Trace) -> bool:
    """Whether ``trace`` misses steps or hides actions (a partial log)."""
    return any(st.action == HIDDEN or st.number != i + 1 for i, st in enumerate(trace.steps))


def _json(value: object) -> object:
    return json.loads(json.dumps(value))


def _fits(game: GameModel, state: GameState, expect: Expectations) -> bool:
    """Whether the model's position ``state`` agrees with every recorded fact of ``expect``
    (a recorded engine failure, refusal or unusable field never does)."""
    if (expect.engine_failure is not None or expect.rejected is not None
            or expect.state_unusable or expect.observation_unusable):
        return False
    if expect.state:
        shown = _json(game.public_state(state))
        assert isinstance(shown, dict)
        if any(shown.get(k) != _json(v) for k, v in expect.state.items()):
            return False
    if expect.legal is not None and set(game.legal(state)) != set(expect.legal):
        return False
    if expect.observation:
        who = int(expect.observation["player"])
        seen = _json(game.observation(state, who))
        assert isinstance(seen, dict)
        if any(seen.get(k) != _json(v) for k, v in expect.observation.items()
               if k != "player"):
            return False
    return True


@dataclass(frozen=True)
class PartialReplay:
    """What :func:`replay_partial` found.

    Attributes:
        consistent: True if some completion of the log fits every recorded fact, False if
            none does (``step``: the first step none explains), None if undecided (more
            than :data:`FRONTIER` states at ``step``).
        step: see ``consistent`` (the last step if consistent).
        completions: distinct model states at the end (0 if excluded).
        chance: the randomised PIT values of the recorded chance outcomes (see module).
    """

    consistent: bool | None
    step: int
    completions: int
    detail: str = ""
    chance: tuple[float, ...] = ()


def replay_partial(trace: Trace, options: Mapping[str, str] | None = None,
                   rng: random.Random | None = None) -> PartialReplay:
    """Follow every completion of a partial log under ``options`` (default: its header's);
    see the module docstring. With ``rng``, the PIT values of recorded chance outcomes are
    collected too.

    Raises:
        MalformedInput: the header's set-up is not one of the rule set.
    """
    h = trace.header
    game = model_of(h.game)
    opts = dict(h.options if options is None else options)
    start = game.start(h.players, opts, h.seed, h.setup)
    frontier = {game.state_identity(start): start} if _fits(game, start, h.expect) else {}
    if not frontier:
        return PartialReplay(False, 0, 0, "the initial position contradicts the header's facts")
    points: list[float] = []
    done = 0

    def expand(states: Mapping[str, GameState], who: int | None) -> dict[str, GameState] | None:
        out: dict[str, GameState] = {}
        for state in states.values():
            if who is not None and game.to_move(state) != who:
                continue
            for action in game.legal(state):
                nxt = game.apply(state, action).state
                out.setdefault(game.state_identity(nxt), nxt)
                if len(out) > FRONTIER:
                    return None
        return out

    def stop(step: TraceStep, detail: str) -> PartialReplay:
        return PartialReplay(False, step.number, 0, detail, tuple(points))

    for st in trace.steps:
        for _ in range(st.number - done - 1):  # missing steps: any legal action
            grown = expand(frontier, None)
            if grown is None:
                return PartialReplay(None, st.number, FRONTIER, f"more than {FRONTIER} "
                                     "completions of the missing steps", tuple(points))
            frontier = grown
        done = st.number
        if st.action == HIDDEN:
            grown = expand(frontier, st.player)
            if grown is None:
                return PartialReplay(None, st.number, FRONTIER, f"more than {FRONTIER} "
                                     "completions of the hidden action", tuple(points))
            frontier = grown
        else:
            if rng is not None and frontier:
                dists = {tuple(sorted((str(o), p) for o, p in
                                      s.game.model_chance(s.model)))
                         if s.current_player() == CHANCE else ()
                         for s in frontier.values()}
                if len(dists) == 1 and (dist := next(iter(dists))):
                    below = Fraction(0)
                    for name, p in dist:
                        if name == st.action:
                            points.append(float(below) + rng.random() * float(p))
                            break
                        below += p
            nxt_states: dict[str, GameState] = {}
            for state in frontier.values():
                if st.player is not None and game.to_move(state) != st.player:
                    continue
                if st.action not in game.legal(state):
                    continue
                nxt = game.apply(state, st.action).state
                nxt_states.setdefault(game.state_identity(nxt), nxt)
            if not nxt_states:
                return stop(st, f"step {st.number} (line {st.line}): '{st.action}' is legal "
                                "in no completion of the log so far")
            frontier = nxt_states
        frontier = {k: v for k, v in frontier.items() if _fits(game, v, st.expect)}
        if not frontier:
            return stop(st, f"step {st.number} (line {st.line}): the recorded facts fit no "
                            "completion of the log so far")
    return PartialReplay(True, done, len(frontier), "", tuple(points))


@dataclass(frozen=True)
class LogResult:
    """One log: whether it replays under the default readings, and the registered readings
    (``option=value``) it replays under; for a partial log (``partial``) the readings left
    undecided (``"default"`` or ``option=value``: too many completions)."""

    path: str
    game: str
    default: bool
    surviving: tuple[str, ...]
    steps: int
    first_divergence: str = ""
    undecided: tuple[str, ...] = ()
    partial: bool = False
    facts: int = 0
    """Visible actions plus lines with a recorded fact: 0 means the log checked nothing."""


def _facts(trace: Trace) -> int:
    """What a log shows: its visible actions (not ``"?"``) and its lines recording a fact
    (state, legal actions, observation, an engine failure or refusal)."""
    return sum(1 for st in trace.steps
               if st.action != HIDDEN
               or any(getattr(st.expect, f.name) is not None for f in fields(st.expect)))


def surviving(trace: Trace) -> LogResult:
    """Replay ``trace`` under the default readings and under each registered reading on its
    own (options the log's header fixes are not varied).

    Raises:
        MalformedInput: an action the model cannot read (file and line).
    """
    h = trace.header
    game = model_of(h.game)
    if is_partial(trace):
        return _surviving_partial(trace, game)
    base = replay(trace)
    alive: list[str] = []
    for name, values in reading_space(game, h.options).items():
        for value in values[1:]:
            trial = replace(trace, header=replace(h, options={**h.options, name: value}))
            try:
                result = replay(trial)
            except MalformedInput:
                continue
            if result.conforms:
                alive.append(f"{name}={value}")
    first = "" if base.divergence is None else base.divergence.describe().splitlines()[0]
    return LogResult(trace.path, h.game, base.conforms, tuple(alive), len(trace.steps), first,
                     facts=_facts(trace))


def _surviving_partial(trace: Trace, game: GameModel) -> LogResult:
    """:func:`surviving` for a partial log (:func:`replay_partial` under each reading)."""
    h = trace.header
    base = replay_partial(trace)
    alive: list[str] = []
    undecided = ["default"] if base.consistent is None else []
    for name, values in reading_space(game, h.options).items():
        for value in values[1:]:
            try:
                got = replay_partial(trace, {**h.options, name: value})
            except MalformedInput:
                continue
            if got.consistent:
                alive.append(f"{name}={value}")
            elif got.consistent is None:
                undecided.append(f"{name}={value}")
    return LogResult(trace.path, h.game, base.consistent is True, tuple(alive),
                     len(trace.steps), base.detail, tuple(undecided), True, _facts(trace))


def _pit(dist: Sequence[tuple[str, Fraction]], outcome: str, rng: random.Random) -> float | None:
    """The randomised probability integral transform of ``outcome`` under ``dist`` (in the
    order of the outcome names); None if ``dist`` does not hold it."""
    below = Fraction(0)
    for name, p in sorted(dist):
        if name == outcome:
            return float(below) + rng.random() * float(p)
        below += p
    return None


def deal_points(trace: Trace, rng: random.Random) -> list[float]:
    """The PIT values of an explicit set-up dealt by the engine's chance nodes: the game's
    conformance capability, if it has ``deal_chance(players, options, setup)`` (per dealt
    item its exact distribution and the outcome the set-up shows; Dawn Under's deal), else
    none (a set-up that is not dealt by chance, or a seeded one: the model's own deal)."""
    h = trace.header
    hook = getattr(model_of(h.game).spec, "deal_chance", None)
    if hook is None or h.setup is None:
        return []
    out = []
    for dist, outcome in hook(h.players, h.options, h.setup):
        u = _pit(dist, outcome, rng)
        if u is not None:
            out.append(u)
    return out


def chance_points(trace: Trace, rng: random.Random) -> list[float]:
    """The randomised probability integral transforms of the chance steps ``trace`` records
    (played on the model under its header's options, up to its first illegal step; for a
    partial log, :func:`replay_partial`'s)."""
    dealt = deal_points(trace, rng)
    if is_partial(trace):
        return dealt + list(replay_partial(trace, rng=rng).chance)
    h = trace.header
    game = model_of(h.game)
    state = game.start(h.players, h.options, h.seed, h.setup)
    out: list[float] = dealt
    for st in trace.steps:
        if state.current_player() == CHANCE:
            dist = sorted(((str(o), p) for o, p in state.game.model_chance(state.model)))
            below = Fraction(0)
            for name, p in dist:
                if name == st.action:
                    out.append(float(below) + rng.random() * float(p))
                    break
                below += p
        try:
            state = game.apply(state, st.action).state
        except (IllegalAction, ValueError):
            break
    return out


@dataclass(frozen=True)
class ChanceTest:
    """The goodness-of-fit test of the recorded chance outcomes.

    Attributes:
        points: chance steps tested; counts: per bin; p_value: of the chi-square test (None
            if fewer than ``5 * BINS`` points: too few to test); level: the rejection level;
        passed: True if not rejected (None if not tested).
    """

    points: int
    counts: tuple[int, ...]
    p_value: float | None
    level: float

    @property
    def passed(self) -> bool | None:
        return None if self.p_value is None else self.p_value >= self.level

    def describe(self) -> str:
        if self.p_value is None:
            return (f"chance: not tested ({self.points} recorded chance outcomes; at least "
                    f"{5 * BINS} needed)")
        verdict = "consistent with" if self.passed else "NOT consistent with"
        return (f"chance: {self.points} recorded outcomes {verdict} the model's exact "
                f"probabilities (chi-square of the probability integral transform, {BINS} "
                f"bins: p = {self.p_value:.3g}, level {self.level:g})")


def chance_test(traces: Sequence[Trace], *, level: float = 0.01, seed: int = 0) -> ChanceTest:
    """Test the chance outcomes of ``traces`` against the model's exact probabilities (see the
    module docstring).

    Raises:
        MalformedInput: scipy is not installed (``pip install scipy``).
    """
    rng = random.Random(seed)
    points = [u for t in traces for u in chance_points(t, rng)]
    counts = [0] * BINS
    for u in points:
        counts[min(int(u * BINS), BINS - 1)] += 1
    if len(points) < 5 * BINS:
        return ChanceTest(len(points), tuple(counts), None, level)
    try:
        from scipy.stats import chisquare
    except ImportError:  # pragma: no cover - scipy comes with the test extra
        raise MalformedInput("the chance test needs scipy (pip install scipy)") from None
    p = float(chisquare(counts).pvalue)
    return ChanceTest(len(points), tuple(counts), p, level)


def check_logs(paths: Sequence[Path], *, level: float = 0.01,
               seed: int = 0) -> tuple[list[LogResult], ChanceTest]:
    """Every log's surviving readings, and the chance test over all of them.

    Raises:
        MalformedInput: an unreadable log (file, line and column).
    """
    traces = [read_trace(p, partial=True) for p in paths]
    return [surviving(t) for t in traces], chance_test(traces, level=level, seed=seed)


def report(results: Sequence[LogResult], chance: ChanceTest) -> str:
    """Readable lines: per log, the readings it survives; then the chance test."""
    lines = []
    for r in results:
        if not r.facts:
            lines.append(f"{r.path}: FAILED: nothing was checked (no visible action and no "
                         "recorded fact): every reading would fit it")
            continue
        alive = ", ".join(r.surviving) or "no other reading"
        default = ("undecided" if "default" in r.undecided else "survive" if r.default
                   else "do NOT survive (" + (r.first_divergence or "no step replays") + ")")
        more = [u for u in r.undecided if u != "default"]
        lines.append(f"{r.path}: {r.steps} {'recorded lines (a partial log)' if r.partial else 'actions'}; "
                     f"default readings {default}; other readings surviving: {alive}"
                     + (f"; undecided (more than {FRONTIER} completions): {', '.join(more)}"
                        if more else ""))
    lines.append(chance.describe())
    return "\n".join(lines)


def fits(results: Sequence[LogResult], chance: ChanceTest) -> Mapping[str, bool]:
    """Summary flags: every log survives some reading (the default or another), and the chance
    test did not reject."""
    return {"readings": all(r.facts and (r.default or r.surviving or r.undecided)
                            for r in results),
            "chance": chance.passed is not False}


__all__ = ["BINS", "FRONTIER", "ChanceTest", "LogResult", "PartialReplay", "chance_points",
           "chance_test", "check_logs", "fits", "is_partial", "replay_partial", "report",
           "surviving"]
