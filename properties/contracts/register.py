"""One register of every game's rule questions, as ``ruleproof ambiguities [GAME] [ID]`` and
the docs catalogue read it.

A game takes part through the capability ``"ambiguities"`` of its plugin record (an
:class:`AmbiguityRegister`: its register file ``ambiguities.toml`` in its data folder, loaded,
its witnesses replayed), and through the discovered register ``discovered.toml`` of its data
folder (questions found by ``ruleproof ambiguities --discover``, loaded here for every game:
:func:`ruleproof.properties.contracts.discovery.load_discovered`). Every entry of either is
shown in one form, an :class:`Entry`: the game, the question, the clauses in play, the
readings with their support, the rule option that selects one (if any), the witness scenarios
and the discovery keys it explains. Games without the capability are not listed.

A witness is replayed by the one scenario runner (:mod:`ruleproof.properties.scenarios`), so
the register is written once for every game: :func:`replay` gives what each reading does on
the witness (its facts at the end, the actions it refuses), :func:`status` whether every
witness holds (the game's own check for its base register, which also asks the readings to
end apart).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import GamePlugin, plugins

CAPABILITY = "ambiguities"
"""The name of the capability in a game's plugin record."""


@dataclass(frozen=True)
class Reading:
    """One reading of a register entry: the value (of the entry's option, or a name), what it
    says, and what supports it (clause ids, or a named public source)."""

    value: str
    summary: str
    support: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """A register entry of any game, in one form.

    Attributes:
        game: the game's registered name.
        id: the entry's id (unique within the game).
        register: the register file under ``spec/`` (``dawn_under/ambiguities.toml``).
        title: a short form of the question ('' when the register has none).
        question: the question in plain words.
        clauses: clause ids in play.
        readings: the readings (the model's first for discovered entries; the option's values
            for base entries).
        option: the rule option selecting a reading (None: not an option).
        default: the option's default value (the model's reading).
        why: why the default was chosen.
        witnesses: scenario files under ``spec/`` replaying the readings.
        keys: discovery keys the entry explains (discovered entries; base entries may list
            some too).
        no_difference: for an entry without a witness, why the readings cannot differ.
        discovered: whether the entry is in the discovered register.
        native: the game's own entry (for its capability's witness check), or None.
    """

    game: str
    id: str
    register: str
    title: str
    question: str
    clauses: tuple[str, ...]
    readings: tuple[Reading, ...]
    option: str | None = None
    default: str | None = None
    why: str = ""
    witnesses: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    no_difference: str | None = None
    discovered: bool = False
    native: Any = field(default=None, compare=False, hash=False, repr=False)

    @property
    def sources(self) -> tuple[str, ...]:
        """The documents of the clauses in play."""
        return tuple(sorted({c.split(":")[0] for c in self.clauses}))

    @property
    def heading(self) -> str:
        """The title, else the question."""
        return self.title or self.question


class AmbiguityRegister(Protocol):
    """A game's ambiguity register (capability ``"ambiguities"``)."""

    def entries(self) -> tuple[Any, ...]:
        """The register's entries in the game's own form, in file order; each has ``id``,
        ``option``, ``default``, ``readings`` (each with a ``value``), ``sources`` and
        ``witness``.

        Raises:
            MalformedInput: the register file is malformed (file, line, entry).
        """
        ...

    def listing(self) -> tuple[Entry, ...]:
        """The same entries as :class:`Entry` records (``native`` the game's own entry).

        Raises:
            MalformedInput: the register file is malformed.
        """
        ...

    def replay_witness(self, entry: Any) -> tuple[bool, str]:
        """Replay one of :meth:`entries`' witness: (every reading met its expectations and the
        readings end apart, detail)."""
        ...

    def find_witness(self, entry: Any, max_examples: int, write: bool = False,
                     shrink: bool = True) -> tuple[bool, str]:
        """Search a witness for the entry (hypothesis, ``max_examples``); ``write`` rewrites
        its witness file. (found, how)."""
        ...

    def compare_texts(self, profile: str) -> list[Any]:
        """The game's translations compared as texts (their clause contracts): explained
        discovery findings (``explained_by`` '' for a divergence no entry explains)."""
        ...

    def catalogue(self) -> str:
        """The game's part of the catalogue: a short introduction (Markdown)."""
        ...


