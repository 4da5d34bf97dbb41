"""The ``stats`` command: play statistics of a rule set, and two readings side by side.

Examples::

    ruleproof stats dawn-under --games 400 --players 4
    ruleproof stats dawn-under --preset du-cs --compare du-en --plot cmp.png
    ruleproof stats dawn-under --compare after_match=turn-ends --json
    ruleproof stats dracula --option first_player=van-helsing --games 100

Exit codes: 0 (findings are reported, not failures), 2 bad input or no game finished.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ruleproof.cli.clitools import bad_input_exits_2, option_pairs
from ruleproof.cli.progress import progress
from ruleproof.errors import MalformedInput

if TYPE_CHECKING:
    from ruleproof.properties.stats import Runner, Stats


def runner_for(game: str, players: int | None, preset: str | None, options: list[str],
               expansion: str | None) -> Runner:
    """The engine adapter of ``game`` under a rule set (raises MalformedInput)."""
    from ruleproof.properties.stats import DawnUnderRunner, DraculaRunner

    if game == "dracula":
        from ruleproof.model.dracula.rules import rules_from_mapping

        if players not in (None, 2) or preset is not None or expansion is not None:
            raise MalformedInput("dracula is a 2-player game without presets or expansions; "
                                 "it takes --option")
        return DraculaRunner(rules_from_mapping(dict(option_pairs(options))))
    if game != "dawn-under":
        raise MalformedInput(f"unknown game {game!r}; known games: dawn-under, dracula")
    from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options

    name = preset or ("2p" if players == 2 else "du-en")  # 2 players: the 2-player rules
    pairs = option_pairs(options)
    if expansion is not None:
        if expansion != "gruft":
            raise MalformedInput(f"unknown expansion {expansion!r}; known: gruft")
        pairs["expansion"] = expansion
    count = players if players is not None else (2 if name == "2p" else 4)
    return DawnUnderRunner(make_config(count, parse_options(pairs, base=preset_options(name)),
                                       preset=name))


def _compare_runner(game: str, players: int | None, preset: str | None, options: list[str],
                    expansion: str | None, other: str) -> Runner:
    """``--compare``: a preset name, or NAME=VALUE option(s) (comma-separated) on top of the
    base rule set."""
    if "=" in other:
        return runner_for(game, players, preset, [*options, *other.split(",")], expansion)
    if game == "dracula":
        raise MalformedInput("dracula has no presets: --compare takes NAME=VALUE options")
    return runner_for(game, players, other, options, expansion)


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
        game: Annotated[str, typer.Argument(help="dawn-under or dracula")],
        games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 200,
        seed: Annotated[int, typer.Option("--seed", "-s", help="first seed")] = 0,
        players: Annotated[int | None, typer.Option("--players", "-p")] = None,
        preset: Annotated[str | None, typer.Option(help="dawn-under: du-en, du-cs or 2p")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                         help="rule option NAME=VALUE")] = None,
        expansion: Annotated[str | None, typer.Option(help="dawn-under: gruft")] = None,
        compare: Annotated[str | None, typer.Option(
            help="a second reading: a preset, or NAME=VALUE[,NAME=VALUE] on top")] = None,
        plot: Annotated[Path | None, typer.Option(help="draw the plots into this .png/.svg "
                                                       "(needs matplotlib)")] = None,
        alpha: Annotated[float, typer.Option(help="significance level of the tests")] = 0.05,
        max_steps: Annotated[int, typer.Option(help="give up a game after this many "
                                                    "actions")] = 5000,
        as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
    ) -> None:
        """Win rate per seat with 95% intervals, a seat-advantage test, game lengths, endings
        and rule events over random legal games; --compare a second reading side by side."""
        from ruleproof.properties.stats import compare as compare_stats
        from ruleproof.properties.stats import run

        if games > 1_000_000:
            raise MalformedInput(f"--games must be at most 1,000,000, got {games}")
        if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
            raise MalformedInput(f"--plot {plot}: the file must end in .png, .svg or .pdf")
        if games < 1:
            raise MalformedInput(f"--games must be at least 1, got {games}")
        if seed < 0:
            raise MalformedInput(f"--seed must be 0 or more, got {seed}")
        if not 0 < alpha < 1:
            raise MalformedInput(f"--alpha must lie between 0 and 1, got {alpha}")
        runners = [runner_for(game, players, preset, option or [], expansion)]
        if compare is not None:
            runners.append(_compare_runner(game, players, preset, option or [], expansion,
                                           compare))
        results: list[Stats] = []
        with progress("playing games", games * len(runners), quiet=as_json) as advance:
            for r in runners:
                results.append(run(r, games, seed, max_steps, alpha,
                                   functools.partial(advance, 1, f"playing {r.label}")))
        if plot is not None:
            from ruleproof.properties.stats import plot as draw

            try:
                draw(results, str(plot))
            except ImportError:
                raise MalformedInput("--plot needs matplotlib (pip install "
                                     "'ruleproof[docs]')") from None
        findings = [f for st in results for f in st.findings]
        cmp = compare_stats(results[0], results[1]) if len(results) == 2 else None
        if cmp is not None:
            findings += cmp.findings
        if as_json:
            payload = cmp.to_json() if cmp is not None else results[0].to_json()
            payload["all_findings"] = findings
            typer.echo(json.dumps(payload, indent=2))
            return
        lines: list[str] = []
        for st in results:
            lines += _table(st)
        if cmp is not None:
            lines.append(f"comparison: mean length {cmp.length_diff:+.1f} actions "
                         f"(p = {cmp.length_p:.3g}); seat win-rate differences p = "
                         + ", ".join(f"{p:.3g}" for p in cmp.seat_p))
        lines.append("findings:" if findings else "findings: none (no seat advantage at "
                     f"alpha {alpha})")
        lines += [f"  FINDING: {f}" for f in findings]
        if plot is not None:
            lines.append(f"plot written to {plot}")
        sys.stdout.write("\n".join(lines) + "\n")
