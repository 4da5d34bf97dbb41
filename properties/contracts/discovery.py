"""Underdetermination discovery: what the contracts leave open, on reachable states.

Written once over the game interface and the plugin record; a game takes part through the
capability ``"discovery"`` of its plugin (a :class:`DiscoveryGame`), which says what is really
its own: the systematic action space, how a situation is named, the perturbations of a
successor, how its ambiguity register explains a finding, the comparison of its translations.
The searches, over states of seeded random play (:func:`walk`, through
:mod:`ruleproof.model.api`, chance settled by the game's contracts capability):

* **legality gaps** -- over the game's systematic action space, actions the engine refuses that
  no contract forbids, and actions it allows that no contract permits;
* **effect perturbations** -- the game's changes of the engine's successor (who moves next,
  whether the turn ends, counts +-1...) that still satisfy every contract;
* **translation differential** -- two source texts' contracts compared on the same states (the
  game's ``translation``);
* **cycles** -- a reachable loop per rule set (properties/endless.py);
* **symbolic** -- the game's z3 queries on an abstraction.

Each finding has a key (what kind of question it is), the clause ids in play and a minimal
witness (seed, the actions before it, the action), and is *explained* when a register entry's
other reading changes the engine exactly there (the game's ``explain``), or when the game's
discovered register (``discovered.toml`` in its data folder) lists its key.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ruleproof.model.api import GameBase
from ruleproof.properties.contracts.core import ContractSet, broken, forbidding, permitting
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set, settle
from ruleproof.properties.plugin import GamePlugin, plugin, plugins

CAPABILITY = "discovery"
"""The name of the capability in a game's plugin record."""


@dataclass(frozen=True)
class Finding:
    """One thing the contracts leave open.

    Attributes:
        kind: ``refused-unforbidden``, ``allowed-unpermitted``, ``effect``, ``translation``,
            ``symbolic``, ``cycle``, or the kind a search of :data:`SEARCH_KINDS` gives.
        key: what is open, independent of the witness (dedupe key: fine enough that one
            question has one key, and a register entry listing it explains only that question).
        rule_set: the rule set it was found under.
        clauses: clause ids in play.
        seed, prefix, action: the witness (actions as text).
        detail: a readable description of the two readings.
        explained_by: register entry id that covers it ('' if new).
        fields: the state fields the readings differ in (effect findings).
        question: the question in plain words (what a reader of the text would ask).
        readings: the engine's reading first, then the other(s) that the contracts allow.
        source: the source document whose contracts leave it open ('' when several do).
        search: the search (:data:`SEARCH_KINDS`) that found it.
    """

    kind: str
    key: str
    rule_set: str
    clauses: tuple[str, ...]
    seed: int
    prefix: tuple[str, ...]
    action: str
    detail: str
    explained_by: str = ""
    fields: tuple[str, ...] = ()
    question: str = ""
    readings: tuple[str, ...] = ()
    source: str = ""
    search: str = ""

    def with_explanation(self, entry: str) -> Finding:
        return replace(self, explained_by=entry)


@dataclass(frozen=True)
class Budget:
    """How much to search (profiles ci, default, thorough)."""

    games: int
    max_steps: int
    stride: int  # sample every stride-th state of a game for the legality space
    seconds: float


BUDGETS = {
    "ci": Budget(games=4, max_steps=250, stride=3, seconds=100.0),
    "default": Budget(games=12, max_steps=600, stride=2, seconds=400.0),
    "thorough": Budget(games=60, max_steps=1500, stride=1, seconds=3000.0),
}




# ----------------------------------------------------------------------------- the game's part


Perturbation = tuple[str, Any, tuple[str, ...]]
"""(name, perturbed successor, fields changed)."""


