"""A small symbolic transition-system kernel on top of z3 (issue 6).

A :class:`System` is an abstraction of a game into integer variables (booleans are 0/1
integers) with

* an initial condition (named parts, each citing clause ids),
* one transition relation per *kind* of transition, given as a functional update: an
  :data:`Effect` maps the expressions of the current step (plus fresh parameter variables, the
  nondeterministic choices such as "which player", "which colour") to guards and the
  expressions of the next step; untouched variables stay as they are (frame),
* laws (state predicates) to prove by (k-)induction, ending predicates to reach by bounded
  model checking.

Variables are named by step, ``x@t``, so relations unroll: ``relation(kind, t)`` relates the
variables ``@t`` to ``@t+1``. Every result keeps the clause ids: solvers track each assertion
with ``assert_and_track`` under a name that maps to the clause ids it encodes, so a proof reports
the clauses its unsat core used. ``unknown`` (timeout) is never a pass.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import z3

Env = dict[str, z3.ArithRef]
"""Variable name -> expression (at one step)."""

Effect = Callable[[Env, Mapping[str, z3.ArithRef]], tuple[list[z3.BoolRef], Env]]
"""(current expressions, parameters) -> (guards, next expressions). Variables not in the
returned map keep their value (the frame)."""

TIMEOUT_MS = 20_000


@dataclass(frozen=True)
class Kind:
    """One kind of transition.

    Attributes:
        name: e.g. ``place-vampire``.
        clauses: clause ids the relation encodes.
        params: nondeterministic choices ``(name, low, high)`` (inclusive bounds).
        effect: the functional update.
    """

    name: str
    clauses: tuple[str, ...]
    params: tuple[tuple[str, int, int], ...]
    effect: Effect
    idle: tuple[tuple[str, int], ...] = ()
    """Parameter values that are always a choice (used to decide enabledness finitely)."""


@dataclass(frozen=True)
class Law:
    """A state predicate to prove invariant.

    Attributes:
        name: property name.
        pred: the predicate over one step's expressions.
        clauses: clause ids it states.
        expected: ``holds`` (a law that must hold) or ``finding`` (a known counterexample:
            reported, not failed).
        support: names of laws (proved first) assumed in the induction step (strengthening).
        note: a line for the report (e.g. why it is a finding).
    """

    name: str
    pred: Callable[[Env], z3.BoolRef]
    clauses: tuple[str, ...]
    expected: str = "holds"
    support: tuple[str, ...] = ()
    note: str = ""
    show: tuple[str, ...] = ()
    """Variable name prefixes shown in a counterexample (default: all that are not 0)."""


@dataclass(frozen=True)
class System:
    """A symbolic transition system.

    Attributes:
        name: the game, preset and player count it models.
        variables: variable names (all integers).
        init: named initial constraints ``(name, clauses, predicate)``.
        kinds: transition kinds.
        laws: laws to prove.
        terminal: the predicate "the game is over".
    """

    name: str
    variables: tuple[str, ...]
    init: tuple[tuple[str, tuple[str, ...], Callable[[Env], z3.BoolRef]], ...]
    kinds: tuple[Kind, ...]
    laws: tuple[Law, ...]
    terminal: Callable[[Env], z3.BoolRef]

    def env(self, t: int | str) -> Env:
        """The variables of step ``t`` (``x@t``)."""
        return {v: z3.Int(f"{v}@{t}") for v in self.variables}

    def kind(self, name: str) -> Kind:
        """The kind called ``name``."""
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def law(self, name: str) -> Law:
        """The law called ``name``."""
        for law in self.laws:
            if law.name == name:
                return law
        raise KeyError(name)


def params_of(kind: Kind, t: int | str) -> dict[str, z3.ArithRef]:
    """The parameter variables of ``kind`` at step ``t`` (``kind.param@t``)."""
    return {p: z3.Int(f"{kind.name}.{p}@{t}") for p, _lo, _hi in kind.params}


_GUARDS: dict[tuple[int, str, str], tuple[z3.BoolRef, Env]] = {}


def guard_and_next(kind: Kind, x: Env, t: int | str) -> tuple[z3.BoolRef, Env]:
    """The guard (with parameter bounds) and next-step expressions of ``kind`` from ``x``
    (cached per kind and step names: building z3 terms is the slow part)."""
    key = (id(kind), str(next(iter(x.values()))), str(t))
    found = _GUARDS.get(key)
    if found is None:
        ps = params_of(kind, t)
        bounds = [z3.And(ps[p] >= lo, ps[p] <= hi) for p, lo, hi in kind.params]
        guards, nxt = kind.effect(dict(x), ps)
        found = _GUARDS[key] = (z3.And(*bounds, *guards), nxt)
        _KEEP.append(kind)
    return found


_RELATIONS: dict[tuple[int, str, str, str], z3.BoolRef] = {}


def relation(kind: Kind, x: Env, y: Env, t: int | str) -> z3.BoolRef:
    """``kind``'s relation between ``x`` (step t) and ``y`` (step t+1), frame included.
    Cached per kind object and step names (building z3 terms is the slow part)."""
    first = next(iter(x.values()))
    key = (id(kind), str(first), str(next(iter(y.values()))), str(t))
    found = _RELATIONS.get(key)
    if found is None:
        guard, frame, updates = _step_terms(kind, x, y, t)
        found = _RELATIONS[key] = z3.And(guard, frame, *[u for _v, u in updates])
        _KEEP.append(kind)
    return found


_KEEP: list[Kind] = []
"""Kinds whose relations are cached (kept alive so their ids stay unique)."""


def enabled(kind: Kind, x: Env, t: int | str) -> z3.BoolRef:
    """``kind`` can fire from ``x`` for some parameter values: a finite disjunction over the
    parameter domains (the optional plague end ``end``/``v`` fixed to "no end", which is always
    a choice)."""
    idle = {**IDLE, **dict(kind.idle)}
    free = [(p, lo, hi) for p, lo, hi in kind.params if p not in idle]
    # The guard over symbolic parameters is built once (and shared with the proofs); each
    # parameter choice substitutes values into it, which z3 does far faster than rebuilding
    # the terms.
    if any(p in idle and not lo <= idle[p] <= hi for p, lo, hi in kind.params):
        return _enabled_rebuilt(kind, x, idle, free)
    guard, _nxt = guard_and_next(kind, x, t)
    ps = params_of(kind, t)
    fixed = [(ps[p], z3.IntVal(idle[p])) for p, _lo, _hi in kind.params if p in idle]
    options: list[z3.BoolRef] = []
    for values in itertools.product(*[range(lo, hi + 1) for _p, lo, hi in free]):
        chosen = [(ps[p], z3.IntVal(v)) for (p, _lo, _hi), v in zip(free, values, strict=True)]
        options.append(z3.simplify(z3.substitute(guard, *fixed, *chosen)))
    return z3.Or(*options)


def _enabled_rebuilt(kind: Kind, x: Env, idle: Mapping[str, int],
                     free: Sequence[tuple[str, int, int]]) -> z3.BoolRef:
    """:func:`enabled` for a kind whose idle parameter values lie outside the parameter
    bounds: the guards are built for every choice."""
    options: list[z3.BoolRef] = []
    for values in itertools.product(*[range(lo, hi + 1) for _p, lo, hi in free]):
        ps: dict[str, z3.ArithRef] = {p: z3.IntVal(idle[p]) for p, _lo, _hi in kind.params
                                      if p in idle}
        ps.update({p: z3.IntVal(v) for (p, _lo, _hi), v in zip(free, values, strict=True)})
        guards, _ = kind.effect(dict(x), ps)
        options.append(z3.simplify(z3.And(*guards)))
    return z3.Or(*options)


IDLE = {"end": 0, "v": 0}
"""Parameters with a value that is always a legal choice (no plague end here)."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Outcome:
    """The result of one symbolic property.

    Attributes:
        prop: property name.
        system: system name.
        method: ``induction``, ``k-induction k=K``, ``bounded search depth D``, ``sampled N``...
        result: ``proved``, ``reached``, ``counterexample``, ``expected counterexample``,
            ``unknown``, ``passed``, ``failed``.
        passed: whether this counts as a pass (findings that behave as documented pass).
        clauses: clause ids used (unsat core) or encoded.
        seconds: wall time.
        detail: counterexample / witness / note.
    """

    prop: str
    system: str
    method: str
    result: str
    passed: bool
    clauses: tuple[str, ...] = ()
    seconds: float = 0.0
    detail: str = ""


