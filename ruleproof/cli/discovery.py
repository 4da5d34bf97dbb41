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
                 workers: int = 1, address: str | None = None) -> None:
    """Run discovery (its searches on ``workers`` Ray workers or the cluster at ``address``,
    docs/campaigns.md); print every finding, marking those the registers do not hold; exit 1
    when there are new ones (so CI notices).

    Raises:
        MalformedInput: --workers out of 1..64, Ray missing, nothing listening at ``address``.
    """
    from ruleproof.cli.progress import progress
    from ruleproof.properties.contracts.discovery import (
        all_kinds,
        default_rule_sets,
        discover,
        searches,
    )
    from ruleproof.properties.contracts.witness import finding_scenario
    from ruleproof.properties.contracts.witness import write as write_file

    if not 1 <= workers <= 64:
        raise MalformedInput(f"--workers must be 1..64, got {workers}")
    if write is not None:
        _check_folder(write)
    total = len(searches(default_rule_sets(), all_kinds()))
    with progress(f"discovery ({profile})", total, quiet=as_json) as advance:
        report = discover(profile, workers=workers, address=address,
                          progress=lambda name: advance(1, f"discovery: {name} done"))
    if write is not None:
        for f in report.new:
            if f.kind in ("refused-unforbidden", "allowed-unpermitted", "effect"):
                name = "".join(ch if ch.isalnum() else "-" for ch in f"{f.rule_set}-{f.key}")
                write_file(write / f"{name[:90]}.toml", finding_scenario(f))
    if as_json:
        out.print_json(json.dumps({
            "profile": profile, "seconds": round(report.seconds, 1),
            "findings": [{"kind": f.kind, "key": f.key, "rule_set": f.rule_set,
                          "clauses": list(f.clauses), "seed": f.seed,
                          "prefix": list(f.prefix), "action": f.action, "detail": f.detail,
                          "explained_by": f.explained_by or None} for f in report.findings],
            "new": len(report.new), "workers": report.workers, "cut": report.cut}))
    else:
        table = Table(title=f"discovery ({profile} profile, {report.seconds:.0f}s): "
                            f"{len(report.findings)} findings, {len(report.new)} new")
        for col in ("status", "rule set", "finding", "clauses", "witness"):
            table.add_column(col, overflow="fold")
        for f in sorted(report.findings, key=lambda f: (bool(f.explained_by), f.rule_set,
                                                        f.key)):
            status = f"[green]{f.explained_by}[/]" if f.explained_by else "[red]NEW[/]"
            table.add_row(status, f.rule_set, f.key, ", ".join(f.clauses[:4]),
                          f"seed {f.seed}, {len(f.prefix)} actions, then '{f.action}'")
        out.print(table)
        for f in report.new:
            out.print(f"[red]NEW[/] {f.rule_set}: {f.detail}", markup=True)
        if report.cut:
            out.print(f"note: the {profile} profile's time ran out during: "
                      f"{', '.join(report.cut)} (their findings depend on speed)")
    if report.new:
        raise typer.Exit(1)


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


def run_register(out: Console, prof: Profile, as_json: bool, *, search: bool = False,
                 write: bool = False) -> None:
    """``ruleproof ambiguities``: every registered game's ambiguity register (capability
    ``"ambiguities"``) with each witness replayed; ``search`` searches each witness again
    (``write`` rewrites the files) and compares the game's translations as texts. Exits 1 when
    a witness fails or a divergence is unexplained.
    """
    from ruleproof.properties.contracts.register import registers

    games = registers()
    entries = [(cap, e) for _p, cap in games for e in cap.entries()]
    rows: list[dict[str, Any]] = []
    failed = 0
    for cap, e in entries:
        ok, detail = cap.replay_witness(e)
        row: dict[str, Any] = {"id": e.id, "option": e.option, "default": e.default,
                               "readings": [r.value for r in e.readings],
                               "sources": list(e.sources), "witness": e.witness,
                               "replay": "pass" if ok else "FAIL", "detail": detail}
        if search and e.option:
            found, how = cap.find_witness(e, max(50, prof.games * 10), write=write,
                                          shrink=write)
            row["search"] = ("found: " if found else "NOT FOUND: ") + how
            ok = ok and found
        failed += not ok
        rows.append(row)
    unexplained: list[str] = []
    divergences = 0
    if search:
        # each game's translations compared as texts (their clause contracts), not as engine
        # options (properties/contracts/discovery.py); every divergence must match an entry.
        for _p, cap in games:
            gaps = cap.compare_texts(prof.name)
            divergences += len(gaps)
            unexplained += [f"{f.rule_set}: {f.key} (seed {f.seed}, {len(f.prefix)} actions, "
                            f"then '{f.action}'): {f.detail}" for f in gaps if not f.explained_by]
    if as_json:
        out.print_json(json.dumps({"entries": rows, "divergences": divergences,
                                   "unexplained": unexplained,
                                   "passed": not failed and not unexplained}))
    else:
        table = Table(title=f"ambiguity register: {len(entries)} entries")
        for col in ("id", "option", "readings (default first)", "sources", "witness"):
            table.add_column(col, overflow="fold")
        if search:
            table.add_column("search", overflow="fold")
        for row in rows:
            status = ("[green]replays[/]" if row["replay"] == "pass" else "[red]FAIL[/]")
            if row["witness"] is None:
                status = "no difference (argued)"
            cells = [row["id"], row["option"] or "—", ", ".join(row["readings"]) or "—",
                     ", ".join(row["sources"]), status]
            if search:
                cells.append(row.get("search", "—"))
            table.add_row(*cells)
        out.print(table)
        for row in rows:
            if row["replay"] != "pass":
                out.print(f"[red]{row['id']}[/]: {row['detail']}", markup=True)
        if search:
            out.print(f"translations compared as contracts ({', '.join(p.name for p, _ in games)}): "
                      f"{divergences} kinds of divergence, {len(unexplained)} unexplained")
            for text in unexplained:
                out.print(f"[red]UNEXPLAINED[/] {text}", markup=True)
    if failed or unexplained:
        raise typer.Exit(1)