class DiscoveryGame(Protocol):
    """What discovery needs of a game beyond the interface (capability ``"discovery"``).
    States are the game's engine states (``GameState.model``).

    Attributes:
        default_rule_sets: the contract rule sets searched when none are named.
    """

    @property
    def default_rule_sets(self) -> tuple[str, ...]: ...

    def questions(self, state: Any) -> Sequence[Any]:
        """The systematic action space at ``state``: candidate actions of the kind of decision
        the state asks for, whether legal or not, in a fixed order."""
        ...

    def situation(self, state: Any) -> str:
        """A coarse name of where ``state`` is, for finding keys (``open/plague``)."""
        ...

    def target(self, state: Any, action: Any) -> str:
        """What the action is aimed at, for finding keys (``" into another grave"``; '')."""
        ...

    def why_illegal(self, state: Any, action: Any) -> tuple[str, ...]:
        """The clause ids the engine names when it refuses ``action`` (() if none)."""
        ...

    def perturbations(self, state: Any, action: Any, nxt: Any) -> Iterable[Perturbation]:
        """Alternatives to the successor ``nxt`` of ``state --action-->``, each named, with
        the fields it changes."""
        ...

    def explain(self, rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
        """``findings`` (in order), each marked with the ambiguity register entry whose other
        reading, replayed on the witness, changes the engine there ('' if none)."""
        ...

    def translation(self, players: int, budget: Budget, deadline: float | None = None
                    ) -> list[Finding]:
        """The contracts of the game's translations compared on the same states (explained);
        [] for a game with one text."""
        ...

    def cycle_key(self, rs: RuleSet) -> tuple[str, tuple[str, ...]]:
        """The finding key of a loop under ``rs`` and the clause ids in play."""
        ...

    def symbolic(self) -> list[Finding]:
        """The findings of the game's symbolic (z3) queries (explained)."""
        ...

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        """A scenario file (the game's format) replaying the finding's witness.

        Raises:
            ValueError: the witness does not replay.
        """
        ...


def discovery_of(p: GamePlugin) -> DiscoveryGame | None:
    """The discovery capability of a game (None if it has none)."""
    found: DiscoveryGame | None = p.capability(CAPABILITY)
    return found


def _game_discovery(game: str) -> DiscoveryGame:
    from ruleproof.properties.plugin import require

    found: DiscoveryGame = require(plugin(game), CAPABILITY, "discovery")
    return found


# ----------------------------------------------------------------------------- sampling


@dataclass(frozen=True)
class Step:
    """One transition of random play: seed, actions before it, engine states before and after
    (the successor before chance is settled), and the action."""

    seed: int
    prefix: tuple[Any, ...]
    state: Any
    action: Any
    nxt: Any


def walk(rs: RuleSet, games: int, max_steps: int, seed: int = 0,
         game: GameBase[Any] | None = None) -> Iterator[Step]:
    """Transitions of ``games`` random games of ``rs`` (game ``seed + g`` dealt from that seed,
    its choices drawn by ``random.Random(1000 + seed + g)`` among the legal actions in the
    engine's order); ``game`` replaces ``rs``'s game (teeth tests)."""
    game = game or game_of(rs)
    for g in range(games):
        rng = random.Random(1_000 + seed + g)
        state = settle(rs, game.new_seeded_state(seed + g))
        prefix: list[Any] = []
        for _ in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            if not legal:
                break
            action = legal[rng.randrange(len(legal))]
            nxt = state.apply_typed(action)
            yield Step(seed + g, tuple(prefix), state.model, action, nxt.model)
            prefix.append(action)
            state = settle(rs, nxt)


def kind_of(action: Any) -> str:
    """The kind of an action in finding keys: its type's name."""
    return type(action).__name__


# ----------------------------------------------------------------------------- legality


def legality_gaps(rs: RuleSet, budget: Budget, sets: Sequence[ContractSet] | None = None,
                  game: GameBase[Any] | None = None, deadline: float | None = None
                  ) -> list[Finding]:
    """Actions the engine refuses that no contract forbids, and actions it allows that no
    contract permits (first witness per key); ``sets`` replace the rule set's contracts and
    ``game`` its game (teeth tests)."""
    cap = _game_discovery(rs.game)
    game = game or game_of(rs)
    found: dict[str, Finding] = {}
    for i, st in enumerate(walk(rs, budget.games, budget.max_steps, game=game)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        if i % budget.stride:
            continue
        s = st.state
        contracts = rs.contracts(s, sets)
        legal = set(game.model_legal(s))
        for a in cap.questions(s):
            if rs.alias(s, a):
                continue
            allowed = a in legal
            forb = forbidding(contracts, s, a)
            if not allowed and not forb:
                key = (f"refused-unforbidden {kind_of(a)}{cap.target(s, a)} at "
                       f"{cap.situation(s)}")
                if key not in found:
                    clauses = cap.why_illegal(s, a)
                    found[key] = Finding("refused-unforbidden", key, rs.name, tuple(clauses),
                                         st.seed, tuple(map(str, st.prefix)), str(a),
                                         f"the engine refuses '{a}' (citing "
                                         f"{', '.join(clauses) or 'nothing'}); no contract "
                                         "forbids it")
            elif allowed and not permitting(contracts, s, a):
                key = (f"allowed-unpermitted {kind_of(a)}{cap.target(s, a)} at "
                       f"{cap.situation(s)}")
                if key not in found:
                    nxt = game.model_step(s, a)[0]
                    spoke = tuple(sorted({c.clause for c in contracts if c.requires is not None
                                          and c.requires(s, a, nxt) is not None}))
                    found[key] = Finding("allowed-unpermitted", key, rs.name, spoke, st.seed,
                                         tuple(map(str, st.prefix)), str(a),
                                         f"the engine allows '{a}'; no contract permits it")
    return list(found.values())


# ----------------------------------------------------------------------------- effects


def effect_gaps(rs: RuleSet, budget: Budget, sets: Sequence[ContractSet] | None = None,
                game: GameBase[Any] | None = None, deadline: float | None = None
                ) -> list[Finding]:
    """Perturbed successors that still satisfy every contract (first witness per key)."""
    cap = _game_discovery(rs.game)
    found: dict[str, Finding] = {}
    for st in walk(rs, budget.games, budget.max_steps, game=game):
        if deadline is not None and time.perf_counter() > deadline:
            break
        s, a, t = st.state, st.action, st.nxt
        contracts = rs.contracts(s, sets)
        for name, alt, fields in cap.perturbations(s, a, t):
            if alt == t:
                continue
            key = f"effect '{name}' after {kind_of(a)} at {cap.situation(s)}"
            if key in found:
                continue
            if broken(contracts, s, a, alt):
                continue
            spoke = tuple(sorted({c.clause for c in contracts if c.requires is not None
                                  and c.requires(s, a, t) is not None}))
            found[key] = Finding("effect", key, rs.name, spoke, st.seed,
                                 tuple(map(str, st.prefix)), str(a),
                                 f"'{name}' ({', '.join(fields)}) differs from the engine's "
                                 "successor and still meets every contract", "", fields)
    return list(found.values())


# ----------------------------------------------------------------------------- explanation


@dataclass(frozen=True)
class Accepted:
    """An accepted finding of a game's discovered register (``discovered.toml``)."""

    id: str
    title: str
    clauses: tuple[str, ...]
    question: str
    keys: tuple[str, ...]
    witnesses: tuple[str, ...]
    readings: tuple[tuple[str, str], ...]
    option: str | None = None


def load_discovered(path: Path | None = None, game: str | None = None) -> tuple[Accepted, ...]:
    """Load and validate a discovered register: ``path``, or the file ``discovered.toml`` of
    ``game``'s data folder (default: the first registered game with discovery); an option must
    be one of the game's rule options.

    Raises:
        MalformedInput: naming file and line: unknown clause, missing witness file, fewer than
            two readings, an unknown option, a duplicate id or key.
    """
    from ruleproof.errors import MalformedInput
    from ruleproof.spec import _read_toml, all_clause_ids, spec_path, table_lines

    p = plugin(game) if game is not None else next(
        q for q in plugins().values() if discovery_of(q) is not None)
    path = path or p.spec_folder / "discovered.toml"
    if not path.is_file():
        return ()
    data, text = _read_toml(path)
    lines = table_lines(text, "finding")
    known = all_clause_ids()
    options = p.option_values()
    out: list[Accepted] = []
    ids: set[str] = set()
    keys: set[str] = set()
    for i, e in enumerate(data.get("finding", [])):
        line = lines[i] if i < len(lines) else None

        def fail(what: str, eid: object = e.get("id"), line: int | None = line
                 ) -> MalformedInput:
            return MalformedInput(f"finding {eid}: {what}", file=str(path), line=line)

        eid = e.get("id")
        if not isinstance(eid, str) or eid in ids:
            raise fail("missing or duplicate id")
        ids.add(eid)
        for c in e.get("clauses", []):
            if c not in known:
                raise fail(f"unknown clause {c}")
        witnesses = (e.get("witness"), *e.get("witnesses", []))
        for w in witnesses:
            if not isinstance(w, str) or not spec_path(*w.split("/")).is_file():
                raise fail(f"witness file {w} is missing")
        readings = tuple((str(r["value"]), str(r.get("summary", "")))
                         for r in e.get("reading", []))
        if len(readings) < 2:
            raise fail("needs at least two readings")
        option = e.get("option")
        if option is not None and option not in options:
            raise fail(f"unknown option {option}")
        for k in e.get("keys", []):
            if k in keys:
                raise fail(f"key {k!r} is listed twice")
            keys.add(str(k))
        out.append(Accepted(eid, str(e.get("title", eid)), tuple(e.get("clauses", [])),
                            str(e.get("question", "")), tuple(map(str, e.get("keys", []))),
                            tuple(map(str, witnesses)), readings, option))
    return tuple(out)


def discovered_register(game: str | None = None) -> dict[str, Accepted]:
    """The accepted findings of ``game``'s discovered register by discovery key."""
    return {k: a for a in load_discovered(game=game) for k in a.keys}


def explain(rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
    """Mark each finding with what covers it: an accepted entry of the game's discovered
    register listing its key, else the ambiguity register entry the game finds for it
    (:meth:`DiscoveryGame.explain`)."""
    accepted = discovered_register(rs.game)
    known = [f.with_explanation(accepted[f.key].id) if f.key in accepted else f
             for f in findings]
    rest = iter(_game_discovery(rs.game).explain(rs, [f for f in known if not f.explained_by]))
    return [f if f.explained_by else next(rest) for f in known]


def cycle_findings(names: Sequence[str], accepted: dict[str, Accepted]) -> list[Finding]:
    """A reachable loop per rule set (search, properties/endless.py), as findings."""
    from ruleproof.properties.endless import find_cycle, replay_cycle

    out: list[Finding] = []
    for name in names:
        rs = rule_set(name)
        c = find_cycle(rs, games=2)
        if c is None or not replay_cycle(rs, c):
            continue
        key, clauses = _game_discovery(rs.game).cycle_key(rs)
        f = Finding("cycle", key, name, clauses, c.seed, c.prefix,
                    " ".join(c.loop), f"the loop {list(c.loop)} returns to the same state")
        out.append(f.with_explanation(accepted[key].id) if key in accepted else f)
    return out


# ----------------------------------------------------------------------------- all of it


@dataclass
class Report:
    """Everything discovery found, with timings.

    Attributes:
        findings: in the order of the searches (per rule set legality then effects, the
            translation differential, cycles per rule set, the symbolic search).
        seconds: wall-clock time.
        searched: rule set -> legality and effect findings before explanation.
        cut: the searches still running when the profile's time ran out (their findings
            depend on speed; without cuts a run on Ray equals a single process's).
        workers: searches run at a time (1: this process, no Ray).
        stats: figures the searches of :data:`SEARCH_KINDS` report (added up over units).
    """

    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    searched: dict[str, int] = field(default_factory=dict)
    cut: list[str] = field(default_factory=list)
    workers: int = 1
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def new(self) -> list[Finding]:
        return [f for f in self.findings if not f.explained_by]


KINDS = ("legality", "effect", "translation", "cycles", "symbolic")
"""The original discovery searches, in report order (the searches of :data:`SEARCH_KINDS`
follow them)."""


@dataclass(frozen=True)
class SearchKind:
    """A search for questions that the contracts leave open, run by :func:`discover` next to
    the original ones.

    Attributes:
        scope: ``rule_set`` (one unit per rule set searched) or ``game`` (one per game).
        reference: ``module:function``, imported on first use; the function takes
            ``(unit: Search, budget: Budget, deadline: float | None, context: SearchRun)`` and
            returns a :class:`SearchResult` (its findings explained or not: :func:`discover`
            explains the unexplained ones of a rule set).
        about: one line for reports.
    """

    scope: str
    reference: str
    about: str


SEARCH_KINDS: dict[str, SearchKind] = {}
"""More searches, by name, in report order after :data:`KINDS` (each a module of its own; a
search added here runs in every discovery)."""


@dataclass(frozen=True)
class SearchResult:
    """What a search of :data:`SEARCH_KINDS` returns: its findings, and figures for the report
    (e.g. ``{"adequacy": {"du-en": {"killed": 12, "survived": 3}}}``; nested dicts of numbers
    are added up over units)."""

    findings: list[Finding]
    stats: dict[str, Any] = field(default_factory=dict)


def all_kinds() -> tuple[str, ...]:
    """Every search kind, in report order."""
    return (*KINDS, *SEARCH_KINDS)


def _run_kind(name: str, unit: Search, budget: Budget, deadline: float | None,
              context: SearchRun) -> SearchResult:
    import importlib

    kind = SEARCH_KINDS[name]
    module, _, function = kind.reference.partition(":")
    run: Callable[..., SearchResult] = getattr(importlib.import_module(module), function)
    return run(unit, budget, deadline, context)


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    """Add ``more`` into ``into``: numbers add up, dicts merge, lists extend."""
    for k, v in more.items():
        if isinstance(v, dict):
            _merge(into.setdefault(k, {}), v)
        elif isinstance(v, list):
            into.setdefault(k, []).extend(v)
        elif isinstance(v, int | float) and isinstance(into.get(k), int | float):
            into[k] += v
        else:
            into[k] = v

TRANSLATION_PLAYERS = 4
"""The player count of the translation differential in a discovery run."""


def default_rule_sets() -> tuple[str, ...]:
    """The rule sets discovery searches unless told otherwise: every game's
    (:attr:`DiscoveryGame.default_rule_sets`), in registry order."""
    return tuple(n for p in plugins().values() if (cap := discovery_of(p)) is not None
                 for n in cap.default_rule_sets)


@dataclass(frozen=True)
class Search:
    """One independent discovery search: ``kind`` (of :data:`KINDS`) on ``rule_set`` (''
    for the game-wide searches, the translation differential and the symbolic search, of
    ``game``)."""

    kind: str
    rule_set: str = ""
    game: str = ""

    def describe(self) -> str:
        return f"{self.kind} {self.rule_set}".strip()


def searches(names: Sequence[str], kinds: Sequence[str]) -> list[Search]:
    """The searches of a discovery run, in report order (the game-wide ones once for each
    game of the named rule sets).

    Raises:
        KeyError: an unknown rule set name.
    """
    games = list(dict.fromkeys(rule_set(n).game for n in names))
    out = [Search(k, n) for n in names for k in ("legality", "effect") if k in kinds]
    if "translation" in kinds:
        out += [Search("translation", "", g) for g in games]
    if "cycles" in kinds:
        out += [Search("cycles", n) for n in names]
    if "symbolic" in kinds:
        out += [Search("symbolic", "", g) for g in games]
    for name, kind in SEARCH_KINDS.items():
        if name in kinds:
            out += ([Search(name, n) for n in names] if kind.scope == "rule_set"
                    else [Search(name, "", g) for g in games])
    return out


@dataclass(frozen=True)
class SearchRun:
    """Runs ``plan[i]`` under ``profile`` until the wall-clock deadline ``until`` (seconds
    since the epoch); a picklable callable for Ray workers. Returns the explained findings
    and whether the deadline passed before the search ended."""

    plan: tuple[Search, ...]
    profile: str
    until: float
    sets_for: Callable[[RuleSet], Sequence[ContractSet] | None] | None = None
    game_for: Callable[[RuleSet], GameBase[Any] | None] | None = None

    def __call__(self, index: int) -> tuple[list[Finding], bool]:
        found, _stats, cut = self.run(index)
        return found, cut

    def run(self, index: int) -> tuple[list[Finding], dict[str, Any], bool]:
        """Run unit ``index``: (findings, figures for the report, whether it was cut)."""
        unit = self.plan[index]
        budget = BUDGETS[self.profile]
        deadline = time.perf_counter() + (self.until - time.time())
        found: list[Finding]
        if unit.kind in SEARCH_KINDS:
            result = _run_kind(unit.kind, unit, budget, deadline, self)
            found = result.findings
            if unit.rule_set:
                rs = rule_set(unit.rule_set)
                done = [f for f in found if f.explained_by]
                found = [*done, *explain(rs, [f for f in found if not f.explained_by])]
            return found, result.stats, time.time() > self.until
        if unit.kind in ("legality", "effect"):
            rs = rule_set(unit.rule_set)
            sets = self.sets_for(rs) if self.sets_for else None
            game = self.game_for(rs) if self.game_for else None
            search = legality_gaps if unit.kind == "legality" else effect_gaps
            found = explain(rs, search(rs, budget, sets, game, deadline))
        elif unit.kind == "translation":
            found = _game_discovery(unit.game).translation(TRANSLATION_PLAYERS, budget,
                                                           deadline)
        elif unit.kind == "cycles":
            found = cycle_findings([unit.rule_set],
                                   accepted=discovered_register(rule_set(unit.rule_set).game))
        elif unit.kind == "symbolic":
            found = list(_game_discovery(unit.game).symbolic())
        else:
            raise ValueError(f"unknown discovery search {unit.kind!r}")
        return found, {}, time.time() > self.until and unit.kind in ("legality", "effect",
                                                                      "translation")


@dataclass(frozen=True)
class _WithStats:
    """A :class:`SearchRun` answering (findings, stats, cut), picklable for Ray workers."""

    run: SearchRun

    def __call__(self, index: int) -> tuple[list[Finding], dict[str, Any], bool]:
        return self.run.run(index)


def discover(profile: str = "ci", rule_sets: Sequence[str] | None = None,
             sets_for: Callable[[RuleSet], Sequence[ContractSet] | None] | None = None,
             game_for: Callable[[RuleSet], GameBase[Any] | None] | None = None,
             kinds: Sequence[str] | None = None, *, workers: int = 1,
             address: str | None = None,
             progress: Callable[[str], None] | None = None) -> Report:
    """Run every discovery search under ``profile`` (``ci``, ``default``, ``thorough``) on
    ``rule_sets`` (default: :func:`default_rule_sets`).

    ``sets_for``/``game_for`` replace the contracts or the game of a rule set (teeth
    tests: a weakened contract, a planted silent decision). With ``workers`` > 1 or an
    ``address`` the independent searches (:func:`searches`) run on Ray workers (a local Ray,
    or the cluster at ``address``); all share the profile's deadline, and the findings, in the
    same order, equal a single process's unless a search was cut (``Report.cut``).
    ``progress`` is called with each finished search's name.

    Raises:
        MalformedInput: Ray missing, or nothing listens at ``address``.
    """
    from ruleproof.properties.explore.distributed import fan_out_until

    start = time.perf_counter()
    names = list(rule_sets or default_rule_sets())
    plan = tuple(searches(names, kinds if kinds is not None else all_kinds()))
    run = SearchRun(plan, profile, time.time() + BUDGETS[profile].seconds, sets_for,
                    game_for)

    def done(index: int, result: tuple[list[Finding], dict[str, Any], bool]) -> None:
        if progress is not None:
            progress(plan[index].describe())

    results = fan_out_until(range(len(plan)), _WithStats(run), workers=workers,
                            address=address, done=done)
    report = Report(searched=dict.fromkeys(names, 0),
                    workers=workers if workers > 1 or address else 1)
    for index, (found, stats, cut) in results:
        unit = plan[index]
        report.findings += found
        _merge(report.stats, stats)
        if unit.kind in ("legality", "effect"):
            report.searched[unit.rule_set] = report.searched.get(unit.rule_set, 0) + len(found)
        if cut:
            report.cut.append(unit.describe())
    report.seconds = time.perf_counter() - start
    return report
