"""The documentation site's generated pages, made from spec/ and the code at build time.

:func:`generated_pages` returns every generated file (site path -> text or bytes); the mkdocs
hook (``ruleproof/cli/mkdocs_hooks.py``, named in ``mkdocs.yml``) adds them to the build, so
``mkdocs build --strict`` (or ``ruleproof docs --build``) always shows the current spec and code
and the site cannot drift. Nothing is written into ``docs/``.

Every game's part comes from the registry (:mod:`ruleproof.properties.plugin`), never from
a list of games here: its data folder (scenarios, traces), its capability ``render`` (boards
and sample positions), its capability ``docs`` (a :class:`GameDocs`: assumed values, presets and
options, the rule sets of the statistics page) and its capability ``ambiguities`` (the
catalogue page).

Generated (under ``gen/``): boards and sample positions; a page per shipped scenario (every
game's, the ambiguity witnesses, the discovered findings and the ending witnesses) and per
conformance trace, each with its final position and an embedded step-through page
(``gen/walks/*.html``); clauses per source with the code that cites each, and a
contract-status column when ``ruleproof.properties.contracts`` offers one
(:func:`clause_columns`); assumed values; presets and options; file schemas; play statistics
with plots. ``ambiguities.md``, ``clauses.md`` and ``scenarios.md`` are made by freshly
generated versions (``ruleproof docs`` still writes them into ``docs/``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ruleproof.cli.sitelinks import clause_anchor
from ruleproof.spec import clause_registry, shipped_documents, spec_path
from ruleproof.system.outputs import write_file

Pages = dict[str, str | bytes]
"""site path (relative to docs_dir) -> page text (Markdown/HTML) or bytes (images)."""

Progress = Callable[[str], None]
"""Called with a label once per unit of work (for a progress bar)."""


def _noop(label: str) -> None:
    del label


def _md(text: str) -> str:
    """Escape a table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


# ----------------------------------------------------------------------------- games

StatsSet = tuple[int | None, str | None, tuple[str, ...]]
"""(players, preset, options ``NAME=VALUE``) of a rule set on the statistics page (None: the
game's default)."""


class GameDocs(Protocol):
    """What the site and ``ruleproof assumed`` show of a game besides its clauses, scenarios
    and pictures (the capability ``docs`` of its plugin record).

    Attributes:
        statistics: the rule sets of the statistics page.
        comparison: (players, preset, the other reading's options, heading, introduction) of
            two readings compared on the statistics page, or None.
    """

    statistics: tuple[StatsSet, ...]
    comparison: tuple[int | None, str | None, tuple[str, ...], str, str] | None

    def assumed(self) -> list[tuple[str, str, str, str]]:
        """(fact, value, provenance, source or reason) of every value no rule text states."""
        ...

    def reference(self) -> list[str]:
        """Markdown sections (``## ...``) of the game's presets and rule options."""
        ...


def docs_of() -> dict[str, GameDocs]:
    """Every registered game with the capability ``docs``, by name (registry order)."""
    from ruleproof.properties.plugin import plugins

    out: dict[str, GameDocs] = {}
    for name, p in plugins().items():
        found = p.capability("docs")
        if found is not None:
            out[name] = found
    return out


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
    """``gen/clauses/index.md`` and one page per source document: a heading per clause (its id,
    anchored at :func:`~ruleproof.cli.sitelinks.clause_anchor`, so the site's search finds the
    entry by its id and links land on it), then the other columns of :func:`clause_columns`
    and the paraphrase."""
    cols = clause_columns()
    index = ["# Clauses per source", "",
             "Generated from `spec/*/clauses.toml` at build time. Each clause: "
             + ", ".join(name for name, _ in cols) + ".", "",
             "| source | title | clauses |", "| --- | --- | --- |"]
    pages: Pages = {}
    for doc in shipped_documents():
        reg = clause_registry(doc)
        items = list(reg)
        index.append(f"| [{doc}]({doc}.md) | {_md(reg.title)} | {len(items)} |")
        lines = [f"# {doc}: {reg.title}", "", f"{len(items)} clauses, generated from "
                 f"`spec/{doc}/clauses.toml`.", ""]
        for c in items:
            meta = " · ".join(f"**{name}** {fn(c)}" for name, fn in cols
                              if name not in ("id", "paraphrase"))
            lines += [f"### {c.id} {{#{clause_anchor(c.id)}}}", "", meta, "", _md(c.text), ""]
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


