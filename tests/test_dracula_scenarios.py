"""Dracula scenarios: every shipped scenario passes, witnesses differ, bad files are rejected."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from ruleproof import spec
from ruleproof.errors import MalformedInput
from ruleproof.model.dracula import DraculaRules
from ruleproof.properties.dracula.scenarios import run_scenario, scenario_dir, shipped_scenarios

SCENARIOS = shipped_scenarios()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenario_passes(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.detail
    assert result.method == "scenario"
    registry = spec.clause_registry("dracula-en")
    assert result.clauses and all(c in registry for c in result.clauses)


def test_scenarios_cover_every_ending_and_special() -> None:
    names = {p.stem for p in SCENARIOS}
    for needed in ("example-turn", "end-all-five", "end-hand-proof", "end-simultaneous",
                   "end-last-marker-battle", "end-last-marker-power", "end-last-marker-overpay",
                   "end-rescue-give", "end-perception"):
        assert needed in names
    cited: set[str] = set()
    for p in SCENARIOS:
        cited |= set(tomllib.loads(p.read_text(encoding="utf-8"))["clauses"])
    specials = {c.id for c in spec.clause_registry("dracula-en")
                if c.section in ("Van Helsing's Cards", "Dracula's Cards")}
    assert specials <= cited, sorted(specials - cited)
    for card in ("pulse", "roar", "eyes"):  # specials known only from the player aid
        assert any(card in p.read_text(encoding="utf-8") for p in SCENARIOS)


def test_ambiguity_register_is_complete_and_witnessed() -> None:
    data = tomllib.loads(spec.spec_path("dracula", "ambiguities.toml").read_text(encoding="utf-8"))
    options = {f.name for f in fields(DraculaRules)}
    registry = spec.clause_registry("dracula-en")
    ids = [a["id"] for a in data["ambiguity"]]
    assert "crucifix-exception" in ids
    for amb in data["ambiguity"]:
        assert amb["option"] in options
        assert all(c in registry for c in amb["clauses"])
        values = [r["value"] for r in amb["reading"]]
        assert len(values) >= 2 and amb["default"] in values
        assert str(getattr(DraculaRules(), amb["option"])).lower() == amb["default"]
        assert amb["why_default"].strip() and all(r["source"].strip() for r in amb["reading"])
        witnesses = [scenario_dir() / w for w in amb["witness"]]
        assert len(witnesses) == 2 and all(w.is_file() for w in witnesses)
        a, b = (tomllib.loads(w.read_text(encoding="utf-8")) for w in witnesses)
        # same moves, different option, different expected outcome
        assert a["actions"] == b["actions"]
        assert a.get("options", {}) != b.get("options", {})
        assert a.get("expect") != b.get("expect") or a.get("refused") != b.get("refused")
        assert run_scenario(witnesses[0]).passed and run_scenario(witnesses[1]).passed


def test_a_wrong_expectation_fails_with_detail(tmp_path: Path) -> None:
    src = (scenario_dir() / "end-all-five.toml").read_text(encoding="utf-8")
    p = tmp_path / "wrong.toml"
    p.write_text(src.replace('winner = "dracula"', 'winner = "van-helsing"'), encoding="utf-8")
    result = run_scenario(p)
    assert not result.passed and "winner" in result.detail


def test_wrong_expected_error_clause_fails(tmp_path: Path) -> None:
    src = (scenario_dir() / "rule-no-crossing.toml").read_text(encoding="utf-8")
    p = tmp_path / "wrong.toml"
    head, _, tail = src.rpartition('"dracula-en:pay.no-crossing"]')  # the [[refused]] clause
    p.write_text(head + '"dracula-en:move.minimum"]' + tail, encoding="utf-8")
    result = run_scenario(p)
    assert not result.passed and "dracula-en:pay.no-crossing" in result.detail


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"move b1"', '"jump b1"', "unknown action word"),
    ('"move b1"', '"move z9"', "unknown location"),
    ('[expect]', '[expect]\nsmell = "garlic"', "unknown fact"),
    ('[setup]', '[options]\ncrucifix_exception = "garlic"\n\n[setup]', "crucifix_exception"),
    ('board = [', 'bored = true\nboard = [', "unknown key"),
    ('game = "dracula"', 'game = "dawn-under"', "players"),
    ('[expect]', '[expect]\n"life.nobody" = 1', "not a player"),
    ('[expect]', '[expect]\n"board.e9" = ""', "not a location"),
])
def test_malformed_scenarios_raise_with_file_and_line(tmp_path: Path, old: str, new: str,
                                                      message: str) -> None:
    src = (scenario_dir() / "end-all-five.toml").read_text(encoding="utf-8")
    assert old in src
    p = tmp_path / "bad.toml"
    p.write_text(src.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(MalformedInput) as err:
        run_scenario(p)
    assert message in err.value.what
    assert err.value.file == str(p) and err.value.line is not None and err.value.col is not None


def test_toml_syntax_error_has_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text('game = "dracula"\ntitle = = "x"\n', encoding="utf-8")
    with pytest.raises(MalformedInput) as err:
        run_scenario(p)
    assert err.value.line is not None


def test_every_problem_of_a_dracula_set_up_is_collected(tmp_path: Path) -> None:
    src = (scenario_dir() / "end-all-five.toml").read_text(encoding="utf-8")
    assert "captured = {" in src
    bad = src.replace('"coffin1", "victim5"', '"coffinX", "victim5"').replace(
        "captured = {", 'life = { nobody = 2 }\nturned = "z9"\ncaptured = {')
    p = tmp_path / "bad.toml"
    p.write_text(bad, encoding="utf-8")
    with pytest.raises(MalformedInput) as err:
        run_scenario(p)
    assert "coffinX" in err.value.what and len(err.value.more) == 2, err.value.more
