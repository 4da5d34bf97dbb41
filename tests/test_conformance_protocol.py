"""`ruleproof conform --protocol`: the messages of one game, recorded from the harness itself
(an engine author asked for Kuhn poker's: the docs described Dawn Under's only)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import Nonconformance
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.protocol import ModelAnswers, model_hello, protocol_sheet
from ruleproof.properties.plugin import plugins

GAMES = sorted(n for n, p in plugins().items() if p.capability("conformance") is not None)
ROOT = Path(__file__).resolve().parent.parent


def test_every_game_with_a_conformance_capability_is_covered() -> None:
    assert {"dawn-under", "dracula", "kuhn-poker", "liars-dice"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_the_sheet_holds_every_kind_of_message(name: str) -> None:
    model = model_of(name)
    sheet = protocol_sheet(model, steps=3)
    cmds = [rq["cmd"] for rq, _ in sheet.messages]
    assert cmds[0] == "hello" and cmds[1] == "new_game"
    assert {"state", "legal_actions", "apply"} <= set(cmds)
    assert ("observation" in cmds) == bool(model.observed_players)
    assert sheet.messages[0][1] == model_hello(model)
    accepted = [rq for rq, an in sheet.messages if rq["cmd"] == "apply" and an["ok"]]
    refused = [(rq, an) for rq, an in sheet.messages if rq["cmd"] == "apply" and not an["ok"]]
    last_legal = [an["actions"] for rq, an in sheet.messages if rq["cmd"] == "legal_actions"][-1]
    assert len(accepted) == 3 or (accepted and last_legal == [])  # three steps, or the end
    assert refused and all(an["error"] == "illegal" and an["reason"] for _, an in refused)
    for rq, an in sheet.messages:
        if rq["cmd"] == "state":
            assert set(an["state"]) <= set(sheet.public), set(an["state"]) - set(sheet.public)
        if rq["cmd"] == "observation":
            seen = set(an["observation"]) - {"player"}
            assert seen <= set(sheet.public) | set(sheet.private)
    # every action applied was one the legal list before it offered
    offered: list[str] = []
    for rq, an in sheet.messages:
        if rq["cmd"] == "legal_actions":
            offered = an["actions"]
        elif rq["cmd"] == "apply" and an["ok"]:
            assert rq["action"] in offered


def test_the_sheet_is_what_an_independent_engine_answers() -> None:
    """Kuhn poker's reference engine (written apart from the model, importing nothing of
    ruleproof) is sent the sheet's requests: it answers each exactly as the sheet says, for
    several deals."""
    engine = ROOT / "properties" / "kuhn_poker" / "reference_engine.py"
    for seed in range(4):
        sheet = protocol_sheet(model_of("kuhn-poker"), seed=seed, steps=3)
        requests = [rq for rq, _ in sheet.messages if rq["cmd"] != "hello"]
        run = subprocess.run([sys.executable, str(engine)], check=True, capture_output=True,
                             timeout=60, text=True,
                             input="".join(json.dumps(rq) + "\n" for rq in requests))
        answers = [json.loads(line) for line in run.stdout.splitlines()]
        expected = [an for rq, an in sheet.messages if rq["cmd"] != "hello"]
        assert len(answers) == len(expected)
        for rq, got, want in zip(requests, answers, expected, strict=True):
            if not want["ok"]:  # a refusal: the reasons are each engine's own words
                assert got["ok"] is False and got.get("error") == "illegal", (rq, got)
            else:
                assert got == want, (rq, got, want)


def test_a_model_that_does_not_answer_as_itself_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    original = ModelAnswers.handle

    def wrong_pot(self: ModelAnswers, request: dict[str, Any]) -> dict[str, Any]:
        answer = original(self, request)
        if request["cmd"] == "state":
            answer = {**answer, "state": {**answer["state"], "pot": [9, 9]}}
        return answer

    monkeypatch.setattr(ModelAnswers, "handle", wrong_pot)
    with pytest.raises(Nonconformance, match="diverged from itself at step 0"):
        protocol_sheet(model_of("kuhn-poker"))


def test_max_steps_is_the_number_of_actions_shown_whatever_its_value() -> None:
    """--max-steps 1000 (conform's default for another meaning) was taken for 'not given'."""
    sent = [json.loads(x[2:]) for x in CliRunner().invoke(
        app, ["conform", "--protocol", "--game", "liars-dice", "--max-steps", "1000"]
    ).output.splitlines() if x.startswith("> ")]
    applied = [rq for rq in sent if rq["cmd"] == "apply"]
    assert len(applied) > 4  # a whole round of bids and the call, probes included


def test_the_command_prints_the_messages_and_the_fields() -> None:
    r = CliRunner().invoke(app, ["conform", "--protocol", "--game", "kuhn-poker", "--seed", "2"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    sent = [json.loads(x[2:]) for x in lines if x.startswith("> ")]
    said = [json.loads(x[2:]) for x in lines if x.startswith("< ")]
    assert sent[0] == {"cmd": "hello"} and len(sent) == len(said)
    assert sent[1]["setup"] == model_of("kuhn-poker").setup_of(2, {}, 2)
    assert any(x.startswith("#   card ") for x in lines)
    data = json.loads(CliRunner().invoke(app, ["conform", "--protocol", "--game", "dawn-under",
                                               "--players", "2", "--json"]).output)
    assert data["preset"] == "2p" and data["options"] == {} and data["observed_players"] == []
    assert data["messages"][1]["request"]["preset"] == "2p"


@pytest.mark.parametrize("args,says", [
    (["--engine", "x"], "--engine cannot go with it"),
    (["--budget", "3", "--out", "f"], "--out, --budget cannot go with it"),
    (["--max-steps", "0"], "--max-steps must be a number in 1..1000"),
    (["trace.jsonl"], "recorded games (FILE...) cannot go with it"),
    (["--players", "3"], "kuhn-poker is played by 2 players; got 3"),
])
def test_flags_it_would_ignore_are_refused(args: list[str], says: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["conform", "--protocol", "--game", "kuhn-poker", *args])
    assert r.exit_code == 2 and says in r.output and r.output.count("\n") == 1, r.output
    assert list(tmp_path.iterdir()) == []


def test_the_example_in_the_docs_is_what_the_command_prints() -> None:
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = text.split("**Your game's messages.**", 1)[1].split("```text", 1)[1].split("```")[0]
    shown = [x for x in block.splitlines() if x.startswith(("> ", "< "))]
    r = CliRunner().invoke(app, ["conform", "--protocol", "--game", "kuhn-poker"])
    assert r.exit_code == 0 and len(shown) >= 4
    printed = r.output.splitlines()
    assert printed[printed.index(shown[0]):][:len(shown)] == shown


def test_a_failure_that_needs_earlier_games_says_so_in_its_trace() -> None:
    """An engine that fails only after games played before (state kept between games): the
    report and the saved trace both say the divergence did not reproduce on a fresh engine,
    and the report shows the set-up the engine was sent (an engine author had to open the
    trace to see the cards)."""
    from ruleproof.properties.conformance.differential import conform, trace_text
    from ruleproof.properties.conformance.engine import MessageEngine

    model = model_of("kuhn-poker")

    class Tired(ModelAnswers):
        games = 0

        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            if request["cmd"] == "new_game":
                self.games += 1
                if self.games == 3:
                    raise RuntimeError("too many games")
            return super().handle(request)

    result = conform(model, lambda: MessageEngine(Tired(model).handle), budget=10.0, seed=0,
                     shrink_budget=1.0)
    assert result.found is not None and "did not reproduce on a fresh engine" in result.note
    report = result.report()
    assert f"set-up sent (new_game's setup): {json.dumps(dict(result.found.setup))}" in report
    text = trace_text(result, model)
    assert text is not None
    assert "did not reproduce on a fresh engine" in json.loads(text.splitlines()[0])["note"]


def test_an_action_spelled_outside_the_notation_is_said_to_be_one() -> None:
    """An engine offering 'check' for Kuhn poker's 'pass': the legal-actions divergence says
    that 'check' is no action of the game's notation (an engine author took the clause blamed
    for the missing 'pass' as the whole story)."""
    from ruleproof.properties.conformance.differential import conform
    from ruleproof.properties.conformance.engine import MessageEngine

    model = model_of("kuhn-poker")

    class Check(ModelAnswers):
        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            answer = super().handle(request)
            if request["cmd"] == "legal_actions":
                answer = {**answer, "actions": ["check" if a == "pass" else a
                                                for a in answer["actions"]]}
            return answer

    result = conform(model, lambda: MessageEngine(Check(model).handle), budget=10.0, seed=0,
                     shrink_budget=1.0)
    d = result.divergence
    assert d is not None and d.kind == "legal-actions"
    assert "reported legal, the model forbids: check ('check' is not an action of kuhn-poker" \
        in d.detail, d.detail
    assert "the model allows, not reported legal: pass" in d.detail


def test_a_field_of_the_wrong_type_is_said_to_be_one() -> None:
    from ruleproof.properties.conformance.differential import conform
    from ruleproof.properties.conformance.engine import MessageEngine

    model = model_of("kuhn-poker")

    class Text(ModelAnswers):
        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            answer = super().handle(request)
            if request["cmd"] == "state":
                pot = answer["state"]["pot"]
                answer = {**answer, "state": {**answer["state"], "pot": f"{pot[0]}/{pot[1]}"}}
            return answer

    result = conform(model, lambda: MessageEngine(Text(model).handle), budget=10.0, seed=0,
                     shrink_budget=1.0)
    d = result.divergence
    assert d is not None and d.kind == "state"
    assert 'pot: expected [1, 1], reported "1/1"' in d.detail
    assert "(a type error, not only a value: field 'pot' must be a list of two integers)" \
        in d.detail, d.detail
