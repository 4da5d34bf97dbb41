"""The action-card cycle of Dracula (dracula-en:cards.cycle) is reached in random play, in both
of its stages, and every invariant holds there."""

from __future__ import annotations

import itertools

from ruleproof.model.dracula.observe import play_random
from ruleproof.properties.dracula.invariants import violations


def test_set_aside_cards_and_reshuffle_are_both_reached() -> None:
    took_up = reshuffled = 0
    for seed in range(60):
        states = play_random(seed, 600)
        for before, after in itertools.pairwise(states):
            new_lines = [event.full for event in after.log[len(before.log):]]
            if any("takes up the five set-aside action cards" in line for line in new_lines):
                took_up += 1
                assert not violations(after)
            if any("shuffles all action cards and draws five" in line for line in new_lines):
                reshuffled += 1
                assert not violations(after)
        if took_up and reshuffled:
            break
    assert took_up > 0, "the five set-aside cards were never taken up"
    assert reshuffled > 0, "the action cards were never reshuffled"
