"""Trace format and replay: shipped examples, malformed files, the replay/conform CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ruleproof.cli.conformance import register
from ruleproof.properties.conformance.diff import diff_states
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.jsonsafe import MAX_LINE_BYTES, TraceError
from ruleproof.properties.conformance.replay import replay, replay_file
from ruleproof.properties.conformance.trace import dump_lines, header_object, parse_trace, read_trace

DAWN_UNDER = model_of("dawn-under")

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT / "spec" / "dawn_under" / "traces"
REF = ROOT / "examples" / "engines" / "dawn_under_ref.py"
runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, no_args_is_help=True)
    register(app)
    return app


# ----------------------------------------------------------------------------- shipped traces

EXAMPLES = {
    "dawn-under-conforming.jsonl": (0, None, ()),
    "dawn-under-setup.jsonl": (0, None, ()),
    "dawn-under-illegal-action.jsonl": (1, "illegal-action", ("du-en:ch4.only-neighbours",)),
    "dawn-under-state-mismatch.jsonl": (1, "state", ("du-en:ch2.gift",)),
    "dawn-under-wrong-player.jsonl": (1, "wrong-player", ("du-en:play.clockwise",)),
    "dawn-under-mutant-gift-on-fourth-stake.jsonl": (1, "state", ("du-en:ch2.gift",)),
    "dawn-under-mutant-2p-second-rat-finder.jsonl": (1, "state", ("du-en:2p.plague",)),
    "dawn-under-mutant-gruft-count-on-fourth.jsonl": (1, "state", ("gruft-en:count.get-three",)),
    "dawn-under-mutant-gruft-guard-ignored.jsonl": (1, "legal-actions",
                                                    ("gruft-en:count.guard",)),
    "dawn-under-mutant-gruft-count-moves-anywhere.jsonl": (1, "legal-actions",
                                                           ("gruft-en:count.move",)),
}


def test_every_shipped_trace_is_covered() -> None:
    assert {p.name for p in TRACES.glob("dawn-under-*.jsonl")} == set(EXAMPLES)
    assert {p.name for p in TRACES.glob("*.jsonl")} == set(EXAMPLES)  # Dracula's: its own folder


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_shipped_trace_replays_with_documented_result(name: str) -> None:
    code, kind, clauses = EXAMPLES[name]
    result = replay_file(TRACES / name)
    assert result.conforms == (code == 0)
    if kind is not None:
        assert result.divergence is not None
        assert result.divergence.kind == kind
        assert set(clauses) <= set(result.divergence.clauses)
        assert result.divergence.line == result.divergence.step + 1
    cli = runner.invoke(_app(), ["replay", str(TRACES / name)])
    assert cli.exit_code == code, cli.output
    assert "Traceback" not in cli.output


def test_replay_reports_step_action_clause_and_diff() -> None:
    result = runner.invoke(_app(), ["replay", str(TRACES / "dawn-under-state-mismatch.jsonl")])
    assert result.exit_code == 1
    out = result.output
    assert "NONCONFORMING at step 55 (line 56)" in out
    assert "after action 'open 34'" in out and "du-en:ch2.gift" in out
    assert 'phase: expected "give", reported "open"' in out
    assert "gifts: expected [[0, 2], [1, 2]], reported []" in out


def test_replay_json_output_and_worst_exit_code() -> None:
    files = [str(TRACES / "dawn-under-conforming.jsonl"),
             str(TRACES / "dawn-under-illegal-action.jsonl")]
    result = runner.invoke(_app(), ["replay", "--json", *files])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [r["conforms"] for r in data["results"]] == [True, False]
    bad = data["results"][1]["divergence"]
    assert bad["step"] == 8 and bad["action"] == "open 5" and bad["line"] == 9
    assert "du-en:ch4.only-neighbours" in bad["clauses"]
    mixed = runner.invoke(_app(), ["replay", *files, str(ROOT / "spec" / "malformed" / "nan.jsonl")])
    assert mixed.exit_code == 2


# ----------------------------------------------------------------------------- malformed files

MALFORMED = {
    "bad-json.jsonl": ("2:44", "invalid JSON"),
    "bad-option.jsonl": ("1:92", "after_match"),
    "bad-player-count.jsonl": ("1:67", "players"),
    "bad-setup.jsonl": ("1:81", "setup.reserve must hold 6 lids"),
    "deep-nesting.jsonl": ("2:65", "nested deeper than 16"),
    "duplicate-key.jsonl": ("2:13", "duplicate key 'step'"),
    "empty.jsonl": ("1:1", "empty trace"),
    "float.jsonl": ("2:71", "integers"),
    "huge-integer.jsonl": ("1:89", "longer than 18 digits"),
    "nan.jsonl": ("1:89", "NaN is not allowed"),
    "no-header.jsonl": ("1:1", "the first line must be a header"),
    "no-seed-or-setup.jsonl": ("1:1", "exactly one of 'seed' and 'setup'"),
    "not-an-object.jsonl": ("1:1", "the first line must be a header"),
    "not-utf8.jsonl": ("2:29", "not UTF-8"),
    "state-wrong-type.jsonl": ("2:56", "'stakes_path' must be an integer"),
    "step-out-of-order.jsonl": ("2:2", "expected step 1, got 2"),
    "truncated-last-line.jsonl": ("3:26", "truncated last line"),
    "unknown-action.jsonl": ("2:26", "unknown action 'fly 3'"),
    "unknown-field.jsonl": ("2:26", "unknown field 'acton'"),
    "unknown-game.jsonl": ("1:45", "unknown game 'chess'"),
    "unsupported-version.jsonl": ("1:31", "unsupported trace version 99"),
    "wrong-type.jsonl": ("1:67", "'players' must be an integer"),
}


def test_every_malformed_example_is_covered() -> None:
    found = {p.name for p in (ROOT / "spec" / "malformed").glob("*.jsonl")}
    assert {n for n in found if not n.startswith("dracula-")} == set(MALFORMED)


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_trace_exits_2_with_line_and_column(name: str) -> None:
    where, message = MALFORMED[name]
    path = ROOT / "spec" / "malformed" / name
    with pytest.raises(TraceError) as caught:
        read_trace(path)
    assert f"{caught.value.line}:{caught.value.column}" == where
    result = runner.invoke(_app(), ["replay", str(path)])
    assert result.exit_code == 2
    assert result.output.strip() == result.output.strip().splitlines()[0]  # one line
    assert f"error: {path}:{where}: " in result.output and message in result.output
    assert "Traceback" not in result.output


def test_huge_line_and_missing_file_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    header = header_object("dawn-under", 3, {}, seed=1, note="x" * (MAX_LINE_BYTES + 10))
    big.write_text(dump_lines([header]))
    with pytest.raises(TraceError, match="more than the limit") as caught:
        read_trace(big)
    assert (caught.value.line, caught.value.column) == (1, 1)
    long_string = tmp_path / "long.jsonl"
    long_string.write_text(dump_lines([header_object("dawn-under", 3, {}, seed=1,
                                                     note="y" * 20_000)]))
    with pytest.raises(TraceError, match="longer than 10000"):
        read_trace(long_string)
    result = runner.invoke(_app(), ["replay", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2 and "cannot read file" in result.output


def test_deeply_nested_value_never_reaches_the_recursive_parser() -> None:
    text = dump_lines([header_object("dawn-under", 3, {}, seed=1)])
    text += '{"step": 1, "action": "stop", "legal": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    with pytest.raises(TraceError, match="nested deeper") as caught:
        parse_trace(text)
    assert caught.value.line == 2


# ----------------------------------------------------------------------------- replay semantics


def _trace(lines: list[dict[str, object]]) -> str:
    return dump_lines([header_object("dawn-under", 3, {}, seed=4), *lines])


def test_partial_states_observations_and_legal_sets_are_checked() -> None:
    state = DAWN_UNDER.start(3, {}, 4, None)
    first = DAWN_UNDER.legal(state)[0]
    after = DAWN_UNDER.apply(state, first).state
    public = DAWN_UNDER.public_state(after)
    good = _trace([{"step": 1, "player": 0, "action": first,
                    "state": {"lids": public["lids"], "phase": public["phase"]},
                    "observation": {"player": 2, "rows": public["rows"]},
                    "legal": list(reversed(DAWN_UNDER.legal(after)))}])
    assert replay(parse_trace(good)).conforms
    wrong_obs = _trace([{"step": 1, "action": first,
                         "observation": {"player": 1, "stakes_path": 12}}])
    result = replay(parse_trace(wrong_obs))
    assert result.divergence is not None and result.divergence.kind == "observation"
    assert "stakes_path: expected 13, reported 12" in result.divergence.detail
    missing = _trace([{"step": 1, "action": first, "legal": DAWN_UNDER.legal(after)[1:]}])
    d = replay(parse_trace(missing)).divergence
    assert d is not None and d.kind == "legal-actions" and "not reported legal" in d.detail


def test_initial_position_facts_in_the_header() -> None:
    header = header_object("dawn-under", 3, {}, seed=4, extra={"state": {"stakes_path": 12}})
    d = replay(parse_trace(dump_lines([header]))).divergence
    assert d is not None and d.step == 0 and d.action is None and d.kind == "state"


def test_diff_names_each_differing_leaf() -> None:
    fields, lines = diff_states({"rows": [["red", "?"], ["blue"]], "stakes_path": 13},
                                {"rows": [["red", "red"], ["blue"]], "stakes_path": 13})
    assert fields == ["rows"]
    assert lines == ['rows[0]: expected ["red", "?"], reported ["red", "red"]']


# ----------------------------------------------------------------------------- conform CLI


def test_conform_cli_catches_a_mutant_and_saves_a_replayable_trace(tmp_path: Path) -> None:
    out = tmp_path / "found.jsonl"
    engine = f"{sys.executable} {REF} --mutant counter-clockwise"
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "20",
                                    "--shrink-budget", "1", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "NONCONFORMING" in result.output and "du-en:play.clockwise" in result.output
    replayed = runner.invoke(_app(), ["replay", str(out)])
    assert replayed.exit_code == 1 and "du-en:play.clockwise" in replayed.output


def test_conform_cli_passes_the_reference_engine() -> None:
    engine = f"{sys.executable} {REF}"
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "3",
                                    "--players", "5", "--max-steps", "60"])
    assert result.exit_code == 0, result.output
    assert "no divergence" in result.output and "coverage:" in result.output


def test_conform_cli_two_players_play_the_2_player_rules() -> None:
    # as in check and simulate, --players 2 alone selects the preset 2p (not an error)
    engine = f"{sys.executable} {REF}"
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "3",
                                    "--players", "2", "--max-steps", "40", "--json"])
    assert result.exit_code == 0, result.output
    cover = json.loads(result.output)["coverage"]
    assert cover["games"] >= 1 and set(cover["player_counts"]) == {"2"}
    assert set(cover["presets"]) == {"2p"}


def test_conform_cli_json_has_the_coverage_and_min_games_fails_an_unfinished_run() -> None:
    engine = f"{sys.executable} {REF}"
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "3",
                                    "--max-steps", "40", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    cover = data["coverage"]
    assert data["conforms"] and cover["games"] >= 2 and cover["steps"] > 0
    assert cover["clauses_exercised"] > 5 and cover["handshake"] is True
    assert {"start player", "preset", "player count", "deal"} <= set(cover["varied"])
    assert sum(cover["player_counts"].values()) == cover["games"]
    # the same run cannot reach a million games: not a pass but too slow to judge (exit 4,
    # #25), with the reason and the budget that would suffice
    result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "2",
                                    "--max-steps", "40", "--min-games", "1000000", "--json"])
    assert result.exit_code == 4, result.output
    data = json.loads(result.output)
    assert not data["conforms"] and "--min-games" in data["failure"]
    assert data["too_slow"]["budget_needed"] > 2


@pytest.mark.parametrize(("args", "message"), [
    (["--budget", "nan"], "--budget must be a finite number"),
    (["--budget", "inf"], "--budget must be a finite number"),
    (["--budget", "-1"], "--budget must be a finite number"),
    (["--budget", "0"], "--budget must be a finite number"),
    (["--timeout", "nan"], "--timeout must be a finite number"),
    (["--timeout", "inf"], "--timeout must be a finite number"),
    (["--shrink-budget", "nan"], "--shrink-budget must be a finite number"),
    (["--min-games", "0"], "--min-games"),
])
def test_conform_refuses_budgets_that_are_not_finite_positive(args: list[str],
                                                               message: str) -> None:
    engine = f"{sys.executable} {REF} --mutant counter-clockwise"
    result = runner.invoke(_app(), ["conform", "--engine", engine, *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_an_engine_that_never_answers_new_game_is_no_pass(tmp_path: Path) -> None:
    # The false pass: start-up probes used the budget, "no divergence in 0 games".
    for timeout in ("10", "0.5"):
        engine = f"{sys.executable} {REF} --fault hang-new-game"
        result = runner.invoke(_app(), ["conform", "--engine", engine, "--budget", "1.5",
                                        "--timeout", timeout, "--players", "3",
                                        "--out", str(tmp_path / "divergence.jsonl")])
        # a hang past --timeout is an engine failure (exit 1); the budget running out first
        # cannot tell a hang from slowness: too slow to judge (exit 4, #25); never a pass
        assert result.exit_code in (1, 4), result.output
        assert "no divergence" not in result.output
        assert (result.exit_code == 4 and "TOO SLOW" in result.output
                and "budget ran out" in result.output) or (
            result.exit_code == 1 and "engine hangs" in result.output)


@pytest.mark.parametrize(("args", "message"), [
    (["--engine", "/nonexistent/engine --flag"], "cannot start engine '/nonexistent/engine'"),
    (["--engine", ""], "the engine command is empty"),
    (["--engine", "python 'unterminated"], "cannot split engine command"),
    (["--engine", "true", "--game", "chess"], "unknown game 'chess'"),
    (["--engine", "true", "--players", "9"], "3 to 6 players"),
    (["--engine", "true", "--option", "after_match=sometimes"], "after_match"),
])
def test_conform_bad_input_exits_2(args: list[str], message: str) -> None:
    result = runner.invoke(_app(), ["conform", "--budget", "1", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_trace_saved_after_an_engine_failure_does_not_replay_as_conforming() -> None:
    setup = DAWN_UNDER.setup_of(3, {}, 0)
    lines = [header_object("dawn-under", 3, {}, setup=setup),
             {"step": 1, "player": 0, "action": "open 0",
              "engine_failure": "apply: no answer within 1 s (engine hangs)"}]
    result = replay(parse_trace(dump_lines(lines)))
    assert result.divergence is not None and result.divergence.kind == "engine-failure"
    assert result.divergence.step == 1 and "engine hangs" in result.divergence.detail
    refused = [lines[0], {"step": 1, "player": 0, "action": "open 0",
                          "rejected": "no graves today"}]
    result = replay(parse_trace(dump_lines(refused)))
    assert result.divergence is not None and result.divergence.kind == "rejected"
    start = [header_object("dawn-under", 3, {}, setup=setup,
                           extra={"engine_failure": "new_game: crashed"})]
    assert replay(parse_trace(dump_lines(start))).divergence is not None


def test_schema_lists_exactly_the_fields_the_reader_accepts() -> None:
    from ruleproof.properties.conformance.trace import HEADER_KEYS, STEP_KEYS

    generic = json.loads((ROOT / "spec" / "schemas" / "trace.schema.json").read_text())
    assert set(generic["$defs"]["header"]["properties"]) == HEADER_KEYS
    assert set(generic["$defs"]["step"]["properties"]) == STEP_KEYS
    schema = json.loads((ROOT / "spec" / "dawn_under" / "schemas" /
                         "dawn-under-trace.schema.json").read_text())
    defs = schema["$defs"]
    assert set(defs["header"]["properties"]) == HEADER_KEYS
    assert set(defs["step"]["properties"]) == STEP_KEYS
    assert set(defs["dawnUnderStateFields"]["properties"]) == DAWN_UNDER.state_fields
    public = DAWN_UNDER.public_state(DAWN_UNDER.start(4, {}, 0, None))
    assert set(public) == DAWN_UNDER.state_fields - {"gruft"}  # gruft: only with the expansion
    with_gruft = DAWN_UNDER.public_state(DAWN_UNDER.start(4, {"expansion": "gruft"}, 0, None))
    assert set(with_gruft) == DAWN_UNDER.state_fields
    gruft = defs["dawnUnderStateFields"]["properties"]["gruft"]
    assert set(gruft["properties"]) == set(with_gruft["gruft"])
    assert set(defs["dawnUnderSetup"]["properties"]) == set(DAWN_UNDER.setup_of(3, {}, 0))


def test_explicit_setup_must_use_the_games_components() -> None:
    setup = DAWN_UNDER.setup_of(3, {}, 0)
    rats = dict(setup, lids=["rat"] * 60)  # would empty the reserve in a replay
    with pytest.raises(TraceError, match="rat lids") as caught:
        parse_trace(dump_lines([header_object("dawn-under", 3, {}, setup=rats)]))
    assert caught.value.line == 1
    short_row = dict(setup, rows=[setup["rows"][0][1:], *setup["rows"][1:]])
    with pytest.raises(TraceError, match="vampires"):
        parse_trace(dump_lines([header_object("dawn-under", 3, {}, setup=short_row)]))
    # every vampire there, but dealt unevenly: one moves from player 0 to player 1
    rows = [list(r) for r in setup["rows"]]
    rows[1].append(rows[0].pop())
    with pytest.raises(TraceError, match="dealt out equally"):
        parse_trace(dump_lines([header_object("dawn-under", 3, {}, setup=dict(setup,
                                                                               rows=rows))]))
    assert replay(parse_trace(dump_lines([header_object("dawn-under", 3, {}, setup=setup)])))


def test_the_header_names_the_expansion_and_the_setup_names_the_players() -> None:
    options = {"expansion": "gruft"}
    setup = DAWN_UNDER.with_names(DAWN_UNDER.setup_of(4, options, 7), ["Zoe", "Anna", "Anna",
                                                                         "Ödön"])
    state = DAWN_UNDER.start(4, options, None, setup)
    lines: list[dict[str, object]] = [header_object("dawn-under", 4, options, setup=setup)]
    assert lines[0]["expansion"] == "gruft" and "expansion" not in lines[0]["options"]  # type: ignore[operator]
    for number, action in enumerate(["bat 3", "doubt"], start=1):
        state = DAWN_UNDER.apply(state, action).state
        lines.append({"step": number, "action": action,
                      "state": DAWN_UNDER.public_state(state)})
    trace = parse_trace(dump_lines(lines))
    assert trace.header.options["expansion"] == "gruft"
    assert replay(trace).divergence is None
    # the expansion's state is compared: a wrong bat count diverges
    wrong = json.loads(json.dumps(lines))
    wrong[1]["state"]["gruft"]["bats"] = [2, 2, 2, 2]
    found = replay(parse_trace(dump_lines(wrong))).divergence
    assert found is not None and found.kind == "state" and found.clauses[0].startswith("gruft-en:")
    # given twice, or names that do not fit the players: one line, exit 2
    twice = dict(lines[0], options={"expansion": "gruft"})
    with pytest.raises(TraceError, match="expansion once"):
        parse_trace(dump_lines([twice]))
    short = dict(lines[0], setup=dict(setup, names=["Zoe"]))
    with pytest.raises(TraceError, match="one name per player"):
        parse_trace(dump_lines([short]))


@pytest.mark.slow  # tens of seconds; CI runs pytest -m slow too
def test_every_shipped_trace_validates_against_the_generic_and_its_games_schema() -> None:
    """The trace format's schema names no game; each game's own (spec/<game>/schemas/) adds
    its set-up, public-state and observation fields. Both accept every shipped trace; the
    game's refuses another game's set-up."""
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
    from ruleproof.properties.plugin import plugins

    generic = json.loads((ROOT / "spec" / "schemas" / "trace.schema.json").read_text())
    checked = 0
    for p in plugins().values():
        own = p.spec_folder / "schemas" / f"{p.name}-trace.schema.json"
        if not own.is_file():
            continue
        schema = json.loads(own.read_text(encoding="utf-8"))
        for path in sorted((p.spec_folder / "traces").glob("*.jsonl")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for line in [*lines[:40], *lines[40:][-5:]]:  # the header, early and last steps
                value = json.loads(line)
                jsonschema.validate(value, generic)
                jsonschema.validate(value, schema)
                checked += 1
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"format": "ruleproof-trace", "version": 1, "game": "another",
                                 "players": 2, "seed": 0}, schema)
    assert checked > 100


def test_wrong_player_is_named_as_the_trace_names_it() -> None:
    """The message uses the trace's numbering (P1 first), not the engine's index ("player 2"
    where the log said P3)."""
    from ruleproof.cli import app
    from ruleproof.spec import spec_path

    path = next(spec_path().rglob("dawn-under-wrong-player.jsonl"))
    res = CliRunner().invoke(app, ["replay", str(path)])
    assert "P3 acts, but P2 is to move" in res.output, res.output
    assert "player 2" not in res.output
