"""Kuhn poker's symbolic layer (capability ``"symbolic"``, :data:`SYMBOLIC`): the transition
system, the laws proved by induction, the ending witnesses and the drift check.

Variables (all integers):

* ``c0``, ``c1``: the cards dealt to P1 and P2 (-1 before the deal, 0 jack .. 2 king);
* ``n``: decisions made (0..3); ``m0``, ``m1``, ``m2``: decision ``i`` (-1 none, 0 pass,
  1 bet);
* ``p0``, ``p1``: chips each player has in the pot;
* ``W``: the player who took the pot (-1 while the hand goes on); ``X``: the chips won;
  ``S``: 1 if the cards were shown.

Kinds: ``deal`` (kuhn-wp:rules.deal), ``pass`` and ``bet`` (the decisions, with the endings
they cause: kuhn-wp:rules.first, kuhn-wp:rules.after-pass, kuhn-wp:rules.facing-bet,
kuhn-wp:rules.fold, kuhn-wp:rules.showdown, kuhn-wp:rules.payoff). The relations are written
from the clauses, the seat of decision ``i`` being ``i mod 2``. The abstraction reads the
``cards`` and ``moves`` of :class:`ruleproof.model.kuhn_poker.rules.Hand` and the model's own
``pot``, ``winner``, ``returns`` and ``shown``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import z3

from ruleproof.model.kuhn_poker import rules as kp
from ruleproof.model.kuhn_poker.rules import RANKS, Card, Hand, Move
from ruleproof.properties.plugin import RuleSet
from ruleproof.properties.report import Profile
from ruleproof.properties.symbolic.core import (
    Env,
    Kind,
    Law,
    Outcome,
    StepChecker,
    System,
    bmc,
    diff,
    no_dead_end,
    prove_law,
)
from ruleproof.properties.symbolic.endings import endings_dir
from ruleproof.properties.symbolic.prove import DRIFT, max_k
from ruleproof.system.outputs import write_file

NAME = "kuhn-poker"
VARIABLES = ("c0", "c1", "n", "m0", "m1", "m2", "p0", "p1", "W", "X", "S")
MOVES = ("m0", "m1", "m2")
DECIDE = ("kuhn-wp:rules.first", "kuhn-wp:rules.after-pass", "kuhn-wp:rules.facing-bet")
ENDS = ("kuhn-wp:rules.fold", "kuhn-wp:rules.showdown", "kuhn-wp:rules.payoff")


def abstract(h: Hand) -> dict[str, int]:
    """The abstract state of a hand."""
    cards = [*h.cards, -1, -1][:2]
    moves = [int(m is Move.BET) for m in h.moves] + [-1] * (3 - len(h.moves))
    w = kp.winner(h)
    put = kp.pot(h)
    return {"c0": cards[0], "c1": cards[1], "n": len(h.moves), "m0": moves[0], "m1": moves[1],
            "m2": moves[2], "p0": put[0], "p1": put[1], "W": -1 if w is None else w,
            "X": 0 if w is None else int(abs(kp.returns(h)[w])), "S": int(bool(kp.shown(h)))}


def _at(e: Env, i: z3.ArithRef | int) -> z3.ArithRef:
    """Decision number ``i`` (0..2) of ``e``."""
    return z3.If(i == 0, e["m0"], z3.If(i == 1, e["m1"], e["m2"]))


def _higher(e: Env) -> z3.ArithRef:
    """The seat holding the higher card (kuhn-wp:rules.showdown)."""
    return z3.If(e["c0"] > e["c1"], 0, 1)


def _deciding(e: Env) -> list[z3.BoolRef]:
    """Both cards dealt, the hand goes on."""
    return [e["c0"] >= 0, e["c1"] >= 0, e["W"] == -1, e["n"] < 3]


def _record(e: Env, y: Env, value: int) -> None:
    for i, m in enumerate(MOVES):
        y[m] = z3.If(e["n"] == i, value, e[m])
    y["n"] = e["n"] + 1


def _deal(e: Env, q: Mapping[str, z3.ArithRef]) -> tuple[list[z3.BoolRef], Env]:
    """A card from those left to the next player (kuhn-wp:rules.deal)."""
    y = dict(e)
    r = q["r"]
    y["c0"] = z3.If(e["c0"] == -1, r, e["c0"])
    y["c1"] = z3.If(e["c0"] == -1, e["c1"], r)
    return [e["c1"] == -1, r != e["c0"]], y


def _pass(e: Env, q: Mapping[str, z3.ArithRef]) -> tuple[list[z3.BoolRef], Env]:
    """A pass: a check (no chip), or a fold facing a bet; two passes end in a showdown."""
    y = dict(e)
    n = e["n"]
    facing = z3.And(n >= 1, _at(e, n - 1) == 1)
    second_pass = z3.And(n == 1, e["m0"] == 0)
    _record(e, y, 0)
    bettor = (n - 1) % 2
    y["W"] = z3.If(facing, bettor, z3.If(second_pass, _higher(e), -1))
    y["X"] = z3.If(z3.Or(facing, second_pass), 1, 0)
    y["S"] = z3.If(second_pass, 1, 0)
    return _deciding(e), y


def _bet(e: Env, q: Mapping[str, z3.ArithRef]) -> tuple[list[z3.BoolRef], Env]:
    """A bet: one chip of the decider's; a call (facing a bet) ends in a showdown for two."""
    y = dict(e)
    n = e["n"]
    facing = z3.And(n >= 1, _at(e, n - 1) == 1)
    _record(e, y, 1)
    y["p0"] = z3.If(n % 2 == 0, e["p0"] + 1, e["p0"])
    y["p1"] = z3.If(n % 2 == 1, e["p1"] + 1, e["p1"])
    y["W"] = z3.If(facing, _higher(e), -1)
    y["X"] = z3.If(facing, 2, 0)
    y["S"] = z3.If(facing, 1, 0)
    return _deciding(e), y


