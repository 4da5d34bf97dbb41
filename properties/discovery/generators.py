"""Question generators over the structure of a game's rules (issue #24, searches of
:data:`~ruleproof.properties.contracts.discovery.SEARCH_KINDS`).

The original discovery searches ask what the contracts leave open at single decisions. These
generators ask the questions a careful reader asks about the *structure* of the rules, on
states of seeded random play and of the game's targeted play (policies that steer toward the
situation asked about):

* ``endings`` -- two ending conditions coming due in one step (two players running out in one
  round of hand-overs, a win and a loss in one turn): who wins?
* ``orders`` -- effects on several players applied in another order: does the outcome differ?
* ``totals`` -- counts checked against the component totals: a count past what the components
  allow, or a rule that needs a component that has run out;
* ``chains`` -- an event during itself (a plague during a plague, a meeting caused by a special
  action...);
* ``combinations`` -- every preset x player count x expansion of the game: does any text define
  it (a static generator over the plugin record and the clauses that name each combination)?
* ``visibility`` -- per source, who observes each state field: a table from the source's
  clauses (public, private to its owner, hidden, or not said), compared between the game's
  sources and with the model's observation (each field perturbed in sampled states).

A game takes part through the capability ``"generators"`` of its plugin record
(:class:`GeneratorTables`): its policies, the questions a transition poses with the successors
of the other readings, its counted components, its combinations and its visibility table. The
generic part judges: a question with other readings is *open* when one of their successors
differs from the engine's and breaks no contract of the rule set (a finding); it is *settled*
when every other reading breaks a contract (the clauses that kill it are counted in the
figures). Every finding carries its question in words, the readings (the engine's first) and
a witness (seed, the actions before it, the action; a static combination has none).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ruleproof.model.api import GameBase
from ruleproof.properties.contracts.core import ContractSet, broken
from ruleproof.properties.contracts.discovery import (
    Budget,
    Finding,
    Search,
    SearchResult,
    SearchRun,
    Step,
    listed_keys,
    walk,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set, settle
from ruleproof.properties.plugin import GamePlugin, make_game, plugin

CAPABILITY = "generators"
"""The name of the capability in a game's plugin record."""

GENERATORS = ("endings", "orders", "totals", "chains")
"""The generators asked at every transition (the game's :meth:`GeneratorTables.questions`)."""

Policy = Callable[[Any, Sequence[Any], random.Random], Any]
"""Targeted play: (engine state, its legal actions, a seeded draw) -> the action to take."""


# ----------------------------------------------------------------------------- the game's part


@dataclass(frozen=True)
class Question:
    """A structural question a transition (or a state) poses.

    Attributes:
        key: what is open, independent of the witness (one question, one key).
        question: the question in plain words.
        readings: the engine's reading first, then the other(s).
        clauses: the clause ids in play.
        alternatives: (reading, successor) -- the successors the other readings give instead
            of the engine's; judged by the contracts. Without alternatives the question stands
            as it is, unless ``settled_by`` names the clauses that answer it.
        settled_by: clause ids that answer a question without alternatives.
        source: the source document that leaves it open ('' when several do).
    """

    key: str
    question: str
    readings: tuple[str, ...]
    clauses: tuple[str, ...]
    alternatives: tuple[tuple[str, Any], ...] = ()
    settled_by: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class Count:
    """A counted component: the most any holder has, against the component total.

    Attributes:
        name: what is counted, in words (``life markers of a player``).
        total: the number the components allow.
        value: engine state -> the count (the largest over the holders).
        clause: the clause that lists the component.
    """

    name: str
    total: int
    value: Callable[[Any], int]
    clause: str


@dataclass(frozen=True)
class Combination:
    """A preset x player count x expansion of a game and the texts that define it.

    Attributes:
        key: the question's key (several combinations may share one question).
        defined_by: the clause ids that define the combination; () when no text does.
        question: the question in words (asked when no text defines it).
        readings: what the model does first, then the other reading(s).
        clauses: the clauses in play (those that come close to defining it).
    """

    key: str
    defined_by: tuple[str, ...]
    question: str
    readings: tuple[str, ...]
    clauses: tuple[str, ...] = ()


