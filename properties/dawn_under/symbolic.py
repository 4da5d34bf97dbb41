"""Dawn Under's symbolic layer (capability ``"symbolic"``, :data:`SYMBOLIC`): the transition
system (counts per place) and its abstraction map, the ending witnesses, the drift check.

Variables (all integers; ``p`` a player, ``c`` a vampire colour, ``v`` a lid colour):

* ``row.p.c`` vampires of colour c in p's row; ``grave.c`` in graves; ``transit.c`` handed over;
* ``path`` stakes on the path, ``held.p`` in front of p;
* ``garlic.p`` in p's hand, ``ggrave.p`` of p's garlic in graves;
* ``lid.v`` coloured lids on graves, ``res.v`` in the reserve, ``rat`` rat lids on graves,
  ``front`` a rat lid in front of its holder, ``ratout`` rat lids out of play;
* ``ph`` the phase (0 open, 1 place, 2 give, 3 receive, 4 over), ``plague`` 0/1, ``gifts``
  pending hand-overs.

The abstraction reads only these fields of :class:`ruleproof.model.dawn_under.state.State`: ``rows``,
``contents``, ``in_transit``, ``stakes_held``, ``stakes_path``, ``garlic_hand``, ``lids``,
``reserve``, ``removed_rats``, ``plague``, ``phase``, ``gifts`` (new fields are ignored).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

import z3

from ruleproof.model.dawn_under.config import make_config
from ruleproof.model.dawn_under.engine import legal_actions as du_legal
from ruleproof.model.dawn_under.engine import new_game as du_new_game
from ruleproof.model.dawn_under.engine import step as du_step
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    Config,
    Event,
    EventKind,
    GarlicIn,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    VampireIn,
)
from ruleproof.properties.dawn_under.scenarios import load_scenario
from ruleproof.properties.dawn_under.scenarios import run_scenario as du_run_scenario
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

NAME = "dawn-under"

OPEN, PLACE, GIVE, RECEIVE, OVER = 0, 1, 2, 3, 4
_PHASE: dict[Enum, int] = {Phase.OPEN: OPEN, Phase.PLACE: PLACE, Phase.GIVE: GIVE, Phase.RECEIVE: RECEIVE,
          Phase.OVER: OVER}


@dataclass(frozen=True)
class Shape:
    """What the abstraction depends on in a :class:`Config` (hashable)."""

    players: int
    colours: tuple[int, ...]
    lid_colours: tuple[int, ...]
    vampires: int
    lids_per_colour: int
    rats: int
    reserve: int
    stakes: int
    garlic: int
    gift_at: int
    gift_stake: int
    gift_own: int
    gift_other: int
    rat_stays: bool
    lidded: int
    holding_three: bool
    gift_now: bool
    preset: str


def shape_of(config: Config) -> Shape:
    """The abstraction-relevant numbers and options of ``config``."""
    lids = len(config.lid_colours) * config.lids_per_colour + config.rat_lids
    return Shape(config.players, tuple(config.vampire_colours), tuple(config.lid_colours),
                 config.vampires_per_colour, config.lids_per_colour, config.rat_lids,
                 config.reserve_size, config.stakes, config.garlic, config.stakes_for_gift,
                 config.gift_stake, config.gift_own_garlic, config.gift_other_garlic,
                 config.rat_lid_stays, min(config.board.size, lids - config.reserve_size),
                 config.options.gift_trigger == "holding-three",
                 config.options.empty_path == "gift-now", config.preset)


# --------------------------------------------------------------------------- abstraction


def abstract(state: State) -> dict[str, int]:
    """The abstract state (counts per place) of a concrete state."""
    config = state.config
    n = config.players
    out: dict[str, int] = {}
    for p in range(n):
        for c in config.vampire_colours:
            out[f"row.{p}.{c}"] = sum(1 for v in state.rows[p] if v.colour == c)
    for c in config.vampire_colours:
        out[f"grave.{c}"] = sum(1 for x in state.contents if isinstance(x, VampireIn)
                                and x.colour == c)
        out[f"transit.{c}"] = 1 if state.in_transit == c else 0
    out["path"] = state.stakes_path
    for p in range(n):
        out[f"held.{p}"] = state.stakes_held[p]
        out[f"garlic.{p}"] = state.garlic_hand[p]
        out[f"ggrave.{p}"] = sum(1 for x in state.contents if isinstance(x, GarlicIn)
                                 and x.owner == p)
    for v in config.lid_colours:
        out[f"lid.{v}"] = sum(1 for lid in state.lids if lid == v)
        out[f"res.{v}"] = sum(1 for lid in state.reserve if lid == v)
    out["rat"] = sum(1 for lid in state.lids if lid == RAT)
    out["front"] = 1 if state.plague is not None and not config.rat_lid_stays else 0
    out["ratout"] = state.removed_rats
    out["ph"] = _PHASE[state.phase]
    out["plague"] = 1 if state.plague is not None else 0
    out["gifts"] = len(state.gifts)
    return out


def classify(before: State, action: Action, events: Sequence[Event]) -> str:
    """The transition kind of ``before --action--> `` with these events."""
    if isinstance(action, PlaceVampire):
        return "place-vampire"
    if isinstance(action, PlaceGarlic):
        return "place-garlic"
    if isinstance(action, LeaveEmpty):
        return "leave"
    if isinstance(action, Stop):
        return "stop"
    if isinstance(action, GiveVampire):
        return "give"
    if isinstance(action, ReceiveVampire):
        return "receive"
    if not isinstance(action, OpenGrave):
        return f"unmodelled {type(action).__name__}"  # e.g. an expansion's action
    kinds = {e.kind for e in events}
    if EventKind.PLAGUE_START in kinds:
        if any(e.kind is EventKind.PLAGUE_END and e.clause == "du-en:ch4.end-new-rat"
               for e in events):
            return "second-rat"
        return "rat"
    if EventKind.STAKES_BACK in kinds:
        return "stake-gift"
    if EventKind.GARLIC_BACK in kinds:
        content = before.contents[action.grave]
        assert isinstance(content, GarlicIn)
        actor = before.plague.current if before.plague is not None else before.turn_player
        return "garlic-own" if content.owner == actor else "garlic-other"
    if isinstance(before.contents[action.grave], VampireIn) or EventKind.STAKE in kinds:
        return "stake"
    return "open-empty"


# --------------------------------------------------------------------------- relations

Params = Mapping[str, z3.ArithRef]


def _sel(e: Env, names: Sequence[str], i: z3.ArithRef) -> z3.ArithRef:
    """``names[i]`` for a symbolic index ``i``."""
    return z3.Sum([z3.If(i == k, e[name], 0) for k, name in enumerate(names)])


def _add(e: Env, names: Sequence[str], i: z3.ArithRef, delta: z3.ArithRef | int) -> None:
    for k, name in enumerate(names):
        e[name] = e[name] + z3.If(i == k, delta, 0)


def _set_at(e: Env, names: Sequence[str], i: z3.ArithRef, value: z3.ArithRef | int) -> None:
    for k, name in enumerate(names):
        e[name] = z3.If(i == k, value, e[name])


@cache
def system(sh: Shape) -> System:
    """The symbolic transition system of Dawn Under for one configuration shape."""
    n = sh.players
    cols = sh.colours
    ps = range(n)
    rowv = {p: [f"row.{p}.{c}" for c in cols] for p in ps}
    graves = [f"grave.{c}" for c in cols]
    transit = [f"transit.{c}" for c in cols]
    held = [f"held.{p}" for p in ps]
    garlic = [f"garlic.{p}" for p in ps]
    ggrave = [f"ggrave.{p}" for p in ps]
    lidv = [f"lid.{v}" for v in sh.lid_colours]
    resv = [f"res.{v}" for v in sh.lid_colours]
    variables = (*[v for p in ps for v in rowv[p]], *graves, *transit, "path", *held, *garlic,
                 *ggrave, *lidv, *resv, "rat", "front", "ratout", "ph", "plague", "gifts")
    nc = len(cols) - 1
    np_ = n - 1
    nl = len(sh.lid_colours) - 1

    def rowlen(e: Env, p: z3.ArithRef) -> z3.ArithRef:
        return z3.Sum([z3.If(p == k, z3.Sum([e[v] for v in rowv[k]]), 0) for k in ps])

    def row_cell(p: z3.ArithRef, c: z3.ArithRef) -> tuple[list[str], z3.ArithRef]:
        names = [v for k in ps for v in rowv[k]]
        return names, p * len(cols) + c

    def plague_end(e: Env, v: z3.ArithRef) -> list[z3.BoolRef]:
        """du-en:ch4.cleanup, du-en:ch5.cleanup: rat lid out, a reserve lid onto its grave."""
        guards = [e["plague"] == 1, _sel(e, resv, v) >= 1]
        if sh.rat_stays:
            e["rat"] = e["rat"] - 1
        else:
            e["front"] = e["front"] - 1
        _add(e, lidv, v, 1)
        _add(e, resv, v, -1)
        e["ratout"] = e["ratout"] + 1
        e["plague"] = z3.IntVal(0)
        return guards

    def maybe_end(e: Env, q: Params, allowed: z3.BoolRef | bool = True) -> list[z3.BoolRef]:
        """Optionally the running plague ends here (du-en:ch4.end-all-opened,
        du-en:ch4.end-all-passed, du-en:ch4.occupied)."""
        before = dict(e)
        after = dict(e)
        g = plague_end(after, q["v"])
        end = q["end"] == 1
        for name in e:
            if after[name] is not before[name]:  # unchanged variables stay as they are
                e[name] = z3.If(end, after[name], before[name])
        return [z3.Implies(end, z3.And(*g, allowed))]

    def opening(e: Env) -> list[z3.BoolRef]:
        """A grave can be opened (du-en:ch1.open): the phase, a lid on some grave."""
        return [e["ph"] == OPEN, z3.Sum([e[v] for v in lidv]) + e["rat"] >= 1]

    def open_empty(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        g = opening(e)
        e["ph"] = z3.IntVal(PLACE)
        return g, e

    def place_vampire(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p, c = q["p"], q["c"]
        names, idx = row_cell(p, c)
        g = [z3.Or(e["ph"] == PLACE, z3.And(e["ph"] == OPEN, e["plague"] == 1)),
             _sel(e, names, idx) >= 1]
        _add(e, names, idx, -1)
        _add(e, graves, c, 1)
        won = rowlen(e, p) == 0
        g += maybe_end(e, q, z3.Not(won))
        e["ph"] = z3.If(won, OVER, OPEN)
        return g, e

    def place_garlic(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p = q["p"]
        g = [z3.Or(e["ph"] == PLACE, z3.And(e["ph"] == OPEN, e["plague"] == 1)),
             _sel(e, garlic, p) >= 1]
        _add(e, garlic, p, -1)
        _add(e, ggrave, p, 1)
        e["ph"] = z3.IntVal(OPEN)
        g += maybe_end(e, q)
        return g, e

    def leave(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        g = [e["ph"] == PLACE]
        e["ph"] = z3.IntVal(OPEN)
        g += maybe_end(e, q)
        return g, e

    def stop(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        g = [e["ph"] == OPEN]
        g += maybe_end(e, q)
        return g, e

    def stake(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p = q["p"]
        g = opening(e)
        h = _sel(e, held, p)
        took = h + 1
        has = e["path"] >= 1
        g.append(z3.Or(z3.Not(has), took <= sh.gift_at if sh.holding_three
                       else took < sh.gift_at))
        if sh.gift_now:
            g.append(has)
        _add(e, held, p, z3.If(has, 1, 0))
        e["path"] = e["path"] - z3.If(has, 1, 0)
        e["ph"] = z3.IntVal(OPEN)
        g += maybe_end(e, q)
        return g, e

    def stake_gift(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p = q["p"]
        g = opening(e)
        h = _sel(e, held, p)
        has = e["path"] >= 1
        took = z3.If(has, h + 1, h)
        due = took > sh.gift_at if sh.holding_three else took >= sh.gift_at
        g.append(z3.Or(due, z3.And(z3.Not(has), sh.gift_now)))
        e["path"] = e["path"] - z3.If(has, 1, 0) + took
        _set_at(e, held, p, 0)
        e["gifts"] = z3.IntVal((n - 1) * sh.gift_stake)
        e["ph"] = z3.IntVal(GIVE)
        return g, e

    def garlic_found(own: bool) -> Callable[[Env, Params], tuple[list[z3.BoolRef], Env]]:
        def effect(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
            o = q["p"]
            g = [*opening(e), _sel(e, ggrave, o) >= 1]
            _add(e, ggrave, o, -1)
            _add(e, garlic, o, 1)
            e["gifts"] = z3.IntVal((n - 1) * sh.gift_own if own else sh.gift_other)
            e["ph"] = z3.IntVal(GIVE)
            return g, e
        return effect

    def give(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p, c = q["p"], q["c"]
        names, idx = row_cell(p, c)
        g = [e["ph"] == GIVE, e["gifts"] >= 1, _sel(e, names, idx) >= 1,
             z3.Sum([e[t] for t in transit]) == 0]
        _add(e, names, idx, -1)
        _add(e, transit, c, 1)
        won = rowlen(e, p) == 0  # du-en:aim.win: handing over the last vampire wins
        e["ph"] = z3.If(won, OVER, RECEIVE)
        e["gifts"] = z3.If(won, 0, e["gifts"])
        return g, e

    def receive(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        p, c = q["p"], q["c"]
        names, idx = row_cell(p, c)
        g = [e["ph"] == RECEIVE, _sel(e, transit, c) >= 1]
        _add(e, transit, c, -1)
        _add(e, names, idx, 1)
        e["gifts"] = e["gifts"] - 1
        more = e["gifts"] >= 1
        e["ph"] = z3.If(more, GIVE, OPEN)
        g += maybe_end(e, q, z3.Not(more))
        return g, e

    def rat_start(e: Env) -> list[z3.BoolRef]:
        """du-en:ch4.rat (du-en:2p.rat-stays: the rat lid stays on its grave)."""
        g = [e["rat"] >= 1]
        if not sh.rat_stays:
            e["rat"] = e["rat"] - 1
            e["front"] = e["front"] + 1
        e["plague"] = z3.IntVal(1)
        e["ph"] = z3.IntVal(OPEN)
        return g

    def rat(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        g = [*opening(e), e["plague"] == 0]
        g += rat_start(e)
        g += maybe_end(e, q)
        return g, e

    def second_rat(e: Env, q: Params) -> tuple[list[z3.BoolRef], Env]:
        g = [*opening(e), e["plague"] == 1]
        if sh.rat_stays:
            g.append(e["rat"] >= 2)  # the old rat lid still lies on its grave
        g += plague_end(e, q["w"])
        g += rat_start(e)
        g += maybe_end(e, q)
        return g, e

    pl = ("p", 0, np_)
    co = ("c", 0, nc)
    end = (("end", 0, 1), ("v", 0, nl))
    kinds: tuple[Kind, ...] = (
        Kind("open-empty", ("du-en:ch1.open",), (), open_empty),
        Kind("place-vampire", ("du-en:ch1.match", "du-en:ch1.outermost", "du-en:ch4.match",
                               "du-en:end.first-empty", "du-en:ch4.end-all-opened",
                               "du-en:ch4.cleanup"), (pl, co, *end), place_vampire),
        Kind("place-garlic", ("du-en:ch1.garlic", "du-en:ch4.garlic", "du-en:ch4.cleanup"),
             (pl, *end), place_garlic),
        Kind("leave", ("du-en:ch1.garlic", "du-en:ch1.no-match-ends", "du-en:ch4.cleanup"),
             end, leave),
        Kind("stop", ("du-en:ch1.continue", "du-en:ch4.pass", "du-en:ch4.end-all-passed",
                      "du-en:ch4.cleanup"), end, stop),
        Kind("stake", ("du-en:ch2.stake", "du-en:2p.reopen", "du-en:ch4.occupied",
                       "du-en:ch4.cleanup"), (pl, *end), stake),
        Kind("stake-gift", ("du-en:ch2.stake", "du-en:ch2.gift", "du-en:ch2.stakes-back",
                            "du-en:2p.own-garlic-stake"), (pl,), stake_gift),
        Kind("garlic-own", ("du-en:ch3.own-garlic", "du-en:ch3.garlic-back"), (pl,),
             garlic_found(True)),
        Kind("garlic-other", ("du-en:ch3.other-garlic", "du-en:ch3.garlic-back"), (pl,),
             garlic_found(False)),
        Kind("give", ("du-en:ch2.gift", "du-en:ch3.other-garlic", "du-en:ch1.outermost",
                      "du-en:aim.win"), (pl, co), give),
        Kind("receive", ("du-en:ch3.received-open", "du-en:ch2.ends", "du-en:ch3.ends",
                         "du-en:ch4.cleanup"), (pl, co, *end), receive),
        Kind("rat", ("du-en:ch4.rat", "du-en:2p.rat-stays", "du-en:ch4.end-all-opened",
                     "du-en:ch4.cleanup"), end, rat),
        Kind("second-rat", ("du-en:ch4.end-new-rat", "du-en:ch5.cleanup", "du-en:ch5.new-plague",
                            "du-en:ch4.cleanup"), (("w", 0, nl), *end), second_rat),
    )

    def init_rows(e: Env) -> z3.BoolRef:
        share = len(cols) * sh.vampires // n
        return z3.And(*[e[v] >= 0 for p in ps for v in rowv[p]],
                      *[z3.Sum([e[rowv[p][i]] for p in ps]) == sh.vampires
                        for i in range(len(cols))],
                      *[z3.Sum([e[v] for v in rowv[p]]) == share for p in ps],
                      *[e[v] == 0 for v in (*graves, *transit)])

    def init_lids(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.And(e[lidv[i]] >= 0, e[resv[i]] >= 0,
                               e[lidv[i]] + e[resv[i]] == sh.lids_per_colour)
                        for i in range(len(lidv))],
                      z3.Sum([e[v] for v in resv]) == sh.reserve, e["rat"] == sh.rats,
                      e["front"] == 0, e["ratout"] == 0)

    init = (
        ("rows", ("du-en:prep.deal", "du-en:content.vampires"), init_rows),
        ("stakes", ("du-en:prep.stakes", "du-en:content.stakes"),
         lambda e: z3.And(e["path"] == sh.stakes, *[e[h] == 0 for h in held])),
        ("garlic", ("du-en:prep.garlic", "du-en:content.garlic"),
         lambda e: z3.And(*[e[g] == sh.garlic for g in garlic],
                          *[e[g] == 0 for g in ggrave])),
        ("lids", ("du-en:prep.reserve", "du-en:prep.mix-rats", "du-en:content.lids"), init_lids),
        ("control", ("du-en:play.start",),
         lambda e: z3.And(e["ph"] == OPEN, e["plague"] == 0, e["gifts"] == 0)),
    )
    if n != 2:  # the 2-player clauses do not apply
        two = "du-en" + ":2p."  # (split so the citation scanner does not read it as an id)
        kinds = tuple(Kind(k.name, tuple(c for c in k.clauses if not c.startswith(two)),
                           k.params, k.effect, k.idle) for k in kinds)
    return System(f"dawn-under {sh.preset} {n}p", variables, init, kinds, _laws(sh, variables),
                  lambda e: e["ph"] == OVER)


def _laws(sh: Shape, variables: tuple[str, ...]) -> tuple[Law, ...]:
    n = sh.players
    ps = range(n)
    cols = sh.colours
    bound = sh.gift_at - 1
    cs_bound = sh.gift_at if sh.holding_three else bound

    def vampires(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.Sum([e[f"row.{p}.{c}"] for p in ps]) + e[f"grave.{c}"]
                        + e[f"transit.{c}"] == sh.vampires for c in cols],
                      *[e[v] >= 0 for v in variables if v.split(".")[0] in
                        ("row", "grave", "transit")])

    def transit_one(e: Env) -> z3.BoolRef:
        t = z3.Sum([e[f"transit.{c}"] for c in cols])
        return z3.And(t <= 1, z3.Implies(e["ph"] == RECEIVE, t == 1),
                      z3.Implies(z3.And(e["ph"] != RECEIVE, e["ph"] != OVER), t == 0),
                      e["ph"] >= OPEN, e["ph"] <= OVER, e["gifts"] >= 0,
                      z3.Implies(z3.Or(e["ph"] == GIVE, e["ph"] == RECEIVE), e["gifts"] >= 1),
                      z3.Or(e["plague"] == 0, e["plague"] == 1))

    def rows_nonempty(e: Env) -> z3.BoolRef:
        return z3.Implies(e["ph"] != OVER,
                          z3.And(*[z3.Sum([e[f"row.{p}.{c}"] for c in cols]) >= 1 for p in ps]))

    def stakes(e: Env) -> z3.BoolRef:
        return z3.And(e["path"] + z3.Sum([e[f"held.{p}"] for p in ps]) == sh.stakes,
                      e["path"] >= 0, *[e[f"held.{p}"] >= 0 for p in ps])

    def held_bound(limit: int) -> Callable[[Env], z3.BoolRef]:
        return lambda e: z3.And(*[e[f"held.{p}"] <= limit for p in ps])

    def never_out(e: Env) -> z3.BoolRef:
        return e["path"] >= 1

    def garlic(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.And(e[f"garlic.{p}"] + e[f"ggrave.{p}"] == sh.garlic,
                               e[f"garlic.{p}"] >= 0, e[f"ggrave.{p}"] >= 0) for p in ps])

    def lids(e: Env) -> z3.BoolRef:
        return z3.And(*[z3.And(e[f"lid.{v}"] + e[f"res.{v}"] == sh.lids_per_colour,
                               e[f"lid.{v}"] >= 0, e[f"res.{v}"] >= 0) for v in sh.lid_colours],
                      e["rat"] + e["front"] + e["ratout"] == sh.rats, e["rat"] >= 0,
                      e["front"] >= 0, e["ratout"] >= 0,
                      e["front"] == (0 if sh.rat_stays else 1) * e["plague"],
                      z3.Sum([e[f"res.{v}"] for v in sh.lid_colours]) + e["ratout"]
                      == sh.reserve)

    def graves_lidded(e: Env) -> z3.BoolRef:
        return (z3.Sum([e[f"lid.{v}"] for v in sh.lid_colours]) + e["rat"] + e["front"]
                == sh.lidded)

    def reserve_left(e: Env) -> z3.BoolRef:
        return z3.Implies(e["plague"] == 1,
                          z3.Sum([e[f"res.{v}"] for v in sh.lid_colours]) >= 1)

    laws = [
        Law("vampires-conserved", vampires,
            ("du-en:content.vampires", "du-en:prep.deal", "du-en:row.order")),
        Law("control-consistent", transit_one, ("du-en:ch3.received-open",)),
        Law("rows-nonempty-until-over", rows_nonempty,
            ("du-en:end.first-empty", "du-en:aim.win"),
            support=("vampires-conserved", "control-consistent")),
        Law("stakes-conserved", stakes, ("du-en:content.stakes", "du-en:ch2.stakes-back")),
        Law("garlic-conserved", garlic, ("du-en:content.garlic", "du-en:ch3.garlic-back")),
        Law("lids-accounted", lids, ("du-en:content.lids", "du-en:prep.reserve",
                                     "du-en:ch4.cleanup"), support=("control-consistent",)),
        Law("graves-lidded", graves_lidded, ("du-en:content.graves", "du-en:ch4.cleanup"),
            support=("lids-accounted",)),
        Law("reserve-never-runs-out", reserve_left, ("du-en:prep.reserve", "du-en:ch4.cleanup"),
            support=("lids-accounted", "control-consistent")),
    ]
    if sh.holding_three:
        laws.append(Law(f"stakes-held-at-most-{bound}", held_bound(bound),
                        ("du-en:ch2.gift",), expected="finding", show=("path", "held"),
                        note="du-cs (gift_trigger=holding-three): a player may hold "
                             f"{sh.gift_at} stakes", support=("stakes-conserved",)))
    laws.append(Law(f"stakes-held-at-most-{cs_bound}", held_bound(cs_bound),
                    ("du-en:ch2.gift", "du-cs:prubeh.gift") if sh.holding_three
                    else ("du-en:ch2.gift",), support=("stakes-conserved",)))
    short = sh.holding_three and n * cs_bound >= sh.stakes
    laws.append(Law("stakes-never-run-out", never_out,
                    ("du-en:content.stakes", "du-en:ch2.stake", "du-en:ch2.gift"),
                    expected="finding" if short else "holds", show=("path", "held"),
                    support=("stakes-conserved", f"stakes-held-at-most-{cs_bound}"),
                    note=(f"du-cs: {n} players may hold {cs_bound} stakes each "
                          f"({n * cs_bound} >= {sh.stakes})") if short else ""))
    return tuple(laws)


MUST_HOLD_FOR_DEAD_END = ("vampires-conserved", "control-consistent", "rows-nonempty-until-over",
                          "lids-accounted", "graves-lidded", "reserve-never-runs-out",
                          "garlic-conserved")


def config_for(preset: str, players: int) -> Config:
    """The default-board configuration of ``preset`` for ``players``."""
    return make_config(players, preset=preset)


def system_for(preset: str, players: int) -> System:
    """The symbolic system of ``preset`` with ``players``."""
    return system(shape_of(config_for(preset, players)))


CONFIGS: tuple[tuple[str, int], ...] = (
    *[("du-en", n) for n in (3, 4, 5, 6)], *[("du-cs", n) for n in (3, 4, 5, 6)], ("2p", 2))


DU_ENDINGS = ("placing", "giving", "combination")
"""The ways a row is emptied that every ending witness shows."""


def du_witness_text(preset: str, players: int, ending: str) -> str:
    """The scenario file of a Dawn Under witness: player 0 empties the row by ``ending``."""
    config = make_config(players, preset=preset)
    names = config.colours
    a, b = names[config.vampire_colours[0]], names[config.vampire_colours[1]]
    own = {"placing": [a], "giving": [a], "combination": [a, b]}[ending]
    rows = [own] + [[a, b, a, b] for _ in range(players - 1)]
    stop = [] if config.options.after_match == "turn-ends" else ["stop"]
    actions = {"placing": ["P1: open 0", "P1: place left 0"],
               "giving": ["P2: open 1", "P1: give left"],
               "combination": ["P1: open 0", "P1: place left 0", *[f"P1: {s}" for s in stop],
                               "P2: open 1", "P1: give left"]}[ending]
    start = "P2" if ending == "giving" else "P1"
    clauses = {"placing": ["du-en:end.first-empty", "du-en:ch1.match"],
               "giving": ["du-en:end.first-empty", "du-en:aim.win", "du-en:ch3.other-garlic"],
               "combination": ["du-en:end.first-empty", "du-en:aim.win", "du-en:ch1.match",
                               "du-en:ch3.other-garlic"]}[ending]
    how = {"placing": "by placing its last vampire",
           "giving": "by handing over its last vampire",
           "combination": "by placing one vampire, then handing over the last"}[ending]

    def q(xs: Sequence[str]) -> str:
        return "[" + ", ".join(f'"{x}"' for x in xs) + "]"

    return "\n".join([
        "# Generated by properties/symbolic/endings.py (ruleproof prove): do not edit.",
        f'title = "Ending witness ({preset}, {players} players): player 0 empties the row {how}"',
        'game = "dawn-under"',
        f"players = {players}",
        f'preset = "{preset}"',
        f"clauses = {q(clauses)}",
        f"actions = {q(actions)}",
        "",
        "[setup]",
        "seed = 0",
        f'start = "{start}"',
        f'lids = {{ 0 = "{a}", 1 = "{b}" }}',
        'contents = { 1 = "garlic P1" }',
        "rows = [" + ", ".join(q(r) for r in rows) + "]",
        "",
        "[expect]",
        '"winner" = "P1"',
        '"phase" = "over"',
        '"row_length.P1" = 0',
        "",
    ])


def du_witness_path(preset: str, players: int, ending: str) -> Path:
    """The file of a Dawn Under ending witness."""
    return endings_dir(NAME) / f"dawn-under-{preset}-{players}p-{ending}.toml"


def _du_target(e: Env) -> z3.BoolRef:
    """Game over with player 0's row empty (du-en:end.first-empty)."""
    cols = [v for v in e if v.startswith("row.0.")]
    return z3.And(e["ph"] == OVER, z3.Sum([e[c] for c in cols]) == 0)


