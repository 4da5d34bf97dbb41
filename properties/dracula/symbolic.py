"""Dracula's symbolic layer (capability ``"symbolic"``, :data:`SYMBOLIC`): the transition
system (cards per zone, life markers, barriers), the ending witnesses, the drift check.

Variables (all integers; ``s`` a side, 0 Dracula, 1 Van Helsing):

* encounter cards per zone: ``B`` board, ``P`` deal pool, ``H.s`` hand, ``D.s`` discard pile
  (beaten enemies, owner's pile), ``C.s`` targets won by s; ``T.s`` s's own targets in s's hand;
* action cards per zone: ``Cu.s`` current, ``As.s`` set aside, ``Ad.s`` played;
* ``L.s`` life markers, ``bars`` barriers on the board, ``W`` the winner (-1 none).

Each kind is a *transfer* relation: cards move along the edges the cited clauses allow (flows
are the nondeterministic parameters), life markers change as the cited clauses say (a loss
clamps at 0 and then the other side wins, a gift gives two back up to the cap), the winner can
only be set by the kinds that end a game. The abstraction reads only ``board_cards``, ``pool``,
``hand``, ``enc_discard``, ``captured``, ``current``, ``aside``, ``adiscard``, ``life``,
``barriers``, ``winner`` and ``cards`` of :class:`ruleproof.model.dracula.engine.State`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import z3

from ruleproof.model.api import CHANCE
from ruleproof.model.dracula import engine as dr
from ruleproof.model.dracula.data import Kind as CardKind
from ruleproof.model.dracula.data import Side, default_board, default_cards
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.model.dracula.rules import DraculaRules
from ruleproof.properties.dracula.scenarios import run_scenario as dr_run_scenario
from ruleproof.properties.plugin import RuleSet
from ruleproof.properties.report import Profile
from ruleproof.properties.symbolic.core import (
    Effect,
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

NAME = "dracula"

SIDES = (0, 1)
ENC = ("B", "P", "H.0", "H.1", "D.0", "D.1", "C.0", "C.1")
ACT = ("Cu.0", "As.0", "Ad.0", "Cu.1", "As.1", "Ad.1")
VARIABLES = (*ENC, "T.0", "T.1", *ACT, "L.0", "L.1", "bars", "W")
LIFE = 4
TARGETS = 5
CYCLE = tuple((f"{a}.{s}", f"{b}.{s}") for s in SIDES
              for a, b in (("As", "Cu"), ("Ad", "As"), ("Ad", "Cu")))
"""End of turn / draws: set-aside and played action cards come back (dracula-en:cards.cycle)."""


def abstract(s: dr.State) -> dict[str, int]:
    """The abstract state (counts per zone) of a concrete Dracula state."""
    out = {"B": sum(1 for c in s.board_cards if c is not None), "P": len(s.pool),
           "bars": sum(1 for b in s.barriers if b is not None),
           "W": -1 if s.winner is None else int(s.winner)}
    for side in SIDES:
        out[f"H.{side}"] = len(s.hand[side])
        out[f"D.{side}"] = len(s.enc_discard[side])
        out[f"C.{side}"] = len(s.captured[side])
        out[f"T.{side}"] = sum(1 for c in s.hand[side] if s.cards.enc(c).kind is CardKind.TARGET)
        out[f"Cu.{side}"] = len(s.current[side])
        out[f"As.{side}"] = len(s.aside[side])
        out[f"Ad.{side}"] = len(s.adiscard[side])
        out[f"L.{side}"] = s.life[side]
    return out


_KIND_OF = {
    dr.ChooseCard: "choose", dr.ChanceOutcome: "chance", dr.Look: "look", dr.Place: "place",
    dr.PlayCard: "play", dr.PlaceBarrier: "barrier", dr.SkipBarrier: "barrier",
    dr.GiveTarget: "give", dr.Accept: "accept", dr.Move: "walk", dr.Stop: "walk",
    dr.Meet: "meet", dr.TakeBack: "special", dr.Recall: "special", dr.TurnCard: "special",
    dr.Fly: "special", dr.Depths: "special", dr.Roar: "special",
}


def classify(action: dr.Action) -> str:
    """The transition kind of an action (automatic steps it triggers are part of the kind)."""
    return _KIND_OF[type(action)]


@dataclass(frozen=True)
class _Spec:
    name: str
    clauses: tuple[str, ...]
    enc: tuple[tuple[str, str], ...] = ()
    act: tuple[tuple[str, str], ...] = ()
    life: str = "same"  # same | loss | gift | zero
    wins: bool = False
    barrier: bool = False


_OWN = tuple((f"H.{s}", "B") for s in SIDES)
_BACK = tuple(("B", f"H.{s}") for s in SIDES)

SPECS = (
    _Spec("choose", ("dracula-en:setup.secret-choice",), enc=(("H.0", "P"), ("H.1", "P"))),
    _Spec("chance", ("dracula-en:setup.deal", "dracula-en:setup.action-cards",
                     "dracula-en:cards.cycle", "dracula-en:special.deception"),
          enc=(("P", "B"), ("H.0", "C.1")), act=CYCLE, life="loss", wins=True),
    _Spec("walk", ("dracula-en:move.orthogonal", "dracula-en:pay.move-ends")),
    _Spec("meet", ("dracula-en:meet.reveal-hands", "dracula-en:end.hand-proof",
                   "dracula-en:end.simultaneous"), wins=True),
    _Spec("look", ("dracula-en:look.own-card", "dracula-en:look.opponent-card"), enc=_BACK),
    _Spec("place", ("dracula-en:look.own-card", "dracula-en:target.capture",
                    "dracula-en:enemy.win", "dracula-en:empty.fill"), enc=_OWN),
    _Spec("play", ("dracula-en:move.pay", "dracula-en:pay.overpay", "dracula-en:cards.discard",
                   "dracula-en:target.capture", "dracula-en:target.all-five",
                   "dracula-en:enemy.win", "dracula-en:power.lose-life",
                   "dracula-en:early-end.last-marker", "dracula-en:special.deception",
                   "dracula-en:special.perception", "dracula-en:cards.cycle"),
          enc=(("B", "C.0"), ("B", "C.1"), ("B", "D.0"), ("B", "D.1"), ("H.0", "C.1")),
          act=(("Cu.0", "Ad.0"), ("Cu.1", "Ad.1"), *CYCLE), life="loss", wins=True),
    _Spec("special", ("dracula-en:special.composure", "dracula-en:special.resistance",
                      "dracula-en:special.wings-of-night", "dracula-en:special.depths-of-night",
                      "dracula-en:cards.cycle"),
          enc=(("D.0", "H.0"), ("D.1", "H.1"), ("B", "H.0")), act=CYCLE),
    _Spec("barrier", ("dracula-en:pay.barrier-first", "dracula-en:barriers.colour",
                      "dracula-en:cards.cycle"), act=CYCLE, barrier=True),
    _Spec("give", ("dracula-en:early-end.give-target", "dracula-en:end.all-captured",
                   "dracula-en:early-end.last-marker"),
          enc=(("H.0", "C.1"), ("H.1", "C.0")), life="gift", wins=True),
    _Spec("accept", ("dracula-en:early-end.last-marker",), life="zero", wins=True),
)


def _effect(spec: _Spec) -> Effect:
    def effect(e: Env, q: Mapping[str, z3.ArithRef]) -> tuple[list[z3.BoolRef], Env]:
        g: list[z3.BoolRef] = [e["W"] == -1]
        y = dict(e)
        flows = [*spec.enc, *spec.act]
        for i, (a, b) in enumerate(flows):
            f = q[f"f{i}"]
            y[a] = y[a] - f
            y[b] = y[b] + f
        for name in (*ENC, *ACT):
            if y[name] is not e[name]:
                g.append(y[name] >= 0)
        for side in SIDES:
            h = f"H.{side}"
            inflow = z3.Sum([q[f"f{i}"] for i, (_a, b) in enumerate(flows) if b == h] or [0])
            outflow = z3.Sum([q[f"f{i}"] for i, (a, _b) in enumerate(flows) if a == h] or [0])
            t = f"T.{side}"
            y[t] = e[t] + q[f"dt{side}"]
            g += [q[f"dt{side}"] <= inflow, q[f"dt{side}"] >= -outflow, y[t] >= 0,
                  y[t] <= y[h]]
        for side in SIDES:
            life = e[f"L.{side}"]
            n = q.get(f"n{side}", z3.IntVal(0))
            if spec.life == "loss":
                y[f"L.{side}"] = z3.If(life - n > 0, life - n, 0)
            elif spec.life == "gift":
                back = z3.If(life + 2 > LIFE, LIFE, life + 2)  # dracula-en:early-end.give-target
                y[f"L.{side}"] = z3.If(q["giver"] == side,
                                       z3.If(back - n > 0, back - n, 0), life)
            elif spec.life == "zero":
                y[f"L.{side}"] = z3.If(q["giver"] == side, 0, life)
        if spec.barrier:
            y["bars"] = e["bars"] + q["b"]
            g.append(y["bars"] <= 4)
        if spec.wins:
            y["W"] = q["w"]
            for side in SIDES:
                g.append(z3.Implies(y[f"L.{side}"] == 0, y["W"] == 1 - side))
                g.append(z3.Implies(y[f"C.{side}"] >= TARGETS, y["W"] == side))
        return g, y
    return effect


def _kind(spec: _Spec) -> Kind:
    flows = len(spec.enc) + len(spec.act)
    params: list[tuple[str, int, int]] = [(f"f{i}", 0, 30) for i in range(flows)]
    params += [("dt0", -TARGETS, TARGETS), ("dt1", -TARGETS, TARGETS)]
    if spec.life in ("loss", "gift"):
        params += [("n0", 0, 12), ("n1", 0, 12)]
    if spec.life in ("gift", "zero"):
        params.append(("giver", 0, 1))
    if spec.barrier:
        params.append(("b", 0, 1))
    if spec.wins:
        params.append(("w", -1, 1))
    idle = tuple((p, -1 if p == "w" else 0) for p, _lo, _hi in params if p != "giver")
    return Kind(spec.name, spec.clauses, tuple(params), _effect(spec), idle)


def _laws() -> tuple[Law, ...]:
    def enc(e: Env) -> z3.BoolRef:
        return z3.And(z3.Sum([e[z] for z in ENC]) == 30, *[e[z] >= 0 for z in ENC])

    def act(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.Sum([e[f"{z}.{s}"] for z in ("Cu", "As", "Ad")]) == 10
                        for s in SIDES], *[e[z] >= 0 for z in ACT])

    def life(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.And(e[f"L.{s}"] >= 0, e[f"L.{s}"] <= LIFE,
                               z3.Implies(e[f"L.{s}"] == 0, e["W"] == 1 - s)) for s in SIDES])

    def five(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.Implies(e[f"C.{s}"] >= TARGETS, e["W"] == s) for s in SIDES])

    def bars(e: Env) -> z3.BoolRef:
        return z3.And(e["bars"] >= 0, e["bars"] <= 4)

    def targets(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.And(e[f"T.{s}"] >= 0, e[f"T.{s}"] <= e[f"H.{s}"]) for s in SIDES])

    return (
        Law("encounter-cards-conserved", enc, ("dracula-en:contents.components",)),
        Law("action-cards-conserved", act, ("dracula-en:contents.components",
                                            "dracula-en:cards.cycle")),
        Law("life-markers-bounded", life, ("dracula-en:contents.components",
                                           "dracula-en:early-end.last-marker",
                                           "dracula-en:early-end.give-target")),
        Law("five-targets-end-the-game", five, ("dracula-en:end.all-captured",),
            support=("life-markers-bounded",)),
        Law("at-most-four-barriers", bars, ("dracula-en:contents.components",
                                            "dracula-en:pay.barrier-restrictions")),
        Law("targets-in-hand-bounded", targets, ("dracula-en:setup.dracula-kit",)),
    )


@cache
def system() -> System:
    """The symbolic transition system of Dracula."""
    def init(e: Env) -> z3.BoolRef:
        zeros = [e[z] == 0 for z in ("B", "P", "D.0", "D.1", "C.0", "C.1", "bars")]
        return z3.And(*zeros, *[z3.And(e[f"H.{s}"] == 15, e[f"T.{s}"] == TARGETS,
                                       e[f"Cu.{s}"] == 5, e[f"As.{s}"] == 5, e[f"Ad.{s}"] == 0,
                                       e[f"L.{s}"] == LIFE) for s in SIDES], e["W"] == -1)

    return System("dracula", VARIABLES,
                  (("setup", ("dracula-en:setup.dracula-kit", "dracula-en:setup.van-helsing-kit",
                              "dracula-en:setup.action-cards",
                              "dracula-en:contents.components"), init),),
                  tuple(_kind(s) for s in SPECS), _laws(), lambda e: e["W"] != -1)


def kinds_of(actions: Sequence[dr.Action]) -> list[str]:
    """The kinds of a sequence of actions."""
    return [classify(a) for a in actions]


@dataclass(frozen=True)
class DraculaWitness:
    """A concrete Dracula ending: start position (as in the scenario format) and actions."""

    name: str
    title: str
    clauses: tuple[str, ...]
    board: tuple[str, ...]
    actions: tuple[str, ...]
    winner: str
    target: Callable[[Env], z3.BoolRef]
    last: tuple[str, ...]
    to_move: int = 0
    van_helsing: str = ""
    life: tuple[int, int] = (4, 4)
    captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    current_dracula: tuple[str, ...] = ()
    reason: str = ""


_BOARD_A = ("coffin1", "vampire1", "hunter7", "coffin2", "vampire4", "hunter8", "victim2",
            "vampire7", "hunter1", "amulet", "victim1", "hunter9")
_BOARD_FIVE = ("coffin1", "victim5", "hunter7", "coffin2", "vampire4", "hunter8", "hunter2",
               "vampire7", "hunter1", "amulet", "hunter3", "hunter9")


def _proof(finder: int) -> Callable[[Env], z3.BoolRef]:
    owner = 1 - finder
    return lambda e: z3.And(e["W"] == finder, e[f"T.{owner}"] == 5 - e[f"C.{finder}"])


DRACULA_WITNESSES = (
    DraculaWitness(
        "all-five", "Dracula takes his fifth victim from the board and wins",
        ("dracula-en:target.capture", "dracula-en:target.all-five",
         "dracula-en:end.all-captured"), _BOARD_FIVE, ("move b1", "look", "play quiet-night"),
        "dracula", lambda e: z3.And(e["C.0"] == 5, e["W"] == 0), ("play",),
        captured=(("victim1", "victim2", "victim3", "victim4"), ()),
        current_dracula=("quiet-night", "wings-of-night", "pulse", "depths-of-night",
                         "breath-of-night"), reason="all five"),
    DraculaWitness(
        "hand-proof", "Van Helsing's remaining targets are seen in his hand: Dracula wins",
        ("dracula-en:meet.reveal-hands", "dracula-en:end.hand-proof"),
        ("coffin1", "vampire1", "hunter7", "coffin2", "vampire4", "hunter8", "hunter2",
         "vampire7", "hunter1", "amulet", "hunter3", "hunter9"), ("move b1", "reveal"),
        "dracula", _proof(0), ("meet",), van_helsing="b1", reason="hand"),
    DraculaWitness(
        "last-marker", "Dracula loses his last life marker in a battle: Van Helsing wins",
        ("dracula-en:enemy.lose", "dracula-en:early-end.last-marker"),
        ("coffin1", "hunter9", "coffin2", "coffin3", "vampire4", "hunter8", "victim2",
         "coffin4", "hunter1", "amulet", "victim1", "hunter7"),
        ("move b1", "look", "play wings-of-night"), "van-helsing",
        lambda e: z3.And(e["L.0"] == 0, e["W"] == 1), ("play",), life=(1, 4),
        captured=((), ("coffin5",)), reason="last life marker"),
    DraculaWitness(
        "both-at-once", "Both sides prove at once when hands are shown: the side to move wins",
        ("dracula-en:end.simultaneous", "dracula-en:end.hand-proof"),
        ("vampire2", "vampire1", "hunter7", "vampire3", "vampire4", "hunter8", "hunter2",
         "vampire7", "hunter1", "amulet", "hunter3", "hunter9"), ("move b1", "reveal"),
        "dracula", lambda e: z3.And(_proof(0)(e), e["T.0"] == 5 - e["C.1"]), ("meet",),
        van_helsing="b1"),
    DraculaWitness(
        "give-for-markers", "Van Helsing gives a target away for two life markers and plays on",
        ("dracula-en:early-end.give-target",), _BOARD_A,
        ("move d2", "look", "play perception", "give victim3", "no-barrier"), "none",
        lambda e: z3.And(e["L.1"] == 2, e["C.0"] == 3, e["W"] == -1), ("barrier",),
        to_move=1, life=(4, 1), captured=(("victim4", "victim5"), ())),
    DraculaWitness(
        "give-fifth", "Giving the fifth target away makes the opponent win",
        ("dracula-en:early-end.give-target", "dracula-en:end.all-captured"),
        ("coffin1", "vampire1", "hunter7", "coffin2", "vampire4", "hunter8", "hunter2",
         "vampire7", "hunter1", "amulet", "hunter3", "hunter9"), ("give victim5",), "dracula",
        lambda e: z3.And(e["C.0"] == 5, e["W"] == 0), ("give",), to_move=1, life=(4, 2),
        captured=(("victim1", "victim2", "victim3", "victim4"), ())),
)


def dracula_witness_text(w: DraculaWitness) -> str:
    """The witness as a Dracula scenario file (format of properties/dracula/scenarios.py)."""
    def q(xs: Sequence[str]) -> str:
        return "[" + ", ".join(f'"{x}"' for x in xs) + "]"

    side = ("dracula", "van-helsing")
    lines = [
        "# Generated by properties/symbolic/endings.py (ruleproof prove): do not edit.",
        'game = "dracula"', f'title = "{w.title}"', f"clauses = {q(w.clauses)}",
        f"actions = {q(w.actions)}", "", "[setup]", f"board = {q(w.board)}",
        f'to_move = "{side[w.to_move]}"']
    if w.van_helsing:
        lines.append(f'van_helsing = "{w.van_helsing}"')
    if w.life != (4, 4):
        lines.append("life = { " + ", ".join(f"{side[s]} = {w.life[s]}" for s in (0, 1)
                                            if w.life[s] != 4) + " }")
    if any(w.captured):
        lines.append("captured = { " + ", ".join(f"{side[s]} = {q(w.captured[s])}"
                                                for s in (0, 1) if w.captured[s]) + " }")
    if w.current_dracula:
        lines.append(f"current = {{ dracula = {q(w.current_dracula)} }}")
    lines += ["", "[expect]", f'winner = "{w.winner}"']
    if w.reason:
        lines.append(f'"reason contains" = "{w.reason}"')
    return "\n".join(lines) + "\n"


def dracula_witness_path(w: DraculaWitness) -> Path:
    """The file of a Dracula ending witness."""
    return endings_dir(NAME) / f"dracula-{w.name}.toml"


def _dracula_start(w: DraculaWitness) -> dr.State:
    cards, board = default_cards(), default_board()
    locs = {dr.loc_name(i): i for i in range(board.size)}
    pos = (board.harbour, locs[w.van_helsing] if w.van_helsing else board.carriage_station)
    current = (w.current_dracula or cards.action_of(Side.DRACULA)[:5],
               cards.action_of(Side.VAN_HELSING)[:5])
    return dr.custom_start(DraculaRules(), cards, board, board_cards=w.board, to_move=w.to_move,
                           pos=pos, life=w.life, captured=w.captured,
                           current=(tuple(current[0]), tuple(current[1])))


def check_dracula_ending(w: DraculaWitness) -> Outcome:
    """BMC in the Dracula abstraction from the witness's start, then replay it."""
    t0 = time.perf_counter()
    sym = system()
    name = f"ending: {w.name}"
    path = dracula_witness_path(w)
    if not path.exists() or path.read_text() != dracula_witness_text(w):
        return Outcome(name, sym.name, "witness", "failed", False, (), 0.0,
                       f"{path} is missing or out of date (run: ruleproof prove "
                       "--write-witnesses)")
    state = _dracula_start(w)
    actions = [a for text in w.actions for a in parse_actions(state.board, text)]
    answer, kinds, _secs = bmc(sym, abstract(state), w.target, len(actions) + 2,
                               last=w.last)
    problems: list[str] = []
    if answer != "sat":
        problems.append(f"bounded search found no abstract path ({answer})")
    checker = StepChecker(sym)
    concrete: list[str] = []

    def advance(s: dr.State, a: dr.Action) -> dr.State:
        new = dr.apply(s, a)
        kind = classify(a)
        concrete.append(kind)
        x, y = abstract(s), abstract(new)
        if not checker.check(kind, x, y):
            problems.append(f"'{a}' ({kind}) breaks its relation: {diff(x, y)}")
        return new

    for action in actions:
        while not dr.is_terminal(state) and dr.current_player(state) == CHANCE:
            options = dr.legal_actions(state)
            rng = random.Random(f"{state.seed}/{state.step}")
            state = advance(state, options[rng.randrange(len(options))])
        state = advance(state, action)
    won = {"dracula": 0, "van-helsing": 1, "none": None}[w.winner]
    if state.winner != won:
        problems.append(f"the replay ends with winner {state.winner}, expected {won}")
    x = abstract(state)
    s = z3.Solver()
    env = sym.env("end")
    s.add(*[env[v] == x[v] for v in sym.variables], w.target(env))
    if s.check() != z3.sat:
        problems.append("the replayed end state does not satisfy the ending's predicate")
    result = dr_run_scenario(path)
    if not result.passed:
        problems.append("scenario runner: " + result.detail[-200:])
    detail = (f"abstract path: {' -> '.join(kinds)}; replayed {path.name}: "
              f"{' -> '.join(concrete)}")
    return Outcome(name, sym.name, f"bounded search depth {len(kinds)} + replay",
                   "reached" if not problems else "failed", not problems, w.clauses,
                   time.perf_counter() - t0, "; ".join(problems) or detail)


