"""Rule mutants as questions (issue #24): a catalogue of semantic mutation operators, applied at
the rule sites of each engine, and the discovery search ``mutants``.

An **operator** (:data:`OPERATORS`) is a kind of change a reader of a rulebook could make to a
rule: a "must" read as a "may" and back, another player acting next, the effects on several
players applied in another order, a cap added, removed or moved, an eligibility widened or
narrowed, "in one turn" against "in a row", the first, running or last of a chain, the turn
ending or going on, something shown to everybody or to the actor only, one ending resolved
before another, an effect acting at another time. Operators are about rules; each names the
kind of question it asks.

A **site** (:class:`Site`) is one operator applied at one rule site of one engine: the clauses
it implements, the question in plain words and the *readings* the text might have, each an
absolute mutant engine (:class:`MutantGame`: the game with its legal actions, transition or
observation replaced; the engine's source is never edited). Sites are a game's own: the
capability ``"mutants"`` of its plugin record (:class:`MutantSites`) lists them per rule set.
One reading is the shipped engine's; it is played only when the engine was replaced (teeth: a
planted silent decision at the site is then a reading nobody registered).

**The search** (:func:`search`, rule-set scope): for every site and reading, seeded random
games are played with the mutant, and every step is compared with the engine's on the same
state (legal actions, the successor of the chosen action, with ``observe`` each seat's
observation). Where they differ, the rule set's contracts judge the mutant: an action it adds
that a contract forbids, one it refuses that a contract permits, a successor a contract rejects
*and the engine's successor does not*. A contract broken there **kills** the mutant and names
the clause that settles the question; a mutant that changes play and breaks no contract in the
profile's games **survives**: a finding (kind ``mutant``), the mutant is the other reading, the
first state where play differs (shrunk) is the witness. A mutant that never changes play is
``unchanged``. Figures per rule set and the contract adequacy per source (killed / survived)
go into the report (``SearchResult.stats``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ruleproof.errors import IllegalAction
from ruleproof.model.api import GameBase, GameState
from ruleproof.properties.contracts.core import (
    Contract,
    ContractSet,
    broken,
    forbidding,
)
from ruleproof.properties.contracts.discovery import Budget, Finding, SearchResult
from ruleproof.properties.contracts.games import RuleSet, game_of, rule_set, settle
from ruleproof.properties.plugin import GamePlugin, plugin

CAPABILITY = "mutants"
"""The name of the capability in a game's plugin record."""

KIND = "mutant"
"""The kind of the findings of this search."""


# ----------------------------------------------------------------------------- operators


@dataclass(frozen=True)
class Operator:
    """A semantic mutation operator: a kind of change a reader could make to a rule.

    Attributes:
        name: its short name, used in finding keys.
        title: what it turns into what.
        changes: what a mutant of this operator changes in an engine.
        asks: the kind of question a surviving mutant asks (issue #24's kinds).
    """

    name: str
    title: str
    changes: str
    asks: str