KINDS = (
    Kind("deal", ("kuhn-wp:rules.deal", "kuhn-wp:rules.deck"), (("r", 0, 2),), _deal),
    Kind("pass", (*DECIDE, *ENDS), (), _pass),
    Kind("bet", (*DECIDE, *ENDS), (), _bet),
)


def _ended(e: Env) -> z3.BoolRef:
    """The decisions so far end the hand: two passes, a fold or a call."""
    n = e["n"]
    last, before = _at(e, n - 1), _at(e, n - 2)
    return z3.And(n >= 2, z3.Or(z3.And(last == 0, before == 0), z3.And(last == 0, before == 1),
                                z3.And(last == 1, before == 1)))


def _laws() -> tuple[Law, ...]:
    def cards(e: Env) -> z3.BoolRef:
        return z3.And(e["c0"] >= -1, e["c0"] <= 2, e["c1"] >= -1, e["c1"] <= 2,
                      z3.Implies(e["c0"] == -1, e["c1"] == -1),
                      z3.Implies(e["c1"] >= 0, e["c0"] != e["c1"]),
                      z3.Implies(e["n"] > 0, e["c1"] >= 0))

    def record(e: Env) -> z3.BoolRef:
        n = e["n"]
        return z3.And(n >= 0, n <= 3, *[z3.If(i < n, z3.Or(e[m] == 0, e[m] == 1), e[m] == -1)
                                        for i, m in enumerate(MOVES)])

    def pot(e: Env) -> z3.BoolRef:
        bets = [z3.If(e[m] == 1, 1, 0) for m in MOVES]
        return z3.And(e["p0"] == 1 + bets[0] + bets[2], e["p1"] == 1 + bets[1])

    def over(e: Env) -> z3.BoolRef:
        return z3.And(z3.Or(e["W"] == -1, e["W"] == 0, e["W"] == 1),
                      (e["W"] != -1) == _ended(e),
                      z3.Implies(e["W"] == -1, z3.And(e["X"] == 0, e["S"] == 0)))

    def chips(e: Env) -> z3.BoolRef:
        return z3.And(e["p0"] >= 1, e["p0"] <= 2, e["p1"] >= 1, e["p1"] <= 2,
                      z3.Implies(e["W"] == 0, e["X"] == e["p1"]),
                      z3.Implies(e["W"] == 1, e["X"] == e["p0"]))

    def showdown(e: Env) -> z3.BoolRef:
        return z3.Implies(e["S"] == 1, e["W"] == _higher(e))

    def short(e: Env) -> z3.BoolRef:
        return z3.Implies(e["n"] == 3, e["W"] != -1)

    return (
        Law("cards-distinct", cards, ("kuhn-wp:rules.deck", "kuhn-wp:rules.deal")),
        Law("decisions-recorded", record, DECIDE),
        Law("pot-is-antes-and-bets", pot, ("kuhn-wp:rules.ante", "kuhn-wp:rules.first",
                                           "kuhn-wp:rules.facing-bet"),
            support=("decisions-recorded",)),
        Law("hand-over-exactly-when-ended", over, ENDS, support=("decisions-recorded",)),
        Law("chips-conserved", chips, ("kuhn-wp:rules.ante", "kuhn-wp:rules.payoff"),
            support=("decisions-recorded", "pot-is-antes-and-bets",
                     "hand-over-exactly-when-ended")),
        Law("showdown-to-the-higher-card", showdown, ("kuhn-wp:rules.showdown",),
            support=("hand-over-exactly-when-ended",)),
        Law("at-most-three-decisions", short, ("kuhn-wp:rules.showdown", "kuhn-wp:rules.fold"),
            support=("decisions-recorded", "hand-over-exactly-when-ended")),
    )