def registers() -> list[tuple[GamePlugin, AmbiguityRegister]]:
    """Every registered game with an ambiguity register, in registry order."""
    return [(p, cap) for p in plugins().values()
            if (cap := p.capability(CAPABILITY)) is not None]


# ----------------------------------------------------------------------------- entries


def discovered_entries(game: str) -> tuple[Entry, ...]:
    """The discovered register of ``game`` (``discovered.toml`` of its data folder) as
    :class:`Entry` records; () when it has none.

    Raises:
        MalformedInput: the file is malformed.
    """
    from ruleproof.properties.contracts.discovery import load_discovered
    from ruleproof.properties.plugin import plugin

    folder = plugin(game).spec_folder
    path = folder / "discovered.toml"
    if not path.is_file():
        return ()
    register = f"{folder.name}/discovered.toml"
    return tuple(Entry(game, a.id, register, a.title, a.question, a.clauses,
                       tuple(Reading(v, s, dict(a.support).get(v, ())) for v, s in a.readings),
                       a.option, a.readings[0][0] if a.option else None, "",
                       a.witnesses, a.keys, discovered=True)
                 for a in load_discovered(path, game))


def entries(game: str | None = None) -> list[Entry]:
    """Every entry of every register (base first, then discovered) of ``game``, or of every
    game with an ambiguity register in registry order.

    Raises:
        MalformedInput: an unknown game or one without a register (naming those with one),
            a malformed register file.
    """
    games = registers()
    if game is not None:
        games = [(p, cap) for p, cap in games if p.name == game]
        if not games:
            raise MalformedInput(f"unknown game {game!r}; games with a register: "
                                 f"{', '.join(p.name for p, _ in registers())}")
    out: list[Entry] = []
    for p, cap in games:
        out += cap.listing()
        out += discovered_entries(p.name)
    return out


def lookup(game: str | None, entry_id: str) -> Entry:
    """The entry ``entry_id`` (of ``game``, or of any game).

    Raises:
        MalformedInput: no such entry (naming the known ids), an unknown game.
    """
    pool = entries(game)
    hits = [e for e in pool if e.id == entry_id]
    if not hits:
        shown: list[str] = []  # whole ids only: the one-line cap would cut one in the middle
        for e in pool:
            if sum(len(i) + 2 for i in shown) + len(e.id) > 240:
                break
            shown.append(e.id)
        rest = len(pool) - len(shown)
        raise MalformedInput(f"unknown register entry {entry_id!r}"
                             f"{' of ' + game if game else ''}; known: {', '.join(shown)}"
                             + (f" and {rest} more (all: ruleproof ambiguities"
                                f"{' ' + game if game else ''})" if rest else ""))
    return hits[0]


def explaining(game: str) -> dict[str, Entry]:
    """Discovery key -> the entry of ``game``'s registers that lists it."""
    return {k: e for e in entries(game) for k in e.keys}


# ----------------------------------------------------------------------------- witnesses


@dataclass(frozen=True)
class ReadingRun:
    """One reading of one witness file replayed.

    Attributes:
        file: the witness under ``spec/``.
        reading: the reading's name (the file's title when it runs one reading).
        passed: every expectation held.
        actions: how many actions the witness plays.
        facts: (fact, value as text) at the end, for the facts the file expects.
        refused: (action number, action, clauses cited) of the actions it expects refused.
        problems: what did not hold.
    """

    file: str
    reading: str
    passed: bool
    actions: int
    facts: tuple[tuple[str, str], ...]
    refused: tuple[tuple[int, str, tuple[str, ...]], ...]
    problems: tuple[str, ...]


