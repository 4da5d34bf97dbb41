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
from ruleproof.properties.plugin import SHARED, plugins
from ruleproof.properties.report import PROFILES, Profile
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
        # other 2-player games may take a player count too; Dawn Under's rule sets are these
        assert [rs.name for rs in chosen if not rs.shared and rs.game == "dawn-under"] == expected


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_check_reports_games_and_steps_per_rule_set() -> None:
    result = CliRunner().invoke(app, ["check", "dawn-under", "--preset", "2p", "--profile", "ci",
                                      "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    row = next(r for r in data["rule_sets"] if r["rule_set"] == "2p")
    assert row["games"] > 0 and row["steps"] > row["games"] and row["failed"] == 0
    assert data["passed"] is True


def test_rule_sets_skipped_for_one_reason_share_a_line() -> None:
    """The same property skipped for the same reason in several rule sets of a game is one
    line naming them all; another reason or another game is a line of its own."""
    import doctest

    from ruleproof.properties import suite
    from ruleproof.properties.plugin import RuleSet
    from ruleproof.properties.suite import RuleSetResult, Skipped, skipped_lines

    assert doctest.testmod(suite).failed == 0

    def result(game: str, name: str, *why: str) -> RuleSetResult:
        return RuleSetResult(RuleSet(game, name), "ci", (),
                             tuple(Skipped(f"p{i}", w) for i, w in enumerate(why)))

    lines = skipped_lines([result("g", "a", "x", "y"), result("h", "a", "x"),
                           result("g", "b", "x", "z"), result("g", "c")])
    assert lines == ["skipped for g a, b: p0: x", "skipped for g a: p1: y",
                     "skipped for h a: p0: x", "skipped for g b: p1: z"]
    every = skipped_lines([result("g", "a", "x"), result("g", "b", "x"), result("h", "a", "x"),
                           result("g", "shared by every rule set", "y")])
    assert every == ["skipped for g (every rule set): p0: x", "skipped for h a: p0: x",
                     "skipped for g shared by every rule set: p0: y"]
    assert skipped_lines([result("g", "c")]) == []


_TOY = '''
from dataclasses import replace
from pathlib import Path

from ruleproof.properties.dracula.plugin import PLUGIN as _DRACULA

# no sources and no data folder: another game's folder would not match the name "toy"
PLUGIN = replace(_DRACULA, name="toy", title="Toy", checks=None, capabilities={}, sources=(),
                 spec_folder=Path("/nonexistent-game-folder"))
'''


def test_the_generic_properties_come_from_the_capabilities_a_bare_game_is_skipped(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game registered with no checks hook and no capabilities still gets the game interface
    property; the symbolic layer and its own properties are skipped with the reason, and
    neither the contracts nor prove nor discovery invent anything for it."""
    from pathlib import Path

    from ruleproof.properties.contracts.checks import refinement_checks, shared_checks
    from ruleproof.properties.contracts.discovery import default_rule_sets
    from ruleproof.properties.contracts.games import sources
    from ruleproof.properties.plugin import ENV_PLUGINS, RuleSet
    from ruleproof.properties.suite import plan
    from ruleproof.properties.symbolic.prove import skipped, tasks

    assert isinstance(tmp_path, Path)
    (tmp_path / "toy_game_plugin.py").write_text(_TOY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, "toy_game_plugin:PLUGIN")
    rs = RuleSet("toy", "default rules", players=(2,))
    checks, not_applied = plan(rs)
    assert [c.name for c in checks] == [
        "the game interface keeps its obligations (ids, chance odds, returns, tensors)"]
    reasons = {s.name: s.reason for s in not_applied}
    assert reasons["the game's own properties"] == "toy's plugin gives none"
    assert reasons["symbolic layer (z3)"] == "toy has no symbolic capability"
    assert reasons["every invariant after every step (hypothesis machine)"] == \
        "toy has no invariants capability"
    assert refinement_checks(rs) == [] and shared_checks("toy") == []
    nothing = plan(RuleSet("toy", SHARED))[0]  # no property applies: it fails, never passes
    assert [c.name for c in nothing] == ["at least one property checks this rule set"]
    assert not nothing[0].run(PROFILES["ci"])[0]
    assert ("toy", "toy has no symbolic capability (its plugin record gives none)") in skipped()
    from ruleproof.properties.symbolic.prove import symbolic_of

    assert {t[0] for t in tasks()} == {n for n, p in plugins().items() if symbolic_of(p)}
    assert "toy" not in {t[0] for t in tasks()}
    with pytest.raises(MalformedInput, match="toy has no symbolic capability"):
        tasks("toy")
    with pytest.raises(MalformedInput, match="unknown game 'chess'; known games: "):
        tasks("chess")
    assert "dracula-en" in sources()
    searched = default_rule_sets()  # every game with the discovery capability names its own
    assert searched[:4] == ("du-en/4", "du-cs/4", "2p/2", "gruft/4")
    assert not any(rs.startswith("toy") for rs in searched)


def test_the_game_checks_hooks_return_only_their_own_properties() -> None:
    """The interface, symbolic and refinement properties are added by the suite, once."""
    from ruleproof.properties.plugin import plugin
    from ruleproof.properties.suite import plan

    for rs in rule_sets():
        hook = plugin(rs.game).checks
        assert hook is not None
        own = [c.name for c in hook(rs, None)[0]]
        assert not [n for n in own if n.startswith(("the game interface", "symbolic layer",
                                                    "every transition satisfies",
                                                    "endless games", "perfect recall"))], own
        names = [c.name for c in plan(rs)[0]]
        assert len(names) == len(set(names)), names


def test_check_progress_has_a_total_that_fills() -> None:
    """The bar's total comes before any work (``check`` read ``47/None`` before) and every
    property advances it once, so it fills."""
    selected = [rs for rs in rule_sets() if rs.game == "kuhn-poker"]
    totals: list[int] = []
    done: list[str] = []
    results = run_suite(selected, TINY, jobs=1, progress=done.append, on_total=totals.append)
    ran = sum(len(r.results) for r in results)
    assert ran > 0 and totals == [ran] and len(done) == ran