@dataclass
class _Tracker:
    """Names tracked assertions; maps a core back to clause ids and kind names."""

    solver: z3.Solver
    clauses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    n: int = 0

    def add(self, expr: z3.BoolRef, label: str, clauses: Sequence[str]) -> None:
        self.n += 1
        name = f"{label}#{self.n}"
        self.clauses[name] = tuple(clauses)
        self.solver.assert_and_track(expr, z3.Bool(name))

    def core_clauses(self) -> tuple[str, ...]:
        used: set[str] = set()
        for b in self.solver.unsat_core():
            used.update(self.clauses.get(str(b), ()))
        return tuple(sorted(used))


def _solver() -> z3.Solver:
    s = z3.Solver()
    s.set("timeout", TIMEOUT_MS)
    return s


def _add_step(tr: _Tracker, system: System, x: Env, y: Env, t: int,
              only: Sequence[str] | None = None) -> dict[str, z3.BoolRef]:
    """Assert "one of the kinds fires between x and y"; returns the kind selectors."""
    sel = {k.name: z3.Bool(f"take.{k.name}@{t}") for k in system.kinds
           if only is None or k.name in only}
    tr.solver.add(z3.PbEq([(b, 1) for b in sel.values()], 1))
    for k in system.kinds:
        if k.name in sel:
            tr.add(z3.Implies(sel[k.name], relation(k, x, y, t)), f"{k.name}@{t}", k.clauses)
    return sel


