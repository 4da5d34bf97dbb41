"""The play algorithms (hypothesis machine, statistics, endless games, perfect recall) are written
once over the game interface and the plugin record: they run on a game from outside the shipped
folders (``tests/toy_game.py``, registered through ``RULEPROOF_PLUGINS``) by its registry name
alone, refuse an unknown name naming the known games, and say which capability a game lacks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.properties.endless import find_cycle, game_lengths
from ruleproof.properties.machine import run_machine
from ruleproof.properties.play import MachineSettings, model_mutant
from ruleproof.properties.plugin import ENV_PLUGINS, RuleSet, Unsupported, plugin
from ruleproof.properties.recall import information_state, recall_violation
from ruleproof.properties.report import Tally
from ruleproof.properties.stats import run, runner


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game's registry name, with the toy registered for the test."""
    monkeypatch.setenv(ENV_PLUGINS, "toy_game:PLUGIN")
    return "toy-nim"


def test_the_machine_plays_a_registered_game_by_name(toy: str) -> None:
    tally = Tally()
    ok, detail = run_machine(toy, {"stones": 9}, 10, 30, tally=tally)
    assert ok, detail
    assert tally.games == 10 and tally.finished > 0 and tally.steps > 10


def test_the_machine_catches_a_planted_transition_with_a_readable_log(toy: str) -> None:
    def takes_three(m: Any, action: Any) -> Any:
        return replace(m, pile=m.pile - 3, to_move=1 - m.to_move)

    ok, detail = run_machine(toy, {}, 10, 30, apply=model_mutant(takes_three))
    assert not ok
    lines = detail.splitlines()
    assert lines[0].startswith("new game, seed ")  # the generic log: set-up, each action
    assert any(line.startswith("P1: take ") for line in lines)
    assert lines[-1].startswith("transition property violated: take: 3 stones taken")


def test_machine_settings_come_from_the_plugin(toy: str) -> None:
    base = plugin(toy)
    restarting = replace(base, capabilities={**base.capabilities,
                                             "machine": MachineSettings(after_end="restart")})
    stopping, again = Tally(), Tally()
    assert run_machine(base, {"stones": 3}, 4, 40, tally=stopping)[0]
    assert run_machine(restarting, {"stones": 3}, 4, 40, tally=again)[0]
    assert stopping.games == 4 and again.games > 4  # finished games are followed by new ones


def test_a_game_without_invariants_is_refused_with_the_reason(toy: str) -> None:
    bare = replace(plugin(toy), capabilities={})
    with pytest.raises(Unsupported, match=r"no invariants capability.*hypothesis machine"):
        run_machine(bare, {}, 2, 10)


def test_unknown_games_and_parameters_are_refused() -> None:
    with pytest.raises(MalformedInput, match=r"unknown game 'chess'; known games: .*dracula"):
        run_machine("chess", {}, 2, 10)
    with pytest.raises(MalformedInput, match="unknown game 'chess'; known games"):
        runner("chess", {})
    with pytest.raises(MalformedInput, match=r"unknown parameter.*knights"):
        run_machine("dracula", {"knights": 2}, 2, 10)


def test_statistics_of_a_game_without_a_stats_capability(toy: str) -> None:
    st = run(runner(toy, {"stones": 6}), 40)
    assert st.seats == ("P1", "P2") and st.finished == 40
    assert st.label == "toy-nim stones=6" and st.endings == {"won": 40}
    res = CliRunner().invoke(app, ["stats", toy, "--games", "6", "--json"])
    assert res.exit_code == 0, res.output
    assert '"rule_set": "toy-nim"' in res.output


def test_endless_games_and_recall_of_a_game_from_the_registry(toy: str) -> None:
    rs = RuleSet(toy, "toy", players=(2,))
    assert find_cycle(rs, games=2) is None  # the pile only shrinks: no loop
    lengths = game_lengths(rs, 6, 50)
    assert lengths.capped == 0 and 4 <= lengths.shortest <= lengths.longest <= 8
    found, compared = recall_violation(rs, information_state, 2, every=2)
    assert found is None and compared > 0
