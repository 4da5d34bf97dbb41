"""The ambiguity register of a game with one rules text, written once: each entry names the
clauses in question, the question, the readings with their support (clause ids or sources), the
rule option that selects a reading, the default and why, and hand-written witness scenarios
(``spec/<folder>/scenarios/...``) in which the readings end apart. A game gives its name, data
folder, the values of its rule options and its catalogue paragraph
(:class:`OneTextAmbiguities`), and has the capability ``"ambiguities"``
(:class:`~ruleproof.properties.contracts.register.AmbiguityRegister`).

There is no second text, so there are no translations to compare; the witnesses are written by
hand, so ``ambiguities --search`` replays them instead of searching.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput

Choices = Callable[[str], Sequence[str] | None]
"""The values of a rule option of the game, by option name (None: no such option)."""


@dataclass(frozen=True)
class TextReading:
    """One reading: the option value, what it says, its support (clause ids or sources)."""

    value: str
    summary: str
    support: tuple[str, ...]


@dataclass(frozen=True)
class TextAmbiguity:
    """An entry of a one-text register (``spec/<folder>/ambiguities.toml``)."""

    id: str
    clauses: tuple[str, ...]
    question: str
    option: str
    default: str
    why: str
    readings: tuple[TextReading, ...]
    witnesses: tuple[str, ...]
    keys: tuple[str, ...] = ()
    line: int = 0

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted({c.split(":")[0] for c in self.clauses}))

    @property
    def witness(self) -> str | None:
        """The first witness (the default reading's)."""
        return self.witnesses[0] if self.witnesses else None


def _support(text: str) -> tuple[str, ...]:
    """The parts of a ``source`` line (clause ids, named sources), split at ';'."""
    return tuple(p.strip() for p in text.split(";") if p.strip())


def load_register(path: Path, game: str, folder: str,
                  choices: Choices) -> tuple[TextAmbiguity, ...]:
    """Load and validate the register file ``path`` of ``game`` (data folder ``folder``).

    Raises:
        MalformedInput: naming the file, line and entry: another game, an unknown clause or
            option, a reading that is not a value of the option, a default that is not a
            reading, fewer than two readings, a missing witness file, a duplicate id.
    """
    from ruleproof.spec import _read_toml, all_clause_ids, spec_path, table_lines

    data, text = _read_toml(path)
    if data.get("game") != game:
        raise MalformedInput(f"the register must say game = {game!r}", file=str(path))
    lines = table_lines(text, "ambiguity")
    known = all_clause_ids()
    out: list[TextAmbiguity] = []
    seen: set[str] = set()
    for index, e in enumerate(data.get("ambiguity", [])):
        line = lines[index] if index < len(lines) else None
        aid = e.get("id")

        def fail(what: str, aid: object = aid, line: int | None = line) -> MalformedInput:
            return MalformedInput(f"ambiguity {aid}: {what}", file=str(path), line=line)

        if not isinstance(aid, str) or aid in seen:
            raise fail("missing or duplicate id")
        seen.add(aid)
        clauses = tuple(map(str, e.get("clauses", [])))
        for c in clauses:
            if c not in known:
                raise fail(f"unknown clause {c}")
        option = e.get("option")
        values = choices(option) if isinstance(option, str) else None
        if values is None:
            raise fail(f"unknown option {option}")
        readings = tuple(TextReading(str(r.get("value")), str(r.get("reading", "")),
                                     _support(str(r.get("source", ""))))
                         for r in e.get("reading", []))
        if len(readings) < 2:
            raise fail("needs at least two readings")
        for r in readings:
            if r.value not in values:
                raise fail(f"reading {r.value!r} is not a value of option {option}")
        default = str(e.get("default"))
        if default not in [r.value for r in readings]:
            raise fail(f"default {default!r} is not one of the readings")
        witnesses = tuple(f"{folder}/scenarios/{w}" for w in e.get("witness", []))
        for w in witnesses:
            if not spec_path(*w.split("/")).is_file():
                raise fail(f"witness file {w} is missing")
        out.append(TextAmbiguity(aid, clauses, str(e.get("question", "")), str(option),
                                 default, str(e.get("why_default", "")), readings,
                                 witnesses, tuple(map(str, e.get("keys", []))), line or 0))
    return tuple(out)


@cache
def _shipped(game: str, folder: str, choices: Choices) -> tuple[TextAmbiguity, ...]:
    from ruleproof.spec import game_folder

    return load_register(game_folder(game) / "ambiguities.toml", game, folder, choices)


@dataclass(frozen=True)
class OneTextAmbiguities:
    """The capability ``"ambiguities"`` of a game with one rules text.

    Attributes:
        game: the plugin's name (``game = ...`` in the register).
        folder: the game's data folder under ``spec/`` (witness paths start with it).
        choices: the values of each rule option (a function of the option's name).
        about: the paragraph introducing the game's register on the catalogue page.
    """

    game: str
    folder: str
    choices: Choices
    about: str

    def register_path(self) -> Path:
        """The register file (``ambiguities.toml`` of the game's data folder)."""
        from ruleproof.spec import game_folder

        return game_folder(self.game) / "ambiguities.toml"

    def entries(self) -> tuple[TextAmbiguity, ...]:
        """The shipped register (read once)."""
        return _shipped(self.game, self.folder, self.choices)

    def as_entry(self, e: TextAmbiguity) -> Any:
        """``e`` as a register :class:`~ruleproof.properties.contracts.register.Entry`."""
        from ruleproof.properties.contracts.register import Entry, Reading

        return Entry(self.game, e.id, f"{self.folder}/ambiguities.toml", "", e.question,
                     e.clauses, tuple(Reading(r.value, r.summary, r.support) for r in e.readings),
                     e.option, e.default, e.why, e.witnesses, e.keys, native=e)

    def listing(self) -> tuple[Any, ...]:
        return tuple(self.as_entry(e) for e in self.entries())

    def replay_witness(self, entry: Any) -> tuple[bool, str]:
        """Every witness holds under its reading and the readings end apart (other facts at
        the end, or other refusals)."""
        from ruleproof.properties.contracts.register import replay

        runs = replay(replace(self.as_entry(entry), native=None))
        bad = [p for r in runs for p in r.problems]
        if bad:
            return False, "; ".join(bad)
        if len({(r.facts, r.refused) for r in runs}) < 2:
            return False, "the witnesses do not tell the readings apart"
        return True, f"{len(runs)} witnesses, {runs[0].actions} actions each, end apart"

    def find_witness(self, entry: Any, max_examples: int, write: bool = False,
                     shrink: bool = True) -> tuple[bool, str]:
        """The witnesses are written by hand: replayed, not searched."""
        ok, detail = self.replay_witness(entry)
        return ok, f"hand-written witnesses replayed ({detail})"

    def compare_texts(self, profile: str) -> list[Any]:
        """None: the game has one text."""
        return []

    def catalogue(self) -> str:
        """The game's introduction on the catalogue page."""
        return self.about


__all__ = ["Choices", "OneTextAmbiguities", "TextAmbiguity", "TextReading", "load_register"]
