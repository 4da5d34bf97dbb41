"""``ruleproof clauses --contracts``, ``ruleproof ambiguities`` and ``ruleproof ambiguities
--discover``: the clause contracts' coverage, the games' ambiguity registers, and what the
contracts leave open (docs/discovery.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ruleproof.errors import MalformedInput
from ruleproof.properties.report import Profile


def print_contracts(out: Console, as_json: bool = False) -> None:
    """Per source: rule clauses with a contract, and those without one with the reason."""
    from ruleproof.properties.contracts.core import contract_set, coverage
    from ruleproof.properties.contracts.games import sources

    rows = []
    for source in sources():
        cov = coverage(contract_set(source))
        rows.append(cov)
    if as_json:
        out.print_json(json.dumps([{
            "source": c.source, "rule_clauses": len(c.rule_clauses), "covered": len(c.covered),
            "ratio": round(c.ratio, 3), "uncovered": c.uncovered,
            "unexplained": list(c.unexplained), "setup": len(c.setup)} for c in rows]))
        return
    table = Table(title="clause contracts per source")
    for col in ("source", "rule clauses", "with a contract", "share", "set-up (not counted)"):
        table.add_column(col)
    for c in rows:
        table.add_row(c.source, str(len(c.rule_clauses)), str(len(c.covered)),
                      f"{100 * c.ratio:.0f}%", str(len(c.setup)))
    out.print(table)
    for c in rows:
        for clause, why in c.uncovered.items():
            out.print(f"  {clause}: no contract -- {why}")
        for clause in c.unexplained:
            out.print(f"  [red]{clause}: no contract and no reason[/]")


def run_discover(out: Console, profile: str, as_json: bool, write: Path | None, *,
                 workers: int = 1, address: str | None = None, game: str | None = None,
                 docs: Path | None = None) -> None:
    """Run discovery (its searches on ``workers`` Ray workers or the cluster at ``address``,
    docs/campaigns.md) on every game's rule sets, or ``game``'s; print per source the findings,
    the distinct questions they pose, how many a register entry explains and the contract
    adequacy, then every question with the entry that explains it and its findings, and the
    precision (questions accepted / reported). Exit 1 when a finding is new (so CI notices),
    listing the new ones. ``write``: a replayable witness scenario per new finding; ``docs``:
    the page docs/discovery.md written from this run.

    Raises:
        MalformedInput: --workers out of 1..64, Ray missing, nothing listening at ``address``,
            an unknown game or one without discovery.
    """
    from ruleproof.cli.progress import progress
    from ruleproof.properties.contracts.discovery import (
        all_kinds,
        default_rule_sets,
        discover,
        searches,
    )

    if not 1 <= workers <= 64:
        raise MalformedInput(f"--workers must be 1..64, got {workers}")
    if write is not None:
        _check_folder(write)
    if docs is not None:
        _check_file(docs)
    names = _rule_sets_of(game) if game is not None else list(default_rule_sets())
    total = len(searches(names, all_kinds()))
    if docs is not None:  # refused before the run, not after it
        from ruleproof.system.outputs import Target, check_target

        check_target(Target(docs, "--write-docs", "page"))
    with progress(f"discovery ({profile})", total) as advance:  # stderr, --json too
        report = discover(profile, names, workers=workers, address=address,
                          progress=lambda name: advance(1, f"discovery: {name} done"))
    if write is not None:
        _write_witnesses(report, write)
    if docs is not None:
        from ruleproof.cli.docgen import discovery_markdown
        from ruleproof.system.outputs import Target, write_file

        write_file(Target(docs, "--write-docs", "page"), discovery_markdown(report))
    if as_json:
        out.print_json(json.dumps(report_json(report)))
    else:
        print_report(out, report)
        if docs is not None:
            out.print(f"wrote {docs}", markup=False)
    if report.new:
        raise typer.Exit(1)


def _rule_sets_of(game: str) -> list[str]:
    """The rule sets discovery searches for ``game``.

    Raises:
        MalformedInput: an unknown game, or one without discovery (naming those with it).
    """
    from ruleproof.properties.contracts.discovery import discovery_of
    from ruleproof.properties.plugin import plugins

    with_discovery = {p.name: cap for p in plugins().values()
                      if (cap := discovery_of(p)) is not None}
    if game not in with_discovery:
        raise MalformedInput(f"no discovery for {game!r}; games with discovery: "
                             f"{', '.join(with_discovery)}")
    return list(with_discovery[game].default_rule_sets)


def _write_witnesses(report: Any, folder: Path) -> None:
    from ruleproof.properties.contracts.witness import finding_scenario
    from ruleproof.properties.contracts.witness import write as write_file

    for f in report.new:
        if f.kind not in ("cycle", "symbolic", "translation") and f.seed >= 0:
            name = "".join(ch if ch.isalnum() else "-" for ch in f"{f.rule_set}-{f.key}")
            try:
                text = finding_scenario(f)
            except (ValueError, KeyError, NotImplementedError, MalformedInput):
                continue
            write_file(folder / f"{name[:90]}.toml", text)


def finding_json(f: Any) -> dict[str, Any]:
    """A finding as JSON."""
    from ruleproof.properties.contracts.discovery import question_id, source_of

    return {"kind": f.kind, "key": f.key, "rule_set": f.rule_set, "source": source_of(f),
            "search": f.search or f.kind, "clauses": list(f.clauses), "seed": f.seed,
            "prefix": list(f.prefix), "action": f.action, "detail": f.detail,
            "question": f.question or None, "readings": list(f.readings),
            "fields": list(f.fields), "subject": list(f.subject), "explained_by": f.explained_by or None,
            "question_id": question_id(f)}


def report_json(report: Any) -> dict[str, Any]:
    """Everything a discovery run found, for machines: findings, distinct questions (with the
    entry explaining each), per source figures and adequacy, precision, time."""
    questions = report.questions()
    return {
        "profile": report.profile, "seconds": round(report.seconds, 1),
        "searches": {k: round(v, 2) for k, v in report.unit_seconds.items()},
        "findings": [finding_json(f) for f in report.findings],
        "questions": [{"id": q.id, "source": q.source, "entry": q.entry or None,
                       "accepted": q.accepted, "question": q.text,
                       "findings": len(q.findings), "keys": sorted({f.key for f in q.findings})}
                      for q in questions],
        "sources": report.per_source(),
        "precision": {"accepted": sum(q.accepted for q in questions),
                      "reported": len(questions), "ratio": round(report.precision, 3)},
        "adequacy": report.adequacy(),
        "new": len(report.new), "new_findings": [finding_json(f) for f in report.new],
        "workers": report.workers, "cut": report.cut,
        "stats": {k: v for k, v in report.stats.items() if k != "adequacy"}}


def print_report(out: Console, report: Any) -> None:
    """The human report of a discovery run (see :func:`run_discover`)."""
    questions = report.questions()
    accepted = sum(q.accepted for q in questions)
    per = Table(title=f"discovery ({report.profile} profile, {report.seconds:.0f}s): "
                      f"{len(report.findings)} findings, {len(questions)} distinct questions, "
                      f"{len(report.new)} new findings")
    for col in ("source", "findings", "distinct questions", "explained by a register",
                "contract adequacy (mutants killed / survived)"):
        per.add_column(col, overflow="fold")
    for source, row in report.per_source().items():
        adequacy = row.get("adequacy")
        shown = (f"{adequacy['killed']} / {adequacy['survived']}" if adequacy else "—")
        per.add_row(source, str(row["findings"]), str(row["questions"]),
                    str(row["accepted"]), shown)
    out.print(per)
    table = Table(title="questions (findings deduplicated), with the entry that explains each")
    for col in ("entry", "source", "question", "findings", "witness"):
        table.add_column(col, overflow="fold")
    for q in sorted(questions, key=lambda q: (q.accepted, q.source, q.id)):
        f = q.findings[0]
        status = f"[green]{_escape(q.entry)}[/]" if q.accepted else "[red]NEW[/]"
        keys = sorted({x.key for x in q.findings})
        what = _escape(q.text if q.text != f.key else "")
        shown = (what + "\n" if what else "") + "\n".join(_escape(k) for k in keys[:3]) + \
            (f"\n(+{len(keys) - 3} more keys)" if len(keys) > 3 else "")
        table.add_row(status, _escape(q.source), shown, str(len(q.findings)),
                      _escape(f"{f.rule_set}: seed {f.seed}, {len(f.prefix)} actions, then "
                              f"'{f.action}'"))
    out.print(table)
    out.print(f"precision: {accepted} of {len(questions)} distinct questions accepted "
              f"(explained by a register entry): {100 * report.precision:.0f}%", markup=False)
    for f in report.new:
        out.print(f"[red]NEW[/] {_escape(f.rule_set)}: {_escape(f.key)}: "
                  f"{_escape(f.question or f.detail)}", markup=True)
    if report.cut:
        out.print(f"note: the {report.profile} profile's time ran out during: "
                  f"{', '.join(report.cut)} (their findings depend on speed)")


def _check_file(path: Path) -> None:
    """Fail before the run if ``--write-docs PATH`` cannot be written.

    Raises:
        MalformedInput: naming --write-docs.
    """
    if path.is_dir():
        raise MalformedInput("--write-docs: is a folder, not a file", file=str(path))
    if not path.parent.is_dir():
        raise MalformedInput("--write-docs: its folder does not exist", file=str(path))
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise MalformedInput("--write-docs: cannot write there", file=str(path))


def _check_folder(folder: Path) -> None:
    """Fail before the discovery run if ``--witnesses FOLDER`` cannot become a folder of
    files: it (or its nearest existing ancestor) is a file, or that ancestor is not writable.

    Raises:
        MalformedInput: naming --witnesses.
    """
    if folder.exists() and not folder.is_dir():
        raise MalformedInput("--witnesses: exists and is not a folder", file=str(folder))
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise MalformedInput(f"--witnesses: {ancestor} is not a folder", file=str(folder))
    if not os.access(ancestor, os.W_OK):
        raise MalformedInput(f"--witnesses: cannot write in {ancestor}", file=str(folder))


def run_register(out: Console, prof: Profile, as_json: bool, *, game: str | None = None,
                 entry: str | None = None, search: bool = False, write: bool = False) -> None:
    """``ruleproof ambiguities [GAME] [ID]``: every entry of every register of every game (the
    ambiguity registers, capability ``"ambiguities"``, and the discovered registers) in one
    table with each witness replayed, or one entry in full with ``ID``; ``search`` searches
    each witness again (``write`` rewrites the files) and compares the games' translations as
    texts. Exits 1 when a witness fails or a divergence is unexplained.

    Raises:
        MalformedInput: an unknown game or entry id (naming the known ones).
    """
    from ruleproof.properties.contracts.register import (
        as_json as entry_json,
    )
    from ruleproof.properties.contracts.register import (
        entries,
        lookup,
        registers,
        registers_by_name,
    )

    games = [p.name for p, _cap in registers()]
    if game is not None and game not in games and entry is None:
        if not any(e.id == game for e in entries()):  # neither: say both were looked for
            raise MalformedInput(f"unknown game {game!r}; games with a register: "
                                 f"{', '.join(games)}; nor is it the id of a register entry "
                                 "(their ids: ruleproof ambiguities GAME)")
        game, entry = None, game  # ``ambiguities ID``: the id alone
    if entry is not None:
        if search:
            raise MalformedInput("--search works on the whole register, not on one entry")
        _show_entry(out, lookup(game, entry), as_json)
        return
    found = entries(game)
    caps = registers_by_name()
    rows: list[dict[str, Any]] = []
    failed = 0
    from contextlib import ExitStack

    from ruleproof.cli.progress import progress

    bar = ExitStack()  # closed before the report; stderr on a terminal only (--json too)
    advance = bar.enter_context(progress(
        "replaying witnesses" + (" and searching" if search else ""),
        len(found) + (len([game] if game else games) if search else 0)))
    for e in found:
        advance()
        row = entry_json(e)
        ok = row["replay"] != "FAIL"
        if search and e.option and e.native is not None:
            hit, how = caps[e.game].find_witness(e.native, max(50, prof.games * 10),
                                                 write=write, shrink=write)
            row["search"] = ("found: " if hit else "NOT FOUND: ") + how
            ok = ok and hit
        failed += not ok
        rows.append(row)
    unexplained: list[str] = []
    divergences = 0
    if search:
        # each game's translations compared as texts (their clause contracts), not as engine
        # options (properties/contracts/discovery.py); every divergence must match an entry.
        for name in ([game] if game else games):
            advance(1, f"comparing {name}'s texts")
            gaps = caps[name].compare_texts(prof.name)
            divergences += len(gaps)
            unexplained += [f"{f.rule_set}: {f.key} (seed {f.seed}, {len(f.prefix)} actions, "
                            f"then '{f.action}'): {f.detail}" for f in gaps if not f.explained_by]
    bar.close()
    if as_json:
        out.print_json(json.dumps({"entries": rows, "divergences": divergences,
                                   "unexplained": unexplained,
                                   "passed": not failed and not unexplained}))
    else:
        if not rows and not search:  # empty registers (Kuhn poker): a sentence, no table
            out.print(f"rule questions: none registered for {game or 'any game'}")
            raise typer.Exit(0)
        n, g = len(found), len({e.game for e in found})
        table = Table(title=f"rule questions: {n} register entr{'y' if n == 1 else 'ies'} of "
                            f"{g} game{'' if g == 1 else 's'}")
        for col in ("game", "id", "question", "readings (model first)", "option", "witness"):
            table.add_column(col, overflow="fold")
        if search:
            table.add_column("search", overflow="fold")
        for row in rows:
            witness = {"pass": "[green]replays[/]", "FAIL": "[red]FAIL[/]",
                       "argued": "no difference (argued)"}[row["replay"]]
            if row["discovered"]:
                witness += " (discovered)"
            readings = [r["value"] for r in row["readings"]]
            if row["default"] in readings:
                readings.remove(row["default"])
                readings.insert(0, row["default"])
            cells = [row["game"], row["id"], _escape(row["title"] or row["question"]),
                     ", ".join(readings), row["option"] or "—", witness]
            if search:
                cells.append(_escape(row.get("search", "—")))
            table.add_row(*cells)
        out.print(table)
        for row in rows:
            if row["replay"] == "FAIL":
                out.print(f"[red]{row['game']} {row['id']}[/]: {_escape(row['detail'])}",
                          markup=True)
        if search:
            out.print(f"translations compared as contracts: {divergences} kinds of divergence, "
                      f"{len(unexplained)} unexplained")
            for text in unexplained:
                out.print(f"[red]UNEXPLAINED[/] {_escape(text)}", markup=True)
    if failed or unexplained:
        raise typer.Exit(1)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _show_entry(out: Console, e: Any, as_json: bool) -> None:
    """One register entry in full (``ambiguities GAME ID``); exit 1 if its witness fails."""
    from ruleproof.properties.contracts.register import as_json as entry_json
    from ruleproof.properties.contracts.register import markdown

    data = entry_json(e, full=True)
    if as_json:
        out.print_json(json.dumps(data))
    else:
        for line in markdown(e):
            out.print(line, markup=False)
        out.print(f"witness status: {data['replay']} ({data['detail']})", markup=False)
    if data["replay"] == "FAIL":
        raise typer.Exit(1)
