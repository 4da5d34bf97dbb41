"""Bad input found by an attack on the command line (2026-12-03): each case gives one line
``error: ...`` naming what is wrong and where, exit 2, and changes no file (DEVELOPERS.md, "Bad
input"). Each test runs the command as a user does (``python -m ruleproof`` in a temporary
folder) and checks the files it must leave alone byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.jsonsafe import TraceError
from ruleproof.spec import spec_path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = spec_path("dawn_under", "scenarios", "ch3-garlic.toml")
REDUCED = spec_path("dawn_under", "reduced", "du-3p-1v.toml")


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruleproof", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one error line of a refused run (exit 2), which names every one of ``words``."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def test_render_never_writes_over_its_input_or_its_other_output(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(SCENARIO.read_bytes())
    before = scenario.read_bytes()
    _refused(_run(["render", "s.toml", "--html", "s.toml"], tmp_path), "s.toml", "--html",
             "reads")
    _refused(_run(["render", "s.toml", "--svg", "./s.toml"], tmp_path), "--svg", "reads")
    (tmp_path / "link.toml").symlink_to(scenario)  # the same file under another name
    _refused(_run(["render", "link.toml", "--html", "s.toml"], tmp_path), "--html")
    _refused(_run(["render", "s.toml", "--html", "x.html", "--svg", "x.html"], tmp_path),
             "--svg and --html", "same file")
    assert scenario.read_bytes() == before
    assert not (tmp_path / "x.html").exists()
    # the normal case still writes
    done = _run(["render", "s.toml", "--html", "x.html"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "x.html").read_text(encoding="utf-8").lstrip().startswith("<!")


@pytest.mark.parametrize(("args", "words"), [
    (["--html", "x.html", "--step", "2"], ("--step", "--svg")),
    (["--html", "x.html", "--view", "1"], ("--view", "--svg")),
    (["--html", "x.html", "--seed", "3"], ("--seed", "--random")),
])
def test_render_refuses_a_flag_that_would_be_ignored(tmp_path: Path, args: list[str],
                                                     words: tuple[str, ...]) -> None:
    _refused(_run(["render", str(SCENARIO), *args], tmp_path), *words)
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("config", ["a: [\n", "site_name: x\nnav: 5\n", "\xff\xfe"])
def test_docs_build_refuses_a_bad_mkdocs_configuration_before_writing_a_page(
        tmp_path: Path, config: str) -> None:
    pytest.importorskip("mkdocs")
    (tmp_path / "bad.yml").write_bytes(config.encode("latin-1"))
    pages = tmp_path / "docs"
    pages.mkdir()
    line = _refused(_run(["docs", "docs", "--build", "--config-file", "bad.yml", "--site-dir",
                          "site"], tmp_path), "bad.yml", "mkdocs configuration")
    assert "aborted" not in line
    assert list(pages.iterdir()) == []  # no generated page written
    assert not (tmp_path / "site").exists()


def test_explore_checks_its_default_trace_folder_before_the_search(tmp_path: Path) -> None:
    taken = tmp_path / "explore-du-2p-1v"
    taken.write_text("mine\n", encoding="utf-8")
    _refused(_run(["explore", "du-2p-1v"], tmp_path), "explore-du-2p-1v", "--out (default)",
             "not a folder")
    assert taken.read_text(encoding="utf-8") == "mine\n"


def test_explore_allow_that_names_nothing_is_refused(tmp_path: Path) -> None:
    _refused(_run(["explore", "du-2p-1v", "--allow", ",,"], tmp_path), "--allow", "names nothing")


def test_perft_depth_is_bounded(tmp_path: Path) -> None:
    _refused(_run(["perft", "kuhn-poker:kuhn-wp", "--depth", "99999999999"], tmp_path, 60),
             "--depth", "1..1000")


@pytest.mark.parametrize(("value", "words"), [
    ("nan", ("truncation", "finite")), ("inf", ("truncation", "finite")),
    ("1e400", ("truncation", "finite")), ("-5", ("truncation", "-1..1")),
])
def test_a_truncation_return_no_game_could_pay_is_refused(tmp_path: Path, value: str,
                                                          words: tuple[str, ...]) -> None:
    _refused(_run(["simulate", "dawn-under", "-P", f"truncation={value}"], tmp_path), *words)


@pytest.mark.parametrize(("old", "new", "key"), [
    ('preset = "du-en"', 'preset = "zz"', "preset"),
    ('preset = "du-en"', "preset = 2", "preset"),
    ('preset = "du-en"', 'preset = "2p"', "players"),  # the 2-player preset with 3 players
])
def test_a_reduced_file_names_its_line_for_a_bad_preset(tmp_path: Path, old: str, new: str,
                                                        key: str) -> None:
    text = REDUCED.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(i for i, t in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1)
                if t.startswith(f"{key} ="))
    _refused(_run(["explore", "./bad.toml", "--max-states", "10"], tmp_path),
             f"bad.toml:{line}:")


def test_every_problem_of_a_file_is_reported_on_one_line() -> None:
    err = MalformedInput("first", file="f.toml", line=1, col=2,
                         more=[f"f.toml:{i}: problem {i}" for i in range(2, 15)])
    text = err.report()
    assert "\n" not in text
    assert text.startswith("f.toml:1:2: first (and 13 more problems); also: f.toml:2: problem 2")
    assert "problem 11" in text and "problem 12" not in text and text.endswith("; and 3 more")


def test_a_trace_error_escapes_control_characters_in_its_path() -> None:
    err = TraceError("bad value", file="x\ny/t.jsonl", line=2, column=2)
    assert err.one_line() == "x\\ny/t.jsonl:2:2: bad value"


@pytest.mark.parametrize(("args", "words"), [
    (["conform", "--level", "0.5", "--engine", "true", "--game", "kuhn-poker"],
     ("--level", "--log")),
    (["clauses", "du-en", "--uncited", "--contracts"], ("--contracts", "--uncited")),
    (["perft", "--list", "du-en"], ("--list", "RULE_SET")),
    (["perft", "--check", "--divide"], ("--divide", "--check")),
    (["perft", "--write", "--seed", "3"], ("--seed", "--write")),
])
def test_a_flag_the_command_would_ignore_is_refused(tmp_path: Path, args: list[str],
                                                    words: tuple[str, ...]) -> None:
    _refused(_run(args, tmp_path), *words)
    assert list(tmp_path.iterdir()) == []  # nothing written (no trace, no table)


@pytest.mark.parametrize(("args", "words"), [
    (["-o", "dice=\u0663"], ("dice", "whole number")),  # ARABIC-INDIC DIGIT THREE
    (["-o", "dice=+2"], ("dice", "whole number")),
    (["-o", "sides=0_2"], ("sides", "whole number")),
])
def test_liars_dice_sizes_are_ascii_digits(tmp_path: Path, args: list[str],
                                           words: tuple[str, ...]) -> None:
    _refused(_run(["simulate", "liars-dice", *args], tmp_path), *words)


def test_an_option_given_twice_in_one_parameter_string_is_refused(tmp_path: Path) -> None:
    _refused(_run(["simulate", "dawn-under", "-P",
                   "options=after_match=turn-ends,after_match=may-continue"], tmp_path),
             "after_match", "twice")


DRACULA = spec_path("dracula", "reduced", "dr-1x2.toml")


@pytest.mark.parametrize(("source", "old", "new", "words"), [
    (REDUCED, "seeds = [0, 1]", "seeds = [0, 0]", ("seeds", "0 twice")),
    (DRACULA, 'encounter = ["vampire1", ', 'encounter = ["vampire1", "vampire1", ',
     ("encounter", "vampire1 twice")),
    (DRACULA, "columns = 2", "columns = 3", ("count locations", "keeps 3")),
    (DRACULA, 'action = ["wings-of-night", ', 'action = ["nosuch", "wings-of-night", ',
     ("nosuch",)),
])
def test_a_reduced_file_that_contradicts_itself_is_refused_at_its_line(
        tmp_path: Path, source: Path, old: str, new: str, words: tuple[str, ...]) -> None:
    text = source.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = _refused(_run(["explore", "./bad.toml", "--max-states", "10"], tmp_path), *words)
    assert line.startswith("error: bad.toml:") and line.split(":")[2].strip().isdigit(), line


@pytest.mark.parametrize(("old", "new", "words"), [
    ('"to_move" = "P3"', '"plague" = "yes"', ("'plague' takes true or false", "'yes'")),
    ('"garlic.P2" = 3', '"garlic.P2" = "three"', ("'garlic.P2' takes a number",)),
    ('"to_move" = "P3"', '"plague.holder" = "Zed"', ("'Zed' is not a player",)),
])
def test_an_expectation_no_state_could_meet_is_malformed_not_a_failure(
        tmp_path: Path, old: str, new: str, words: tuple[str, ...]) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "s.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(i for i, t in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1)
                if t.startswith(new.split(" =")[0]))
    _refused(_run(["scenario", "s.toml"], tmp_path), f"s.toml:{line}:", *words)


def test_an_expectation_of_the_right_kind_that_fails_is_still_a_failed_scenario(
        tmp_path: Path) -> None:
    bad = tmp_path / "s.toml"
    bad.write_text(SCENARIO.read_text(encoding="utf-8").replace(
        '"to_move" = "P3"', '"plague" = true', 1), encoding="utf-8")
    done = _run(["scenario", "s.toml"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "expected plague = True, got False" in done.stdout


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(extra=1), ("unknown key", "'extra'")),
    (lambda d: d["report"].update(note="x"), ("report: unknown key", "'note'")),
    (lambda d: d["report"].update(transitions=2**62), ("transitions", "edges")),
    (lambda d: d["report"].update(errors=[[d["frontier"][0], 10**9, "x"]]),
     ("errors", "action index")),
])
def test_a_checkpoint_edited_and_sealed_again_is_refused(tmp_path: Path, change: Any,
                                                        words: tuple[str, ...]) -> None:
    """A checkpoint whose hash was recomputed after an edit passes the seal, so its content
    is checked for itself: no key save() does not write, counters the graph agrees with."""
    import json

    from ruleproof.properties.explore.search import Explorer, explore, seal

    ck = tmp_path / "ck.json"
    explore("du-2p-1v", max_states=2000, checkpoint=ck)
    data = json.loads(ck.read_text(encoding="utf-8"))
    del data["sha256"]
    change(data)
    ck.write_text(seal(json.dumps(data, separators=(",", ":"))), encoding="utf-8")
    with pytest.raises(MalformedInput) as err:
        Explorer.resume(ck)
    for w in words:
        assert w in err.value.what, err.value.what


@pytest.mark.parametrize("names", ["A B,C:D,E", "A\nB,C,E", "A,B," + "x" * 81])
def test_simulate_names_a_log_cannot_show_are_refused(tmp_path: Path, names: str) -> None:
    _refused(_run(["simulate", "dawn-under", "--players", "3", "--names", names], tmp_path),
             "--names")


def test_an_engine_that_ends_before_its_first_answer_is_bad_input(tmp_path: Path) -> None:
    """Found by an engine author (2026-12-03): a mistyped script or a syntax error was reported
    as a nonconforming 'minimal game' of 0 actions, and a trace of it was saved. Now: one line
    with the engine's exit status and stderr, exit 2, no trace. An engine that starts but
    answers garbage is still a finding (exit 1)."""
    (tmp_path / "bad.py").write_text("syntax error here(\n")
    line = _refused(_run(["conform", "--engine", f"{sys.executable} nope.py", "--game",
                          "kuhn-poker", "--budget", "20"], tmp_path),
                    "ended before its first answer", "exit code 2", "nope.py")
    assert "No such file" in line
    _refused(_run(["conform", "--engine", f"{sys.executable} bad.py", "--game", "kuhn-poker",
                   "--budget", "20"], tmp_path), "ended before its first answer", "SyntaxError")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.py"]
    done = _run(["conform", "--engine", f"{sys.executable} -c print(1)", "--game", "kuhn-poker",
                 "--budget", "20"], tmp_path)
    assert done.returncode == 1 and "handshake: answer is not an object" in done.stdout, done
    assert (tmp_path / "ruleproof-divergence.jsonl").is_file()


def test_a_closed_standard_output_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """``ruleproof games >&-`` (found by an attack, 2026-12-03) raised AttributeError from the
    entry point's flush. Now nothing runs: one line, exit 2, no file written."""
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m ruleproof conform --protocol "
                           "--game kuhn-poker >&-"], cwd=tmp_path, text=True,
                          capture_output=False, stderr=subprocess.PIPE, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: standard output is closed, so nothing could be printed; redirect it "
        "(> /dev/null to discard it)"]
    assert list(tmp_path.iterdir()) == []


