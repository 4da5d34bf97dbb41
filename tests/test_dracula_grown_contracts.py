"""The three grown Dracula set-ups that broke clause contracts (#30): each witness replayed,
the narrowed contract silent or satisfied on it, and still biting on the case it was written for.

* dr-1x2-reinforcement: Van Helsing loses a battle with his last (and only) marker while holding
  a victim; from full life a gift brings no marker back (dracula-en:early-end.give-target).
* dr-1x2-deception: Deception takes Dracula's only coffin; a location is then left empty and the
  next step onto it lays a card first (dracula-en:pay.move-ends, dracula-en:empty.fill), and a
  later meeting shows hands when Van Helsing has no coffin left to find (dracula-en:end.proof).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ruleproof.properties.dracula.contracts.dracula_en import _proof, _rescue_first
from ruleproof.properties.dracula.contracts.sharpened import _step_goes_on
from ruleproof.properties.explore.games import ExploreGame, explore_game

REINFORCEMENT = ("chance wings-of-night; chance reinforcement; choose vampire1; choose hunter1; "
                 "chance vampire1; chance hunter1; move b1; no-reveal; look; play wings-of-night; "
                 "no-barrier; chance wings-of-night; move a1; look; play reinforcement")
DECEPTION_EMPTY = ("chance wings-of-night; chance deception; choose vampire1; choose victim1; "
                   "chance victim1; chance vampire1; move b1; no-reveal; stop; "
                   "play wings-of-night; no-barrier; chance wings-of-night; move a1; move b1; "
                   "no-reveal; look; play deception special; chance coffin1; no-barrier; "
                   "chance deception; move a1; look; play wings-of-night special; fly b1; "
                   "no-barrier; chance wings-of-night; move a1")
DECEPTION_MEET = ("chance wings-of-night; chance deception; choose vampire1; choose hunter1; "
                  "chance vampire1; chance hunter1; move b1; no-reveal; stop; "
                  "play wings-of-night special; fly a1; no-barrier; chance wings-of-night; "
                  "move a1; no-reveal; stop; play deception special; chance coffin1; "
                  "no-barrier; chance deception; move b1; look; play wings-of-night; "
                  "no-barrier; chance wings-of-night; move b1; reveal")


def _last_step(name: str, trace: str) -> tuple[ExploreGame, Any, Any, Any]:
    """Replay ``trace`` in the set-up ``name``; the state before the last action, the typed
    action and the state after it. Fails if an action is not legal where it is played."""
    game = explore_game(name, contracts=True)
    state = game.roots()[0].state
    actions = [x.strip() for x in trace.split(";")]
    for text in actions[:-1]:
        state = dict(game.successors(state))[text]
    after = dict(game.successors(state))[actions[-1]]
    return game, state, game.typed(actions[-1]), after


def test_grown_witnesses_break_no_contract_now() -> None:
    for name, trace in (("dr-1x2-reinforcement", REINFORCEMENT),
                        ("dr-1x2-deception", DECEPTION_EMPTY),
                        ("dr-1x2-deception", DECEPTION_MEET)):
        game, s, _, t = _last_step(name, trace)
        last = trace.split(";")[-1].strip()
        assert game.step_violations(s, last, t) == [], (name, last)


def test_rescue_first_exempts_full_life_but_bites_below_it() -> None:
    _, s, a, t = _last_step("dr-1x2-reinforcement", REINFORCEMENT)
    assert s.life[1] == s.board.life_markers == 1 and t.life[1] == 0 and t.winner == 0
    assert "victim1" in s.hand[1]
    assert _rescue_first(s, a, t) is None  # one marker, full life: a gift brings none back
    # the same step with two markers owned: one of them lost before, so a gift would bring
    # markers back, and taking the last one without the offer breaks the contract
    two = dataclasses.replace(s, board=dataclasses.replace(s.board, life_markers=2))
    assert _rescue_first(two, a, t) is False


def test_step_onto_an_empty_location_lays_a_card_and_the_move_goes_on() -> None:
    _, s, a, t = _last_step("dr-1x2-deception", DECEPTION_EMPTY)
    assert s.board_cards[a.to] is None and s.hand[1]
    assert [x.kind for x in t.agenda][:2] == ["place", "move"]
    assert _step_goes_on(s, a, t) is True
    # a step that lays the card and then ends the move is still caught
    ended = dataclasses.replace(t, agenda=t.agenda[:1])
    assert _step_goes_on(s, a, ended) is False


def test_proof_not_judged_when_every_opposing_target_is_taken_but_bites_otherwise() -> None:
    _, s, a, t = _last_step("dr-1x2-deception", DECEPTION_MEET)
    assert s.captured[1] == ("coffin1",) and s.hand == ((), ("victim1",))
    assert _proof(s, a, t) is None
    # as if coffin1 were still to find: only Dracula proves, by Van Helsing's hand
    open_coffin = dataclasses.replace(s, captured=((), ()))
    assert _proof(open_coffin, a, t) is False  # the model's winner here is Van Helsing
    assert _proof(open_coffin, a, dataclasses.replace(t, winner=0)) is True
