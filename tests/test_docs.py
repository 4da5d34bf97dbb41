"""Examples in the documentation run as documented."""

from __future__ import annotations

import re
from pathlib import Path

from ruleproof.properties.dawn_under.scenarios import run_scenario

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_scenario_example_in_formats_doc_runs(tmp_path: Path) -> None:
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("## Scenario file"):]
    example = re.search(r"```toml\n(.*?)```", section, re.S)
    assert example is not None
    path = tmp_path / "example.toml"
    path.write_text(example.group(1), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.detail
