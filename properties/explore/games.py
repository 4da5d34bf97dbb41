"""What the explorer needs of a game, and how it reaches a game: through the game's plugin
record only (capability ``explore``, :class:`ExploreSupport`).

An :class:`ExploreGame` gives the explorer what a model checker needs and nothing more:

* ``roots()``: the initial states, each with the header of a replayable trace starting there
  (a game with a chance set-up may start before it, so every chance outcome is a successor,
  or at a documented set of seeded set-ups);
* ``successors(state)``: ``(action string, next state)`` for every legal action, in the model's
  deterministic order (chance outcomes count as actions: nondeterminism);
* ``view(state)``: the part of a state its future depends on, as a tuple of plain values (or
  a compact code, :mod:`ruleproof.properties.explore.encoding`) whose ``repr`` is canonical;
  the fingerprint is a hash of it. Fields that are only observed or logged and never read by
  a transition are left out -- TLC calls such a projection a VIEW; each game argues its
  omissions in its module and in docs/explore.md;
* ``canonical(view)``: the view's representative under the game's symmetry group, if
  symmetry reduction is on;
* ``violations(state)``: every invariant of the game's invariant module, as ``name: text``;
* ``step_violations(before, action, after)``: the clause contracts of the rule set
  (``properties/contracts``) and the game's transition properties, broken by one step.

The games' explorers live in ``properties/<game>/explore.py``; the generic explorer
(``search.py``, ``distributed.py``, the CLI) finds a reduced configuration's game with
:func:`explore_game`, which asks the registry (:func:`ruleproof.properties.plugin.plugin`)
for the game the file names and that game's ``explore`` capability. A game without it is
refused with the reason (:class:`~ruleproof.properties.plugin.Unsupported`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from ruleproof.errors import MalformedInput
from ruleproof.properties.contracts.core import broken, contract_set, parts_of
from ruleproof.properties.contracts.games import contracts_of
from ruleproof.properties.explore.encoding import fingerprint
from ruleproof.properties.plugin import RuleSet, Unsupported, plugin, plugins, require
from ruleproof.spec.reduced import (
    Expected,
    ReducedSpec,
    expected_results,
    playout_position,
    reduced,
    reduced_files,
)

REDUCED_KEY = "reduced"
"""Trace headers name the reduced configuration under this key (``"reduced": NAME``)."""

CAPABILITY = "explore"
"""The name of the capability in a game's plugin record (:class:`ExploreSupport`)."""

View = tuple[Any, ...]


@dataclass(frozen=True)
class Root:
    """An initial state and how a trace names it.

    Attributes:
        label: e.g. ``seed 3`` or ``set-up``.
        state: the model state.
        header: the trace header fields for it: ``players``, ``options`` (with
            :data:`REDUCED_KEY`), and ``seed`` or ``setup``; optionally ``preset``.
        prefix: see below.
    """

    label: str
    state: Any
    header: dict[str, Any] = field(default_factory=dict)
    prefix: tuple[str, ...] = ()
    """The actions from the game's own start to ``state`` (a set-up's ``[playout]``): every
    trace from this root begins with them, so it replays from the real start."""


# ----------------------------------------------------------------------- configurations


def spec_folders() -> tuple[Path, ...]:
    """The data folders of every registered game (where their ``reduced/`` folders are)."""
    return tuple(p.spec_folder for p in plugins().values())


def shipped() -> tuple[str, ...]:
    """Names of the reduced configurations of every registered game, sorted."""
    return tuple(sorted(reduced_files(spec_folders())))


def pinned_results() -> tuple[Expected, ...]:
    """The pinned results (``reduced/expected.toml``) of every registered game."""
    return expected_results(folders=spec_folders())


