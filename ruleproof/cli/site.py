"""The documentation site's generated pages, made from spec/ and the code at build time.

:func:`generated_pages` returns every generated file (site path -> text or bytes); the mkdocs
hook (``ruleproof/cli/mkdocs_hooks.py``, named in ``mkdocs.yml``) adds them to the build, so
``mkdocs build --strict`` (or ``ruleproof docs --build``) always shows the current spec and code
and the site cannot drift. Nothing is written into ``docs/``.

Generated (under ``gen/``): boards and sample positions; a page per shipped scenario (both
games, the ambiguity witnesses and the ending witnesses) and per conformance trace, each with
its final position and an embedded step-through page (``gen/walks/*.html``); clauses per
source with the code that cites each, and a contract-status column when
``ruleproof.properties.contracts`` offers one (:func:`clause_columns`); assumed values; presets
and options; file schemas; play statistics with plots. The committed ``ambiguities.md`` and
``clauses.md`` are replaced by freshly generated versions (``ruleproof docs`` still writes
them into ``docs/``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ruleproof.spec import clause_registry, shipped_documents, spec_path

Pages = dict[str, str | bytes]
"""site path (relative to docs_dir) -> page text (Markdown/HTML) or bytes (images)."""

Progress = Callable[[str], None]
"""Called with a label once per unit of work (for a progress bar)."""


def _noop(label: str) -> None:
    del label


def _md(text: str) -> str:
    """Escape a table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


# ----------------------------------------------------------------------------- clauses

ClauseColumn = tuple[str, Callable[[Any], str]]
"""A column of the clause tables: heading and a function of the :class:`Clause`."""


def _contract_column() -> ClauseColumn | None:
    """The contract status of each clause, if the contracts layer is installed: the module
    ``ruleproof.properties.contracts`` with a function ``clause_status(clause_id) -> str``
    (or ``status(clause_id)``). None when there is no such module or function."""
    try:
        from ruleproof.properties import contracts
    except ImportError:
        return None
    fn = getattr(contracts, "clause_status", None) or getattr(contracts, "status", None)
    if not callable(fn):
        return None

    def cell(clause: Any) -> str:
        try:
            return str(fn(clause.id) or "—")
        except Exception as exc:  # a status function that fails shows it in the page
            return f"error: {type(exc).__name__}"

    return ("contract", cell)


def clause_columns() -> list[ClauseColumn]:
    """The columns of the per-source clause tables (add a column by appending here)."""
    from ruleproof.properties.citations import citations

    found = citations()

    def cited(c: Any) -> str:
        where = found.get(c.id, [])
        if not where:
            return ("restates " + ", ".join(c.restates)) if c.restates else "—"
        return ", ".join(f"`{w}`" for w in where[:3]) + (f" (+{len(where) - 3})"
                                                        if len(where) > 3 else "")

    cols: list[ClauseColumn] = [("id", lambda c: f"`{c.id}`"), ("kind", lambda c: c.kind),
                                ("section", lambda c: _md(c.section)),
                                ("paraphrase", lambda c: _md(c.text)), ("cited at", cited)]
    contract = _contract_column()
    if contract is not None:
        cols.append(contract)
    return cols


def clause_pages() -> Pages:
    """``gen/clauses/index.md`` and one page per source document."""
    cols = clause_columns()
    index = ["# Clauses per source", "",
             "Generated from `spec/*/clauses.toml` at build time. Columns: "
             + ", ".join(name for name, _ in cols) + ".", "",
             "| source | title | clauses |", "| --- | --- | --- |"]
    pages: Pages = {}
    for doc in shipped_documents():
        reg = clause_registry(doc)
        items = list(reg)
        index.append(f"| [{doc}]({doc}.md) | {_md(reg.title)} | {len(items)} |")
        lines = [f"# {doc}: {reg.title}", "", f"{len(items)} clauses, generated from "
                 f"`spec/{doc}/clauses.toml`.", "",
                 "| " + " | ".join(n for n, _ in cols) + " |",
                 "| " + " | ".join("---" for _ in cols) + " |"]
        lines += ["| " + " | ".join(fn(c) for _, fn in cols) + " |" for c in items]
        pages[f"gen/clauses/{doc}.md"] = "\n".join(lines) + "\n"
    pages["gen/clauses/index.md"] = "\n".join(index) + "\n"
    return pages