OPERATORS: tuple[Operator, ...] = (
    Operator("optional", "mandatory -> optional",
             "a forced choice gets a 'decline' alternative",
             "a reading decided inside the model: is the 'must' a 'can'?"),
    Operator("forced", "optional -> mandatory",
             "an optional choice is forced (the alternative is refused)",
             "a reading decided inside the model: is the 'can' a 'must'?"),
    Operator("next-seat", "who acts next",
             "the next seat, the previous seat or the same seat acts (or decides) instead",
             "a referent resolved silently: who acts?"),
    Operator("effect-order", "order of effects on several players",
             "effects on several players are applied in another order (clockwise from the "
             "actor, counter-clockwise, from the receiver's left...)",
             "simultaneity: does the order of effects on several players change the outcome?"),
    Operator("cap", "cap added, removed or moved",
             "a count limit is raised, lowered or dropped",
             "accumulation: a count raised past what the text or the components allow"),
    Operator("eligibility", "eligibility widened or narrowed",
             "an action reaches any token of its kind, or fewer than the engine allows",
             "alternatives the model cannot express: which tokens may be used?"),
    Operator("turn-window", "'in one turn' <-> 'in a row'",
             "a counter resets at the turn's end, or at the first miss",
             "a reading decided inside the model: over what span does a count run?"),
    Operator("chain-role", "first <-> running <-> last in a chain",
             "a rule naming 'the player who started' a chain reads the first, the running or "
             "the last link",
             "a referent resolved silently: which link of a chain is meant?"),
    Operator("turn-ends", "the turn ends or goes on",
             "after an action the turn ends instead of going on, or goes on instead of ending",
             "a reading decided inside the model: does the turn end here?"),
    Operator("visibility", "revealed to all <-> to the actor",
             "what a step shows is shown to everybody, only to the actor, or to nobody",
             "who sees what: the information model of the text"),
    Operator("ending-order", "a win resolved before a loss and the reverse",
             "two endings (or an ending and a penalty) in one step are resolved in the other "
             "order",
             "endings: two endings in one step"),
    Operator("timing", "an effect acts at another time",
             "an effect acts now, later in the turn, or in another turn than the engine's",
             "a special effect resolved at another time"),
)
"""The catalogue, in report order."""

OPERATOR: dict[str, Operator] = {o.name: o for o in OPERATORS}
"""The operators by name."""


# ----------------------------------------------------------------------------- mutant engines


Legal = Callable[[GameBase[Any], Any], Sequence[Any]]
ToMove = Callable[[GameBase[Any], Any], int]
Step = Callable[[GameBase[Any], Any, Any], tuple[Any, Any]]
Observe = Callable[[GameBase[Any], GameState, int], str]


class MutantGame(GameBase[Any]):
    """``base`` with who decides, its legal actions, transition or observation replaced: a
    mutant engine. Everything else (the set-up, chance, the action tables) is the base's.

    Args:
        base: the game (the shipped engine, or another mutant).
        to_move: (base, engine state) -> the seat that decides (or CHANCE, TERMINAL).
        legal: (base, engine state) -> the mutant's legal actions.
        step: (base, engine state, action) -> (successor, what the step showed).
        observe: (base, state, seat) -> the mutant's observation string.
        label: what the mutant is (for reports).
    """

    def __init__(self, base: GameBase[Any], *, legal: Legal | None = None,
                 step: Step | None = None, observe: Observe | None = None,
                 to_move: ToMove | None = None, label: str = "") -> None:
        self.base = base
        self.name = base.name
        self.num_players = base.num_players
        self.max_moves = base.max_moves
        self.table = base.table
        self.chance_table = base.chance_table
        self.over_clauses = base.over_clauses
        self.chance_clauses = base.chance_clauses
        self.chance_refused = base.chance_refused
        self.min_utility = base.min_utility
        self.max_utility = base.max_utility
        self._legal = legal
        self._step = step
        self._observe = observe
        self._to_move = to_move
        self.label = label

    def initial_model(self) -> Any:
        return self.base.initial_model()

    def seeded_model(self, seed: int) -> Any:
        return self.base.seeded_model(seed)

    def model_to_move(self, m: Any) -> int:
        if self._to_move is not None:
            return self._to_move(self.base, m)
        return self.base.model_to_move(m)

    def model_legal(self, m: Any) -> Sequence[Any]:
        if self._legal is not None:
            return self._legal(self.base, m)
        return self.base.model_legal(m)

    def model_chance(self, m: Any) -> Any:
        return self.base.model_chance(m)

    def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
        if self._step is not None:
            return self._step(self.base, m, action)
        return self.base.model_step(m, action)

    def model_winner(self, m: Any) -> int | None:
        return self.base.model_winner(m)

    def model_returns(self, m: Any) -> list[float]:
        return self.base.model_returns(m)

    def observation_string(self, state: GameState, player: int) -> str:
        if self._observe is not None:
            return self._observe(self.base, state, player)
        return self.base.observation_string(state, player)

    def information_state_string(self, state: GameState, player: int) -> str:
        return self.base.information_state_string(state, player)

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        return self.base.observation_indices(state, player, memo)

    @property
    def observation_size(self) -> int:
        return self.base.observation_size

    @property
    def max_chance_nodes(self) -> int:
        return self.base.max_chance_nodes

    @property
    def params(self) -> dict[str, Any]:
        return self.base.params

    def __repr__(self) -> str:
        return f"MutantGame({self.label or 'unnamed'} of {self.base!r})"


