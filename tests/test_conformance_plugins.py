"""The conformance harness is written once: every game reaches it through its plugin record's
``conformance`` capability (and, optionally, ``shrink``); names it does not know are refused,
and game-specific command-line flags are refused from the game's parameter model."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ruleproof.cli.conformance import register
from ruleproof.cli.interop import register as register_interop
from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance import games
from ruleproof.properties.conformance.games import CAPABILITY, model_of
from ruleproof.properties.conformance.replay import replay
from ruleproof.properties.conformance.shrink import hidden_deal
from ruleproof.properties.conformance.trace import dump_lines, header_object, parse_trace
from ruleproof.properties.plugin import Unsupported, plugin, plugins

runner = CliRunner()
CONFORMING = sorted(name for name, p in plugins().items() if p.capability(CAPABILITY))


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, no_args_is_help=True)
    register(app)
    register_interop(app)
    return app


def test_every_shipped_game_has_the_conformance_capability() -> None:
    assert set(CONFORMING) == set(plugins())
    for name in CONFORMING:
        model = model_of(name)
        assert model.name == name and model.plugin is plugin(name)
        assert hidden_deal(model) is plugin(name).capability("shrink")


def test_an_unknown_game_is_refused_naming_the_known_games() -> None:
    with pytest.raises(MalformedInput, match="unknown game 'chess'; known games: ") as caught:
        model_of("chess")
    assert all(name in caught.value.what for name in plugins())


def test_a_game_without_the_capability_is_refused_with_the_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bare = replace(plugin(CONFORMING[0]), name="bare-game", capabilities={})
    monkeypatch.setattr(games, "plugin", lambda name: bare)
    with pytest.raises(Unsupported, match="bare-game has no conformance capability"):
        model_of("bare-game")


@pytest.mark.parametrize("name", CONFORMING)
def test_random_games_through_the_interface_report_typed_fields_and_replay(name: str) -> None:
    """Generic over the registry: a game played through the harness's model (the interface's
    legal actions and steps, the capability's JSON) writes a trace that replays as conforming,
    and every reported field has the type the game declares."""
    model = model_of(name)
    players = model.player_counts({})[0]
    setup = model.setup_of(players, {}, 3)
    state = model.start(players, {}, None, setup)
    rng = random.Random(3)
    lines: list[dict[str, object]] = [header_object(name, players, {}, setup=setup)]
    for number in range(1, 60):
        public = model.public_state(state)
        assert set(public) <= model.state_fields
        assert all(model.check_field(k, v) is None for k, v in public.items())
        for who in model.observed_players:
            seen = model.observation(state, who)
            assert all(model.check_field(k, v) is None for k, v in seen.items() if k != "player")
        legal = model.legal(state)
        if not legal:
            break
        assert sorted(model.choosable(state)) == sorted(legal)
        assert not set(model.probe_actions(state)) & set(legal)
        action = legal[rng.randrange(len(legal))]
        assert model.check_action(action) is None
        line: dict[str, object] = {"step": number, "action": action}
        if model.to_move(state) is not None:
            line["player"] = model.to_move(state)
        state = model.apply(state, action).state
        lines.append({**line, "state": model.public_state(state), "legal": model.legal(state)})
    result = replay(parse_trace(dump_lines(lines)))
    assert result.conforms, result.divergence


@pytest.mark.parametrize(("args", "message"), [
    (["conform", "--engine", "true", "--game", "chess"], "unknown game 'chess'; known games"),
    (["conform", "--engine", "true", "--game", "dracula", "--preset", "du-cs"],
     "names no preset"),
    (["conform-framework", "--openspiel", "x:GAME", "--game", "dracula", "--expansion", "gruft"],
     "dracula has no parameter expansion (--expansion); its parameters: players, preset"),
    (["conform-framework", "--openspiel", "x:GAME", "--game", "chess"], "unknown game 'chess'"),
])
def test_game_specific_flags_are_refused_from_the_parameter_model(args: list[str], message: str,
                                                                 tmp_path: Path) -> None:
    result = runner.invoke(_app(), [*args, "--budget", "1", "--out", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