def replay(entry: Entry) -> list[ReadingRun]:
    """Every witness of ``entry`` replayed under each of its readings (the one scenario
    runner); a missing or malformed file is a failed run naming the problem."""
    from ruleproof.properties.scenarios import RunContext, load, run_reading
    from ruleproof.spec import spec_path

    out: list[ReadingRun] = []
    for w in entry.witnesses:
        path = spec_path(*w.split("/"))
        try:
            sc = load(path)
        except MalformedInput as exc:
            out.append(ReadingRun(w, "", False, 0, (), (), (exc.one_line(),)))
            continue
        for r in sc.readings:
            final, log, problems = run_reading(sc, r)
            ctx = RunContext(sc.names, list(log), sc.game_facts)
            facts: list[tuple[str, str]] = []
            for exp in r.expect:
                try:
                    got = exp.fact.value(final, exp.arg, ctx)
                except Exception as exc:  # a fact of a state the reading never reached
                    got = f"({type(exc).__name__})"
                if exp.key != "legal":
                    facts.append((exp.key, _text(got)))
            refused = tuple((n, sc.actions[n - 1][2], clauses)
                            for n, clauses in sorted(r.refusals.items()))
            name = r.name if len(sc.readings) > 1 or r.name not in ("", "default") else sc.title
            out.append(ReadingRun(w, name, not problems, len(sc.actions), tuple(facts),
                                  refused, tuple(problems)))
    return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        shown = ", ".join(map(str, value[:8]))
        return f"[{shown}{', ...' if len(value) > 8 else ''}]"
    return str(value)


def status(entry: Entry) -> tuple[str, str]:
    """(``pass``, ``FAIL`` or ``argued``, detail): the game's own witness check for a base
    entry (every reading holds and the readings end apart), else every witness file holds."""
    if not entry.witnesses:
        return "argued", "no behavioural difference: " + (entry.no_difference or "")
    if entry.native is not None:
        cap = dict(registers_by_name()).get(entry.game)
        if cap is not None:
            ok, detail = cap.replay_witness(entry.native)
            return ("pass" if ok else "FAIL"), detail
    runs = replay(entry)
    bad = [r for r in runs if not r.passed]
    if bad:
        return "FAIL", "; ".join(p for r in bad for p in r.problems)[:2000]
    return "pass", f"{len(runs)} reading(s) replayed on {len(entry.witnesses)} witness(es)"


def registers_by_name() -> dict[str, AmbiguityRegister]:
    """Game name -> its ambiguity register capability."""
    return {p.name: cap for p, cap in registers()}


# ----------------------------------------------------------------------------- showing


def clause_lines(clauses: Sequence[str]) -> list[tuple[str, str]]:
    """(clause id, its paraphrase from the registry) for each of ``clauses``."""
    from ruleproof.spec import clause_registry

    out = []
    for c in clauses:
        try:
            text = clause_registry(c.split(":")[0]).get(c).text
        except (KeyError, MalformedInput):
            text = "(not in a shipped registry)"
        out.append((c, text))
    return out


def as_json(entry: Entry, full: bool = False) -> dict[str, Any]:
    """An entry as JSON (with ``full``: clause paraphrases and the witness replayed)."""
    state, detail = status(entry)
    out: dict[str, Any] = {
        "game": entry.game, "id": entry.id, "register": entry.register,
        "discovered": entry.discovered, "title": entry.title, "question": entry.question,
        "clauses": list(entry.clauses), "sources": list(entry.sources),
        "readings": [{"value": r.value, "summary": r.summary, "support": list(r.support)}
                     for r in entry.readings],
        "option": entry.option, "default": entry.default, "witnesses": list(entry.witnesses),
        "keys": list(entry.keys), "replay": state, "detail": detail}
    if entry.why:
        out["why"] = entry.why
    if full:
        out["clause_text"] = dict(clause_lines(entry.clauses))
        out["witness_runs"] = [
            {"file": r.file, "reading": r.reading, "passed": r.passed, "actions": r.actions,
             "facts": dict(r.facts),
             "refused": [{"action": n, "text": t, "clauses": list(c)} for n, t, c in r.refused],
             "problems": list(r.problems)} for r in replay(entry)]
    return out


