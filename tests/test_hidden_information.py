"""Hidden information as OpenSpiel users expect it (issue #26): public views that never show a
hand, perfect-recall information states, resampling from an information state, undo, the
truncation returns and the reduced set-ups as games."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.model.api import (
    CHANCE,
    INFORMATION_STATE,
    PRIVATE_ALL,
    PRIVATE_NONE,
    PRIVATE_SINGLE,
    GameState,
    ObsView,
)
from ruleproof.model.hidden import consistent_histories, resample_exact, resample_walk
from ruleproof.properties.plugin import make_game

PUBLIC = ObsView(public=True, private=PRIVATE_NONE)
PRIVATE = ObsView(public=False, private=PRIVATE_SINGLE)


def _random_states(game: Any, seed: int, limit: int = 400) -> list[GameState]:
    """Every state of one random game (chance by its probabilities), oldest first."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state]
    while not state.is_terminal() and len(out) < limit:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            a = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            a = rng.choice(state.legal_actions())
        state = state.apply(a)
        out.append(state)
    return out


def _other_hand(game: Any, hand: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """As many encounter cards as ``hand`` holds, none of them in it."""
    pool = sorted(c.id for c in game.cards.encounter if c.id not in hand)
    return tuple(sorted(rng.sample(pool, len(hand))))


def test_a_public_dracula_observation_never_changes_with_a_hand() -> None:
    """The public-only view (private_info=NONE) of either seat is the same when only a hand
    changes; the seat's own view does change (teeth: the swap is visible where it should be)."""
    game = make_game("dracula")
    rng = random.Random(5)
    compared = changed = 0
    for seed in range(4):
        for state in _random_states(game, seed)[30::7]:
            if state.is_terminal():
                continue
            m = state.model
            for side in (0, 1):
                if not m.hand[side]:
                    continue
                hands = list(m.hand)
                hands[side] = _other_hand(game, m.hand[side], rng)
                other = game.from_model(replace(m, hand=tuple(hands)), state.moves)
                for seat in (0, 1):
                    assert other.view_indices(seat, PUBLIC) == state.view_indices(seat, PUBLIC)
                    assert other.view_string(seat, PUBLIC) == state.view_string(seat, PUBLIC)
                    for card in m.hand[side]:
                        assert card not in state.view_string(seat, PUBLIC)
                    compared += 1
                own = other.view_indices(side, OBSERVATION_VIEW)
                changed += own != state.view_indices(side, OBSERVATION_VIEW)
                assert other.view_indices(side, PRIVATE) != state.view_indices(side, PRIVATE)
    assert compared > 50 and changed > 20


OBSERVATION_VIEW = ObsView()


def test_public_and_private_views_split_the_observation() -> None:
    """Public + private = the observation (no float lost or duplicated); ALL_PLAYERS holds each
    seat's private part in seat order."""
    for name, params in (("dracula", {}), ("kuhn-poker", {}), ("dawn-under", {"players": 3})):
        game = make_game(name, **params)
        layout_pub, layout_priv = game.view_layout(PUBLIC), game.view_layout(PRIVATE)
        assert layout_pub.size + layout_priv.size == game.observation_size
        every = ObsView(public=False, private=PRIVATE_ALL)
        for state in _random_states(game, 3, 120)[::5]:
            if state.is_terminal():
                continue
            public = {tuple(state.view_indices(seat, PUBLIC)) for seat in range(game.num_players)}
            assert len(public) == 1  # the public view is the same for every seat
            assert len({state.view_string(seat, PUBLIC) for seat in range(game.num_players)}) == 1
            for seat in range(game.num_players):
                full = state.observation_indices(seat)
                assert len(state.view_indices(seat, PUBLIC)) + \
                    len(state.view_indices(seat, PRIVATE)) == len(full)
            all_private = state.view_indices(0, every)
            width = layout_priv.size
            for seat in range(game.num_players):
                mine = sorted(i - seat * width for i in all_private
                              if seat * width <= i < (seat + 1) * width)
                assert mine == sorted(state.view_indices(seat, PRIVATE))


def test_kuhn_public_view_drops_the_card_as_openspiel_kuhn_does() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
    from open_spiel.python.observation import make_observation

    import ruleproof.interop.openspiel  # noqa: F401
    from ruleproof.interop.openspiel import spiel_name

    ours = pyspiel.load_game(spiel_name("kuhn-poker"))
    theirs = pyspiel.load_game("python_kuhn_poker")
    kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                      private_info=pyspiel.PrivateInfoType.NONE)
    for game in (ours, theirs):
        obs = make_observation(game, kind)
        for cards in ((0, 1), (2, 1)):
            state = game.new_initial_state()
            for c in cards:
                state.apply_action(c)
            obs.set_from(state, 0)
            seen = obs.tensor.copy()
            text = obs.string_from(state, 0)
            other = game.new_initial_state()
            other.apply_action((cards[0] + 1) % 3 if (cards[0] + 1) % 3 != cards[1]
                               else (cards[0] + 2) % 3)
            other.apply_action(cards[1])
            obs.set_from(other, 0)
            assert (obs.tensor == seen).all() and obs.string_from(other, 0) == text


