"""Why Dracula's ``early-reshuffle`` mutant has no witness of at most 40 actions.

The mutant (examples/engines/dracula_ref.py, ``end_turn``) differs from the reference engine
only when a side's current action cards are empty at the end of a turn while cards are set
aside (dracula-en:cards.cycle). The bound is derived from the *engine's* code, not the model's:

1. premises read from the engine's source (:func:`test_engine_source_premises`): a side's
   current cards shrink only when a card is played (``pay``), once per turn, and grow before
   the first emptying only by Composure's take-back (``do_special``); only Van Helsing gets a
   second turn in a row (Rebellion in force); Whisper of Night removes the barrier decision of
   Van Helsing's next turn only; every turn that ends has a move decision, a card decision
   and a barrier decision (the engine's ``run`` stops at each; ``apply`` takes only an action
   of ``legal()``, one decision each), and the set-up is 12 secret choices and 12 deal
   outcomes, 24 decisions;
2. an exhaustive search over what a game up to the first emptying can be, given those
   premises (:func:`minimum_actions_to_first_emptying`), more permissive than the rules
   (Rebellion's extra turn without a won battle, Whisper of Night and Composure whenever
   the card is in hand, any card taken back): at least 47 actions, > 40;
3. the mutant engine itself, in seeded random games (``pytest -m slow``): no divergence
   before that bound, the set-up 24 actions, no turn shorter than 2 actions (a corroboration,
   not part of the proof).
"""

from __future__ import annotations

import ast
import heapq
import random
from pathlib import Path

import pytest
from reference_engines import load_engine

from ruleproof.properties.conformance.differential import play
from ruleproof.properties.conformance.engine import MessageEngine
from ruleproof.properties.conformance.games import model_of

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "examples" / "engines" / "dracula_ref.py"
DRACULA = model_of("dracula")
dracula_ref = load_engine("dracula_ref.py")

SET_UP = 24  # 6 + 6 secret choices, 12 deal outcomes (dracula-en:setup.secret-choice, .deal)
CARDS = 5  # current action cards of each side after the set-up (dracula-en:setup.action-cards)

# state: (mover, Dracula's current, Van Helsing's current, Rebellion: 0 in Van Helsing's
# current, 1 elsewhere (may be taken back), Composure in his current, Whisper of Night in
# Dracula's current, the next Van Helsing turn under Whisper of Night)
State = tuple[int, int, int, int, bool, bool, bool]


def _successors(s: State) -> list[tuple[int, State | None]]:
    """(actions of the turn, next state or None when a side's current cards are empty at
    its end) for every kind of turn from ``s``; per turn 3 decisions (move, card, barrier),
    2 for Van Helsing's turn after Whisper of Night."""
    mover, d, v, reb, comp, whisper, muted = s
    out: list[tuple[int, State | None]] = []
    if mover == 0:
        plays = []
        if d - whisper >= 1:
            plays.append(False)  # another card
        if whisper:
            plays.append(True)  # Whisper of Night with its special action
        for w in plays:
            nxt: State = (1, d - 1, v, reb, comp, whisper and not w, w)
            out.append((3, None if d - 1 == 0 else nxt))
        return out
    cost = 2 if muted else 3
    others = v - (reb == 0) - comp
    if others >= 1:  # a card that is neither Rebellion nor Composure
        out.append((cost, None if v - 1 == 0 else (0, d, v - 1, reb, comp, whisper, False)))
    if reb == 0:  # Rebellion, with the extra turn (more than the rules give: no battle needed)
        out.append((cost, None if v - 1 == 0 else (1, d, v - 1, 1, comp, whisper, False)))
        out.append((cost, None if v - 1 == 0 else (0, d, v - 1, 1, comp, whisper, False)))
    if comp:  # Composure without taking a card back (its special not used, or nothing to take)
        out.append((cost, None if v - 1 == 0 else (0, d, v - 1, reb, False, whisper, False)))
        # Composure takes a card back: Rebellion (if not in hand) or any other one
        for back in ((0, 1) if reb == 1 else (reb,)):
            out.append((cost, (0, d, v, back, False, whisper, False)))
    return out


def minimum_actions_to_first_emptying() -> int:
    """Fewest actions (set-up included) of any game to the end of the first turn after which
    a side's current action cards are empty: Dijkstra over :data:`State` from every start
    (either first player, Rebellion, Composure and Whisper of Night dealt or not)."""
    frontier: list[tuple[int, State]] = []
    for first in (0, 1):
        for reb in (0, 1):
            for comp in (False, True):
                for whisper in (False, True):
                    frontier.append((SET_UP, (first, CARDS, CARDS, reb, comp, whisper, False)))
    heapq.heapify(frontier)
    seen: dict[State, int] = {}
    while frontier:
        cost, s = heapq.heappop(frontier)
        if s[0] == -1:
            return cost
        if seen.get(s, cost + 1) <= cost:
            continue
        seen[s] = cost
        for step, nxt in _successors(s):
            heapq.heappush(frontier, (cost + step, nxt or (-1, 0, 0, 0, False, False, False)))
    raise AssertionError("no game empties a side's current cards")


def test_no_game_empties_current_cards_within_40_actions() -> None:
    bound = minimum_actions_to_first_emptying()
    assert bound == SET_UP + 8 * 3 - 1 == 47  # 8 turns, one of them after Whisper of Night
    assert bound > 40