@cache
def system() -> System:
    """The symbolic transition system of Kuhn poker."""
    def init(e: Env) -> z3.BoolRef:
        return z3.And(e["c0"] == -1, e["c1"] == -1, e["n"] == 0, *[e[m] == -1 for m in MOVES],
                      e["p0"] == 1, e["p1"] == 1, e["W"] == -1, e["X"] == 0, e["S"] == 0)

    return System(NAME, VARIABLES,
                  (("ante, before the deal", ("kuhn-wp:rules.ante", "kuhn-wp:rules.players"),
                    init),),
                  KINDS, _laws(), lambda e: e["W"] != -1)


def classify(action: Move | Card) -> str:
    """The transition kind of an action."""
    return "deal" if isinstance(action, Card) else str(action)


# --------------------------------------------------------------------------- endings


@dataclass(frozen=True)
class Ending:
    """A concrete ending: the deal, the decisions, who takes the pot and the predicate."""

    name: str
    title: str
    clauses: tuple[str, ...]
    cards: tuple[str, str]
    actions: tuple[str, ...]
    winner: str
    won: int
    target: Callable[[Env], z3.BoolRef]
    last: tuple[str, ...]


ENDINGS = (
    Ending("fold", "P1 bets, P2 folds: the bettor takes the pot without a showdown",
           ("kuhn-wp:rules.fold", "kuhn-wp:rules.payoff"), ("J", "Q"), ("bet", "pass"),
           "P1", 1, lambda e: z3.And(e["W"] == 0, e["S"] == 0, e["X"] == 1), ("pass",)),
    Ending("call", "P1 passes, P2 bets, P1 calls: the higher card wins two chips",
           ("kuhn-wp:rules.facing-bet", "kuhn-wp:rules.showdown", "kuhn-wp:rules.payoff"),
           ("K", "Q"), ("pass", "bet", "bet"), "P1", 2,
           lambda e: z3.And(e["S"] == 1, e["X"] == 2, e["n"] == 3), ("bet",)),
    Ending("two-passes", "Two passes: a showdown for the antes",
           ("kuhn-wp:rules.after-pass", "kuhn-wp:rules.showdown", "kuhn-wp:rules.payoff"),
           ("J", "K"), ("pass", "pass"), "P2", 1,
           lambda e: z3.And(e["S"] == 1, e["X"] == 1), ("pass",)),
)


def witness_text(w: Ending) -> str:
    """The ending as a Kuhn poker scenario file (properties/kuhn_poker/scenarios.py)."""
    def q(xs: Sequence[str]) -> str:
        return "[" + ", ".join(f'"{x}"' for x in xs) + "]"

    return "\n".join([
        "# Generated by properties/kuhn_poker/symbolic.py (ruleproof prove --write-witnesses): "
        "do not edit.", 'game = "kuhn-poker"', f'title = "{w.title}"',
        f"clauses = {q(w.clauses)}", f"actions = {q(w.actions)}", "", "[setup]",
        f"cards = {q(w.cards)}", "", "[expect]", f'winner = "{w.winner}"',
        f'"returns.{w.winner}" = {w.won}']) + "\n"


def witness_path(w: Ending) -> Path:
    """The file of an ending witness."""
    return endings_dir(NAME) / f"kuhn-poker-{w.name}.toml"


def check_ending(w: Ending) -> Outcome:
    """BMC in the abstraction from the witness's deal, then the replay (every step within its
    relation) and the scenario runner."""
    from ruleproof.properties.scenarios import run_scenario

    t0 = time.perf_counter()
    sym = system()
    name = f"ending: {w.name}"
    path = witness_path(w)
    if not path.exists() or path.read_text(encoding="utf-8") != witness_text(w):
        return Outcome(name, sym.name, "witness", "failed", False, (), 0.0,
                       f"{path} is missing or out of date (run: ruleproof prove "
                       "--write-witnesses)")
    state = Hand((RANKS.index(w.cards[0]), RANKS.index(w.cards[1])))
    answer, kinds, _secs = bmc(sym, abstract(state), w.target, len(w.actions) + 1, last=w.last)
    problems: list[str] = []
    if answer != "sat":
        problems.append(f"bounded search found no abstract path ({answer})")
    checker = StepChecker(sym)
    for text in w.actions:
        move = Move(text)
        new = kp.act(state, move)
        x, y = abstract(state), abstract(new)
        if not checker.check(classify(move), x, y):
            problems.append(f"'{text}' breaks its relation: {diff(x, y)}")
        state = new
    if kp.winner(state) != ("P1", "P2").index(w.winner):
        problems.append(f"the replay ends with winner {kp.winner(state)}, expected {w.winner}")
    s = z3.Solver()
    env = sym.env("end")
    end = abstract(state)
    s.add(*[env[v] == end[v] for v in sym.variables], w.target(env))
    if s.check() != z3.sat:
        problems.append("the replayed end state does not satisfy the ending's predicate")
    result = run_scenario(path)
    if not result.passed:
        problems.append("scenario runner: " + result.detail[-200:])
    detail = f"abstract path: {' -> '.join(kinds)}; replayed {path.name}: {' -> '.join(w.actions)}"
    return Outcome(name, sym.name, f"bounded search depth {len(kinds)} + replay",
                   "reached" if not problems else "failed", not problems, w.clauses,
                   time.perf_counter() - t0, "; ".join(problems) or detail)


