"""Reduced Dracula set-ups that start with targets already found (``found``,
properties/dracula/explore.py, #30): the only way an exhaustively explored set-up reaches a
side's fifth target (dracula-en:target.all-five, dracula-en:end.all-captured,
dracula-en:objective.goal). The start is built as the file says, the three clauses fire there
and nowhere else, an engine that does not end the game at the fifth target is caught, and a
bad ``found`` is one line at its key."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.model.dracula import default_cards
from ruleproof.model.dracula import ending as dr_ending
from ruleproof.model.dracula import meetings as dr_meetings
from ruleproof.model.dracula.game import DraculaGame
from ruleproof.model.dracula.setup import initial_state
from ruleproof.properties.explore.games import configuration, explore_game
from ruleproof.properties.explore.search import explore

FIVE = ("dracula-en:objective.goal", "dracula-en:target.all-five",
        "dracula-en:end.all-captured")
runner = CliRunner()


def test_found_targets_start_on_the_hunters_piles() -> None:
    cards = default_cards()
    s = initial_state(0, None, cards, None, ("victim2", "coffin3", "victim4"))
    assert s.captured == (("victim2", "victim4"), ("coffin3",))  # victims are Dracula's finds
    assert not {"victim2", "victim4"} & set(s.hand[1]) and "coffin3" not in s.hand[0]
    assert initial_state(0, None, cards).captured == ((), ())


@pytest.mark.parametrize(("found", "why"), [
    (("vampire1",), "not a target"),
    (("victim1", "victim1"), "twice"),
    (("victim1", "victim2", "victim3", "victim4", "victim5"), "five targets"),
    (("nosuchcard",), "not an encounter card"),
])
def test_a_bad_found_list_is_refused(found: tuple[str, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        initial_state(0, None, default_cards(), None, found)
    with pytest.raises(MalformedInput, match=why):
        DraculaGame(found=found)


def test_the_five_targets_set_up_fires_the_three_clauses_and_breaks_nothing() -> None:
    res = explore(configuration("dr-1x2-f4").path, coverage=True, contracts=True,
                  keep_graph=False)
    assert res.complete and res.distinct_states > 1000
    assert res.violations == 0 and res.errors == 0
    fired = res.fired or {}
    assert all(fired.get(c, 0) > 0 for c in FIVE), {c: fired.get(c) for c in FIVE}
    # ... which the same board without the found targets never reaches (their situation,
    # ``Contract.when``: a side has just found its fifth)
    base = explore(configuration("dr-1x2").path, coverage=True, contracts=True,
                   keep_graph=False)
    assert base.complete and all((base.fired or {}).get(c, 0) == 0 for c in FIVE)


def test_an_engine_that_plays_on_after_the_fifth_target_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The contracts of the three clauses, not the engine, say the fifth target wins: an
    engine that wants six breaks them in this set-up."""
    def six(s, side):  # type: ignore[no-untyped-def]
        if len(s.captured[side]) >= 6:
            return dr_ending._win(s, side, "six")
        return s

    monkeypatch.setattr(dr_meetings, "_check_captures", six)
    res = explore(configuration("dr-1x2-f4").path, contracts=True, keep_graph=False)
    assert res.complete and res.violations > 0
    assert any(c in " ".join(f.message for f in res.findings) for c in FIVE)