def _taken(model: z3.ModelRef, sel: Mapping[str, z3.BoolRef]) -> str:
    for name, b in sel.items():
        if z3.is_true(model.eval(b, model_completion=True)):
            return name
    return "?"


def _values(model: z3.ModelRef, env: Env, keep: Callable[[str, int], bool] | None = None) -> str:
    out = []
    for v, e in env.items():
        val = model.eval(e, model_completion=True)
        iv = int(str(val)) if z3.is_int_value(val) else 0
        if keep is None or keep(v, iv):
            out.append(f"{v}={iv}")
    return ", ".join(out)


def _nonzero(_v: str, iv: int) -> bool:
    return iv != 0


def _shown(law: Law) -> Callable[[str, int], bool]:
    if not law.show:
        return _nonzero
    return lambda v, _iv: v.split(".")[0] in law.show


def prove_law(system: System, law: Law, max_k: int = 3) -> Outcome:
    """Prove ``law`` for every initial state and every transition, by induction (relative to
    its ``support`` laws), falling back to k-induction up to ``max_k``.

    Base: ``init ∧ path of j < k steps ∧ ¬law`` unsat. Step: ``law`` (and support) at steps
    0..k-1 along k transitions and ``¬law`` at step k unsat.
    """
    t0 = time.perf_counter()
    support = [system.law(n) for n in law.support]
    used: set[str] = set(law.clauses)
    for k in range(1, max_k + 1):
        # base case: the law holds in the first k states
        base = _Tracker(_solver())
        xs = [system.env(t) for t in range(k)]
        for name, cl, pred in system.init:
            base.add(pred(xs[0]), f"init.{name}", cl)
        sels: list[dict[str, z3.BoolRef]] = []
        for t in range(k - 1):
            sels.append(_add_step(base, system, xs[t], xs[t + 1], t))
        base.solver.add(z3.Or(*[z3.Not(law.pred(x)) for x in xs]))
        answer = base.solver.check()
        if answer == z3.sat:
            m = base.solver.model()
            bad = next(t for t, x in enumerate(xs)
                       if z3.is_false(m.eval(law.pred(x), model_completion=True)))
            path = " -> ".join(_taken(m, sels[t]) for t in range(bad))
            detail = (f"violated in an initial state{' after ' + path if path else ''}: "
                      f"{_values(m, xs[bad])}")
            return _fail(system, law, f"base case k={k}", detail, t0)
        if answer != z3.unsat:
            return Outcome(law.name, system.name, f"k-induction k={k}", "unknown", False,
                           law.clauses, time.perf_counter() - t0, f"base case: {answer}")
        used.update(base.core_clauses())
        # inductive step
        if k == 1:
            one = _step_per_kind(system, law, support)
            if one is None:
                return Outcome(law.name, system.name, "induction", "unknown", False,
                               law.clauses, time.perf_counter() - t0, "step: unknown")
            if one[0]:
                used.update(one[1])
                method = "induction" + (" (support: " + ", ".join(law.support) + ")"
                                        if support else "")
                passed = law.expected == "holds"
                detail = law.note if passed else (
                    "proved although documented as a finding: update the documentation")
                return Outcome(law.name, system.name, method, "proved", passed,
                               tuple(sorted(used)), time.perf_counter() - t0, detail)
            if max_k == 1:
                return _fail(system, law, "induction", one[2], t0)
            continue
        step = _Tracker(_solver())
        xs = [system.env(t) for t in range(k + 1)]
        sels = []
        for t in range(k):
            step.add(law.pred(xs[t]), f"law.{law.name}@{t}", law.clauses)
            for sup in support:
                step.add(sup.pred(xs[t]), f"law.{sup.name}@{t}", sup.clauses)
            sels.append(_add_step(step, system, xs[t], xs[t + 1], t))
        step.solver.add(z3.Not(law.pred(xs[k])))
        answer = step.solver.check()
        if answer == z3.unsat:
            used.update(step.core_clauses())
            method = "induction" if k == 1 else f"k-induction k={k}"
            if support:
                method += " (support: " + ", ".join(law.support) + ")"
            result = "proved"
            passed = law.expected == "holds"
            detail = law.note if passed else (
                "proved although documented as a finding: update the documentation")
            return Outcome(law.name, system.name, method, result, passed,
                           tuple(sorted(used)), time.perf_counter() - t0, detail)
        if answer != z3.sat:
            return Outcome(law.name, system.name, f"k-induction k={k}", "unknown", False,
                           law.clauses, time.perf_counter() - t0, f"step: {answer}")
        m = step.solver.model()
        last = _taken(m, sels[k - 1])
        cex = (f"step {k - 1} -> {k} by transition '{last}'"
               + (" after " + " -> ".join(_taken(m, sels[t]) for t in range(k - 1))
                  if k > 1 else "")
               + f"; before: {_values(m, xs[k - 1], _shown(law))}; after: "
               f"{_values(m, xs[k], _shown(law))}")
        if k == max_k:
            return _fail(system, law, f"k-induction up to k={max_k}", cex, t0)
    raise AssertionError("unreachable")