def mutant(base: GameBase[Any], *, legal: Legal | None = None, step: Step | None = None,
           observe: Observe | None = None, to_move: ToMove | None = None,
           label: str = "") -> MutantGame:
    """A :class:`MutantGame` of ``base`` (keyword arguments as there)."""
    return MutantGame(base, legal=legal, step=step, observe=observe, to_move=to_move,
                      label=label)


def post(transform: Callable[[Any, Any, Any], Any]) -> Step:
    """A transition that takes the base's successor and changes it: ``transform(state,
    action, successor) -> successor`` (the step's display is the base's)."""
    def step(base: GameBase[Any], m: Any, action: Any) -> tuple[Any, Any]:
        nxt, seen = base.model_step(m, action)
        return transform(m, action, nxt), seen
    return step


def refusing(refuse: Callable[[Any, Any], bool]) -> Legal:
    """Legal actions: the base's without those ``refuse(state, action)`` names (an optional
    choice forced, an eligibility narrowed). The base's own actions are never all refused."""
    def legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
        out = tuple(base.model_legal(m))
        kept = tuple(a for a in out if not refuse(m, a))
        return kept or out
    return legal


# ----------------------------------------------------------------------------- sites


@dataclass(frozen=True)
class Reading:
    """One reading of a site: a value, what it says, and the mutant engine that plays it
    (an absolute reading: applied to any engine, it plays this reading)."""

    value: str
    summary: str
    mutate: Callable[[GameBase[Any]], GameBase[Any]]


def _every(_rs: RuleSet) -> bool:
    return True


@dataclass(frozen=True)
class Site:
    """One operator applied at one rule site of an engine.

    Attributes:
        operator: the operator's name (:data:`OPERATOR`).
        name: the site's short name (in finding keys).
        clauses: the clause ids the site implements.
        question: the question a surviving reading asks, in plain words.
        readings: the readings tried, each as a mutant engine.
        engine: the shipped engine's reading under a rule set (a value of ``readings``; it is
            played only when the engine has been replaced).
        applies: whether the site exists in a rule set.
        entry: the register entry posing this question, if one does (a survivor is then
            explained by it).
        observe: compare each seat's observation too (visibility sites).
    """

    operator: str
    name: str
    clauses: tuple[str, ...]
    question: str
    readings: tuple[Reading, ...]
    engine: Callable[[RuleSet], str]
    applies: Callable[[RuleSet], bool] = _every
    entry: str = ""
    observe: bool = False

    def key(self, value: str) -> str:
        """The finding key of a surviving reading."""
        return f"mutant {self.operator} {self.name}={value}"

    def reading(self, value: str) -> Reading:
        """The reading called ``value``.

        Raises:
            KeyError: no such reading.
        """
        for r in self.readings:
            if r.value == value:
                return r
        raise KeyError(value)


class MutantSites(Protocol):
    """What the search needs of a game (capability ``"mutants"``)."""

    def sites(self, rs: RuleSet) -> Sequence[Site]:
        """The sites of the engine of ``rs`` (those whose ``applies`` holds)."""
        ...

    def same(self, a: Any, b: Any) -> bool:
        """Whether two engine states are the same for the rules (a mutant may keep notes of
        its own in a state)."""
        ...

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        """A scenario file replaying the finding's witness in the engine.

        Raises:
            ValueError: the witness does not replay.
        """
        ...