VISIBILITIES = ("public", "owner", "hidden")
"""What a text can say of a field: shown to everybody, to its owner only, to nobody."""


@dataclass(frozen=True)
class View:
    """What one source says of a field's visibility, and the clause that says it."""

    visibility: str
    clause: str


@dataclass(frozen=True)
class Field:
    """A state field as the visibility generator probes it.

    Attributes:
        name: the field in words (``the contents of a grave``).
        question: who observes it, asked in words.
        perturb: (engine state, owner seat) -> the state with this field changed for that
            owner (None when there is nothing to change in the state).
        views: source -> what its text says (a source absent from the map is silent).
        readings: the model's reading first, then the other(s) (for a silent text).
        owned: whether the field belongs to one seat (``owner`` visibility makes sense).
    """

    name: str
    question: str
    perturb: Callable[[Any, int], Any | None]
    views: Mapping[str, View]
    readings: tuple[str, ...] = ()
    owned: bool = True


class GeneratorTables(Protocol):
    """What the generators need of a game (capability ``"generators"``). States are the
    game's engine states (``GameState.model``)."""

    def policies(self, generator: str) -> Sequence[tuple[str, Policy]]:
        """Targeted play for ``generator`` (named policies); random play is searched too."""
        ...

    def questions(self, generator: str, rs: RuleSet, state: Any, action: Any, nxt: Any
                  ) -> Sequence[Question]:
        """The questions of ``generator`` (one of :data:`GENERATORS`) the transition
        ``state --action--> nxt`` poses, with the other readings' successors."""
        ...

    def counts(self, rs: RuleSet) -> Sequence[Count]:
        """The counted components of ``rs``."""
        ...

    def combination(self, preset: str, players: int, expansion: str | None) -> Combination:
        """The texts that define a preset at a player count with an expansion (or none)."""
        ...

    def fields(self, rs: RuleSet) -> Sequence[Field]:
        """The state fields the visibility generator probes under ``rs``."""
        ...


def tables_of(p: GamePlugin) -> GeneratorTables | None:
    """The generators capability of a game (None if it has none)."""
    found: GeneratorTables | None = p.capability(CAPABILITY)
    return found


# ----------------------------------------------------------------------------- play


def steered(rs: RuleSet, game: GameBase[Any], games: int, max_steps: int, policy: Policy,
            seed: int = 0) -> Iterator[Step]:
    """Transitions of ``games`` games of ``rs`` played by ``policy`` (game ``seed + g`` dealt
    from that seed, the policy's draws from ``random.Random(2000 + seed + g)``), chance settled
    as in :func:`~ruleproof.properties.contracts.discovery.walk`."""
    for g in range(games):
        rng = random.Random(2_000 + seed + g)
        state = settle(rs, game.new_seeded_state(seed + g))
        prefix: list[Any] = []
        for _ in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            if not legal:
                break
            action = policy(state.model, legal, rng)
            nxt = state.apply_typed(action)
            yield Step(seed + g, tuple(prefix), state.model, action, nxt.model)
            prefix.append(action)
            state = settle(rs, nxt)


def plays(rs: RuleSet, game: GameBase[Any], budget: Budget,
          policies: Sequence[tuple[str, Policy]]) -> Iterator[tuple[str, Step]]:
    """Random play (``budget.games`` games), then each policy's games (as many, from seeds
    that do not repeat the random ones), each step named by the play it comes from."""
    for st in walk(rs, budget.games, budget.max_steps, game=game):
        yield "random", st
    for i, (name, policy) in enumerate(policies):
        for st in steered(rs, game, budget.games, budget.max_steps, policy,
                          seed=100 * (i + 1)):
            yield name, st


# ----------------------------------------------------------------------------- judging