def check_du_ending(preset: str, players: int, ending: str) -> Outcome:
    """BMC in the abstraction from the witness's start, then replay the witness."""
    t0 = time.perf_counter()
    path = du_witness_path(preset, players, ending)
    name = f"ending: row emptied by {ending}"
    config = make_config(players, preset=preset)
    sym = system(shape_of(config))
    if not path.exists():
        return Outcome(name, sym.name, "witness", "failed", False, (), 0.0,
                       f"missing witness file {path} (run: ruleproof prove --write-witnesses)")
    if path.read_text() != du_witness_text(preset, players, ending):
        return Outcome(name, sym.name, "witness", "failed", False, (), 0.0,
                       f"{path} is out of date (run: ruleproof prove --write-witnesses)")
    sc = load_scenario(path)
    state = sc.start
    last = {"placing": ["place-vampire"], "giving": ["give"], "combination": ["give"]}[ending]
    must = ["place-vampire"] if ending == "combination" else []
    answer, kinds, _secs = bmc(sym, abstract(state), _du_target, 6,
                               last=last, must=must)
    problems: list[str] = []
    if answer != "sat":
        problems.append(f"bounded search found no abstract path ({answer})")
    checker = StepChecker(sym)
    concrete: list[str] = []
    for action, _actor, _line in sc.actions:
        new, events = du_step(state, action)
        kind = classify(state, action, events)
        concrete.append(kind)
        x, y = abstract(state), abstract(new)
        if not checker.check(kind, x, y):
            problems.append(f"'{action}' ({kind}) breaks its relation: {diff(x, y)}")
        state = new
    if state.phase is not Phase.OVER or state.winner != 0 or state.rows[0]:
        problems.append("the replay does not end with player 0's row empty")
    if "place-vampire" in concrete and ending == "giving":
        problems.append("a 'giving' witness must not place")
    if concrete[-1] != last[0] or any(k not in concrete for k in must):
        problems.append(f"the replay's transitions {concrete} do not show the ending {ending}")
    result = du_run_scenario(path)
    if not result.passed:
        problems.append("scenario runner: " + result.detail.splitlines()[-1])
    detail = (f"abstract path: {' -> '.join(kinds)}; replayed {path.name}: "
              f"{' -> '.join(concrete)}")
    return Outcome(name, sym.name, f"bounded search depth {len(kinds) or 6} + replay",
                   "reached" if not problems else "failed", not problems, result.clauses,
                   time.perf_counter() - t0, "; ".join(problems) or detail)


