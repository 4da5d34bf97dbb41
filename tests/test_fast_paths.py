"""The trusted fast paths (issues #26, #30) give what the checked paths give.

``engine.step_legal`` / ``engine.apply_legal`` skip the legality check for an action just taken
from ``legal_actions``; ``GameState.apply`` uses them when the id is among the legal ids kept
with the state; the deal keeps its counts left instead of recounting. Each must equal the
checked, recounting path, and an illegal action must still raise through the public API.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from ruleproof.errors import IllegalAction
from ruleproof.model.api import GameBase
from ruleproof.model.dawn_under import apply, legal_actions, new_game, step
from ruleproof.model.dawn_under.dealing import Dealing, _count_remaining
from ruleproof.model.dawn_under.engine import apply_legal, step_legal
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dawn_under.state import Phase, State


def _walk(state: State, rng: random.Random, limit: int) -> list[State]:
    out = [state]
    while state.phase is not Phase.OVER and len(out) < limit:
        state = apply(state, rng.choice(legal_actions(state)))
        out.append(state)
    return out


@pytest.mark.parametrize("players, options", [(4, {}), (2, {}), (3, {"expansion": "gruft"}),
                                              (5, {"turn_start": "may-pass"})])
def test_trusted_transitions_equal_the_checked_ones(players: int, options: dict[str, Any]) -> None:
    game = DawnUnderGame(players, options=options or None)
    compared = 0
    for seed in range(2):
        for s in _walk(new_game(game.config, seed), random.Random(seed), 100):
            for a in legal_actions(s):
                assert step_legal(s, a) == step(s, a)
                assert apply_legal(s, a) == apply(s, a)
                compared += 1
    assert compared > 300


def test_interface_fast_path_equals_the_checked_path_and_still_refuses() -> None:
    game = DawnUnderGame(4)
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 200:
        if state.is_chance_node():
            state = state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        fresh = game.from_model(state.model, state.moves)  # no legal ids kept: checked path
        legal = state.legal_actions()  # kept with ``state``: the fast path
        # the ids of the engine's shared action objects, found by identity, are the table's
        assert legal == sorted({game.table.to_id(a) for a in game.model_legal(state.model)})
        a = rng.choice(legal)
        fast, checked = state.apply(a), fresh.apply(a)
        assert fast.model == checked.model and fast.moves == checked.moves
        assert fast.node is not None and checked.node is not None
        assert fast.node.seen == checked.node.seen
        illegal = next(i for i in range(game.num_distinct_actions) if i not in legal)
        before = state.model
        with pytest.raises(IllegalAction):
            state.apply(illegal)
        with pytest.raises(IllegalAction):  # not an int id: refused as before
            state.apply(True if 1 not in legal else -1)
        assert state.model is before
        state = fast
        decisions += 1
    assert decisions == 200 or state.is_terminal()


def test_a_subclass_that_replaces_the_transition_keeps_it_on_the_fast_path() -> None:
    calls: list[Any] = []

    class Planted(DawnUnderGame):
        def model_step(self, m: Any, action: Any) -> tuple[Any, Any]:
            calls.append(action)
            return super().model_step(m, action)

    game = Planted(4)
    state = game.new_seeded_state(3)
    state.legal_actions()
    state.apply(state.legal_actions()[0])
    assert len(calls) == 1


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_deal_keeps_the_counts_a_recount_gives(players: int) -> None:
    game = DawnUnderGame(players)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            m = state.model
            assert isinstance(m, Dealing)
            if m.left is not None:
                assert m.left == _count_remaining(m)
                checked += 1
            fresh = game.from_model(Dealing(m.config, m.dealt))  # recounted from the items
            assert fresh.chance_outcomes() == state.chance_outcomes()
            counts = _count_remaining(m)  # the probabilities: items of a kind / items left
            assert state.chance_outcomes() == [(k, Fraction(n, sum(counts)))
                                               for k, n in enumerate(counts) if n]
            state = state.apply(rng.choice(state.chance_outcomes())[0])
    assert checked > 100


@pytest.mark.parametrize("players, options", [(4, {}), (2, {}), (3, {"expansion": "gruft"}),
                                              (5, {"turn_start": "may-pass"})])
def test_the_games_id_hooks_equal_the_generic_ones(players: int, options: dict[str, Any]) -> None:
    """Dawn Under's ``model_legal_ids``, ``model_legal_ids_sorted`` (the engine's shared
    tuples' ids kept from the start) and ``model_chance_ids`` (codes as ids) give what
    :class:`GameBase`'s generic hooks give."""
    game = DawnUnderGame(players, options=options or None)
    pooled = chance = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            m = state.model
            if state.is_chance_node():
                assert game.model_chance_ids(m) == GameBase.model_chance_ids(game, m)
                chance += 1
                state = state.apply(rng.choice(state.chance_outcomes())[0])
                continue
            generic = GameBase.model_legal_ids(game, m)
            assert game.model_legal_ids(m) == generic
            assert game.model_legal_ids_sorted(m) == sorted(set(generic))
            assert game.model_legal_ids_sorted(m) == GameBase.model_legal_ids_sorted(game, m)
            pooled += id(legal_actions(m)) in game._pooled_lists
            state = state.apply(rng.choice(state.legal_actions()))
    assert chance > 100
    if players > 2 and not options:
        assert pooled > 50  # the kept ids were used