def markdown(entry: Entry, link: Callable[[str], str | None] | None = None) -> list[str]:
    """One entry in full as Markdown lines (the catalogue and ``ambiguities GAME ID``):
    clauses with their paraphrases, the question, every reading with its support, the witness
    replayed and what each reading does there. ``link`` gives a page for a witness file."""
    where = "discovered register" if entry.discovered else "ambiguity register"
    out = [f"## {entry.id}", "", f"**{entry.heading}** ({entry.game}, {where} "
           f"`spec/{entry.register}`)", ""]
    if entry.title and entry.question:
        out += [entry.question, ""]
    out += ["Clauses in play:", ""]
    out += [f"* `{c}`: {text}" for c, text in clause_lines(entry.clauses)]
    out.append("")
    head = f"Readings (option `{entry.option}`):" if entry.option else "Readings:"
    out += [head, ""]
    for r in entry.readings:
        mark = " (default, the model)" if r.value == entry.default else ""
        cited = ", ".join(f"`{x}`" if ":" in x and " " not in x else x for x in r.support)
        support = f" Supported by: {cited}." if r.support else ""
        summary = r.summary.strip()
        summary = summary if not summary or summary.endswith((".", "?", "!")) else summary + "."
        out.append(f"* `{r.value}`{mark}: {summary}{support}")
    out.append("")
    if entry.why:
        why = entry.why.strip()
        out += [f"Why the default: {why}{'' if why.endswith('.') else '.'}", ""]
    if entry.keys:
        out += ["Explains the discovery findings: " + "; ".join(f"`{k}`" for k in entry.keys),
                ""]
    if not entry.witnesses:
        out += [f"**No behavioural difference.** {entry.no_difference or ''}", ""]
        return out
    state, _detail = status(entry)
    out += [f"Witness ({'replays' if state == 'pass' else 'FAILS'}):", ""]
    for run in replay(entry):
        page = link(run.file) if link is not None else None
        name = f"[`spec/{run.file}`]({page})" if page else f"`spec/{run.file}`"
        facts = "; ".join(f"`{k}` = {v}" for k, v in run.facts)
        refused = "".join(f" Action {n} (`{t}`) is refused ({', '.join(c)})." for n, t, c in
                          run.refused)
        verdict = "" if run.passed else " **does not hold**: " + "; ".join(run.problems)
        shown = f" {facts}." if facts else ""
        out.append(f"* {name}, reading *{run.reading}*: {run.actions} action(s).{refused}"
                   f"{shown}{verdict}")
    out.append("")
    return out


def catalogue(link: Callable[[str], str | None] | None = None) -> str:
    """The catalogue page (``docs/ambiguities.md``): every entry of every game's registers,
    a table per game, then each entry in full."""
    out = ["# Ambiguity catalogue", "",
           "Generated by `ruleproof docs` from every game's ambiguity register "
           "(`spec/<game>/ambiguities.toml`) and discovered register "
           "(`spec/<game>/discovered.toml`); do not edit. The same list: `ruleproof "
           "ambiguities`; one entry: `ruleproof ambiguities GAME ID`.", ""]
    for p, cap in registers():
        found = entries(p.name)
        out += [f"# {p.title} (`{p.name}`)", "", cap.catalogue().strip(), "",
                f"{len(found)} entries: {sum(1 for e in found if not e.discovered)} in the "
                f"ambiguity register, {sum(1 for e in found if e.discovered)} found by "
                "discovery.", ""]
        if not found:
            continue
        out += ["| id | question | option | readings | sources | witness |",
                "| --- | --- | --- | --- | --- | --- |"]
        for e in found:
            readings = ", ".join(f"`{r.value}`" for r in e.readings)
            wit = "argued" if not e.witnesses else f"{len(e.witnesses)} file(s)"
            out.append(f"| [{e.id}](#{_anchor(e.id)}) | {_cell(e.heading)} | "
                       f"`{e.option or '—'}` | {readings} | {', '.join(e.sources)} | {wit} |")
        out.append("")
        for e in found:
            out += markdown(e, link)
    return "\n".join(out).rstrip() + "\n"


def _anchor(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch in "-_")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
