"""Output that fits: COLUMNS is honoured when piped, table cells fold at spaces and never split
an identifier, long lines fold at spaces."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.table import Table

from ruleproof.cli.fit import PIPE_WIDTH, FitConsole, console_width, fold

IDS = ("du-en:ch1.continue-after-a-match", "properties/dawn_under/contracts/du_cs.py:557")


def test_columns_is_honoured_when_piped(monkeypatch: pytest.MonkeyPatch) -> None:
    piped = io.StringIO()
    monkeypatch.setenv("COLUMNS", "100")
    assert console_width(piped) == 100
    monkeypatch.delenv("COLUMNS")
    assert console_width(piped) == PIPE_WIDTH
    monkeypatch.setenv("COLUMNS", "wide")  # not a number: ignored
    assert console_width(piped) == PIPE_WIDTH


def test_tables_never_break_identifiers() -> None:
    table = Table()
    for col in ("id", "paraphrase", "cited at"):
        table.add_column(col)
    words = " ".join(["a long paraphrase that has to wrap somewhere"] * 3)
    table.add_row(IDS[0], words, IDS[1])
    buf = io.StringIO()
    FitConsole(file=buf, width=100).print(table)
    text = buf.getvalue()
    assert all(i in text for i in IDS), text  # each identifier whole on one line
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 100
    # the same table in a plain console cuts an identifier (what the fit is for)
    plain = Table()
    for col in ("id", "paraphrase", "cited at"):
        plain.add_column(col)
    plain.add_row(IDS[0], words, IDS[1])
    buf = io.StringIO()
    from rich.console import Console

    Console(file=buf, width=60).print(plain)
    assert not all(i in buf.getvalue() for i in IDS)


def test_fold_keeps_tokens_whole() -> None:
    line = "coverage: " + "; ".join(f"{IDS[0]} {i}" for i in range(20))
    folded = fold(line, 80)
    assert len(folded.splitlines()) > 5
    assert all(len(x) <= 80 for x in folded.splitlines())
    assert len(re.findall(re.escape(IDS[0]), folded)) == 20


def test_conform_coverage_lines_fit_the_columns(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """The coverage lines of ``conform`` were one line of 470-614 characters (the options
    varied); they fold at spaces like the campaign's summary, every option name whole."""
    import sys

    from typer.testing import CliRunner

    from ruleproof.cli import app

    ref = Path(__file__).resolve().parents[1] / "examples" / "engines" / "dawn_under_ref.py"
    monkeypatch.setenv("COLUMNS", "100")
    result = CliRunner().invoke(app, [  # a mutant: found in the first game, whatever the load
        "conform", "--engine", f"{sys.executable} {ref} --mutant counter-clockwise",
        "--budget", "20", "--out", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 1 and "NONCONFORMING" in result.output, result.output
    lines = result.output.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("coverage: "))
    end = next(i for i, x in enumerate(lines) if x.startswith("minimal trace saved"))
    cover = lines[start:end]
    assert all(len(x) <= 100 for x in cover), cover
    assert len(cover) > 3 and "option gruft_bat_counts" in " ".join(x.strip() for x in cover)


def test_a_table_too_wide_for_its_identifiers_becomes_records() -> None:
    """Side by side, the three identifiers need more than 60 columns: the table is printed
    as records (``header: value`` lines), every line within the width, every id whole."""
    table = Table(title="a title")
    for col in ("id", "paraphrase", "cited at"):
        table.add_column(col)
    table.add_row(IDS[0], "a [bold]paraphrase[/] long enough to fold " * 3, IDS[1])
    table.add_row("du-en:ch2.x", "short", "model/x.py:1")
    buf = io.StringIO()
    FitConsole(file=buf, width=60).print(table)
    text = buf.getvalue()
    lines = text.splitlines()
    assert lines[0] == "a title" and f"id: {IDS[0]}" in lines and f"cited at: {IDS[1]}" in lines
    assert "paraphrase: a paraphrase long" in text  # markup dropped, not interpreted twice
    assert sum(set(x) == {"-"} for x in lines) == 1  # one rule between the two rows
    assert max(len(x) for x in lines) <= 60, text
    # a table that fits stays a table
    buf = io.StringIO()
    FitConsole(file=buf, width=140).print(table)
    assert "┃ id" in buf.getvalue()


@pytest.mark.parametrize("args", [["games"], ["clauses", "du-en"], ["explore", "--list"],
                                  ["ambiguities"]])
def test_listings_fit_80_columns(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """Piped with COLUMNS=80 these were 120-159 columns wide (a module path, a long
    set-up name or clause id in a column): now every line fits."""
    from typer.testing import CliRunner

    from ruleproof.cli import app

    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) > 5
    wide = [x for x in lines if len(x) > 80]
    assert wide == [], wide[:3]
