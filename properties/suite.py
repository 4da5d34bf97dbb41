"""The whole verification suite, organised by game and rule set (``ruleproof check``).

A *rule set* is a game under one reading of its sources (:class:`~ruleproof.properties.plugin.
RuleSet`); each registered game's plugin lists its rule sets and its own properties of each
(random games with every invariant, hidden information, illegal actions, z3 facts); the suite
adds the generic ones from the game's capabilities (:func:`generic_checks`: the game interface,
the symbolic layer, the clause contracts, endless games, perfect recall). The properties that do
not depend on the rules (board and data, citations, the shipped scenarios, which carry their own
rule sets) run once per game, in a group of their own (:data:`SHARED`).

Units of work (one property of one rule set) run in ``jobs`` worker processes; each worker
rebuilds its property from the rule set, so nothing unpicklable crosses a process boundary.
Results are returned in a fixed order whatever the scheduling.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import RuleSet, Selection, all_rule_sets, plugin
from ruleproof.properties.report import PROFILES, Check, CheckResult, Profile
from ruleproof.properties.reproducible import reraise_interrupt


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


def skipped_lines(results: Sequence[RuleSetResult]) -> list[str]:
    """The skipped properties of ``results``, one line per game, property and reason: the
    rule sets skipped for the same reason are named together, in the order they ran, or as
    ``every rule set`` when they are all of the game's (its shared group apart) and more
    than one.

    >>> from ruleproof.properties.plugin import RuleSet
    >>> def r(name: str, why: str) -> RuleSetResult:
    ...     return RuleSetResult(RuleSet("g", name), "default", (),
    ...                          (Skipped("z3 layer", why),))
    >>> for line in skipped_lines([r("a", "no model"), r("b", "no model"), r("c", "other")]):
    ...     print(line)
    skipped for g a, b: z3 layer: no model
    skipped for g c: z3 layer: other
    >>> skipped_lines([r("a", "none"), r("b", "none")])
    ['skipped for g (every rule set): z3 layer: none']
    """
    played: dict[str, list[str]] = {}
    for rs in results:
        if not rs.rule_set.shared:
            played.setdefault(rs.rule_set.game, []).append(rs.rule_set.name)
    groups: dict[tuple[str, str, str], list[str]] = {}
    for rs in results:
        for sk in rs.skipped:
            groups.setdefault((rs.rule_set.game, sk.name, sk.reason), []).append(
                rs.rule_set.name)
    return [f"skipped for {game} "
            + ("(every rule set)" if len(names) > 1 and names == played.get(game)
               else ", ".join(names))
            + f": {name}: {reason}"
            for (game, name, reason), names in groups.items()]


def rule_sets(game: str | None = None, preset: str | None = None,
              expansion: str | None = None, players: Sequence[int] = (),
              options: Sequence[tuple[str, str]] = ()) -> list[RuleSet]:
    """The rule sets a ``check`` covers; with no argument, every rule set of every registered
    game (each game's plugin lists its own, its shared group last).

    ``game``, ``preset``, ``expansion``, ``players`` and ``options`` narrow the selection; with
    no game named, the games that can take the selection are checked (a preset or an
    expansion names one game's rule sets).

    Raises:
        MalformedInput: unknown game, preset or expansion; a selection no game takes.
    """
    return all_rule_sets(game, Selection(preset, expansion, tuple(players), tuple(options)))


# --- the properties of one rule set ---------------------------------------------------------

def interface_check(rule_set: RuleSet) -> Check:
    """The one game interface (ids, chance odds, returns, tensors) for the rule set."""
    from ruleproof.properties.interface import api_test
    from ruleproof.properties.plugin import make_game

    def run(profile: Profile) -> tuple[bool, int, str, int, int]:
        games = max(2, profile.games // 4)
        total = [0, 0, 0]
        details = []
        for n in rule_set.players or (2,):
            game = make_game(rule_set.game, **rule_set.game_params(n))
            ok, checked, detail, played, decisions = api_test(game, games)
            total = [total[0] + checked, total[1] + played, total[2] + decisions]
            details.append(detail)
            if not ok:
                return False, total[0], detail, total[1], total[2]
        return True, total[0], "\n".join(details), total[1], total[2]

    return Check("the game interface keeps its obligations (ids, chance odds, returns, tensors)",
                 "replay", run, ())


def generic_checks(rule_set: RuleSet, board: Path | None = None
                   ) -> tuple[list[Check], list[Skipped]]:
    """The properties every game gets from its plugin's capabilities, written once here: for a
    rule set, the game interface (skipped with ``--board``: its games use the shipped board),
    the symbolic layer where the game's ``"symbolic"`` capability applies to the rule set (else
    skipped with its reason), and refinement against the clause contracts of the rule set's
    sources (capability ``"contracts"``); in the shared group, the endless-games search and
    perfect recall on the rule set the game's contracts name (each skipped with the reason
    where the game's contracts capability lacks what it needs).

    Raises:
        MalformedInput: an unknown game.
    """
    from ruleproof.properties.contracts.checks import refinement_checks, shared_plan
    from ruleproof.properties.symbolic.prove import symbolic_check, symbolic_of

    p = plugin(rule_set.game)
    if rule_set.shared:
        shared, absent = shared_plan(p.name)
        return [*data_checks(rule_set.game), *shared], [Skipped(*x) for x in absent]
    out: list[Check] = []
    skipped: list[Skipped] = []
    if board is None:
        out.append(interface_check(rule_set))
    else:
        skipped.append(Skipped("the game interface", "its games use the shipped board"))
    symbolic = symbolic_of(p)
    if symbolic is None:
        skipped.append(Skipped("symbolic layer (z3)", f"{p.name} has no symbolic capability"))
    else:
        units, reason = symbolic.applies(rule_set, board)
        out += [symbolic_check(p.name, pr, n, where) for pr, n, where in units]
        if not units and reason:
            skipped.append(Skipped("symbolic layer (z3)", reason))
    out += refinement_checks(rule_set)
    return out, skipped


def data_checks(game: str) -> list[Check]:
    """The properties of a game's data and citations, for every game with source documents
    (run in its shared group): its data folder is valid (``game.toml``, every source
    registry, ``presets.toml``: ``ruleproof.spec.check_game_folder``), and every clause id of
    its documents cited in its code (its folders, :func:`ruleproof.properties.citations.
    game_folders`) is registered."""
    from ruleproof.properties.citations import game_folders
    from ruleproof.spec import check_game_folder, clause_id_pattern, clause_registry

    p = plugin(game)
    if not p.sources:
        return []

    def data(_profile: Profile) -> tuple[bool, int, str]:
        try:
            found = check_game_folder(Path(p.spec_folder), p.name, p.game_type.players)
        except MalformedInput as err:
            return False, 1, err.one_line()
        return True, 1 + len(found.sources), (f"game.toml and {len(found.sources)} source "
                                              "registries read and match the plugin")

    def cited(_profile: Profile) -> tuple[bool, int, str]:
        pattern = clause_id_pattern(p.sources)
        registered = {c.id for d in p.sources for c in clause_registry(d)}
        files = [f for folder in game_folders(p) for f in sorted(folder.rglob("*.py"))]
        unknown: dict[str, str] = {}
        count = 0
        for path in files:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in pattern.finditer(line):
                    count += 1
                    if match.group(0) not in registered:
                        unknown.setdefault(match.group(0), f"{path}:{number}")
        if unknown:
            return False, count, "unknown cited ids: " + ", ".join(
                f"{cid} ({where})" for cid, where in sorted(unknown.items()))
        return True, count, (f"{count} citations in {len(files)} files, every id registered "
                             f"({len(registered)} clauses)")

    return [Check("the game's data folder is valid", "static", data),
            Check("every clause id its own code cites is registered", "static", cited)]


def plan(rule_set: RuleSet, board: Path | None = None) -> tuple[list[Check], list[Skipped]]:
    """The properties of a rule set: the game's own (its plugin's ``checks``) and the generic
    ones (:func:`generic_checks`), and those that do not apply to it with the reason.

    Raises:
        MalformedInput: a bad option value or board file; an unknown game.
    """
    p = plugin(rule_set.game)
    if p.checks is None:
        checks: list[Check] = []
        skipped: list[Skipped] = [Skipped("the game's own properties",
                                          f"{p.name}'s plugin gives none")]
    else:
        own, not_applied = p.checks(rule_set, board)
        checks, skipped = list(own), list(not_applied)
    more, more_skipped = generic_checks(rule_set, board)
    if not rule_set.shared and not any(c.method == "hypothesis" for c in checks):
        found = machine_check(rule_set)  # the game gives no hypothesis property of its own
        if found is None:
            more_skipped.append(Skipped("every invariant after every step (hypothesis machine)",
                                        f"{p.name} has no invariants capability"))
        else:
            more.append(found)
    every = [*checks, *more]
    if not every:  # a rule set no property checks must not pass on zero work
        every.append(Check("at least one property checks this rule set", "static",
                           lambda _profile: (False, 0, f"{p.name} {rule_set.name}: no property "
                                             "applies (the game's plugin gives none and has no "
                                             "capability a generic property needs)")))
    return every, [*skipped, *more_skipped]


def machine_check(rule_set: RuleSet) -> Check | None:
    """The generic hypothesis machine (:mod:`ruleproof.properties.machine`) on ``rule_set``,
    one run per player count, for a game with the ``"invariants"`` capability whose own checks
    give no hypothesis property (None without the capability)."""
    from ruleproof.properties.machine import run_machine
    from ruleproof.properties.report import Tally

    p = plugin(rule_set.game)
    if p.capability("invariants") is None:
        return None

    def run(profile: Profile) -> tuple[bool, int, str, int, int]:
        tally = Tally()
        for n in rule_set.players or p.game_type.players[:1]:
            ok, detail = run_machine(p.name, rule_set.game_params(n), profile.games,
                                     profile.max_steps, tally=tally)
            if not ok:
                return False, tally.games, detail, tally.games, tally.steps
        return True, tally.games, (f"{tally.games} games ({tally.finished} to an ending), "
                                   f"{tally.steps} steps, every invariant held after every "
                                   "step"), tally.games, tally.steps

    return Check("every invariant after every step (hypothesis machine)", "hypothesis", run)


def _profile(rule_set: RuleSet, profile: Profile) -> Profile:
    """The profile a rule set runs in: the small rule sets (a game's readings marked small) in
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
        reraise_interrupt(exc)  # a signal that hypothesis turned into an error is no failure
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
              ray_address: str | None = None,
              on_total: Callable[[int], None] | None = None) -> list[RuleSetResult]:
    """Run every property of every selected rule set in ``jobs`` processes (default: the number of
    CPUs; 1 runs in this process). ``progress`` is called with each finished property's name;
    ``on_total`` once, before any runs, with how many properties will run. ``methods`` (e.g.
    ``("hypothesis",)``) keeps only properties checked by those methods; the others are reported as
    skipped. With ``ray`` (a local Ray of ``jobs`` workers) or ``ray_address`` (a running cluster)
    the properties run as Ray tasks instead of local processes; every property is seeded, so the
    results equal a local run's.

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
    if on_total is not None:
        on_total(len(units))
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