def _step_per_kind(system: System, law: Law, support: Sequence[Law]
                   ) -> tuple[bool, tuple[str, ...], str] | None:
    """The 1-induction step, one (small) query per kind: (proved, core clauses, counterexample)
    or None if a query is unknown."""
    used: set[str] = set()
    x, y = system.env(0), system.env(1)
    mentioned = _constants(law.pred(y))
    for kind in system.kinds:
        guard, frame, updates = _step_terms(kind, x, y, 0)
        if not mentioned & {str(y[v]) for v, _u in updates}:
            continue  # the kind leaves every variable of the law as it is: the law carries over
        tr = _Tracker(_solver())
        tr.add(law.pred(x), f"law.{law.name}", law.clauses)
        for sup in support:
            tr.add(sup.pred(x), f"law.{sup.name}", sup.clauses)
        tr.add(guard, f"{kind.name}.guard", kind.clauses)
        tr.add(frame, "frame", ())
        for v, update in updates:
            tr.add(update, f"{kind.name}.{v}", kind.clauses)
        tr.solver.add(z3.Not(law.pred(y)))
        answer = tr.solver.check()
        if answer == z3.sat:
            m = tr.solver.model()
            keep = _shown(law)
            return False, (), (f"step 0 -> 1 by transition '{kind.name}'; before: "
                               f"{_values(m, x, keep)}; after: {_values(m, y, keep)}")
        if answer != z3.unsat:
            return None
        used.update(tr.core_clauses())
    return True, tuple(sorted(used)), ""