def _mutations(tree: ast.Module) -> set[tuple[str, str]]:
    """(function, what) for every change of ``self.current``: ``remove``/``append``/...
    calls on ``self.current[...]`` and assignments to ``self.current`` or an item of it."""
    found: set[tuple[str, str]] = set()

    def is_current(node: ast.AST) -> bool:
        if isinstance(node, ast.Subscript):
            node = node.value
        return (isinstance(node, ast.Attribute) and node.attr == "current"
                and isinstance(node.value, ast.Name) and node.value.id == "self")

    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    is_current(node.func.value) and isinstance(node.func.value, ast.Subscript):
                found.add((fn.name, node.func.attr))
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(is_current(t) for t in targets):
                    found.add((fn.name, "assign"))
    return found


def test_engine_source_premises() -> None:
    # Premises of the bound, read from the engine the mutant is made of. If this fails the
    # engine changed: check the argument in the module docstring again before updating.
    source = ENGINE.read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert _mutations(tree) == {
        ("pay", "remove"),  # the only way the current cards shrink: a played card
        ("apply", "append"), ("apply", "sort"),  # a draw after an emptying (chance "draw")
        ("do_special", "append"), ("do_special", "sort"),  # Composure's "take"
        ("new_game", "assign"),  # the set-up's five current cards
        ("end_turn", "assign"),  # the set-aside cards become current after an emptying
    }, _mutations(tree)
    functions = {f.name: ast.get_source_segment(source, f) or ""
                 for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    # the mutation is consulted once, where a turn ends with no current cards: in a game that
    # never gets there the mutant runs the reference engine's code, so any divergence it shows
    # there is the reference engine's, not this mutant's
    assert source.count('self.m("early-reshuffle")') == 1
    assert 'if not self.current[side]:\n            if self.aside[side] and not ' \
           'self.m("early-reshuffle"):' in functions["end_turn"]
    assert source.count("self.end_turn()") == 1 and 'elif kind == "end":\n' \
        "                self.end_turn()" in functions["run"]
    # "take" is offered by Composure only; the turn's end is scheduled by pay() only, after
    # the card, the special action and the barrier decision
    assert functions["special_choices"].count('f"take ') == 1
    assert 'if sp == "composure":\n            return [f"take ' in functions["special_choices"]
    assert source.count('("end", side, 0, ())') == 1 and \
        '("barrier-choice", side, 0, ()),\n                ("end", side, 0, ())' in \
        functions["pay"]
    assert source.count('("pay", side, 0, ())') == 2  # after "stop" and after a meeting
    # a second turn in a row: Van Helsing's only, with Rebellion in force
    end_turn = functions["end_turn"]
    assert end_turn.count("nxt = ") == 2 and "nxt = 1 - side" in end_turn
    assert 'if side == 1 and self.special_in_force() == "rebellion"' in end_turn
    # Whisper of Night: only the next turn (Van Helsing's) loses its barrier decision
    assert source.count("self.whisper_turn = self.turn + 1") == 1
    run = functions["run"]
    assert "if side == 1 and self.whisper_turn == self.turn" in run
    assert 'if kind in ("choose", "move", "meet", "place", "pay", "rescue", "barrier"):\n' \
           "                return" in run
    assert 'self.todo.insert(0, ("move", side, 0, ()))' in run  # every turn starts moving
    # the set-up: 6 + 6 choices and a deal outcome per location before the first turn
    start = functions["new_game"]
    assert '[("choose", 0, 6, ()), ("choose", 1, 6, ())]' in start
    assert '[("deal", 0, loc, ()) for loc in range(SIZE)]' in start
    assert dracula_ref.SIZE == 12
    # every card names a barrier colour (or grey: any): the barrier decision is never empty
    assert all(a["bar"] in (*dracula_ref.COLOURS, "grey") for a in dracula_ref.ACT.values())
    assert "action not in self.legal()" in source  # one decision per accepted action


@pytest.mark.slow
def test_mutant_engine_games_diverge_no_earlier_than_the_bound() -> None:
    # The mutant engine in seeded random games until it diverges: the reshuffle is never
    # shown before the bound, the set-up is 24 actions and no turn is shorter than 3
    # decisions (2 after Whisper of Night).
    bound = minimum_actions_to_first_emptying()
    lengths = []
    shortest_turn = 99
    for k in range(10):
        engine = dracula_ref.DraculaEngine("early-reshuffle")
        rng = random.Random(k)
        played = play(DRACULA, MessageEngine(engine.handle), 2, {}, k, rng.randrange, 400)
        if played.divergence is None:
            continue
        assert played.divergence.clauses[:1] == ("dracula-en:cards.cycle",), played.divergence
        lengths.append(len(played.actions))
        state = DRACULA.start(2, played.options, None, played.setup)
        turns: dict[int, int] = {}
        for _, action in played.actions:
            turns[state.model.turn] = turns.get(state.model.turn, 0) + 1
            state = DRACULA.apply(state, action).state
        assert turns.pop(0) == SET_UP
        shortest_turn = min(shortest_turn, *turns.values())
    assert len(lengths) >= 3, lengths  # the others end with a winner first
    assert min(lengths) >= bound, lengths
    assert shortest_turn >= 2
