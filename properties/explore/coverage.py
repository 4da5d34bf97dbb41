"""Clause coverage of exploration: which rule clauses the transitions of an explored set-up
exercised, and how often (TLC's coverage report, by rule clause instead of by action).

A transition *exercises* a clause when the engine cites it (its events or log lines, the
same reading the conformance blame uses) or when the clause's contract speaks on it
(:meth:`~ruleproof.properties.explore.games.ExploreGame.fired`). The clauses counted are the
*rule clauses* of the sources a set-up plays: every clause of the registry whose kind is not
``setup`` (component lists and preparation act once, before the first state; the contract
coverage counts the same way, ``properties/contracts/core.py``), without the clauses an
expansion replaces (the rule set's ``drop``).

A rule clause that fires in no explored set-up is *uncovered* -- unless
``spec/<game>/coverage/reasons.toml`` gives the reason it cannot fire in any finite reduced
set-up (``[[unreachable]]`` with ``clause`` and ``why``). A reason is checked: a clause with a
reason that fires after all is reported (``stale``), and a reason naming no rule clause is
refused with its file and line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.games import ExploreGame, spec_folders
from ruleproof.spec import clause_registry

REASONS_FILE = "reasons.toml"
"""The file of reasons in a game's ``coverage/`` folder."""


@dataclass(frozen=True)
class SetupCoverage:
    """The clause counts of one explored set-up.

    Attributes:
        name: the reduced configuration (with `` (symmetry)`` when reduced by symmetry).
        sources: the clause registries its rule set plays.
        drop: clause ids of those sources the rule set does not use.
        fired: clause id -> transitions that exercised it.
        states: distinct states explored (or steps simulated).
    """

    name: str
    sources: tuple[str, ...]
    drop: tuple[str, ...]
    fired: dict[str, int]
    states: int


@dataclass(frozen=True)
class ClauseRow:
    """One rule clause across the set-ups that play its source.

    Attributes:
        source, clause, kind: the registry entry.
        counts: set-up name -> transitions that exercised the clause, for every set-up that
            plays the source (0 included).
        reason: why no finite reduced set-up fires it (``coverage/reasons.toml``), or None.
    """

    source: str
    clause: str
    kind: str
    counts: dict[str, int]
    reason: str | None

    @property
    def status(self) -> str:
        """``fired``, ``unreachable`` (not fired, with a reason), ``stale`` (fired although a
        reason says it cannot) or ``uncovered`` (not fired, no reason)."""
        fired = any(self.counts.values())
        if fired:
            return "stale" if self.reason else "fired"
        return "unreachable" if self.reason else "uncovered"


def rule_clauses(source: str, drop: Iterable[str] = ()) -> list[tuple[str, str]]:
    """``(clause id, kind)`` of every rule clause of ``source`` (kind other than ``setup``),
    in registry order, without ``drop``.

    Raises:
        MalformedInput: no registry of that name.
    """
    dropped = set(drop)
    return [(c.id, c.kind) for c in clause_registry(source)
            if c.kind != "setup" and c.id not in dropped]


def setup_coverage(game: ExploreGame, name: str, fired: dict[str, int],
                   states: int) -> SetupCoverage:
    """The coverage record of one explored set-up of ``game``.

    Raises:
        MalformedInput: the game has no played rule set (``--coverage`` asked of a game whose
            explorer does not say which rule clauses it plays).
    """
    if game.played is None:
        raise MalformedInput(f"{game.name}: --coverage needs the rule set the explored game "
                             "plays (ExploreGame.played, docs/add-a-game.md); this game's "
                             "explorer names none")
    return SetupCoverage(name, game.played.sources, game.played.drop, dict(fired), states)


