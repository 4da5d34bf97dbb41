"""Play statistics over many random legal games: what the rules do in practice.

For a game made from parameters (its rule set: preset, options, expansion, players...) this
plays ``games`` games of random legal actions from explicit seeds, over the one game interface,
and reports, per seat, the win rate with a Wilson score interval; the game length distribution;
how games end; and per-game counts of rule events.

What differs between games comes from the game's ``stats`` capability (:class:`StatsRules`:
the rule set's label, seat names, how a winner maps to a seat, the random player, the rule
events counted, ending labels); a game without one is played uniformly at random with the
plugin's seat names. Chance nodes are resolved by the game's ``chance`` capability
(:mod:`ruleproof.properties.play`).

Seat advantage: each seat's win rate is tested against the equal share 1/seats (a one-sample
score test), its effect (rate minus share, in points) given with its 95% Wilson interval; a
chi-square goodness-of-fit test over all seats is reported alongside. Two rule sets are compared
with a two-proportion z-test on each seat's win rate (effect: the difference, with Newcombe's
hybrid score interval) and a Welch z-test on the mean length. Every test of a run (all seats of
all rule sets, and the comparison) is one family: :func:`family` applies Holm's step-down
correction (family-wise error ``alpha``); a test whose Holm-adjusted p is below ``alpha`` is a
*finding*, one below ``alpha`` only before correction is *exploratory*. :func:`detectable` states
the power: the smallest effect found with probability ``power`` at the run's size, and
:func:`games_needed` the games a given effect needs.

Random play is not good play: a seat advantage under random play says something about the rules'
structure (turn order, tie rules), not about skilled games. A run with no finished game is an
error (:class:`NoGames`), never an empty pass.
"""

from __future__ import annotations

import io
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE, GameBase, GameState
from ruleproof.properties.play import build_game, settler
from ruleproof.properties.plugin import GamePlugin, plugin
from ruleproof.system.outputs import Target, write_file

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


class NoGames(MalformedInput):
    """No game finished (zero games asked for, or every game hit the step cap)."""


@dataclass(frozen=True)
class GameRecord:
    """One played game.

    Attributes:
        seed: the game's seed.
        winner_seat: the winner's seat (0 = the player who moves first), None if unfinished.
        length: player actions taken (chance outcomes not counted).
        ending: how it ended (a short label from the game's :class:`StatsRules`).
        counts: rule events counted in the game (name -> number).
    """

    seed: int
    winner_seat: int | None
    length: int
    ending: str
    counts: Mapping[str, int] = field(default_factory=dict)