# --------------------------------------------------------------------------- drift and the capability


def dracula_drift(games: int, steps: int, seed: int = 0) -> list[Outcome]:
    """Sampled drift check for Dracula, plus the executable-model dead-end check (every
    non-terminal state has a legal action)."""
    t0 = time.perf_counter()
    sym = system()
    checker = StepChecker(sym)
    count = 0
    states = 0
    drift: Outcome | None = None
    stuck: str = ""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = dr.new_game(seed * 1000 + g)
        for _ in range(steps):
            states += 1
            if dr.is_terminal(state):
                break
            actions = dr.legal_actions(state)
            if not actions:
                stuck = stuck or f"game seed {seed * 1000 + g}: no legal action, not over"
                break
            action = rng.choice(actions)
            new = dr.apply(state, action)
            kind = classify(action)
            x, y = abstract(state), abstract(new)
            count += 1
            if drift is None and not checker.check(kind, x, y):
                drift = Outcome("no drift (model vs relations)", sym.name,
                                f"sampled {count}", "counterexample", False,
                                sym.kind(kind).clauses, time.perf_counter() - t0,
                                f"game seed {seed * 1000 + g}: '{action}' classified {kind} "
                                f"breaks its relation: {diff(x, y)}")
            state = new
    seconds = time.perf_counter() - t0
    out = [drift or Outcome("no drift (model vs relations)", sym.name, f"sampled {count}",
                            "passed", True, (), seconds, f"{games} games")]
    out.append(Outcome("no dead end (executable model)", sym.name, f"sampled {states}",
                       "failed" if stuck else "passed", not stuck,
                       ("dracula-en:play.turn-parts",), seconds, stuck or f"{games} games"))
    return out


