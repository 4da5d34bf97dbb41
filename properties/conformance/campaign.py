"""``conform`` campaigns: the search split by seed over workers (Ray, optional extra ``[ray]``).

A campaign runs *shards*: shard ``s`` is :func:`conform` with seed ``s`` stopped after
``games`` completed games, on its own engine subprocess. Seeds ``first``, ``first + 1``, ...
are handed out in order to the workers (a local Ray by default, a cluster with an address,
this process with one worker) while the budget lasts (or until ``seeds`` of them ran). The
first shard, in seed order, with a divergence (or an engine declining everything) stops the
campaign: shards of later seeds are cancelled, earlier ones are awaited.

What is identical to a single process (docs/campaigns.md): given the same seeds explored, the
same configuration and a deterministic engine, the diverging seed, the games played until the
divergence and the coverage of the games counted (every seed before the diverging one, and the
diverging one up to its divergence) do not depend on the number of workers or on timing. The
minimal game is shrunk within a time budget, so it may be shorter on a faster run; it always
reproduces the same failure (kind and first clause). A seed cut by the budget before its
``games`` games is reported as partial.

Each seed plays games of its own: hypothesis's first example is its simplest (the first preset,
the first player count, deal 0, the first legal action throughout) whatever its seed, so every
shard would start with the same game. A shard therefore sees the model through
:class:`VariedGame`, which rotates the order of the presets and player counts by its seed:
seeds 0, 1, 2, ... start with a different (preset, player count) in turn; and its deal seeds and
start players are shifted by its seed (:func:`run_seed`): seed ``s`` starts with deal ``s`` and
start player ``s mod n``, so no two seeds start with the same deal. The games depend on the
seed alone (so one process and Ray still agree).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import count
from typing import Any, cast

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.differential import (
    ConformResult,
    Coverage,
    conform,
    fields_of,
)
from ruleproof.properties.conformance.engine import EngineFactory, subprocess_factory
from ruleproof.properties.conformance.games import GameModel, model_of


class VariedGame:
    """A game model seen by the shard of ``seed``: ``inner`` with its presets and player
    counts listed in an order rotated by the seed (hypothesis draws the first entry in its
    simplest example). Seed ``s`` puts preset ``s mod P`` first and player count
    ``(s div P) mod C`` first, so consecutive seeds begin with every (preset, player count) in
    turn; the choosable actions are rotated by the seed too, so that two seeds beginning with
    the same set-up do not choose the same actions (the deal seed and the start player are
    rotated by :func:`run_seed`, through ``conform``'s ``rotation``). Nothing else changes: the same set-ups,
    deals and actions can be drawn, and the trace of a divergence (action strings) is that of
    the plain model.
    """

    def __init__(self, inner: GameModel, seed: int) -> None:
        self._inner = inner
        self._seed = seed

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not yet set (e.g. while unpickling): no recursion
            raise AttributeError(name)
        return getattr(self._inner, name)

    def _known_presets(self) -> int:
        return max(1, len(self._inner.presets()))

    def presets(self) -> tuple[str, ...]:
        """The inner model's presets, rotated by the seed."""
        return _rotated(self._inner.presets(), self._seed)

    def player_counts(self, options: Mapping[str, str]) -> tuple[int, ...]:
        """The inner model's player counts for ``options``, rotated by the seed divided by
        the number of presets.

        Raises:
            MalformedInput: as the inner model (an unknown preset).
        """
        return _rotated(self._inner.player_counts(options), self._seed // self._known_presets())

    def choosable(self, state: Any) -> list[str]:
        """The inner model's choosable actions, rotated by the seed (hypothesis's simplest
        choice, the first, differs from seed to seed; the actions are the same)."""
        return list(_rotated(tuple(self._inner.choosable(state)), self._seed))


def _rotated(items: tuple[Any, ...], by: int) -> tuple[Any, ...]:
    """``items`` rotated left by ``by`` (modulo its length)."""
    if not items:
        return items
    k = by % len(items)
    return items[k:] + items[:k]


def varied(game: GameModel, seed: int) -> GameModel:
    """The game model a campaign's shard of ``seed`` searches with (:class:`VariedGame`)."""
    return cast(GameModel, VariedGame(game, seed))


@dataclass(frozen=True)
class Shard:
    """One seed of a campaign, as a picklable callable for Ray workers: ``shard(seed)`` runs
    :func:`conform` with that seed for at most ``games`` completed games, until the campaign's
    wall-clock deadline ``until`` (seconds since the epoch, so it holds across machines).

    The engine command runs on the worker, in ``cwd`` when that folder exists there.
    """

    game: str
    engine: str
    timeout: float
    cwd: str | None
    players: int | None
    options: tuple[tuple[str, str], ...]
    games: int
    max_steps: int
    shrink_budget: float
    until: float

    def __call__(self, seed: int) -> ConformResult:
        left = self.until - time.time()
        model = model_of(self.game)
        if left <= 0:
            return ConformResult(model.name, 0, 0, 0.0, None, None, dict(self.options),
                                 failure="the campaign's budget was spent before this seed",
                                 coverage=Coverage(fields=fields_of(model)))
        cwd = self.cwd if self.cwd is not None and os.path.isdir(self.cwd) else None
        return run_seed(model, subprocess_factory(self.engine, timeout=self.timeout, cwd=cwd),
                        seed, players=self.players, options=dict(self.options), budget=left,
                        max_steps=self.max_steps, shrink_budget=self.shrink_budget,
                        games=self.games)


def run_seed(model: GameModel, factory: EngineFactory, seed: int, *, players: int | None,
             options: Mapping[str, str], budget: float, max_steps: int, shrink_budget: float,
             games: int) -> ConformResult:
    """One campaign seed: :func:`conform` with seed ``seed`` through :func:`varied` (presets,
    player counts and action order rotated by the seed) and with the deal seed and start player
    rotated by it too (``rotation``), stopped after ``games`` completed games.

    Raises:
        MalformedInput: as :func:`conform`.
    """
    return conform(varied(model, seed), factory, players=players, options=dict(options),
                   budget=budget, seed=seed, max_steps=max_steps, shrink_budget=shrink_budget,
                   min_games=1, max_games=games, rotation=seed)


def stops(result: ConformResult) -> bool:
    """Whether a shard's result ends the campaign: a divergence, or an engine declining
    everything asked."""
    return result.found is not None or bool(result.unsupported)


@dataclass(frozen=True)
class Campaign:
    """The outcome of :func:`conform_campaign`.

    Attributes:
        result: the combined result (``found`` and its divergence from the diverging seed;
            ``games_to_detection`` counted over every seed before it; merged coverage).
        seeds: the seeds counted, in order (up to the diverging one).
        partial: those of ``seeds`` cut by the budget before ``games_per_seed`` games.
        diverging_seed: the seed whose shard stopped the campaign, or None.
        workers: shards at a time asked for (1 without ``address``: this process, no Ray;
            with ``address``: 1 means one per CPU of the cluster).
        games_per_seed: completed games per shard.
        address: the Ray cluster, if one was given.
    """

    result: ConformResult
    seeds: tuple[int, ...]
    partial: tuple[int, ...]
    diverging_seed: int | None
    workers: int
    games_per_seed: int
    address: str | None = None

    def summary(self) -> str:
        """One line: seeds, workers, where the campaign stopped."""
        span = (f"seed {self.seeds[0]}" if len(self.seeds) == 1 else
                f"seeds {self.seeds[0]}-{self.seeds[-1]}" if self.seeds else "no seed")
        where = (f"the Ray cluster at {self.address}"
                 + (f", {self.workers} at a time" if self.workers > 1 else "")
                 if self.address else "this process" if self.workers <= 1
                 else f"{self.workers} Ray workers")
        text = (f"campaign: {span} ({len(self.seeds)} x up to {self.games_per_seed} games) on "
                f"{where}")
        if self.diverging_seed is not None:
            text += f"; stopped at seed {self.diverging_seed}"
        if self.partial:
            text += f"; cut by the budget: seed{'s' if len(self.partial) > 1 else ''} " \
                    f"{', '.join(map(str, self.partial))}"
        return text

    def as_json(self) -> dict[str, Any]:
        """The campaign's own fields as a JSON object."""
        return {"workers": self.workers, "address": self.address,
                "games_per_seed": self.games_per_seed,
                "seeds": list(self.seeds), "partial": list(self.partial),
                "diverging_seed": self.diverging_seed}


def merge_coverage(parts: Sequence[Coverage]) -> Coverage:
    """The coverage of several runs of the same engine: counts (failed games too) added,
    clauses united (the varied fields and the handshake are the engine's, taken from the
    first; the set-up fields shown are the game's)."""
    if not parts:
        return Coverage()
    players: Counter[int] = Counter()
    presets: Counter[str] = Counter()
    starts: Counter[int] = Counter()
    expansions: Counter[str] = Counter()
    options: dict[str, Counter[str]] = {}
    clauses: set[str] = set()
    for c in parts:
        players.update(c.player_counts)
        presets.update(c.presets)
        starts.update(c.start_players)
        expansions.update(c.expansions)
        for name, values in c.options.items():
            options.setdefault(name, Counter()).update(values)
        clauses |= c.clauses
    first = next((c for c in parts if c.handshake or c.varied), parts[0])
    return Coverage(sum(c.games for c in parts), sum(c.steps for c in parts), dict(players),
                    dict(presets), dict(starts), {k: dict(v) for k, v in options.items()},
                    dict(expansions), frozenset(clauses), first.varied, first.handshake,
                    sum(c.failed for c in parts), parts[0].fields)


def conform_campaign(game: str, engine: str, *, workers: int = 1, address: str | None = None,
                     first_seed: int = 0, seeds: int | None = None, games_per_seed: int = 20,
                     budget: float = 60.0, timeout: float = 5.0, players: int | None = None,
                     options: Mapping[str, str] | None = None, max_steps: int = 1000,
                     shrink_budget: float | None = None, min_games: int = 1,
                     cwd: str | None = None,
                     progress: Callable[[int, ConformResult], None] | None = None) -> Campaign:
    """Run :class:`Shard` s of seeds ``first_seed, first_seed + 1, ...`` on ``workers`` (see
    the module docstring) until the first divergence, ``seeds`` shards, or the budget.

    Args:
        game: a registered game's name (its plugin record's).
        engine: the engine's command line (run on the workers).
        workers: shards at a time; 1 without ``address``: this process, no Ray.
        address: a Ray cluster (``HOST:PORT``), probed first.
        seeds: shards to run at most (None: as many as the budget allows).
        games_per_seed: completed games per shard.
        budget: seconds for the whole campaign (wall clock; shrinking may add
            ``shrink_budget``).
        shrink_budget: seconds spent shrinking a divergence (default: half the budget).
        min_games: completed games over all shards needed for a pass.
        cwd: the folder the engine runs in (default: this one).
        progress: called with each shard's seed and result as it arrives.

    Raises:
        MalformedInput: bad counts, Ray missing or an unreachable address, an engine command
            that cannot be started (from a shard).
    """
    if games_per_seed < 1 or (seeds is not None and seeds < 1) or min_games < 1:
        raise MalformedInput("--games-per-seed, --seeds and --min-games must be at least 1")
    preflight(game, engine, players, options or {}, cwd, local=address is None)
    from ruleproof.properties.explore.distributed import ray_session

    with ray_session(workers, address, warm=_warm):
        # the budget counts from here: Ray (if any) is up and its workers have imported the
        # conformance harness, so a campaign's seeds get the whole budget
        start = time.time()
        return _run(game, engine, workers, address, first_seed, seeds, games_per_seed, budget,
                    timeout, players, options, max_steps, shrink_budget, min_games, cwd,
                    progress, start)


def _warm() -> bool:
    """Run on each Ray worker before the budget starts: imports the harness (this module
    and the differential search) so that the first shard does not pay for it."""
    return conform is not None


def preflight(game: str, engine: str, players: int | None, options: Mapping[str, str],
              cwd: str | None, *, local: bool) -> None:
    """Refuse bad input before Ray starts, as a single process would: options the model
    rejects and an engine command that cannot be split (or, when the engine runs on this
    machine, ``local``, cannot be started).

    Raises:
        MalformedInput: the option or engine problem, in one line.
    """
    from ruleproof.properties.conformance.engine import SubprocessEngine

    model = model_of(game)
    counts = model.player_counts(options)
    if not counts:
        raise MalformedInput(f"{model.name} cannot be played with these options")
    model.start(players or counts[0], options, 0, None)  # bad options -> MalformedInput
    if local:
        SubprocessEngine(engine, timeout=1.0, cwd=cwd).close()
    else:
        import shlex

        try:
            argv = shlex.split(engine)
        except ValueError as exc:
            raise MalformedInput(f"cannot split engine command {engine!r}: {exc}") from None
        if not argv:
            raise MalformedInput("the engine command is empty")


def _run(game: str, engine: str, workers: int, address: str | None, first_seed: int,
         seeds: int | None, games_per_seed: int, budget: float, timeout: float,
         players: int | None, options: Mapping[str, str] | None, max_steps: int,
         shrink_budget: float | None, min_games: int, cwd: str | None,
         progress: Callable[[int, ConformResult], None] | None, start: float) -> Campaign:
    """The campaign proper, its clock started at ``start`` (Ray ready)."""
    from ruleproof.properties.explore.distributed import fan_out_until

    until = start + budget
    shard = Shard(game, engine, timeout, cwd if cwd is not None else os.getcwd(), players,
                  tuple(sorted((options or {}).items())), games_per_seed, max_steps,
                  max(1.0, budget / 2) if shrink_budget is None else shrink_budget, until)
    items = range(first_seed, first_seed + seeds) if seeds is not None else count(first_seed)
    arrived: dict[int, float] = {}

    def done(seed: int, result: ConformResult) -> None:
        arrived[seed] = time.time()
        if progress is not None:
            progress(seed, result)

    ran = fan_out_until(items, shard, workers=workers, address=address,
                        stop=lambda _, r: stops(r), more=lambda: time.time() < until, done=done)
    return _combine(game, ran, start, arrived, games_per_seed, min_games, dict(options or {}),
                    workers, address)


def _combine(game: str, ran: list[tuple[int, ConformResult]], start: float,
             arrived: Mapping[int, float], games_per_seed: int, min_games: int,
             options: dict[str, str], workers: int, address: str | None) -> Campaign:
    """One :class:`ConformResult` out of the shards' (in seed order, up to the stop)."""
    results = [r for _, r in ran]
    last = results[-1] if results and stops(results[-1]) else None
    stop_seed = ran[-1][0] if last is not None else None
    cover = merge_coverage([r.coverage for r in results]) if results else Coverage(
        fields=fields_of(model_of(game)))  # no seed ran: the game's own set-up fields
    partial = tuple(s for s, r in ran if not stops(r) and r.coverage.games < games_per_seed)
    seconds = time.time() - start
    name = results[0].game if results else model_of(game).name
    if last is None:
        failure = ""
        if cover.games == 0:
            failure = ("no game was completed within the campaign's budget (the engine is too "
                       "slow or hangs, or the workers got too little of a busy machine; raise "
                       "--budget or give fewer --seeds)")
        elif cover.games < min_games:
            failure = (f"only {cover.games} game{'s' if cover.games != 1 else ''} completed "
                       f"within the budget; at least {min_games} required (--min-games)")
        notes = sorted({r.note for r in results if r.note})
        combined = ConformResult(name, sum(r.examples for r in results),
                                 sum(r.steps for r in results), seconds, None, None, options,
                                 "; ".join(notes), None, "", failure, cover)
    else:
        before = sum(r.coverage.games for r in results[:-1])
        detection = None
        if last.detection_seconds is not None and stop_seed is not None:
            began = arrived.get(stop_seed, start + last.seconds) - last.seconds
            detection = max(0.0, began - start) + last.detection_seconds
        combined = replace(last, examples=sum(r.examples for r in results),
                           steps=sum(r.steps for r in results), seconds=seconds,
                           detection_seconds=detection, options=options,
                           games_to_detection=None if last.games_to_detection is None
                           else before + last.games_to_detection, coverage=cover)
    return Campaign(combined, tuple(s for s, _ in ran), partial, stop_seed, workers,
                    games_per_seed, address)
