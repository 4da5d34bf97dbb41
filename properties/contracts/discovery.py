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
from ruleproof.properties.contracts.core import (
    Contract,
    ContractSet,
    broken,
    forbidding_some,
    permitting,
)
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
        subject: the clauses the question is about, when ``clauses`` says more (an effect:
            the contracts that read the perturbed fields; () when none does).
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
    subject: tuple[str, ...] = ()

    def with_explanation(self, entry: str) -> Finding:
        return replace(self, explained_by=entry)


@dataclass(frozen=True)
class Budget:
    """How much to search (profiles ci, default, thorough)."""

    games: int
    max_steps: int
    stride: int  # sample every stride-th state of a game for the legality space
    seconds: float


MIN_SLICE_PARTS = 4
"""Each search gets at least ``seconds / (MIN_SLICE_PARTS * searches)`` of its own, so a run
may overrun the profile's seconds by a quarter at most (plus the last step each search takes
before it looks at the clock)."""

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

    Optionally ``fixed``: rows (found, side, fix) of what the game's searches found that was
    fixed rather than registered (docs/discovery.md lists them).
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

    # Optional: ``found(state, action) -> str``, what the action turns up, for effect keys
    # (``" (a rat)"``; '' when nothing matters); a game without it gives ''.

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


def family(rs: RuleSet) -> str:
    """The reading of the texts a finding key belongs to: the rule set's name without its
    player count (``du-cs`` of ``du-cs/4``), so one key never stands for two texts' questions."""
    return rs.name.split("/")[0]


def _found(cap: DiscoveryGame, state: Any, action: Any) -> str:
    found: Callable[[Any, Any], str] | None = getattr(cap, "found", None)
    return found(state, action) if found is not None else ""


class _Spy:
    """A successor state that records which of its fields a contract reads."""

    __slots__ = ("_read", "_state")

    def __init__(self, state: Any, read: set[str]) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_read", read)

    def __getattr__(self, name: str) -> Any:
        self._read.add(name)
        return getattr(self._state, name)


def subject_clauses(contracts: Sequence[Contract], s: Any, a: Any, t: Any,
                    fields: Sequence[str]) -> tuple[str, ...]:
    """The clauses of the contracts that judge the transition ``s --a--> t`` by reading one of
    ``fields`` of the successor (what a perturbation of those fields is about)."""
    out: set[str] = set()
    wanted = set(fields)
    for c in contracts:
        # the common part's predicate and each reading's (a clause whose readings differ on
        # the field is about it too)
        for req in (c.requires, *(x.requires for x in c.alternatives)):
            if req is None:
                continue
            read: set[str] = set()
            try:
                verdict = req(s, a, _Spy(t, read))
            except Exception:  # a predicate that needs the real state: it says nothing here
                continue
            if verdict is not None and read & wanted:
                out.add(c.clause)
    return tuple(sorted(out))


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
            forb = forbidding_some(contracts, s, a)  # a refusal some reading forbids: the
            # engine follows that reading (the ``reading`` search reports the others)
            if not allowed and not forb:
                clauses = cap.why_illegal(s, a)
                key = (f"{family(rs)}: refused-unforbidden {kind_of(a)}{cap.target(s, a)} at "
                       f"{cap.situation(s)} (the engine cites "
                       f"{', '.join(clauses) or 'no clause'})")
                if key not in found:
                    found[key] = Finding("refused-unforbidden", key, rs.name, tuple(clauses),
                                         st.seed, tuple(map(str, st.prefix)), str(a),
                                         f"the engine refuses '{a}' (citing "
                                         f"{', '.join(clauses) or 'nothing'}); no contract "
                                         "forbids it")
            elif allowed and not permitting(contracts, s, a):
                key = (f"{family(rs)}: allowed-unpermitted {kind_of(a)}{cap.target(s, a)} at "
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
            key = (f"{family(rs)}: effect '{name}' after {kind_of(a)}{cap.target(s, a)}"
                   f"{_found(cap, s, a)} at {cap.situation(s)}")
            if key in found:
                continue
            if broken(contracts, s, a, alt):
                continue
            spoke = tuple(sorted({c.clause for c in contracts if c.requires is not None
                                  and c.requires(s, a, t) is not None}))
            subject = subject_clauses(contracts, s, a, t, fields)
            found[key] = Finding("effect", key, rs.name, spoke, st.seed,
                                 tuple(map(str, st.prefix)), str(a),
                                 f"'{name}' ({', '.join(fields)}) differs from the engine's "
                                 "successor and still meets every contract (read by "
                                 f"{', '.join(subject) or 'no clause'})", "", fields,
                                 subject=subject)
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
    support: tuple[tuple[str, tuple[str, ...]], ...] = ()


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
        support = tuple((str(r["value"]), tuple(map(str, r.get("supported_by", []))))
                        for r in e.get("reading", []) if r.get("supported_by"))
        for _value, cited in support:
            for c in cited:
                if ":" in c and " " not in c and c not in known:
                    raise fail(f"reading support: unknown clause {c}")
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
                            tuple(map(str, witnesses)), readings, option, support))
    return tuple(out)


