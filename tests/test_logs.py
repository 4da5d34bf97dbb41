"""``ruleproof conform --log FILE...`` (issue #25): recorded games checked against the model
under every reading, and the engine's chance tested against the exact probabilities: a skewed
shuffle fails, a fair one passes at the stated level."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.model.api import CHANCE
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.conformance.logs import (
    chance_test,
    check_logs,
    is_partial,
    replay_partial,
    report,
)
from ruleproof.properties.conformance.trace import dump_lines, header_object, read_trace

DRACULA = model_of("dracula")


def recorded(folder: Path, games: int, skew: float, seed: int = 0) -> list[Path]:
    """``games`` Dracula logs of random play whose chance outcomes are drawn by the exact
    probabilities, except that with probability ``skew`` the first outcome (by name) is
    taken: a skewed shuffle."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = DRACULA.start(2, {}, g, None)
        lines: list[dict[str, object]] = [header_object("dracula", 2, {}, seed=g)]
        for n in range(1, 301):
            legal = DRACULA.legal(state)
            if not legal:
                break
            if state.current_player() == CHANCE:
                dist = sorted((str(o), float(p)) for o, p in
                              state.game.model_chance(state.model))
                if rng.random() < skew:
                    action = dist[0][0]
                else:
                    action = rng.choices([a for a, _ in dist], [p for _, p in dist])[0]
            else:
                action = rng.choice(legal)
            lines.append({"step": n, "action": action})
            state = DRACULA.apply(state, action).state
        path = folder / f"game-{g}.jsonl"
        path.write_text(dump_lines(lines), encoding="utf-8")
        out.append(path)
    return out