def stake_shortage_text(players: int) -> str:
    """Finding witness (du-cs, 5-6 players): the path runs out of stakes. Four players hold
    three stakes each (allowed under gift_trigger=holding-three); the fifth takes the last
    stake, then a player holding three opens a vampire and no stake is left."""
    config = make_config(players, preset="du-cs")
    a, b = config.colours[0], config.colours[1]
    held = [3, 3, 3, 3] + [0] * (players - 4)
    rows = [[a, b, a, b] for _ in range(players)]
    last = players - 1
    return "\n".join([
        "# Generated by properties/symbolic/endings.py (ruleproof prove): do not edit.",
        f'title = "Finding (du-cs, {players} players): the stakes run out"',
        'game = "dawn-under"',
        f"players = {players}",
        'preset = "du-cs"',
        'clauses = ["du-en:content.stakes", "du-en:ch2.stake", "du-cs:prubeh.gift"]',
        f'actions = ["P{last + 1}: open 0", "P1: open 1"]',
        "",
        "[setup]",
        "seed = 0",
        f'start = "P{last + 1}"',
        f'lids = {{ 0 = "{a}", 1 = "{b}" }}',
        f'contents = {{ 0 = "vampire {a}", 1 = "vampire {b}" }}',
        f"stakes = {held}",
        "rows = [" + ", ".join("[" + ", ".join(f'"{c}"' for c in r) + "]" for r in rows) + "]",
        "",
        "[expect]",
        '"stakes_path" = 0',
        '"stakes.P1" = 3',
        f'"stakes.P{last + 1}" = 1',
        "",
    ])


