"""A rendered step-through page opened in headless Chromium (Debian's ``chromium``).

Skipped with a reason when no chromium is installed; .ci/run installs it. The page is loaded
with a URL fragment selecting a step and a view; ``--dump-dom`` returns the DOM after the page's
script ran, so the test sees what the page shows. ``&advance=N`` makes the page press its
"forward" button N times (the same handler a click runs).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ruleproof.render.page import html_page
from ruleproof.render.walk import walks_of
from ruleproof.spec import spec_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("RULEPROOF_REQUIRE_BROWSER") == "1"
"""Set by .ci/run when a browser is installed: then the test may not be skipped (as in
tests/test_site_browser.py)."""
pytestmark = pytest.mark.skipif(not REQUIRED and CHROMIUM is None,
                                reason="chromium is not installed (Debian: apt-get install "
                                       "chromium; .ci/run installs it)")


def _dom(page: Path, fragment: str, profile: Path) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--dump-dom",
         page.resolve().as_uri() + "#" + fragment],
        capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _board(dom: str) -> tuple[dict[str, str], str]:
    m = re.search(r'<div id="board"([^>]*)>(.*?)</div>', dom, re.S)
    assert m is not None, dom[:2000]
    attrs = dict(re.findall(r'data-(\w+)="([^"]*)"', m.group(1)))
    return attrs, m.group(2)


def _grave_title(svg: str, g: int) -> str:
    m = re.search(rf'<g id="grave-{g}"[^>]*><title>([^<]*)</title>', svg)
    assert m is not None
    return m.group(1)


def test_page_shows_the_position_and_steps_forward(tmp_path: Path) -> None:
    page = tmp_path / "ch3.html"
    page.write_text(html_page(walks_of(spec_path("dawn_under", "scenarios", "ch3-garlic.toml")),
                              "ch3"), encoding="utf-8")
    start = _dom(page, "step=0", tmp_path / "profile")
    attrs, svg = _board(start)
    assert attrs == {"walk": "0", "view": "0", "step": "0"}
    assert "garlic of P3 inside" in _grave_title(svg, 7)
    assert "lid not turned yet" in _grave_title(_board(_dom(page, "step=0&view=1",
                                                             tmp_path / "p2"))[1], 7)
    # Step 1 (player 0 opens grave 7): the red lid is shown to everybody.
    attrs, svg = _board(_dom(page, "step=1&view=1", tmp_path / "p3"))
    assert attrs["step"] == "1" and "red lid" in _grave_title(svg, 7)
    assert 'id="status">Step 1 of 9' in _dom(page, "step=1", tmp_path / "p4")
    # Forward twice from step 3 with the page's own button: the garlic is out of grave 7
    # (taken back by its owner after handing over a vampire).
    dom = _dom(page, "step=3&advance=2", tmp_path / "p5")
    attrs, svg = _board(dom)
    assert attrs["step"] == "5"
    assert "garlic" not in _grave_title(svg, 7)
    assert "REJECTED" in dom and "Step 5 of 9" in dom


def test_dracula_views_differ_in_the_browser(tmp_path: Path) -> None:
    page = tmp_path / "turn.html"
    page.write_text(html_page(walks_of(spec_path("dracula", "scenarios", "example-turn.toml")),
                              "turn"), encoding="utf-8")
    # After "place hunter4" (step 3) Van Helsing knows his card at c3; Dracula sees a back.
    vh = _board(_dom(page, "step=3&view=2", tmp_path / "a"))[1]
    drac = _board(_dom(page, "step=3&view=1", tmp_path / "b"))[1]
    assert re.search(r'id="card-c3"[^>]*data-card="hunter4"', vh)
    assert re.search(r'id="card-c3"[^>]*data-card="hidden"', drac)
