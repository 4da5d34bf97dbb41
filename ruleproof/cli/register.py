"""``ruleproof ambiguities`` (without ``--discover``) and the ambiguity catalogue page, for
every registered game that keeps an ambiguity register: the capability ``ambiguities`` of its
plugin record (an :class:`AmbiguityRegister`). A game without one is left out of the listing.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table

from ruleproof.properties.report import Profile

CAPABILITY = "ambiguities"


class AmbiguityRegister(Protocol):
    """A game's ambiguity register as the command and the docs show it (capability
    ``ambiguities``).

    Attributes:
        comparison: one line naming what :meth:`divergences` compares (the command prints it
            with the counts).
    """

    comparison: str

    def rows(self, search: bool, write: bool, games: int) -> list[tuple[dict[str, Any], bool]]:
        """(row, whether the entry holds) per register entry. A row has ``id``, ``option``,
        ``default``, ``readings`` (default first), ``sources``, ``witness`` (None: argued to
        make no difference), ``replay`` (``pass``/``FAIL``) and ``detail``; with ``search``
        also ``search`` (the witness searched again in ``games`` games; rewritten, shrunk,
        with ``write``)."""
        ...

    def divergences(self, ci: bool) -> tuple[int, list[str]]:
        """The search for divergences no entry explains (``ci``: the small budget): (kinds
        of divergence found, a line per unexplained one)."""
        ...

    def catalogue(self) -> str:
        """The register as a Markdown page."""
        ...


def registers() -> dict[str, AmbiguityRegister]:
    """Every registered game with an ambiguity register, by name (registry order)."""
    from ruleproof.properties.plugin import plugins

    out: dict[str, AmbiguityRegister] = {}
    for name, p in plugins().items():
        found = p.capability(CAPABILITY)
        if found is not None:
            out[name] = found
    return out


def run_register(out: Console, prof: Profile, search: bool, write: bool, as_json: bool) -> bool:
    """List every register with each witness's status; ``search`` finds witnesses again and
    searches divergences no entry explains. Returns whether everything held."""
    rows: list[dict[str, Any]] = []
    failed = 0
    unexplained: list[str] = []
    divergences = 0
    found = registers()
    for r in found.values():
        for row, ok in r.rows(search, write, max(50, prof.games * 10)):
            rows.append(row)
            failed += not ok
    counts: list[tuple[str, int, int]] = []
    if search:
        for r in found.values():
            kinds, lines = r.divergences(prof.name == "ci")
            divergences += kinds
            unexplained += lines
            counts.append((r.comparison, kinds, len(lines)))
    if as_json:
        out.print_json(json.dumps({"entries": rows, "divergences": divergences,
                                   "unexplained": unexplained,
                                   "passed": not failed and not unexplained}))
        return not failed and not unexplained
    table = Table(title=f"ambiguity register: {len(rows)} entries")
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
    for label, kinds, left in counts:
        out.print(f"{label}: {kinds} kinds of divergence, {left} unexplained")
    for text in unexplained:
        out.print(f"[red]UNEXPLAINED[/] {text}", markup=True)
    return not failed and not unexplained


__all__ = ["CAPABILITY", "AmbiguityRegister", "registers", "run_register"]