def judge(rs: RuleSet, sets: Sequence[ContractSet] | None, state: Any, action: Any, nxt: Any,
          q: Question) -> tuple[bool, tuple[str, ...]]:
    """(open, the clauses that kill the other readings): open when a reading's successor
    differs from the engine's and breaks no contract of ``rs`` (``sets`` replace its
    contracts)."""
    if not q.alternatives:
        return not q.settled_by, q.settled_by
    contracts = rs.contracts(state, sets)
    killers: set[str] = set()
    found = False
    for _name, alt in q.alternatives:
        if alt == nxt:
            continue
        bad = broken(contracts, state, action, alt)
        if bad:
            killers |= {v.clause for v in bad}
        else:
            found = True
    return found, tuple(sorted(killers))


def finding(kind: str, search: str, rs: RuleSet, q: Question, st: Step | None,
            detail: str) -> Finding:
    """A finding of ``q`` with the witness ``st`` (None for a static question)."""
    seed, prefix, action = (0, (), "") if st is None else (
        st.seed, tuple(map(str, st.prefix)), str(st.action))
    return Finding(kind, q.key, rs.name, q.clauses, seed, prefix, action, detail,
                   question=q.question, readings=q.readings, source=q.source, search=search)


def explained(rs_game: str, found: Sequence[Finding]) -> list[Finding]:
    """``found`` with the findings whose key an entry of the game's registers lists marked
    explained by that entry (the rest are explained by the caller, or stay new)."""
    listed = listed_keys(rs_game)
    return [f.with_explanation(listed[f.key]) if f.key in listed else f for f in found]


@dataclass
class _Tally:
    """Figures of one search unit (added up over units by the report)."""

    states: int = 0
    questions: int = 0
    settled: dict[str, int] = field(default_factory=dict)
    open: int = 0
    plays: dict[str, int] = field(default_factory=dict)

    def stats(self, name: str) -> dict[str, Any]:
        return {name: {"states": self.states, "questions": self.questions,
                       "open": self.open, "settled": self.settled, "plays": self.plays}}


def _context(unit: Search, context: SearchRun) -> tuple[RuleSet, GameBase[Any],
                                                         Sequence[ContractSet] | None,
                                                         GeneratorTables | None]:
    rs = rule_set(unit.rule_set)
    sets = context.sets_for(rs) if context.sets_for is not None else None
    game = context.game_for(rs) if context.game_for is not None else None
    return rs, game or game_of(rs), sets, tables_of(plugin(rs.game))