def configuration(name_or_path: str) -> ReducedSpec:
    """A reduced configuration by name (of any registered game) or file path, with its game
    known to the registry and its player count one the game has.

    Raises:
        MalformedInput: an unknown name or game (naming the known ones), a player count the
            game does not have, or an invalid file (file and line).
    """
    spec = reduced(name_or_path, spec_folders())
    try:
        p = plugin(spec.game)
    except MalformedInput as exc:
        raise spec.error(exc.what, "game") from None
    counts = p.game_type.players
    if counts and spec.players not in counts:
        raise spec.error(f"'players' must be one of {', '.join(map(str, counts))} for "
                         f"{p.name}, got {spec.players}", "players")
    return spec


def spec_ref(spec: ReducedSpec) -> str:
    """How a trace names the reduced configuration: its name if shipped, else its file (an
    absolute path, so the trace replays from any folder)."""
    if spec.name in shipped() and Path(configuration(spec.name).path).resolve() == Path(
            spec.path).resolve():
        return spec.name
    return str(Path(spec.path).resolve())


# ----------------------------------------------------------------------- the game


class ExploreGame:
    """What the explorer asks of a game (see the module docstring); a game's explorer
    subclasses it in ``properties/<game>/explore.py``.

    Attributes:
        name: the game's name (as registered).
        spec: the reduced configuration explored.
        symmetry: whether :meth:`canonical` reduces by the game's symmetry group.
        symmetry_note: how the result reports the reduction (``off`` without one).
        rule_set: the rule set whose clause contracts are checked on every transition, or
            None (contracts off).
    """

    name: str = ""
    spec: ReducedSpec
    symmetry: bool = False
    symmetry_note: str = "off"
    rule_set: RuleSet | None = None
    played: RuleSet | None = None
    """The rule set the configuration plays, whether or not its contracts are checked: its
    sources are the clauses clause coverage counts (:meth:`fired`); None: no coverage."""

    def roots(self) -> list[Root]:  # pragma: no cover - abstract
        """The initial states, in a fixed order (before any ``[playout]``: the explorer
        starts from :func:`started_roots`)."""
        raise NotImplementedError

    def successors(self, state: Any) -> list[tuple[str, Any]]:  # pragma: no cover
        """``(action string, next state)`` per legal action (chance outcomes included), in
        the model's deterministic order. May raise: a model error is a finding."""
        raise NotImplementedError

    def is_terminal(self, state: Any) -> bool:  # pragma: no cover
        raise NotImplementedError

    def view(self, state: Any) -> View:  # pragma: no cover
        """The part of ``state`` its future depends on (see the module docstring)."""
        raise NotImplementedError

    def canonical(self, view: View) -> str | View:
        """The representative of ``view``'s orbit as a canonical string (``repr``); a game
        with a compact code returns the code."""
        return repr(view)

    def fp(self, state: Any) -> int:
        """The state's 64-bit fingerprint: of the canonical form of its view."""
        return fingerprint(self.canonical(self.view(state)))

    def fingerprinter(self) -> Callable[[Any], int]:
        """The function the explorer calls for each successor's fingerprint: :meth:`fp`
        (a game may return a cheaper callable giving the same values)."""
        return self.fp

    def next_states(self, state: Any) -> list[Any]:
        """The successors of ``successors(state)``, without the action strings (which only
        traces need)."""
        return [s for _, s in self.successors(state)]

    @property
    def step_checks(self) -> bool:
        """Whether :meth:`step_violations` can report anything (else the explorer skips it)."""
        return self.rule_set is not None

    def violations(self, state: Any) -> list[str]:  # pragma: no cover
        """Every invariant ``state`` breaks, as ``name: text``."""
        raise NotImplementedError

    def typed(self, action: str) -> Any:  # pragma: no cover - abstract
        """The typed action an action string of :meth:`successors` names."""
        raise NotImplementedError

    def step_violations(self, before: Any, action: str, after: Any,
                        contracts: Sequence[Any] | None = None) -> list[str]:
        """The clause contracts (``properties/contracts``, ``requires``/``forbids``) broken by
        the transition ``before --action--> after``, as ``contract CLAUSE: text``.
        ``contracts``: those of :attr:`rule_set` that apply to ``before``, if the caller has
        looked them up already (once for all the successors of a state); a game that adds
        checks of its own passes them on."""
        if self.rule_set is None:
            return []
        if contracts is None:
            contracts = self.rule_set.contracts(before)
        return [f"contract {v.clause}: {v.how} {v.what}" for v in broken(
            contracts, before, self.typed(action), after)]

    def checked_next_states(self, state: Any) -> tuple[list[Any], list[tuple[int, str]]]:
        """The successors of ``successors(state)``, in order, and every violation
        :meth:`step_violations` reports for their transitions, as ``(successor index,
        "step ACTION: text")`` in index order: the explorer's expansion of a state when
        :attr:`step_checks` is on (without clause coverage). A game may override it to do
        both in one pass (e.g. one trusted transition that gives the successor and the
        events its transition properties read, instead of stepping again per check).
        May raise: a model error is a finding."""
        succ = self.successors(state)
        contracts = self.rule_set.contracts(state) if self.rule_set is not None else ()
        bad = [(i, f"step {action}: {v}") for i, (action, after) in enumerate(succ)
               for v in self.step_violations(state, action, after, contracts)]
        return [after for _, after in succ], bad

    def covered_next_states(self, state: Any) -> tuple[list[Any], list[tuple[str, ...]],
                                                       list[tuple[int, str]]]:
        """The expansion of ``state`` with clause coverage: the successors of
        ``successors(state)`` in order, per successor the clauses :meth:`fired` gives, and
        the violations :meth:`step_violations` reports, as ``(successor index, "step ACTION:
        text")`` in index order (what :meth:`checked_next_states` gives). The contracts that
        apply to ``state`` are looked up once for all its successors. A game may override it
        to step each action once for all three. May raise: a model error is a finding.

        Raises:
            ValueError: the game has no :attr:`played` rule set (no coverage).
        """
        succ = self.successors(state)
        fired = self.fired(state, succ)
        bad: list[tuple[int, str]] = []
        if self.step_checks:
            contracts = self.rule_set.contracts(state) if self.rule_set is not None else ()
            for i, (action, after) in enumerate(succ):
                for v in self.step_violations(state, action, after, contracts):
                    bad.append((i, f"step {action}: {v}"))
        return [after for _, after in succ], fired, bad

    def engine_clauses(self, before: Any, action: str, after: Any) -> tuple[str, ...]:
        """The clause ids the engine itself cites for the transition (its events or log
        lines, as the conformance adapter's ``cited`` reads them); () if it cites none."""
        return ()

    def probes(self, state: Any) -> Sequence[Any]:
        """Typed actions a player might try in ``state`` (legal or not): what a clause that
        only forbids is probed with for coverage (:meth:`refused`); () if the game has none."""
        return ()

    def refused(self, state: Any) -> tuple[str, ...]:
        """The clauses of :attr:`played` that only forbid (no ``permits``, ``requires`` or
        readings: they never speak on a legal transition) and forbid one of
        :meth:`probes` in ``state``: a legality rule exercised by refusing an action.

        Raises:
            ValueError: the game has no :attr:`played` rule set.
        """
        probes = self.probes(state)
        if not probes:
            return ()
        return tuple(c.clause for c in self._contracts(state)
                     if c.forbids is not None and c.permits is None and c.requires is None
                     and not c.alternatives and any(c.forbids(state, a) for a in probes))

    def _contracts(self, state: Any) -> tuple[Any, ...]:
        if self.played is None:
            raise ValueError(f"{self.name}: no rule set to count clause coverage against")
        sets = self.__dict__.get("_coverage_sets")
        if sets is None:  # the sources' contract sets and their parts (quick reference...);
            # a source without contracts adds none (its clauses fire by the engine's citations)
            sets = self.__dict__["_coverage_sets"] = tuple(
                x for cs in _contract_sets(self.played.sources)[0]
                for x in (cs, *parts_of(cs.source)))
        return self.played.contracts(state, sets)

    def fired(self, before: Any, succ: Sequence[tuple[str, Any]]) -> list[tuple[str, ...]]:
        """Per successor ``(action, after)`` of ``before``: the rule clauses the transition
        exercised -- the engine's citations (:meth:`engine_clauses`) and every clause of
        :attr:`played` (its sources and their parts: quick reference, worked examples) whose
        contract speaks on it (permits the action under some reading,
        forbids it, or has a verdict on the successor: ``requires`` not None). Clause ids
        of the played sources and of the engine; the caller keeps those of the sources.

        Raises:
            ValueError: the game has no :attr:`played` rule set (no coverage).
        """
        contracts = self._contracts(before) if succ else ()
        out: list[tuple[str, ...]] = []
        for action, after in succ:
            typed = self.typed(action)
            hit = dict.fromkeys(self.engine_clauses(before, action, after))
            for c in contracts:
                if c.clause not in hit and speaks(c, before, typed, after):
                    hit[c.clause] = None
            out.append(tuple(hit))
        return out