# ----------------------------------------------------------------------------- scenarios

@dataclass(frozen=True)
class Shipped:
    """A shipped scenario or trace file and where its pages go."""

    path: Path
    group: str
    slug: str


def shipped_files() -> list[Shipped]:
    """Every shipped scenario (both games, witnesses, endings) and conformance trace."""
    du, dr = spec_path("dawn_under", "scenarios"), spec_path("dracula", "scenarios")
    out = []
    for group, root, pattern in (("dawn-under", du, "*.toml"),
                                 ("witnesses", du, "witnesses/*.toml"),
                                 ("discovered", du, "discovered/*.toml"),
                                 ("dracula", dr, "*.toml"), ("endings", du, "endings/*.toml"),
                                 ("endings", dr, "endings/*.toml")):
        out += [Shipped(p, group, p.stem) for p in sorted(root.glob(pattern))]
    out += [Shipped(p, "traces", p.stem) for game in ("dawn_under", "dracula")
            for p in sorted(spec_path(game, "traces").glob("*.jsonl"))]
    return out


GROUP_TITLES = {"dawn-under": "Dawn Under scenarios", "witnesses": "Ambiguity witnesses "
                "(Dawn Under; Dracula's are the amb-* scenarios)", "dracula": "Dracula scenarios",
                "discovered": "Discovered findings (ruleproof ambiguities --discover)",
                "endings": "Ending witnesses (ruleproof prove)", "traces": "Conformance traces"}


def scenario_pages(progress: Progress = _noop) -> Pages:
    """A page and a step-through page per shipped file, and the index ``gen/scenarios/``."""
    from ruleproof.render.page import html_page
    from ruleproof.render.svg import document
    from ruleproof.render.walk import walks_of

    pages: Pages = {}
    index = ["# Scenarios and traces, step by step", "",
             "Every shipped scenario and trace replayed on the model at build time: its final "
             "position and a step-through page (choose the reading and the view; the arrow keys "
             "step). Generated; do not edit.", ""]
    current = None
    for item in shipped_files():
        progress(f"scenario {item.slug}")
        if item.group != current:
            current = item.group
            index += ["", f"## {GROUP_TITLES[item.group]}", "", "| file | title | steps |",
                      "| --- | --- | --- |"]
        walks = walks_of(item.path)
        walk_file = f"gen/walks/{item.group}/{item.slug}.html"
        pages[walk_file] = html_page(walks, walks[0].title)
        page = [f"# {walks[0].title}", ""]
        for w in walks:
            if len(walks) > 1:
                page += [f"## {w.title}", ""]
            page += [f"* {_md(n)}" for n in w.notes]
            last = w.frames[-1]
            page += ["", f"Final position after {len(w.frames) - 1} step(s) "
                     f"({_md(last.captions[0])}):", "",
                     '<div class="ruleproof-picture" markdown="0">'
                     + document(last.pictures[0], w.canvas, w.title) + "</div>", ""]
        page += ["## Step through", "",
                 f'<iframe src="../../../walks/{item.group}/{item.slug}.html" '
                 'style="width:100%;height:760px;border:1px solid #ccc" loading="lazy" '
                 f'title="step-through of {item.slug}"></iframe>', "",
                 f"[Open the step-through page on its own](../../walks/{item.group}/{item.slug}"
                 ".html)", ""]
        pages[f"gen/scenarios/{item.group}/{item.slug}.md"] = "\n".join(page)
        index.append(f"| [{item.path.name}]({item.group}/{item.slug}.md) | "
                     f"{_md(walks[0].title)} | {len(walks[0].frames) - 1} |")
    pages["gen/scenarios/index.md"] = "\n".join(index) + "\n"
    return pages


# ----------------------------------------------------------------------------- boards