@pytest.fixture(scope="module")
def fair(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return recorded(tmp_path_factory.mktemp("fair"), 20, 0.0)


@pytest.fixture(scope="module")
def skewed(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return recorded(tmp_path_factory.mktemp("skewed"), 20, 0.5)


def test_a_fair_engine_passes_the_chance_test_at_the_stated_level(fair: list[Path]) -> None:
    results, chance = check_logs(fair, level=0.01)
    assert chance.points >= 50 and chance.passed is True, chance.describe()
    assert all(r.default for r in results)


def test_a_skewed_shuffle_fails_the_chance_test(skewed: list[Path]) -> None:
    results, chance = check_logs(skewed, level=0.01)
    assert chance.passed is False, chance.describe()
    assert "NOT consistent" in chance.describe()
    assert all(r.default for r in results)  # every game is legal: only the chance is wrong


def test_too_few_chance_outcomes_are_not_tested(fair: list[Path]) -> None:
    chance = chance_test([read_trace(fair[0])])
    assert chance.passed is None and "not tested" in chance.describe()


def test_a_log_reports_the_readings_it_survives() -> None:
    root = Path(__file__).resolve().parents[1] / "spec" / "dawn_under" / "traces"
    results, _ = check_logs([root / "dawn-under-conforming.jsonl",
                             root / "dawn-under-state-mismatch.jsonl"])
    good, bad = results
    assert good.default and "after_match=turn-ends" not in good.surviving
    assert "turn_start=may-pass" in good.surviving  # a short game tells few readings apart
    # the engine that recorded the mismatch gave no gift on a third stake: the other reading
    assert not bad.default and bad.surviving == ("gift_trigger=holding-three",)


@pytest.mark.slow
def test_conform_log_command(fair: list[Path], skewed: list[Path]) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["conform", "--log", *map(str, fair)])
    assert runner.invoke(app, ["conform", str(fair[0])]).exit_code == 2  # files need --log
    assert ok.exit_code == 0 and "consistent with the model's exact" in ok.output, ok.output
    bad = runner.invoke(app, ["conform", "--log", *map(str, skewed)])
    assert bad.exit_code == 1 and "NOT consistent" in bad.output, bad.output


DAWN_UNDER = model_of("dawn-under")


def partial_dawn_under_log(folder: Path, readings: dict[str, str], *, seed: int = 3,
                           length: int = 60, every: int = 4) -> Path:
    """A Dawn Under log of a random 4-player game played under ``readings`` by an engine
    that claims the default rules (its header says du-en): every ``every``-th step is missing,
    the others record the action and the whole public state after it."""
    rng = random.Random(seed)
    state = DAWN_UNDER.start(4, {"preset": "du-en", **readings}, seed, None)
    lines: list[dict[str, object]] = [header_object("dawn-under", 4, {"preset": "du-en"},
                                                    seed=seed)]
    for n in range(1, length + 1):
        legal = DAWN_UNDER.legal(state)
        if not legal:
            break
        action = rng.choice(legal)
        state = DAWN_UNDER.apply(state, action).state
        if n % every:
            lines.append({"step": n, "action": action,
                          "state": DAWN_UNDER.public_state(state)})
    path = folder / "partial.jsonl"
    path.write_text(dump_lines(lines), encoding="utf-8")
    return path


def test_a_partial_log_with_missing_steps_is_consistent_with_one_reading_only(
        tmp_path: Path) -> None:
    path = partial_dawn_under_log(tmp_path, {"after_match": "turn-ends"})
    assert is_partial(read_trace(path, partial=True))
    with pytest.raises(MalformedInput):
        read_trace(path)  # the trace format proper refuses a gap
    [result], _ = check_logs([path])
    assert result.partial and not result.default, report([result], chance_test([]))
    assert result.surviving == ("after_match=turn-ends",), result
    assert "fit no completion" in result.first_divergence or "legal in no" in \
        result.first_divergence
    # the same log from an engine playing the default rules survives them
    fair = partial_dawn_under_log(tmp_path, {})
    [ok], _ = check_logs([fair])
    assert ok.default and "after_match=turn-ends" not in ok.surviving


def dracula_log_with_a_hidden_hand(folder: Path, seed: int, *, lie: bool = False,
                                   hide: int = 3) -> Path:
    """A Dracula log as Dracula's side saw it: the last ``hide`` of Van Helsing's six secret
    choices hidden (``"?"``; six: his whole hand), everything else shown, with the life
    markers at the end; with ``lie`` the last line claims a life count the game cannot have.
    (Each hidden choice multiplies the completions: six hidden ones are 5,005 states, about
    15 s per reading on a loaded machine; three are 455.)"""
    chosen = 0
    rng = random.Random(seed)
    state = DRACULA.start(2, {}, seed, None)
    lines: list[dict[str, object]] = [header_object("dracula", 2, {}, seed=seed)]
    for n in range(1, 61):
        legal = DRACULA.legal(state)
        if not legal:
            break
        player = DRACULA.to_move(state)
        action = rng.choice(legal)
        state = DRACULA.apply(state, action).state
        chosen += action.startswith("choose") and player == 1
        hidden = action.startswith("choose") and player == 1 and chosen > 6 - hide
        line: dict[str, object] = {"step": n, "action": "?" if hidden else action}
        if hidden:
            line["player"] = 1
        lines.append(line)
    life = DRACULA.public_state(state)["life"]
    lines[-1] = {**lines[-1], "state": {"life": [life[0] + 1, life[1]] if lie else life}}
    path = folder / f"hidden-{seed}-{lie}-{hide}.jsonl"
    path.write_text(dump_lines(lines), encoding="utf-8")
    return path


def test_a_log_with_a_hidden_hand_is_checked_through_its_completions(tmp_path: Path) -> None:
    path = dracula_log_with_a_hidden_hand(tmp_path, 1)
    trace = read_trace(path, partial=True)
    assert sum(st.action == "?" for st in trace.steps) == 3
    got = replay_partial(trace)
    assert got.consistent is True and got.completions >= 1, got
    lie = replay_partial(read_trace(dracula_log_with_a_hidden_hand(tmp_path, 1, lie=True),
                                    partial=True))
    assert lie.consistent is False and lie.step == trace.steps[-1].number, lie
    assert "fit no completion" in lie.detail


def test_a_hidden_draw_adds_nothing_to_the_chance_test_but_the_shown_ones_count(
        tmp_path: Path) -> None:
    path = dracula_log_with_a_hidden_hand(tmp_path, 2)
    trace = read_trace(path, partial=True)
    shown = sum(st.action.startswith("chance ") for st in trace.steps)
    points = replay_partial(trace, rng=random.Random(0)).chance
    # the deal's outcomes are shown; every completion agrees on their distribution once
    # the hidden choices are told apart by the cards dealt
    assert 0 < len(points) <= shown
    assert all(0 <= u < 1 for u in points)


@pytest.mark.slow  # about two minutes on the loaded machine: 5,005 completions per reading
def test_a_log_hiding_the_whole_hand_survives_its_readings(tmp_path: Path) -> None:
    path = dracula_log_with_a_hidden_hand(tmp_path, 1, hide=6)
    assert sum(st.action == "?" for st in read_trace(path, partial=True).steps) == 6
    [result], _ = check_logs([path])
    assert result.default and result.partial and not result.undecided, result
    assert "surviv" in report([result], chance_test([]))


def dawn_under_deals(folder: Path, games: int, skew: float, seed: int = 0) -> list[Path]:
    """``games`` Dawn Under logs (4 players, du-en) whose explicit set-ups were dealt by an
    engine's chance nodes (the model's, ``new_initial_state``: 126 items, one at a time) that
    take the first outcome (by name) with probability ``skew`` and otherwise draw by the exact
    probabilities; each log then records three actions of play."""
    from ruleproof.properties.plugin import make_game

    rules = make_game("dawn-under", players=4)
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = rules.new_initial_state()
        while state.current_player() == CHANCE:
            outcomes = sorted(state.chance_outcomes(),
                              key=lambda o: rules.action_to_string(CHANCE, o[0]))
            if rng.random() < skew:
                action = outcomes[0][0]
            else:
                action = rng.choices([o for o, _ in outcomes],
                                     [float(p) for _, p in outcomes])[0]
            state = state.apply(action)
        setup = DAWN_UNDER.spec.setup_json(state)
        played = DAWN_UNDER.start(4, {"preset": "du-en"}, None, setup)
        lines: list[dict[str, object]] = [header_object("dawn-under", 4, {"preset": "du-en"},
                                                        setup=setup)]
        for n in range(1, 4):
            action_name = DAWN_UNDER.legal(played)[0]
            played = DAWN_UNDER.apply(played, action_name).state
            lines.append({"step": n, "action": action_name})
        path = folder / f"deal-{skew}-{g}.jsonl"
        path.write_text(dump_lines(lines), encoding="utf-8")
        out.append(path)
    return out


def test_a_skewed_dawn_under_deal_fails_the_chance_test_and_a_fair_one_passes(
        tmp_path: Path) -> None:
    fair = dawn_under_deals(tmp_path, 5, 0.0)
    chance = chance_test([read_trace(p) for p in fair], level=0.01)
    assert chance.points == 5 * 126 and chance.passed is True, chance.describe()
    skewed = dawn_under_deals(tmp_path, 5, 0.2, seed=1)
    chance = chance_test([read_trace(p) for p in skewed], level=0.01)
    assert chance.passed is False, chance.describe()
    # every skewed deal is still a deal of the rule set: only its chance is wrong
    [result], _ = check_logs(skewed[:1])
    assert result.default


def test_a_log_that_shows_nothing_checks_nothing_and_fails(tmp_path: Path) -> None:
    """A header alone, or only hidden actions, let every reading 'survive' with exit 0 (hostile
    review): a log with no visible action and no recorded fact is a failure with its reason."""
    traces = Path(__file__).resolve().parents[1] / "spec" / "liars_dice" / "traces"
    shipped = traces / "liars-dice-conforming.jsonl"
    header = shipped.read_text(encoding="utf-8").splitlines()[0]
    logs = {"header-only.jsonl": header + "\n",
            "all-hidden.jsonl": (header + '\n{"step": 1, "action": "?"}\n'
                                 '{"step": 2, "action": "?"}\n')}
    for name, text in logs.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(app, ["conform", "--log", str(path)])
        assert result.exit_code == 1, (name, result.output)
        assert "nothing was checked" in result.output, (name, result.output)
    result = CliRunner().invoke(app, ["conform", "--log", str(shipped)])
    assert result.exit_code == 0, result.output  # the same header with its steps shown passes


@pytest.mark.parametrize("flags", [["--game", "dracula"], ["--engine", "x"], ["--identify"],
                                   ["-o", "after_match=turn-ends"], ["--players", "3"],
                                   ["--budget", "5"], ["--workers", "2"]])
def test_flags_a_log_check_does_not_use_are_refused(tmp_path: Path, flags: list[str]) -> None:
    """They were ignored without a word: ``conform --log F --game dracula`` checked F as the
    game its header names."""
    path = tmp_path / "x.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["conform", "--log", str(path), *flags])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cannot go with --log" in lines[0] and flags[0] in lines[0]