class Runner(Protocol):
    """Plays one game of one rule set."""

    @property
    def label(self) -> str:
        """The rule set in words, e.g. the game's name, preset and player count."""
        ...

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat names in seat order (seat 0 moves first)."""
        ...

    def play(self, seed: int, max_steps: int) -> GameRecord:
        """Play one random legal game from ``seed`` (deterministic)."""
        ...


class StatsRules:
    """A game's part of the statistics (the ``stats`` capability). Every method has the generic
    behaviour; a game subclasses this and overrides what differs. All methods are pure."""

    def label(self, game_plugin: GamePlugin, game: GameBase[Any]) -> str:
        """The rule set in words (default: the game's name and the parameters that differ
        from the plugin's defaults, the truncation bound left out)."""
        shown = []
        for k, v in game.params.items():
            q = game_plugin.param(k)
            if k != "max_moves" and v not in (None, "", {}, ()) and (q is None or v != q.default):
                shown.append(f"{k}={v}")
        return " ".join([game_plugin.name, *shown])

    def seats(self, game_plugin: GamePlugin, game: GameBase[Any]) -> tuple[str, ...]:
        """Seat names in seat order, seat 0 moving first (default: the plugin's seat names)."""
        return tuple(game_plugin.seat_name(p) for p in range(game.num_players))

    def seat(self, game: GameBase[Any], winner: int) -> int:
        """The seat (in :meth:`seats` order) of the winning player (default: the player)."""
        return winner

    def choose(self, state: GameState, rng: random.Random) -> Any:
        """The random player's typed action at a decision (default: uniform over the legal
        actions in the engine's order, one ``rng.randrange``)."""
        legal = state.legal_typed_actions()
        return legal[rng.randrange(len(legal))]

    def counts(self, game: GameBase[Any]) -> dict[str, int]:
        """The rule events counted in every game, each at 0 (default: none)."""
        return {}

    def events(self, before: GameState, after: GameState) -> Mapping[str, int]:
        """What one player decision ``before`` -> ``after`` adds to the counts."""
        return {}

    def ending(self, state: GameState) -> str:
        """How the won game ``state`` ended, a short label (default: ``won``)."""
        return "won"


@dataclass(frozen=True)
class GameRunner:
    """Random legal play of one game (a :class:`Runner`) over the interface.

    Attributes:
        game_plugin: the game's plugin record.
        game: the game, made with its parameters.
        rules: the game's :class:`StatsRules`.
    """

    game_plugin: GamePlugin
    game: GameBase[Any]
    rules: StatsRules

    @property
    def label(self) -> str:
        """:meth:`StatsRules.label`."""
        return self.rules.label(self.game_plugin, self.game)

    @property
    def seats(self) -> tuple[str, ...]:
        """:meth:`StatsRules.seats`."""
        return self.rules.seats(self.game_plugin, self.game)

    def play(self, seed: int, max_steps: int) -> GameRecord:
        """One game from ``new_seeded_state(seed)``; decisions by :meth:`StatsRules.choose`
        with ``random.Random(seed)``, chance nodes by the game's chance rule; at most
        ``max_steps`` decisions."""
        rules = self.rules
        settle = settler(self.game_plugin)
        rng = random.Random(seed)
        state = self.game.new_seeded_state(seed)
        counts: Counter[str] = Counter(rules.counts(self.game))
        steps = 0
        while not state.is_terminal() and steps < max_steps:
            if state.current_player() == CHANCE:
                state = settle(state)
                continue
            before = state
            state = state.apply_typed(rules.choose(state, rng))
            steps += 1
            for name, n in rules.events(before, state).items():
                counts[name] += n
        winner = state.winner()
        if winner is None:
            return GameRecord(seed, None, steps, f"no winner within {max_steps} actions", counts)
        return GameRecord(seed, rules.seat(self.game, winner), steps, rules.ending(state), counts)


def runner(game: str | GamePlugin, params: Mapping[str, Any], max_steps: int = 5000
           ) -> GameRunner:
    """The runner of game ``game`` (a registered name or a plugin) made from ``params``, its
    truncation bound above ``max_steps``.

    Raises:
        MalformedInput: an unknown game (naming the known ones) or bad parameters.
    """
    p = game if isinstance(game, GamePlugin) else plugin(game)
    built = build_game(p, params, max_steps)
    return GameRunner(p, built, p.capability("stats") or StatsRules())


# ----------------------------------------------------------------------------- statistics

@dataclass(frozen=True)
class Interval:
    """A proportion with its Wilson score interval."""

    successes: int
    trials: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        """successes / trials (0 for no trials)."""
        return self.successes / self.trials if self.trials else 0.0


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """Wilson score interval of a binomial proportion (two-sided, ``z`` = normal quantile).

    Raises:
        ValueError: ``trials`` < 1 or ``successes`` outside 0..trials.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"wilson({successes}, {trials}): need 0 <= successes <= trials, "
                         "trials >= 1")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return Interval(successes, trials, max(0.0, centre - half), min(1.0, centre + half))


def normal_sf(x: float) -> float:
    """P(Z > x) for a standard normal Z."""
    return 0.5 * math.erfc(x / math.sqrt(2))


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` >= 1 degrees of freedom (exact closed forms).

    Raises:
        ValueError: df < 1.
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= (x / 2) / i
            total += term
        return math.exp(-x / 2) * total
    root = math.sqrt(x)
    total = 2 * normal_sf(root)
    term = root * math.exp(-x / 2) / math.sqrt(2 * math.pi) * 2
    for r in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * r + 1)
    return min(1.0, total)


def chi_square_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """Chi-square goodness of fit of ``counts`` against equal shares: (statistic, df, p)."""
    n = sum(counts)
    k = len(counts)
    if n == 0 or k < 2:
        return 0.0, max(k - 1, 1), 1.0
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return stat, k - 1, chi2_sf(stat, k - 1)


@dataclass(frozen=True)
class Stats:
    """Statistics of one rule set.

    Attributes:
        label, seats: from the runner.
        games: games played; finished: games with a winner.
        seat_wins: a Wilson interval per seat (over finished games).
        lengths: actions per finished game.
        endings: ending label -> games (unfinished games included).
        counts: event name -> per-game counts (all games).
        chi2, df, p_value: the seat test; alpha: its significance level.
        findings: seat advantages found (empty if none).
    """

    label: str
    seats: tuple[str, ...]
    games: int
    finished: int
    seat_wins: tuple[Interval, ...]
    lengths: tuple[int, ...]
    endings: dict[str, int]
    counts: dict[str, tuple[int, ...]]
    chi2: float
    df: int
    p_value: float
    alpha: float
    findings: tuple[str, ...]

    def length_summary(self) -> dict[str, float]:
        """mean, sd, min, quartiles, max of the game length (finished games)."""
        xs = sorted(self.lengths)
        q = statistics.quantiles(xs, n=4) if len(xs) >= 2 else [xs[0]] * 3
        return {"mean": statistics.fmean(xs), "sd": statistics.pstdev(xs), "min": xs[0],
                "q1": q[0], "median": q[1], "q3": q[2], "max": xs[-1]}

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "rule_set": self.label, "games": self.games, "finished": self.finished,
            "seats": [{"seat": s, "wins": i.successes, "rate": round(i.rate, 4),
                       "ci95": [round(i.low, 4), round(i.high, 4)],
                       "equal_share_outside_ci": not i.low <= 1 / len(self.seats) <= i.high}
                      for s, i in zip(self.seats, self.seat_wins, strict=True)],
            "seat_test": {"test": "chi-square goodness of fit against equal win rates",
                          "statistic": round(self.chi2, 4), "df": self.df,
                          "p_value": self.p_value, "alpha": self.alpha},
            "length": {k: round(v, 2) for k, v in self.length_summary().items()},
            "endings": self.endings,
            "per_game": {k: {"mean": round(statistics.fmean(v), 3), "total": sum(v)}
                         for k, v in self.counts.items()},
            "findings": list(self.findings),
        }


@dataclass(frozen=True)
class Hypothesis:
    """One test of a family.

    Attributes:
        subject: what is tested, in words (seat and rule set(s)).
        effect: the effect in proportion units (a seat's rate minus the equal share, or the
            second rule set's rate minus the first's); low, high: its 95% interval.
        p: the two-sided p-value; adjusted: Holm-adjusted over the family (1.0 until
            :func:`family`); alpha: the family-wise level.
        key: what is tested without the numbers (seat and rule sets), the same in a rerun.
    """

    subject: str
    effect: float
    low: float
    high: float
    p: float
    adjusted: float = 1.0
    alpha: float = 0.05
    key: str = ""

    @property
    def significant(self) -> bool:
        """The Holm-adjusted p is below alpha: a finding."""
        return self.adjusted < self.alpha

    @property
    def exploratory(self) -> bool:
        """Below alpha before the correction only: worth a bigger run, not a finding."""
        return self.p < self.alpha <= self.adjusted

    def text(self) -> str:
        """The test in one sentence: effect in points with its interval, raw and adjusted p."""
        return (f"{self.subject}: {self.effect * 100:+.1f} points, 95% CI [{self.low * 100:+.1f}, "
                f"{self.high * 100:+.1f}] (p = {self.p:.2g}, Holm-adjusted p = {self.adjusted:.2g})")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"subject": self.subject, "effect": round(self.effect, 4),
                "ci95": [round(self.low, 4), round(self.high, 4)], "p_value": self.p,
                "holm_p_value": self.adjusted,
                "verdict": "finding" if self.significant else
                "exploratory" if self.exploratory else "none"}


def holm(ps: Sequence[float]) -> tuple[float, ...]:
    """Holm's step-down adjusted p-values, in the order given (each at most 1, monotone in the
    sorted order)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return tuple(out)