KINDS = {"witnesses": "Ambiguity witnesses (scenarios under every reading of a register entry)",
         "discovered": "Discovered findings (ruleproof ambiguities --discover)",
         "endings": "Ending witnesses (ruleproof prove)", "traces": "Conformance traces"}
"""The kinds of shipped file below the games' own scenarios, in page order: the folders
``scenarios/<kind>/`` (and ``traces/``) of every game's data folder."""


def shipped_files() -> list[Shipped]:
    """Every shipped scenario and conformance trace of every registered game: first each
    game's own scenarios (``spec/<game>/scenarios/*.toml``, group: the game's name), then each
    kind of :data:`KINDS` across the games (``scenarios/<kind>/*.toml``; ``traces/*.jsonl``)."""
    from ruleproof.properties.plugin import plugins

    folders = [(p.name, p.spec_folder) for p in plugins().values()]
    out = [Shipped(path, game, path.stem) for game, folder in folders
           for path in sorted((folder / "scenarios").glob("*.toml"))]
    for kind in KINDS:
        pattern = "traces/*.jsonl" if kind == "traces" else f"scenarios/{kind}/*.toml"
        out += [Shipped(path, kind, path.stem) for _, folder in folders
                for path in sorted(folder.glob(pattern))]
    return out


def group_title(group: str) -> str:
    """The heading of a group of shipped files on the scenario index."""
    from ruleproof.properties.plugin import plugins

    found = plugins().get(group)
    return f"{found.title} scenarios" if found is not None else KINDS.get(group, group)


def scenario_pages(progress: Progress = _noop) -> Pages:
    """A page and a step-through page per shipped file, and the index ``gen/scenarios/``."""
    from ruleproof.properties.render.svg import document
    from ruleproof.render.page import html_page
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
            index += ["", f"## {group_title(item.group)}", "", "| file | title | steps |",
                      "| --- | --- | --- |"]
        walks = walks_of(item.path)
        walk_file = f"gen/walks/{item.group}/{item.slug}.html"
        pages[walk_file] = html_page(walks, walks[0].title,
                                     back=f"../../scenarios/{item.group}/{item.slug}/")
        page = ["---", "hide:", "  - navigation", "  - toc", "---", "", f"# {walks[0].title}", ""]
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
                 f'<iframe class="ruleproof-walk" src="../../../walks/{item.group}/{item.slug}.html" '
                 'loading="lazy" '
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
    """Every game's board and a sample position in each of its pictures (the capability
    ``render``: the board, the sample's seed and length, the texts)."""
    from ruleproof.properties.plugin import plugins
    from ruleproof.properties.render.svg import document
    from ruleproof.render.walk import random_walk, renderer

    games = [p for p in plugins().values() if p.capability("render") is not None]
    drawn = ", ".join(f"`ruleproof render --board {p.name} --svg FILE`" for p in games)
    lines = ["# Boards and positions", "",
             f"Drawn from the board files and the model at build time ({drawn}, or "
             "`--board BOARDFILE`).", ""]
    for p in games:
        r = renderer(p.name)
        seed, steps = r.sample
        walk = random_walk(p.name, {}, seed, max_steps=steps)
        lines += [f"## {p.title}", "", r.board_text, "",
                  '<div class="ruleproof-picture" markdown="0">' + r.board_svg(None) + "</div>",
                  "", r.sample_text, ""]
        last = walk.frames[-1]
        for i, picture in enumerate(last.pictures):
            seeing = [v for k, v in enumerate(walk.views) if walk.picture_index(k) == i]
            name = seeing[0] if len(seeing) == 1 else "every player (all see the same)"
            lines += [f"**{name}**", "", '<div class="ruleproof-picture" markdown="0">'
                      + document(picture, walk.canvas, name) + "</div>", ""]
    return {"gen/boards.md": "\n".join(lines)}


