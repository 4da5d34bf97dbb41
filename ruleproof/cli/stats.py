"""The ``stats`` command: play statistics of a rule set, and two readings side by side.

Examples (``GAME`` is any registered game; its parameters are the plugin's)::

    ruleproof stats GAME --games 400 --players 4
    ruleproof stats GAME --preset PRESET --compare OTHER-PRESET --plot cmp.png
    ruleproof stats GAME --compare NAME=VALUE --json
    ruleproof stats GAME --option NAME=VALUE --games 100
    ruleproof stats all --games 30 --seed 0     # the site's statistics page, every rule set

Every seat test of a run (all seats, all rule sets, the comparison) is one family, corrected by
Holm's method: a *finding* survives the correction, an *exploratory* result does not; the power
of the run is stated (the effect it finds with 80% power, the games a 5-point effect needs).

Exit codes: 0 (findings are reported, not failures), 2 bad input or no game finished.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ruleproof.cli.clitools import PARAM_HELP, bad_input_exits_2, game_params
from ruleproof.cli.progress import progress
from ruleproof.errors import MalformedInput
from ruleproof.system.outputs import Target, check_target

if TYPE_CHECKING:
    from ruleproof.properties.stats import Runner, Stats


def runner_for(game: str, players: int | None, preset: str | None, options: list[str],
               expansion: str | None, max_steps: int = 5000, param: Sequence[str] = ()
               ) -> Runner:
    """The runner of ``game`` (a registered name) under a rule set: the parameters given on the
    command line (``-P NAME=VALUE`` items and the shorthand flags), passed to the game's plugin
    (a preset that does not cover the game's default player count plays its first count).

    Raises:
        MalformedInput: an unknown game (naming the known ones), or a parameter the game does
            not take or a value it refuses.
    """
    from ruleproof.properties.plugin import plugin
    from ruleproof.properties.stats import runner

    p = plugin(game)
    params: dict[str, Any] = game_params(p, param, players=players, preset=preset,
                                         expansion=expansion, options=options or None)
    chosen = params.get("preset")
    if "players" not in params and chosen is not None:
        counts = p.presets().get(str(chosen), ("", ()))[1]
        if counts and p.game_type.default_players not in counts:
            params["players"] = counts[0]
    if not params.get("options"):
        params.pop("options", None)
    return runner(p, params, max_steps)


def _compare_runner(game: str, players: int | None, preset: str | None, options: list[str],
                    expansion: str | None, other: str, max_steps: int,
                    param: Sequence[str] = ()) -> Runner:
    """``--compare``: a preset name, or NAME=VALUE option(s) (comma-separated) on top of the
    base rule set."""
    if "=" in other:
        return runner_for(game, players, preset, [*options, *other.split(",")], expansion,
                          max_steps, param)
    kept = [q for q in param if q.split("=", 1)[0].strip().replace("-", "_") != "preset"]
    return runner_for(game, players, other, options, expansion, max_steps, kept)


def _table(st: Stats) -> list[str]:
    lines = [f"rule set: {st.label}: {st.games} games, {st.finished} finished"]
    share = 1 / len(st.seats)
    for s, iv in zip(st.seats, st.seat_wins, strict=True):
        mark = "  <- equal share outside the interval" if not iv.low <= share <= iv.high else ""
        lines.append(f"  {s:<18} wins {iv.successes:>5}  {iv.rate:6.1%}  "
                     f"95% CI [{iv.low:.1%}, {iv.high:.1%}]{mark}")
    lines.append(f"  seat test: chi-square {st.chi2:.2f}, df {st.df}, p = {st.p_value:.3g} "
                 f"(alpha {st.alpha}; equal share {share:.1%})")
    ls = st.length_summary()
    lines.append(f"  game length (player actions): mean {ls['mean']:.1f}, sd {ls['sd']:.1f}, "
                 f"min {ls['min']:.0f}, quartiles {ls['q1']:.0f}/{ls['median']:.0f}/"
                 f"{ls['q3']:.0f}, max {ls['max']:.0f}")
    lines.append("  endings: " + "; ".join(f"{k} {v} ({v / st.games:.0%})"
                                          for k, v in st.endings.items()))
    lines.append("  per game: " + "; ".join(f"{k} {sum(v) / len(v):.2f}"
                                           for k, v in st.counts.items()))
    return lines


def register(app: typer.Typer) -> None:
    """Add ``ruleproof stats`` to ``app``."""

    @app.command()
    @bad_input_exits_2
    def stats(
        game: Annotated[str, typer.Argument(
            help="a registered game, or 'all' for every rule set of the site's statistics page")],
        games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 200,
        seed: Annotated[int, typer.Option("--seed", "-s", help="first seed")] = 0,
        players: Annotated[int | None, typer.Option("--players", "-p",
                                                    help="number of players")] = None,
        preset: Annotated[str | None, typer.Option(help="a preset of the game")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                         help="rule option NAME=VALUE")] = None,
        expansion: Annotated[str | None, typer.Option(help="an expansion of the game")] = None,
        param: Annotated[list[str] | None, typer.Option("-P", "--param", help=PARAM_HELP)
                         ] = None,
        compare: Annotated[str | None, typer.Option(
            help="a second reading: a preset, or NAME=VALUE[,NAME=VALUE] on top")] = None,
        plot: Annotated[Path | None, typer.Option(help="draw the plots into this .png/.svg "
                                                       "(needs matplotlib)")] = None,
        alpha: Annotated[float, typer.Option(help="significance level of the tests")] = 0.05,
        max_steps: Annotated[int, typer.Option(help="give up a game after this many "
                                                    "actions")] = 5000,
        as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
    ) -> None:
        """Win rate per seat with 95% intervals, seat tests corrected for multiple testing
        (Holm), the run's power, game lengths, endings and rule events over random legal
        games; --compare a second reading side by side; 'all' for the site's page."""
        from ruleproof.properties.stats import Comparison, run, study
        from ruleproof.properties.stats import compare as compare_stats

        if games > 1_000_000:
            raise MalformedInput(f"--games must be at most 1,000,000, got {games}")
        if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
            raise MalformedInput(f"--plot {plot}: the file must end in .png, .svg or .pdf")
        if plot is not None:  # a link, FIFO, device, missing folder: refused before any game
            check_target(Target(plot, "--plot", "plot"))
        if games < 1:
            raise MalformedInput(f"--games must be at least 1, got {games}")
        if seed < 0:
            raise MalformedInput(f"--seed must be 0 or more, got {seed}")
        if not 0 < alpha < 1:
            raise MalformedInput(f"--alpha must lie between 0 and 1, got {alpha}")
        comparisons: list[Comparison] = []
        if game == "all":
            from ruleproof.cli.site import page_study, stats_runs

            if compare is not None or plot is not None:
                raise MalformedInput("stats all: --compare and --plot take one game")
            with progress("playing games", games * stats_runs()) as advance:
                sty, _texts = page_study(games, seed, alpha,
                                         lambda what: advance(games, what))
            results = list(sty.stats)
            comparisons = list(sty.comparisons)
        else:
            runners = [runner_for(game, players, preset, option or [], expansion, max_steps,
                                  param or ())]
            if compare is not None:
                runners.append(_compare_runner(game, players, preset, option or [], expansion,
                                               compare, max_steps, param or ()))
            results = []
            with progress("playing games", games * len(runners)) as advance:
                for r in runners:
                    results.append(run(r, games, seed, max_steps, alpha,
                                       functools.partial(advance, 1, f"playing {r.label}")))
            if len(results) == 2:
                comparisons = [compare_stats(results[0], results[1])]
            sty = study(results, comparisons, alpha)
        if plot is not None:
            from ruleproof.properties.stats import plot as draw

            try:
                draw(results, str(plot))
            except ImportError:
                raise MalformedInput('--plot needs matplotlib (pip install ".[docs]" from '
                                     "the clone)") from None
        cmp = comparisons[0] if len(comparisons) == 1 and game != "all" else None
        if as_json:
            payload = (cmp.to_json() if cmp is not None else results[0].to_json()
                       if len(results) == 1 else {"rule_sets": [r.to_json() for r in results],
                                                  "comparisons": [c.to_json()
                                                                  for c in comparisons]})
            payload["study"] = sty.to_json()
            payload["all_findings"] = [t.text() for t in sty.findings]
            typer.echo(json.dumps(payload, indent=2))
            return
        lines: list[str] = []
        for st in results:
            lines += _table(st)
        for c in comparisons:
            lines.append(f"comparison {c.a.label} vs {c.b.label}: mean length "
                         f"{c.length_diff:+.1f} actions (p = {c.length_p:.3g}); seat win-rate "
                         "differences p = " + ", ".join(f"{p:.3g}" for p in c.seat_p))
        lines.append(f"power ({len(sty.tests)} tests, Holm-corrected at family-wise alpha "
                     f"{alpha}):")
        lines += [f"  {x}" for x in sty.power_lines()]
        lines.append("findings:" if sty.findings else "findings: none survive the correction "
                     f"(Holm over {len(sty.tests)} tests at alpha {alpha})")
        lines += [f"  FINDING: {t.text()}" for t in sty.findings]
        lines += [f"  exploratory: {t.text()}" for t in sty.exploratory]
        if plot is not None:
            lines.append(f"plot written to {plot}")
        sys.stdout.write("\n".join(lines) + "\n")
