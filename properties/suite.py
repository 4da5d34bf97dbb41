"""The whole verification suite, organised by game and rule set (``ruleproof check``).

A *rule set* is a game under one reading of its sources: Dawn Under under the presets ``du-en``,
``du-cs`` and ``2p``, the expansion on each 3-6 player preset, and Dracula under its default
rule options and under each registered reading that changes play (spec/dracula/ambiguities.toml).
Each rule set gets the properties that depend on the rules (random games with every invariant,
hidden information, illegal actions, z3 facts, the symbolic layer where it has an abstraction);
the properties that do not (board and data, citations, the shipped scenarios, which carry their
own rule sets) run once per game, in a group of their own.

Units of work (one property of one rule set) run in ``jobs`` worker processes; each worker
rebuilds its property from the rule set, so nothing unpicklable crosses a process boundary.
Results are returned in a fixed order whatever the scheduling.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path

from ruleproof.errors import MalformedInput
from ruleproof.properties.report import PROFILES, Check, CheckResult, Profile

GAMES = ("dawn-under", "dracula")
SHARED = "shared by every rule set"
"""The name of the group of rule-set independent properties of a game."""


@dataclass(frozen=True)
class RuleSet:
    """One game under one reading of its sources.

    Attributes:
        game: ``dawn-under`` or ``dracula``.
        name: how the rule set is shown (``du-en``, ``du-cs + gruft``, ``default rules``,
            ``depths=known-own-only``, or :data:`SHARED`).
        preset: Dawn Under preset (``du-en``, ``du-cs``, ``2p``); empty for Dracula.
        options: rule options ``(name, value)`` on top of the preset (Dawn Under, including
            ``expansion``) or of the default rules (Dracula).
        players: player counts checked (Dawn Under; empty: all the preset covers).
        small: run in the ``ci`` profile unless the thorough profile is asked for (the
            non-default Dracula readings: each is checked, at least in the small profile).
    """

    game: str
    name: str
    preset: str = ""
    options: tuple[tuple[str, str], ...] = ()
    players: tuple[int, ...] = ()
    small: bool = False

    @property
    def shared(self) -> bool:
        """True for the group of properties shared by every rule set of the game."""
        return self.name == SHARED


@dataclass(frozen=True)
class Skipped:
    """A property that does not apply to a rule set, with the reason."""

    name: str
    reason: str


@dataclass(frozen=True)
class RuleSetResult:
    """What the suite found for one rule set."""

    rule_set: RuleSet
    profile: str
    results: tuple[CheckResult, ...]
    skipped: tuple[Skipped, ...] = field(default=())

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        """The properties that failed."""
        return tuple(r for r in self.results if not r.passed)

    @property
    def games(self) -> int:
        """Games played for this rule set (all properties together)."""
        return sum(r.games for r in self.results)

    @property
    def steps(self) -> int:
        """Transitions taken for this rule set (all properties together)."""
        return sum(r.steps for r in self.results)


def _dracula_readings() -> list[tuple[str, str]]:
    """Every non-default value of every Dracula rule option that the ambiguity register ties to
    a reading (``first_player`` is the rulebook's own choice, not a reading)."""
    from ruleproof.model.dracula.rules import DraculaRules, option_choices

    default = DraculaRules()
    out: list[tuple[str, str]] = []
    for f in fields(DraculaRules):
        if f.name == "first_player":
            continue
        for value in option_choices(f.name):
            if value != _text(getattr(default, f.name)):
                out.append((f.name, value))
    return out


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_sets(game: str | None = None, preset: str | None = None,
              expansion: str | None = None, players: Sequence[int] = (),
              options: Sequence[tuple[str, str]] = ()) -> list[RuleSet]:
    """The rule sets a ``check`` covers; with no argument, every shipped one of every game.

    ``game``, ``preset``, ``expansion``, ``players`` and ``options`` narrow the selection: a
    preset or expansion selects only Dawn Under rule sets; ``players=[2]`` selects the 2-player
    rules; options apply to the selected Dawn Under presets (default ``du-en`` when given without
    a preset). The shared group of each selected game comes last for that game.

    Raises:
        MalformedInput: unknown game, preset or expansion; a player count no selected preset
            covers; Dawn Under arguments given for Dracula.
    """
    from ruleproof.model.dawn_under.config import make_config, presets

    if game is not None and game not in GAMES:
        raise MalformedInput(f"unknown game {game!r}; known games: {', '.join(GAMES)}")
    chosen_expansion = {v for k, v in options if k == "expansion"}
    if chosen_expansion:  # --option expansion=... is the same choice as --expansion
        given = {expansion or "none"} if expansion is not None else set()
        if len(chosen_expansion | given) > 1:
            raise MalformedInput("the expansion is chosen twice with different values: "
                                 f"{', '.join(sorted(chosen_expansion | given))}")
        value = chosen_expansion.pop()
        expansion = None if value == "none" else value
        options = tuple((k, v) for k, v in options if k != "expansion")
    if expansion not in (None, "gruft"):
        raise MalformedInput(f"unknown expansion {expansion!r}; known: gruft")
    known = presets()
    if preset is not None and preset not in known:
        raise MalformedInput(f"unknown preset {preset!r}; known: {', '.join(known)}")
    du_args = preset is not None or expansion is not None or bool(options)
    if game == "dracula" and (du_args or players):
        raise MalformedInput("dracula is a 2-player game on a fixed board and its checks cover "
                             "every registered reading; drop --players/--option/--board/--preset/"
                             "--expansion")
    games = [game] if game else (["dawn-under"] if du_args or players else list(GAMES))
    out: list[RuleSet] = []
    if "dawn-under" in games:
        everything = preset is None and expansion is None and not players and not options
        if preset is not None:
            chosen = [preset]
        elif players and set(players) == {2}:
            chosen = ["2p"]
        elif players or options:
            chosen = ["du-en"]
        else:
            chosen = [p for p in known if expansion is None or min(known[p].players) >= 3]
        for p in chosen:
            covered = tuple(known[p].players)
            counts = tuple(players) or covered
            for n in counts:
                make_config(n, preset=p)  # a player count the preset does not cover: one line
            extra = tuple(options)
            if expansion is None:
                out.append(RuleSet("dawn-under", _label(p, extra), p, extra, counts))
            if (expansion is not None or everything) and min(covered) >= 3:
                out.append(RuleSet("dawn-under", _label(p, extra) + " + gruft", p,
                                   (*extra, ("expansion", "gruft")), counts))
        if expansion is not None and not out:
            raise MalformedInput("the expansion is for 3-6 players; the 2-player rules have none")
        out.append(RuleSet("dawn-under", SHARED))
    if "dracula" in games:
        out.append(RuleSet("dracula", "default rules"))
        out += [RuleSet("dracula", f"{k}={v}", options=((k, v),), small=True)
                for k, v in _dracula_readings()]
        out.append(RuleSet("dracula", SHARED))
    return out


def _label(preset: str, options: Sequence[tuple[str, str]]) -> str:
    return preset + "".join(f", {k}={v}" for k, v in options)


# --- the properties of one rule set ---------------------------------------------------------

def _symbolic(game: str, preset: str, players: int) -> Check:
    from ruleproof.properties.symbolic.prove import run_task, summary

    def run(profile: Profile) -> tuple[bool, int, str]:
        outcomes = run_task((game, preset, players), profile)
        ok, text = summary(outcomes)
        return ok, len(outcomes), text

    where = f", {players} players" if game == "dawn-under" else ""
    return Check(f"symbolic layer (z3): conservation by induction, endings, drift{where}", "z3",
                 run)


def _interface(rule_set: RuleSet) -> Check:
    """The one game interface (ids, chance odds, returns, tensors) for the rule set."""
    from ruleproof.model.registry import make_game
    from ruleproof.properties.interface import api_test

    def run(profile: Profile) -> tuple[bool, int, str, int, int]:
        games = max(2, profile.games // 4)
        opts = {k: v for k, v in rule_set.options if k != "expansion"}
        expansion = dict(rule_set.options).get("expansion")
        total = [0, 0, 0]
        details = []
        for n in rule_set.players or (2,):
            game = (make_game("dawn-under", players=n, preset=rule_set.preset, options=opts,
                              expansion=expansion) if rule_set.game == "dawn-under"
                    else make_game("dracula", options=opts))
            ok, checked, detail, played, decisions = api_test(game, games)
            total = [total[0] + checked, total[1] + played, total[2] + decisions]
            details.append(detail)
            if not ok:
                return False, total[0], detail, total[1], total[2]
        return True, total[0], "\n".join(details), total[1], total[2]

    return Check("the game interface keeps its obligations (ids, chance odds, returns, tensors)",
                 "replay", run, ())


def plan(rule_set: RuleSet, board: Path | None = None) -> tuple[list[Check], list[Skipped]]:
    """The properties of a rule set, and those that do not apply to it with the reason.

    Raises:
        MalformedInput: a bad option value or board file.
    """
    from ruleproof.properties.symbolic.dawn_under import CONFIGS

    if rule_set.game == "dawn-under":
        from ruleproof.properties.dawn_under import checks as du_checks
        from ruleproof.spec.boards import load_board

        loaded = load_board(board) if board else None
        if rule_set.shared:
            from ruleproof.properties.contracts.checks import suite_checks  # endless, recall

            return [*du_checks.shared_checks(loaded),
                    *suite_checks("dawn-under", "", (), (), True)], []
        from ruleproof.model.dawn_under.config import parse_options, preset_options

        opts = parse_options(dict(rule_set.options), base=preset_options(rule_set.preset))
        out = du_checks.rule_set_checks(rule_set.players, opts, loaded, rule_set.preset)
        skipped: list[Skipped] = []
        if board is None:
            out.append(_interface(rule_set))
        else:
            skipped.append(Skipped("the game interface", "its games use the shipped board"))
        symbolic = [(p, n) for p, n in CONFIGS if p == rule_set.preset and n in rule_set.players]
        if opts.expansion != "none":
            skipped.append(Skipped("symbolic layer (z3)", "its counts abstraction models the "
                                   "base game only, not the expansion's bats and Count"))
        elif rule_set.options or board is not None:
            skipped.append(Skipped("symbolic layer (z3)", "its abstraction is built for the "
                                   "shipped presets and board; run `ruleproof prove`"))
        else:
            out += [_symbolic("dawn-under", p, n) for p, n in symbolic]
        from ruleproof.properties.contracts.checks import suite_checks  # clause contracts

        out += suite_checks("dawn-under", rule_set.preset, rule_set.options,
                            rule_set.players or presets_players(rule_set.preset), False)
        return out, skipped
    from ruleproof.model.dracula.rules import rules_from_mapping
    from ruleproof.properties.contracts.checks import suite_checks  # clause contracts
    from ruleproof.properties.dracula.checks import reading_checks
    from ruleproof.properties.dracula.checks import shared_checks as dracula_shared

    if rule_set.shared:
        return [*dracula_shared(), *suite_checks("dracula", "", (), (), True)], []
    rules = rules_from_mapping(dict(rule_set.options))
    out = [*reading_checks(rules), _interface(rule_set),
           *suite_checks("dracula", "", rule_set.options, (), False)]
    if not rule_set.options:
        return [*out, _symbolic("dracula", "", 2)], []
    return out, [Skipped("symbolic layer (z3)", "its relations encode the default reading")]


def presets_players(preset: str) -> tuple[int, ...]:
    """The player counts a Dawn Under preset covers."""
    from ruleproof.model.dawn_under.config import presets

    return tuple(presets()[preset].players)


def _profile(rule_set: RuleSet, profile: Profile) -> Profile:
    """The profile a rule set runs in: the small rule sets (non-default Dracula readings) in
    whichever of ``ci`` and the asked profile plays fewer games, unless thorough."""
    if rule_set.small and profile.name != "thorough":
        return min((PROFILES["ci"], profile), key=lambda p: (p.games, p.max_steps))
    return profile


def _run_unit(rule_set: RuleSet, name: str, profile: Profile, board: Path | None
              ) -> CheckResult:
    checks, _ = plan(rule_set, board)
    check = next(c for c in checks if c.name == name)
    try:
        return check(_profile(rule_set, profile))
    except MalformedInput:
        raise
    except Exception as exc:  # the model crashed inside a property: a failure, not a traceback
        return CheckResult(check.name, check.method, 0, False, 0.0,
                           f"the check raised {type(exc).__name__}: {exc}", check.clauses)


@dataclass(frozen=True)
class _Unit:
    """One property of one rule set, as a picklable callable for Ray workers."""

    units: tuple[tuple[RuleSet, str], ...]
    profile: Profile
    board: Path | None

    def __call__(self, index: int) -> CheckResult:
        rule_set, name = self.units[index]
        return _run_unit(rule_set, name, self.profile, self.board)


_COST = {"hypothesis": 0, "z3": 1, "sampled": 2, "replay": 3, "scenario": 4, "static": 5}


def run_suite(selected: Sequence[RuleSet], profile: Profile, jobs: int | None = None,
              board: Path | None = None,
              progress: Callable[[str], None] | None = None,
              methods: Sequence[str] = (), ray: bool = False,
              ray_address: str | None = None) -> list[RuleSetResult]:
    """Run every property of every selected rule set in ``jobs`` processes (default: the
    number of CPUs; 1 runs in this process). ``progress`` is called with each finished
    property's name. ``methods`` (e.g. ``("hypothesis",)``) keeps only properties checked by
    those methods; the others are reported as skipped. With ``ray`` (a local Ray of ``jobs``
    workers) or ``ray_address`` (a running cluster) the properties run as Ray tasks instead of
    local processes; every property is seeded, so the results equal a local run's.

    Raises:
        MalformedInput: a bad option value or board file (found before any work starts).
    """
    plans = [plan(rs, board) for rs in selected]
    if methods:
        plans = [([c for c in checks if c.method in methods],
                  [*skipped, *(Skipped(c.name, f"not a {'/'.join(methods)} property (selected)")
                               for c in checks if c.method not in methods)])
                 for checks, skipped in plans]
    units = [(i, j) for i, (checks, _) in enumerate(plans) for j in range(len(checks))]
    # the expensive kinds first, so two workers finish together
    units.sort(key=lambda u: (_COST.get(plans[u[0]][0][u[1]].method, 9), u))
    jobs = max(1, min(jobs or os.cpu_count() or 1, 64, len(units) or 1))
    done: dict[tuple[int, int], CheckResult] = {}
    if ray or ray_address:
        from ruleproof.properties.explore.distributed import fan_out

        unit = _Unit(tuple((selected[i], plans[i][0][j].name) for i, j in units), profile,
                     board)
        for (i, j), result in zip(units, fan_out(range(len(units)), unit, workers=max(2, jobs),
                                                 address=ray_address), strict=True):
            done[(i, j)] = result
            if progress:
                progress(f"{selected[i].game} {selected[i].name}: {result.name}")
    elif jobs == 1:
        for i, j in units:
            done[(i, j)] = _run_unit(selected[i], plans[i][0][j].name, profile, board)
            if progress:
                progress(f"{selected[i].game} {selected[i].name}: {done[(i, j)].name}")
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {u: pool.submit(_run_unit, selected[u[0]], plans[u[0]][0][u[1]].name,
                                      profile, board) for u in units}
            for u, fut in futures.items():
                done[u] = fut.result()
                if progress:
                    progress(f"{selected[u[0]].game} {selected[u[0]].name}: {done[u].name}")
    return [RuleSetResult(rs, _profile(rs, profile).name,
                          tuple(done[(i, j)] for j in range(len(plans[i][0]))),
                          tuple(plans[i][1]))
            for i, rs in enumerate(selected)]
