"""Live differential testing: drive an engine and the model side by side.

hypothesis chooses the player count, the deal (a seed; the engine receives the explicit set-up)
and every action among the model's legal ones. After every step the engine's legal actions,
public state and outcome are compared with the model's. The first difference fails the example;
hypothesis shrinks it (within a time budget) to a minimal game, which is returned as a replayable
trace (:func:`trace_text`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.properties.conformance.diff import Divergence, diff_states, legal_diff
from ruleproof.properties.conformance.engine import Engine, EngineFactory, EngineFailure, Unsupported
from ruleproof.properties.conformance.games import GameAdapter
from ruleproof.properties.conformance.replay import _legal_divergence
from ruleproof.properties.conformance.trace import dump_lines, header_object

SEED_RANGE = 2**16
"""Deals are drawn from seeds 0..SEED_RANGE-1 (hypothesis shrinks them towards 0)."""


@dataclass(frozen=True)
class Played:
    """One game played on the engine and the model.

    Attributes:
        players, seed, setup: the game (``setup`` is what the engine received).
        actions: (player, action) pairs applied, the last one possibly diverging.
        divergence: the first difference, or None.
        reported_state, reported_legal: what the engine reported at the divergence (if any).
    """

    players: int
    seed: int
    setup: Mapping[str, Any]
    actions: tuple[tuple[int | None, str], ...]
    divergence: Divergence | None
    reported_state: Mapping[str, Any] | None = None
    reported_legal: tuple[str, ...] | None = None


def play(game: GameAdapter, engine: Engine, players: int, options: Mapping[str, str], seed: int,
         choose: Callable[[int], int], max_steps: int, probe: bool = True) -> Played:
    """Play one game on ``engine`` and the model; stop at the first divergence.

    ``choose(n)`` picks the index of the next action among the model's ``n`` legal actions.
    With ``probe``, before every action one action the model forbids (the adapter's
    ``probe_actions``, in rotation) is sent to the engine, which must refuse it
    (``accepted-illegal`` otherwise, citing the model's IllegalAction clauses).
    Engine failures become ``engine-failure`` divergences (never exceptions).
    """
    setup = game.setup_of(players, options, seed)
    state = game.start(players, options, None, setup)
    actions: list[tuple[int | None, str]] = []

    def done(div: Divergence, reported: Mapping[str, Any] | None = None,
             legal: list[str] | None = None) -> Played:
        return Played(players, seed, setup, tuple(actions), div, reported,
                      None if legal is None else tuple(legal))

    step = 0
    action: str | None = None
    happened: tuple[str, ...] = ()
    try:
        engine.new_game(game.name, players, options, setup)
        while True:
            reported_state = engine.state()
            expected_state = game.public_state(state)
            fields, lines = diff_states(expected_state, reported_state)
            if fields:
                blamed = game.blame_state(expected_state, reported_state, fields, happened)
                return done(Divergence(step, action, "state", blamed, "\n".join(lines)),
                            reported_state, _safe_legal(engine))
            for who in game.observed_players:
                reported_seen = engine.observation(who)
                expected_seen = game.observation(state, who)
                fields, lines = diff_states(expected_seen, reported_seen)
                if fields:
                    blamed = game.blame_state(expected_seen, reported_seen, fields, happened)
                    return done(Divergence(step, action, "observation", blamed,
                                           f"observation of player {who}:\n" + "\n".join(lines)),
                                reported_seen, _safe_legal(engine))
            reported_legal = engine.legal_actions()
            model_legal = game.legal(state)
            missing, extra = legal_diff(model_legal, reported_legal)
            if missing or extra:
                return done(_legal_divergence(game, state, missing, extra, step, action, None),
                            reported_state, reported_legal)
            if not model_legal:
                return Played(players, seed, setup, tuple(actions), None)
            if probe:
                accepted = _probe(game, engine, state, step)
                if accepted is not None:
                    actions.append((game.to_move(state), accepted.action or ""))
                    return done(accepted)
            if step >= max_steps:
                return Played(players, seed, setup, tuple(actions), None)
            choices = game.choosable(state)
            if not choices:
                return Played(players, seed, setup, tuple(actions), None)
            action = choices[choose(len(choices))]
            actions.append((game.to_move(state), action))
            step += 1
            refused = engine.apply(action)
            if refused is not None:
                return done(Divergence(step, action, "rejected",
                                       game.blame_missing(state, action),
                                       f"the engine rejected a legal action: {refused}"))
            stepped = game.apply(state, action)
            state, happened = stepped.state, stepped.clauses
    except EngineFailure as exc:
        return done(Divergence(step, action, "engine-failure", (), exc.what))
    except Unsupported as exc:
        return done(Divergence(step, action, "engine-failure", (),
                               f"the engine declined this game: {exc.what}"))


def _probe(game: GameAdapter, engine: Engine, state: Any, step: int) -> Divergence | None:
    """Send one model-illegal action; a divergence if the engine accepts it."""
    candidates = game.probe_actions(state)
    if not candidates:
        return None
    bad = candidates[step % len(candidates)]
    if engine.apply(bad) is not None:
        return None
    try:
        game.apply(state, bad)
    except IllegalAction as exc:
        return Divergence(step + 1, bad, "accepted-illegal", exc.clauses,
                          f"the engine accepted an action the model forbids: {exc.reason}")
    raise AssertionError(f"probe action {bad!r} is legal in the model")  # adapter bug


def _safe_legal(engine: Engine) -> list[str] | None:
    try:
        return engine.legal_actions()
    except EngineFailure:
        return None


@dataclass(frozen=True)
class ConformResult:
    """The outcome of :func:`conform`.

    Attributes:
        game: the game name.
        examples: games played (including shrinking).
        steps: actions played in all games.
        seconds: total time.
        detection_seconds: time until the first divergence was found (None if none).
        found: the minimal failing game, or None if the engine conformed within the budget.
        note: remarks (e.g. a divergence that did not reproduce on a fresh engine).
        games_to_detection: games played until the first divergence (None if none).
    """

    game: str
    examples: int
    steps: int
    seconds: float
    detection_seconds: float | None
    found: Played | None
    options: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    games_to_detection: int | None = None
    unsupported: str = ""

    @property
    def conforms(self) -> bool:
        """True if no divergence was found (and the engine did not decline the game)."""
        return self.found is None and not self.unsupported

    @property
    def divergence(self) -> Divergence | None:
        """The divergence of the minimal failing game."""
        return None if self.found is None else self.found.divergence

    def report(self) -> str:
        """A readable summary (with the minimal trace's actions)."""
        if self.unsupported:
            return f"{self.game}: UNSUPPORTED by the engine (not a mismatch): {self.unsupported}"
        if self.found is None or self.found.divergence is None:
            return (f"{self.game}: no divergence in {self.examples} games, {self.steps} steps "
                    f"({self.seconds:.1f} s)")
        f = self.found
        assert f.divergence is not None
        moves = ", ".join(a for _, a in f.actions) or "(none)"
        games = self.games_to_detection
        text = (f"{self.game}: NONCONFORMING after {self.detection_seconds:.2f} s "
                f"({games} game{'' if games == 1 else 's'}); minimal game: {f.players} players, deal seed "
                f"{f.seed}, {len(f.actions)} actions: {moves}\n{f.divergence.describe()}")
        return text + (f"\nnote: {self.note}" if self.note else "")


class _Holder:
    """Keeps one engine alive across games; a failed engine is replaced by a fresh one."""

    def __init__(self, factory: EngineFactory) -> None:
        self.factory = factory
        self.engine: Engine | None = None

    def get(self) -> Engine:
        if self.engine is None:
            self.engine = self.factory()
        return self.engine

    def reset(self) -> None:
        if self.engine is not None:
            self.engine.close()
        self.engine = None


def conform(game: GameAdapter, factory: EngineFactory, *, players: int | None = None,
            options: Mapping[str, str] | None = None, budget: float = 10.0, seed: int = 0,
            max_steps: int = 1000, shrink_budget: float | None = None,
            examples_per_round: int = 25) -> ConformResult:
    """Search for a divergence between engines from ``factory`` and the model of ``game``.

    Args:
        game: the model adapter.
        factory: builds an engine (called again after an engine failure).
        players: a fixed player count, or None to let hypothesis choose.
        options: rule options (name -> value), passed to the model and the engine.
        budget: seconds of search (the search stops at the first divergence).
        seed: explicit seed of the hypothesis search (same seed, same games).
        max_steps: actions per game at most.
        shrink_budget: seconds spent shrinking a divergence (default: half the budget, >= 1 s).
        examples_per_round: games per hypothesis run; runs repeat until the budget is spent.

    Raises:
        MalformedInput: the factory cannot start the engine, or bad players/options.
        Exception: an unexpected error of the model or the adapter (never an engine's fault:
            engine errors are divergences) is re-raised after the search.
    """
    opts = dict(options or {})
    start = time.monotonic()
    deadline = start + budget
    shrink_for = max(1.0, budget / 2) if shrink_budget is None else shrink_budget
    failures: list[Played] = []
    first_found: list[float] = []
    counts = [0, 0, 0]  # games, steps, games until the first divergence
    errors: list[Exception] = []
    holder = _Holder(factory)
    # Probe the engine and the options once, outside hypothesis, so bad input is reported,
    # and ask the engine which player counts it plays (an engine may decline some).
    counts_allowed = game.player_counts(opts)
    if players is not None and players not in counts_allowed:
        raise MalformedInput(f"{game.name} with these options is played by "
                             f"{', '.join(map(str, counts_allowed))} players; got {players}")
    game.start(players or counts_allowed[0], opts, 0, None)
    playable, declined = _preflight(game, holder, [players] if players else counts_allowed,
                                    opts)
    if not playable:
        holder.reset()
        return ConformResult(game.name, 0, 0, time.monotonic() - start, None, None, opts,
                             unsupported=declined[0])
    note_unsupported = ("; ".join(declined) if declined else "")

    def one_game(data: st.DataObject) -> None:
        now = time.monotonic()
        if (first_found and now > first_found[0] + shrink_for) or (
                not first_found and now > deadline):
            return
        lo, hi = min(playable), max(playable)
        p = playable[0] if len(playable) == 1 else data.draw(
            st.integers(lo, hi) if hi - lo == len(playable) - 1 else st.sampled_from(playable),
            label="players")
        deal = data.draw(st.integers(0, SEED_RANGE - 1), label="deal seed")
        # While shrinking, a game longer than the shortest failure found cannot be smaller.
        cap = min([max_steps, *(len(f.actions) for f in failures)])
        try:
            played = play(game, holder.get(), p, opts, deal,
                          lambda n: data.draw(st.integers(0, n - 1)), cap)
        except Exception as exc:
            if not _is_hypothesis_control(exc):
                errors.append(exc)  # a bug in the model or adapter: surfaced after the search
            raise
        counts[0] += 1
        counts[1] += len(played.actions)
        if played.divergence is not None:
            if played.divergence.kind == "engine-failure":
                holder.reset()
            if not first_found:
                first_found.append(time.monotonic())
                counts[2] = counts[0]
            failures.append(played)
            raise AssertionError(played.divergence.describe())

    try:
        rounds = 0
        while not failures and not errors and time.monotonic() < deadline:
            test = settings(max_examples=examples_per_round, database=None, deadline=None,
                            phases=(Phase.generate, Phase.shrink), derandomize=False,
                            suppress_health_check=list(HealthCheck), print_blob=False,
                            report_multiple_bugs=False, verbosity=Verbosity.quiet)(
                given(st.data())(one_game))
            # A failure (or a flaky report once the shrink budget is spent) is recorded in
            # ``failures``; hypothesis's own exception carries nothing more.
            with contextlib.suppress(Exception):
                hypothesis_seed(seed * 100_003 + rounds)(test)()
            rounds += 1
        if errors and not failures:
            raise errors[0]
        found: Played | None = None
        note = ""
        if failures:
            found = min(failures, key=lambda f: (len(f.actions), f.players, f.seed))
            found, note = _confirm(game, factory, found, opts, max_steps)
    finally:
        holder.reset()
    detection = first_found[0] - start if first_found else None
    if note_unsupported:
        note = "; ".join(x for x in (note, f"not tested (engine declined): {note_unsupported}")
                         if x)
    return ConformResult(game.name, counts[0], counts[1], time.monotonic() - start, detection,
                         found, opts, note, counts[2] if first_found else None)


def _preflight(game: GameAdapter, holder: _Holder, counts: Sequence[int],
               options: Mapping[str, str]) -> tuple[list[int], list[str]]:
    """Start one game per player count; (counts the engine plays, its reasons for the others).

    An engine failure here is left for the search to find and report."""
    playable: list[int] = []
    declined: list[str] = []
    for n in counts:
        try:
            holder.get().new_game(game.name, n, options, game.setup_of(n, options, 0))
        except Unsupported as exc:
            declined.append(f"{n} players: {exc.what}")
            continue
        except EngineFailure:
            holder.reset()
        playable.append(n)
    return playable, declined


def _is_hypothesis_control(exc: Exception) -> bool:
    """hypothesis stops a test function with its own exceptions (overrun, unsatisfied draws)."""
    return type(exc).__module__.startswith("hypothesis")


def _confirm(game: GameAdapter, factory: EngineFactory, found: Played,
             options: Mapping[str, str], max_steps: int) -> tuple[Played, str]:
    """Replay the minimal game on a fresh engine; keep the fresh run if it reproduces."""
    choices_list = _choices(game, found, options)
    choices = iter(choices_list)
    engine = factory()
    try:
        again = play(game, engine, found.players, options, found.seed,
                     lambda n: next(choices), len(choices_list))
    finally:
        engine.close()
    d1, d2 = found.divergence, again.divergence
    if d1 is not None and d2 is not None and (d1.step, d1.kind) == (d2.step, d2.kind):
        return again, ""
    return found, "the divergence did not reproduce on a fresh engine (state kept between games?)"


def _choices(game: GameAdapter, played: Played, options: Mapping[str, str]) -> list[int]:
    """The action indices that replay ``played.actions`` on the model."""
    state = game.start(played.players, options, None, played.setup)
    out: list[int] = []
    for _, action in played.actions:
        legal = game.choosable(state)
        if action not in legal:  # an accepted probe: play() sends it again by itself
            break
        out.append(legal.index(action))
        state = game.apply(state, action).state
    return out


def trace_text(result: ConformResult, game: GameAdapter, engine: str | None = None) -> str | None:
    """The minimal failing game of ``result`` as a trace file (None if it conformed).

    The last line carries what the engine reported (``state`` and ``legal``), so
    ``ruleproof replay`` reproduces a ``state`` or ``legal-actions`` divergence. An engine
    failure or rejection cannot be replayed against the model alone; the header's ``note`` says so.
    """
    f = result.found
    if f is None or f.divergence is None:
        return None
    d = f.divergence
    note = f"{d.kind} at step {d.step}" + (f" [{', '.join(d.clauses)}]" if d.clauses else "")
    if d.kind == "accepted-illegal":
        note += ": the last action was accepted by the engine; replay shows it as illegal"
    if d.kind in ("engine-failure", "rejected"):
        note += f": {d.detail} (not visible to replay, which checks the model only)"
    facts: dict[str, Any] = {}
    if f.reported_legal is not None:
        facts["legal"] = list(f.reported_legal)
    if f.reported_state is not None:
        kept = {k: v for k, v in f.reported_state.items() if game.check_field(k, v) is None}
        dropped = sorted(set(f.reported_state) - set(kept))
        if dropped:
            note += f"; reported state fields left out (unknown or mistyped): {', '.join(dropped)}"
        facts["state"] = kept
    lines: list[Mapping[str, Any]] = [header_object(
        result.game, f.players, result.options, setup=f.setup, engine=engine, note=note,
        extra=facts if d.step == 0 else None)]
    for number, (player, action) in enumerate(f.actions, start=1):
        line: dict[str, Any] = {"step": number}
        if player is not None:
            line["player"] = player
        line["action"] = action
        if number == d.step:
            line.update(facts)
        lines.append(line)
    return dump_lines(lines)
