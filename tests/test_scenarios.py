"""Shipped scenarios pass; malformed scenario files are reported with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.properties.dawn_under.checks import shipped_scenarios
from ruleproof.properties.dawn_under.scenarios import load_scenario, run_scenario


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_shipped_scenario_passes(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.detail


def test_rulebook_plague_example_is_shipped() -> None:
    names = {p.stem for p in shipped_scenarios()}
    assert "ch4-rulebook-rat-plague-example" in names
    assert len(names) >= 8


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    src = next(p for p in shipped_scenarios() if p.stem == "end-win-by-placing")
    path = tmp_path / "wrong.toml"
    path.write_text(src.read_text().replace('"winner" = 0', '"winner" = 1'))
    result = run_scenario(path)
    assert not result.passed and "expected winner = 1, got 0" in result.detail


@pytest.mark.parametrize(("text", "message", "line"), [
    ('game = "chess"\nplayers = 3\n', "game must be 'dawn-under'", 1),
    ('game = "dawn-under"\nplayers = 7\n', "3 to 6 players", 2),
    ('game = "dawn-under"\nplayers = 3\nactions = [\n  "open 1",\n  "opne 2",\n]\n',
     "unknown action 'opne 2'", 5),
    ('game = "dawn-under"\nplayers = 3\n[options]\nafter_match = "never"\n',
     "not one of may-continue, turn-ends", 4),
    ('game = "dawn-under"\nplayers = 3\nbogus = 1\n', "unknown key 'bogus'", 3),
    ('game = "dawn-under"\nplayers = 3\n[setup]\nrows = [["red", "mauve"], ["red"], ["red"]]\n',
     "'mauve' is not a colour", None),
    ('game = "dawn-under"\nplayers = 3 3\n', "invalid TOML", 2),
])
def test_malformed_scenarios(tmp_path: Path, text: str, message: str, line: int | None) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(MalformedInput) as info:
        load_scenario(path)
    assert message in info.value.what
    if line is not None:
        assert info.value.line == line