def reasons(folders: Sequence[Path] | None = None) -> dict[str, str]:
    """Clause id -> why it cannot fire in any finite reduced set-up, from every game's
    ``coverage/reasons.toml``.

    Raises:
        MalformedInput: an unreadable file, an entry without ``clause`` and ``why``, a clause
            listed twice, or a clause that is not a rule clause of its registry (file and
            entry).
    """
    out: dict[str, str] = {}
    for folder in folders if folders is not None else spec_folders():
        path = folder / "coverage" / REASONS_FILE
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise MalformedInput(f"cannot read clause coverage reasons: {exc}",
                                 file=str(path)) from None
        entries = data.get("unreachable", [])
        if not isinstance(entries, list):
            raise MalformedInput("'unreachable' must be a list of tables", file=str(path))
        for n, e in enumerate(entries, start=1):
            where = f"{path}: [[unreachable]] #{n}"
            if not (isinstance(e, dict) and isinstance(e.get("clause"), str)
                    and isinstance(e.get("why"), str) and e["why"].strip()):
                raise MalformedInput(f"{where}: needs 'clause' and a non-empty 'why'")
            clause = e["clause"]
            source = clause.split(":")[0]
            try:
                known = {c for c, _ in rule_clauses(source)}
            except MalformedInput:
                known = set()
            if clause not in known:
                raise MalformedInput(f"{where}: {clause!r} is not a rule clause of a registry")
            if clause in out:
                raise MalformedInput(f"{where}: {clause!r} is listed twice")
            out[clause] = e["why"].strip()
    return out


def table(setups: Sequence[SetupCoverage], why: dict[str, str] | None = None,
          every: Sequence[str] = ()) -> list[ClauseRow]:
    """One row per rule clause of every source some set-up plays (sources in order of first
    appearance, clauses in registry order), with the counts of the set-ups that play it.
    A clause a set-up's rule set drops does not count for that set-up; a clause every
    set-up playing its source drops is left out. The sources of ``every`` that no set-up
    plays follow, each clause with no counts (uncovered, unless a reason says why).

    Raises:
        MalformedInput: as :func:`reasons`.
    """
    why = reasons() if why is None else why
    sources = list(dict.fromkeys(s for x in setups for s in x.sources))
    rows: list[ClauseRow] = []
    for source in sources:
        players = [x for x in setups if source in x.sources]
        for clause, kind in rule_clauses(source):
            counts = {x.name: x.fired.get(clause, 0) for x in players if clause not in x.drop}
            if counts:
                rows.append(ClauseRow(source, clause, kind, counts, why.get(clause)))
    for source in every:
        if source not in sources:
            rows += [ClauseRow(source, clause, kind, {}, why.get(clause))
                     for clause, kind in rule_clauses(source)]
    return rows


def explored_sources() -> tuple[str, ...]:
    """The source documents of every registered game that can be explored (its plugin
    record has the ``explore`` capability), in registry order."""
    from ruleproof.properties.plugin import plugins

    return tuple(s for p in plugins().values() if p.capabilities.get("explore") is not None
                 for s in p.sources)


def summary(rows: Sequence[ClauseRow]) -> dict[str, dict[str, int]]:
    """Per source: how many rule clauses have each :attr:`ClauseRow.status`."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        d = out.setdefault(r.source, {"fired": 0, "unreachable": 0, "uncovered": 0, "stale": 0})
        d[r.status] += 1
    return out


def markdown(rows: Sequence[ClauseRow], setups: Sequence[SetupCoverage]) -> str:
    """The coverage as Markdown: a summary, then per source a table of its rule clauses
    (transitions per set-up; ``-`` where the set-up does not play the clause) with the
    status and, for a clause that cannot fire, the reason."""
    lines = ["| set-up | states | sources |", "|---|---:|---|"]
    lines += [f"| `{x.name}` | {x.states:,} | {', '.join(x.sources)} |" for x in setups]
    lines += ["", "| source | rule clauses | fired | cannot fire (reason) | uncovered | stale reason |",
              "|---|---:|---:|---:|---:|---:|"]
    for source, d in summary(rows).items():
        total = sum(d.values())
        lines.append(f"| {source} | {total} | {d['fired']} | {d['unreachable']} | "
                     f"{d['uncovered']} | {d['stale']} |")
    for source in dict.fromkeys(r.source for r in rows):
        mine = [r for r in rows if r.source == source]
        names = [x.name for x in setups if any(x.name in r.counts for r in mine)]
        lines += ["", f"### {source}", ""]
        if not names:
            lines += ["No explored set-up plays this source.", ""]
        lines += ["| clause | kind | " + " | ".join(f"`{n}`" for n in names)
                  + (" | " if names else "") + "status |",
                  "|---|---|" + "---:|" * len(names) + "---|"]
        for r in mine:
            cells = [f"{r.counts[n]:,}" if n in r.counts else "-" for n in names]
            status = r.status + (f": {r.reason}" if r.reason else "")
            lines.append("| " + " | ".join([f"`{r.clause}`", r.kind, *cells, status]) + " |")
    return "\n".join(lines) + "\n"