def board_pages() -> Pages:
    """Both boards and a sample position of each game in every view."""
    from ruleproof.model.dawn_under.board import default_board
    from ruleproof.model.dawn_under.config import make_config
    from ruleproof.model.dracula import default_board as dracula_board
    from ruleproof.render import dawn_under as du
    from ruleproof.render import dracula as dr
    from ruleproof.render.walk import dawn_under_random_walk, dracula_random_walk

    board = default_board()
    du_walk = dawn_under_random_walk(make_config(4), 7, max_steps=80)
    dr_walk = dracula_random_walk(2, max_steps=40)
    lines = ["# Boards and positions", "",
             "Drawn from the board files and the model at build time "
             "(`ruleproof render --board dawn-under --svg FILE`, "
             "`ruleproof render --board dracula --svg FILE`, or `--board BOARDFILE`).", "",
             "## Dawn Under", "",
             f"The **assumed** default board `{board.name}` (no source publishes the real "
             f"layout; load yours with `--board`): quarters {', '.join(board.quarters)} "
             f"(sizes {board.quarter_sizes()}), paths (sand) between them, grave ids, "
             "neighbouring graves joined by thin lines.", "",
             '<div class="ruleproof-picture" markdown="0">' + du.board_svg(board) + "</div>", "",
             "A position after 80 random actions (seed 7), everything shown (lids not yet "
             "turned as a dashed corner swatch, face-down vampires faded), then as any player "
             "sees it:", ""]
    frame = du_walk.frames[-1]
    from ruleproof.render.svg import document

    for i, name in enumerate(("everything", "every player (all see the same)")):
        lines += [f"**{name}**", "", '<div class="ruleproof-picture" markdown="0">'
                  + document(frame.pictures[i], du_walk.canvas, name) + "</div>", ""]
    lines += ["## Dracula", "",
              "The 3 x 4 board: harbour and carriage station in opposite corners (which corners "
              "is assumed), borders for the barriers.", "",
              '<div class="ruleproof-picture" markdown="0">' + dr.board_svg(dracula_board())
              + "</div>", "",
              "A position after 40 random actions (seed 2), in each view (hidden cards are "
              "face-down backs):", ""]
    frame = dr_walk.frames[-1]
    for v, name in enumerate(dr_walk.views):
        lines += [f"**{name}**", "", '<div class="ruleproof-picture" markdown="0">'
                  + document(dr_walk.picture(len(dr_walk.frames) - 1, v), dr_walk.canvas, name)
                  + "</div>", ""]
    return {"gen/boards.md": "\n".join(lines)}


# ----------------------------------------------------------------------------- reference

def assumed_page() -> Pages:
    """Every value no source settles."""
    from ruleproof.model.dawn_under.board import default_board
    from ruleproof.model.dracula import assumed_values
    from ruleproof.spec import manifest

    lines = ["# Assumed values", "", "Facts no rule text states, generated from the manifests, "
             "board and card data (`ruleproof assumed` prints the same).", "",
             "| game | fact | value | provenance | source / reason |",
             "| --- | --- | --- | --- | --- |"]
    for f in manifest("dawn_under").facts.values():
        if f.provenance != "rulebook":
            lines.append(f"| dawn-under | {_md(f.name)} | {_md(str(f.value))} | {f.provenance} "
                         f"| {_md(f.source)} |")
    b = default_board()
    lines.append(f"| dawn-under | board layout | {b.name}: quarters {b.quarter_sizes()} | "
                 f"{b.provenance} | grave coordinates and neighbour lists are published nowhere |")
    for what, value, why in assumed_values():
        lines.append(f"| dracula | {_md(what)} | {_md(value)} | assumed | {_md(why)} |")
    return {"gen/assumed.md": "\n".join(lines) + "\n"}


