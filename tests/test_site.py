"""The documentation site's generated pages (the strict mkdocs build itself runs in .ci/run)."""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from pathlib import Path

import pytest

from ruleproof.cli import site
from ruleproof.cli.progress import progress
from ruleproof.spec import spec_path

ROOT = Path(__file__).resolve().parents[1]


def _few(monkeypatch: pytest.MonkeyPatch) -> list[site.Shipped]:
    every = site.shipped_files()
    chosen = [next(s for s in every if s.group == g)
              for g in ("dawn-under", "witnesses", "dracula", "endings", "traces")]
    monkeypatch.setattr(site, "shipped_files", lambda: chosen)
    return chosen


def test_every_shipped_scenario_and_trace_is_listed() -> None:
    files = site.shipped_files()
    spec = ROOT / "spec"  # the checkout; the package's copy may be installed elsewhere
    expected = {p.relative_to(spec).as_posix() for p in [*spec.glob("*/scenarios/**/*.toml"),
                                                         *spec.glob("*/traces/*.jsonl")]}
    root = spec_path()
    assert {s.path.relative_to(root).as_posix() for s in files} == expected
    assert len({(s.group, s.slug) for s in files}) == len(files)


def test_generated_pages_cover_the_nav(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = _few(monkeypatch)
    pages = site.generated_pages(stats=False)
    for s in chosen:
        page = pages[f"gen/scenarios/{s.group}/{s.slug}.md"]
        assert isinstance(page, str) and "<svg" in page and "iframe" in page
        assert "walk-data" in str(pages[f"gen/walks/{s.group}/{s.slug}.html"])
    nav = re.findall(r":\s*([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert nav
    for target in nav:
        assert target in pages or (ROOT / "docs" / target).is_file(), target
    for doc in ("du-en", "du-cs", "gruft-en", "dracula-en"):
        assert f"gen/clauses/{doc}.md" in pages
    assert "board layout" in str(pages["gen/assumed.md"])
    assert "`du-cs`" in str(pages["gen/options.md"])
    assert "trace.schema.json" in str(pages["gen/schemas.md"])
    assert str(pages["ambiguities.md"]).count("gen/scenarios/witnesses/") >= 1


def test_contract_column_appears_when_contracts_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    if importlib.util.find_spec("ruleproof.properties.contracts") is None:
        assert "contract" not in [n for n, _ in site.clause_columns()]
    fake = types.ModuleType("ruleproof.properties.contracts")
    fake.clause_status = lambda cid: "checked" if cid.startswith("du-en") else None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ruleproof.properties.contracts", fake)
    import ruleproof.properties as props

    monkeypatch.setattr(props, "contracts", fake, raising=False)
    pages = site.clause_pages()
    du_en = str(pages["gen/clauses/du-en.md"])
    assert "**contract** checked" in du_en
    assert "### du-en:ch1.continue {#du-en-ch1-continue}" in du_en
    assert "**contract** —" in str(pages["gen/clauses/dracula-en.md"])


@pytest.mark.slow
def test_statistics_page_has_every_rule_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEPROOF_DOCS_GAMES", "2")
    pages = site.stats_pages()
    text = str(pages["gen/statistics.md"])
    for game, players, preset, _options in site.stats_sets():
        label = game if game == "dracula" else f"{game} {preset} {players}p"
        assert label in text
    pngs = [v for k, v in pages.items() if k.endswith(".png")]
    assert len(pngs) == len(site.stats_sets()) + 1
    assert all(isinstance(p, bytes) and p.startswith(b"\x89PNG") for p in pngs)


def test_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    seen = []
    with progress("x", 3) as advance:
        for _ in range(3):
            advance()
            seen.append(1)
    out = capsys.readouterr()
    assert seen == [1, 1, 1] and out.out == "" and out.err == ""


def test_docs_build_needs_a_configuration(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ruleproof.cli import app

    res = CliRunner().invoke(app, ["docs", str(tmp_path), "--build", "--config-file",
                                   str(tmp_path / "none.yml")])
    assert res.exit_code == 2 and "no mkdocs configuration" in res.output
    assert not (tmp_path / "ambiguities.md").exists()  # bad input: nothing is written


def test_the_rendering_bar_opens_advances_and_closes_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs --build shows a bar while mkdocs renders the pages (after the generation bar): the
    hooks keep it in the build's configuration and close it at the end."""
    from ruleproof.cli import mkdocs_hooks

    drawn: list[int] = []

    class _Bar:
        def __init__(self, description: str, total: int | None, **_: object) -> None:
            assert description == "rendering pages" and total == 3

        def __enter__(self) -> object:
            return lambda amount=1, description=None: drawn.append(amount)

        def __exit__(self, *exc: object) -> None:
            drawn.append(-1)

    monkeypatch.setattr(mkdocs_hooks, "progress", _Bar)

    class _Files:
        def documentation_pages(self) -> list[int]:
            return [1, 2, 3]

    config: dict[str, object] = {}
    nav = object()
    assert mkdocs_hooks.on_nav(nav, config, _Files()) is nav  # type: ignore[arg-type]
    for _ in range(3):
        assert mkdocs_hooks.on_post_page("html", None, config) == "html"
    mkdocs_hooks.on_post_build(config)
    assert drawn == [1, 1, 1, -1] and config[mkdocs_hooks._RENDERING] is None
