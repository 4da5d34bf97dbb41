"""The one register (``ruleproof ambiguities [GAME] [ID]``) and how its entries explain
discovery's findings: every game's entries in one listing, one entry in full, bad names refused
in one line, and an entry explains a finding only while it lists the finding's key (or its other
reading changes the finding's subject at the witness)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.properties.contracts import register
from ruleproof.properties.contracts.discovery import Finding, explain
from ruleproof.properties.contracts.games import rule_set

runner = CliRunner()

GIVE = "dracula.give-target-full-life"
GIVE_KEY = ("dracula: refused-unforbidden GiveTarget a target at move-start/dracula "
            "(the engine cites dracula-en:early-end.give-target)")


@pytest.mark.parametrize(("args", "message"), [
    (["ambiguities", "chess"], "unknown game 'chess'; games with a register: dawn-under, dracula"),
    (["ambiguities", "dracula", "no-such-entry"],
     "unknown register entry 'no-such-entry' of dracula; known: crucifix-exception"),
    (["ambiguities", "kuhn-poker", GIVE], "kuhn-poker's ambiguity register is empty: no entry"),
    (["ambiguities", "chess", GIVE], "unknown game 'chess'"),
    (["ambiguities", "--json", "dracula", "nope"], "unknown register entry 'nope'"),
    # one word is a game or an id (``ambiguities ID``): the line says both were looked for
    (["ambiguities", "du.no-such-entry"], "nor is it the id of a register entry"),
])
def test_an_unknown_game_or_entry_is_one_line_naming_the_known_ones_exit_2(
        args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_unknown_entry_names_whole_ids_only() -> None:
    """The known ids used to be listed until the one-line cap cut the line in the middle of
    an id ('dracula.speci…'); now whole ids, then how many more and where they are."""
    result = runner.invoke(app, ["ambiguities", "dracula", "raise"])
    line = result.output.strip()
    assert result.exit_code == 2 and "\n" not in line and "…" not in line, line
    ids = [e.id for e in register.entries("dracula")]
    listed = line.split("known: ", 1)[1].split(" and ", 1)[0].split(", ")
    assert listed == ids[:len(listed)] and len(listed) < len(ids)
    assert line.endswith(f"and {len(ids) - len(listed)} more (all: ruleproof ambiguities "
                         "dracula)")


def test_the_listing_holds_every_game_and_every_register() -> None:
    result = runner.invoke(app, ["ambiguities", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["entries"]
    games = {r["game"] for r in rows}
    assert {"dawn-under", "dracula"} <= games
    kinds = {(r["game"], r["discovered"]) for r in rows}
    # base and discovered registers of both games that have both
    assert {("dawn-under", False), ("dawn-under", True), ("dracula", False),
            ("dracula", True)} <= kinds
    ids = [(r["game"], r["id"]) for r in rows]
    assert len(ids) == len(set(ids)), "an entry is listed twice"
    assert len(rows) == len(register.entries())
    for r in rows:  # a question, and two readings or the argument why they cannot differ
        assert r["question"] and (len(r["readings"]) >= 2 or r["replay"] == "argued"), r["id"]
    # Kuhn poker has a register with no entry (its text settles every question it asks)
    kuhn = runner.invoke(app, ["ambiguities", "kuhn-poker", "--json"])
    assert kuhn.exit_code == 0 and json.loads(kuhn.output)["entries"] == []
    # as text: a sentence, not an empty table titled "0 register entries of 0 games"
    kuhn = runner.invoke(app, ["ambiguities", "kuhn-poker"])
    assert kuhn.exit_code == 0 and kuhn.output == "rule questions: none registered for kuhn-poker\n"
    liars = runner.invoke(app, ["ambiguities", "liars-dice"])
    n = len(register.entries("liars-dice"))
    assert liars.exit_code == 0 and f"{n} register entries of 1 game\n" in liars.output


def test_one_entry_in_full_replays_its_witness_under_each_reading() -> None:
    result = runner.invoke(app, ["ambiguities", "dracula", GIVE, "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["id"] == GIVE and shown["game"] == "dracula"
    assert "dracula-en:early-end.give-target" in shown["clauses"]
    assert all(text and "not in a shipped" not in text for text in shown["clause_text"].values())
    assert [r["value"] for r in shown["readings"]][:2] == ["only-with-a-marker-missing",
                                                           "any-time"]
    assert shown["replay"] == "pass"
    assert shown["witness_runs"] and all(r["passed"] for r in shown["witness_runs"])
    text = runner.invoke(app, ["ambiguities", "dracula", GIVE])
    assert text.exit_code == 0 and "any-time" in text.output and "give-target" in text.output


def _give_finding(key: str = GIVE_KEY) -> Finding:
    """The finding the legality search reports at the entry's witness (the engine refuses a
    gift at full life; no contract forbids it)."""
    import tomllib

    from ruleproof.spec import spec_path

    entry = register.lookup("dracula", GIVE)
    sc = tomllib.loads(spec_path(*entry.witnesses[0].split("/")).read_text(encoding="utf-8"))
    return Finding("refused-unforbidden", key, "dracula", ("dracula-en:early-end.give-target",),
                   int(sc["setup"]["seed"]), tuple(sc["actions"]), "give coffin2",
                   "the engine refuses it; no contract forbids it")


def _without_keys(monkeypatch: pytest.MonkeyPatch, game: str, entry_id: str,
                  keys: tuple[str, ...]) -> None:
    """The game's discovered register as it would be with ``entry_id`` listing ``keys``."""
    real = register.discovered_entries

    def patched(name: str) -> tuple[register.Entry, ...]:
        return tuple(replace(e, keys=keys) if name == game and e.id == entry_id else e
                     for e in real(name))

    monkeypatch.setattr(register, "discovered_entries", patched)