def discovered_register(game: str | None = None) -> dict[str, Accepted]:
    """The accepted findings of ``game``'s discovered register by discovery key."""
    return {k: a for a in load_discovered(game=game) for k in a.keys}


def listed_keys(game: str) -> dict[str, str]:
    """Discovery key -> the id of the register entry of ``game`` that lists it (its ambiguity
    register's entries and its discovered register's; the latter only for a game without an
    ambiguity register capability)."""
    from ruleproof.properties.contracts.register import CAPABILITY as REGISTER
    from ruleproof.properties.contracts.register import explaining

    if plugin(game).capability(REGISTER) is not None:
        return {k: e.id for k, e in explaining(game).items()}
    return {k: a.id for k, a in discovered_register(game).items()}


def explain(rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
    """Mark each finding with the register entry that poses its question: an entry (of any
    register of the game) that lists its key, else the one the game finds for it
    (:meth:`DiscoveryGame.explain`: an entry whose clauses meet the finding's and whose other
    reading, replayed on the witness, changes exactly what the finding is about)."""
    listed = listed_keys(rs.game)
    known = [f.with_explanation(listed[f.key]) if f.key in listed else f for f in findings]
    rest = iter(_game_discovery(rs.game).explain(rs, [f for f in known if not f.explained_by]))
    return [f if f.explained_by else next(rest) for f in known]


def cycle_findings(names: Sequence[str], accepted: dict[str, str]) -> list[Finding]:
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
        out.append(f.with_explanation(accepted[key]) if key in accepted else f)
    return out


# ----------------------------------------------------------------------------- all of it


@dataclass(frozen=True)
class Question:
    """Findings that pose one question: the register entry that explains them (``entry``, ''
    when none does: then the question is the findings' key), the source that leaves it open.

    Attributes:
        id: ``GAME ENTRY`` for an explained question, else the key.
        source: the sources that leave it open (documents, or ``a vs b`` for two texts
            compared), joined by ``, ``.
        entry: the explaining entry's id ('' for a new question).
        findings: the findings posing it, in report order.
        title: the explaining entry's question in short ('' for a new question).
    """

    id: str
    source: str
    entry: str
    findings: tuple[Finding, ...]
    title: str = ""

    @property
    def accepted(self) -> bool:
        """Whether an entry of a register explains it."""
        return bool(self.entry)

    @property
    def text(self) -> str:
        """The question in words: the explaining entry's, else the first finding's, else its
        key."""
        return self.title or next((f.question for f in self.findings if f.question),
                                  self.findings[0].key)


@dataclass
class Report:
    """Everything discovery found, with timings.

    Attributes:
        findings: in the order of the searches (per rule set legality then effects, the
            translation differential, cycles per rule set, the symbolic search, then the
            searches of :data:`SEARCH_KINDS`).
        seconds: wall-clock time.
        searched: rule set -> legality and effect findings before explanation.
        cut: the searches still running when the profile's time ran out (their findings
            depend on speed; without cuts a run on Ray equals a single process's).
        workers: searches run at a time (1: this process, no Ray).
        stats: figures the searches of :data:`SEARCH_KINDS` report (added up over units; the
            contract adequacy is ``stats["adequacy"][source] = {"killed": k, "survived": s}``).
        profile: the budget profile.
        kinds: the searches run, in report order.
        unit_seconds: search (:meth:`Search.describe`) -> its wall-clock seconds.
    """

    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    searched: dict[str, int] = field(default_factory=dict)
    cut: list[str] = field(default_factory=list)
    workers: int = 1
    stats: dict[str, Any] = field(default_factory=dict)
    profile: str = "ci"
    kinds: tuple[str, ...] = ()
    unit_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def new(self) -> list[Finding]:
        return [f for f in self.findings if not f.explained_by]

    def questions(self) -> list[Question]:
        """The findings deduplicated to distinct questions, in report order: findings that
        one register entry explains pose its question; an unexplained finding poses the
        question of its key."""
        groups: dict[str, list[Finding]] = {}
        for f in self.findings:
            groups.setdefault(question_id(f), []).append(f)
        titles = _entry_titles() if any(f.explained_by for f in self.findings) else {}
        return [Question(qid, ", ".join(dict.fromkeys(source_of(f) for f in fs)),
                         fs[0].explained_by, tuple(fs), titles.get(qid, ""))
                for qid, fs in groups.items()]

    @property
    def precision(self) -> float:
        """Questions accepted (explained by a register entry) / questions reported (distinct);
        1.0 when nothing is reported."""
        qs = self.questions()
        return sum(q.accepted for q in qs) / len(qs) if qs else 1.0

    def adequacy(self) -> dict[str, dict[str, int]]:
        """Source -> ``{"killed": k, "survived": s}`` as the searches reported it."""
        found = self.stats.get("adequacy", {})
        return {str(k): {"killed": int(v.get("killed", 0)), "survived": int(v.get("survived", 0))}
                for k, v in found.items() if isinstance(v, dict)}

    def per_source(self) -> dict[str, dict[str, Any]]:
        """Source -> its findings, the distinct questions they pose (a question found under
        several sources counts for each), how many of those a register entry explains, its
        new findings and the contract adequacy (when a search reported it); sources in order
        of first mention."""
        out: dict[str, dict[str, Any]] = {}
        seen: dict[str, set[str]] = {}
        for f in self.findings:
            source = source_of(f)
            row = out.setdefault(source, {"findings": 0, "questions": 0, "accepted": 0,
                                          "new": 0})
            row["findings"] += 1
            row["new"] += 0 if f.explained_by else 1
            qid = question_id(f)
            if qid not in seen.setdefault(source, set()):
                seen[source].add(qid)
                row["questions"] += 1
                row["accepted"] += bool(f.explained_by)
        for source, adequacy in self.adequacy().items():
            row = out.setdefault(source, {"findings": 0, "questions": 0, "accepted": 0,
                                          "new": 0})
            row["adequacy"] = adequacy
        return out


def _entry_titles() -> dict[str, str]:
    """``GAME ENTRY`` -> the entry's question in short, for every entry of every register (of
    the games whose registers load)."""
    from ruleproof.errors import MalformedInput
    from ruleproof.properties.contracts.register import entries

    try:
        return {f"{e.game} {e.id}": e.heading for e in entries()}
    except MalformedInput:
        return {}


def question_id(f: Finding) -> str:
    """The question a finding poses: ``GAME ENTRY`` of the entry that explains it, else its
    key (with its rule set's reading, which the key carries)."""
    if f.explained_by:
        return f"{_game_of(f)} {f.explained_by}"
    return f.key


def _game_of(f: Finding) -> str:
    try:
        return rule_set(f.rule_set).game
    except KeyError:
        return next((p.name for p in plugins().values()
                     if any(c.split(":")[0] in p.sources for c in f.clauses)), "")


def source_of(f: Finding) -> str:
    """The source document that leaves the finding open: its ``source``; for two texts
    compared (a translation), both (``du-cs vs du-en``); else the last source of its rule set
    (the most specific: the expansion's over its base), or the sources of its clauses."""
    if f.source:
        return f.source
    docs = sorted({c.split(":")[0] for c in f.clauses})
    if f.kind == "translation" and len(docs) > 1:
        return " vs ".join(docs)
    try:
        sources = rule_set(f.rule_set).sources
    except KeyError:
        sources = ()
    if sources:
        return sources[-1]
    return docs[-1] if docs else f.rule_set


KINDS = ("legality", "effect", "translation", "cycles", "symbolic")
"""The original discovery searches, in report order (the searches of :data:`SEARCH_KINDS`
follow them)."""

ABOUT = {
    "legality": "a systematic action space per sampled state (every target of every kind of "
                "decision the state asks for, from the game's capability): an action the engine "
                "refuses that no contract forbids, or allows that no contract permits",
    "effect": "the game's perturbations of the engine's successor (who moves next, whether the "
              "turn ends, which end of a row, counts +-1, what is seen...) that still satisfy "
              "every contract",
    "translation": "two texts of one game (a translation) compared as contracts on the same "
                   "states: one forbids what the other permits, or each rejects the successor "
                   "the other's reading gives",
    "cycles": "best-first search from sampled states for a path of legal actions back to the "
              "very same state (a game that can go on for ever)",
    "symbolic": "the game's z3 queries on an abstraction: two different successors that both "
                "satisfy every clause of a source",
}
"""What each original search does, in one line (reports and docs/discovery.md)."""


def about(kind: str) -> str:
    """One line on what the search ``kind`` does."""
    return ABOUT[kind] if kind in ABOUT else SEARCH_KINDS[kind].about


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


SEARCH_KINDS: dict[str, SearchKind] = {
    "reading": SearchKind("rule_set", "ruleproof.properties.discovery.readings:search",
                          "the readings of ambiguous clauses the engine does not follow"),
    "chapters": SearchKind("rule_set", "ruleproof.properties.discovery.chapters:search",
                           "quick reference, FAQ and worked examples against their chapters"),
    # issue #24: an action space from the components; question generators over structure
    "components": SearchKind("rule_set", "ruleproof.properties.discovery.components:search",
                             "component moves the model's action types cannot express"),
    "endings": SearchKind("rule_set", "ruleproof.properties.discovery.generators:endings",
                          "two endings due in one step"),
    "orders": SearchKind("rule_set", "ruleproof.properties.discovery.generators:orders",
                         "several players' effects in another order"),
    "totals": SearchKind("rule_set", "ruleproof.properties.discovery.generators:totals",
                         "counts against the component totals"),
    "chains": SearchKind("rule_set", "ruleproof.properties.discovery.generators:chains",
                         "an event during itself"),
    "combinations": SearchKind("game", "ruleproof.properties.discovery.generators:"
                               "combinations", "preset x player count x expansion"),
    "visibility": SearchKind("rule_set", "ruleproof.properties.discovery.generators:"
                             "visibility", "who observes each state field, per source"),
    "mutants": SearchKind("rule_set", "ruleproof.properties.discovery.mutants:search",
                          "rule mutants: each operator's readings at each rule site, judged by "
                          "the contracts (killed or a question)"),
}
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
        """Run unit ``index``: (findings, figures for the report, whether it was cut); the
        figures include ``{"seconds": {unit: s}}``, the unit's wall-clock time."""
        start = time.perf_counter()
        found, stats, cut = self._run(index)
        took = {"seconds": {self.plan[index].describe(): time.perf_counter() - start}}
        _merge(took, stats)
        return found, took, cut

    def _run(self, index: int) -> tuple[list[Finding], dict[str, Any], bool]:
        unit = self.plan[index]
        budget = BUDGETS[self.profile]
        # Every search gets at least its slice of the profile's time even when the profile's
        # time has run out (a loaded machine): a search started late is cut, never run on
        # zero work (its findings and figures would be empty, and the run would still pass).
        least = budget.seconds / (MIN_SLICE_PARTS * len(self.plan))
        deadline = time.perf_counter() + max(self.until - time.time(), least)
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
                                   accepted=listed_keys(rule_set(unit.rule_set).game))
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
                    workers=workers if workers > 1 or address else 1, profile=profile,
                    kinds=tuple(kinds if kinds is not None else all_kinds()))
    for index, (found, stats, cut) in results:
        unit = plan[index]
        report.findings += found
        seconds = stats.pop("seconds", {})
        for name, value in seconds.items():
            report.unit_seconds[name] = report.unit_seconds.get(name, 0.0) + float(value)
        _merge(report.stats, stats)
        if unit.kind in ("legality", "effect"):
            report.searched[unit.rule_set] = report.searched.get(unit.rule_set, 0) + len(found)
        if cut:
            report.cut.append(unit.describe())
    report.seconds = time.perf_counter() - start
    return report