def _equal_tensors_mean_equal_strings(game: Any, seeds: range) -> tuple[int, int]:
    by_tensor: dict[tuple[int, ...], str] = {}
    by_string: dict[str, tuple[int, ...]] = {}
    for seed in seeds:
        for state in _random_states(game, seed):
            if state.current_player() == CHANCE:
                continue
            for seat in range(game.num_players):
                key = tuple(state.information_state_indices(seat))
                text = state.information_state_string(seat)
                assert by_tensor.setdefault(key, text) == text, (seed, seat)
                assert by_string.setdefault(text, key) == key, (seed, seat)
    return len(by_tensor), len(by_string)


@pytest.mark.parametrize(("name", "params", "seeds"), [
    ("dracula", {"reduced": "dr-1x2", "max_moves": 40}, range(300)),
    ("dracula", {"reduced": "dr-1x4", "max_moves": 60}, range(60)),
    ("kuhn-poker", {}, range(200)),
])
def test_equal_information_state_tensors_mean_equal_strings(
        name: str, params: dict[str, Any], seeds: range) -> None:
    """Perfect recall of the tensor: on many random histories equal tensors have equal
    information-state strings and back (a bijection); many distinct ones seen (teeth)."""
    game = make_game(name, **params)
    assert game.provides_information_state_tensor
    tensors, strings = _equal_tensors_mean_equal_strings(game, seeds)
    assert tensors == strings and tensors > 20


def test_full_dracula_offers_no_tensor_that_would_merge_information_states() -> None:
    """The issue's case (random play from random.Random(9)): the full game declares no
    information-state tensor (one fitting its long histories would have to merge information
    states), and player 0's strings tell every decision history apart."""
    game = make_game("dracula")
    assert not game.provides_information_state_tensor
    assert game.information_state_tensor_shape == (0,)
    path = [s for seed in range(9, 12) for s in _random_states(game, seed)
            if s.current_player() != CHANCE]
    strings = {s.information_state_string(0) for s in path}
    assert len(strings) == len({tuple(s.history()) for s in path})  # no two histories merged
    with pytest.raises(MalformedInput, match="no information-state tensor"):
        path[-1].information_state_tensor(0)


def test_information_state_strings_are_compact() -> None:
    """Keys for tabular methods stay short however long the history (a digest, not the log)."""
    game = make_game("dracula")
    longest = max(len(s.information_state_string(p)) for s in _random_states(game, 2)
                  for p in (0, 1))
    assert longest <= 48
    text = _random_states(game, 2)[-1].information_state_text(0)
    assert len(text) > 500  # the readable chain is still there


# -- resampling ---------------------------------------------------------------------------------

def _decision_states(game: Any, seeds: range) -> list[GameState]:
    return [s for seed in seeds for s in _random_states(game, seed)
            if not s.is_terminal() and s.current_player() != CHANCE]


def test_kuhn_resampling_is_exactly_uniform_over_the_other_card() -> None:
    game = make_game("kuhn-poker")
    state = game.new_initial_state().apply(1).apply(2)  # seat 0 holds the queen
    assert len(consistent_histories(state, 0)) == 2
    rng = random.Random(1)
    counts = Counter(resample_exact(state, 0, rng).model.cards[1] for _ in range(4000))
    assert set(counts) == {0, 2}
    assert abs(counts[0] - 2000) < 4 * (4000 * 0.25) ** 0.5  # 4 sigma


def test_resampled_states_keep_the_information_state() -> None:
    """Every drawn state shows the seat the same history (equal information-state strings).
    Full Dracula: states of the opening (the first 40 history nodes; later ones can exhaust
    the walk's tries, docs/interop.md)."""
    for name, params, seeds in (("kuhn-poker", {}, range(10)),
                                ("dracula", {"reduced": "dr-1x2", "max_moves": 30}, range(6)),
                                ("dracula", {}, range(3))):
        game = make_game(name, **params)
        rng = random.Random(3)
        states = [s for s in _decision_states(game, seeds) if len(s.history()) <= 40]
        picked = states if len(states) < 40 else rng.sample(states, 40)
        differed = 0
        for state in picked:
            seat = state.current_player()
            drawn = state.resample(seat, rng)
            assert drawn.information_state_string(seat) == state.information_state_string(seat)
            assert drawn.legal_actions() == state.legal_actions()
            differed += drawn.history() != state.history()
        assert differed > 0, name  # teeth: hidden parts were redrawn