def stake_shortage_path(players: int) -> Path:
    """The file of the du-cs stake-shortage finding witness."""
    return endings_dir(NAME) / f"dawn-under-du-cs-{players}p-finding-stakes-run-out.toml"


def check_stake_shortage(players: int) -> Outcome:
    """BMC (path reaches 0) from the witness's start, then its replay: the du-cs finding is
    a real game position, not only a counterexample to induction."""
    t0 = time.perf_counter()
    path = stake_shortage_path(players)
    config = make_config(players, preset="du-cs")
    sym = system(shape_of(config))
    name = "finding witness: the stakes run out"
    if not path.exists() or path.read_text() != stake_shortage_text(players):
        return Outcome(name, sym.name, "witness", "failed", False, (), 0.0,
                       f"{path} is missing or out of date (run: ruleproof prove "
                       "--write-witnesses)")
    sc = load_scenario(path)
    state = sc.start
    answer, kinds, _secs = bmc(sym, abstract(state), lambda e: e["path"] == 0, 3,
                               last=["stake"])
    problems = [] if answer == "sat" else [f"bounded search found no path ({answer})"]
    for action, _actor, _line in sc.actions:
        state = du_step(state, action)[0]
    if state.stakes_path != 0:
        problems.append("the replay does not empty the path")
    result = du_run_scenario(path)
    if not result.passed:
        problems.append("scenario runner: " + result.detail.splitlines()[-1])
    return Outcome(name, sym.name, f"bounded search depth {len(kinds)} + replay",
                   "expected counterexample" if not problems else "failed", not problems,
                   result.clauses, time.perf_counter() - t0,
                   "; ".join(problems) or f"abstract path: {' -> '.join(kinds)}; replayed "
                   f"{path.name}: the path is empty and a player holding 3 found a vampire "
                   "(option empty_path decides)")


