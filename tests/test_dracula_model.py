"""The Dracula model: transitions, errors, observation, simulate, determinism."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model import CHANCE
from ruleproof.model.dracula import (
    DraculaRules,
    State,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    observation,
    resolve_chance,
    simulate,
    winner,
)
from ruleproof.model.dracula.engine import ChooseCard, Look, Move, PlayCard, Stop
from ruleproof.model.dracula.game import DraculaGame
from ruleproof.properties.dracula.invariants import violations

ROOT = Path(__file__).resolve().parents[1]


def _first_turn(seed: int = 2) -> State:
    s = new_game(seed)
    for card in ("coffin1", "coffin2", "vampire1", "vampire2", "vampire3", "amulet"):
        s = apply(s, ChooseCard(card))
    for card in ("victim1", "victim2", "hunter1", "hunter2", "hunter3", "crucifix"):
        s = apply(s, ChooseCard(card))
    assert current_player(s) == CHANCE
    return resolve_chance(s)


def test_new_game_is_deterministic_and_waits_for_secret_choice() -> None:
    a, b = new_game(11), new_game(11)
    assert a == b and hash(a) == hash(b)
    assert current_player(a) == 0
    assert all(isinstance(x, ChooseCard) for x in legal_actions(a))
    assert len(a.current[0]) == 5 and len(a.aside[0]) == 5
    assert new_game(12).current != a.current or new_game(13).current != a.current


def test_deal_puts_the_twelve_chosen_cards_on_the_board() -> None:
    s = _first_turn()
    assert sorted(c for c in s.board_cards if c) == sorted(
        ["coffin1", "coffin2", "vampire1", "vampire2", "vampire3", "amulet", "victim1",
         "victim2", "hunter1", "hunter2", "hunter3", "crucifix"])
    assert len(s.hand[0]) == 9 and len(s.hand[1]) == 9
    assert current_player(s) == 0 and s.turn == 1
    assert Look() not in legal_actions(s) and Stop() not in legal_actions(s)


def test_illegal_action_leaves_state_untouched_and_cites_clause() -> None:
    s = _first_turn()
    before = s
    with pytest.raises(IllegalAction) as err:
        apply(s, Move(5))  # b2 is diagonal from a1
    assert "dracula-en:move.orthogonal" in err.value.clauses
    assert s == before
    with pytest.raises(IllegalAction) as err:
        apply(s, PlayCard(s.current[0][0], False))
    assert "dracula-en:pay.end-of-move" in err.value.clauses
    with pytest.raises(IllegalAction) as err:
        apply(s, Stop())
    assert err.value.clauses == ("dracula-en:move.minimum",)


def test_random_games_end_with_a_winner_and_keep_invariants() -> None:
    import random
    finished = 0
    for seed in range(8):
        rng = random.Random(seed)
        s = new_game(seed)
        for _ in range(3000):
            if is_terminal(s):
                break
            if current_player(s) == CHANCE:
                s = resolve_chance(s)
                continue
            s = apply(s, rng.choice(legal_actions(s)))
            assert violations(s) == []
        if is_terminal(s):
            finished += 1
            assert winner(s) is not None and legal_actions(s) == ()
    assert finished == 8


def test_observation_hides_the_opponents_cards() -> None:
    s = _first_turn()
    d, h = observation(s, 0), observation(s, 1)
    assert d.own_hand == s.hand[0] and h.own_hand == s.hand[1]
    assert all(c is None for c in d.known)  # nobody looked yet
    text = "\n".join(d.log)
    assert "victim1" not in text and "hunter1" not in text  # VH's secret choice
    assert "secretly chooses coffin1" in text  # own choice, remembered
    assert "coffin1" not in "\n".join(h.log)


def test_observation_has_perfect_recall_of_looks() -> None:
    s = _first_turn()
    s = apply(s, Move(1))  # b1
    s = apply(s, Look())
    card = s.known[0][1]
    assert card is not None
    obs = observation(s, 0)
    assert obs.known[1] == card
    assert any("looks at b1" in line for line in obs.log)


def test_game_interface() -> None:
    game = DraculaGame()
    s = game.new_seeded_state(3)
    assert s.model == new_game(3)
    assert s.current_player() == 0
    assert not s.is_terminal()
    assert s.apply(s.legal_actions()[0]).model != s.model


def test_bad_rule_option_is_malformed_input() -> None:
    with pytest.raises(MalformedInput, match="crucifix_exception"):
        DraculaRules(crucifix_exception="garlic")


def test_simulate_labels_views_and_ends_with_result() -> None:
    hidden = simulate(5, False, 400)
    full = simulate(5, True, 400)
    assert all(line.startswith(("[Dracula] ", "[Van Helsing] ", "No winner")) for line in hidden)
    assert "wins" in hidden[-1] or hidden[-1].startswith("No winner")
    assert "wins" in full[-1] or full[-1].startswith("No winner")
    # Van Helsing never sees Dracula's secret choice in the limited view
    assert not any(line.startswith("[Van Helsing] Dracula secretly") for line in hidden)
    assert any(line.startswith("Dracula secretly chooses") for line in full)
    assert any(" is dealt face down to " in line and not line.startswith("a card") for line in full)


def test_simulate_is_identical_across_processes() -> None:
    code = ("from ruleproof.model.dracula import simulate; "
            "print('\\n'.join(simulate(21, False, 300)))")
    outs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=True, env={"PYTHONHASHSEED": str(h), "PATH": ""}
                           ).stdout for h in (1, 2)]
    assert outs[0] == outs[1]
    assert outs[0].strip().splitlines() == simulate(21, False, 300)
