"""The expansion "Frische Luft für die Gruft" (gruft-en) on top of Dawn Under."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.dawn_under import apply, legal_actions, make_config, new_game, parse_options
from ruleproof.model.dawn_under.engine import step
from ruleproof.model.dawn_under.gruft import (
    BatClaim,
    Believe,
    CountTo,
    Doubt,
    GiftTo,
    Gruft,
    GruftPhase,
    PlayBat,
    part,
)
from ruleproof.model.dawn_under.state import (
    End,
    OpenGrave,
    Options,
    Phase,
    PlaceVampire,
    State,
    option_value,
)
from ruleproof.properties.citations import model_citations
from ruleproof.properties.dawn_under import invariants as du_invariants
from ruleproof.properties.dawn_under.ambiguities import (
    configs_for,
    find_witness,
    register,
    replay_witness,
)
from ruleproof.properties.dawn_under.checks import checks, shipped_scenarios
from ruleproof.properties.dawn_under.invariants import Totals, transition_violations, violations
from ruleproof.properties.dawn_under.play import game_params
from ruleproof.properties.dawn_under.proofs import count_finds_empty_grave
from ruleproof.properties.dawn_under.scenarios import run_scenario
from ruleproof.properties.machine import run_machine
from ruleproof.spec import all_clause_ids


def gp(state: State) -> Gruft:
    """The expansion's part of ``state`` (which must have it)."""
    found = part(state)
    assert found is not None
    return found


def with_gruft(state: State, **changes: object) -> State:
    return replace(state, extension=replace(gp(state), **changes))  # type: ignore[arg-type]


GRUFT = parse_options({"expansion": "gruft"})
OTHER_READINGS = parse_options({"expansion": "gruft", "gruft_three": "in-a-row",
                                "gruft_garlic": "empty", "gruft_plague_open": "closed",
                                "gruft_count_choice": "empty-only",
                                "gruft_lost_place": "at-once"})


def gruft_scenarios() -> list[Path]:
    return [p for p in shipped_scenarios() if p.stem.startswith("gruft-")]


@pytest.mark.parametrize("path", gruft_scenarios(), ids=lambda p: p.stem)
def test_gruft_scenario_passes(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.detail


def test_scenarios_cover_every_bat_outcome_and_faq() -> None:
    covered = {c for p in gruft_scenarios() for c in _clauses(p)}
    for outcome in ("doubt-empty", "doubt-vampire", "doubt-garlic", "believed-empty",
                    "believed-vampire", "believed-garlic"):
        assert f"gruft-en:bats.{outcome}" in covered
    assert {"gruft-en:faq.rat-ignored", "gruft-en:faq.count-plague", "gruft-en:count.get-three",
            "gruft-en:count.occupied", "gruft-en:count.move"} <= covered


def _clauses(path: Path) -> tuple[str, ...]:
    from ruleproof.properties.dawn_under.scenarios import load_scenario

    return load_scenario(path).clauses


def test_every_gruft_clause_is_cited_by_the_model() -> None:
    gruft = {c for c in all_clause_ids() if c.startswith("gruft-en:")}
    assert len(gruft) >= 30
    missing = gruft - set(model_citations())
    assert not missing, sorted(missing)


def test_set_up_with_the_expansion() -> None:
    for n in (3, 4, 5, 6):
        state = new_game(make_config(n, GRUFT), 1)
        assert gp(state).bats == (2,) * n and gp(state).bats_out == (0,) * n  # their colours
        assert gp(state).post is None and gp(state).count_grave is None  # Count on the post
        assert not violations(state, Totals.of_manifest(state.config))
    with pytest.raises(MalformedInput, match="3-6 player"):
        make_config(2, GRUFT, preset="2p")


def test_base_game_unchanged_without_the_expansion() -> None:
    state = new_game(make_config(4), 3)
    assert part(state) is None and Options().expansion == "none"
    rng = random.Random(3)
    for _ in range(300):
        legal = legal_actions(state)
        assert not any(isinstance(a, PlayBat) for a in legal)
        state = apply(state, legal[rng.randrange(len(legal))])
        if state.phase is Phase.OVER:
            break
        assert state.extension is None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [GRUFT, OTHER_READINGS], ids=["default", "other-readings"])
def test_invariants_hold_in_random_expansion_games(players: int, options: Options) -> None:
    ok, detail = run_machine("dawn-under", game_params(players, options), 8, 400)
    assert ok, detail


