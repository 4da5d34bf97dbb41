"""z3 proofs for Dracula.

* :func:`prove_barrier_rule`: the model's barrier predicate agrees, on every placement of up to
  four barriers on the 3 x 4 board, with an independent declarative z3 encoding of
  dracula-en:pay.barrier-restrictions (no cut of the board is fully blocked) and
  dracula-en:barriers.side-by-side, dracula-en:barriers.between.
* :func:`prove_card_value_properties`: properties proved for *every admissible assignment* of
  the card values the sources leave open (enemy strength 1-3, action strength 1-4 or none,
  move numbers 1-9, Deception's move number at least 4), running the model's own rule
  functions on symbolic values (dracula-en:enemy.fight, dracula-en:cards.strength,
  dracula-en:pay.overpay, dracula-en:special.deception, dracula-en:example.choice,
  dracula-en:early-end.give-target).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import z3

from ruleproof.model.dracula import rules as R
from ruleproof.model.dracula.data import Board, default_board

Predicate = Callable[[Board, list[tuple[int, int]], str], bool]


def _model_predicate(board: Board, edges: list[tuple[int, int]], reading: str) -> bool:
    return R.barriers_legal(board, edges, reading)


def placements(board: Board, most: int = 4) -> list[tuple[tuple[int, int], ...]]:
    """Every set of at most ``most`` distinct borders (colours do not matter to legality)."""
    out: list[tuple[tuple[int, int], ...]] = []
    for k in range(most + 1):
        out.extend(combinations(board.edges, k))
    return out


def _encode_rule(board: Board, b: dict[tuple[int, int], Any], reading: str) -> Any:
    """Declarative encoding, written independently of the model's search-based predicate."""
    cols = board.columns

    def cell(loc: int) -> tuple[int, int]:
        return divmod(loc, cols)

    def runs_left_right(e: tuple[int, int]) -> bool:
        # the border between two cells of one column is a horizontal segment
        return cell(e[0])[1] == cell(e[1])[1]

    side_by_side = []
    for e, f in combinations(board.edges, 2):
        if not set(e) & set(f):
            continue
        if reading == "corner" and runs_left_right(e) == runs_left_right(f):
            continue
        side_by_side.append(z3.Not(z3.And(b[e], b[f])))
    cuts = []
    locs = range(board.size)
    for mask in range(1, 2 ** (board.size - 1)):
        # subsets S containing location 0 and not everything: mask over locations 1..n-1
        inside = {0} | {i for i in locs if i > 0 and mask >> (i - 1) & 1}
        if len(inside) == board.size:
            continue
        crossing = [e for e in board.edges if (e[0] in inside) != (e[1] in inside)]
        cuts.append(z3.Or(*[z3.Not(b[e]) for e in crossing]))
    return z3.And(*side_by_side, *cuts)


def prove_barrier_rule(reading: str = "shared-location", predicate: Predicate | None = None,
                       board: Board | None = None) -> tuple[bool, int, str]:
    """Prove model predicate == z3 rule on all placements of <= 4 barriers.

    Returns (passed, placements checked, detail); on failure the detail names one placement
    and both verdicts.
    """
    board = board or default_board()
    pred = predicate or _model_predicate
    b = {e: z3.Bool(f"b_{board.edge_name(e)}") for e in board.edges}
    every = placements(board)
    legal_sets = [p for p in every if pred(board, list(p), reading)]
    model_says = z3.Or(*[z3.And(*[b[e] if e in p else z3.Not(b[e]) for e in board.edges])
                         for p in legal_sets])
    rule = _encode_rule(board, b, reading)
    solver = z3.Solver()
    solver.add(z3.AtMost(*b.values(), 4))
    solver.add(model_says != rule)
    verdict = solver.check()
    if verdict == z3.unsat:
        return True, len(every), (f"proved ({reading}): on all {len(every)} placements of up to 4 "
                                  f"barriers the model allows exactly the {len(legal_sets)} the "
                                  "z3 encoding allows")
    if verdict != z3.sat:
        return False, len(every), f"z3 returned {verdict}"
    m = solver.model()
    chosen = [e for e in board.edges if z3.is_true(m.eval(b[e], model_completion=True))]
    names = ", ".join(board.edge_name(e) for e in chosen) or "(none)"
    mv = pred(board, chosen, reading)
    return False, len(every), (f"counterexample ({reading}): barriers on {names}: model says "
                               f"{'legal' if mv else 'illegal'}, rule says "
                               f"{'illegal' if mv else 'legal'}")


