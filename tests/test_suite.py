"""`ruleproof check` covers every rule set, and a bug that shows in only one of them fails it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under import game as du_game
from ruleproof.model.dawn_under.state import State
from ruleproof.properties.plugin import SHARED
from ruleproof.properties.report import Profile
from ruleproof.properties.suite import rule_sets, run_suite

TINY = Profile("tiny", games=3, max_steps=150, samples=1)


def test_the_default_selection_is_every_rule_set_of_every_game() -> None:
    names = [(rs.game, rs.name) for rs in rule_sets()]
    for expected in ("du-en", "du-cs", "2p", "du-en + gruft", "du-cs + gruft", SHARED):
        assert ("dawn-under", expected) in names
    dracula = [n for g, n in names if g == "dracula"]
    assert "default rules" in dracula and SHARED in dracula
    # every registered reading that changes play, besides the default rules
    assert {"barrier_adjacency=corner", "depths=known-own-only",
            "crucifix_exception=breath-of-night"} <= set(dracula)


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"preset": "du-cs"}, ["du-cs"]),
    ({"expansion": "gruft"}, ["du-en + gruft", "du-cs + gruft"]),
    ({"players": [2]}, ["2p"]),
    ({"game": "dracula"}, None),
])
def test_arguments_narrow_the_selection(kwargs: dict[str, object],
                                        expected: list[str] | None) -> None:
    chosen = rule_sets(**kwargs)  # type: ignore[arg-type]
    if expected is None:
        assert {rs.game for rs in chosen} == {"dracula"}
    else:
        assert [rs.name for rs in chosen if not rs.shared] == expected


def test_bad_selections_are_malformed_input() -> None:
    with pytest.raises(MalformedInput, match="3 to 6 players"):
        rule_sets(preset="du-en", players=[2])
    with pytest.raises(MalformedInput, match="2-player"):
        rule_sets(preset="2p", expansion="gruft")
    with pytest.raises(MalformedInput, match="dracula"):
        rule_sets(game="dracula", preset="du-cs")


def _plant(monkeypatch: pytest.MonkeyPatch, when: Callable[[State], bool]) -> None:
    """A bug in the transition that shows only where ``when`` holds: a stake appears on the
    path from nowhere (the stake conservation invariant must catch it)."""
    real: Callable[..., tuple[State, object]] = vars(du_game)["step"]

    def buggy(state: State, action: object) -> tuple[State, object]:
        new, events = real(state, action)
        if when(new):
            new = replace(new, stakes_path=new.stakes_path + 1)
        return new, events

    monkeypatch.setattr(du_game, "step", buggy)  # the game's transition on the interface


@pytest.mark.parametrize(("name", "when"), [
    ("2p", lambda s: s.config.players == 2),
    ("du-cs", lambda s: s.config.options.gift_trigger == "holding-three"
     and s.config.options.expansion == "none"),
    ("du-en + gruft", lambda s: s.config.options.expansion == "gruft"
     and s.config.options.gift_trigger != "holding-three"),
])
def test_a_bug_in_one_rule_set_fails_the_default_check_there(
        monkeypatch: pytest.MonkeyPatch, name: str, when: Callable[[State], bool]) -> None:
    _plant(monkeypatch, when)
    # the default selection's Dawn Under rule sets, random-game properties only (the rest of
    # the suite does not play the transition under test)
    selected = [rs for rs in rule_sets() if rs.game == "dawn-under" and not rs.shared]
    results = run_suite(selected, TINY, jobs=1, methods=("hypothesis",))
    failing = {r.rule_set.name for r in results if r.failed}
    assert failing == {name}
    bad = next(r for r in results if r.rule_set.name == name)
    assert any("stake" in f.detail for f in bad.failed)


def test_check_reports_games_and_steps_per_rule_set() -> None:
    result = CliRunner().invoke(app, ["check", "dawn-under", "--preset", "2p", "--profile", "ci",
                                      "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    row = next(r for r in data["rule_sets"] if r["rule_set"] == "2p")
    assert row["games"] > 0 and row["steps"] > row["games"] and row["failed"] == 0
    assert data["passed"] is True