def _game_state(seed: int, predicate: object, options: Options = GRUFT,
                players: int = 4) -> State:
    """Play seeded random games until ``predicate(state)`` holds."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        state = new_game(make_config(players, options), s)
        for _ in range(3000):
            if predicate(state):  # type: ignore[operator]
                return state
            if state.phase is Phase.OVER:
                break
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
    raise AssertionError("no such state reached")


def _rejects(state: State, action: object, clause_prefix: str = "gruft-en:") -> None:
    with pytest.raises(IllegalAction) as err:
        step(state, action)  # type: ignore[arg-type]
    assert any(c.startswith(clause_prefix) for c in err.value.clauses), err.value.clauses


def test_illegal_actions_are_rejected_with_gruft_clauses() -> None:
    start = new_game(make_config(4, GRUFT), 0)
    _rejects(start, Believe())
    _rejects(start, Doubt())
    _rejects(start, CountTo(3))
    _rejects(start, GiftTo(1))
    used = with_gruft(start, bats=(0, 2, 2, 2), bats_out=(2, 0, 0, 0))
    _rejects(used, PlayBat(3))  # gruft-en:bats.once
    kept = with_gruft(start, post=1, count_grave=7)
    _rejects(kept, OpenGrave(7))  # gruft-en:count.guard
    _rejects(kept, PlayBat(7))
    asked = step(start, PlayBat(5))[0]
    assert asked.phase is GruftPhase.BAT and legal_actions(asked) == (Believe(), Doubt())
    _rejects(asked, OpenGrave(6))
    _rejects(asked, PlaceVampire(5, End.LEFT))
    before = asked
    with pytest.raises(IllegalAction):
        step(asked, OpenGrave(6))
    assert asked == before  # states are immutable; nothing changed


def test_count_grave_is_never_opened_in_a_plague() -> None:
    state = _game_state(0, lambda s: s.plague is not None and gp(s).count_grave is not None
                        and gp(s).count_grave in s.config.board.neighbours[s.plague.origin]
                        and s.phase is Phase.OPEN)
    kept = gp(state).count_grave
    assert kept is not None
    assert OpenGrave(kept) not in legal_actions(state)
    _rejects(state, OpenGrave(kept))


def test_a_broken_expansion_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleproof.model.dawn_under.gruft import rules

    def no_bat_used(state: State, grave: int, events: list[object]) -> State:
        return with_gruft(replace(state, phase=GruftPhase.BAT),
                          bat=BatClaim(grave, state.turn_player))

    monkeypatch.setattr(rules, "_play_bat", no_bat_used)  # bats are never used up
    ok, detail = run_machine("dawn-under", game_params(4, GRUFT), 10, 200)
    assert not ok and "bats-conserved" in detail


def test_a_guard_breach_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleproof.model.dawn_under.gruft import EXPANSION

    def unguarded(state: State) -> frozenset[int]:  # forgets gruft-en:count.guard
        return frozenset(gp(state).open_graves) if state.plague is None else frozenset()

    monkeypatch.setattr(EXPANSION, "closed_graves", unguarded)
    kept = with_gruft(new_game(make_config(4, GRUFT), 0), post=2, count_grave=9)
    assert OpenGrave(9) in legal_actions(kept)  # the mutant lets player 0 open it
    after, events = step(kept, OpenGrave(9))
    broken = transition_violations(kept, events, after) + violations(
        after, Totals.of_manifest(kept.config))
    assert any("kept by the Count" in b or "Count's grave" in b for b in broken), broken


def test_transition_property_flags_opening_a_kept_grave() -> None:
    from ruleproof.model.dawn_under.state import Event, EventKind

    start = with_gruft(new_game(make_config(4, GRUFT), 0), post=2, count_grave=9)
    event = Event(EventKind.REVEAL, 0, 9, 1, "du-en:ch1.open")
    assert transition_violations(start, (event,), start)


def test_gruft_checks_include_the_count_proof() -> None:
    names = [c.name for c in checks([4], GRUFT)]
    assert "an empty grave for Count Rucola (count-based)" in names
    ok, detail = count_finds_empty_grave(make_config(4, GRUFT), 3, 6)
    assert ok and "proved" in detail


GRUFT_ENTRIES = [e for e in register() if e.id.startswith("gruft.")]


def test_register_has_the_expansion_entries() -> None:
    ids = {e.id for e in GRUFT_ENTRIES}
    assert {"gruft.plague-open-graves", "gruft.garlic-under-count",
            "gruft.three-vampires"} <= ids
    assert all(dict(e.base_options) == {"expansion": "gruft"} for e in GRUFT_ENTRIES)


@pytest.mark.parametrize("entry", GRUFT_ENTRIES, ids=lambda e: e.id)
def test_gruft_witness_replays(entry: object) -> None:
    ok, detail = replay_witness(entry)  # type: ignore[arg-type]
    assert ok, detail


def test_witness_search_uses_the_base_options() -> None:
    entry = next(e for e in GRUFT_ENTRIES if e.id == "gruft.plague-open-graves")
    a, b = configs_for(entry)
    assert a.options.expansion == b.options.expansion == "gruft"
    assert (option_value(a.options, "gruft_plague_open"),
            option_value(b.options, "gruft_plague_open")) == ("stay-open", "closed")
    assert find_witness(entry, 1, write=False)[0] in (True, False)  # runs with the base
    text = (Path(__file__).resolve().parents[1] / "spec" / str(entry.witness)).read_text()
    assert 'expansion = "gruft"' in text


def test_machine_module_checks_transitions() -> None:
    # the machine checks the invariants capability's transition properties after every step
    from ruleproof.properties.plugin import plugin

    assert plugin("dawn-under").capability("invariants") is du_invariants.INTERFACE_INVARIANTS
    assert "transition_violations" in du_invariants.InterfaceInvariants.__dict__


def test_expansion_example_in_formats_doc_runs(tmp_path: Path) -> None:
    import re

    docs = Path(__file__).resolve().parents[1] / "docs"
    text = (docs / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("## Scenario additions for the expansion gruft-en"):]
    example = re.search(r"```toml\n(.*?)```", section, re.S)
    assert example is not None
    path = tmp_path / "example.toml"
    path.write_text(example.group(1), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.detail


def test_expansion_set_up_and_a_whole_game_to_a_winner() -> None:
    """gruft-en:components.bats, gruft-en:components.count, gruft-en:prep.bats,
    gruft-en:prep.base, gruft-en:play.base, gruft-en:aim.win, gruft-en:end.win."""
    from ruleproof.model.dawn_under.render import play_random

    config = make_config(4, parse_options({"expansion": "gruft"}))
    start = new_game(config, 1)
    assert gp(start).bats == (2, 2, 2, 2) and gp(start).bats_out == (0, 0, 0, 0)
    assert gp(start).post is None and gp(start).count_grave is None
    played = play_random(config, 1)
    assert played.final.winner is not None and played.final.rows[played.final.winner] == ()
    assert any("COUNT RUCOLA" in line for line in played.log)
    assert any("puts a bat on grave" in line for line in played.log)