def _ite(c: Any, a: Any, b: Any) -> Any:
    return z3.If(c, a, b)


Battle = Callable[[Any, Any], tuple[Any, Any]]


def prove_card_value_properties(battle: Battle | None = None) -> tuple[bool, int, str]:
    """Prove value-independent properties for all admissible card values (see module doc).

    ``battle`` defaults to the model's :func:`ruleproof.model.dracula.rules.battle` (a parameter so that
    tests can show a broken rule is caught). Returns (passed, properties, detail).
    """
    fight = battle or R.battle
    mine, mine2, enemy = z3.Ints("my_strength my_strength2 enemy_strength")
    bonus, steps, move, life, dmove = z3.Ints("breath_bonus steps move life deception_move")
    domain = [z3.And(mine >= 0, mine <= 4), z3.And(mine2 >= 0, mine2 <= 4),
              z3.And(enemy >= 1, enemy <= 3), z3.And(bonus >= 0, bonus <= 1),
              z3.And(steps >= 0, steps <= 60), z3.And(move >= 1, move <= 9),
              z3.And(life >= 1, life <= 4), z3.And(dmove >= 4, dmove <= 9)]
    won, lost = fight(mine, enemy + bonus)
    won2, lost2 = fight(mine2, enemy + bonus)
    pay = R.overpay(steps, move, _ite)
    dloss = R.deception_loss(enemy, bonus, _ite)
    # the worked example: vampire of strength 2, four steps (dracula-en:example.choice)
    res_w, res_l = fight(2, 2)
    str_w, _ = fight(4, 2)
    _, dec_l = fight(1, 2)
    claims: list[tuple[str, Any]] = [
        ("a battle is never both won and lost", z3.Not(z3.And(won, lost))),
        ("a battle is a draw exactly when the strengths are equal",
         (z3.And(z3.Not(won), z3.Not(lost))) == (mine == enemy + bonus)),
        ("a strength-4 card never loses, even against Breath of Night",
         z3.Implies(mine == 4, z3.Not(lost))),
        ("the card without battle strength never wins", z3.Implies(mine == 0, z3.Not(won))),
        ("more strength never makes a battle worse",
         z3.Implies(mine <= mine2, z3.And(z3.Implies(won, won2), z3.Implies(lost2, lost)))),
        ("overpayment is zero exactly when the steps fit the move number",
         z3.And(pay >= 0, (pay == 0) == (steps <= move))),
        ("each step beyond the move number costs exactly one marker",
         z3.Implies(steps > move, pay == steps - move)),
        ("Deception: a vampire costs a marker iff its (Breath-raised) strength is 2 or more",
         dloss == z3.If(enemy + bonus >= 2, 1, 0)),
        ("a gift never raises life above 4 and never lowers it",
         z3.And(R.life_after_gift(life, 4, _ite) <= 4, R.life_after_gift(life, 4, _ite) >= life)),
        ("worked example: Resistance (5/2) draws without cost, Strength (3/4) wins for one "
         "marker, Deception (>=4/1) pays but loses, for every Deception move number >= 4",
         z3.And(z3.Not(z3.Or(res_w, res_l)), R.overpay(4, 5, _ite) == 0,
                str_w, R.overpay(4, 3, _ite) == 1, dec_l, R.overpay(4, dmove, _ite) == 0)),
    ]
    lines = []
    for name, claim in claims:
        solver = z3.Solver()
        solver.add(*domain)
        solver.add(z3.Not(claim))
        verdict = solver.check()
        if verdict == z3.unsat:
            lines.append(f"proved: {name}")
            continue
        if verdict == z3.sat:
            m = solver.model()
            values = ", ".join(f"{v}={m.eval(v, model_completion=True)}"
                               for v in (mine, mine2, enemy, bonus, steps, move, life, dmove))
            return False, len(claims), f"refuted: {name}\ncounterexample: {values}"
        return False, len(claims), f"z3 returned {verdict} for: {name}"
    return True, len(claims), "\n".join(lines)