def _transitions(generator: str, unit: Search, budget: Budget, deadline: float | None,
                 context: SearchRun) -> SearchResult:
    """One generator of :data:`GENERATORS` on ``unit``'s rule set: every transition of random
    and targeted play asked for its questions; the first witness per open key kept."""
    rs, game, sets, tables = _context(unit, context)
    if tables is None:
        return SearchResult([])
    tally = _Tally()
    found: dict[str, Finding] = {}
    counts = tables.counts(rs) if generator == "totals" else ()
    for play, st in plays(rs, game, budget, tables.policies(generator)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        tally.states += 1
        tally.plays[play] = tally.plays.get(play, 0) + 1
        questions = list(tables.questions(generator, rs, st.state, st.action, st.nxt))
        questions += [_past_total(c, st.nxt) for c in counts if c.value(st.nxt) > c.total]
        for q in questions:
            tally.questions += 1
            is_open, killers = judge(rs, sets, st.state, st.action, st.nxt, q)
            if not is_open:
                for c in killers:
                    tally.settled[c] = tally.settled.get(c, 0) + 1
                continue
            tally.open += 1
            if q.key not in found:
                readings = "; ".join(q.readings)
                found[q.key] = finding(generator.rstrip("s"), generator, rs, q, st,
                                       f"{q.question} (readings: {readings}; found in "
                                       f"{play} play; no contract of "
                                       f"{', '.join(rs.sources)} settles it)")
    return SearchResult(explained(rs.game, list(found.values())), tally.stats(generator))


def _past_total(c: Count, state: Any) -> Question:
    return Question(f"total: {c.name} past the component total",
                    f"The {c.name} reach {c.value(state)}, more than the {c.total} the "
                    "components provide: which rule lets the count go past them?",
                    ("the engine's count", f"at most {c.total}"), (c.clause,))


def endings(unit: Search, budget: Budget, deadline: float | None,
            context: SearchRun) -> SearchResult:
    """Two ending conditions due in one step (the game's ``endings`` questions)."""
    return _transitions("endings", unit, budget, deadline, context)


def orders(unit: Search, budget: Budget, deadline: float | None,
           context: SearchRun) -> SearchResult:
    """Effects on several players applied in another order (the game's ``orders``)."""
    return _transitions("orders", unit, budget, deadline, context)


def totals(unit: Search, budget: Budget, deadline: float | None,
           context: SearchRun) -> SearchResult:
    """Counts against the component totals (the game's ``totals`` and :class:`Count` s)."""
    return _transitions("totals", unit, budget, deadline, context)


def chains(unit: Search, budget: Budget, deadline: float | None,
           context: SearchRun) -> SearchResult:
    """An event during itself (the game's ``chains`` questions)."""
    return _transitions("chains", unit, budget, deadline, context)


# ----------------------------------------------------------------------------- combinations


def combinations(unit: Search, budget: Budget, deadline: float | None,
                 context: SearchRun) -> SearchResult:
    """Every preset x player count (the game type's) x expansion (none or each) of the game
    (scope ``game``): a combination no text defines is a question, whether the model plays it
    or refuses it (its first contract rule set names the finding's rule set)."""
    from ruleproof.errors import MalformedInput

    p = plugin(unit.game)
    tables = tables_of(p)
    if tables is None:
        return SearchResult([])
    name = p.contract_rule_sets("ci")[0].name
    rs = rule_set(name)
    found: dict[str, Finding] = {}
    seen = 0
    defined = 0
    for preset in p.presets():
        for n in p.game_type.players:
            for expansion in (None, *p.expansions):
                seen += 1
                c = tables.combination(preset, n, expansion)
                if c.defined_by:
                    defined += 1
                    continue
                params: dict[str, Any] = {"players": n, "preset": preset}
                if expansion is not None:
                    params["expansion"] = expansion
                try:
                    make_game(p.name, **params)
                    plays_it = "plays"
                except MalformedInput:
                    plays_it = "refuses"
                label = f"{preset}, {n} players" + (f", {expansion}" if expansion else "")
                q = Question(c.key, c.question, c.readings, c.clauses)
                if c.key not in found:
                    found[c.key] = finding("combination", "combinations", rs, q, None,
                                           f"no text defines {label}; the model {plays_it} "
                                           f"it. {c.question}")
                else:
                    f = found[c.key]
                    found[c.key] = Finding(f.kind, f.key, f.rule_set, f.clauses, f.seed,
                                           f.prefix, f.action,
                                           f"{f.detail} Also: {label} (the model {plays_it} "
                                           "it).", question=f.question, readings=f.readings,
                                           search=f.search)
    stats = {"combinations": {"combinations": seen, "defined": defined,
                              "undefined": seen - defined}}
    return SearchResult(explained(p.name, list(found.values())), stats)


# ----------------------------------------------------------------------------- visibility


def observers(game: GameBase[Any], state: Any, other: Any) -> frozenset[int]:
    """The seats whose observation of ``state`` differs from their observation of ``other``."""
    a, b = game.from_model(state), game.from_model(other)
    return frozenset(p for p in range(game.num_players)
                     if a.observation_string(p) != b.observation_string(p))


def _seen_as(seats: frozenset[int], owner: int, players: int) -> str:
    if len(seats) == players:
        return "public"
    if not seats:
        return "hidden"
    if seats == {owner}:
        return "owner"
    return "seats " + ",".join(str(s) for s in sorted(seats))


PROBES = 12
"""How many sampled states each field of the visibility table is perturbed in (the widest
observation found is kept: a field shown once is shown)."""


def visibility(unit: Search, budget: Budget, deadline: float | None,
               context: SearchRun) -> SearchResult:
    """Per field of the game's visibility table: what the rule set's sources say (a field no
    source of the rule set states is a question), how the game's sources compare (two texts
    saying different things is a question), and who observes it in the model (each field
    perturbed in sampled states of random play: a model observation other than the text's is
    a finding of its own)."""
    rs, game, _sets, tables = _context(unit, context)
    if tables is None:
        return SearchResult([])
    p = plugin(rs.game)
    fields_ = tables.fields(rs)
    probed: dict[str, tuple[str, Step | None]] = {}
    tries: dict[str, int] = {}
    samples = 0
    for i, st in enumerate(walk(rs, budget.games, budget.max_steps, game=game)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        if i % max(1, budget.stride):
            continue
        if all(tries.get(f.name, 0) >= PROBES for f in fields_):
            break
        for f in fields_:
            if tries.get(f.name, 0) >= PROBES:
                continue
            for owner in range(game.num_players):
                other = f.perturb(st.state, owner)
                if other is None:
                    continue
                samples += 1
                tries[f.name] = tries.get(f.name, 0) + 1
                seen = _seen_as(observers(game, st.state, other), owner, game.num_players)
                if not f.owned and seen in ("owner", "public"):
                    seen = "public" if seen == "public" else "seats " + str(owner)
                before = probed.get(f.name)
                # keep the widest observation found (a field shown once is shown)
                if before is None or _rank(seen) > _rank(before[0]):
                    probed[f.name] = (seen, st)
                break
    found: list[Finding] = []
    stated = silent = agree = 0
    for f in fields_:
        mine = {s: f.views[s] for s in rs.sources if s in f.views}
        everyone = {s: v for s, v in f.views.items() if s in p.sources}
        model, witness = probed.get(f.name, ("not reached", None))
        texts = ", ".join(f"{s} says {v.visibility} ({v.clause})" for s, v in everyone.items())
        texts = texts or "no text of the game says"
        clauses = tuple(sorted({v.clause for v in everyone.values()}))
        kinds = {v.visibility for v in everyone.values()}
        if len(kinds) > 1:
            q = Question(f"visibility: {f.name}: the texts disagree", f.question,
                         tuple(sorted(kinds)), clauses)
            found.append(finding("visibility", "visibility", rs, q, witness,
                                 f"{f.question} {texts}; the model: {model}."))
        if not mine:
            silent += 1
            # a field no text of the game states is one question for the game; a field only
            # other sources state is a question of these sources' silence
            own = "" if not everyone else f" ({rs.sources[0]})"
            q = Question(f"visibility: {f.name}{own}", f.question,
                         f.readings or (model, "another"), clauses,
                         source=rs.sources[0] if own else "")
            found.append(finding("visibility", "visibility", rs, q, witness,
                                 f"{f.question} No text of {', '.join(rs.sources)} says; "
                                 f"{texts}; the model shows it: {model}."))
            continue
        stated += 1
        wanted = {v.visibility for v in mine.values()}
        if model != "not reached" and model not in wanted:
            q = Question(f"visibility: {f.name}: the model shows it {model}",
                         f"{f.question} The model's observation disagrees with the text.",
                         (model, *sorted(wanted)), tuple(sorted(v.clause for v in
                                                                mine.values())))
            found.append(finding("visibility", "visibility", rs, q, witness,
                                 f"the model shows {f.name} {model}; "
                                 + ", ".join(f"{s} says {v.visibility} ({v.clause})"
                                             for s, v in mine.items())))
        else:
            agree += 1
    stats = {"visibility": {"fields": len(fields_), "stated": stated, "silent": silent,
                            "model agrees": agree, "probes": samples}}
    return SearchResult(explained(rs.game, found), stats)


def _rank(seen: str) -> int:
    return {"not reached": -1, "hidden": 0, "public": 3}.get(seen, 1 if seen == "owner" else 2)
