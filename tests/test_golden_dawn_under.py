"""Replay the golden Dawn Under traces (tests/golden/, recorded by tests/golden_dawn_under.py):
every seeded random game must produce the same actions, events and states as when recorded."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest
from golden_dawn_under import (
    FULL,
    GOLDEN,
    RULE_SETS,
    config_of,
    fingerprint,
    play,
)

from ruleproof.model.dawn_under import new_game
from ruleproof.model.dawn_under.engine import apply, legal_actions, step


def _recorded() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(GOLDEN.read_text())["games"]
    return games


def test_golden_set_covers_every_rule_set_with_hundreds_of_games() -> None:
    games = _recorded()
    for name in RULE_SETS:
        mine = [g for g in games if g["set"] == name]
        assert len(mine) >= 200, name
        assert all(g["winner"] != "None" for g in mine), f"{name}: a game without a winner"
        assert sum(g["steps"] for g in mine) > 10_000, name


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_golden_games_replay_unchanged(rule_set: str) -> None:
    games = [g for g in _recorded() if g["set"] == rule_set]
    changed = []
    for g in games:
        digest, steps, winner = fingerprint(play(config_of(rule_set, g["players"]), g["seed"]))
        if (digest, steps, winner) != (g["sha256"], g["steps"], g["winner"]):
            changed.append(f"{g['players']}p seed {g['seed']}: {steps} steps (was {g['steps']}),"
                           f" winner {winner} (was {g['winner']})")
    assert not changed, f"{len(changed)} of {len(games)} games changed: " + "; ".join(changed[:5])


def test_full_traces_replay_line_by_line() -> None:
    """A few games are stored in full, so a change shows the first step that differs."""
    with gzip.open(FULL, "rt") as f:
        stored = [json.loads(line) for line in f if line.strip()]
    assert len(stored) >= len(RULE_SETS)
    for game in stored:
        now = list(play(config_of(game["set"], game["players"]), game["seed"]))
        for i, (old, new) in enumerate(zip(game["lines"], now, strict=False)):
            assert old == new, f"{game['set']} seed {game['seed']} step {i}:\n{old}\n{new}"
        assert len(now) == len(game["lines"])


def test_a_planted_change_is_caught() -> None:
    """Teeth: a game played with another rule reading does not match its record."""
    g = next(x for x in _recorded() if x["set"] == "du-en")
    other = next(n for n in RULE_SETS if n == "du-cs")
    digest, _, _ = fingerprint(play(config_of(other, g["players"]), g["seed"]))
    assert digest != g["sha256"]


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_apply_reaches_the_states_step_reaches(rule_set: str) -> None:
    """``apply`` skips building events (nobody reads them) and ``step`` does not: along the
    first recorded games of each rule set both give equal successors at every step (the golden
    traces themselves are replayed with ``step``)."""
    played = 0
    for g in [x for x in _recorded() if x["set"] == rule_set][:20]:
        config = config_of(rule_set, g["players"])
        rng = random.Random(g["seed"])
        state = new_game(config, g["seed"], start_player=g["seed"] % config.players)
        while legal := legal_actions(state):
            action = legal[rng.randrange(len(legal))]
            successor, _ = step(state, action)
            assert apply(state, action) == successor, f"seed {g['seed']}: {action}"
            state = successor
            played += 1
    assert played > 1000, f"{rule_set}: only {played} steps compared"