@dataclass(frozen=True)
class SiteList:
    """A game's capability ``"mutants"`` (:class:`MutantSites`) made of its functions.

    Attributes:
        sites_of: the sites of the engine of a rule set.
        witness_of: (rule set, finding) -> a witness scenario file's text; raises ValueError
            when the witness does not replay.
        same_of: whether two engine states are the same for the rules (default: ``==``).
    """

    sites_of: Callable[[RuleSet], Sequence[Site]]
    witness_of: Callable[[RuleSet, Finding], str]
    same_of: Callable[[Any, Any], bool] = field(default=lambda a, b: bool(a == b))

    def sites(self, rs: RuleSet) -> Sequence[Site]:
        """:attr:`sites_of` of ``rs``."""
        return self.sites_of(rs)

    def same(self, a: Any, b: Any) -> bool:
        """:attr:`same_of` of the two states."""
        return self.same_of(a, b)

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        """:attr:`witness_of` of the finding.

        Raises:
            ValueError: the witness does not replay.
        """
        return self.witness_of(rs, finding)


def mutants_of(p: GamePlugin) -> MutantSites | None:
    """The mutants capability of a game (None if it has none)."""
    found: MutantSites | None = p.capability(CAPABILITY)
    return found


# ----------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Witness:
    """Where play first differs: seed, the actions before (as text), the action, and the
    choices (indices into the mutant's legal actions) that lead there."""

    seed: int
    prefix: tuple[str, ...]
    action: str
    choices: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """What became of one reading of one site on one rule set.

    Attributes:
        site, value: the site and the reading.
        status: ``killed``, ``survived``, ``unchanged`` (play never differed), ``skipped``
            (the shipped engine's own reading) or ``cut`` (out of time).
        clauses: the clauses whose contracts killed it.
        how: how each killed it (``forbids``, ``permits`` or ``requires``).
        witness: the first state where play differed (killed: where it was killed).
        games: games played; differing: games in which play differed.
        plays: the named readings of contracts (:func:`alternatives_of`) the mutant kept to
            where the engine kept to none of them: (clause, reading, option, value), the option
            and value that play the reading in the engine ('' if none).
    """

    site: Site
    value: str
    status: str
    clauses: tuple[str, ...] = ()
    how: tuple[str, ...] = ()
    witness: Witness | None = None
    games: int = 0
    differing: int = 0
    plays: tuple[tuple[str, str, str, str], ...] = ()


@dataclass
class _Game:
    """One game of a mutant, step by step (mutable while it is played)."""

    seed: int
    choices: list[int] = field(default_factory=list)
    prefix: list[str] = field(default_factory=list)
    alive: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    engine: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    named: dict[tuple[str, str], tuple[Any, ...]] = field(default_factory=dict)

    def plays(self) -> list[tuple[str, str, str, str]]:
        """The readings the mutant kept to in this game where the engine kept to none of
        them: (clause, reading, option, value)."""
        out: list[tuple[str, str, str, str]] = []
        for key, left in self.alive.items():
            if not left or key not in self.engine or left & self.engine[key]:
                continue
            for x in self.named[key]:
                if x.name in left:
                    option = getattr(x, "option", None) or ("", "")
                    out.append((key[0], x.name, str(option[0]), str(option[1])))
        return out


def alternatives_of(c: Contract) -> tuple[Any, ...]:
    """The named readings of a contract whose clause admits several (none for a contract of
    one reading)."""
    found: tuple[Any, ...] = getattr(c, "alternatives", ())
    return found


def permitting_every(contracts: Iterable[Contract], state: Any, action: Any) -> list[str]:
    """Clause ids of the contracts that permit ``action`` in ``state`` under every reading of
    their clause: refusing it breaks the clause, however it is read."""
    out: list[str] = []
    for c in contracts:
        alts = alternatives_of(c)
        if (c.permits is not None and c.permits(state, action)) or (alts and all(
                x.permits is not None and x.permits(state, action) for x in alts)):
            out.append(c.clause)
    return out


