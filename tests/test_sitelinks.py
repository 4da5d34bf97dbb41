"""Clause ids that link, the markers of the site's pages and the home page's status table (the
browser test, tests/test_site_browser.py, checks the built site as a reader sees it)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from ruleproof.cli import sitelinks, sitestatus
from ruleproof.cli.site import alignment_table, clause_pages, fill_markers
from ruleproof.cli.sitelinks import clause_anchor, link_clause_ids
from ruleproof.errors import MalformedInput
from ruleproof.spec import all_clause_ids

KNOWN = frozenset({"du-en:ch1.continue", "dracula-en:special.rebellion"})


def test_doctests() -> None:
    assert doctest.testmod(sitelinks).failed == 0


@pytest.mark.parametrize(("text", "expected"), [
    ("`du-en:ch1.continue`", "[`du-en:ch1.continue`](../gen/clauses/du-en.md#du-en-ch1-continue)"),
    ("see du-en:ch1.continue.", "see [du-en:ch1.continue](../gen/clauses/du-en.md#du-en-ch1-continue)."),
    ("du-en:ch1.continue, dracula-en:special.rebellion",
     "[du-en:ch1.continue](../gen/clauses/du-en.md#du-en-ch1-continue), "
     "[dracula-en:special.rebellion](../gen/clauses/dracula-en.md#dracula-en-special-rebellion)"),
])
def test_registered_ids_become_links(text: str, expected: str) -> None:
    assert link_clause_ids(text, "docs/page.md", KNOWN) == expected


@pytest.mark.parametrize("text", [
    "```toml\nclauses = [\"du-en:ch1.continue\"]\n```",           # code block
    "### du-en:ch1.continue {#x}",                                  # a heading
    "[du-en:ch1.continue](elsewhere.md)",                           # already a link
    "[see](gen/x.md#du-en:ch1.continue)",                          # inside a link target
    "`du-en:ch1.continue and more`",                                # a code span with more
    '<a title="du-en:ch1.continue">x</a>',                          # an HTML attribute
    "du-en:ch9.nothing and `du-en:ch9.nothing`",                    # not registered
    "https://example.org/du-en:ch1.continue",                       # inside a URL
])
def test_what_is_left_alone(text: str) -> None:
    assert link_clause_ids(text, "index.md", KNOWN) == text


def test_every_link_target_exists() -> None:
    """Every registered id's link names a generated clause page and an anchor on it."""
    pages = clause_pages()
    for cid in sorted(all_clause_ids()):
        page = pages.get(sitelinks.clause_page(cid))
        assert isinstance(page, str), cid
        assert f"### {cid} {{#{clause_anchor(cid)}}}" in page, cid
    anchors = [clause_anchor(c) for c in all_clause_ids()]
    assert len(anchors) == len(set(anchors)), "two clause ids share an anchor"


def test_alignment_marker_shows_both_paraphrases() -> None:
    from ruleproof.spec import clause_registry
    from ruleproof.spec.alignment import alignment

    pair = next(p for p in alignment("du-cs").pairs if p.relation == "differs")
    assert pair.source is not None
    text = fill_markers("x\n<!-- ruleproof:alignment du-cs differences -->\ny")
    row = next(line for line in text.splitlines() if f"`{pair.source}`" in line)
    assert clause_registry("du-cs").get(pair.source).text.split()[0] in row
    assert clause_registry("du-en").get(pair.targets[0]).text.split()[0] in row
    assert "| agree |" not in text and "| agree |" in alignment_table("du-cs")
    with pytest.raises(MalformedInput):
        fill_markers("<!-- ruleproof:alignment nope -->")


def test_status_table_reports_the_results_given(tmp_path: Path) -> None:
    rows = sitestatus.status_rows(None)
    assert rows and all(r.verdict == "not run" for r in rows)
    games = {r.game for r in rows}
    assert {"dawn-under", "dracula", "kuhn-poker"} <= games
    du = next(r for r in rows if r.rule_set == "du-cs + gruft")
    assert du.sources == ("du-cs", "gruft-en") and du.clauses > 0 and du.explored > 0
    results = {"profile": "ci", "rule_sets": [
        {"game": "kuhn-poker", "rule_set": "kuhn-wp", "held": 4, "failed": 1, "profile": "ci",
         "properties": [{"method": "z3", "passed": True}, {"method": "z3", "passed": False}]}]}
    path = tmp_path / "check.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    kuhn = next(r for r in sitestatus.status_rows(sitestatus.load_results(path))
                if r.game == "kuhn-poker")
    assert kuhn.proofs == "1/2" and kuhn.verdict.startswith("FAILED (1 of 5)")
    assert "FAILED (1 of 5)" in sitestatus.status_markdown(sitestatus.load_results(path))


@pytest.mark.parametrize(("content", "said"), [
    ("{", "not JSON"), ('{"x": 1}', "no list 'rule_sets'"), ("[]", "no list 'rule_sets'")])
def test_a_bad_results_file_is_one_line(tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(MalformedInput, match=said) as err:
        sitestatus.load_results(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)
