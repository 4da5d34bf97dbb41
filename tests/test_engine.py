"""The executable Dawn Under model: legality, transitions, chance, observations."""

from __future__ import annotations

import doctest
import random
from dataclasses import replace

import pytest

import ruleproof.model.dawn_under
from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under import (
    RAT,
    Config,
    End,
    OpenGrave,
    Phase,
    PlaceVampire,
    Setup,
    Stop,
    apply,
    deal,
    initial_state,
    legal_actions,
    make_config,
    new_game,
    observation,
    refill,
)
from ruleproof.model.dawn_under.render import play_random
from ruleproof.model.dawn_under.state import Vampire
from ruleproof.properties.dawn_under.sampling import resample_hidden


def test_doctests() -> None:
    result = doctest.testmod(ruleproof.model.dawn_under)
    assert result.attempted > 0 and result.failed == 0


def test_deal_follows_preparation(config: Config) -> None:
    setup = deal(config, random.Random(5))
    assert RAT not in setup.reserve and len(setup.reserve) == 6
    assert setup.lids.count(RAT) == 6 and len(setup.lids) == 60
    assert {len(r) for r in setup.rows} == {60 // config.players}
    state = initial_state(config, setup)
    for row in state.rows:
        assert [v.face_up for v in row[:2] + row[-2:]] == [True] * 4
        assert not any(v.face_up for v in row[2:-2])


def test_player_counts_outside_the_rules_are_malformed() -> None:
    for n in (2, 7):
        with pytest.raises(MalformedInput, match="3 to 6 players"):
            make_config(n)


def test_explicit_setup_is_validated() -> None:
    config = make_config(3)
    with pytest.raises(MalformedInput, match="reserve stack cannot hold a rat"):
        initial_state(config, Setup(tuple([0] * 60), (RAT,), ((0,), (1,), (2,))))


def test_illegal_action_names_clause_and_leaves_state_intact() -> None:
    state = new_game(make_config(4), 3)
    before = state
    with pytest.raises(IllegalAction) as info:
        apply(state, Stop())
    assert "du-en:ch1.open" in info.value.clauses
    with pytest.raises(IllegalAction) as info:
        apply(state, PlaceVampire(0, End.LEFT))
    assert info.value.clauses
    assert state == before


def test_plague_only_allows_neighbours() -> None:
    config = make_config(3)
    lids = [0] * 60
    lids[0] = RAT
    state = initial_state(config, Setup(tuple(lids), (1,) * 6, ((1,) * 20, (2,) * 20, (3,) * 20)))
    state = apply(state, OpenGrave(0))
    assert state.plague is not None and state.plague.origin == 0
    assert {a.grave for a in legal_actions(state) if isinstance(a, OpenGrave)} == \
        set(config.board.neighbours[0])
    with pytest.raises(IllegalAction) as info:
        apply(state, OpenGrave(30))
    assert "du-en:ch4.only-neighbours" in info.value.clauses


def test_refill_rules() -> None:
    config = make_config(3)
    row = tuple(Vampire(c, i in (0, 1, 5, 6)) for i, c in enumerate(range(7)))
    shorter = refill(row[1:], config)
    assert [v.face_up for v in shorter] == [True, True, False, False, True, True]
    assert all(v.face_up for v in refill(row[:4], config))
    assert [v.colour for v in shorter] == [1, 2, 3, 4, 5, 6]  # order never changes


def test_observation_has_perfect_recall_of_public_reveals() -> None:
    state = new_game(make_config(3), 11)
    grave = next(g for g, lid in enumerate(state.lids) if lid not in (RAT, None))
    assert observation(state, 1).lids[grave] is None
    while state.phase is not Phase.OVER:
        state = apply(state, OpenGrave(grave) if state.phase is Phase.OPEN and OpenGrave(grave)
                      in legal_actions(state) else legal_actions(state)[-1])
        if state.turn_player != 0:
            break
    for p in range(3):
        assert observation(state, p).lids[grave] == state.lids[grave]


def test_observation_hides_face_down_vampires_and_unseen_lids() -> None:
    state = new_game(make_config(4), 2)
    obs = observation(state, 0)
    assert obs.rows[0][2] is None and obs.rows[0][0] == state.rows[0][0].colour
    assert all(lid is None for lid in obs.lids)
    other = resample_hidden(state, random.Random(1))
    assert observation(other, 0) == obs
    assert other != state  # something hidden did change


def test_random_games_reach_a_winner(config: Config) -> None:
    played = play_random(config, seed=config.players)
    assert played.final.phase is Phase.OVER
    assert played.final.winner is not None
    assert played.final.rows[played.final.winner] == ()


def test_states_are_immutable() -> None:
    state = new_game(make_config(3), 1)
    with pytest.raises(AttributeError):
        state.turn_player = 2  # type: ignore[misc]
    assert replace(state) == state


def test_refusal_reasons_name_players_as_the_rest_of_the_tool_does() -> None:
    """Players are P1..Pn everywhere a person reads (scenarios, logs, tables); a refusal in
    the hand-over said 'player 2 chooses a vampire' for P3 (ch3-garlic.toml's refusal)."""
    from pathlib import Path

    from typer.testing import CliRunner

    from ruleproof.cli import app

    scenario = Path(__file__).resolve().parents[1] / "spec/dawn_under/scenarios/ch3-garlic.toml"
    out = CliRunner().invoke(app, ["scenario", str(scenario), "-v"]).output
    line = next(x for x in out.splitlines() if "chooses a vampire to hand over" in x)
    assert line.startswith("P3:") and "expected: P3 chooses a vampire" in line, line
