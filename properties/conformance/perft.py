"""Perft tables: how many action sequences and distinct states each depth holds (issue #25).

Chess engines' oldest conformance check, for every rule set of every game: from a few fixed
seeded set-ups, the number of distinct action sequences of exactly ``d`` actions (``perft(d)``;
a game that ends earlier contributes nothing to deeper counts; a chance outcome counts as an
action, as in the explorer) and the number of distinct states reachable in at most ``d``
actions (the set-up's own state included), for ``d = 1..D``; ``divide`` splits ``perft(D)`` by
the first action. An engine author compares them without the stdio protocol. A state is
identified without its history: by the conformance capability's ``state_identity`` (every
field of the state its future may depend on; :meth:`GameModel.state_identity`).

Every count is computed twice, by independent methods that must agree:

* **explorer**: the breadth-first explorer (:class:`~ruleproof.properties.explore.search.Explorer`),
  its states merged by fingerprint, over the conformance capability's action strings
  (:meth:`GameModel.legal`, :meth:`GameModel.apply`: notation parsed to typed actions);
  sequences counted over its state graph (paths by multiplicity);
* **recursive**: a plain depth-first recursion over the game interface
  (``GameState.legal_actions`` ids and ``GameState.apply``), every sequence walked, states
  collected in a set.

The tables live in each game's data folder, ``spec/<game>/perft/<rule set>.json``
(:func:`table_path`; this module names no game), written by ``ruleproof perft --write`` and
checked by ``ruleproof perft --check`` (CI) and the tests.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameState
from ruleproof.properties.conformance.games import EXPANSION_KEY, PRESET_KEY, GameModel, model_of
from ruleproof.properties.explore.games import ExploreGame, Root, View
from ruleproof.properties.explore.search import Explorer
from ruleproof.properties.plugin import SHARED, RuleSet, all_rule_sets, plugin
from ruleproof.spec.reduced import ReducedSpec

FORMAT = "ruleproof-perft"
"""The ``format`` field of a table file."""

SEEDS = (0, 1, 2)
"""The seeded set-ups of every table: deal seed 0 and 1 with the fewest players the rule set
takes, seed 2 with the most."""

DEFAULT_DEPTH = 3
"""Depth of the shipped tables (unless the game's file says otherwise)."""


@dataclass(frozen=True)
class Setup:
    """One seeded set-up: ``players`` and the deal ``seed``; ``options`` the rule set's
    options (``preset`` and ``expansion`` included)."""

    players: int
    seed: int
    options: Mapping[str, str]


@dataclass(frozen=True)
class Counts:
    """Perft counts of one set-up.

    Attributes:
        sequences: ``sequences[d-1]``: distinct action sequences of exactly ``d`` actions.
        states: ``states[d-1]``: distinct states reachable in at most ``d`` actions.
        divide: first action -> sequences of exactly ``D`` actions starting with it (``D`` the
            deepest depth); the explorer's in the model's order of actions, the recursive
            count's in the order of action ids (compared as sets).
    """

    sequences: tuple[int, ...]
    states: tuple[int, ...]
    divide: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Table:
    """The perft table of one set-up of one rule set, as shipped.

    Attributes:
        game, rule_set: the game and rule set names.
        setup: the seeded set-up; ``explicit``: the explicit set-up it deals (what the
            protocol's ``new_game`` sends).
        counts: the counts (both methods agreed on them).
    """

    game: str
    rule_set: str
    setup: Setup
    explicit: Mapping[str, Any]
    counts: Counts

    def as_json(self) -> dict[str, Any]:
        """The table as a JSON object (a shipped file holds a list of them)."""
        return {"players": self.setup.players, "seed": self.setup.seed,
                "options": dict(sorted(self.setup.options.items())),
                "setup": dict(self.explicit),
                "depths": [{"depth": d + 1, "sequences": s, "states": n} for d, (s, n)
                           in enumerate(zip(self.counts.sequences, self.counts.states,
                                            strict=True))],
                "divide": {a: n for a, n in self.counts.divide}}


class Disagreement(AssertionError):
    """The explorer and the recursive count disagree (a bug of one of them or of the model's
    two action paths)."""


# --------------------------------------------------------------------------- rule sets


def rule_sets(game: str | None = None) -> list[RuleSet]:
    """Every rule set of ``game`` (default: of every registered game) with perft tables: all
    but the shared group.

    Raises:
        MalformedInput: an unknown game.
    """
    return [rs for rs in all_rule_sets(game) if rs.name != SHARED]


def find_rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` (``du-en``, ``default rules``, or ``GAME:NAME`` where
    names clash).

    Raises:
        MalformedInput: no such rule set (naming the known ones), or several games have it.
    """
    game, _, bare = name.rpartition(":")
    found = [rs for rs in rule_sets(game or None) if rs.name == bare]
    if len(found) == 1:
        return found[0]
    if not found:
        raise MalformedInput(f"unknown rule set {name!r}; known: {_known(rule_sets())} "
                             "(all: ruleproof perft --list)")
    raise MalformedInput(f"rule set {name!r} is in several games; name one: {_known(found)}")


def _known(sets: list[RuleSet], per_game: int = 3) -> str:
    """The rule sets named for an error line: the first ``per_game`` of each game and how many
    more (every game is named, however many readings one has)."""
    games: dict[str, list[str]] = {}
    for rs in sets:
        games.setdefault(rs.game, []).append(rs.name)
    parts = []
    for game, names in games.items():
        more = f" and {len(names) - per_game} more" if len(names) > per_game else ""
        parts.append(f"{game}: {', '.join(names[:per_game])}{more}")
    return "; ".join(parts)


def options_of(rs: RuleSet) -> dict[str, str]:
    """The conformance options of ``rs`` (``preset`` and ``expansion`` included)."""
    out = dict(rs.options)
    if rs.preset and model_of(rs.game).presets():
        out[PRESET_KEY] = rs.preset
    if out.get(EXPANSION_KEY) in ("none", ""):
        out.pop(EXPANSION_KEY)
    return out


def setups(rs: RuleSet, model: GameModel) -> list[Setup]:
    """The fixed seeded set-ups of ``rs`` (:data:`SEEDS`)."""
    opts = options_of(rs)
    counts = rs.players or model.player_counts(opts)
    few, most = min(counts), max(counts)
    return [Setup(few, SEEDS[0], opts), Setup(few, SEEDS[1], opts), Setup(most, SEEDS[2], opts)]


def slug(name: str) -> str:
    """A rule set's name as a file stem: ``du-en + gruft`` -> ``du-en+gruft``,
    ``default rules`` -> ``default-rules``, ``depths=known-own-only`` as it is."""
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "-", name.replace(" + ", "+")).strip("-")


def table_path(rs: RuleSet) -> Path:
    """Where the tables of ``rs`` are shipped: ``<game's data folder>/perft/<slug>.json``."""
    return plugin(rs.game).spec_folder / "perft" / f"{slug(rs.name)}.json"


# --------------------------------------------------------------------------- the two methods


def state_key(model: GameModel, state: GameState) -> str:
    """What identifies a state for perft: :meth:`GameModel.state_identity` (everything its
    future depends on, without its history)."""
    return model.state_identity(state)


def recursive_counts(model: GameModel, start: GameState, depth: int) -> Counts:
    """Perft by a plain depth-first recursion over the game interface (ids and
    ``GameState.apply``): every sequence is walked.

    Raises:
        ValueError: ``depth`` < 1.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    leaves = [0] * (depth + 1)
    seen: list[set[str]] = [set() for _ in range(depth + 1)]
    firsts = start.legal_actions()
    under = [0] * len(firsts)  # sequences of ``depth`` actions under each first action

    def walk(state: GameState, d: int, first: int) -> None:
        leaves[d] += 1
        seen[d].add(state_key(model, state))
        if d == depth:
            under[first] += 1
            return
        for a in state.legal_actions():
            walk(state.apply(a), d + 1, first)

    leaves[0] = 1
    seen[0].add(state_key(model, start))
    for i, a in enumerate(firsts):
        walk(start.apply(a), 1, i)
    player = start.current_player()
    divide = tuple((start.game.action_to_string(player, a), n)
                   for a, n in zip(firsts, under, strict=True))
    union: set[str] = set()
    states = []
    for d in range(depth + 1):
        union |= seen[d]
        if d:
            states.append(len(union))
    return Counts(tuple(leaves[1:]), tuple(states), divide)


class _Adapter(ExploreGame):
    """The explorer's view of a game from one set-up: successors by action string (the
    conformance capability), states identified by :func:`state_key`."""

    def __init__(self, model: GameModel, start: GameState,
                 header: Mapping[str, Any] | None = None) -> None:
        self.model = model
        self.start = start
        self.header = dict(header or {"players": 0, "options": {}})
        self.name = model.name
        self.spec = ReducedSpec(model.name, "perft", "perft", 0, (), ())

    def roots(self) -> list[Root]:
        return [Root("set-up", self.start, self.header)]

    def successors(self, state: Any) -> list[tuple[str, Any]]:
        return [(a, self.model.apply(state, a).state) for a in self.model.legal(state)]

    def is_terminal(self, state: Any) -> bool:
        return not self.model.legal(state)

    def view(self, state: Any) -> View:
        return (state_key(self.model, state),)

    def violations(self, state: Any) -> list[str]:
        return []


def explorer_counts(model: GameModel, start: GameState, depth: int,
                    header: Mapping[str, Any] | None = None) -> Counts:
    """Perft by the breadth-first explorer: distinct states are its seen-set by depth,
    sequences the paths of its state graph (by multiplicity), ``divide`` the paths from each
    successor of the set-up.

    Raises:
        ValueError: ``depth`` < 1.
        Disagreement: the explorer met a model error on the way.

    ``header``: how a trace names the set-up (``players``, ``options``, ``seed``), for the
    explorer's findings (a cycle, when the levels run out before ``depth``).
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    adapter = _Adapter(model, start, header)
    explorer = Explorer(adapter, keep_graph=True)
    result = explorer.run(max_depth=depth)
    if result.errors:
        raise Disagreement(f"the explorer met {result.errors} model error(s): "
                           + "; ".join(f.message for f in result.findings))
    seen: dict[int, tuple[int, int, int]] = {}
    for part in explorer.parts:
        seen.update(part.seen)
    edges: dict[int, tuple[int, ...]] = {}
    for part in explorer.parts:
        edges.update(part.edges)
    root = adapter.fp(start)

    def paths(first: int, steps: int) -> list[int]:
        level: Counter[int] = Counter({first: 1})
        out = []
        for _ in range(steps):
            nxt: Counter[int] = Counter()
            for fp, n in level.items():
                for succ in edges.get(fp, ()):
                    nxt[succ] += n
            level = nxt
            out.append(sum(level.values()))
        return out

    by_depth = Counter(d for d, _, _ in seen.values())
    states, total = [], by_depth[0]
    for d in range(1, depth + 1):
        total += by_depth[d]
        states.append(total)
    divide = []
    for (action, _), child in zip(adapter.successors(start), edges.get(root, ()), strict=True):
        divide.append((action, paths(child, depth - 1)[-1] if depth > 1 else 1))
    return Counts(tuple(paths(root, depth)), tuple(states), tuple(divide))


def perft(rs: RuleSet, depth: int, setup: Setup) -> Table:
    """The perft table of ``rs`` from ``setup`` to ``depth``, both methods agreeing.

    Raises:
        MalformedInput: a set-up the game refuses; ValueError: ``depth`` < 1.
        Disagreement: the two methods disagree (naming the first count that differs).
    """
    model = model_of(rs.game)
    start = model.start(setup.players, setup.options, setup.seed, None)
    explicit = model.setup_of(setup.players, setup.options, setup.seed)
    a = explorer_counts(model, start, depth, {"players": setup.players,
                                              "options": dict(setup.options),
                                              "seed": setup.seed})
    b = recursive_counts(model, model.start(setup.players, setup.options, setup.seed, None),
                         depth)
    where = f"{rs.game}:{rs.name}, {setup.players} players, seed {setup.seed}"
    for what, x, y in (("sequences", a.sequences, b.sequences), ("states", a.states, b.states),
                       ("divide", tuple(sorted(a.divide)), tuple(sorted(b.divide)))):
        if x != y:
            first = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q),
                         min(len(x), len(y)))
            at = f"entry {first}" if what == "divide" else f"depth {first + 1}"
            raise Disagreement(f"{where}: {what} differ between the explorer and the recursive "
                               f"count at {at}: {x[first] if first < len(x) else '-'} vs "
                               f"{y[first] if first < len(y) else '-'}")
    return Table(rs.game, rs.name, setup, explicit, a)


def tables(rs: RuleSet, depth: int) -> list[Table]:
    """The tables of every fixed set-up of ``rs`` (:func:`setups`) to ``depth``."""
    model = model_of(rs.game)
    return [perft(rs, depth, s) for s in setups(rs, model)]


def file_text(rs: RuleSet, found: Sequence[Table]) -> str:
    """The shipped file of ``rs``: JSON, one object with the tables of its set-ups."""
    data = {"format": FORMAT, "version": 1, "game": rs.game, "rule_set": rs.name,
            "meaning": "sequences: distinct action sequences of exactly d actions (a chance "
                       "outcome counts as an action); states: distinct states (without their "
                       "history) reachable in at most d actions, the set-up's included; "
                       "divide: sequences of the deepest depth by the first action",
            "tables": [t.as_json() for t in found]}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def shipped(rs: RuleSet) -> dict[str, Any] | None:
    """The shipped file of ``rs`` (None if there is none).

    Raises:
        MalformedInput: a file that is not a perft table (file named).
    """
    path = table_path(rs)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedInput(f"not a perft table: {exc}", file=str(path)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedInput("not a perft table (format)", file=str(path))
    return data


def shipped_depth(data: Mapping[str, Any]) -> int:
    """The depth of a shipped file (the deepest depth of its first table)."""
    return len(data["tables"][0]["depths"])


def check(rs: RuleSet, depth: int | None = None) -> list[str]:
    """Recompute the shipped tables of ``rs`` (to ``depth``, default the shipped depth; at
    most the shipped depth) and return every difference (empty: they agree).

    Raises:
        MalformedInput: no shipped table; Disagreement: the methods disagree.
    """
    data = shipped(rs)
    if data is None:
        raise MalformedInput(f"{rs.game}:{rs.name} has no perft table (ruleproof perft --write)",
                             file=str(table_path(rs)))
    full = shipped_depth(data)
    d = full if depth is None else min(depth, full)
    problems = []
    for want, got in zip(data["tables"], tables(rs, d), strict=True):
        mine = got.as_json()
        where = f"{table_path(rs)}: {want['players']} players, seed {want['seed']}"
        if want["setup"] != mine["setup"] or want["options"] != mine["options"]:
            problems.append(f"{where}: the set-up differs")
        if want["depths"][:d] != mine["depths"]:
            problems.append(f"{where}: shipped {want['depths'][:d]}, computed {mine['depths']}")
        if d == full and want["divide"] != mine["divide"]:
            problems.append(f"{where}: divide differs")
    return problems


DOCS_START = "<!-- perft-tables:start -->"
DOCS_END = "<!-- perft-tables:end -->"
"""The markers of the generated tables in docs/conformance.md (:func:`docs_tables`)."""


def docs_tables() -> str:
    """The shipped tables of every rule set as Markdown (one row per rule set and set-up:
    sequences and states per depth), between :data:`DOCS_START` and :data:`DOCS_END`."""
    lines = [DOCS_START, "| rule set | players | seed | sequences, d = 1.. | states, d = 1.. |",
             "| --- | --- | --- | --- | --- |"]
    for rs in rule_sets():
        data = shipped(rs)
        if data is None:
            continue
        for t in data["tables"]:
            seqs = ", ".join(f"{d['sequences']:,}" for d in t["depths"])
            states = ", ".join(f"{d['states']:,}" for d in t["depths"])
            lines.append(f"| `{rs.game}:{rs.name}` | {t['players']} | {t['seed']} | {seqs} | "
                         f"{states} |")
    return "\n".join([*lines, DOCS_END])


__all__ = [
    "DEFAULT_DEPTH",
    "DOCS_END",
    "DOCS_START",
    "FORMAT",
    "SEEDS",
    "Counts",
    "Disagreement",
    "Setup",
    "Table",
    "check",
    "docs_tables",
    "explorer_counts",
    "file_text",
    "find_rule_set",
    "perft",
    "recursive_counts",
    "rule_sets",
    "setups",
    "shipped",
    "slug",
    "table_path",
    "tables",
]