def _kept(c: Contract, m: Any, extra: Sequence[Any], missing: Sequence[Any], a: Any,
          nxt: Any) -> frozenset[str]:
    """The readings of ``c`` a step keeps to: the legal actions added (none of them
    forbidden by the reading), those refused (none permitted by it) and the transition taken."""
    kept = []
    for x in alternatives_of(c):
        if any(x.forbids is not None and x.forbids(m, y) for y in extra):
            continue
        if any(x.permits is not None and x.permits(m, y) for y in missing):
            continue
        if x.accepts(m, a, nxt):
            kept.append(x.name)
    return frozenset(kept)


def _equal(a: Any, b: Any) -> bool:
    return bool(a == b)


class _Judge:
    """Plays a mutant against the engine of a rule set and judges it by the contracts."""

    def __init__(self, rs: RuleSet, base: GameBase[Any], mutant_game: GameBase[Any],
                 sets: Sequence[ContractSet] | None, same: Callable[[Any, Any], bool],
                 observe: bool) -> None:
        self.rs = rs
        self.base = base
        self.mutant = mutant_game
        self.sets = sets
        self.same = same
        self.observe = observe

    def contracts(self, m: Any) -> tuple[Contract, ...]:
        return self.rs.contracts(m, self.sets)

    def differs(self, m: Any, pick: Callable[[int], int], game: _Game | None = None
                ) -> tuple[Any, Any, int, str | None, list[tuple[str, str]]]:
        """One step from engine state ``m``: (the action, the mutant's successor, its index
        among the mutant's legal actions, the action at which play differs here or None, the
        violations of the difference). A clause whose text admits several readings is broken
        when no reading of it is kept to by every difference of the game so far (``game``
        holds what is left of them)."""
        lm = tuple(self.mutant.model_legal(m))
        try:
            le = tuple(self.base.model_legal(m))
        except Exception:  # the engine cannot judge a state only the mutant reaches
            le = lm
        le_set, lm_set = set(le), set(lm)
        extra = [a for a in lm if a not in le_set]
        missing = [a for a in le if a not in lm_set]
        index = pick(len(lm))
        a = lm[index]
        nxt, shown = self.mutant.model_step(m, a)
        where: str | None = None
        bad: list[tuple[str, str]] = []
        contracts: tuple[Contract, ...] | None = None
        if extra or missing:
            contracts = self.contracts(m)
            where = str(extra[0] if extra else missing[0])
            for x in extra:
                bad += [(c, "forbids") for c in forbidding(contracts, m, x)]
            for x in missing:
                bad += [(c, "permits") for c in permitting_every(contracts, m, x)]
        changed = a not in le_set or self.mutant.model_to_move(m) != self.base.model_to_move(m)
        eng = None
        if a in le_set:
            eng, eng_shown = self.base.model_step(m, a)
            changed = changed or not self.same(nxt, eng)
            if not changed and self.observe:
                changed = shown != eng_shown or self._seen(self.mutant, nxt) != self._seen(
                    self.base, eng)
        if changed:
            where = where or str(a)
            contracts = contracts if contracts is not None else self.contracts(m)
            own = {(v.clause, v.how) for v in broken(contracts, m, a, eng)} \
                if eng is not None else set()
            bad += [(v.clause, v.how) for v in broken(contracts, m, a, nxt)
                    if (v.clause, v.how) not in own]
        if where is not None and game is not None and contracts is not None:
            bad += self._readings(game, contracts, m, extra, missing, a, nxt, eng,
                                  {c for c, _ in bad})
        return a, nxt, index, where, bad

    def _readings(self, game: _Game, contracts: Sequence[Contract], m: Any,
                  extra: Sequence[Any], missing: Sequence[Any], a: Any, nxt: Any, eng: Any,
                  seen: set[str]) -> list[tuple[str, str]]:
        """Narrow the readings each clause of several readings keeps to in this game (the
        mutant's and, where the engine took the same action, the engine's); a clause left with
        none is broken (``readings``)."""
        bad: list[tuple[str, str]] = []
        for c in contracts:
            alts = alternatives_of(c)
            if not alts:
                continue
            key = (c.clause, c.what)
            every = frozenset(x.name for x in alts)
            now = _kept(c, m, extra, missing, a, nxt)
            left = game.alive.get(key, every) & now
            game.alive[key] = left
            game.named[key] = alts
            if eng is not None:  # the engine allows what the mutant refuses, and back
                game.engine[key] = game.engine.get(key, every) & _kept(
                    c, m, missing, extra, a, eng)
            if not left and c.clause not in seen:
                bad.append((c.clause, "readings"))
                seen.add(c.clause)
        return bad

    def _seen(self, game: GameBase[Any], nxt: Any) -> tuple[str, ...]:
        """What each seat observes in ``nxt`` under ``game``'s observer."""
        state = game.from_model(nxt)
        return tuple(game.observation_string(state, p) for p in range(game.num_players))

    def start(self, seed: int) -> GameState:
        return settle(self.rs, self.mutant.new_seeded_state(seed))

    def play(self, seed: int, max_steps: int, choices: Sequence[int] | None = None,
             deadline: float | None = None, stop_at_difference: bool = False
             ) -> tuple[Witness | None, Witness | None, list[tuple[str, str]],
                        list[tuple[str, str, str, str]]]:
        """One game: (the first difference, the kill, the violations of the kill, the readings
        the mutant kept to where the engine did not, :meth:`_Game.plays`). With
        ``choices`` the mutant's legal actions are picked by index (modulo), else by a
        ``random.Random`` seeded from ``seed``."""
        rng = random.Random(9_000 + seed)
        game = _Game(seed)
        state = self.start(seed)
        first: Witness | None = None
        limit = max_steps if choices is None else min(max_steps, len(choices))
        for i in range(limit):
            if state.is_terminal():
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            m = state.model

            def pick(n: int, i: int = i) -> int:
                return choices[i] % n if choices is not None else rng.randrange(n)

            try:
                action, nxt, index, where, bad = self.differs(m, pick, game)
            except IllegalAction:  # a mutant that cannot go on from here
                break
            game.choices.append(index)
            if where is not None:
                here = Witness(seed, tuple(game.prefix), where, tuple(game.choices))
                if first is None:
                    first = here
                if bad:
                    return first, here, bad, []
                if stop_at_difference:
                    return first, None, [], game.plays()
            game.prefix.append(str(action))
            state = settle(self.rs, self.mutant.from_model(nxt, state.moves + 1))
        return first, None, [], game.plays()


