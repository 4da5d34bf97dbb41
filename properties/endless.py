"""Endless games and traps, for every registered game over the one game interface: reachable
cycles found by search, endings still reachable, game lengths.

* :func:`find_cycle` -- from states of random play, a best-first search for a path of legal
  actions back to the same state (states compared by the game's cycle key: the engine state
  whole, or without what only counts moves). A found loop is a witness that the rules as
  modelled allow a game that never ends: the choices in the loop can be repeated for ever.
* :func:`ending_reachable` -- from sampled reachable states, random continuations until one
  ends; a state from which none ends within the budget is reported (a possible trap).
* :func:`game_lengths` -- lengths of random games: shortest, median, longest, and how many
  hit the step cap.

A rule set is given by its name among the games' contract rule sets
(``GamePlugin.contract_rule_sets``) or as a :class:`RuleSet`; the game is made from its
parameters. Play: ``new_seeded_state(seed)``, uniform random legal actions in the engine's
order from ``random.Random`` with fixed seeds per search, chance nodes resolved by the game's
chance rule (:mod:`ruleproof.properties.play`). What differs between games comes from the
``cycles`` capability (:class:`CycleRules`).
"""

from __future__ import annotations

import heapq
import random
import statistics
from collections.abc import Callable, Hashable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import GameBase, GameState
from ruleproof.properties.play import build_game, settler
from ruleproof.properties.plugin import GamePlugin, RuleSet, plugin, plugins


@dataclass(frozen=True)
class CycleRules:
    """A game's part of the endless-games search (the ``cycles`` capability).

    Attributes:
        cap: the step cap of a random game (game lengths, endings reachable).
        key: the engine state as compared for recurrence (default: the engine state whole);
            it must drop exactly what does not matter to the rules (move counters, logs).
        distance: how far one key is from another, a non-negative int (steers the search;
            default: :func:`field_distance`).
        sample_depth: the states from which an ending must stay reachable are taken after a
            random number of actions in ``range(*sample_depth)``; a game that ends sooner is
            sampled at a random state it passed (so a short game is sampled with the default).
        search_every: the cycle search starts from every ``search_every``-th state of a game.
    """

    cap: int = 1_000
    key: Callable[[Any], Hashable] | None = None
    distance: Callable[[Any, Any], int] | None = None
    sample_depth: tuple[int, int] = (20, 200)
    search_every: int = 10


@dataclass(frozen=True)
class Cycle:
    """A reachable loop: the seed and actions that reach its first state, and the actions of
    the loop (which lead back to exactly that state)."""

    rule_set: str
    seed: int
    prefix: tuple[str, ...]
    loop: tuple[str, ...]
    players: int


def field_distance(a: Any, b: Any) -> int:
    """How far ``a`` is from ``b`` (dataclass values of one type): differing fields, and
    differing elements of tuple fields of equal length; other values: 0 or 1."""
    if not (is_dataclass(a) and type(a) is type(b)):
        return int(a != b)
    d = 0
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if x == y:
            continue
        if isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y):
            d += sum(1 for p, q in zip(x, y, strict=True) if p != q)
        else:
            d += 1
    return d


def find_rule_set(name: str) -> RuleSet:
    """The contract rule set called ``name`` of any registered game (thorough profile).

    Raises:
        MalformedInput: no game has a rule set of that name (naming the known ones).
    """
    known = [rs for p in plugins().values() for rs in p.contract_rule_sets("thorough")]
    for rs in known:
        if rs.name == name:
            return rs
    raise MalformedInput(f"unknown rule set {name!r}; known: {', '.join(r.name for r in known)}")


@dataclass(frozen=True)
class Play:
    """One rule set ready to play: the game (made with the truncation bound :data:`UNBOUNDED`),
    its chance rule and cycle rules."""

    rule_set: RuleSet
    game_plugin: GamePlugin
    game: GameBase[Any]
    settle: Callable[[GameState], GameState]
    rules: CycleRules

    def new(self, seed: int) -> GameState:
        """``new_seeded_state(seed)`` with pending chance nodes resolved."""
        return self.settle(self.game.new_seeded_state(seed))

    def apply(self, state: GameState, action: Any) -> GameState:
        """The successor under a typed action, pending chance nodes resolved."""
        return self.settle(state.apply_typed(action))

    def key(self, state: GameState) -> Hashable:
        """The state as compared for recurrence."""
        return self.rules.key(state.model) if self.rules.key else state.model

    def distance(self, a: Any, b: Any) -> int:
        """The cycle rules' distance of two keys."""
        return (self.rules.distance or field_distance)(a, b)