def family(tests: Sequence[Hypothesis], alpha: float = 0.05) -> tuple[Hypothesis, ...]:
    """``tests`` with Holm-adjusted p-values over all of them, at family-wise level ``alpha``."""
    adj = holm([t.p for t in tests])
    return tuple(Hypothesis(t.subject, t.effect, t.low, t.high, t.p, a, alpha, t.key)
                 for t, a in zip(tests, adj, strict=True))


def _z(q: float) -> float:
    return statistics.NormalDist().inv_cdf(q)


def detectable(n: int, share: float, alpha: float, power: float = 0.8) -> float:
    """The smallest |rate - share| a two-sided level-``alpha`` test of one seat finds with
    probability ``power`` in ``n`` games (normal approximation), in proportion units."""
    return (_z(1 - alpha / 2) + _z(power)) * math.sqrt(share * (1 - share) / n)


def games_needed(effect: float, share: float, alpha: float, power: float = 0.8) -> int:
    """Games needed for a two-sided level-``alpha`` test to find a seat whose win rate is
    ``share + effect`` with probability ``power`` (normal approximation).

    Raises:
        ValueError: effect 0 or share + effect outside (0, 1).
    """
    p1 = share + effect
    if effect == 0 or not 0 < p1 < 1:
        raise ValueError(f"games_needed: effect {effect} must be non-zero with share + effect "
                         "in (0, 1)")
    root = _z(1 - alpha / 2) * math.sqrt(share * (1 - share)) + _z(power) * math.sqrt(p1 * (1 - p1))
    return math.ceil((root / effect) ** 2)


