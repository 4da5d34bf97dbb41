"""The du-cs and gruft-en clause registries and their alignments to du-en."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.spec import all_clause_ids, clause_id_re, clause_registry, shipped_documents, spec_path
from ruleproof.spec.alignment import (
    EXPANSION_RELATIONS,
    TRANSLATION_RELATIONS,
    alignment,
    load_alignment,
    shipped_alignments,
)

DU_CS = spec_path("dawn_under", "alignment", "du-cs.toml").read_text(encoding="utf-8")
GRUFT = spec_path("dawn_under", "alignment", "gruft-en.toml").read_text(encoding="utf-8")
TRANSLATIONS_DOC = Path(__file__).resolve().parents[1] / "docs" / "translations.md"


# --------------------------------------------------------------------------- registries


def test_new_registries_ship_and_load() -> None:
    assert {"du-en", "du-cs", "gruft-en"} <= set(shipped_documents())
    cs = clause_registry("du-cs")
    gruft = clause_registry("gruft-en")
    assert cs.document == "du-cs" and len(cs.clauses) >= 30
    assert gruft.document == "gruft-en" and len(gruft.clauses) >= 30
    assert {c.kind for c in cs} == {"setup", "legality", "effect", "turn-order", "end"}


def test_du_cs_sections_are_the_czech_headings() -> None:
    headings = ("Popis hry", "Příprava hry", "Průběh hry")
    for c in clause_registry("du-cs"):
        assert c.section.startswith(headings), c.id
        prefix = {"Popis hry": "popis", "Příprava hry": "priprava", "Průběh hry": "prubeh"}
        heading = next(h for h in headings if c.section.startswith(h))
        assert c.id.startswith(f"du-cs:{prefix[heading]}."), c.id


def test_du_cs_paraphrases_are_english() -> None:
    czech = re.compile("[ěščřžýáíéůúťďňĚŠČŘŽÝÁÍÉŮÚŤĎŇ]")
    assert [c.id for c in clause_registry("du-cs") if czech.search(c.text)] == []


def test_every_gruft_faq_answer_is_its_own_clause() -> None:
    faq = [c for c in clause_registry("gruft-en") if c.section == "FAQ"]
    assert len(faq) == 2
    assert all(c.id.startswith("gruft-en:faq.") for c in faq)


def test_new_clause_ids_are_globally_known() -> None:
    known = all_clause_ids()
    assert "du-cs:prubeh.match-ends" in known and "gruft-en:faq.count-plague" in known


# --------------------------------------------------------------------------- shipped alignments


def test_alignments_ship() -> None:
    assert set(shipped_alignments()) == {"du-cs", "gruft-en"}
    cs = alignment("du-cs")
    assert (cs.source, cs.target, cs.kind) == ("du-cs", "du-en", "translation")
    gruft = alignment("gruft-en")
    assert (gruft.source, gruft.target, gruft.kind) == ("gruft-en", "du-en", "expansion")
    assert alignment("du-cs") is cs  # cached


def test_du_cs_alignment_covers_both_registries() -> None:
    cs = alignment("du-cs")
    sources = [p.source for p in cs if p.source is not None]
    assert sorted(sources) == sorted(c.id for c in clause_registry("du-cs"))
    assert len(sources) == len(set(sources))
    covered = {t for p in cs for t in p.targets}
    assert covered == {c.id for c in clause_registry("du-en")}
    assert set(cs.counts()) == set(TRANSLATION_RELATIONS)
    assert sum(cs.counts().values()) == len(cs.pairs)


def test_gruft_alignment_covers_every_gruft_clause_once() -> None:
    gruft = alignment("gruft-en")
    sources = [p.source for p in gruft]
    assert sorted(s for s in sources if s) == sorted(c.id for c in clause_registry("gruft-en"))
    assert len(sources) == len(set(sources))
    assert set(gruft.counts()) == set(EXPANSION_RELATIONS)
    assert all(p.targets == () for p in gruft.with_relation("adds"))
    assert all(p.targets for p in gruft.with_relation("changes"))
    assert "du-en:ch4.neighbours" in gruft.of("gruft-en:faq.count-plague").targets
    assert gruft.of("gruft-en:faq.rat-ignored").relation == "changes"


@pytest.mark.parametrize(("source", "target"), [
    ("du-cs:prubeh.match-ends", "du-en:ch1.continue"),      # a placement ends the turn
    ("du-cs:prubeh.gift", "du-en:ch2.gift"),                # gift when already holding three
    ("du-cs:prubeh.new-starter", "du-en:ch5.hand-over"),    # left of the previous starter
    ("du-cs:prubeh.received-ends", "du-en:ch3.received-open"),  # receiver chooses the end
    ("du-cs:priprava.take-end", "du-en:ch1.outermost"),     # taken from either end
    ("du-cs:prubeh.open", "du-en:ch1.open"),                # "may" open one grave per round
])
def test_known_du_cs_differences_are_registered(source: str, target: str) -> None:
    pair = alignment("du-cs").of(source)
    assert pair.relation == "differs"
    assert target in pair.targets
    assert pair.note


def test_du_en_only_rules_are_target_only() -> None:
    cs = alignment("du-cs")
    target_only = {t for p in cs.with_relation("target-only") for t in p.targets}
    assert {"du-en:ch4.just-opened", "du-en:ch4.next-turn", "du-en:2p.reopen"} <= target_only
    assert all(p.source is None for p in cs.with_relation("target-only"))


def test_clause_ids_quoted_in_notes_exist() -> None:
    known = all_clause_ids()
    for source in shipped_alignments():
        for p in alignment(source):
            assert set(clause_id_re().findall(p.note)) <= known, (source, p.source)


def test_translation_page_lists_every_difference() -> None:
    """The page as built: its marker becomes the table of every pair that is not ``agree``."""
    from ruleproof.cli.site import fill_markers

    source = TRANSLATIONS_DOC.read_text(encoding="utf-8")
    assert "<!-- ruleproof:alignment du-cs differences -->" in source
    page = fill_markers(source)
    for p in alignment("du-cs"):
        if p.relation == "agree":
            continue
        assert f"`{p.source or p.targets[0]}`" in page, p
        assert all(f"`{t}`" in page for t in p.targets), p


# --------------------------------------------------------------------------- broken files


def _write(tmp_path: Path, text: str, old: str, new: str) -> Path:
    assert old in text
    path = tmp_path / "alignment.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if needle in line)


@pytest.mark.parametrize(("old", "new", "clause", "needle"), [
    # unknown source id
    ('source = "du-cs:prubeh.gift"', 'source = "du-cs:prubeh.gifts"',
     "du-cs:prubeh.gifts", 'source = "du-cs:prubeh.gifts"'),
    # unknown target id
    ('target = ["du-en:ch2.gift", "du-en:ch2.stakes-back"]',
     'target = ["du-en:ch2.gift", "du-en:ch2.stakes-front"]',
     "du-en:ch2.stakes-front", '"du-en:ch2.stakes-front"'),
    # a du-cs id on the du-en side
    ('target = ["du-en:ch2.stake"]', 'target = ["du-cs:prubeh.stake"]',
     "du-cs:prubeh.stake", 'target = ["du-cs:prubeh.stake"]'),
])
def test_unknown_id_is_rejected_with_file_line_and_id(
        tmp_path: Path, old: str, new: str, clause: str, needle: str) -> None:
    path = _write(tmp_path, DU_CS, old, new)
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert clause in info.value.what
    assert info.value.file == str(path)
    assert info.value.line == _line(path, needle)


def test_bad_relation_is_rejected(tmp_path: Path) -> None:
    old = 'source = "du-cs:prubeh.gift"\ntarget = ["du-en:ch2.gift", "du-en:ch2.stakes-back"]\n' \
          'relation = "differs"'
    path = _write(tmp_path, DU_CS, old, old.replace('"differs"', '"contradicts"'))
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "du-cs:prubeh.gift" in info.value.what and "'contradicts'" in info.value.what
    assert info.value.file == str(path)
    assert info.value.line == _line(path, 'source = "du-cs:prubeh.gift"') - 1  # the [[pair]] header


def test_expansion_relation_is_rejected_in_a_translation(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_CS, 'relation = "differs"', 'relation = "changes"')
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "'changes' is not one of agree, differs, source-only, target-only" in info.value.what


def test_missing_source_clause_is_rejected(tmp_path: Path) -> None:
    block = re.search(r'\[\[pair\]\]\nsource = "du-cs:prubeh.win"\n(?:[^\[\n].*\n)*', DU_CS)
    assert block
    path = _write(tmp_path, DU_CS, block.group(0), "")
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "du-cs:prubeh.win" in info.value.what and "has no [[pair]]" in info.value.what
    assert info.value.file == str(path)
    assert info.value.line == _line(path, 'source = "du-cs"')


def test_uncovered_target_clause_is_rejected(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_CS, 'target = ["du-en:ch4.next-turn"]', 'target = ["du-en:play.start"]')
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "du-en:ch4.next-turn" in info.value.what and "appears in no [[pair]]" in info.value.what
    assert info.value.line == _line(path, 'target = "du-en"')


def test_duplicate_source_is_rejected(tmp_path: Path) -> None:
    path = _write(tmp_path, DU_CS, 'source = "du-cs:prubeh.win"', 'source = "du-cs:popis.aim"')
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "du-cs:popis.aim" in info.value.what and "already aligned" in info.value.what
    lines = path.read_text(encoding="utf-8").splitlines()
    second = [n for n, line in enumerate(lines, start=1) if line == 'source = "du-cs:popis.aim"'][1]
    assert info.value.line == second - 1  # the [[pair]] header of the second occurrence


@pytest.mark.parametrize(("text", "old", "new", "message"), [
    (DU_CS, 'relation = "target-only"', 'relation = "agree"', "must be target-only"),
    (DU_CS, 'note = "du-cs has no 2-player variant."\n', "", "needs a note"),
    (DU_CS, 'source = "du-cs:priprava.row"\ntarget = ["du-en:prep.row"]',
     'source = "du-cs:priprava.row"\ntarget = []', "needs at least one target"),
    (GRUFT, 'source = "gruft-en:bats.once"\ntarget = []',
     'source = "gruft-en:bats.once"\ntarget = ["du-en:ch1.open"]', "must have target = []"),
    (GRUFT, 'relation = "adds"', 'relation = "differs"', "is not one of changes, adds, agree"),
    (GRUFT, 'target = "du-en"', 'target = "du-xx"', "'target' must be one of"),
    (GRUFT, 'relation = "adds"', 'relation = "adds"\ncolour = "red"', "unknown field(s) colour"),
])
def test_malformed_pairs_are_rejected(
        tmp_path: Path, text: str, old: str, new: str, message: str) -> None:
    path = _write(tmp_path, text, old, new)
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert message in info.value.what
    assert info.value.file == str(path) and info.value.line is not None


def test_gruft_missing_clause_is_rejected(tmp_path: Path) -> None:
    block = re.search(r'\[\[pair\]\]\nsource = "gruft-en:faq.count-plague"\n(?:[^\[\n].*\n)*', GRUFT)
    assert block
    path = _write(tmp_path, GRUFT, block.group(0), "")
    with pytest.raises(MalformedInput) as info:
        load_alignment(path)
    assert "gruft-en:faq.count-plague" in info.value.what


def test_unknown_shipped_alignment_is_malformed_input() -> None:
    with pytest.raises(MalformedInput, match="no alignment ships for 'dracula-en'"):
        alignment("dracula-en")
