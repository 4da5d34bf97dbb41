"""Dracula checks pass on the ci profile, and each one catches a deliberately broken rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleproof.model.dracula import rules as R
from ruleproof.model.dracula.data import Board
from ruleproof.model.dracula.engine import Action, State, apply, legal_actions
from ruleproof.model.dracula.observe import play_random
from ruleproof.properties.dracula import checks
from ruleproof.properties.dracula.checks import (
    check_clauses,
    cited_ids,
    games_check,
    observation_check,
)
from ruleproof.properties.dracula.invariants import INVARIANTS, violations
from ruleproof.properties.dracula.z3proofs import prove_barrier_rule, prove_card_value_properties
from ruleproof.properties.machine import run_machine
from ruleproof.properties.play import model_mutant
from ruleproof.properties.report import PROFILES, Check, Profile
from ruleproof.spec import clause_registry

CI = PROFILES["ci"]
TINY = Profile("tiny", games=3, max_steps=120, samples=1)


@pytest.mark.parametrize("check", checks(), ids=lambda c: c.name)
def test_every_check_passes_on_ci(check: Check) -> None:
    result = check(CI)
    assert result.passed, result.detail
    assert result.examples > 0
    assert " " in result.name and not result.name.startswith("dracula.")  # a sentence, not an id


def test_cited_ids_exist_and_cover_the_registry() -> None:
    registry = {c.id for c in clause_registry("dracula-en")}
    cited = cited_ids()
    assert cited, "no clause ids found"
    assert set(cited) <= registry, sorted(set(cited) - registry)
    assert check_clauses(CI)[0]


def test_z3_barrier_proof_catches_a_predicate_without_connectivity() -> None:
    def broken(board: Board, edges: list[tuple[int, int]], reading: str) -> bool:
        es = list(edges)
        return not any(R.side_by_side(board, a, b, reading) for a in es for b in es)

    ok, n, detail = prove_barrier_rule("shared-location", predicate=broken)
    assert not ok and n == 3214
    assert "counterexample" in detail and "model says legal" in detail


def test_z3_barrier_proof_catches_the_wrong_side_by_side_reading() -> None:
    def other_reading(board: Board, edges: list[tuple[int, int]], reading: str) -> bool:
        return R.barriers_legal(board, edges, "corner")

    ok, _, detail = prove_barrier_rule("shared-location", predicate=other_reading)
    assert not ok and "rule says illegal" in detail


def test_z3_value_proof_catches_a_broken_battle_rule() -> None:
    def ties_win(mine: object, enemy: object) -> tuple[object, object]:
        return mine >= enemy, mine < enemy  # type: ignore[operator]

    ok, _, detail = prove_card_value_properties(ties_win)
    assert not ok
    assert detail.startswith("refuted:") and "counterexample" in detail


def _drops_a_card(s: State, a: Action) -> State:
    t = apply(s, a)
    if t.turn >= 2 and t.hand[1]:
        return replace(t, hand=(t.hand[0], t.hand[1][1:]))
    return t


def test_state_machine_catches_a_transition_that_loses_a_card() -> None:
    ok, detail = run_machine("dracula", {}, 5, 200, apply=model_mutant(_drops_a_card))
    assert not ok
    assert "conservation" in detail
    assert "new_game(seed=" in detail and "step " in detail  # readable trace


def test_replayed_games_catch_a_broken_life_rule() -> None:
    def overheal(seed: int, steps: int) -> list[State]:
        return [replace(s, life=(s.life[0] + 1, s.life[1])) for s in play_random(seed, steps)]

    ok, _, detail, *_ = games_check(["life-bounds"], INVARIANTS, overheal)(TINY)
    assert not ok and "life markers" in detail and "seed 0" in detail


def test_observation_check_catches_legal_actions_that_peek() -> None:
    def peeking(s: State) -> tuple[object, ...]:
        acts = legal_actions(s)
        here = s.pos[s.active]
        card = s.board_cards[here]
        if card is not None and int(s.cards.enc(card).owner) != s.active:
            return tuple(a for a in acts if str(a) != "look")
        return acts

    ok, _, detail, *_ = observation_check(peeking)(Profile("p", games=6, max_steps=200, samples=3))
    assert not ok and "different legal actions" in detail and "look" in detail


def test_invariants_flag_hand_made_bad_states() -> None:
    s = play_random(4, 60)[-1]
    assert violations(s) == []
    assert any(v.startswith("barriers") for v in violations(
        replace(s, barriers=((0, 1), (0, 4), None, None))))
    assert any(v.startswith("figures-on-board") for v in violations(replace(s, pos=(12, 0))))
    assert any(v.startswith("conservation") for v in violations(
        replace(s, pool=(*s.pool, s.hand[0][0])) if s.hand[0] else replace(s, pool=("amulet",))))


def test_random_card_values_are_admissible_and_differ() -> None:
    import random

    from ruleproof.model.dracula.data import Kind, Side, default_cards
    from ruleproof.properties.dracula.checks import random_card_values

    base = default_cards()
    cards = random_card_values(random.Random(3))
    assert cards != base
    for side in Side:
        acts = [cards.act(c) for c in cards.action_of(side)]
        assert sum(1 for a in acts if a.strength == 0) == 1
        assert all(1 <= a.move <= 9 for a in acts)
        assert all(1 <= cards.enc(c).strength <= 3 for c in cards.encounter_of(side)
                   if cards.enc(c).kind is Kind.ENEMY)
    assert sum(1 for a in cards.action if a.bar == "grey") == 2
    assert cards.act("resistance").move == 5 and cards.act("deception").move >= 4