def _contract_sets(sources: Sequence[str]) -> tuple[list[Any], list[str]]:
    """The clause-contract sets of those of ``sources`` that have them, in order, and the
    sources that have none."""
    found: list[Any] = []
    missing: list[str] = []
    for source in sources:
        try:
            found.append(contract_set(source))
        except KeyError:
            missing.append(source)
    return found, missing


def speaks(c: Any, state: Any, action: Any, nxt: Any) -> bool:
    """Whether the contract ``c`` says anything about the transition ``state --action-->
    nxt``: permits or forbids the action under some reading, or has a verdict (True or
    False) on the successor under the common predicates or some reading; never where the
    contract's situation (``Contract.when``) did not arise."""
    if c.when is not None and not c.when(state, action, nxt):
        return False
    if c.permits_some(state, action) or c.forbids_some(state, action):
        return True
    if c.requires is not None and c.requires(state, action, nxt) is not None:
        return True
    return any(x.speaks(state, action, nxt) for x in c.alternatives)


# ----------------------------------------------------------------------- the capability


class ExploreSupport(Protocol):
    """The ``explore`` capability of a game's plugin record: the game's side of exhaustive
    exploration (``properties/<game>/explore.py``)."""

    def parse(self, spec: ReducedSpec) -> Any:
        """The game's own part of a reduced file (``spec.table``) and its counts, validated
        against the game's data.

        Raises:
            MalformedInput: naming the file and, where it can, the line (``spec.error``).
        """
        ...

    def game(self, spec: ReducedSpec, *, symmetry: bool, contracts: bool) -> ExploreGame:
        """The game's :class:`ExploreGame` for ``spec`` (whose common part is valid and whose
        player count is one the game has). ``symmetry``: reduce by the game's symmetry group;
        ``contracts``: check the clause contracts of the matching rule set on every
        transition.

        Raises:
            MalformedInput: an invalid game part (as :meth:`parse`), or symmetry where the
                game has none or it is unsound.
        """
        ...

    def start_state(self, spec: ReducedSpec, seed: int | None,
                    setup: Mapping[str, Any] | None) -> Any:
        """The initial model state a replayable trace of ``spec`` names by its header's
        ``seed`` or ``setup`` (``ruleproof replay`` replays explorer traces with it).

        Raises:
            MalformedInput: a set-up that does not fit the configuration.
        """
        ...