_STEP_TERMS: dict[tuple[int, str, str, str],
                  tuple[z3.BoolRef, z3.BoolRef, tuple[tuple[str, z3.BoolRef], ...]]] = {}


def _step_terms(kind: Kind, x: Env, y: Env, t: int | str
                ) -> tuple[z3.BoolRef, z3.BoolRef, tuple[tuple[str, z3.BoolRef], ...]]:
    """``kind``'s guard, its frame (the unchanged variables, one conjunction: they cite no
    clause) and its updates ``y[v] == ...`` one by one, from ``x`` (step ``t``) to ``y``.
    Cached per kind and step names: every law's induction step, the relations and the drift
    check ask for the same terms, and building z3 terms is the slow part."""
    key = (id(kind), str(next(iter(x.values()))), str(next(iter(y.values()))), str(t))
    found = _STEP_TERMS.get(key)
    if found is None:
        guard, nxt = guard_and_next(kind, x, t)
        frame = [y[v] == x[v] for v in x if nxt.get(v, x[v]) is x[v]]
        updates = tuple((v, y[v] == nxt[v]) for v in x if nxt.get(v, x[v]) is not x[v])
        found = _STEP_TERMS[key] = (guard, z3.And(*frame), updates)
        _KEEP.append(kind)
    return found


def _constants(expr: z3.ExprRef) -> set[str]:
    """The names of the variables (uninterpreted constants) ``expr`` mentions."""
    seen: set[int] = set()
    out: set[str] = set()
    todo = [expr]
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(e.decl().name())
        else:
            todo.extend(e.children())
    return out


def _fail(system: System, law: Law, method: str, detail: str, t0: float) -> Outcome:
    finding = law.expected == "finding"
    return Outcome(law.name, system.name, method,
                   "expected counterexample" if finding else "counterexample", finding,
                   law.clauses, time.perf_counter() - t0,
                   (law.note + ": " if law.note else "") + detail)


def no_dead_end(system: System, assume: Sequence[str]) -> Outcome:
    """Every non-terminal abstract state satisfying the laws ``assume`` has an enabled
    transition: ``laws ∧ ¬terminal ∧ ∀ kinds ¬enabled`` is unsat."""
    t0 = time.perf_counter()
    tr = _Tracker(_solver())
    x = system.env(0)
    for name in assume:
        law = system.law(name)
        tr.add(law.pred(x), f"law.{name}", law.clauses)
    tr.solver.add(z3.Not(system.terminal(x)))
    for k in system.kinds:
        tr.add(z3.Not(enabled(k, x, 0)), f"disabled.{k.name}", k.clauses)
    answer = tr.solver.check()
    if answer == z3.unsat:
        return Outcome("no-dead-end", system.name, "z3 (one state, all kinds)", "proved", True,
                       tr.core_clauses(), time.perf_counter() - t0,
                       "assuming " + ", ".join(assume))
    detail = str(answer)
    if answer == z3.sat:
        detail = "stuck abstract state: " + _values(tr.solver.model(), x, _nonzero)
    return Outcome("no-dead-end", system.name, "z3 (one state, all kinds)",
                   "counterexample" if answer == z3.sat else "unknown", False, (),
                   time.perf_counter() - t0, detail)