# --------------------------------------------------------------------------- drift and the capability


def du_drift(preset: str, players: int, games: int, steps: int, seed: int = 0) -> Outcome:
    """Sampled: every transition of random games satisfies its kind's z3 relation."""
    t0 = time.perf_counter()
    config = config_for(preset, players)
    sym = system(shape_of(config))
    checker = StepChecker(sym)
    count = 0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = du_new_game(config, seed * 1000 + g)
        for _ in range(steps):
            actions = du_legal(state)
            if not actions:
                break
            action = rng.choice(actions)
            new, events = du_step(state, action)
            kind = classify(state, action, events)
            x, y = abstract(state), abstract(new)
            count += 1
            if not checker.check(kind, x, y):
                cited = sym.kind(kind).clauses if kind in {
                    k.name for k in sym.kinds} else ()
                return Outcome("no drift (model vs relations)", sym.name,
                               f"sampled {count}", "counterexample", False,
                               cited, time.perf_counter() - t0,
                               f"game seed {seed * 1000 + g}, step {count}: '{action}' "
                               f"classified {kind} breaks its relation: {diff(x, y)}")
            state = new
    return Outcome("no drift (model vs relations)", sym.name, f"sampled {count}", "passed",
                   True, (), time.perf_counter() - t0, f"{games} games")


