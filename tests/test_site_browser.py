"""The built documentation site in a real browser (headless Chromium driven by Selenium).

The site is built once (without the statistics page, which a separate test covers) into a
temporary folder, with the check results of a small run behind the home page's status table,
and served on a loopback port. Skipped with a reason when Chromium, its driver or Selenium is
missing; .ci/run installs them (Debian's ``chromium`` and ``chromium-driver``).

What a reader does, checked as they would see it: the home page shows the status table; a clause
id typed into the search box finds its registry entry; a clause link on the Translations page
lands on the registry entry of that clause; the ambiguity catalogue lists Dracula's entries with
links to their witnesses; the step-through of a scenario fills the window at 1400 px and links
back.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ruleproof.properties.contracts.register import entries
from ruleproof.spec.alignment import alignment

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
REQUIRED = os.environ.get("RULEPROOF_REQUIRE_BROWSER") == "1"
"""Set by .ci/run when a browser is installed: then nothing may be skipped."""
if not REQUIRED:
    pytest.importorskip("selenium", reason="selenium is not installed (pip install '.[test]')")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not REQUIRED and (CHROMIUM is None or DRIVER is None),
                       reason="chromium or chromedriver is not installed (Debian: apt-get install "
                              "chromium chromium-driver; .ci/run installs them)"),
]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Build the site and serve it on 127.0.0.1; yields the base URL."""
    work = tmp_path_factory.mktemp("site")
    results = work / "check.json"
    cli = [sys.executable, "-c", "from ruleproof.cli import main; main()"]
    done = subprocess.run([*cli, "check", "kuhn-poker", "--profile", "ci", "--json", "--jobs", "1"],
                          capture_output=True, text=True, timeout=600, check=False, cwd=work)
    assert done.returncode == 0, done.stderr[-2000:]
    results.write_text(done.stdout, encoding="utf-8")
    env = dict(os.environ, RULEPROOF_DOCS_RESULTS=str(results), RULEPROOF_DOCS_STATS="0",
               NO_MKDOCS_2_WARNING="1")
    out = work / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                            "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                           capture_output=True, text=True, timeout=1200, check=False, env=env)
    assert built.returncode == 0, built.stderr[-3000:]
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    assert CHROMIUM is not None and DRIVER is not None
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: Any, condition: Any, seconds: float = 60) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds).until(condition)


def test_home_page_has_the_status_table(site: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site)
    tables = browser.find_elements(By.CSS_SELECTOR, "article table")
    status = [t for t in tables if "explored set-ups" in t.text and "check" in t.text]
    assert status, "no status table on the home page"
    rows = status[0].find_elements(By.CSS_SELECTOR, "tbody tr")
    games = {r.find_elements(By.TAG_NAME, "td")[0].text for r in rows}
    assert {"dawn-under", "dracula", "kuhn-poker"} <= games
    kuhn = [r.text for r in rows if r.text.startswith("kuhn-poker")]
    assert kuhn and "passed" in kuhn[0], kuhn  # the run behind the table checked Kuhn poker
    others = [r.text for r in rows if r.text.startswith("dracula")]
    assert others and all("not run" in t for t in others), others
    assert browser.find_elements(By.CSS_SELECTOR, ".ruleproof-home-board svg"), "no board"


@pytest.mark.parametrize("clause_id", ["du-en:ch1.continue", "dracula-en:special.rebellion"])
def test_a_clause_id_typed_into_search_finds_its_entry(site: str, browser: Any,
                                                       clause_id: str) -> None:
    from selenium.webdriver.common.by import By

    document = clause_id.split(":")[0]
    browser.get(site)
    box = _wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "input.md-search__input"))
    box.click()
    box.send_keys(clause_id)

    def hits(d: Any) -> list[str]:
        links = d.find_elements(By.CSS_SELECTOR, ".md-search-result__item a")
        return [a.get_attribute("href") or "" for a in links]

    found = _wait(browser, lambda d: [h for h in hits(d) if f"gen/clauses/{document}/" in h])
    assert found, hits(browser)


def test_a_clause_link_on_the_translations_page_lands_on_its_entry(site: str,
                                                                   browser: Any) -> None:
    from selenium.webdriver.common.by import By

    pair = next(p for p in alignment("du-cs").pairs if p.relation == "differs" and p.targets)
    target = pair.targets[0]
    anchor = target.replace(":", "-").replace(".", "-")
    browser.get(site + "translations/")
    links = [a for a in browser.find_elements(By.CSS_SELECTOR, "article a")
             if (a.get_attribute("href") or "").endswith(f"#{anchor}")]
    assert links, f"no link to {target} on the Translations page"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", links[0])
    links[0].click()
    _wait(browser, lambda d: d.current_url.endswith(f"#{anchor}"))
    assert "/gen/clauses/du-en/" in browser.current_url
    entry = browser.find_element(By.ID, anchor)
    assert entry.tag_name == "h3" and target in entry.text
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top;", entry)
    assert 0 <= top < browser.execute_script("return window.innerHeight;")
    # both paraphrases side by side on the Translations page
    browser.get(site + "translations/")
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "article tr")
            if pair.source is not None and pair.source in r.text]
    assert rows and target in rows[0]


def test_the_catalogue_lists_dracula_with_witnesses(site: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site + "ambiguities/")
    text = browser.find_element(By.TAG_NAME, "article").text
    ids = [e.id for e in entries("dracula")]
    assert ids and all(i in text for i in ids), [i for i in ids if i not in text]
    hrefs = [a.get_attribute("href") or "" for a in browser.find_elements(By.CSS_SELECTOR,
                                                                          "article a")]
    assert any("/gen/scenarios/" in h and "dracula" in h for h in hrefs)


def test_the_step_through_fills_the_window_and_links_back(site: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    slug = "ch3-garlic"
    browser.get(site + f"gen/scenarios/dawn-under/{slug}/")
    frame = browser.find_element(By.CSS_SELECTOR, "iframe.ruleproof-walk")
    browser.execute_script("arguments[0].scrollIntoView();", frame)
    width = browser.execute_script("return arguments[0].getBoundingClientRect().width;", frame)
    window = browser.execute_script("return document.documentElement.clientWidth;")
    assert window >= 1300 and width >= 0.9 * window, (width, window)
    browser.switch_to.frame(frame)
    back = _wait(browser, lambda d: d.find_element(By.ID, "back-link"))
    assert back.get_attribute("href").rstrip("/").endswith(f"gen/scenarios/dawn-under/{slug}")
    browser.switch_to.default_content()