def support(spec: ReducedSpec) -> ExploreSupport:
    """The ``explore`` capability of the game ``spec`` names.

    Raises:
        MalformedInput: an unknown game (naming the known ones, with the file and line);
            :class:`~ruleproof.properties.plugin.Unsupported` if the game has no
            ``explore`` capability.
    """
    try:
        p = plugin(spec.game)
    except MalformedInput as exc:
        raise spec.error(exc.what, "game") from None
    return cast(ExploreSupport, require(p, CAPABILITY, "exhaustive exploration (ruleproof "
                                                       "explore)"))


def explore_game(name_or_path: str, *, symmetry: bool = False,
                 contracts: bool = False) -> ExploreGame:
    """The game's explorer for a reduced configuration (shipped name or file path).

    Raises:
        MalformedInput: unknown configuration or game, invalid file, a game without the
            ``explore`` capability, or symmetry where the game has none;
            :class:`~ruleproof.properties.plugin.Unsupported` for ``contracts`` where a source
            of the rule set explored has no clause contracts.
    """
    spec = configuration(name_or_path)
    game = support(spec).game(spec, symmetry=symmetry, contracts=contracts)
    missing = _contract_sets(game.rule_set.sources)[1] if game.rule_set is not None else []
    if missing:
        raise Unsupported(f"{spec.game} has no clause contracts of {missing[0]} (no registered "
                          "game's contracts capability lists it), so they cannot be checked on "
                          "every transition; run with --no-contracts")
    return game