def test_pinned_without_a_pin_is_refused_before_the_search(tmp_path: Path) -> None:
    """`explore FILE --pinned` for a set-up with no pinned result explored it all and then
    failed (exit 1) naming 'spec/<game>/reduced/expected.toml' literally."""
    mine = tmp_path / "mine.toml"
    mine.write_text(spec_path("kuhn_poker", "reduced", "kuhn-3.toml").read_text()
                    .replace('name = "kuhn-3"', 'name = "mine"'))
    _refused(_run(["explore", "mine.toml", "--pinned"], tmp_path), "--pinned",
             "no pinned result for mine",
             str(Path("spec", "kuhn_poker", "reduced", "expected.toml")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml"]


def test_a_reduced_file_without_a_common_key_says_which_is_missing(tmp_path: Path) -> None:
    """An empty reduced file said "'game' must name a game, got None" at a comment's line."""
    (tmp_path / "empty.toml").write_text("# nothing here\n\n")
    line = _refused(_run(["explore", "empty.toml"], tmp_path), "'game' is missing")
    assert "None" not in line and "empty.toml:1" not in line  # no line to point at
    (tmp_path / "nop.toml").write_text('game = "kuhn-poker"\nname = "x"\ndescription = "y"\n')
    _refused(_run(["explore", "nop.toml"], tmp_path), "'players' is missing")
    (tmp_path / "cnt.toml").write_text('game = "kuhn-poker"\nname = "x"\ndescription = "y"\n'
                                       'players = 2\ncount = 5\n')
    _refused(_run(["explore", "cnt.toml"], tmp_path), "cnt.toml:5", "'count' must be tables")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cnt.toml", "empty.toml", "nop.toml"]