@pytest.mark.parametrize("players, options", [(4, {}), (2, {}), (3, {"expansion": "gruft"})])
def test_patched_observation_sections_equal_rebuilt_ones(players: int,
                                                         options: dict[str, Any]) -> None:
    """With a memo the lid and content sections are patched from the previous ones; they
    equal the sections built afresh, whichever seats ask in turn."""
    game = DawnUnderGame(players, options=options or None)
    memo: dict[Any, Any] = {}
    patched = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(rng.choice(state.chance_outcomes())[0])
                continue
            seat = rng.randrange(players)
            before = memo.get("lids")
            assert state.observation_index_parts(seat, memo) == \
                state.observation_index_parts(seat, None)
            patched += before is not None and memo["lids"] is not before
            state = state.apply(rng.choice(state.legal_actions()))
    assert patched > 50


def test_openspiel_python_answers_equal_pyspiels_own() -> None:
    """The Python ``legal_actions`` and ``is_chance_node`` of the OpenSpiel states answer
    what pyspiel's C++ methods answer: at chance nodes, decisions (for every seat) and the
    end; the chance probabilities are ``float`` of the model's exact fractions."""
    pyspiel = pytest.importorskip("pyspiel")
    import ruleproof.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_dawn_under", {"players": 3, "max_moves": 120})
    rng = random.Random(2)
    state = game.new_initial_state()
    seen = {"chance": 0, "decision": 0}
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.current_player() == pyspiel.State.current_player(state) == \
            state.rules_state.current_player()
        assert state.is_terminal() == state.rules_state.is_terminal()
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for seat in range(3):
            assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.clear()  # a new list each call: the state's own is untouched
        assert state.legal_actions()
        if state.is_chance_node():  # the probabilities as float() of the exact fractions
            assert state.chance_outcomes() == [
                (o, float(p)) for o, p in state.rules_state.chance_outcomes()]
        seen["chance" if state.is_chance_node() else "decision"] += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
    assert seen["chance"] > 50 and seen["decision"] == 120


@pytest.mark.parametrize("players, options", [(4, {}), (2, {}), (3, {"expansion": "gruft"}),
                                              (5, {"turn_start": "may-pass"})])