def options_page() -> Pages:
    """Presets and every rule option of both games."""
    from ruleproof.model.dawn_under.config import presets
    from ruleproof.model.dawn_under.state import OPTION_VALUES, Options
    from ruleproof.model.dracula.rules import DraculaRules

    defaults = Options()
    lines = ["# Presets and options", "", "Generated from `spec/dawn_under/presets.toml` and the "
             "option tables of the models. Narrative: [rule options](../rules-options.md).", "",
             "## Dawn Under presets", "", "| preset | source | players | options | description |",
             "| --- | --- | --- | --- | --- |"]
    for p in presets().values():
        opts = ", ".join(f"`{k}={v}`" for k, v in p.options) or "defaults"
        lines.append(f"| `{p.name}` | {p.source} | {', '.join(map(str, p.players))} | {opts} | "
                     f"{_md(p.description)} |")
    lines += ["", "## Dawn Under options", "", "| option | values (default first) |",
              "| --- | --- |"]
    for name, values in OPTION_VALUES.items():
        default = str(getattr(defaults, name)).lower()
        ordered = [default, *[v for v in values if v != default]]
        lines.append(f"| `{name}` | " + ", ".join(f"`{v}`" for v in ordered) + " |")
    lines += ["", "## Dracula options", "", "| option | default |", "| --- | --- |"]
    rules = DraculaRules()
    for f in fields(DraculaRules):
        value = getattr(rules, f.name)
        lines.append(f"| `{f.name}` | `{str(value).lower() if isinstance(value, bool) else value}`"
                     " |")
    return {"gen/options.md": "\n".join(lines) + "\n"}


