"""OpenSpiel's own ``integration_tests/api_test.py`` classes run on our games (issue #26): the
partial-tree class (``test_private_information_contents``, ``test_no_invalid_public_observations``
and the rest) on full Dracula, Dawn Under and Kuhn poker, and the full-tree class (perfect recall
of the information state over the whole tree, node counts pinned like OpenSpiel pins its own) on
reduced Dracula and reduced Dawn Under. Also CFR on reduced Dracula with exploitability going
down. Skipped with a reason without the [openspiel] extra."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
api_test = pytest.importorskip("open_spiel.integration_tests.api_test",
                               reason="needs OpenSpiel's integration tests")

import ruleproof.interop.openspiel  # noqa: E402,F401  (registers the games)

REDUCED_DRACULA = "python_dracula(reduced=dr-1x2,max_moves=10)"
REDUCED_DAWN_UNDER = "python_dawn_under(reduced=du-2p-1v,max_moves=1)"

# (chance nodes, decision nodes, terminals) and the (information state, player) pairs of the
# whole tree, pinned: a change means the model or the observer changed (find out which).
api_test.TOTAL_NUM_STATES[REDUCED_DRACULA] = (64, 501, 476)
api_test.PERFECT_RECALL_NUM_STATES[REDUCED_DRACULA] = 263
api_test.TOTAL_NUM_STATES[REDUCED_DAWN_UNDER] = (27567, 10080, 40320)
api_test.PERFECT_RECALL_NUM_STATES[REDUCED_DAWN_UNDER] = 420


def _partial(game_string: str) -> type:
    class Partial(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc,name-defined]
        @classmethod
        def setUpClass(cls) -> None:
            cls.game_name = game_string
            cls.game = pyspiel.load_game(game_string)
            super().setUpClass()

    return Partial


def _full(game_string: str) -> type:
    class Full(api_test.EnforceAPIOnFullTreeBase):  # type: ignore[misc,name-defined]
        @classmethod
        def setUpClass(cls) -> None:
            cls.game_name = game_string
            cls.game = pyspiel.load_game(game_string)
            super().setUpClass()

    return Full


TestPartialTreeDracula = _partial("python_dracula")
TestPartialTreeDawnUnder = _partial("python_dawn_under")
TestPartialTreeKuhn = _partial("ruleproof_kuhn_poker")
TestFullTreeReducedDracula = _full(REDUCED_DRACULA)
TestFullTreeReducedDawnUnder = pytest.mark.slow(_full(REDUCED_DAWN_UNDER))


def test_the_partial_tree_class_has_teeth() -> None:
    """test_private_information_contents fails on a game whose private-only view is empty
    though it is an imperfect-information game (as ours was before: it passed only because the
    private view was the whole observation)."""
    import unittest

    from ruleproof.interop.openspiel import RulesObserver, RulesSpielGame

    class Blind(RulesObserver):
        def string_from(self, state: Any, player: int) -> str:
            return ""

    class BlindGame(RulesSpielGame):
        game_name = "kuhn-poker"

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return Blind(self.rules)

    class Case(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc,name-defined]
        game_name = "blind"
        game = BlindGame({})

    Case.setUpClass()
    result = unittest.TestResult()
    Case("test_private_information_contents").run(result)
    assert len(result.failures) == 1 and not result.errors
    passing = unittest.TestResult()  # teeth of the teeth: the real observer passes
    Fine: Any = _partial("ruleproof_kuhn_poker")
    Fine.setUpClass()
    Fine("test_private_information_contents").run(passing)
    assert passing.wasSuccessful() and passing.testsRun == 1


@pytest.mark.slow
def test_cfr_exploitability_goes_down_on_reduced_dracula() -> None:
    """CFR on reduced Dracula (figures in docs/interop.md): exploitability after 1, 8 and 32
    iterations strictly decreasing, and far below the first."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(REDUCED_DRACULA)
    solver = cfr.CFRSolver(game)
    found = []
    for i in range(1, 33):
        solver.evaluate_and_update_policy()
        if i in (1, 8, 32):
            found.append(exploitability.exploitability(game, solver.average_policy()))
    assert found[0] > found[1] > found[2] >= 0
    assert found[2] < found[0] / 2


@pytest.mark.parametrize("game_string", ["python_dawn_under(players=4)",
                                         "python_dawn_under(players=3,expansion=gruft)",
                                         "python_dracula"])
def test_the_incremental_observer_equals_the_models_tensor(game_string: str) -> None:
    """The observer rewrites only the sections that changed since its last fill, for whichever
    seat: after every step, for the seat to move and a seat drawn at random, its tensor must be
    the model's own observation tensor (and ``observation_tensor`` the same)."""
    import random

    import numpy as np
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(game_string)
    observer = make_observation(game)
    rng = random.Random(5)
    checked = 0
    while checked < 300:
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 300:
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            for seat in (state.current_player(), rng.randrange(game.num_players())):
                observer.set_from(state, seat)
                want = np.array(state.rules_state.observation_tensor(seat), np.float32)
                assert np.array_equal(observer.tensor, want), (game_string, seat, checked)
                assert np.array_equal(state.observation_tensor(seat), want)
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 300


def test_an_observer_pickles_and_keeps_writing_after_loading() -> None:
    """The Dawn Under observer writes through a memoryview of its tensor (which does not
    pickle): it pickles without it, and the loaded observer (its own tensor and writer) keeps
    its tensor equal to the model's along the rest of the game."""
    import pickle
    import random

    import numpy as np
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_dawn_under(players=4)")
    observer = make_observation(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    for step in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        if step == 200:
            observer = pickle.loads(pickle.dumps(observer))
            assert observer._buffer is not None
        seat = state.current_player()
        observer.set_from(state, seat)
        want = np.array(state.rules_state.observation_tensor(seat), np.float32)
        assert np.array_equal(observer.tensor, want)
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100