def _file(tmp_path: Path, found: str, encounter: str | None = None) -> Path:
    text = configuration("dr-1x2-f4").path
    body = Path(text).read_text(encoding="utf-8")
    lines = [f"found = {found}" if ln.startswith("found =") else ln for ln in body.splitlines()]
    if encounter is not None:
        lines = [f"encounter = {encounter}" if ln.startswith("encounter =") else ln
                 for ln in lines]
    lines = [ln.replace('name = "dr-1x2-f4"', 'name = "dr-bad"') for ln in lines]
    path = tmp_path / "dr-bad.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("found", "encounter", "why"), [
    ('["vampire1"]', None, "not a target"),
    ('["victim9"]', None, "not among the kept"),
    ('"victim2"', None, "must list"),
    ('["victim1", "victim2", "victim3", "victim4", "victim5"]', None, "five targets"),
    ('["victim1", "hunter1"]', '["vampire1", "coffin1", "hunter1", "victim1"]', "not a target"),
    ('["victim1"]', '["vampire1", "coffin1", "victim1"]', "no encounter card"),
])
def test_a_bad_found_key_is_one_line_at_its_place(tmp_path: Path, found: str,
                                                  encounter: str | None, why: str) -> None:
    path = _file(tmp_path, found, encounter)
    before = path.read_text(encoding="utf-8")
    with pytest.raises(MalformedInput, match=why) as err:
        explore_game(str(path))
    assert err.value.line is not None
    r = runner.invoke(app, ["explore", str(path)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert f"{path}:" in r.output and why in r.output
    assert path.read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("name", "key", "typo"), [
    ("dr-1x2-f4", "found", "fund"), ("dr-1x2", "life_markers", "life_marker"),
    ("du-2p-1v", "seeds", "seed"), ("du-2p-sym", "images", "imags")])
def test_a_misspelt_key_of_a_reduced_file_is_refused_at_its_place(
        tmp_path: Path, name: str, key: str, typo: str) -> None:
    """A misspelt game key (``fund`` for ``found``) was ignored, so the set-up silently lost
    what it was for; it is one line at the key now (file:line:col), exit 2."""
    body = Path(configuration(name).path).read_text(encoding="utf-8")
    lines = body.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(f"{key} ="))
    lines[at] = typo + lines[at][len(key):]
    lines = [ln.replace(f'name = "{name}"', 'name = "typo"') for ln in lines]
    path = tmp_path / "typo.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["explore", str(path)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert f"{path}:{at + 1}:1:" in r.output and repr(typo) in r.output


def test_a_rescue_gift_that_is_draculas_fifth_target_ends_the_game_before_perception(
        tmp_path: Path) -> None:
    """Found by a reviewer: with four victims found and two life markers, Van Helsing pays
    Perception's overpayment, answers the rescue by handing victim1 over -- Dracula's fifth
    -- and Dracula wins before the card functions (dracula-en:pay.then-functions). The
    sharpened Perception contract demanded Van Helsing's win there (96 violations); now it
    has no verdict when the payment ends the game."""
    body = Path(configuration("dr-1x2-f4").path).read_text(encoding="utf-8")
    body = body.replace('name = "dr-1x2-f4"', 'name = "dr-f4-l2"').replace(
        "life_markers = 1\n", "life_markers = 2\n", 1).replace(
        "[count.life_markers]\nvalue = 1", "[count.life_markers]\nvalue = 2", 1)
    path = tmp_path / "dr-f4-l2.toml"
    path.write_text(body, encoding="utf-8")
    res = explore(str(path), contracts=True, keep_graph=False)
    assert res.complete and res.distinct_states > 2617
    assert res.violations == 0, [f.message for f in res.findings]


@pytest.mark.parametrize(("name", "extra", "key"), [
    ("kuhn-3", "  seeds = [1]\n", "seeds"), ("ld-1d2", "wyld = 1\n", "wyld")])
def test_every_game_refuses_an_unknown_key_at_line_and_column(
        tmp_path: Path, name: str, extra: str, key: str) -> None:
    body = Path(configuration(name).path).read_text(encoding="utf-8")
    head, rest = body.split("players =", 1)
    path = tmp_path / "x.toml"
    path.write_text((head + extra + "players =" + rest).replace(f'name = "{name}"',
                                                               'name = "x"'), encoding="utf-8")
    line = 1 + head.count("\n")
    col = 1 + len(extra) - len(extra.lstrip())
    r = runner.invoke(app, ["explore", str(path)])
    assert r.exit_code == 2 and f"{path}:{line}:{col}: unknown key {key!r}" in r.output, r.output


def test_the_first_unknown_key_in_the_file_is_named_at_its_own_line(tmp_path: Path) -> None:
    """Not the first alphabetically, and a ``[seed]`` table at its header, not at the line of
    ``seeds`` that merely contains the word."""
    body = Path(configuration("du-2p-1v").path).read_text(encoding="utf-8")
    body = body.replace('name = "du-2p-1v"', 'name = "x"')
    head, rest = body.split("players =", 1)
    path = tmp_path / "x.toml"
    path.write_text(head + "zeta = 1\nplayers =" + rest + "\n[alpha]\nx = 1\n", encoding="utf-8")
    r = runner.invoke(app, ["explore", str(path)])
    assert f":{1 + head.count(chr(10))}:1: unknown key 'zeta'" in r.output, r.output
    path = tmp_path / "y.toml"  # another file (this process caches the first)
    path.write_text(body + "\n[seed]\nx = 1\n", encoding="utf-8")
    r = runner.invoke(app, ["explore", str(path)])
    assert f":{body.count(chr(10)) + 2}:1: unknown key 'seed'" in r.output, r.output