def alignment_table(source: str, differences_only: bool = False) -> str:
    """The alignment of ``source`` as a Markdown table with both texts' paraphrases side by side
    (each id links to its registry entry through the page hook); ``differences_only`` leaves out
    the pairs whose relation is ``agree``.

    Raises:
        MalformedInput: no alignment ships for ``source``.
    """
    from ruleproof.spec.alignment import alignment

    al = alignment(source)
    src, tgt = clause_registry(al.source), clause_registry(al.target)

    def said(reg: Any, ids: tuple[str, ...]) -> str:
        if not ids:
            return "—"
        return "<br>".join(f"`{i}` {_md(reg.get(i).text)}" for i in ids)

    lines = [f"| relation | {al.source} | {al.target} | note |", "| --- | --- | --- | --- |"]
    for pair in al.pairs:
        if differences_only and pair.relation == "agree":
            continue
        mine = (pair.source,) if pair.source else ()
        lines.append(f"| {pair.relation} | {said(src, mine)} | {said(tgt, pair.targets)} | "
                     f"{_md(pair.note)} |")
    return "\n".join(lines) + "\n"


def alignment_pages() -> Pages:
    """``gen/alignments.md``: every shipped alignment, every pair, both paraphrases."""
    from ruleproof.spec.alignment import alignment, shipped_alignments

    out = ["# Alignments, side by side", "",
           "Every clause of each second source beside its counterpart(s), with both "
           "paraphrases (generated from `spec/<game>/alignment/*.toml`; the ids link to the "
           "clause tables).", ""]
    for source in shipped_alignments():
        al = alignment(source)
        out += [f"## {al.source} against {al.target} ({al.kind})", "",
                alignment_table(source), ""]
    return {"gen/alignments.md": "\n".join(out)}


def fill_markers(markdown: str) -> str:
    """A page with its markers filled in (the page hook calls it on every page):
    ``<!-- ruleproof:alignment SOURCE [differences] -->`` by :func:`alignment_table`,
    ``<!-- ruleproof:boards -->`` by every game's
    board (the capability ``render``), ``<!-- ruleproof:status -->`` by the status table of
    :mod:`ruleproof.cli.sitestatus` (from ``$RULEPROOF_DOCS_RESULTS`` when set).

    Raises:
        MalformedInput: the results file is not ``check --json`` output.
    """
    from ruleproof.cli.sitestatus import load_results, status_markdown
    from ruleproof.properties.plugin import plugins
    from ruleproof.render.walk import renderer

    if "<!-- ruleproof:boards -->" in markdown:
        games = [p for p in plugins().values() if p.capability("render") is not None]
        cells = [f'<figure class="ruleproof-home-board">{renderer(p.name).board_svg(None)}'
                 f"<figcaption>{p.title}</figcaption></figure>" for p in games]
        markdown = markdown.replace("<!-- ruleproof:boards -->",
                                    '<div class="ruleproof-home-boards" markdown="0">'
                                    + "".join(cells) + "</div>")
    for m in re.finditer(r"<!-- ruleproof:alignment ([\w-]+)( differences)? -->", markdown):
        markdown = markdown.replace(m.group(0), alignment_table(m.group(1), bool(m.group(2))))
    for m in re.finditer(r"<!-- ruleproof:board ([\w-]+) -->", markdown):
        markdown = markdown.replace(m.group(0), '<div class="ruleproof-picture" markdown="0">'
                                    + renderer(m.group(1)).board_svg(None) + "</div>")
    for m in re.finditer(r"<!-- ruleproof:rulesets ([\w-]+) -->", markdown):
        markdown = markdown.replace(m.group(0), rule_sets_markdown(m.group(1)))
    if "<!-- ruleproof:status -->" in markdown:
        markdown = markdown.replace("<!-- ruleproof:status -->", status_markdown(load_results()))
    return markdown