def du_outcomes(preset: str, players: int, profile: Profile) -> list[Outcome]:
    """Every symbolic property of Dawn Under under ``preset`` with ``players``."""
    sym = system_for(preset, players)
    out = [prove_law(sym, law, max_k(profile)) for law in sym.laws]
    out.append(no_dead_end(sym, MUST_HOLD_FOR_DEAD_END))
    out += [check_du_ending(preset, players, e) for e in DU_ENDINGS]
    if preset == "du-cs" and players >= 5:
        out.append(check_stake_shortage(players))
    games, steps = DRIFT.get(profile.name, DRIFT["ci"])
    out.append(du_drift(preset, players, games, steps))
    return out


def applies(rule_set: RuleSet, board: Path | None) -> tuple[list[tuple[str, int, str]], str]:
    """The configurations of :data:`CONFIGS` a rule set of ``ruleproof check`` covers, each with
    the suffix of its check's name, or the reason the layer does not apply: its counts
    abstraction models the base game only, and is built for the shipped presets and board."""
    if rule_set.expansion is not None:
        return [], ("its counts abstraction models the base game only, not the expansion's "
                    "bats and Count")
    if rule_set.options or board is not None:
        return [], ("its abstraction is built for the shipped presets and board; run "
                    "`ruleproof prove`")
    return [(p, n, f", {n} players") for p, n in CONFIGS
            if p == rule_set.preset and n in rule_set.players], ""


