"""z3 theorems about Dawn Under: proved for every case, not sampled.

Each function returns ``(proved, detail)``: ``detail`` says what was proved, or gives the
counterexample model z3 found. A solver answer of ``unknown`` counts as not proved.
"""

from __future__ import annotations

import z3

from ruleproof.model.dawn_under.board import MAX_NEIGHBOURS, Board
from ruleproof.model.dawn_under.state import Config


def _prove(solver: z3.Solver, claim: str, names: list[str]) -> tuple[bool, str]:
    """``solver`` holds the negation of ``claim``: unsat proves it, sat gives a counterexample."""
    answer = solver.check()
    if answer == z3.unsat:
        return True, f"proved: {claim}"
    if answer == z3.sat:
        model = solver.model()
        values = ", ".join(f"{n}={model.eval(z3.Int(n), model_completion=True)}" for n in names)
        return False, f"counterexample to '{claim}': {values}"
    return False, f"not proved ({answer}): {claim}"


def deal_is_even(config: Config, low: int, high: int) -> tuple[bool, str]:
    """For every player count in [low, high] the vampires divide evenly and each row is long
    enough to show two open vampires at each end (du-en:prep.deal, du-en:prep.row)."""
    total = len(config.colours) * config.vampires_per_colour
    n = z3.Int("players")
    s = z3.Solver()
    s.add(n >= low, n <= high)
    s.add(z3.Or(total % n != 0, total / n < 2 * config.open_per_side))
    return _prove(s, f"{total} vampires split evenly into rows of at least "
                     f"{2 * config.open_per_side} for {low}..{high} players", ["players"])


def stakes_never_run_out(config: Config, low: int, high: int) -> tuple[bool, str]:
    """Whenever a player takes a stake, one is on the path (du-en:content.stakes,
    du-en:ch2.stake, du-en:ch2.gift, du-en:ch2.stakes-back).

    Proved by induction over the stake-taking transition, for every player count: the invariant
    I = "path + held = stakes, each player holds at most gift-1" holds initially, is preserved by
    taking a stake (with the gift resetting the taker to 0), and implies path >= 1.
    Under the ``holding-three`` reading the bound is ``gift`` and the proof may fail.
    """
    gift = config.stakes_for_gift
    bound = gift - 1 if config.options.gift_trigger == "third-stake" else gift
    maxp = high
    n = z3.Int("players")
    h = [z3.Int(f"held{i}") for i in range(maxp)]
    path = z3.Int("path")
    taker = z3.Int("taker")
    s = z3.Solver()
    s.add(n >= low, n <= high, taker >= 0, taker < n)
    for i in range(maxp):
        s.add(z3.If(i < n, z3.And(h[i] >= 0, h[i] <= bound), h[i] == 0))
    s.add(path == config.stakes - z3.Sum(h))
    # The step: the taker needs a stake on the path; afterwards the invariant must hold again.
    h2 = [z3.Int(f"held{i}'") for i in range(maxp)]
    on_third = config.options.gift_trigger == "third-stake"
    for i in range(maxp):
        took = h[i] + 1
        due = took >= gift if on_third else took > gift
        s.add(h2[i] == z3.If(taker == i, z3.If(due, 0, took), h[i]))
    preserved = z3.And(*[z3.If(i < n, h2[i] <= bound, h2[i] == 0) for i in range(maxp)])
    s.add(z3.Or(path < 1, z3.Not(preserved)))
    names = ["players", "taker", "path", *[f"held{i}" for i in range(maxp)]]
    return _prove(s, f"the path holds a stake whenever one is taken ({config.stakes} stakes, "
                     f"{low}..{high} players, at most {bound} held)", names)


def reserve_never_runs_out(config: Config) -> tuple[bool, str]:
    """A reserve lid is available whenever a rat lid is replaced (du-en:prep.reserve,
    du-en:ch4.cleanup, du-en:ch5.cleanup).

    Abstract transition system over (rats on the board r, rat lid in front f, removed m,
    reserve s); transitions: find a rat outside a plague (r-1, f=1); find a rat during a plague
    (old rat removed: m+1, s-1; new rat: r-1); end a plague (m+1, s-1, f=0). Inductive invariant
    r + f + m = rats and s = reserve - m, with 0 <= f <= 1, r >= 0; reserve >= rats gives s >= 1
    whenever a draw happens.
    """
    rats, reserve = config.rat_lids, config.reserve_size
    r, f, m, sv = z3.Ints("r f m s")
    r2, f2, m2, s2 = z3.Ints("r' f' m' s'")
    kind = z3.Int("transition")
    inv = z3.And(r + f + m == rats, sv == reserve - m, f >= 0, f <= 1, r >= 0, m >= 0)
    inv2 = z3.And(r2 + f2 + m2 == rats, s2 == reserve - m2, f2 >= 0, f2 <= 1, r2 >= 0, m2 >= 0)
    find_outside = z3.And(kind == 0, f == 0, r >= 1, r2 == r - 1, f2 == 1, m2 == m, s2 == sv)
    find_inside = z3.And(kind == 1, f == 1, r >= 1, r2 == r - 1, f2 == 1, m2 == m + 1,
                         s2 == sv - 1)
    end = z3.And(kind == 2, f == 1, r2 == r, f2 == 0, m2 == m + 1, s2 == sv - 1)
    draws = z3.Or(kind == 1, kind == 2)
    s = z3.Solver()
    s.add(inv, z3.Or(find_outside, find_inside, end))
    s.add(z3.Or(z3.Not(inv2), z3.And(draws, sv < 1)))
    base = z3.Solver()
    base.add(r == rats, f == 0, m == 0, sv == reserve, z3.Not(inv))
    ok_base, _ = _prove(base, "initial", [])
    ok, detail = _prove(s, f"the reserve stack ({reserve}) never runs out while replacing "
                           f"{rats} rat lids (induction)", ["transition", "r", "f", "m", "s"])
    if not ok_base:
        return False, "the invariant does not hold initially"
    return ok, detail