def rule_sets_markdown(game: str) -> str:
    """A table of ``game``'s rule sets (what ``check`` covers: presets, expansions, readings),
    each with its sources and its options on top of the preset.

    Raises:
        MalformedInput: ``game`` is not registered.
    """
    from ruleproof.cli.sitestatus import status_rows
    from ruleproof.properties.plugin import Selection, plugin

    p = plugin(game)
    rows = {r.rule_set: r for r in status_rows(None) if r.game == game}
    out = ["| rule set | preset | options (readings) | sources | clauses | contracts |",
           "| --- | --- | --- | --- | ---: | --- |"]
    for rs in p.rule_sets(Selection()):
        if rs.shared or rs.name not in rows:
            continue
        r = rows[rs.name]
        opts = ", ".join(f"`{k}={v}`" for k, v in rs.options) or "the defaults"
        out.append(f"| {rs.name} | {rs.preset or '—'} | {opts} | {', '.join(r.sources)} | "
                   f"{r.clauses} | {r.coverage} |")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- reference

def assumed_page() -> Pages:
    """Every value no source settles, of every game (the capability ``docs``)."""
    lines = ["# Assumed values", "", "Facts no rule text states, generated from the manifests, "
             "board and card data (`ruleproof assumed` prints the same).", "",
             "| game | fact | value | provenance | source / reason |",
             "| --- | --- | --- | --- | --- |"]
    for game, docs in docs_of().items():
        for fact, value, provenance, source in docs.assumed():
            lines.append(f"| {game} | {_md(fact)} | {_md(value)} | {provenance} | "
                         f"{_md(source)} |")
    return {"gen/assumed.md": "\n".join(lines) + "\n"}


def options_page() -> Pages:
    """Presets and every rule option of every game (the capability ``docs``)."""
    lines = ["# Presets and options", "", "Generated from the games' presets "
             "(`spec/*/presets.toml`) and the option tables of the models. Narrative: "
             "[rule options](../rules-options.md).", ""]
    for docs in docs_of().values():
        lines += [*docs.reference(), ""]
    return {"gen/options.md": "\n".join(lines).rstrip("\n") + "\n"}


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

def stats_sets() -> tuple[tuple[str, int | None, str | None, tuple[str, ...]], ...]:
    """(game, players, preset, options) of every rule set on the statistics page: each game's
    (the capability ``docs``), in registry order."""
    return tuple((game, *s) for game, docs in docs_of().items() for s in docs.statistics)


def stats_runs() -> int:
    """Rule sets played by :func:`page_study`: every statistics set and both sides of each
    comparison."""
    return len(stats_sets()) + 2 * sum(1 for d in docs_of().values() if d.comparison)


def stats_games() -> int:
    """Games per rule set on the statistics page: ``RULEPROOF_DOCS_GAMES`` (default 200, the
    ``stats`` command's default; about 20 s for every rule set)."""
    raw = os.environ.get("RULEPROOF_DOCS_GAMES", "200")
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise ValueError(f"RULEPROOF_DOCS_GAMES must be a positive integer, got {raw!r}")
    return int(raw)


def page_study(games: int, seed: int = 0, alpha: float = 0.05,
               progress: Progress = _noop) -> tuple[Any, tuple[tuple[str, str, str], ...]]:
    """The statistics page's study, the one ``ruleproof stats all`` prints: every rule set of
    :func:`stats_sets` and each game's comparison, ``games`` games each from ``seed``, every
    seat test of them corrected as one family (:func:`ruleproof.properties.stats.study`);
    ``progress`` is called after each of the :func:`stats_runs` runs. Returns the study and,
    per comparison, (game, heading, introduction)."""
    from ruleproof.cli.stats import runner_for
    from ruleproof.properties.stats import compare, run, study

    stats = []
    for game, players, preset, options in stats_sets():
        runner = runner_for(game, players, preset, list(options), None)
        stats.append(run(runner, games, seed, alpha=alpha))
        progress(f"statistics {runner.label}")
    comparisons, texts = [], []
    for game, docs in docs_of().items():
        if docs.comparison is None:
            continue
        players, preset, other, heading, intro = docs.comparison
        a = runner_for(game, players, preset, [], None)
        b = runner_for(game, players, preset, list(other), None)
        first = run(a, games, seed, alpha=alpha)
        progress(f"statistics {a.label}")
        second = run(b, games, seed, alpha=alpha)
        progress(f"statistics {b.label}")
        comparisons.append(compare(first, second))
        texts.append((game, heading, intro))
    return study(stats, comparisons, alpha), tuple(texts)