def seat_tests(st: Stats) -> list[Hypothesis]:
    """One test per seat of ``st``: its win rate against the equal share (score test)."""
    share = 1 / len(st.seats)
    out = []
    for s, iv in zip(st.seats, st.seat_wins, strict=True):
        se = math.sqrt(share * (1 - share) / iv.trials)
        p = 2 * normal_sf(abs(iv.rate - share) / se)
        out.append(Hypothesis(f"{s} under {st.label} wins {iv.rate:.1%} (equal share {share:.1%})",
                        iv.rate - share, iv.low - share, iv.high - share, p, alpha=st.alpha,
                        key=f"{s} | {st.label}"))
    return out


def difference_tests(cmp: Comparison) -> list[Hypothesis]:
    """One test per seat of a comparison: the second rule set's win rate minus the first's,
    with Newcombe's hybrid score interval and the two-proportion z-test's p."""
    out = []
    for s, x, y, p in zip(cmp.a.seats, cmp.a.seat_wins, cmp.b.seat_wins, cmp.seat_p, strict=True):
        d = y.rate - x.rate
        low = d - math.sqrt((y.rate - y.low) ** 2 + (x.high - x.rate) ** 2)
        high = d + math.sqrt((y.high - y.rate) ** 2 + (x.rate - x.low) ** 2)
        out.append(Hypothesis(f"{s} wins {x.rate:.1%} under {cmp.a.label}, {y.rate:.1%} under "
                        f"{cmp.b.label}", d, low, high, p, alpha=min(cmp.a.alpha, cmp.b.alpha),
                        key=f"{s} | {cmp.a.label} -> {cmp.b.label}"))
    return out


@dataclass(frozen=True)
class Study:
    """Every test of a run of rule sets (and comparisons), corrected as one family.

    Attributes:
        tests: the family, Holm-adjusted; alpha: the family-wise level; power: the power stated.
        stats, comparisons: what was tested.
    """

    stats: tuple[Stats, ...]
    comparisons: tuple[Comparison, ...]
    tests: tuple[Hypothesis, ...]
    alpha: float
    power: float = 0.8

    @property
    def findings(self) -> tuple[Hypothesis, ...]:
        """Tests significant after the correction."""
        return tuple(t for t in self.tests if t.significant)

    @property
    def exploratory(self) -> tuple[Hypothesis, ...]:
        """Tests below alpha before the correction only."""
        return tuple(t for t in self.tests if t.exploratory)

    def power_lines(self) -> list[str]:
        """Per rule set: the effect found with probability ``power`` at the Bonferroni level
        alpha / tests (Holm's first step, the hardest), and the games a 5-point effect needs."""
        m = max(len(self.tests), 1)
        out = []
        for st in self.stats:
            share = 1 / len(st.seats)
            found = detectable(st.finished, share, self.alpha / m, self.power)
            needs = games_needed(0.05, share, self.alpha / m, self.power)
            head = (f"{st.label}: {st.finished} finished games detect a seat {found * 100:.1f} "
                    f"points away from the equal share {share:.1%} with {self.power:.0%} power"
                    if found < max(share, 1 - share) else
                    f"{st.label}: {st.finished} finished games are too few to detect any seat "
                    f"advantage with {self.power:.0%} power")
            out.append(f"{head} ({m} tests, Holm at {self.alpha}); a 5-point effect needs "
                       f"{needs} games")
        return out

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"correction": "Holm over every seat test of every rule set and comparison",
                "alpha": self.alpha, "power": self.power,
                "tests": [t.to_json() for t in self.tests],
                "findings": [t.text() for t in self.findings],
                "exploratory": [t.text() for t in self.exploratory],
                "power_statement": self.power_lines()}