def judge(rs: RuleSet, site: Site, value: str, base: GameBase[Any],
          sets: Sequence[ContractSet] | None, games: int, max_steps: int,
          deadline: float | None = None, same: Callable[[Any, Any], bool] = _equal,
          shrink: bool = True) -> Outcome:
    """Play ``games`` seeded games of the reading ``value`` of ``site`` on ``base`` (the
    rule set's engine) and judge it by the contracts of ``rs`` (``sets`` replace them)."""
    j = _Judge(rs, base, site.reading(value).mutate(base), sets, same, site.observe)
    best: Witness | None = None
    differing = 0
    played = 0
    plays: set[tuple[str, str, str, str]] = set()
    for g in range(games):
        if deadline is not None and time.perf_counter() > deadline:
            return Outcome(site, value, "cut", witness=best, games=played, differing=differing)
        played += 1
        first, kill, bad, kept = j.play(g, max_steps, deadline=deadline)
        plays.update(kept)
        if first is not None:
            differing += 1
            if best is None or len(first.prefix) < len(best.prefix):
                best = first
        if kill is not None:
            clauses = tuple(dict.fromkeys(c for c, _ in bad))
            how = tuple(dict.fromkeys(h for _, h in bad))
            return Outcome(site, value, "killed", clauses, how, kill, played, differing)
    if best is None:
        return Outcome(site, value, "unchanged", games=played)
    if shrink:
        best = _shrink(j, best, max_steps, deadline)
    return Outcome(site, value, "survived", witness=best, games=played, differing=differing,
                   plays=tuple(sorted(plays)))