def test_the_observers_incremental_writer_gives_the_full_tensor(players: int,
                                                                options: dict[str, Any]) -> None:
    """The OpenSpiel observer of Dawn Under writes through the game's incremental writer;
    after every call its tensor equals the tensor built afresh, whichever seat asks, at
    chance nodes and decisions, across games, and when states of another game object (the
    section buffer's path) come in between."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pyspiel")
    from ruleproof.interop.openspiel import RulesObserver

    class Holder:
        def __init__(self, state: Any) -> None:
            self.rules_state = state

    game = DawnUnderGame(players, options=options or None)
    other = DawnUnderGame(players, options=options or None)
    observer = RulesObserver(game)
    assert observer._writer is not None
    checked = switched = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = rng.randrange(players) if rng.random() < 0.4 else \
                max(state.current_player(), 0)
            shown = state
            if rng.random() < 0.02:  # a state of another game object
                shown = other.from_model(state.model, state.moves)
                switched += 1
            observer.set_from(Holder(shown), seat)  # type: ignore[arg-type]
            assert observer.tensor is not None
            assert np.array_equal(observer.tensor,
                                  np.array(shown.observation_tensor(seat), np.float32))
            checked += 1
            if state.is_chance_node():
                state = state.apply(rng.choice(state.chance_outcomes())[0])
            else:
                state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 500 and switched > 3


@pytest.mark.parametrize("players, options, max_moves", [
    (4, {}, 3000), (4, {}, 40), (2, {}, 3000), (3, {"expansion": "gruft"}, 3000),
    (6, {"turn_start": "may-pass"}, 90)])
def test_the_writer_gives_the_full_tensor_for_states_in_any_order(
        players: int, options: dict[str, Any], max_moves: int) -> None:
    """The game's incremental writer (``observation_writer``) keeps a buffer equal to the
    tensor built afresh (``observation_tensor``) whatever it is handed next: the next state
    of a game, a state of another game or of the deal, an earlier state, any seat; through
    plagues, hand-overs, the end and the truncation (short ``max_moves``). Each of the
    writer's sections is seen to change."""
    game = DawnUnderGame(players, options=options or None, max_moves=max_moves)
    states = []
    for seed in range(4):
        rng = random.Random(100 + seed)
        state = game.new_initial_state()
        while True:
            states.append(state)
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.chance_outcomes())[0]
                                if state.is_chance_node() else rng.choice(state.legal_actions()))
    rng = random.Random(7)
    writer = game.observation_writer()
    assert writer is not None
    out = [0.0] * game.observation_size
    shown: dict[str, set[Any]] = {}
    checked = 0
    for k in range(4000):
        # mostly the next state (as a game is played), sometimes a jump anywhere
        state = states[rng.randrange(len(states))] if k == 0 or rng.random() < 0.1 else \
            states[(states.index(state) + 1) % len(states)]
        seat = rng.randrange(players) if rng.random() < 0.3 else max(state.current_player(), 0)
        writer.write(state, seat, out)
        assert out == [float(x) for x in state.observation_tensor(seat)]
        m = state.model
        if isinstance(m, State):
            for name in ("phase", "pending", "rows", "in_transit", "turn_player", "gifts",
                         "contents", "known", "may_stop", "garlic_hand", "plague",
                         "stakes_held", "stakes_path", "lids") + \
                    (("winner",) if max_moves > 100 else ()):  # short games: no winner
                shown.setdefault(name, set()).add(repr(getattr(m, name)))
        checked += 1
    assert checked == 4000
    assert all(len(values) > 1 for values in shown.values()), \
        [name for name, values in shown.items() if len(values) <= 1]
    if max_moves < 100:
        assert any(s.is_truncated() for s in states)
    else:
        assert any(s.is_over() for s in states)


def test_a_subclass_that_replaces_the_observation_gets_no_writer() -> None:
    class Planted(DawnUnderGame):
        def observation_index_parts(self, state: Any, player: int,
                                    memo: dict[Any, Any] | None = None) -> list[list[int]]:
            return super().observation_index_parts(state, player, memo)

    assert DawnUnderGame(4).observation_writer() is not None
    assert Planted(4).observation_writer() is None


def test_undo_goes_back_through_and_past_the_kept_states() -> None:
    """``undo_action`` keeps only the last states (so that a game's states are not all held
    until it ends); undoing further rebuilds them from the history: every undo, through the
    kept states and past them, gives back the state before that action."""
    pyspiel = pytest.importorskip("pyspiel")
    from ruleproof.errors import MalformedInput
    from ruleproof.interop.openspiel import _UNDO_KEPT

    game = pyspiel.load_game("python_dawn_under", {"players": 3})
    rng = random.Random(4)
    state = game.new_initial_state()
    seen: list[tuple[Any, int, int]] = []  # (model before, actor, action)
    while len(seen) < 3 * _UNDO_KEPT + 40 and not state.is_terminal():
        legal = state.legal_actions()
        a = rng.choice(legal)
        seen.append((state.rules_state.model, state.current_player(), a))
        state.apply_action(a)
    assert len(seen) > 3 * _UNDO_KEPT
    with pytest.raises(MalformedInput):
        state.undo_action(seen[-1][1], seen[-1][2] + 1)  # not the last action
    for model, actor, a in reversed(seen):
        state.undo_action(actor, a)
        assert state.rules_state.model == model
        assert state.history() == [x[2] for x in seen[:len(state.history())]]
    assert state.history() == []
    with pytest.raises(MalformedInput):
        state.undo_action(0, 0)