def study(stats: Sequence[Stats], comparisons: Sequence[Comparison] = (), alpha: float = 0.05,
          power: float = 0.8) -> Study:
    """One family over every seat of ``stats`` and every seat difference of ``comparisons``."""
    tests: list[Hypothesis] = [t for st in stats for t in seat_tests(st)]
    tests += [t for c in comparisons for t in difference_tests(c)]
    return Study(tuple(stats), tuple(comparisons), family(tests, alpha), alpha, power)


def unstable(first: Study, rerun: Study) -> list[str]:
    """The findings of ``first`` that ``rerun`` (the same rule sets, other seeds) does not
    confirm: not significant there, or with the opposite sign; empty when every finding
    holds."""
    again = {t.key: t for t in rerun.tests}
    out = []
    for t in first.findings:
        r = again.get(t.key)
        if r is None or not r.significant or (r.effect > 0) != (t.effect > 0):
            out.append(f"{t.key}: {t.text()}; rerun: {r.text() if r else 'not tested'}")
    return out


def summarise(runner_label: str, seats: tuple[str, ...], records: Sequence[GameRecord],
              alpha: float = 0.05) -> Stats:
    """Statistics of ``records``.

    Raises:
        NoGames: no record, or no game finished.
    """
    if not records:
        raise NoGames("no games were played (--games must be at least 1)")
    done = [r for r in records if r.winner_seat is not None]
    if not done:
        raise NoGames(f"none of {len(records)} games finished within the step cap; raise "
                      "--max-steps")
    wins = [sum(1 for r in done if r.winner_seat == s) for s in range(len(seats))]
    intervals = tuple(wilson(w, len(done)) for w in wins)
    stat, df, p = chi_square_uniform(wins)
    findings: list[str] = []
    probe = Stats(runner_label, seats, len(records), len(done), intervals, (), {}, {}, stat, df,
                  p, alpha, ())
    for t in family(seat_tests(probe), alpha):
        if t.significant:
            findings.append(f"seat advantage: {t.text()}")
        elif t.exploratory:
            findings.append(f"exploratory (not significant after Holm over the seats): {t.text()}")
    names = sorted({k for r in records for k in r.counts})
    counts = {k: tuple(r.counts.get(k, 0) for r in records) for k in names}
    return Stats(runner_label, seats, len(records), len(done), intervals,
                 tuple(r.length for r in done), dict(Counter(r.ending for r in records)
                                                     .most_common()),
                 counts, stat, df, p, alpha, tuple(findings))


def play_games(runner: Runner, games: int, seed: int, max_steps: int,
               on_game: Callable[[], None] | None = None) -> list[GameRecord]:
    """Play ``games`` games with seeds ``seed * 1_000_003 + i`` (the same deals for every rule
    set, so two readings are compared on the same seeds)."""
    out = []
    for i in range(games):
        out.append(runner.play(seed * 1_000_003 + i, max_steps))
        if on_game is not None:
            on_game()
    return out


def run(runner: Runner, games: int, seed: int = 0, max_steps: int = 5000, alpha: float = 0.05,
        on_game: Callable[[], None] | None = None) -> Stats:
    """Play and summarise (see :func:`summarise`; raises NoGames)."""
    return summarise(runner.label, runner.seats, play_games(runner, games, seed, max_steps,
                                                            on_game), alpha)


@dataclass(frozen=True)
class Comparison:
    """Two rule sets side by side: per-seat win-rate differences and the length difference,
    each with a two-sided p-value; ``findings`` name those significant after Holm's correction
    over the seats and the length."""

    a: Stats
    b: Stats
    seat_p: tuple[float, ...]
    length_diff: float
    length_p: float
    findings: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"a": self.a.to_json(), "b": self.b.to_json(),
                "seat_difference_p": [round(p, 6) for p in self.seat_p],
                "mean_length_difference": round(self.length_diff, 3),
                "length_p": self.length_p, "findings": list(self.findings)}