def contracts_off(name_or_path: str) -> str:
    """Why exploring the configuration checks no clause contracts by default ('' if it
    does): its game has no ``contracts`` capability. (A game with the capability that lacks a
    source's contracts is refused by :func:`explore_game` instead: a gap in its plugin.)

    Raises:
        MalformedInput: unknown configuration or game, invalid file.
    """
    spec = configuration(name_or_path)
    if contracts_of(plugin(spec.game)) is None:
        return f"{spec.game} has no contracts capability"
    return ""


def start_state(game: str, options: Mapping[str, str], seed: int | None,
                setup: Mapping[str, Any] | None) -> Any:
    """The initial state a replayable trace with ``"reduced"`` in its options names (used by
    the conformance adapters so that ``ruleproof replay`` replays explorer traces).

    Raises:
        MalformedInput: unknown reduced configuration, one of another game, or a set-up that
            does not fit it.
    """
    name = options[REDUCED_KEY]
    spec = configuration(name)
    if spec.game != game:
        raise MalformedInput(f"reduced configuration {name!r} is for {spec.game}, not {game}")
    return support(spec).start_state(spec, seed, setup)


def paths_of(values: Sequence[str]) -> list[Path]:
    """Helper for the CLI: strings to paths."""
    return [Path(v) for v in values]


def started_roots(game: ExploreGame) -> list[Root]:
    """Where exploring ``game`` starts: its :meth:`~ExploreGame.roots`, each moved along the
    set-up's ``[playout]`` if it has one (``ReducedSpec.playout``): ``actions`` random legal
    actions, each chosen uniformly among the state's successors in the model's order by one
    ``random.Random(seed)`` per root. So a set-up may start late in a game (where a rule comes
    up within a state space small enough to exhaust) and still explore only states reachable
    from the real start; the actions taken are the root's ``prefix``, which every trace
    begins with. Deterministic: the same roots on every call (and on every Ray worker).

    Raises:
        MalformedInput: the playout reaches the end of the game (or a state without a legal
            action) before taking all its actions (file and line of ``[playout]``).
    """
    roots = game.roots()
    spec = game.spec
    playout = spec.playout
    if playout is None:
        return roots
    seed, count = playout
    line, col = playout_position(spec.text)
    out = []
    for root in roots:
        rng = random.Random(seed)
        state = root.state
        taken: list[str] = []
        for _ in range(count):
            nexts = [] if game.is_terminal(state) else game.successors(state)
            if not nexts:
                break
            action, state = nexts[rng.randrange(len(nexts))]
            taken.append(action)
        if len(taken) < count or game.is_terminal(state):
            # a start with the game over proves nothing: refused as a playout too long
            raise MalformedInput(
                f"[playout] of {_actions(count)}: from the root {root.label!r} the game ends "
                f"after {_actions(len(taken))} (seed {seed}); take fewer than "
                f"{len(taken)}", file=spec.path, line=line, col=col)
        out.append(Root(f"{root.label}, {_actions(count)} of playout {seed}", state,
                        root.header, (*root.prefix, *taken)))
    return out


def _actions(n: int) -> str:
    return f"{n} action{'' if n == 1 else 's'}"