def bmc(system: System, start: Mapping[str, int], target: Callable[[Env], z3.BoolRef],
        depth: int, only: Sequence[str] | None = None,
        last: Sequence[str] | None = None,
        must: Sequence[str] = ()) -> tuple[str, list[str], float]:
    """Bounded model checking from the concrete abstract state ``start``: the shortest path of
    at most ``depth`` transitions (restricted to kinds ``only``; the last one among ``last``;
    each kind of ``must`` taken somewhere) reaching ``target``.

    Returns (z3 answer, kinds along the path, seconds)."""
    t0 = time.perf_counter()
    for d in range(1, depth + 1):
        tr = _Tracker(_solver())
        xs = [system.env(t) for t in range(d + 1)]
        tr.solver.add(*[xs[0][v] == start[v] for v in system.variables])
        sels = []
        for t in range(d):
            sels.append(_add_step(tr, system, xs[t], xs[t + 1], t,
                                  last if (t == d - 1 and last is not None) else only))
            if t < d - 1:
                tr.solver.add(z3.Not(system.terminal(xs[t + 1])))
        tr.solver.add(target(xs[d]))
        for kind in must:
            tr.solver.add(z3.Or(*[sel[kind] for sel in sels if kind in sel]))
        answer = tr.solver.check()
        if answer == z3.sat:
            m = tr.solver.model()
            return "sat", [_taken(m, s) for s in sels], time.perf_counter() - t0
        if answer != z3.unsat:
            return str(answer), [], time.perf_counter() - t0
    return "unsat", [], time.perf_counter() - t0


@dataclass
class StepChecker:
    """Checks concrete (abstracted) transitions against the relation of their kind (drift).

    One solver per kind holds the relation over symbolic x, y; each check pushes the concrete
    values and asks for parameters that explain the step.
    """

    system: System
    _solvers: dict[str, z3.Solver] = field(default_factory=dict)
    _x: Env = field(default_factory=dict)
    _y: Env = field(default_factory=dict)
    _cache: dict[tuple[str, tuple[int, ...], tuple[int, ...]], bool] = field(
        default_factory=dict)
    _eqs: dict[tuple[bool, str, int], z3.BoolRef] = field(default_factory=dict)

    def _is(self, after: bool, v: str, value: int) -> z3.BoolRef:
        """``x[v] == value`` (``y`` if ``after``), built once: consecutive states share most
        values, and building z3 terms is the slow part of the check."""
        key = (after, v, value)
        found = self._eqs.get(key)
        if found is None:
            found = self._eqs[key] = (self._y if after else self._x)[v] == value
        return found

    def check(self, kind: str, before: Mapping[str, int], after: Mapping[str, int]) -> bool:
        """Whether ``before -> after`` satisfies ``kind``'s relation for some parameters."""
        names = self.system.variables
        if kind not in {k.name for k in self.system.kinds}:
            return False  # a transition the abstraction has no relation for
        key = (kind, tuple(before[v] for v in names), tuple(after[v] for v in names))
        if key in self._cache:
            return self._cache[key]
        if kind not in self._solvers:
            if not self._x:
                # the names of steps 0 and 1, so the relations built for the proofs are reused
                self._x, self._y = self.system.env(0), self.system.env(1)
            s = _solver()
            s.add(relation(self.system.kind(kind), self._x, self._y, 0))
            self._solvers[kind] = s
        s = self._solvers[kind]
        # the concrete values as assumptions of this one check (no push/pop, no re-asserting)
        ok = bool(s.check(*[self._is(False, v, before[v]) for v in names],
                          *[self._is(True, v, after[v]) for v in names]) == z3.sat)
        self._cache[key] = ok
        return ok


def diff(before: Mapping[str, int], after: Mapping[str, int]) -> str:
    """The variables that changed, ``v: a -> b``."""
    return ", ".join(f"{v}: {before[v]} -> {after[v]}" for v in before if before[v] != after[v])