def dracula_outcomes(profile: Profile) -> list[Outcome]:
    """Every symbolic property of Dracula."""
    sym = system()
    out = [prove_law(sym, law, max_k(profile)) for law in sym.laws]
    out.append(no_dead_end(sym, [law.name for law in sym.laws]))
    out += [check_dracula_ending(w) for w in DRACULA_WITNESSES]
    games, steps = DRIFT.get(profile.name, DRIFT["ci"])
    out += dracula_drift(games * 2, steps * 3)
    return out


def write_witnesses() -> list[Path]:
    """(Re)write every ending witness file of Dracula."""
    endings_dir(NAME).mkdir(parents=True, exist_ok=True)
    out = []
    for w in DRACULA_WITNESSES:
        p = dracula_witness_path(w)
        write_file(p, dracula_witness_text(w))
        out.append(p)
    return out


@dataclass(frozen=True)
class _Symbolic:
    """Dracula's capability ``"symbolic"`` (see
    :class:`ruleproof.properties.symbolic.prove.SymbolicGame`): one configuration, the default
    rules with 2 players."""

    configs: tuple[tuple[str, int], ...] = (("", 2),)
    selection: str = "no presets, 2 players"

    def outcomes(self, preset: str, players: int, profile: Profile) -> list[Outcome]:
        return dracula_outcomes(profile)

    def applies(self, rule_set: RuleSet, board: Path | None
                ) -> tuple[list[tuple[str, int, str]], str]:
        if rule_set.options:
            return [], "its relations encode the default reading"
        return [("", 2, "")], ""

    def write_witnesses(self) -> list[Path]:
        return write_witnesses()


SYMBOLIC = _Symbolic()
"""The capability ``"symbolic"`` of Dracula's plugin record."""