def write_witnesses() -> list[Path]:
    """(Re)write every ending witness file of Dawn Under (and the du-cs stake-shortage
    finding's)."""
    endings_dir(NAME).mkdir(parents=True, exist_ok=True)
    out = []
    for preset, n in CONFIGS:
        for ending in DU_ENDINGS:
            p = du_witness_path(preset, n, ending)
            write_file(p, du_witness_text(preset, n, ending))
            out.append(p)
    for n in (5, 6):
        p = stake_shortage_path(n)
        write_file(p, stake_shortage_text(n))
        out.append(p)
    return out


@dataclass(frozen=True)
class _Symbolic:
    """Dawn Under's capability ``"symbolic"`` (see
    :class:`ruleproof.properties.symbolic.prove.SymbolicGame`)."""

    configs: tuple[tuple[str, int], ...] = CONFIGS
    selection: str = "du-en/du-cs 3-6, 2p 2"

    def outcomes(self, preset: str, players: int, profile: Profile) -> list[Outcome]:
        return du_outcomes(preset, players, profile)

    def applies(self, rule_set: RuleSet, board: Path | None
                ) -> tuple[list[tuple[str, int, str]], str]:
        return applies(rule_set, board)

    def write_witnesses(self) -> list[Path]:
        return write_witnesses()


SYMBOLIC = _Symbolic()
"""The capability ``"symbolic"`` of Dawn Under's plugin record."""