UNBOUNDED = 1_000_000
"""The truncation bound the games are made with: the searches' own step caps end a game."""


def play_of(rs: RuleSet | str) -> Play:
    """The game of rule set ``rs`` (or of the contract rule set named ``rs``).

    Raises:
        MalformedInput: an unknown rule set or game.
    """
    found = find_rule_set(rs) if isinstance(rs, str) else rs
    p = plugin(found.game)
    rules: CycleRules = p.capability("cycles") or CycleRules()
    return Play(found, p, build_game(p, found.game_params(), UNBOUNDED), settler(p), rules)


def search_loop(play: Play, start: GameState, max_nodes: int, max_depth: int
                ) -> list[Any] | None:
    """Best-first search for actions leading from ``start`` back to ``start``."""
    goal = play.key(start)
    counter = 0
    frontier: list[tuple[int, int, int, GameState, tuple[Any, ...]]] = []
    for a in start.legal_typed_actions():
        nxt = play.apply(start, a)
        counter += 1
        heapq.heappush(frontier, (play.distance(play.key(nxt), goal), 1, counter, nxt, (a,)))
    seen: set[Any] = {goal}
    expanded = 0
    while frontier and expanded < max_nodes:
        _dist, depth, _c, state, path = heapq.heappop(frontier)
        k = play.key(state)
        if k == goal:
            return list(path)
        if k in seen or depth >= max_depth or state.is_terminal():
            continue
        seen.add(k)
        expanded += 1
        for a in state.legal_typed_actions():
            nxt = play.apply(state, a)
            counter += 1
            nk = play.key(nxt)
            if nk == goal:
                return [*path, a]
            if nk in seen:
                continue
            heapq.heappush(frontier, (play.distance(nk, goal), depth + 1, counter, nxt,
                                      (*path, a)))
    return None


def find_cycle(rs: RuleSet | str, games: int = 3, max_steps: int = 300, every: int = 10,
               max_nodes: int = 250, max_depth: int | None = None) -> Cycle | None:
    """A reachable cycle of ``rs``, searched from every ``every``-th state of ``games`` random
    games; None if none was found within the budget (not a proof that none exists)."""
    play = play_of(rs)
    players = play.game.num_players
    depth = max_depth or 4 * players + 4
    for g in range(games):
        rng = random.Random(500 + g)
        state = play.new(g)
        prefix: list[Any] = []
        for i in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_typed_actions()
            if not legal:
                break
            if i % every == every - 1:
                loop = search_loop(play, state, max_nodes, depth)
                if loop is not None:
                    return Cycle(play.rule_set.name, g, tuple(map(str, prefix)),
                                 tuple(map(str, loop)), players)
            a = legal[rng.randrange(len(legal))]
            prefix.append(a)
            state = play.apply(state, a)
    return None


def replay_cycle(rs: RuleSet | str, cycle: Cycle, rounds: int = 3) -> bool:
    """Whether the loop really returns to its first state, ``rounds`` times over (actions
    matched by their notation among the legal actions)."""
    play = play_of(rs)

    def by_text(state: GameState, text: str) -> GameState:
        for a in state.legal_typed_actions():
            if str(a) == text:
                return play.apply(state, a)
        raise ValueError(f"{text!r} is not a legal action here")

    state = play.new(cycle.seed)
    for text in cycle.prefix:
        state = by_text(state, text)
    start = play.key(state)
    for _ in range(rounds):
        for text in cycle.loop:
            state = by_text(state, text)
        if play.key(state) != start:
            return False
    return True


@dataclass(frozen=True)
class Lengths:
    """Game lengths of random play (actions per game)."""

    games: int
    shortest: int
    median: float
    longest: int
    capped: int