# --------------------------------------------------------------------------- drift


def drift(games: int, seed: int = 0) -> list[Outcome]:
    """Sampled drift check: every step of ``games`` random hands from before the deal
    (``random.Random(seed * 1000 + g)``) satisfies its kind's relation; and no dead end in the
    executable model (every state that is not over has a legal step)."""
    t0 = time.perf_counter()
    sym = system()
    checker = StepChecker(sym)
    count = states = 0
    found: Outcome | None = None
    stuck = ""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        h = Hand()
        while True:
            states += 1
            if kp.to_move(h) == kp.TERMINAL:
                break
            options: list[Move | Card] = [c for c, _p in kp.chance(h)] + list(kp.legal(h))
            if not options:
                stuck = stuck or f"hand {seed * 1000 + g}: no legal step, not over"
                break
            action = options[rng.randrange(len(options))]
            new = kp.deal(h, action.rank) if isinstance(action, Card) else kp.act(h, action)
            x, y = abstract(h), abstract(new)
            count += 1
            if found is None and not checker.check(classify(action), x, y):
                found = Outcome("no drift (model vs relations)", sym.name, f"sampled {count}",
                                "counterexample", False, sym.kind(classify(action)).clauses,
                                time.perf_counter() - t0,
                                f"hand {seed * 1000 + g}: '{action}' breaks its relation: "
                                f"{diff(x, y)}")
            h = new
    seconds = time.perf_counter() - t0
    return [found or Outcome("no drift (model vs relations)", sym.name, f"sampled {count}",
                             "passed", True, (), seconds, f"{games} hands"),
            Outcome("no dead end (executable model)", sym.name, f"sampled {states}",
                    "failed" if stuck else "passed", not stuck, DECIDE, seconds,
                    stuck or f"{games} hands")]


def outcomes(profile: Profile) -> list[Outcome]:
    """Every symbolic property of Kuhn poker."""
    sym = system()
    out = [prove_law(sym, law, max_k(profile)) for law in sym.laws]
    out.append(no_dead_end(sym, [law.name for law in sym.laws]))
    out += [check_ending(w) for w in ENDINGS]
    games, _steps = DRIFT.get(profile.name, DRIFT["ci"])
    out += drift(games * 10)
    return out


def write_witnesses() -> list[Path]:
    """(Re)write every ending witness file of Kuhn poker."""
    endings_dir(NAME).mkdir(parents=True, exist_ok=True)
    out = []
    for w in ENDINGS:
        p = witness_path(w)
        write_file(p, witness_text(w))
        out.append(p)
    return out


@dataclass(frozen=True)
class KuhnSymbolic:
    """Kuhn poker's capability ``"symbolic"`` (see
    :class:`ruleproof.properties.symbolic.prove.SymbolicGame`): one configuration, kuhn-wp
    with 2 players."""

    configs: tuple[tuple[str, int], ...] = (("", 2),)
    selection: str = "no presets, 2 players"

    def outcomes(self, preset: str, players: int, profile: Profile) -> list[Outcome]:
        return outcomes(profile)

    def applies(self, rule_set: RuleSet, board: Path | None
                ) -> tuple[list[tuple[str, int, str]], str]:
        return [("", 2, "")], ""

    def write_witnesses(self) -> list[Path]:
        return write_witnesses()


SYMBOLIC = KuhnSymbolic()
"""The capability ``"symbolic"`` of Kuhn poker's plugin record."""

__all__ = ["ENDINGS", "SYMBOLIC", "Ending", "KuhnSymbolic", "abstract", "check_ending",
           "classify", "drift", "outcomes", "system", "witness_path", "witness_text",
           "write_witnesses"]
