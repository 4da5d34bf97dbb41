"""Short witnesses (issue #11, item 5): delta debugging shrinks set-up and actions together.

A long failing game of a mutant that needs a long game is found by seeded random play (no
shrinking at all), then shrunk by the harness's delta debugging within a few seconds: the
witness must come down to at most 40 actions, show the same divergence (kind and clause), use a
deal of the rule set, and its saved trace must replay to that divergence (exit 1).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
import typer
from reference_engines import load_engine
from typer.testing import CliRunner

from ruleproof.properties.conformance.differential import (
    ConformResult,
    Played,
    _ddmin,
    _Holder,
    conform,
    play,
    trace_text,
)
from ruleproof.properties.conformance.engine import Engine, EngineFactory, MessageEngine
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.shrink import (
    fit,
    hidden_deal,
    intents_of,
    reach,
    same_failure,
)
from ruleproof.properties.conformance.trace import read_trace

DAWN_UNDER = model_of("dawn-under")
DRACULA = model_of("dracula")

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "examples" / "engines" / "dawn_under_ref.py"


ref = load_engine("dawn_under_ref.py")


def in_process(mutant: str) -> EngineFactory:
    def make() -> Engine:
        return MessageEngine(ref.DawnUnderEngine(mutant).handle)
    return make


def _app() -> typer.Typer:
    from ruleproof.cli import app
    return app


def long_witness(mutant: str, players: int, options: dict[str, str], first: int = 0,
                 longer_than: int = 40) -> Played:
    """The first failing game longer than ``longer_than`` actions of seeded random play
    (random seeds ``first``, ``first + 1``, ...; the deal of the same seed)."""
    engine = in_process(mutant)()
    for k in range(first, first + 200):
        rng = random.Random(k)
        played = play(DAWN_UNDER, engine, players, options, k, rng.randrange, 400)
        if played.divergence is not None and len(played.actions) > longer_than:
            return played
    raise AssertionError(f"{mutant}: no failing game longer than {longer_than} actions")


BUDGET = 15.0
"""Seconds of shrinking (the command's default is half of --budget; CI's machine is loaded)."""

LONG_GAMES = {  # mutant -> (players, preset, first seed tried: seeds before it do not fail)
    "gift-on-fourth-stake": (3, "du-en", 0),
    "own-garlic-one-gift": (3, "du-en", 0),
    "stake-ends-plague": (3, "du-en", 0),
}


@pytest.mark.parametrize("mutant", sorted(LONG_GAMES))
def test_long_witness_shrinks_to_at_most_40_actions_and_replays(mutant: str,
                                                                tmp_path: Path) -> None:
    players, preset, first = LONG_GAMES[mutant]
    found = long_witness(mutant, players, {"preset": preset}, first)
    # one game of the engine, timed under the machine's present load: the shrink may overrun
    # its budget by the candidate game in progress when the budget ends, not by more
    probe = time.monotonic()
    play(DAWN_UNDER, in_process(mutant)(), players, {"preset": preset}, found.seed,
         random.Random(found.seed).randrange, 400)
    probe = time.monotonic() - probe
    holder = _Holder(in_process(mutant))
    began = time.monotonic()
    try:
        shrunk = _ddmin(DAWN_UNDER, holder, found, 400, began + BUDGET, {preset: (3, 4, 5, 6)})
    finally:
        holder.reset()
    took = time.monotonic() - began
    assert took < BUDGET + 1.0 + 3 * probe, (took, probe)  # the shrink keeps its budget
    assert len(shrunk.actions) <= 40, (len(found.actions), len(shrunk.actions))
    assert same_failure(shrunk.divergence, found.divergence)
    DAWN_UNDER.start(shrunk.players, shrunk.options, None, shrunk.setup)  # a legal deal
    result = ConformResult("dawn-under", 1, len(shrunk.actions), 0.0, 0.0, shrunk,
                           dict(shrunk.options))
    text = trace_text(result, DAWN_UNDER)
    assert text is not None
    path = tmp_path / "witness.jsonl"
    path.write_text(text, encoding="utf-8")
    cli = CliRunner().invoke(_app(), ["replay", "--json", str(path)])
    assert cli.exit_code == 1, cli.output
    assert found.divergence is not None
    again = json.loads(cli.output)
    assert found.divergence.kind in cli.output and found.divergence.clauses[0] in cli.output, again


def test_fitting_keeps_a_legal_deal_and_what_each_action_met() -> None:
    # Remove the first turn of a long game: the fitted game is legal on the model from a deal
    # of the rule set (the same components), and the openings that stay meet what they met.
    found = long_witness("own-garlic-one-gift", 3, {"preset": "du-en"})
    intents = intents_of(DAWN_UNDER, found)
    first_turn = next(i for i, x in enumerate(intents) if x.turn != intents[0].turn)
    fitted = fit(DAWN_UNDER, found.players, found.options, found.setup,
                 intents[first_turn:], len(intents))
    assert fitted is not None and fitted.actions
    assert sorted(map(str, fitted.setup["lids"])) == sorted(map(str, found.setup["lids"]))
    assert fitted.setup["lids"] != found.setup["lids"]  # unseen lids were exchanged
    state = DAWN_UNDER.start(fitted.players, fitted.options, None, fitted.setup)
    for action in fitted.actions:
        state = DAWN_UNDER.apply(state, action).state  # IllegalAction would fail the test


DRACULA_REF = ROOT / "examples" / "engines" / "dracula_ref.py"


dracula_ref = load_engine("dracula_ref.py")

DRACULA_LONG = {"whisper-ignored": 6}  # mutant -> first seed tried (seeds before: no failure)


@pytest.mark.parametrize("mutant", sorted(DRACULA_LONG))
def test_long_dracula_witness_shrinks_to_at_most_40_actions_and_replays(
        mutant: str, tmp_path: Path) -> None:
    # The 24 set-up actions (secret choices, deal) stay; a special action's misuse is shown
    # in the first turns under a deal that puts the card in hand.
    def make() -> Engine:
        return MessageEngine(dracula_ref.DraculaEngine(mutant).handle)

    engine = make()
    found = None
    for k in range(DRACULA_LONG[mutant], DRACULA_LONG[mutant] + 100):
        rng = random.Random(k)
        played = play(DRACULA, engine, 2, {}, k, rng.randrange, 1000)
        if played.divergence is not None:
            found = played
            break
    assert found is not None and found.divergence is not None and len(found.actions) > 40
    holder = _Holder(make)
    began = time.monotonic()
    try:
        shrunk = _ddmin(DRACULA, holder, found, 1000, began + 6.0, {None: (2,)})
    finally:
        holder.reset()
    assert time.monotonic() - began < 6.0 + 2.0
    assert len(shrunk.actions) <= 40, (len(found.actions), len(shrunk.actions))
    assert same_failure(shrunk.divergence, found.divergence)
    result = ConformResult("dracula", 1, len(shrunk.actions), 0.0, 0.0, shrunk, {})
    text = trace_text(result, DRACULA)
    assert text is not None
    path = tmp_path / "witness.jsonl"
    path.write_text(text, encoding="utf-8")
    cli = CliRunner().invoke(_app(), ["replay", "--json", str(path)])
    assert cli.exit_code == 1, cli.output
    assert found.divergence.clauses[0] in cli.output


def test_a_fight_in_the_tenth_turn_is_reached_in_the_first_and_still_fails() -> None:
    # inspiration-fights: the saved witness (114 actions) fights with Inspiration in Van
    # Helsing's tenth turn, after a reshuffle. The witness's set-up and first turn under a deal
    # with Inspiration in hand, then the shortest way the model finds to a look at an
    # opponent's card and the fight with Inspiration (shrink.reach): a game of at most 40
    # actions on which the mutant fails the same way, and delta debugging finds it within a
    # few seconds.
    mutant = "inspiration-fights"
    trace = read_trace(ROOT / "spec" / "dracula" / "traces" / f"dracula-mutant-{mutant}.jsonl")
    setup = trace.header.setup
    assert setup is not None

    def make() -> Engine:
        return MessageEngine(dracula_ref.DraculaEngine(mutant).handle)

    found = play(DRACULA, make(), 2, trace.header.options, 0, lambda n: 0, 1000,
                 script=[st.action for st in trace.steps], setup=setup)
    assert found.divergence is not None and len(found.actions) > 100
    intents = intents_of(DRACULA, found)
    first = next(i for i, x in enumerate(intents) if x.turn != intents[0].turn)
    last = next(i for i in range(len(intents) - 1, -1, -1) if intents[i].turn != intents[-1].turn)
    hidden = hidden_deal(DRACULA)
    assert hidden is not None
    dealt = hidden.setup_for(found.setup, [*intents[:first], *intents[last + 1:]])
    assert dealt is not None and "inspiration" in dealt["current"]["van-helsing"]
    assert "inspiration" not in found.setup["current"]["van-helsing"]
    assert reach(DRACULA, 2, found.options, found.setup, intents[:first], intents[last + 1:],
                 40) is None  # with the witness's deal only after the reshuffle
    fitted = reach(DRACULA, 2, found.options, dealt, intents[:first], intents[last + 1:], 40)
    assert fitted is not None and len(fitted.actions) <= 40
    assert fitted.actions[-1] == found.actions[-1][1] == "play inspiration special"
    state = DRACULA.start(2, fitted.options, None, fitted.setup)
    cited: set[str] = set()
    for action in fitted.actions:
        stepped = DRACULA.apply(state, action)  # IllegalAction would fail the test
        state = stepped.state
        cited |= set(stepped.clauses)
    assert "dracula-en:look.opponent-card" in cited
    again = play(DRACULA, make(), 2, fitted.options, 0, lambda n: 0, 1000,
                 script=list(fitted.actions), setup=dict(fitted.setup))
    assert same_failure(again.divergence, found.divergence)
    holder = _Holder(make)
    began = time.monotonic()
    try:
        shrunk = _ddmin(DRACULA, holder, found, 1000, began + 5.0, {None: (2,)})
    finally:
        holder.reset()
    assert len(shrunk.actions) <= 40 and same_failure(shrunk.divergence, found.divergence)


def test_conform_keeps_the_whole_shrink_within_the_shrink_budget() -> None:
    # hypothesis's shrinking and delta debugging share --shrink-budget: the time after the
    # first divergence is at most the shrink budget, plus the confirming replay
    result = conform(DAWN_UNDER, in_process("single-vampire-two-ends"), budget=30.0,
                     shrink_budget=2.0, seed=0, options={"preset": "du-en"})
    assert result.found is not None and result.detection_seconds is not None
    assert result.seconds - result.detection_seconds < 2.0 + 1.5, (
        result.seconds, result.detection_seconds)
