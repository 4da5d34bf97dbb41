"""The one game interface (ruleproof.model.api) for Dawn Under and Dracula: action table round
trips, chance nodes with exact probabilities equal to the engines' seeded deals, returns,
truncation, perfect recall of information states, cheap copies."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import CHANCE, TERMINAL, RulesGame, RulesState
from ruleproof.model.dawn_under import deal, new_game
from ruleproof.model.dawn_under.game import DawnUnderGame
from ruleproof.model.dracula import apply as dracula_apply
from ruleproof.model.dracula import current_player as dracula_player
from ruleproof.model.dracula import legal_actions as dracula_legal
from ruleproof.model.dracula import new_game as dracula_new_game
from ruleproof.model.dracula.game import DraculaGame, new_game_unresolved
from ruleproof.properties.plugin import make_game, names

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("dawn-under", {"players": 3}), ("dawn-under", {"players": 4}),
    ("dawn-under", {"players": 6, "preset": "du-cs"}), ("dawn-under", {"players": 2}),
    ("dawn-under", {"players": 4, "expansion": "gruft"}), ("dracula", {}),
]


def _random_play(state: RulesState, rng: random.Random, limit: int) -> list[RulesState]:
    out = [state]
    while not state.is_terminal() and len(out) < limit:
        if state.current_player() == CHANCE:
            ids, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.apply(rng.choices(ids, weights=[float(w) for w in weights])[0])
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "params"), CONFIGS)
def test_interface_shape_and_round_trip_over_every_legal_action(
        name: str, params: dict[str, object]) -> None:
    game = make_game(name, **params)
    assert isinstance(game, RulesGame)
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        for state in _random_play(game.new_seeded_state(seed), rng, 400)[::3]:
            assert isinstance(state, RulesState)
            player = state.current_player()
            if state.is_terminal():
                assert player == TERMINAL and state.legal_actions() == []
                continue
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            if player == CHANCE:
                assert sum(p for _, p in state.chance_outcomes()) == 1
                continue
            typed = state.legal_typed_actions()
            assert sorted(game.action_to_id(a) for a in typed) == legal
            for action_id in legal:
                action = game.id_to_action(action_id)
                assert game.action_to_id(action) == action_id
                text = game.action_to_string(player, action_id)
                assert game.string_to_action(player, text) == action_id
                assert 0 <= action_id < game.num_distinct_actions
                checked += 1
            assert len(state.observation_tensor(player)) == game.observation_tensor_shape[0]
            if game.provides_information_state_tensor:
                assert len(state.information_state_tensor(player)) == \
                    game.information_state_tensor_shape[0]
            else:  # a game whose histories are too long for a perfect-recall tensor says so
                assert game.information_state_tensor_shape == (0,)
                with pytest.raises(MalformedInput, match="no information-state tensor"):
                    state.information_state_tensor(player)
    assert checked > 100


def test_dawn_under_deal_chance_path_equals_the_seeded_deal() -> None:
    for players in (2, 3, 4, 5, 6):
        game = DawnUnderGame(players)
        for seed in (1, 2, 99):
            state = game.new_initial_state()
            probability = Fraction(1)
            for outcome in game.setup_outcomes(deal(game.config, random.Random(seed))):
                assert state.current_player() == CHANCE
                probability *= dict(state.chance_outcomes())[outcome]
                state = state.apply(outcome)
            assert state.model == new_game(game.config, seed)
            assert state.model == game.new_seeded_state(seed).model
            assert 0 < probability < 1


def test_dawn_under_deal_probabilities_are_exact_item_counts() -> None:
    game = DawnUnderGame(4)
    state = game.new_initial_state()
    first = dict(state.chance_outcomes())  # reserve: coloured lids only, 10 of each colour
    assert first == {c: Fraction(1, 6) for c in range(6)}
    for _ in range(game.config.reserve_size):
        state = state.apply(0 if 0 in dict(state.chance_outcomes()) else 1)
    board = dict(state.chance_outcomes())  # graves: the 60 - reserve coloured lids + 6 rats
    assert board[6] == Fraction(6, 60)
    with pytest.raises(IllegalAction):
        state.apply(7)  # no lid: only with 2 players
    two = DawnUnderGame(2)
    s2 = two.new_initial_state()
    for _ in range(two.config.reserve_size):
        s2 = s2.apply(s2.legal_actions()[0])
    assert 7 in dict(s2.chance_outcomes())


def test_dracula_opening_draws_reproduce_the_seeded_game() -> None:
    game = DraculaGame()
    for seed in (0, 5, 12):
        model = new_game_unresolved(game.rules, game.cards, seed)
        while dracula_player(model) == CHANCE:
            options = dracula_legal(model)
            rng = random.Random(f"{model.seed}/{model.step}")  # the engine's resolve_chance
            model = dracula_apply(model, options[rng.randrange(len(options))])
        assert model == dracula_new_game(seed, game.rules, game.cards)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [p for _, p in outcomes] == [Fraction(1, 10)] * 10


def test_returns_scheme_and_terminal_player() -> None:
    game = make_game("dawn-under", players=4)
    end = _random_play(game.new_seeded_state(3), random.Random(3), 5000)[-1]
    assert end.is_terminal() and not end.is_truncated()
    assert end.current_player() == TERMINAL
    returns = end.returns()
    assert sorted(returns) == [-1 / 3, -1 / 3, -1 / 3, 1.0] and abs(sum(returns)) < 1e-12
    dracula = _random_play(make_game("dracula").new_seeded_state(1), random.Random(1), 5000)[-1]
    assert sorted(dracula.returns()) == [-1.0, 1.0]


def test_truncation_rule_ends_without_a_winner() -> None:
    game = make_game("dawn-under", players=3, max_moves=5)
    states = _random_play(game.new_seeded_state(0), random.Random(0), 100)
    end = states[-1]
    assert end.is_terminal() and end.is_truncated() and end.returns() == [0.0, 0.0, 0.0]
    assert sum(1 for s in states[:-1] if s.current_player() >= 0) == 5 == game.max_game_length
    with pytest.raises(IllegalAction):
        end.apply(0)


def test_illegal_action_leaves_the_state_untouched() -> None:
    game = make_game("dawn-under", players=4)
    state = game.new_seeded_state(1)
    before = repr(state), state.model
    illegal = next(i for i in range(game.num_distinct_actions) if i not in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply(illegal)
    with pytest.raises(IllegalAction):
        state.apply(10**6)
    assert (repr(state), state.model) == before


def test_information_state_has_perfect_recall_of_own_actions() -> None:
    game = make_game("dawn-under", players=4)
    start = game.new_seeded_state(4)
    a, b = start.legal_actions()[:2]  # open two different graves
    sa, sb = start.apply(a), start.apply(b)
    # continue both with the same next player's first legal action where possible
    assert sa.information_state_string(0) != sb.information_state_string(0)
    # a random pair of histories: they differ in seat 0's first action only
    rng = random.Random(2)
    for _ in range(5):
        x, y = rng.sample(start.legal_actions(), 2)
        assert start.apply(x).information_state_string(0) != \
            start.apply(y).information_state_string(0)


def test_dawn_under_information_state_hides_face_down_items() -> None:
    game = DawnUnderGame(4)
    setup = deal(game.config, random.Random(8))
    row = list(setup.rows[0])
    i = next(k for k in range(4, 10) if row[k] != row[k + 1])  # face-down middle vampires
    row[i], row[i + 1] = row[i + 1], row[i]
    lids = list(setup.lids)
    j = next(k for k in range(1, len(lids)) if lids[k] != lids[0])
    lids[0], lids[j] = lids[j], lids[0]
    other = replace(setup, rows=(tuple(row), *setup.rows[1:]), lids=tuple(lids))
    s1, s2 = game.from_setup(setup), game.from_setup(other)
    assert s1.model != s2.model
    for p in range(4):
        assert s1.information_state_string(p) == s2.information_state_string(p)
        assert s1.observation_tensor(p) == s2.observation_tensor(p)
    # the same through the chance nodes: the deal itself is not seen
    c1, c2 = game.new_initial_state(), game.new_initial_state()
    for o1, o2 in zip(game.setup_outcomes(setup), game.setup_outcomes(other), strict=True):
        c1, c2 = c1.apply(o1), c2.apply(o2)
    assert c1.information_state_string(1) == c2.information_state_string(1)
    # opening the swapped grave shows the lid: now the information states differ
    assert c1.apply(game.action_to_id(game.id_to_action(0))).information_state_string(1) != \
        c2.apply(0).information_state_string(1)


def test_dracula_secret_choice_is_private() -> None:
    game = DraculaGame()
    state = game.new_seeded_state(3)
    assert state.current_player() == 0
    a, b = state.legal_actions()[:2]
    sa, sb = state.apply(a), state.apply(b)
    assert sa.information_state_string(0) != sb.information_state_string(0)
    assert sa.information_state_string(1) == sb.information_state_string(1)
    assert sa.observation_tensor(1) == sb.observation_tensor(1)
    assert sa.observation_tensor(0) != sb.observation_tensor(0)


@pytest.mark.parametrize(("name", "params"), CONFIGS)
def test_copies_are_free_and_reprs_short_and_pickles_replay(
        name: str, params: dict[str, object]) -> None:
    game = make_game(name, **params)
    states = _random_play(game.new_initial_state(), random.Random(5), 300)
    last = states[-1]
    assert copy.copy(last) is last and copy.deepcopy(last) is last
    assert len(repr(last)) < 200
    back = pickle.loads(pickle.dumps(last))
    assert back.history() == last.history()
    assert back.information_state_string(0) == last.information_state_string(0)
    assert last.game.name == name


def test_registry_rejects_bad_parameters() -> None:
    assert {"dawn-under", "dracula"} <= set(names())
    for bad in ({"players": 7}, {"players": 4, "preset": "nope"}, {"colour": 1},
                {"players": 4, "options": "after_match=maybe"}, {"players": 2,
                                                                   "expansion": "gruft"}):
        with pytest.raises(MalformedInput):
            make_game("dawn-under", **bad)
    with pytest.raises(MalformedInput, match="unknown game 'chess'; known games: "):
        make_game("chess")
    with pytest.raises(MalformedInput):
        make_game("dracula", options="depths=sometimes")
    assert make_game("dawn-under", players=2).params["preset"] == "2p"
    du_cs = make_game("dawn-under", players=4, preset="du-cs", options="turn_start=must-open")
    assert du_cs.params["options"] == {"turn_start": "must-open"}


@pytest.mark.parametrize("seed", [-1, True, 1.5, "3", 2**63])
@pytest.mark.parametrize("name", names())
def test_a_seed_that_is_not_a_non_negative_integer_is_refused(name: str, seed: object) -> None:
    # random.Random(-1) deals seed 1's game: a negative seed would alias another deal.
    with pytest.raises(MalformedInput, match="seed"):
        make_game(name).new_seeded_state(seed)  # type: ignore[arg-type]