def compare(a: Stats, b: Stats) -> Comparison:
    """Compare two rule sets of the same seats (two-proportion z-tests, Welch z-test).

    Raises:
        ValueError: different seat counts.
    """
    if len(a.seats) != len(b.seats):
        raise ValueError("rule sets with different player counts cannot be compared per seat")
    ps = []
    findings: list[str] = []
    alpha = min(a.alpha, b.alpha)
    for x, y in zip(a.seat_wins, b.seat_wins, strict=True):
        pooled = (x.successes + y.successes) / (x.trials + y.trials)
        se = math.sqrt(pooled * (1 - pooled) * (1 / x.trials + 1 / y.trials))
        ps.append(1.0 if se == 0 else 2 * normal_sf(abs(x.rate - y.rate) / se))
    ma, mb = statistics.fmean(a.lengths), statistics.fmean(b.lengths)
    va = statistics.pvariance(a.lengths) / len(a.lengths)
    vb = statistics.pvariance(b.lengths) / len(b.lengths)
    lp = 1.0 if va + vb == 0 else 2 * normal_sf(abs(ma - mb) / math.sqrt(va + vb))
    adjusted = holm([*ps, lp])  # the seats and the length: one family
    for s, x, y, p, q in zip(a.seats, a.seat_wins, b.seat_wins, ps, adjusted, strict=False):
        if q < alpha:
            findings.append(f"{s} wins {x.rate:.1%} under {a.label} but {y.rate:.1%} under "
                            f"{b.label} (two-proportion z-test p = {p:.2g}, Holm-adjusted "
                            f"{q:.2g} < {alpha})")
    if adjusted[-1] < alpha:
        findings.append(f"games last {ma:.1f} actions on average under {a.label} but {mb:.1f} "
                        f"under {b.label} (Welch z-test p = {lp:.2g}, Holm-adjusted "
                        f"{adjusted[-1]:.2g} < {alpha})")
    return Comparison(a, b, tuple(ps), mb - ma, lp, tuple(findings))


def plot(stats: Sequence[Stats], path: str, title: str | None = None) -> None:
    """Draw win rates per seat (with 95% intervals and the equal share), the game-length
    distribution and the endings of one or two rule sets into ``path`` (.png or .svg), with
    matplotlib's Agg backend.

    Raises:
        ImportError: matplotlib is not installed (the ``docs`` extra).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    width = 0.8 / len(stats)
    colours = ("#3b6ea5", "#c0504d")
    seats = stats[0].seats
    for j, st in enumerate(stats):
        xs = [i + (j - (len(stats) - 1) / 2) * width for i in range(len(seats))]
        rates = [iv.rate for iv in st.seat_wins]
        err = [[iv.rate - iv.low for iv in st.seat_wins], [iv.high - iv.rate for iv in st.seat_wins]]
        axes[0].bar(xs, rates, width, yerr=err, capsize=3, label=st.label, color=colours[j % 2])
        axes[1].hist(st.lengths, bins=30, alpha=0.6, label=st.label, color=colours[j % 2])
    axes[0].axhline(1 / len(seats), color="#444", linestyle="--", linewidth=1, label="equal share")
    axes[0].set_xticks(range(len(seats)), [s.split(" (")[0] for s in seats])
    axes[0].set_ylabel("win rate (95% Wilson interval)")
    axes[0].set_title("wins per seat")
    axes[1].set_xlabel("player actions per game")
    axes[1].set_title("game length")
    names = sorted({e for st in stats for e in st.endings})
    for j, st in enumerate(stats):
        ys = [i + (j - (len(stats) - 1) / 2) * width for i in range(len(names))]
        axes[2].barh(ys, [st.endings.get(n, 0) / st.games for n in names], width,
                     color=colours[j % 2], label=st.label)
    axes[2].set_yticks(range(len(names)), [n if len(n) < 34 else n[:32] + "…" for n in names],
                       fontsize=7)
    axes[2].set_xlabel("share of games")
    axes[2].set_title("endings")
    fig.suptitle(title or " vs ".join(st.label for st in stats) + f" ({stats[0].games} games)",
                 fontsize=10)
    # one legend under the panels: inside the seat panel it covered the bars (the same
    # colours mean the same rule set in every panel)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    picture = io.BytesIO()  # drawn in memory, then written whole or not at all
    fig.savefig(picture, format=Path(path).suffix.lstrip(".").lower() or "png")
    plt.close(fig)
    write_file(Target(Path(path), "--plot", "plot"), picture.getvalue())