def game_lengths(rs: RuleSet | str, games: int, cap: int) -> Lengths:
    """Lengths of ``games`` uniformly random games of ``rs`` (capped at ``cap`` actions)."""
    play = play_of(rs)
    lengths: list[int] = []
    capped = 0
    for g in range(games):
        rng = random.Random(900 + g)
        state = play.new(g)
        n = 0
        while not state.is_terminal() and n < cap:
            legal = state.legal_typed_actions()
            if not legal:
                break
            state = play.apply(state, legal[rng.randrange(len(legal))])
            n += 1
        capped += not state.is_terminal()
        lengths.append(n)
    return Lengths(games, min(lengths), statistics.median(lengths), max(lengths), capped)


def ending_reachable(rs: RuleSet | str, samples: int, tries: int, cap: int
                     ) -> tuple[int, int, list[str]]:
    """From ``samples`` states of random play (each after a random number of actions in the
    game's ``sample_depth``, or, if the game ended sooner, at a random one of the states it
    passed), ``tries`` random continuations of at most ``cap`` actions each;
    returns (states checked, states with an ending found, witnesses of states where none was
    found)."""
    play = play_of(rs)
    checked = ok = 0
    stuck: list[str] = []
    for g in range(samples):
        rng = random.Random(700 + g)
        state = play.new(g)
        depth = rng.randrange(*play.rules.sample_depth)
        prefix: list[str] = []
        passed: list[GameState] = []  # the states before each action, while none ended
        for _ in range(depth):
            if state.is_terminal():
                break
            passed.append(state)
            legal = state.legal_typed_actions()
            a = legal[rng.randrange(len(legal))]
            prefix.append(str(a))
            state = play.apply(state, a)
        if state.is_terminal():
            if not passed:  # the start itself is terminal: nothing to sample
                continue
            # a game shorter than the depth drawn: one of the states it passed instead, so
            # that a game of a few actions is sampled too
            k = rng.randrange(len(passed))
            state, prefix = passed[k], prefix[:k]
        checked += 1
        if any(_ends(play, state, random.Random(t), cap) for t in range(tries)):
            ok += 1
        else:
            stuck.append(f"seed {g} after {prefix}")
    return checked, ok, stuck


def _ends(play: Play, state: GameState, rng: random.Random, cap: int) -> bool:
    for _ in range(cap):
        if state.is_terminal():
            return True
        legal = state.legal_typed_actions()
        if not legal:
            return False
        state = play.apply(state, legal[rng.randrange(len(legal))])
    return state.is_terminal()


def endless_property(name: str, games: int) -> tuple[bool, int, str]:
    """The check "<rule set>: cycles searched, endings reachable, game lengths": it passes when
    the search ran and every sampled state can still end; a found cycle is *reported* (the rules
    allow it, e.g. a registered ambiguity), a state with no ending found fails."""
    rs = find_rule_set(name)
    rules = play_of(rs).rules
    cap = rules.cap
    cycle = find_cycle(rs, games=max(1, games // 4), every=rules.search_every)
    lengths = game_lengths(rs, max(2, games), cap)
    checked, ok, stuck = ending_reachable(rs, max(2, games // 2), 3, cap)
    text = (f"{name}: game length shortest {lengths.shortest}, median {lengths.median}, "
            f"longest {lengths.longest} ({lengths.capped} of {lengths.games} capped); "
            f"ending reached from {ok} of {checked} sampled states; ")
    if cycle is not None:
        looped = replay_cycle(rs, cycle)
        text += (f"cycle of {len(cycle.loop)} actions {'replays' if looped else 'DOES NOT replay'}"
                 f": {list(cycle.loop)} after {len(cycle.prefix)} actions from seed "
                 f"{cycle.seed}")
    else:
        text += "no cycle found within the budget"
    if checked == 0:
        return False, 0, text + " -- no state was sampled"
    return ok == checked, checked + lengths.games, text + (f"; stuck: {stuck[:2]}" if stuck
                                                          else "")


Property = Callable[[str, int], tuple[bool, int, str]]

__all__ = ["Cycle", "CycleRules", "Lengths", "Play", "ending_reachable", "endless_property",
           "field_distance", "find_cycle", "find_rule_set", "game_lengths", "play_of",
           "replay_cycle", "search_loop"]