def test_the_walk_sampler_is_close_to_the_exact_draw_on_a_small_game() -> None:
    """The approximate sampler (full Dracula's) against the exact one: both draw only
    consistent histories, and the walk's frequencies stay within a documented distance (total
    variation <= 0.25 on reduced Dracula, where the exact distribution is enumerable)."""
    game = make_game("dracula", reduced="dr-1x2", max_moves=30)
    rng = random.Random(11)
    checked = 0
    worst = 0.0
    for state in _decision_states(game, range(40))[::9]:
        seat = state.current_player()
        found = consistent_histories(state, seat)
        if len(found) < 2:
            continue
        total = sum(w for _, w in found)
        exact = {ids: float(w / total) for ids, w in found}
        n = 600
        counts = Counter(tuple(resample_walk(state, seat, rng).history()) for _ in range(n))
        assert set(counts) <= set(exact)
        tv = 0.5 * sum(abs(counts[ids] / n - p) for ids, p in exact.items())
        worst = max(worst, tv)
        checked += 1
        if checked == 4:
            break
    assert checked >= 2
    assert worst <= 0.25


def test_resampling_refuses_chance_nodes_and_bad_seats() -> None:
    game = make_game("kuhn-poker")
    with pytest.raises(MalformedInput, match="resampling needs"):
        game.new_initial_state().resample(0, random.Random(0))
    state = game.new_initial_state().apply(0).apply(1)
    with pytest.raises(MalformedInput, match="no player"):
        state.resample(2, random.Random(0))


# -- truncation returns -------------------------------------------------------------------------

def test_the_truncation_option_sets_what_a_stalled_game_pays() -> None:
    def stalled(**params: Any) -> list[float]:
        game = make_game("dracula", max_moves=3, **params)
        state = _random_states(game, 1)[-1]
        assert state.is_truncated()
        return state.returns()

    assert stalled() == [0.0, 0.0]
    assert stalled(truncation="loss") == [-1.0, -1.0]
    assert stalled(truncation="-0.5") == [-0.5, -0.5]
    with pytest.raises(MalformedInput, match="truncation must be"):
        make_game("dracula", truncation="stall")


def test_a_reduced_set_up_is_a_game_parameter() -> None:
    small: Any = make_game("dracula", reduced="dr-1x2", max_moves=10)
    assert small.board.size == 2 and small.provides_information_state_tensor
    du: Any = make_game("dawn-under", reduced="du-2p-1v", max_moves=5)
    assert du.num_players == 2 and du.graves == 10
    with pytest.raises(MalformedInput, match="set-up of dawn-under"):
        make_game("dracula", reduced="du-2p-1v")
    with pytest.raises(MalformedInput, match="unknown reduced configuration"):
        make_game("dracula", reduced="nope")


def test_information_state_view_is_the_default_information_state() -> None:
    game = make_game("kuhn-poker")
    state = game.new_initial_state().apply(0).apply(2).apply(1)
    assert state.view_string(0, INFORMATION_STATE) == state.information_state_string(0)


# -- Dracula's pins: what the seat knows rules out, and nothing else ----------------------------
def _kept_by_pins(game: Any, state: GameState, seat: int, ids: tuple[int, ...]) -> bool:
    """Whether the pins of ``seat`` at ``state`` keep every step of the history ``ids``."""
    from ruleproof.model.dracula.resample import allowed_for

    allowed = allowed_for(game, state, seat)
    current = game.from_model(state.base, state.base_moves)
    for depth, a in enumerate(ids):
        actor = current.current_player()
        if actor != seat:
            if actor == CHANCE:
                options = [(o, float(p)) for o, p in current.chance_outcomes()]
            else:
                options = [(o, 1.0) for o in current.legal_actions()]
            if len(options) > 1 and a not in {o for o, _ in allowed(depth, current, options)}:
                return False
        current = current.apply(a)
    return True


def test_dracula_pins_keep_every_consistent_history_of_reduced_games() -> None:
    """On reduced set-ups every consistent history is enumerated: the pins (built from what
    the seat knows) must keep each of them, step by step."""
    checked = 0
    for reduced in ("dr-1x2", "dr-1x4"):
        game = make_game("dracula", reduced=reduced, max_moves=30)
        for state in _decision_states(game, range(6))[::6]:
            for seat in (0, 1):
                found = consistent_histories(state, seat, limit=400)
                for ids, _ in found:
                    assert _kept_by_pins(game, state, seat, ids), (reduced, seat, ids)
                    checked += 1
    assert checked > 40


def test_dracula_pins_keep_the_true_history_of_full_games() -> None:
    """On the full board the true history is consistent with every seat's information
    state: the pins must keep it at every late state of random games, for both seats."""
    game = make_game("dracula")
    checked = 0
    for state in _decision_states(game, range(5))[::9]:
        if len(state.history()) < 40:
            continue
        for seat in (0, 1):
            assert _kept_by_pins(game, state, seat, tuple(state.history())), (seat, checked)
            checked += 1
    assert checked > 10


def test_full_dracula_resamples_late_in_the_game() -> None:
    """Late in full Dracula games (meetings, gifts, returns to hand) a draw is found and keeps
    the seat's information state (the walk used to give up there)."""
    game = make_game("dracula")
    rng = random.Random(3)
    drawn = 0
    for state in _decision_states(game, range(7, 10))[::11]:
        if len(state.history()) < 60:
            continue
        seat = state.current_player()
        other = state.resample(seat, rng)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        drawn += 1
    assert drawn >= 5