def test_an_entry_explains_a_finding_only_while_it_lists_the_key(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rs = rule_set("dracula")
    found = _give_finding()
    assert explain(rs, [found])[0].explained_by == GIVE
    # the same witness under a key the entry does not list (its situation renamed): no entry
    # poses that question, although the clauses are the entry's
    moved = _give_finding(GIVE_KEY.replace("move-start", "move-begin"))
    assert explain(rs, [moved])[0].explained_by == ""
    # the entry's key no longer matches the finding's: it stops explaining it
    entry = register.lookup("dracula", GIVE)
    _without_keys(monkeypatch, "dracula", GIVE,
                  (*(k for k in entry.keys if k != GIVE_KEY), GIVE_KEY + " (old)"))
    assert explain(rs, [found])[0].explained_by == ""


def _witness(entry_id: str) -> tuple[int, tuple[str, ...]]:
    import tomllib

    from ruleproof.spec import spec_path

    entry = register.lookup("dracula", entry_id)
    sc = tomllib.loads(spec_path(*entry.witnesses[0].split("/")).read_text(encoding="utf-8"))
    return int(sc["setup"]["seed"]), tuple(sc["actions"])


def test_an_entry_with_an_option_explains_only_what_its_other_reading_changes() -> None:
    """Without a listed key, a base entry whose clauses meet the finding's explains it only
    when its other reading (its rule option) changes the finding's subject at the witness:
    leaving the barrier where it is, which the other reading of barrier-optional refuses, is
    explained as a legality finding, but not as an effect on the life markers (the option
    changes whether the action is legal, not what it does to them)."""
    rs = rule_set("dracula")
    seed, actions = _witness("dracula.resistance-target")  # ends before a barrier placement
    legality = Finding("allowed-unpermitted", "dracula: allowed-unpermitted SkipBarrier (test)",
                       "dracula", ("dracula-en:cards.bar",), seed, actions, "no-barrier",
                       "the engine allows it; no contract permits it")
    assert explain(rs, [legality])[0].explained_by == "barrier-optional"
    effect = replace(legality, kind="effect", key="dracula: effect SkipBarrier life (test)",
                     subject=("dracula-en:cards.bar",), fields=("life",))
    assert explain(rs, [effect])[0].explained_by == ""
    elsewhere = replace(legality, clauses=("dracula-en:special.resistance",))
    assert explain(rs, [elsewhere])[0].explained_by == ""


def _report(new: bool) -> object:
    from ruleproof.properties.contracts.discovery import Report

    found = _give_finding()
    explained = [found.with_explanation(GIVE),
                 replace(found, key=GIVE_KEY.replace("move-start", "move")).with_explanation(GIVE)]
    extra = [replace(found, key="dracula: refused-unforbidden GiveTarget (planted)",
                     question="May a target be given twice?")] if new else []
    return Report(findings=[*explained, *extra], seconds=1.0, profile="ci",
                  kinds=("legality",), unit_seconds={"legality dracula": 1.0},
                  stats={"adequacy": {"dracula-en": {"killed": 5, "survived": 2}}})


@pytest.mark.parametrize("new", [False, True])
def test_the_discovery_report_dedupes_to_questions_with_precision_and_exit_code(
        new: bool, tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Findings one entry explains pose one question (its words, its entry); a new finding is
    its own question, listed as new, and the command exits 1; precision = accepted / reported;
    the contract adequacy per source comes from the searches' figures; --write-docs writes the
    page from the same run."""
    from pathlib import Path

    import ruleproof.properties.contracts.discovery as discovery

    monkeypatch.setattr(discovery, "discover", lambda *a, **k: _report(new))
    page = Path(str(tmp_path)) / "discovery.md"
    res = runner.invoke(app, ["ambiguities", "--discover", "--profile", "ci", "--json",
                              "--write-docs", str(page)])
    assert res.exit_code == (1 if new else 0), res.output
    data = json.loads(res.output)
    questions = data["questions"]
    assert len(questions) == (2 if new else 1)
    give = questions[0]
    assert give["entry"] == GIVE and give["findings"] == 2 and give["accepted"]
    assert give["question"] == register.lookup("dracula", GIVE).heading
    assert data["precision"] == {"accepted": 1, "reported": len(questions),
                                 "ratio": 0.5 if new else 1.0}
    row = data["sources"]["dracula-en"]
    assert (row["findings"], row["questions"], row["accepted"]) == (3 if new else 2,
                                                                    len(questions), 1)
    assert row["adequacy"] == {"killed": 5, "survived": 2}
    assert [f["explained_by"] for f in data["findings"]] == [GIVE, GIVE, *([None] if new else [])]
    assert data["new"] == (1 if new else 0)
    text = page.read_text(encoding="utf-8")
    assert "Generated from a discovery run" in text and "| dracula-en | " in text
    assert register.lookup("dracula", GIVE).heading in text
    assert ("**new**" in text) == new
    witnesses = Path(str(tmp_path)) / "witnesses"
    plain = runner.invoke(app, ["ambiguities", "--discover", "--profile", "ci",
                                "--witnesses", str(witnesses)])
    assert plain.exit_code == (1 if new else 0)
    assert "precision: 1 of" in plain.output and ("NEW" in plain.output) == new
    # --witnesses: a replayable scenario per new finding, none for explained ones
    written = sorted(witnesses.glob("*.toml")) if witnesses.is_dir() else []
    assert len(written) == (1 if new else 0)
    if new:
        from ruleproof.properties.scenarios import run_scenario

        assert "give coffin2" in written[0].read_text(encoding="utf-8")
        assert run_scenario(written[0]).passed


def test_the_committed_discovery_page_is_generated_from_a_clean_run() -> None:
    """docs/discovery.md is committed, written by ``ruleproof ambiguities --discover
    --write-docs docs/discovery.md`` (a default-profile run takes minutes, so the docs build
    does not run it). It must be the generator's page for today's searches and registers: after
    adding a search kind or changing the page's fixed text, run that command again."""
    import re
    from pathlib import Path

    from ruleproof.cli.docgen import DISCOVERY_EXPLAINED, DISCOVERY_FIXED, DISCOVERY_LIMITS
    from ruleproof.properties.contracts.discovery import about, all_kinds

    rerun = "regenerate: ruleproof ambiguities --discover --write-docs docs/discovery.md"
    page = (Path(__file__).resolve().parents[1] / "docs" / "discovery.md").read_text(
        encoding="utf-8")
    assert "Generated from a discovery run by `ruleproof ambiguities --discover" in page, rerun
    for part in (DISCOVERY_EXPLAINED, DISCOVERY_FIXED, DISCOVERY_LIMITS):
        assert part.strip() in page, rerun
    for kind in all_kinds():
        assert f"* *{kind}*: {about(kind)}" in page, (kind, rerun)
    assert ", 0 new findings" in page, "the committed run left findings unexplained"
    from ruleproof.properties.contracts.games import sources

    # every source with contracts today is in the run's coverage line: a page written before
    # a game was added (Liar's Dice once) is stale, however well its fixed text matches
    [coverage] = re.findall(r"^Contract coverage of rule clauses: (.*)$", page, re.M)
    missing = [s for s in sources() if not re.search(rf"(?<![\w-]){re.escape(s)} \d+/\d+",
                                                      coverage)]
    assert not missing, (missing, rerun)
    known = {(e.game, e.id) for e in register.entries()}
    rows = re.findall(r"^\| \[([^\]]+)\]\(ambiguities\.md#[^)]*\) \(([\w-]+)\)", page, re.M)
    assert rows, "no question table"
    for entry, game in rows:
        assert (game, entry) in known, (game, entry)
