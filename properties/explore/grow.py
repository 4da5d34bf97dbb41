"""Growing reduced set-ups until every rule clause fires: a search over the parameters of
reduced configurations for the smallest set-up that fires each rule clause.

A game's ``spec/<game>/coverage/grow.toml`` lists searches; each varies a shipped reduced
file (``base``) along axes (``[search.vary.AXIS.LABEL]``: a table of keys of the file and
their values, a key a top-level key or ``count.NAME.value``), every combination of one label
per axis a candidate named ``BASE-LABEL-LABEL...``. Every candidate is explored
exhaustively with clause coverage (:func:`~ruleproof.properties.explore.search.explore`;
contracts off: coverage counts what fires, the pinned runs check the contracts), up to
``max_states`` (larger candidates are dropped as too large, and said so; a first run without
coverage, about ten times faster, measures the size, so a candidate too large costs no coverage
run). The candidates
of a group of searches (``group``: one rule set searched along several axes; default each
search its own) are then taken in order of distinct states (then name), and one is *chosen*
when it fires a rule clause no smaller chosen one fires: so for every clause that fires somewhere, the
smallest candidate firing it is chosen.

Run: ``python -m ruleproof.properties.explore.grow [GAME...] [--max-states N] [--write DIR]
[--compact] [--group NAME]...``; its output is pinned in docs/explore-growth.md, the chosen
files are shipped in ``spec/<game>/reduced/`` and pinned in ``expected.toml``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.coverage import rule_clauses
from ruleproof.properties.explore.games import configuration, explore_game
from ruleproof.properties.explore.search import explore
from ruleproof.properties.plugin import plugins

GROW_FILE = "grow.toml"


@dataclass
class Candidate:
    """One explored candidate set-up.

    Attributes:
        name: ``BASE-LABEL...``; text: its TOML; states: distinct states (None: too large
            or invalid); why: why it was dropped; fired: rule clauses it fires (counts).
    """

    name: str
    text: str
    states: int | None = None
    why: str = ""
    fired: dict[str, int] = field(default_factory=dict)
    chosen_for: list[str] = field(default_factory=list)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")


def to_toml(data: dict[str, Any]) -> str:
    """``data`` (a reduced file as read: top-level values, ``options`` and ``count`` tables)
    as TOML text."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if not isinstance(v, dict):
            continue
        if k == "count":
            for name, entry in v.items():
                lines += ["", f"[count.{name}]"] + [f"{a} = {_toml_value(b)}"
                                                    for a, b in entry.items()]
        else:
            lines += ["", f"[{k}]"] + [f"{a} = {_toml_value(b)}" for a, b in v.items()]
    return "\n".join(lines) + "\n"


