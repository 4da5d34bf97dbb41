"""Live differential testing: drive an engine and the model side by side.

hypothesis chooses the whole set-up (deal, start player and, as far as the engine declares
support in its handshake, player count, preset and rule options) and every action among the
model's legal ones. After every step the engine's legal actions, public state (and, with hidden
information, both observations) are compared with the model's. The first difference fails the
example; hypothesis shrinks it, then delta debugging shrinks set-up and actions together
(within a time budget) to a minimal game, returned as a replayable trace (:func:`trace_text`).
A run that completes no game is a failure, never a pass.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.properties.conformance.blame import (
    MODEL,
    READING,
    Blame,
    blame_step,
    first_of,
)
from ruleproof.properties.conformance.diff import Divergence, diff_states, legal_diff
from ruleproof.properties.conformance.engine import (
    BudgetSpent,
    Engine,
    EngineFactory,
    EngineFailure,
    EngineNotStarted,
    Unsupported,
)
from ruleproof.properties.conformance.games import (
    EXPANSION_KEY,
    NAME_POOL,
    NAMES_KEY,
    PRESET_KEY,
    START_KEY,
    GameModel,
)
from ruleproof.properties.conformance.jsonsafe import MAX_DEPTH, MAX_INT_DIGITS
from ruleproof.properties.conformance.jsontypes import field_problem
from ruleproof.properties.conformance.replay import _legal_divergence
from ruleproof.properties.conformance.shrink import Fitted, delta_debug, same_failure
from ruleproof.properties.conformance.trace import MAX_STRING, dump_lines, header_object
from ruleproof.properties.reproducible import reproducible_draws, reraise_interrupt
from ruleproof.system import interrupts

SEED_RANGE = 2**16
"""Deals are drawn from seeds 0..SEED_RANGE-1 (hypothesis shrinks them towards 0)."""


@dataclass(frozen=True)
class Played:
    """One game played on the engine and the model.

    Attributes:
        players, seed, setup: the game (``setup`` is what the engine received; ``seed`` dealt it).
        actions: (player, action) pairs applied, the last one possibly diverging.
        divergence: the first difference, or None.
        reported_state, reported_legal: what the engine reported at the divergence (if any).
        options: the rule options of this game (with a ``preset`` entry, if any).
        reported_observation: for an ``observation`` divergence, the engine's observation
            (with its ``player``), kept apart from ``reported_state`` (the public state).
        complete: False if the budget ran out before the game ended (such a game proves
            nothing and is not counted).
        clauses: clause ids the model's transitions cited in this game (coverage).
        crafted: True if ``setup`` is not the deal of ``seed`` (a deal delta debugging
            rearranged; the trace records it explicitly).
    """

    players: int
    seed: int
    setup: Mapping[str, Any]
    actions: tuple[tuple[int | None, str], ...]
    divergence: Divergence | None
    reported_state: Mapping[str, Any] | None = None
    reported_legal: tuple[str, ...] | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    reported_observation: Mapping[str, Any] | None = None
    complete: bool = True
    clauses: frozenset[str] = frozenset()
    crafted: bool = False


def play(game: GameModel, engine: Engine, players: int, options: Mapping[str, str], seed: int,
         choose: Callable[[int], int], max_steps: int, probe: bool = True, *,
         start_player: int | None = None, script: Sequence[str] | None = None,
         setup: Mapping[str, Any] | None = None, names: Sequence[str] | None = None) -> Played:
    """Play one game on ``engine`` and the model; stop at the first divergence.

    ``choose(n)`` picks the index of the next action among the model's ``n`` legal actions;
    with ``script``, the actions are taken from it instead (an action the model forbids at that
    point is skipped; the game ends when the script does). ``start_player`` overrides the deal's
    start player (games where the set-up names one); ``setup`` replaces the deal of ``seed``
    (e.g. a trace's explicit set-up); ``names`` replaces the player names of the set-up (games
    whose set-up names the players). With ``probe``, before every action one
    action the model forbids (the game's ``probe_actions``, in rotation) is sent to the
    engine, which must refuse it (``accepted-illegal`` otherwise, citing the model's
    IllegalAction clauses). Engine failures become ``engine-failure`` divergences (never
    exceptions); a budget running out (:class:`BudgetSpent`) gives ``complete=False``.
    """
    crafted = False
    if setup is None:
        setup = game.setup_of(players, options, seed)
    else:
        setup = dict(setup)
        try:
            dealt: Mapping[str, Any] | None = game.setup_of(players, options, seed)
        except MalformedInput:
            dealt = None
        crafted = dealt is None or any(setup.get(k) != v for k, v in dealt.items()
                                       if k not in (START_KEY, NAMES_KEY))
    if start_player is not None:
        setup = game.with_start_player(setup, start_player)
    if names is not None:
        setup = game.with_names(setup, names)
    state = game.start(players, options, None, setup)
    actions: list[tuple[int | None, str]] = []
    seen: set[str] = set()
    opts = dict(options)

    def done(div: Divergence | None, reported: Mapping[str, Any] | None = None,
             legal: list[str] | None = None, observed: Mapping[str, Any] | None = None,
             complete: bool = True) -> Played:
        if div is not None and div.clauses:
            div = replace(div, clauses=game.localise(div.clauses, opts))
        return Played(players, seed, setup, tuple(actions), div, reported,
                      None if legal is None else tuple(legal), opts, observed, complete,
                      frozenset(seen), crafted)

    step = 0
    action: str | None = None
    previous: Any = None
    happened: tuple[str, ...] = ()
    pending = list(script) if script is not None else None
    try:
        engine.new_game(game.name, players, options, setup)
        while True:
            reported_state = engine.state()
            expected_state = game.public_state(state)
            fields, lines = diff_states(expected_state, reported_state)
            lines += _mistyped(game, fields, reported_state)
            if fields:
                blamed = blame_step(game, previous, action, state, expected_state,
                                    reported_state, fields, happened, opts, None)
                if blamed.by != READING:  # a set-up field ignored or misread reproduces it?
                    blamed = first_of(game.blame_setup(players, opts, setup,
                                                       [a for _, a in actions], reported_state),
                                      blamed)
                return done(Divergence(step, action, "state", blamed.clauses, "\n".join(lines),
                                       blamed_by=blamed.by),
                            reported_state, _safe_legal(engine))
            for who in game.observed_players:
                reported_seen = engine.observation(who)
                expected_seen = game.observation(state, who)
                fields, lines = diff_states(expected_seen, reported_seen)
                lines += _mistyped(game, fields, reported_seen)
                if fields:
                    blamed = blame_step(game, previous, action, state, expected_seen,
                                        reported_seen, fields, happened, opts, who)
                    return done(Divergence(step, action, "observation", blamed.clauses,
                                           f"observation of player {who}:\n" + "\n".join(lines),
                                           blamed_by=blamed.by),
                                reported_state, _safe_legal(engine),
                                {**reported_seen, "player": who})
            reported_legal = engine.legal_actions()
            model_legal = game.legal(state)
            missing, extra = legal_diff(model_legal, reported_legal)
            if missing or extra:
                div = _legal_divergence(game, state, missing, extra, step, action, None)
                reading = game.blame_reading(previous, action, state, None, reported_legal, opts)
                if reading:
                    div = replace(div, clauses=_dedup([*reading, *div.clauses]),
                                  blamed_by=READING)
                return done(div, reported_state, reported_legal)
            if not model_legal:
                return done(None)
            if probe:
                accepted = _probe(game, engine, state, step)
                if accepted is not None:
                    actions.append((game.to_move(state), accepted.action or ""))
                    return done(accepted)
            if step >= max_steps:
                return done(None)
            choices = game.choosable(state)
            if not choices:
                return done(None)
            if pending is not None:
                while pending and pending[0] not in choices:
                    pending.pop(0)
                if not pending:
                    return done(None)
                action = pending.pop(0)
            else:
                action = choices[choose(len(choices))]
            actions.append((game.to_move(state), action))
            step += 1
            refused = engine.apply(action)
            if refused is not None:
                why = game.blame_missing(state, action)
                return done(Divergence(step, action, "rejected", why.clauses,
                                       f"the engine rejected a legal action: {refused}",
                                       blamed_by=why.by))
            stepped = game.apply(state, action)
            previous = state
            state, happened = stepped.state, stepped.clauses
            seen.update(happened)
    except EngineFailure as exc:
        return done(Divergence(step, action, "engine-failure", (), exc.what))
    except Unsupported as exc:
        return done(Divergence(step, action, "engine-failure", (),
                               f"the engine declined a set-up it had declared it supports: "
                               f"{exc.what}"))
    except BudgetSpent:
        return done(None, complete=False)


def _mistyped(game: GameModel, fields: Sequence[str], reported: Mapping[str, Any]) -> list[str]:
    """Lines for the differing ``fields`` whose reported value is not even of the field's
    type (a string for a list, null for a list): a format slip rather than a rule, said as
    such beside the clauses blamed."""
    types = game.spec.field_types
    known = {**types.public, **types.private}
    out = []
    for name in fields:
        if name in reported and name in known:
            problem = field_problem(name, reported[name], known, types.words, types.named)
            if problem is not None:
                out.append(f"  (a type error, not only a value: {problem})")
    return out


def _dedup(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _probe(game: GameModel, engine: Engine, state: Any, step: int) -> Divergence | None:
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
        why = first_of(game.blame_extra(state, bad), Blame(exc.clauses, MODEL))
        return Divergence(step + 1, bad, "accepted-illegal", why.clauses,
                          f"the engine accepted an action the model forbids: {exc.reason}",
                          blamed_by=why.by)
    raise AssertionError(f"probe action {bad!r} is legal in the model")  # a bug of the game's probes


def _safe_legal(engine: Engine) -> list[str] | None:
    try:
        return engine.legal_actions()
    except (EngineFailure, BudgetSpent):
        return None


SETUP_FIELDS = ("player_counts", "presets", "start_players", "expansions")
"""The set-up fields a coverage counts games by, where the game has them (:func:`fields_of`)."""


def fields_of(game: GameModel) -> tuple[str, ...]:
    """The :data:`SETUP_FIELDS` ``game`` has: a player count to choose (more than one), presets,
    a start player in the set-up, expansions (a game may have none of them)."""
    has = {"player_counts": game.max_players > game.min_players,
           "presets": bool(game.presets()), "start_players": game.has_start_player,
           "expansions": bool(game.expansions())}
    return tuple(f for f in SETUP_FIELDS if has[f])


@dataclass(frozen=True)
class Coverage:
    """What a :func:`conform` run exercised: the games compared to their end or to a
    divergence of the rules; games in which the engine failed (crashed, hung, answered
    garbage: an ``engine-failure``) are counted apart, in ``failed`` only.

    Attributes:
        games: games compared to the end (ended, or cut at ``max_steps``) or to a divergence
            of the rules, shrinking excluded.
        steps: actions in those games.
        player_counts, presets, start_players: games per value.
        options: option name -> value -> games (options varied or fixed).
        expansions: games per expansion (``none`` for the base game).
        clauses: clause ids the model's transitions cited.
        varied: the set-up fields that varied across games (from the engine's handshake).
        handshake: True if the engine answered ``hello`` with what it supports.
        failed: games in which the engine failed (not in ``games``, ``steps`` or the counts).
        fields: the set-up fields of the game in play (:func:`fields_of`): the summary and the
            JSON show only these.
    """

    games: int = 0
    steps: int = 0
    player_counts: Mapping[int, int] = field(default_factory=dict)
    presets: Mapping[str, int] = field(default_factory=dict)
    start_players: Mapping[int, int] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    expansions: Mapping[str, int] = field(default_factory=dict)
    clauses: frozenset[str] = frozenset()
    varied: tuple[str, ...] = ()
    handshake: bool = False
    failed: int = 0
    fields: tuple[str, ...] = SETUP_FIELDS

    def as_json(self) -> dict[str, Any]:
        """The coverage as a JSON object (keys as in the attributes, the set-up fields only
        those of the game in play; clauses sorted)."""
        by_field: dict[str, dict[str, int]] = {
            "player_counts": {str(k): v for k, v in sorted(self.player_counts.items())},
            "presets": dict(sorted(self.presets.items())),
            "start_players": {str(k): v for k, v in sorted(self.start_players.items())},
            "expansions": dict(sorted(self.expansions.items()))}
        return {"games": self.games, "steps": self.steps, "failed": self.failed,
                **{f: by_field[f] for f in self.fields},
                "options": {k: dict(sorted(v.items())) for k, v in sorted(self.options.items())},
                "clauses_exercised": len(self.clauses), "clauses": sorted(self.clauses),
                "varied": list(self.varied), "handshake": self.handshake}

    def summary(self) -> str:
        """A few readable lines: games and steps compared (engine failures apart), the
        set-up fields of the game in play, options, clauses, what varied."""
        def counts(values: Mapping[Any, int]) -> str:
            return ", ".join(f"{k}: {v}" for k, v in sorted(values.items(), key=str)) or "-"
        shown: dict[str, tuple[str, Mapping[Any, int]]] = {
            "player_counts": ("players", self.player_counts),
            "presets": ("presets", self.presets),
            "start_players": ("start players", self.start_players),
            "expansions": ("expansion", self.expansions)}
        setup = "".join(f"; {shown[f][0]} {counts(shown[f][1])}" for f in self.fields)
        failed = (f" (and {plural(self.failed, 'game')} in which the engine failed, not "
                  "counted)" if self.failed else "")
        opts = "; ".join(f"{k} {counts(v)}" for k, v in sorted(self.options.items())) or "-"
        return (f"coverage: {plural(self.games, 'game')} compared, "
                f"{plural(self.steps, 'step')}{failed}{setup}\n  options: {opts}\n"
                f"  clauses exercised: {len(self.clauses)}; varied: "
                f"{', '.join(self.varied) or 'nothing'}"
                f"{'' if self.handshake else ' (the engine declared nothing in a handshake)'}")


def plural(n: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 games``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class _Tally:
    """Accumulates :class:`Coverage` (mutable, private to one :func:`conform` call)."""

    def __init__(self) -> None:
        self.games = 0
        self.steps = 0
        self.players: Counter[int] = Counter()
        self.presets: Counter[str] = Counter()
        self.starts: Counter[int] = Counter()
        self.options: dict[str, Counter[str]] = {}
        self.expansions: Counter[str] = Counter()
        self.clauses: set[str] = set()
        self.failed = 0

    def add(self, played: Played, game: GameModel) -> None:
        if played.divergence is not None and played.divergence.kind == "engine-failure":
            self.failed += 1  # not compared to its end nor to a divergence of the rules
            return
        self.games += 1
        self.steps += len(played.actions)
        self.players[played.players] += 1
        opts = dict(played.options)
        self.presets[str(opts.pop(PRESET_KEY, game.default_preset))] += 1
        self.expansions[str(opts.get(EXPANSION_KEY, "none"))] += 1
        start = played.setup.get(START_KEY)
        if isinstance(start, int):
            self.starts[start] += 1
        expansion = str(opts.get(EXPANSION_KEY, "none"))
        owners = game.option_owners()
        for name, value in opts.items():
            # the expansion is counted in ``expansions``; an expansion's own options only in
            # the games that play it (elsewhere the rules ignore them)
            if name != EXPANSION_KEY and owners.get(name, expansion) == expansion:
                self.options.setdefault(name, Counter())[str(value)] += 1
        self.clauses |= played.clauses

    def freeze(self, varied: tuple[str, ...], handshake: bool,
               fields: tuple[str, ...]) -> Coverage:
        return Coverage(self.games, self.steps, dict(self.players), dict(self.presets),
                        dict(self.starts), {k: dict(v) for k, v in self.options.items()},
                        dict(self.expansions), frozenset(self.clauses), varied, handshake,
                        self.failed, fields)


@dataclass(frozen=True)
class TooSlow:
    """Why a run that found no divergence could not judge the engine in time: the budget ran out
    before ``min_games`` games were completed, while the engine was still answering.

    Attributes:
        per_action: measured wall-clock seconds per action (engine answers and the model's
            comparisons of one step, ``new_game`` included), over ``actions`` actions; None if
            the budget ran out before any action (the handshake, the first ``new_game``).
        actions: actions the measurement is over.
        game_length: actions a game is expected to take (the mean of the games completed, else
            the game cut short played to its end, or to ``max_steps``, on the model alone with
            the first legal action each time); None if unknown.
        budget_needed: seconds of ``--budget`` that would suffice (start-up measured, plus
            ``min_games`` games of ``game_length`` actions at ``per_action``, with a margin of
            50 %); None if unknown.
    """

    per_action: float | None
    actions: int
    game_length: int | None
    budget_needed: float | None

    def describe(self) -> str:
        """One line: the measurement and the budget that would suffice."""
        if self.per_action is None:
            return "no action was completed within the budget"
        text = (f"{self.per_action:.3g} s per action measured over "
                f"{plural(self.actions, 'action')}")
        if self.game_length is not None:
            text += f"; a game takes about {plural(self.game_length, 'action')}"
        if self.budget_needed is not None:
            text += f"; --budget {self.budget_needed:g} would suffice"
        return text


def suggested_budget(startup: float, per_action: float, length: int, games: int) -> float:
    """Seconds of budget for ``games`` games of ``length`` actions at ``per_action`` seconds
    each after ``startup`` seconds, with a margin of 50 %, rounded up to two significant
    digits (at least 1 s)."""
    raw = 1.5 * (startup + games * length * per_action)
    if raw <= 1:
        return 1.0
    scale = 10 ** (math.floor(math.log10(raw)) - 1)
    return float(math.ceil(raw / scale) * scale)


@dataclass(frozen=True)
class ConformResult:
    """The outcome of :func:`conform`.

    Attributes:
        game: the game name.
        examples: games completed (including shrinking).
        steps: actions played in all games.
        seconds: total time.
        detection_seconds: time until the first divergence was found (None if none).
        found: the minimal failing game, or None if the engine conformed within the budget.
        options: the options fixed by the caller.
        note: remarks (e.g. a divergence that did not reproduce on a fresh engine).
        games_to_detection: games played until the first divergence (None if none).
        unsupported: the engine's reason for declining everything asked ('' if it did not).
        failure: why the run proves nothing although no divergence was found (no game
            completed, fewer than ``min_games``); '' otherwise. A failure is not a pass.
        coverage: what was exercised.
        shrink_steps: (actions before, after) delta debugging of the witness.
        too_slow: set when the run proves nothing only because the budget ran out before
            enough games were completed (``failure`` says so too): slow is not wrong
            (exit code 4 of ``ruleproof conform``).
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
    failure: str = ""
    coverage: Coverage = field(default_factory=Coverage)
    shrink_steps: tuple[int, int] | None = None
    too_slow: TooSlow | None = None

    @property
    def conforms(self) -> bool:
        """True only if games were completed, none diverged, and the engine declined nothing."""
        return self.found is None and not self.unsupported and not self.failure

    @property
    def divergence(self) -> Divergence | None:
        """The divergence of the minimal failing game."""
        return None if self.found is None else self.found.divergence

    def report(self) -> str:
        """A readable summary (with the minimal trace's actions) and the coverage."""
        if self.unsupported:
            return f"{self.game}: UNSUPPORTED by the engine (not a mismatch): {self.unsupported}"
        cover = self.coverage.summary()
        if self.found is None or self.found.divergence is None:
            if self.too_slow is not None:
                return (f"{self.game}: TOO SLOW to judge within the budget (not a mismatch): "
                        f"{self.too_slow.describe()}; {self.failure}\n{cover}")
            if self.failure:
                return f"{self.game}: FAILED (no evidence of conformance): {self.failure}\n{cover}"
            text = (f"{self.game}: no divergence in {plural(self.coverage.games, 'game')}, "
                    f"{plural(self.coverage.steps, 'step')} ({self.seconds:.1f} s)\n{cover}")
            return text + (f"\nnote: {self.note}" if self.note else "")
        f = self.found
        assert f.divergence is not None
        moves = ", ".join(a for _, a in f.actions) or "(none)"
        games = self.games_to_detection
        opts = dict(f.options)
        preset = opts.pop(PRESET_KEY, None)
        setup = (f"{f.players} players" + (f", preset {preset}" if preset else "")
                 + (f", options {', '.join(f'{k}={v}' for k, v in sorted(opts.items()))}"
                    if opts else "")
                 + (f", start player {f.setup[START_KEY]}"
                    if isinstance(f.setup.get(START_KEY), int) else "")
                 + (f", names {', '.join(map(str, f.setup[NAMES_KEY]))}"
                    if isinstance(f.setup.get(NAMES_KEY), list) else ""))
        shrunk = ""
        if self.shrink_steps is not None:
            shrunk = f" (shrunk from {self.shrink_steps[0]})"
        text = (f"{self.game}: NONCONFORMING after {self.detection_seconds or 0:.2f} s "
                f"({games} game{'' if games == 1 else 's'}); minimal game: {setup}, "
                f"{'a deal rearranged from that of seed ' if f.crafted else 'deal seed '}"
                f"{f.seed}, {len(f.actions)} actions{shrunk}: {moves}\n"
                f"set-up sent (new_game's setup): {_setup_shown(f.setup)}\n"
                f"{f.divergence.describe()}")
        text += f"\n{cover}"
        return text + (f"\nnote: {self.note}" if self.note else "")


def _setup_shown(setup: Mapping[str, Any], most: int = 300) -> str:
    """The set-up an engine was sent, as JSON, cut to ``most`` characters (the saved trace
    holds it whole)."""
    text = json.dumps(dict(setup), sort_keys=False)
    if len(text) <= most:
        return text
    return f"{text[:most]}... ({len(text)} characters; the saved trace holds it whole)"


class _Holder:
    """Keeps one engine alive across games; a failed engine is replaced by a fresh one."""

    def __init__(self, factory: EngineFactory) -> None:
        self.factory = factory
        self.engine: Engine | None = None
        self.deadline: float | None = None

    def get(self) -> Engine:
        if self.engine is None:
            self.engine = self.factory()
        self.engine.deadline = self.deadline
        return self.engine

    def reset(self) -> None:
        if self.engine is not None:
            self.engine.close()
        self.engine = None


@dataclass(frozen=True)
class SetupSpace:
    """What varies across the games of a :func:`conform` run.

    Attributes:
        presets: presets to draw from (``None``: the game has none or the caller fixed it).
        players: preset (or None) -> player counts to draw from.
        options: option name -> values drawn from (first = default); only options the engine
            declared in its handshake and the caller did not fix.
        fixed: options fixed by the caller (with ``preset``, if given).
        start_players: whether the start player is drawn (the game's set-up names one).
        expansions: expansions drawn from (``none``: the base game), as far as the engine
            declared them in its handshake (``"expansions": [...]``) and the caller did not
            fix ``expansion``; a combination the model refuses (the expansion with 2 players)
            falls back to the base game.
        names: whether the player names of the set-up are drawn (the game's set-up names
            the players; drawn with replacement from a pool, so duplicates occur).
    """

    presets: tuple[str | None, ...]
    players: Mapping[str | None, tuple[int, ...]]
    options: Mapping[str, tuple[str, ...]]
    fixed: Mapping[str, str]
    start_players: bool
    expansions: tuple[str, ...] = ("none",)
    names: bool = False

    def varied(self) -> tuple[str, ...]:
        """Names of the set-up fields that vary."""
        out = ["deal"]
        if self.start_players:
            out.append("start player")
        if len({n for c in self.players.values() for n in c}) > 1:
            out.append("player count")
        if len(self.presets) > 1:
            out.append("preset")
        if len(self.expansions) > 1:
            out.append("expansion")
        if self.names:
            out.append("names")
        out += [f"option {name}" for name in self.options]
        return tuple(out)


def _space(game: GameModel, hello: Mapping[str, Any], players: int | None,
           options: Mapping[str, str]) -> SetupSpace:
    """The set-up space: the model's presets/options, cut down to what the engine declared in
    its handshake (``hello``: ``{"supports": {GAME: {"presets": [...], "players": [...],
    "options": {NAME: [VALUES]}, "expansions": [...]}}}``) and to what the caller fixed."""
    fixed = dict(options)
    declared = hello.get("supports", {})
    mine = declared.get(game.name, {}) if isinstance(declared, dict) else {}
    if not isinstance(mine, dict):
        mine = {}
    presets: tuple[str | None, ...]
    if PRESET_KEY in fixed or not game.presets():
        presets = (fixed.get(PRESET_KEY),)
    else:
        wanted = mine.get("presets")
        known = game.presets()
        presets = tuple(p for p in known if isinstance(wanted, list) and p in wanted) or (None,)
    engine_players = mine.get("players")
    per: dict[str | None, tuple[int, ...]] = {}
    for preset in presets:
        opts = dict(fixed)
        if preset is not None:
            opts[PRESET_KEY] = preset
        counts = game.player_counts(opts)
        if players is not None:
            counts = tuple(c for c in counts if c == players)
        elif isinstance(engine_players, list):
            counts = tuple(c for c in counts if c in engine_players) or counts
        if counts:
            per[preset] = counts
    presets = tuple(p for p in presets if p in per) or presets
    wanted_opts = mine.get("options")
    space: dict[str, tuple[str, ...]] = {}
    if isinstance(wanted_opts, dict):
        model = game.option_values()
        for name, values in wanted_opts.items():
            if name in fixed or name not in model or not isinstance(values, list):
                continue
            usable = tuple(v for v in model[name] if v in [str(x).lower() for x in values])
            if len(usable) > 1:
                space[name] = usable
    expansions: tuple[str, ...] = ("none",)
    wanted_exp = mine.get("expansions")
    if EXPANSION_KEY not in fixed and isinstance(wanted_exp, list):
        expansions += tuple(e for e in game.expansions() if e in wanted_exp)
    return SetupSpace(presets, per, space, fixed, game.has_start_player, expansions,
                      game.has_names)


def conform(game: GameModel, factory: EngineFactory, *, players: int | None = None,
            options: Mapping[str, str] | None = None, budget: float = 10.0, seed: int = 0,
            max_steps: int = 1000, shrink_budget: float | None = None,
            examples_per_round: int = 25, min_games: int = 1, max_games: int | None = None,
            on_game: Callable[[int], None] | None = None, rotation: int = 0) -> ConformResult:
    """Search for a divergence between engines from ``factory`` and the model of ``game``.

    Every game draws the whole set-up: deal, start player, and -- as far as the engine declares
    support in its handshake (``hello``) -- player count, preset and rule options; ``players``
    and ``options`` fix them. The budget is wall-clock and holds within an engine call: every
    read of an answer waits at most until the deadline, after which the engine is killed and
    the unfinished game is not counted. Zero completed games (or fewer than ``min_games``) is a
    failure, never a pass.

    Args:
        game: the game's model (:func:`~ruleproof.properties.conformance.games.model_of`).
        factory: builds an engine (called again after an engine failure).
        players: a fixed player count, or None to draw it.
        options: rule options fixed for every game (name -> value, ``preset`` included).
        budget: seconds of search (the search stops at the first divergence).
        seed: explicit seed of the hypothesis search (same seed, same games).
        max_steps: actions per game at most.
        shrink_budget: seconds spent shrinking a divergence (default: half the budget, >= 1 s).
        examples_per_round: games per hypothesis run; runs repeat until the budget is spent.
        min_games: completed games needed for a pass.
        max_games: stop the search after this many completed games (None: at the budget).
            Within the budget the games, the first divergence and the coverage then depend
            on the seed alone (a deterministic engine assumed): a campaign's unit of work
            (properties/conformance/campaign.py).
        on_game: called with the number of games completed so far after each (progress).
        rotation: shifts every deal seed and start player drawn by this much (modulo their
            ranges; 0: as drawn): a campaign shard passes its seed, so that the simplest game
            of each shard has a deal and start player of its own (:func:`draw_setup`).

    Raises:
        MalformedInput: the factory cannot start the engine, the engine ends before its
            first answer (:class:`~ruleproof.properties.conformance.engine.EngineNotStarted`:
            a missing script, a syntax error), bad players/options, or a budget,
            ``max_steps`` or ``min_games`` that is not a finite positive number.
        Exception: an unexpected error of the model or its conformance capability (never an engine's fault:
            engine errors are divergences) is re-raised after the search.
    """
    if not (isinstance(budget, int | float) and math.isfinite(budget) and budget > 0):
        raise MalformedInput(f"the budget must be a finite number of seconds > 0, got {budget!r}")
    if shrink_budget is not None and not (math.isfinite(shrink_budget) and shrink_budget >= 0):
        raise MalformedInput(f"the shrink budget must be a finite number of seconds >= 0, "
                             f"got {shrink_budget!r}")
    if max_steps < 1 or min_games < 1:
        raise MalformedInput("max_steps and min_games must be at least 1")
    opts = dict(options or {})
    start = time.monotonic()
    deadline = start + budget
    shrink_for = max(1.0, budget / 2) if shrink_budget is None else shrink_budget
    # one shrink budget in all: hypothesis's shrinker gets the first 40 %, delta debugging the
    # rest (it does most of the work: set-up and actions together)
    hypothesis_for = 0.4 * shrink_for
    failures: list[Played] = []
    first_found: list[float] = []
    counts = [0, 0, 0]  # games, steps, games until the first divergence
    errors: list[Exception] = []
    tally = _Tally()
    timed: list[tuple[float, int, bool]] = []  # (seconds, actions, complete) per game searched
    cut: list[Played] = []  # games the deadline cut short
    holder = _Holder(factory)
    holder.deadline = deadline
    counts_allowed = game.player_counts(opts)
    if not counts_allowed:
        raise MalformedInput(f"{game.name}: no player count allows these options together: "
                             f"{', '.join(f'{k}={v}' for k, v in sorted(opts.items()))}")
    if players is not None and players not in counts_allowed:
        raise MalformedInput(f"{game.name} with these options is played by "
                             f"{', '.join(map(str, counts_allowed))} players; got {players}")
    game.start(players or counts_allowed[0], opts, 0, None)  # bad options -> MalformedInput

    def result(found: Played | None = None, *, note: str = "", unsupported: str = "",
               failure: str = "", space: SetupSpace | None = None, handshake: bool = False,
               shrunk: tuple[int, int] | None = None,
               too_slow: TooSlow | None = None) -> ConformResult:
        interrupts.check()  # a signal's stopped engine is no finding (ruleproof.system.interrupts)
        cover = tally.freeze(space.varied() if space else (), handshake, fields_of(game))
        detection = first_found[0] - start if first_found else None
        return ConformResult(game.name, counts[0], counts[1], time.monotonic() - start,
                             detection, found, opts, note,
                             counts[2] if first_found else None, unsupported, failure, cover,
                             shrunk, too_slow)

    try:
        try:
            hello = holder.get().hello()
        except EngineNotStarted as exc:  # no answer at all: the command, not the rules
            holder.reset()
            raise MalformedInput(f"the engine ended before its first answer, so nothing can "
                                 f"be compared: {exc.what}") from None
        except EngineFailure as exc:
            holder.reset()
            first_found.append(time.monotonic())
            n = players or counts_allowed[0]
            failed = Played(n, 0, game.setup_of(n, opts, 0), (), Divergence(
                0, None, "engine-failure", (), f"handshake: {exc.what}"), options=opts)
            return result(failed)
        except Unsupported as exc:  # a protocol version this harness does not speak
            holder.reset()
            return result(unsupported=exc.what)
        except BudgetSpent:
            holder.reset()
            return result(failure="the budget ran out during the handshake, before any game",
                          too_slow=TooSlow(None, 0, None, None))
        space = _space(game, hello, players, opts)
        handshake = bool(hello.get("supports"))
        pre = _preflight(game, holder, space)
        if isinstance(pre, Played):
            first_found.append(time.monotonic())
            counts[2] = 0
            return result(pre, space=space, handshake=handshake)
        if pre is None:
            return result(failure="the budget ran out while starting the first game",
                          space=space, handshake=handshake,
                          too_slow=TooSlow(None, 0, None, None))
        playable, declined = pre
        if not playable:
            return result(unsupported=declined[0] if declined else _nothing_fits(
                game, hello, players, opts), space=space, handshake=handshake)
        space = replace(space, players={k: tuple(c for c in v if (k, c) in playable)
                                        for k, v in space.players.items()})
        space = replace(space, players={k: v for k, v in space.players.items() if v},
                        presets=tuple(p for p in space.presets
                                      if any(c for (q, c) in playable if q == p)))
        note_unsupported = "; ".join(declined)

        games_from = time.monotonic()  # start-up (handshake, preflight) is over

        def one_game(data: st.DataObject) -> None:
            interrupts.check()  # hypothesis may have lost the interrupt on its way out
            now = time.monotonic()
            shrinking = bool(first_found)
            if (shrinking and now > first_found[0] + hypothesis_for) or (
                    not shrinking and (now > deadline or (
                        max_games is not None and tally.games >= max_games))):
                return
            holder.deadline = first_found[0] + hypothesis_for if shrinking else deadline
            if shrinking and failures and failures[0].divergence is not None and (
                    failures[0].divergence.kind == "engine-failure"):
                holder.reset()  # a fault may depend on the process's history: start afresh
            drawn = draw_setup(space, data, game, rotation)
            cap = min([max_steps, *(len(f.actions) for f in failures)])
            began = time.monotonic()
            try:
                played = play(game, holder.get(), drawn.players, drawn.options, drawn.seed,
                              lambda n: data.draw(st.integers(0, n - 1)), cap,
                              start_player=drawn.start_player, names=drawn.names)
            except Exception as exc:
                if not _is_hypothesis_control(exc):
                    errors.append(exc)  # a bug in the model or its capability: surfaced later
                raise
            if not shrinking:
                timed.append((time.monotonic() - began, len(played.actions), played.complete))
                if not played.complete:
                    cut.append(played)
            if not played.complete:
                holder.reset()  # killed at the deadline
                return
            counts[0] += 1
            counts[1] += len(played.actions)
            if not shrinking:
                tally.add(played, game)
                if on_game is not None:
                    on_game(tally.games)
            if played.divergence is not None:
                interrupts.check()  # the engine died of the run's own signal, not of a fault
                if played.divergence.kind == "engine-failure":
                    holder.reset()
                if not first_found:
                    first_found.append(time.monotonic())
                    counts[2] = counts[0]
                failures.append(played)
                raise AssertionError(played.divergence.describe())

        rounds = 0
        while not failures and not errors and time.monotonic() < deadline and (
                max_games is None or tally.games < max_games):
            test = settings(max_examples=examples_per_round, database=None, deadline=None,
                            phases=(Phase.generate, Phase.shrink), derandomize=False,
                            suppress_health_check=list(HealthCheck), print_blob=False,
                            report_multiple_bugs=False, verbosity=Verbosity.quiet)(
                given(st.data())(one_game))
            try:
                with reproducible_draws():
                    hypothesis_seed(seed * 100_003 + rounds)(test)()
            except Exception as exc:  # what was found is in failures / errors
                reraise_interrupt(exc)  # but a signal hypothesis turned into an error ends it
            rounds += 1
        if errors and not failures:
            raise errors[0]
        if not failures:
            failure = ""
            if tally.games == 0:
                failure = (f"no game was completed within the budget of {budget:g} s "
                           "(the engine is too slow or hangs; raise --budget)")
            elif tally.games < min_games:
                failure = (f"only {tally.games} game{'s' if tally.games != 1 else ''} completed "
                           f"within the budget; at least {min_games} required (--min-games)")
            note = (f"not tested (engine declined): {note_unsupported}"
                    if note_unsupported else "")
            slow = (_too_slow(game, timed, cut, min_games, max_steps,
                              games_from - start)
                    if failure and tally.failed == 0 else None)
            return result(note=note, failure=failure, space=space, handshake=handshake,
                          too_slow=slow)
        found = min(failures, key=lambda f: (len(f.actions), f.players, f.seed))
        before = len(found.actions)
        ddmin_until = max(first_found[0] + shrink_for, time.monotonic() + 0.2)
        holder.deadline = ddmin_until
        found = _ddmin(game, holder, found, max_steps, ddmin_until, space.players)
        holder.deadline = None
        found, note = _confirm(game, factory, found, max_steps)
        if note_unsupported:
            note = "; ".join(x for x in (note, f"not tested (engine declined): "
                                               f"{note_unsupported}") if x)
        return result(found, note=note, space=space, handshake=handshake,
                      shrunk=(before, len(found.actions)) if before != len(found.actions)
                      else None)
    finally:
        holder.reset()


def _too_slow(game: GameModel, timed: Sequence[tuple[float, int, bool]], cut: Sequence[Played],
              min_games: int, max_steps: int, startup: float) -> TooSlow:
    """The measurement behind a ``too slow`` verdict: seconds per action over the games searched
    (``timed``: seconds, actions, complete), the expected game length (the mean of the complete
    games, else the first game cut short played on to its end on the model alone, first legal
    action each time, at most ``max_steps``) and the budget that would suffice."""
    actions = sum(n for _, n, _ in timed)
    if not actions:
        return TooSlow(None, 0, None, None)
    per_action = sum(t for t, _, _ in timed) / actions
    complete = [n for _, n, done in timed if done]
    length: int | None = round(sum(complete) / len(complete)) if complete else None
    if length is None and cut:
        length = _played_out(game, cut[0], max_steps)
    needed = (None if length is None
              else suggested_budget(startup, per_action, max(length, 1), min_games))
    return TooSlow(per_action, actions, length, needed)


def _played_out(game: GameModel, played: Played, max_steps: int) -> int:
    """Actions ``played`` would take on the model alone: its actions, then the first legal
    action each time, until the game ends or ``max_steps``."""
    state = game.start(played.players, played.options, None, played.setup)
    steps = 0
    for _, action in played.actions:
        try:
            state = game.apply(state, action).state
        except IllegalAction:  # the last action of a cut game may be a probe
            break
        steps += 1
    while steps < max_steps and game.legal(state):
        choices = game.choosable(state)
        if not choices:
            break
        state = game.apply(state, choices[0]).state
        steps += 1
    return steps


@dataclass(frozen=True)
class DrawnSetup:
    """One game's set-up as drawn: player count, options (preset and expansion included),
    deal seed, start player (None: the deal's) and player names (None: the set-up's)."""

    players: int
    options: Mapping[str, str]
    seed: int
    start_player: int | None
    names: tuple[str, ...] | None = None


def draw_setup(space: SetupSpace, data: st.DataObject, game: GameModel,
               rotation: int = 0) -> DrawnSetup:
    """Draw every set-up field of one game from ``space`` (simplest values first); the deal
    seed and the start player drawn are shifted by ``rotation`` (modulo ``SEED_RANGE`` and
    the player count), so the simplest draw (0, 0) is deal ``rotation`` with start player
    ``rotation mod n``: the same values are drawable, in another order."""
    preset = space.presets[0] if len(space.presets) == 1 else data.draw(
        st.sampled_from(space.presets), label="preset")
    counts = space.players.get(preset) or game.player_counts(
        {**space.fixed, **({PRESET_KEY: preset} if preset else {})})
    n = counts[0] if len(counts) == 1 else data.draw(st.sampled_from(counts), label="players")
    opts = dict(space.fixed)
    if preset is not None:
        opts[PRESET_KEY] = preset
    for name, values in space.options.items():
        # None: not sent (the preset's or the default value applies), else sent explicitly
        value = data.draw(st.sampled_from((None, *values)), label=name)
        if value is not None:
            opts[name] = value
    if len(space.expansions) > 1:
        expansion = data.draw(st.sampled_from(space.expansions), label="expansion")
        if expansion != "none":
            opts[EXPANSION_KEY] = expansion
    try:
        game.start(n, opts, 0, None)
    except MalformedInput:  # a combination the model refuses (e.g. the expansion with 2p)
        opts = {k: v for k, v in opts.items() if k in space.fixed or k == PRESET_KEY}
    deal = (data.draw(st.integers(0, SEED_RANGE - 1), label="deal seed") + rotation) % SEED_RANGE
    start = (data.draw(st.integers(0, n - 1), label="start player") + rotation) % n \
        if space.start_players else None
    names = tuple(data.draw(st.lists(st.sampled_from(NAME_POOL), min_size=n, max_size=n),
                            label="names")) if space.names else None
    return DrawnSetup(n, opts, deal, start, names)


def _nothing_fits(game: GameModel, hello: Mapping[str, Any], players: int | None,
                  options: Mapping[str, str]) -> str:
    """Why no set-up was tried: what the engine declared in its handshake has nothing in
    common with what was asked (``players``, ``options``)."""
    declared = hello.get("supports", {})
    mine = declared.get(game.name, {}) if isinstance(declared, dict) else {}
    said = ", ".join(f"{k} {v}" for k, v in sorted(mine.items())
                     if k in ("presets", "players")) if isinstance(mine, dict) else ""
    asked = ", ".join([*([f"{players} players"] if players is not None else []),
                       *(f"{k}={v}" for k, v in sorted(options.items()))]) or "the defaults"
    return (f"the engine declares support for {game.name} with {said[:300] or 'nothing'}; "
            f"no such set-up fits what was asked ({asked})")


def _preflight(game: GameModel, holder: _Holder,
               space: SetupSpace) -> tuple[list[tuple[str | None, int]], list[str]] | Played | None:
    """Start one game per (preset, player count); the combinations the engine plays and its
    reasons for the others. An engine failure is returned as a failed game at step 0; None if
    the budget ran out."""
    playable: list[tuple[str | None, int]] = []
    declined: list[str] = []
    for preset, counts in space.players.items():
        opts = dict(space.fixed)
        if preset is not None:
            opts[PRESET_KEY] = preset
        for n in counts:
            try:
                holder.get().new_game(game.name, n, opts, game.setup_of(n, opts, 0))
            except Unsupported as exc:
                declined.append(f"{n} players{f' ({preset})' if preset else ''}: {exc.what}")
                continue
            except EngineFailure as exc:
                holder.reset()
                return Played(n, 0, game.setup_of(n, opts, 0), (), Divergence(
                    0, None, "engine-failure", (),
                    exc.what if exc.what.startswith("new_game") else f"new_game: {exc.what}"),
                    options=opts)
            except BudgetSpent:
                holder.reset()
                return None
            playable.append((preset, n))
    return playable, declined


def _names_of(setup: Mapping[str, Any], players: int) -> list[str] | None:
    """The player names of a played set-up, cut to ``players`` seats (None if it has none)."""
    names = setup.get(NAMES_KEY)
    if not isinstance(names, list) or len(names) < players:
        return None
    return [str(n) for n in names[:players]]


def _is_hypothesis_control(exc: Exception) -> bool:
    """hypothesis stops a test function with its own exceptions (overrun, unsatisfied draws)."""
    return type(exc).__module__.startswith("hypothesis")


_same_failure = same_failure


def _ddmin(game: GameModel, holder: _Holder, found: Played, max_steps: int,
           until: float, space: Mapping[str | None, Sequence[int]] | None = None) -> Played:
    """Delta debugging of a failing game, set-up and actions together, until ``until``
    (:func:`ruleproof.properties.conformance.shrink.delta_debug`): every candidate is fitted on
    the model and then played on the engine with its explicit set-up (without probes of
    illegal actions unless the failure is an accepted illegal action), moving to the presets
    and player counts of ``space`` if given."""
    target = found.divergence
    probe = target is None or target.kind == "accepted-illegal"

    def run(candidate: Fitted, seed: int) -> Played | None:
        if time.monotonic() > until:
            return None
        if target is not None and target.kind == "engine-failure":
            holder.reset()  # a fault may depend on the process's history: start afresh
        try:
            got = play(game, holder.get(), candidate.players, candidate.options, seed,
                       lambda n: 0, max_steps, probe, script=candidate.actions,
                       setup=candidate.setup, names=_names_of(found.setup, candidate.players))
        except MalformedInput:
            return None
        if not got.complete or (got.divergence is not None
                                and got.divergence.kind == "engine-failure"):
            holder.reset()
        return got

    shrunk: Played = delta_debug(game, found, run, until, space=space)
    return shrunk


def _confirm(game: GameModel, factory: EngineFactory, found: Played,
             max_steps: int) -> tuple[Played, str]:
    """Replay the minimal game on a fresh engine; keep the fresh run if it reproduces."""
    engine = factory()
    try:
        again = play(game, engine, found.players, found.options, found.seed, lambda n: 0,
                     max_steps, script=[a for _, a in found.actions], setup=found.setup)
    finally:
        engine.close()
    d1, d2 = found.divergence, again.divergence
    if d1 is not None and d2 is not None and (d1.step, d1.kind) == (d2.step, d2.kind):
        return again, ""
    return found, "the divergence did not reproduce on a fresh engine (state kept between games?)"


def trace_text(result: ConformResult, game: GameModel, engine: str | None = None) -> str | None:
    """The minimal failing game of ``result`` as a trace file (None if it conformed).

    The last line carries what the engine reported (``state``, ``legal`` and, for an
    observation divergence, ``observation`` with its ``player``), so ``ruleproof replay``
    reproduces a ``state``, ``observation`` or ``legal-actions`` divergence. An engine failure
    or a rejected legal action is recorded in the line's ``engine_failure`` / ``rejected``
    field, which replay reports as a divergence (exit 1).
    """
    f = result.found
    if f is None or f.divergence is None:
        return None
    d = f.divergence
    note = f"{d.kind} at step {d.step}" + (f" [{', '.join(d.clauses)}]" if d.clauses else "")
    if result.note:  # e.g. it did not reproduce on a fresh engine: the trace says so too
        note += f"; {result.note}"
    if d.kind == "accepted-illegal":
        note += ": the last action was accepted by the engine; replay shows it as illegal"
    facts: dict[str, Any] = {}
    if d.kind == "engine-failure":
        facts["engine_failure"] = d.detail[:2000]
    if d.kind == "rejected":
        facts["rejected"] = d.detail[:2000]
    if f.reported_legal is not None:
        facts["legal"] = [_clip(a) for a in f.reported_legal]
    if f.reported_state is not None:
        kept, unusable = _split_fields(game, f.reported_state.items())
        if d.kind == "state":
            for name in sorted(set(_expected_state(game, f)) - set(f.reported_state)):
                unusable[name] = "missing"
        facts["state"] = kept
        if unusable:
            facts["state_unusable"] = unusable
            note += ("; reported state fields the trace cannot hold (recorded in "
                     f"state_unusable): {', '.join(sorted(unusable))}")
    if f.reported_observation is not None:
        seen = dict(f.reported_observation)
        kept, unseen = _split_fields(game, ((k, v) for k, v in seen.items() if k != "player"))
        kept = {k: v for k, v in seen.items() if k == "player"} | kept
        who = seen.get("player")
        if d.kind == "observation" and isinstance(who, int):
            for name in sorted(set(_expected_state(game, f, who)) - set(seen)):
                unseen[name] = "missing"
        facts["observation"] = kept
        if unseen:
            facts["observation_unusable"] = {"player": who, **unseen}
            note += ("; reported observation fields the trace cannot hold (recorded in "
                     f"observation_unusable): {', '.join(sorted(unseen))}")
    lines: list[Mapping[str, Any]] = [header_object(
        result.game, f.players, f.options, setup=f.setup, engine=engine, note=note,
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


_MAX_NAME = 100
"""Longest field name kept from an engine's report in a saved trace."""


def _clip(text: str, most: int = 200) -> str:
    """``text`` cut to ``most`` characters (marked), so a saved trace stays readable."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def _split_fields(game: GameModel, items: Iterable[tuple[str, Any]]
                  ) -> tuple[dict[str, Any], dict[str, str]]:
    """Reported fields a trace can hold (name -> value) and those it cannot (name -> why:
    unknown, mistyped, or too large to save), names and reasons clipped."""
    kept: dict[str, Any] = {}
    unusable: dict[str, str] = {}
    for k, v in items:
        problem = game.check_field(k, v) if len(k) <= _MAX_NAME else "unknown field"
        problem = problem or _unsaveable(v)
        if problem is None:
            kept[k] = v
        else:
            unusable[_clip(k, _MAX_NAME)] = _clip(problem, 300)
    return kept, unusable


def _unsaveable(value: Any, depth: int = 0) -> str | None:
    """Why a reported JSON value cannot go into a trace (the reader's limits: integers of at
    most MAX_INT_DIGITS digits, strings of at most MAX_STRING characters, finite numbers,
    shallow nesting), or None if it can."""
    if depth > MAX_DEPTH - 4:
        return "nested too deeply"
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10 ** 100 else 101
        return None if digits <= MAX_INT_DIGITS else (
            f"an integer of {'more than 100' if digits > 100 else digits} digits")
    if isinstance(value, float):
        return None if math.isfinite(value) else f"not a finite number ({value})"
    if isinstance(value, str):
        return None if len(value) <= MAX_STRING else f"a string of {len(value)} characters"
    items = list(value.items()) if isinstance(value, dict) else (
        [(None, v) for v in value] if isinstance(value, list) else None)
    if items is None:
        return f"not JSON ({type(value).__name__})"
    for key, item in items:
        if isinstance(key, str) and len(key) > MAX_STRING:
            return f"a key of {len(key)} characters"
        problem = _unsaveable(item, depth + 1)
        if problem is not None:
            return problem
    return None


def _expected_state(game: GameModel, f: Played, observer: int | None = None
                    ) -> Mapping[str, Any]:
    """The model's public state (``observer``'s observation if given) after the actions of
    ``f`` ({} if it cannot be rebuilt)."""
    try:
        state = game.start(f.players, f.options, None, f.setup)
        for _, action in f.actions:
            state = game.apply(state, action).state
        if observer is not None:
            return {k: v for k, v in game.observation(state, observer).items() if k != "player"}
        return game.public_state(state)
    except Exception:
        return {}