def _shrink(j: _Judge, w: Witness, max_steps: int, deadline: float | None,
            budget: int = 40) -> Witness:
    """A shorter way to a difference: greedy delta debugging on the choices (drop chunks;
    a candidate is kept when play still differs somewhere along it); at most ``budget``
    replays."""
    best = w
    tries = 0
    chunk = max(1, len(best.choices) // 2)
    while chunk >= 1 and tries < budget:
        i = 0
        changed = False
        while i < len(best.choices) and tries < budget:
            if deadline is not None and time.perf_counter() > deadline:
                return best
            cand = best.choices[:i] + best.choices[i + chunk:]
            tries += 1
            found = j.play(best.seed, max_steps, cand, stop_at_difference=True)[0] \
                if cand else None
            if found is not None and len(found.prefix) < len(best.prefix):
                best = found
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return best


# ----------------------------------------------------------------------------- the search


def source_of(rs: RuleSet, site: Site) -> str:
    """The source a site's question belongs to in ``rs``: the first of its clauses' sources
    that the rule set follows, else the rule set's first source."""
    for c in site.clauses:
        src = c.partition(":")[0]
        if src in rs.sources:
            return src
    return rs.sources[0] if rs.sources else ""


def entry_playing(game: str, plays: Iterable[tuple[str, str, str, str]]) -> str:
    """The register entry of ``game`` that poses the question of one of the contract readings
    ``plays`` (:attr:`Outcome.plays`): its rule option plays the reading (the option's value
    among its readings), or it names the reading among its readings and the clause among its
    clauses ('' if none)."""
    from ruleproof.properties.contracts.register import entries

    wanted = list(plays)
    if not wanted:
        return ""
    for e in entries(game):
        values = {r.value for r in e.readings}
        for clause, reading, option, value in wanted:
            if (option and e.option == option and value in values) or (
                    clause in e.clauses and reading in values):
                return e.id
    return ""


def finding(rs: RuleSet, o: Outcome) -> Finding:
    """The finding of a surviving reading, explained by the site's register entry if it names
    one, else by the entry whose rule option plays the contract reading the mutant kept to
    (:func:`entry_playing`)."""
    site = o.site
    assert o.witness is not None
    engine = site.engine(rs)
    mine = site.reading(engine) if any(r.value == engine for r in site.readings) else None
    other = site.reading(o.value)
    readings = ((f"{mine.value}: {mine.summary}",) if mine is not None else ()) + (
        f"{other.value}: {other.summary}",)
    detail = (f"the mutant '{o.value}' ({other.summary}) changes play here "
              f"({o.differing} of {o.games} games) and breaks no contract of "
              f"{', '.join(rs.sources)}; the engine reads '{engine}'")
    if o.plays:
        detail += "; it keeps to " + "; ".join(
            f"the reading '{r}' of {c}" + (f" ({opt}={v})" if opt else "")
            for c, r, opt, v in o.plays)
    explained = site.entry or entry_playing(rs.game, o.plays)
    return Finding(KIND, site.key(o.value), rs.name, site.clauses, o.witness.seed,
                   o.witness.prefix, o.witness.action, detail, explained, (), site.question,
                   readings, source_of(rs, site), "mutants")


def outcomes(rs: RuleSet, sites: Iterable[Site], base: GameBase[Any],
             sets: Sequence[ContractSet] | None, games: int, max_steps: int,
             deadline: float | None = None, same: Callable[[Any, Any], bool] = _equal,
             replaced: bool = False) -> list[Outcome]:
    """Every reading of every site judged on ``rs`` (the shipped engine's reading skipped
    unless the engine was ``replaced``)."""
    out: list[Outcome] = []
    for site in sites:
        if not site.applies(rs):
            continue
        engine = site.engine(rs)
        for r in site.readings:
            if r.value == engine and not replaced:
                out.append(Outcome(site, r.value, "skipped"))
                continue
            out.append(judge(rs, site, r.value, base, sets, games, max_steps, deadline, same))
    return out


def stats_of(rs: RuleSet, found: Sequence[Outcome], seconds: float) -> dict[str, Any]:
    """Figures for the report: adequacy per source (killed / survived), per rule set the
    count of each status, the clauses that killed, the time, and the *contested* kills: a
    reading of a question a register entry holds open, killed by a contract (the contract
    states one reading, or the entry is settled)."""
    adequacy: dict[str, dict[str, int]] = {}
    status: dict[str, int] = {}
    killers: dict[str, int] = {}
    kills: list[str] = []
    contested: list[str] = []
    for o in found:
        status[o.status] = status.get(o.status, 0) + 1
        if o.status in ("killed", "survived"):
            src = adequacy.setdefault(source_of(rs, o.site), {"killed": 0, "survived": 0})
            src[o.status] += 1
        if o.status == "killed":
            for c in o.clauses:
                killers[c] = killers.get(c, 0) + 1
            kills.append(f"{rs.name}: {o.site.key(o.value)} killed by {', '.join(o.clauses)}")
            if o.site.entry:
                contested.append(f"{rs.name}: {o.site.key(o.value)} killed by "
                                 f"{', '.join(o.clauses)}, though {o.site.entry} holds it open")
    return {"adequacy": adequacy, "mutants": {rs.name: {**status, "seconds": round(seconds, 2)}},
            "killed_by": killers, "kills": kills, "contested": contested}


GAMES = {"ci": 3, "default": 8, "thorough": 40}
"""Games per reading by the profile's number of games (the budget's ``games``): the ci budget's
4 games become 3 here, so the search keeps to its share of a ci run."""


def games_for(budget: Budget) -> int:
    """Games per reading for ``budget`` (:data:`GAMES`, by the budget's games)."""
    if budget.games <= 4:
        return GAMES["ci"]
    if budget.games <= 12:
        return GAMES["default"]
    return GAMES["thorough"]


def search(unit: Any, budget: Budget, deadline: float | None, context: Any) -> SearchResult:
    """The search kind ``mutants`` on the rule set of ``unit`` (a discovery ``Search``):
    every reading of every site of the game's capability ``"mutants"`` judged by the rule
    set's contracts (``context.sets_for``/``context.game_for`` replace them, teeth tests).
    Survivors are findings; the stats hold the adequacy per source."""
    rs = rule_set(unit.rule_set)
    cap = mutants_of(plugin(rs.game))
    if cap is None:
        return SearchResult([], {})
    start = time.perf_counter()
    sets = context.sets_for(rs) if getattr(context, "sets_for", None) else None
    planted = context.game_for(rs) if getattr(context, "game_for", None) else None
    base = planted if planted is not None else game_of(rs)
    found = outcomes(rs, cap.sites(rs), base, sets, games_for(budget), budget.max_steps,
                     deadline, cap.same, replaced=planted is not None)
    findings = [finding(rs, o) for o in found if o.status == "survived"]
    return SearchResult(findings, stats_of(rs, found, time.perf_counter() - start))


__all__ = ["CAPABILITY", "KIND", "OPERATOR", "OPERATORS", "MutantGame", "MutantSites",
           "Operator", "Outcome", "Reading", "Site", "Witness", "alternatives_of",
           "entry_playing", "finding", "judge", "mutant", "mutants_of", "outcomes",
           "permitting_every", "post", "refusing", "search", "source_of", "stats_of"]
