"""``explore --profile P --up-to N`` explores only the set-ups pinned with at most N distinct
states and names the others as skipped (in the output, the JSON and the coverage table's
heading): the coverage of every shipped set-up but the largest, in minutes instead of
hours."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ruleproof.cli import app

runner = CliRunner()


def test_up_to_skips_the_larger_set_ups_and_says_which(tmp_path: Path) -> None:
    out = tmp_path / "cov.md"
    r = runner.invoke(app, ["explore", "--profile", "ci", "--up-to", "3000", "--coverage",
                            "--coverage-out", str(out)])
    assert r.exit_code in (0, 1), r.output  # 1: some clause uncovered in this small subset
    assert "skipped (--up-to 3,000): " in r.output and "du-2p-1v (7,611 states pinned)" in r.output
    assert "dr-1x2-f4 " in r.output and "du-2p-1v " not in r.output.split("skipped")[1].split(
        "\n", 1)[1]
    text = out.read_text(encoding="utf-8")
    assert "skipped (--up-to 3,000): " in text and "| `dr-1x2-f4` | 2,617 |" in text
    r = runner.invoke(app, ["explore", "--profile", "ci", "--up-to", "3000", "--json"])
    data = json.loads(r.output)
    assert {"name": "du-2p-1v", "distinct_states": 7611} in data["skipped"]
    assert all(row["distinct_states"] <= 3000 for row in data["results"])


def test_up_to_is_refused_where_it_means_nothing() -> None:
    for args, why in ((["dr-1x2", "--up-to", "5"], "works with --profile"),
                      (["--profile", "ci", "--up-to", "0"], "N >= 1"),
                      (["--profile", "ci", "--up-to", "10"], "nothing to explore"),
                      (["dr-full", "--simulate", "2", "--up-to", "3"], "--up-to")):
        r = runner.invoke(app, ["explore", *args])
        assert r.exit_code == 2 and why in r.output and len(r.output.strip().splitlines()) == 1