def board_respects_constraints(board: Board) -> tuple[bool, str]:
    """The loaded board satisfies the stated constraints, checked by z3 over its neighbour
    relation as data (du-en:content.graves, du-en:ch4.neighbours, du-en:ch4.path): symmetric,
    irreflexive, at most 8 neighbours, no neighbour in another quarter, four quarters of pairwise
    different sizes."""
    size = board.size
    adj = z3.Function("adjacent", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    quarter = z3.Function("quarter", z3.IntSort(), z3.IntSort())
    s = z3.Solver()
    i, j = z3.Ints("i j")
    for g in range(size):
        s.add(quarter(g) == board.quarter_of[g])
        nbrs = set(board.neighbours[g])
        for k in range(size):
            s.add(adj(g, k) == (k in nbrs))
    in_range = z3.And(i >= 0, i < size, j >= 0, j < size)
    degree = [z3.Sum([z3.If(adj(g, k), 1, 0) for k in range(size)]) for g in range(size)]
    qsize = [z3.Sum([z3.If(quarter(g) == q, 1, 0) for g in range(size)])
             for q in range(len(board.quarters))]
    violation = z3.Or(
        z3.And(in_range, adj(i, j), z3.Not(adj(j, i))),
        z3.And(in_range, adj(i, i)),
        z3.And(in_range, adj(i, j), quarter(i) != quarter(j)),
        z3.Or(*[d > MAX_NEIGHBOURS for d in degree]),
        z3.Or(*[z3.Or(qsize[a] == qsize[b], qsize[a] == 0)
                for a in range(len(qsize)) for b in range(a + 1, len(qsize))]),
    )
    s.add(violation)
    return _prove(s, f"board {board.name}: symmetric, irreflexive, <= {MAX_NEIGHBOURS} "
                     "neighbours, none across a path, quarters of different sizes", ["i", "j"])


def count_finds_empty_grave(config: Config, low: int, high: int) -> tuple[bool, str]:
    """Expansion: when is there an empty grave for Count Rucola (gruft-en:count.place,
    gruft-en:count.empty)? Count-based: with G graves, V vampires and B garlic bundles in
    graves (at most one thing per grave, du-en:content.graves), every row non-empty while the
    game runs (du-en:end.first-empty) and at most ``garlic`` bundles per player
    (du-en:prep.garlic), there is an empty grave whenever fewer than ``players`` garlic
    bundles lie in graves (proved); with that many or more, counting alone does not exclude a
    full graveyard (z3 gives an example), which is why ``gruft_count_choice=empty-only`` falls
    back to any closed grave."""
    graves = config.board.size
    total = len(config.colours) * config.vampires_per_colour
    n, v, b = z3.Int("players"), z3.Int("vampires_in_graves"), z3.Int("garlic_in_graves")

    def world(s: z3.Solver) -> None:
        s.add(n >= low, n <= high, v >= 0, b >= 0, v <= total - n, b <= config.garlic * n,
              v + b <= graves)

    s = z3.Solver()
    world(s)
    s.add(b < n, graves - v - b == 0)  # negation: no empty grave although b < players
    proved, detail = _prove(s, f"an empty grave exists while fewer garlic bundles than players "
                               f"lie in the {graves} graves", ["players", "vampires_in_graves",
                                                               "garlic_in_graves"])
    if not proved:
        return proved, detail
    full = z3.Solver()
    world(full)
    full.add(graves - v - b == 0)
    if full.check() != z3.sat:
        return True, detail + "; and the graveyard can never be full"
    m = full.model()
    return True, (f"{detail}; a full graveyard is not excluded by counting "
                  f"(e.g. players={m[n]}, vampires={m[v]}, garlic={m[b]})")