def schemas_page() -> Pages:
    """Every JSON schema shipped in spec/."""
    lines = ["# Schemas", "", "JSON Schemas shipped in `spec/` (generated page).", ""]
    root = spec_path()
    for path in sorted(root.rglob("*.schema.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(root).as_posix()
        lines += [f"## `spec/{rel}`", "", _md(str(data.get("title", ""))), "",
                  "```json", json.dumps(data, indent=2), "```", ""]
    return {"gen/schemas.md": "\n".join(lines)}


# ----------------------------------------------------------------------------- statistics

STATS_SETS: tuple[tuple[str, int | None, str | None, tuple[str, ...]], ...] = (
    ("dawn-under", 3, "du-en", ()), ("dawn-under", 4, "du-en", ()),
    ("dawn-under", 5, "du-en", ()), ("dawn-under", 6, "du-en", ()),
    ("dawn-under", 4, "du-cs", ()), ("dawn-under", 2, "2p", ()),
    ("dawn-under", 4, "du-en", ("expansion=gruft",)),
    ("dracula", None, None, ()), ("dracula", None, None, ("first_player=van-helsing",)),
)
"""The rule sets on the statistics page: every preset, the expansion, both Dracula openings."""


def stats_games() -> int:
    """Games per rule set on the statistics page: ``RULEPROOF_DOCS_GAMES`` (default 30)."""
    raw = os.environ.get("RULEPROOF_DOCS_GAMES", "30")
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"RULEPROOF_DOCS_GAMES must be a positive integer, got {raw!r}")
    return int(raw)


def stats_pages(progress: Progress = _noop) -> Pages:
    """Statistics of every preset with plots, and one comparison of two readings."""
    from ruleproof.cli.stats import runner_for
    from ruleproof.properties.stats import compare, plot, run

    games = stats_games()
    pages: Pages = {}
    lines = ["# Play statistics", "",
             f"Random legal play, {games} games per rule set, seeds from 0 (generated at build "
             "time; set `RULEPROOF_DOCS_GAMES` for more). Win rates per seat with 95% Wilson "
             "intervals; the seat test is a chi-square goodness of fit against equal win rates "
             "at alpha 0.05. Random play says something about the rules' structure (turn "
             "order), not about skilled play. Reproduce with `ruleproof stats GAME ...`.", ""]
    all_findings: list[str] = []
    for i, (game, players, preset, options) in enumerate(STATS_SETS):
        runner = runner_for(game, players, preset, list(options), None)
        progress(f"statistics {runner.label}")
        st = run(runner, games, 0)
        name = f"stats-{i}.png"
        buf = _plot_bytes(plot, [st])
        pages[f"gen/{name}"] = buf
        lines += [f"## {st.label}", "", "| seat | wins | rate | 95% interval | equal share "
                  "inside? |", "| --- | --- | --- | --- | --- |"]
        share = 1 / len(st.seats)
        for s, iv in zip(st.seats, st.seat_wins, strict=True):
            inside = "yes" if iv.low <= share <= iv.high else "**no**"
            lines.append(f"| {s} | {iv.successes} | {iv.rate:.1%} | [{iv.low:.1%}, "
                         f"{iv.high:.1%}] | {inside} |")
        ls = st.length_summary()
        lines += ["", f"Seat test: chi-square {st.chi2:.2f}, df {st.df}, p = {st.p_value:.3g}. "
                  f"Length (player actions): mean {ls['mean']:.1f}, median {ls['median']:.0f}, "
                  f"range {ls['min']:.0f}–{ls['max']:.0f}. Endings: "
                  + "; ".join(f"{_md(k)} {v}" for k, v in st.endings.items()) + ". Per game: "
                  + "; ".join(f"{k} {sum(v) / len(v):.1f}" for k, v in st.counts.items()) + ".",
                  ""]
        lines += [f"**Finding:** {_md(f)}" for f in st.findings] or ["No seat advantage found."]
        lines += ["", f"![{st.label}]({name})", ""]
        all_findings += st.findings
    a = runner_for("dawn-under", 4, "du-en", [], None)
    b = runner_for("dawn-under", 4, "du-en", ["after_match=turn-ends"], None)
    progress("statistics comparison")
    sa, sb = run(a, games, 0), run(b, games, 0)
    cmp = compare(sa, sb)
    pages["gen/stats-compare.png"] = _plot_bytes(plot, [sa, sb])
    lines += ["## Two readings compared: may a player continue after a match?", "",
              "`ruleproof stats dawn-under --compare after_match=turn-ends` (du-en lets the "
              "player go on after a match; du-cs ends the turn):", "",
              f"Mean length difference {cmp.length_diff:+.1f} actions (p = {cmp.length_p:.3g}); "
              "per-seat win-rate differences p = " + ", ".join(f"{p:.3g}" for p in cmp.seat_p)
              + ".", ""]
    lines += [f"**Finding:** {_md(f)}" for f in cmp.findings] or ["No significant difference "
                                                                  f"in {games} games."]
    lines += ["", "![comparison](stats-compare.png)", ""]
    lines[3:3] = ["## Findings", ""] + ([f"* {_md(f)}" for f in all_findings + list(cmp.findings)]
                                       or ["None."]) + [""]
    pages["gen/statistics.md"] = "\n".join(lines)
    return pages


def _plot_bytes(plot: Callable[..., None], stats: list[Any]) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "plot.png"
        plot(stats, str(path))
        return path.read_bytes()


# ----------------------------------------------------------------------------- all

def replaced_pages() -> Pages:
    """The committed generated pages, regenerated (with links to the witness pages)."""
    from ruleproof.cli.docgen import ambiguities_markdown, clauses_markdown

    text = ambiguities_markdown()
    links = []
    for item in shipped_files():
        if item.group in ("witnesses", "discovered"):
            links.append(f"* [{item.slug}](gen/scenarios/{item.group}/{item.slug}.md)")
    text += ("\n## Witnesses step by step\n\nEach witness replayed under every reading, with "
             "pictures (generated):\n\n" + "\n".join(links) + "\n")
    return {"ambiguities.md": text, "clauses.md": clauses_markdown()}


def generated_pages(progress: Progress = _noop, *, stats: bool = True) -> Pages:
    """Every generated file of the site (see the module docstring)."""
    pages: Pages = {}
    for make in (replaced_pages, clause_pages, assumed_page, options_page, schemas_page,
                 board_pages):
        progress(make.__name__)
        pages.update(make())
    pages.update(scenario_pages(progress))
    if stats:
        pages.update(stats_pages(progress))
    else:
        pages["gen/statistics.md"] = ("# Play statistics\n\nLeft out of this preview build "
                                      "(`RULEPROOF_DOCS_STATS=0`); the full build and "
                                      "`ruleproof stats GAME` compute them.\n")
    return pages


def work_units(stats: bool = True) -> int:
    """How many times :func:`generated_pages` calls ``progress`` (for a bar's total)."""
    return 6 + len(shipped_files()) + ((len(STATS_SETS) + 1) if stats else 0)


def write_pages(pages: Pages, directory: Path) -> list[Path]:
    """Write ``pages`` under ``directory`` (for inspection; the build does not need this)."""
    out = []
    for name, content in pages.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        out.append(path)
    return out