def candidates(search: dict[str, Any], where: str) -> list[Candidate]:
    """Every candidate of one ``[[search]]`` entry.

    Raises:
        MalformedInput: no ``base`` or ``vary``, an unknown base, a bad axis.
    """
    base = search.get("base")
    vary = search.get("vary")
    if not isinstance(base, str) or not isinstance(vary, dict) or not vary:
        raise MalformedInput(f"{where}: a search needs 'base' and [search.vary.AXIS] tables")
    path = Path(configuration(base).path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    axes = [(key, list(values.items())) for key, values in vary.items()
            if isinstance(values, dict) and values]
    if len(axes) != len(vary):
        raise MalformedInput(f"{where}: every [search.vary.AXIS] must map labels to tables")
    out = []
    for combo in itertools.product(*(vals for _, vals in axes)):
        d = json.loads(json.dumps(data))
        labels = []
        for (_, _), (label, patch) in zip(axes, combo, strict=True):
            labels.append(label)
            if not isinstance(patch, dict):
                raise MalformedInput(f"{where}: [search.vary.AXIS.{label}] must be a table of "
                                     "keys to values")
            for key, value in patch.items():
                parts = key.split(".")
                target = d
                for p in parts[:-1]:
                    target = target.setdefault(p, {})
                target[parts[-1]] = value
        d["name"] = "-".join([base, *labels])
        d["description"] = f"{d.get('description', base)}; grown: {', '.join(labels)}"
        out.append(Candidate(d["name"], to_toml(d)))
    return out


def searches(games: Sequence[str]) -> list[tuple[str, list[Candidate]]]:
    """``(GAME: GROUP, candidates)`` per group of searches of every game asked for (all when
    empty): searches with the same ``group`` (default: each its own) are chosen from
    together (one rule set searched along several axes).

    Raises:
        MalformedInput: an unknown game, an unreadable or malformed search file.
    """
    out = []
    for name, p in plugins().items():
        if games and name not in games:
            continue
        path = p.spec_folder / "coverage" / GROW_FILE
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise MalformedInput(f"cannot read the search: {exc}", file=str(path)) from None
        groups: dict[str, list[Candidate]] = {}
        for n, s in enumerate(data.get("search", []), start=1):
            group = str(s.get("group", f"search {n}"))
            groups.setdefault(group, []).extend(
                candidates({k: v for k, v in s.items() if k != "group"},
                           f"{path}: [[search]] #{n}"))
        out += [(f"{name}: {group}", cands) for group, cands in groups.items()]
    unknown = set(games) - set(plugins())
    if unknown:
        raise MalformedInput(f"unknown game(s) {', '.join(sorted(unknown))}; known: "
                             f"{', '.join(plugins())}")
    return out


def run(cands: list[Candidate], max_states: int, folder: Path, *,
        compact: bool = False) -> None:
    """Explore every candidate (files written to ``folder``) and fill in its counts;
    ``compact``: with compact state storage (``fpset.py``, about 13 bytes a state), for
    candidates of millions of states."""
    for c in cands:
        path = folder / f"{c.name}.toml"
        path.write_text(c.text, encoding="utf-8")
        try:
            # the size first, without coverage (about ten times faster): a candidate over
            # max_states is dropped before it costs a coverage run
            size = explore(str(path), max_states=max_states, keep_graph=False, compact=True)
            if not size.complete:
                c.why = f"more than {max_states:,} states"
                continue
            res = explore(str(path), coverage=True, max_states=max_states, keep_graph=False,
                          compact=compact)
        except MalformedInput as exc:
            c.why = f"invalid: {exc.what}"
            continue
        if not res.complete or res.distinct_states != size.distinct_states:
            c.why = (f"the coverage run found {res.distinct_states:,} states, the size run "
                     f"{size.distinct_states:,}: not counted")
            continue
        game = explore_game(str(path))
        assert game.played is not None
        rule = {k for s in game.played.sources for k, _ in rule_clauses(s, game.played.drop)}
        c.states = res.distinct_states
        c.fired = {k: v for k, v in (res.fired or {}).items() if k in rule}


def choose(cands: list[Candidate]) -> list[Candidate]:
    """The chosen candidates: in order of states, each that fires a clause no smaller
    chosen one fires (``chosen_for``: those clauses)."""
    done: set[str] = set()
    chosen = []
    for c in sorted((c for c in cands if c.states is not None),
                    key=lambda c: (c.states, c.name)):
        new = sorted(set(c.fired) - done)
        if new:
            c.chosen_for = new
            done |= set(new)
            chosen.append(c)
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ruleproof.properties.explore.grow",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("games", nargs="*", help="games to search (default: every game)")
    ap.add_argument("--max-states", type=int, default=400_000,
                    help="drop candidates with more distinct states than this")
    ap.add_argument("--write", type=Path, help="write the chosen set-ups into this folder")
    ap.add_argument("--compact", action="store_true",
                    help="compact state storage (about 13 bytes a state) for large candidates")
    ap.add_argument("--group", action="append", default=[],
                    help="only the groups of searches of this name (repeatable)")
    args = ap.parse_args(argv)
    try:
        found = searches(args.games)
        groups = {g.split(": ", 1)[1] for g, _ in found}
        unknown = sorted(set(args.group) - groups)
        if unknown:
            raise MalformedInput(f"--group: unknown group(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(sorted(groups))}")
    except MalformedInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.group:
        found = [(g, c) for g, c in found if g.split(": ", 1)[1] in args.group]
    with tempfile.TemporaryDirectory() as tmp:
        for game, cands in found:
            run(cands, args.max_states, Path(tmp), compact=args.compact)
            chosen = choose(cands)
            print(f"## {game}: {len(cands)} candidates, {len(chosen)} chosen")
            for c in sorted(cands, key=lambda c: (c.states is None, c.states or 0, c.name)):
                mark = "CHOSEN" if c in chosen else "      "
                size = f"{c.states:>9,}" if c.states is not None else f"{'-':>9}"
                print(f"{mark} {c.name:40} {size} states  {len(c.fired):3} rule clauses"
                      + (f"  {c.why}" if c.why else "")
                      + (f"  smallest for: {', '.join(c.chosen_for)}" if c.chosen_for else ""))
            if args.write is not None:
                args.write.mkdir(parents=True, exist_ok=True)
                for c in chosen:
                    (args.write / f"{c.name}.toml").write_text(
                        "# Grown by python -m ruleproof.properties.explore.grow (docs/explore.md):"
                        f"\n# the smallest candidate firing {', '.join(c.chosen_for)}.\n"
                        + c.text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