def stats_pages(progress: Progress = _noop) -> Pages:
    """Statistics of every preset with plots, and each game's comparison of two readings, from
    :func:`page_study` (the numbers ``ruleproof stats all --games N --seed 0`` prints)."""
    from ruleproof.properties.stats import plot

    games = stats_games()
    sty, texts = page_study(games, 0, 0.05, progress)
    pages: Pages = {}
    lines = ["# Play statistics", "",
             f"Random legal play, {games} games per rule set, seeds from 0 (generated at build "
             "time; set `RULEPROOF_DOCS_GAMES` for more). Reproduce every number on this page "
             f"with `ruleproof stats all --games {games} --seed 0`. Win rates per seat with 95% "
             "Wilson intervals; each seat is tested against the equal share, and every test on "
             f"this page ({len(sty.tests)} of them: all seats of all rule sets and the "
             "comparisons) is corrected as one family by Holm's method at a family-wise 0.05. "
             "A *finding* survives the correction; *exploratory* results are below 0.05 only "
             "before it and need a bigger run. Random play says something about the rules' "
             "structure (turn order), not about skilled play.", ""]
    for i, st in enumerate(sty.stats):
        name = f"stats-{i}.png"
        pages[f"gen/{name}"] = _plot_bytes(plot, [st])
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
                  "", f"![{st.label}]({name})", ""]
    for j, (cmp, (_game, heading, intro)) in enumerate(zip(sty.comparisons, texts, strict=True)):
        image = f"stats-compare{'-' + str(j) if j else ''}.png"
        pages[f"gen/{image}"] = _plot_bytes(plot, [cmp.a, cmp.b])
        lines += [f"## {heading}", "", intro, "",
                  f"Mean length difference {cmp.length_diff:+.1f} actions (p = "
                  f"{cmp.length_p:.3g}); per-seat win-rate differences p = "
                  + ", ".join(f"{p:.3g}" for p in cmp.seat_p) + " (before the correction).", "",
                  f"![comparison]({image})", ""]
    head = ["## Findings", ""]
    head += [f"* **Finding:** {_md(t.text())}" for t in sty.findings] or [
        f"No finding survives the correction in {games} games per rule set."]
    head += [""] + [f"* *Exploratory:* {_md(t.text())}" for t in sty.exploratory] + [""]
    head += ["### Power", "", *[f"* {_md(x)}" for x in sty.power_lines()], ""]
    lines[3:3] = head
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
    """The pages made from every registered game's data (the ambiguity catalogue of every
    game's registers, with links to the witness pages, the clause tables, the scenario format
    with every game's actions): not committed, so adding a game changes no shared file;
    ``ruleproof docs DIR`` writes them."""
    from ruleproof.cli.docgen import clauses_markdown, scenarios_markdown
    from ruleproof.properties.contracts.register import catalogue
    from ruleproof.spec import spec_path

    root = spec_path()
    pages = {}
    for item in shipped_files():
        if item.path.resolve().is_relative_to(root):
            pages[item.path.resolve().relative_to(root).as_posix()] = \
                f"gen/scenarios/{item.group}/{item.slug}.md"
    # every game's registers, each witness linked to its step-by-step page
    text = catalogue(link=pages.get)
    return {"ambiguities.md": text, "clauses.md": clauses_markdown(),
            "scenarios.md": scenarios_markdown()}


def generated_pages(progress: Progress = _noop, *, stats: bool = True) -> Pages:
    """Every generated file of the site (see the module docstring)."""
    pages: Pages = {}
    for make in (replaced_pages, clause_pages, alignment_pages, assumed_page, options_page,
                 schemas_page, board_pages):
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
    return 7 + len(shipped_files()) + (stats_runs() if stats else 0)


def write_pages(pages: Pages, directory: Path) -> list[Path]:
    """Write ``pages`` under ``directory`` (for inspection; the build does not need this)."""
    out = []
    for name, content in pages.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, content)  # whole or not at all, never over a link or device
        out.append(path)
    return out

