"""The symbolic transition system of Dracula (cards per zone, life markers, barriers).

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import z3

from ruleproof.model.dracula import engine as dr
from ruleproof.model.dracula.data import Kind as CardKind
from ruleproof.properties.symbolic.core import Effect, Env, Kind, Law, System

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
