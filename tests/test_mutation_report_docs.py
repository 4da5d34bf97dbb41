"""The mutation report regenerates its table in the docs (#25): ``--write-docs FILE`` puts the
report between the game's markers and nothing else of the file changes; a file without the
markers is refused."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _report_module() -> Any:
    sys.path.insert(0, str(ROOT / "examples" / "engines"))
    spec = importlib.util.spec_from_file_location(
        "mutation_report", ROOT / "examples" / "engines" / "mutation_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_report_replaces_only_the_text_between_its_markers(tmp_path: Path) -> None:
    report = _report_module()
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- mutation-report:dracula:start -->\nold table\n"
                   "<!-- mutation-report:dracula:end -->\nafter\n"
                   "<!-- mutation-report:dawn-under:start -->\nkept\n"
                   "<!-- mutation-report:dawn-under:end -->\n", encoding="utf-8")
    report._write_docs(doc, "dracula", "new table\n| a |")
    text = doc.read_text(encoding="utf-8")
    assert "old table" not in text and "new table\n| a |\n<!-- mutation-report:dracula:end" \
        in text
    assert text.startswith("before\n") and "after\n" in text and "kept" in text
    with pytest.raises(SystemExit):
        report._write_docs(tmp_path / "doc.md", "kuhn-poker", "x")


def test_the_shipped_docs_hold_both_reports_in_the_default_profile() -> None:
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    for game in ("dawn-under", "dracula"):
        start = text.index(f"<!-- mutation-report:{game}:start -->")
        end = text.index(f"<!-- mutation-report:{game}:end -->")
        assert "shrink budget conform's default" in text[start:end], game
