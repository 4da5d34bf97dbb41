"""The ambiguity register of Dawn Under: loading, witness replay, witness search and the
differential search for divergences no entry explains; :data:`AMBIGUITIES` is the capability
``"ambiguities"`` of the game's plugin record (``ruleproof ambiguities``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.config import (
    make_config,
    option_values,
    parse_options,
    preset_options,
    presets,
)
from ruleproof.model.dawn_under.engine import legal_actions, new_game, step
from ruleproof.model.dawn_under.state import (
    Action,
    Config,
    Options,
    Phase,
    State,
    option_value,
)
from ruleproof.properties.dawn_under.scenarios import load_scenario, run_reading
from ruleproof.properties.dawn_under.witness import (
    first_difference,
    reading_configs,
    search,
    successor_difference,
    witness_scenario,
)
from ruleproof.spec import _read_toml, all_clause_ids, spec_path, table_lines


@dataclass(frozen=True)
class Reading:
    """One reading of an ambiguous rule: the option value and the clauses supporting it."""

    value: str
    supported_by: tuple[str, ...]
    summary: str


@dataclass(frozen=True)
class Ambiguity:
    """A register entry (see ``spec/dawn_under/ambiguities.toml``)."""

    id: str
    title: str
    clauses: tuple[str, ...]
    question: str
    option: str | None
    preset: str
    players: int
    default: str | None
    why: str
    readings: tuple[Reading, ...]
    witness: str | None
    no_difference: str | None
    line: int
    base_options: tuple[tuple[str, str], ...] = ()
    keys: tuple[str, ...] = ()

    @property
    def sources(self) -> tuple[str, ...]:
        """The documents involved (from the clause ids)."""
        return tuple(sorted({c.split(":")[0] for c in self.clauses}))


def load_register(path: Path) -> tuple[Ambiguity, ...]:
    """Load and validate an ambiguity register.

    Raises:
        MalformedInput: naming the file, line and entry: unknown clause or option, a reading
            that is not a value of the option, a default that is not a reading, an entry with
            neither witness nor a no-difference argument.
    """
    data, text = _read_toml(path)
    file = str(path)
    lines = table_lines(text, "ambiguity")
    known = all_clause_ids()
    out: list[Ambiguity] = []
    seen: set[str] = set()
    for index, e in enumerate(data.get("ambiguity", [])):
        line = lines[index] if index < len(lines) else None
        aid = e.get("id")

        def fail(what: str, aid: object = aid, line: int | None = line) -> MalformedInput:
            return MalformedInput(f"ambiguity {aid}: {what}", file=file, line=line)

        if not isinstance(aid, str) or aid in seen:
            raise fail("missing or duplicate id")
        seen.add(aid)
        clauses = tuple(e.get("clauses", []))
        for c in clauses:
            if c not in known:
                raise fail(f"unknown clause {c}")
        option = e.get("option")
        readings = tuple(Reading(str(r["value"]), tuple(r.get("supported_by", [])),
                                 str(r.get("summary", ""))) for r in e.get("reading", []))
        for r in readings:
            for c in r.supported_by:
                if c not in known:
                    raise fail(f"reading {r.value}: unknown clause {c}")
        no_diff = e.get("no_behavioural_difference")
        if option is not None:
            if option not in option_values():
                raise fail(f"unknown option {option}")
            if len(readings) != 2:
                raise fail("an entry with an option needs exactly two readings")
            for r in readings:
                if r.value not in option_values()[option]:
                    raise fail(f"reading {r.value!r} is not a value of option {option}")
            if e.get("default") not in [r.value for r in readings]:
                raise fail(f"default {e.get('default')!r} is not one of the readings")
            if not e.get("witness"):
                raise fail("an entry with an option needs a witness scenario")
        elif not no_diff:
            raise fail("needs an option with a witness, or a no_behavioural_difference argument")
        preset = str(e.get("preset", "du-en"))
        if preset not in presets():
            raise fail(f"unknown preset {preset}")
        raw_base = e.get("base_options", {})
        if not isinstance(raw_base, dict):
            raise fail("base_options must be a table")
        base_options = tuple(sorted((str(k), str(v).lower()) for k, v in raw_base.items()))
        try:
            parse_options(dict(base_options))
        except MalformedInput as err:
            raise fail(f"base_options: {err.what}") from None
        out.append(Ambiguity(aid, str(e.get("title", aid)), clauses, str(e.get("question", "")),
                             option, preset, int(e.get("players", 4)), e.get("default"),
                             str(e.get("why", "")), readings, e.get("witness"), no_diff,
                             line or 0, base_options, tuple(map(str, e.get("keys", [])))))
    return tuple(out)


@cache
def register() -> tuple[Ambiguity, ...]:
    """The shipped Dawn Under register (``ambiguities.toml`` of the game's data folder)."""
    from ruleproof.properties.dawn_under.plugin import PLUGIN

    return load_register(PLUGIN.spec_folder / "ambiguities.toml")


def witness_path(entry: Ambiguity) -> Path:
    """Where the entry's witness scenario lives (``spec/<witness>``)."""
    assert entry.witness is not None
    return spec_path(*entry.witness.split("/"))


def replay_witness(entry: Ambiguity) -> tuple[bool, str]:
    """Replay an entry's witness scenario: every reading must meet its expectations and the
    readings must end in different states or with different legal actions."""
    if entry.witness is None:
        return True, "no behavioural difference: " + (entry.no_difference or "")
    path = witness_path(entry)
    if not path.is_file():
        return False, f"witness file {entry.witness} is missing"
    sc = load_scenario(path)
    finals: list[State] = []
    for reading in sc.readings:
        final, _log, problems = run_reading(sc, reading)
        if problems:
            return False, "\n".join(problems)
        finals.append(final)
    values = sorted(option_value(r.config.options, entry.option or "") for r in sc.readings)
    if values != sorted(r.value for r in entry.readings):
        return False, f"the witness runs readings {values}, the entry has other readings"
    a, b = finals[0], finals[-1]
    same = a == replace(b, config=a.config) and legal_actions(a) == legal_actions(
        replace(a, config=b.config)) and first_difference(a, b.config) is None
    errors_differ = sc.readings[0].refusals != sc.readings[-1].refusals
    if same and not errors_differ:
        return False, "the witness does not tell the readings apart"
    return True, f"{len(sc.actions)} actions tell the readings apart"


def configs_for(entry: Ambiguity) -> tuple[Config, Config]:
    """The two readings' configurations."""
    assert entry.option is not None
    values = (entry.readings[0].value, entry.readings[1].value)
    return reading_configs(entry.preset, entry.players, entry.option, values, base_of(entry))


def base_of(entry: Ambiguity) -> Options | None:
    """The options an entry's readings sit on top of: the preset's, plus ``base_options``
    (e.g. ``{ expansion = "gruft" }``); None when the entry has none."""
    if not entry.base_options:
        return None
    return parse_options(dict(entry.base_options), base=preset_options(entry.preset))


def find_witness(entry: Ambiguity, max_examples: int, write: bool = False,
                 shrink: bool = True) -> tuple[bool, str]:
    """Search a witness for ``entry`` with hypothesis; optionally write its scenario file
    (writing always shrinks)."""
    if entry.option is None:
        return True, "no behavioural difference (argued)"
    a, b = configs_for(entry)
    found = search(a, b, max_examples, shrink=shrink or write)
    if found is None:
        return False, f"no witness found in {max_examples} examples"
    if write:
        values = (entry.readings[0].value, entry.readings[1].value)
        text = witness_scenario(entry.id, f"Witness: {entry.title}", entry.preset,
                                entry.players, entry.option, values, entry.clauses, found,
                                base=base_of(entry))
        from ruleproof.system.outputs import Target, write_file

        path = witness_path(entry)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(Target(path, "--write", "witness"), text)
    return True, (f"{found.kind} after {len(found.actions)} actions (deal seed {found.seed})")


@dataclass(frozen=True)
class Unexplained:
    """A divergence between two presets that no register entry explains."""

    preset_a: str
    preset_b: str
    players: int
    seed: int
    actions: tuple[str, ...]
    kind: str

    def __str__(self) -> str:
        return (f"{self.preset_a} vs {self.preset_b}, {self.players} players, deal seed "
                f"{self.seed}: {self.kind} after {len(self.actions)} actions: "
                f"{', '.join(self.actions[-8:])}")


def applicable(entries: tuple[Ambiguity, ...], players: int) -> tuple[Ambiguity, ...]:
    """Entries whose rule set covers ``players`` (2-player entries only explain 2-player play)."""
    return tuple(e for e in entries if players in presets()[e.preset].players
                 or (e.preset == "du-cs" and players in presets()["du-en"].players))


def explained_config(config_a: Config, config_b: Config,
                     entries: tuple[Ambiguity, ...]) -> Config:
    """Reading B with every registered option set to reading A's value: what B would be if
    every registered ambiguity were read as A reads it."""
    registered = {e.option for e in applicable(entries, config_a.players) if e.option}
    values = {o: option_value(config_a.options, o) for o in registered}
    return replace(config_b, options=parse_options(values, base=config_b.options))


def differential(preset_a: str, preset_b: str, players: int, games: int, max_steps: int,
                 entries: tuple[Ambiguity, ...], shrink_examples: int = 200
                 ) -> tuple[int, list[str], Unexplained | None]:
    """Play games under ``preset_a`` and compare every step with ``preset_b``.

    Every divergence must disappear when the options of registered entries take reading A's
    values in reading B; otherwise it is unexplained (a new ambiguity, or a model change that
    no option names), and hypothesis shrinks it to a minimal witness. Returns (divergences
    seen, entries that explained some, the unexplained divergence if any).
    """
    config_a = make_config(players, preset_options(preset_a), preset=preset_a)
    config_b = make_config(players, preset_options(preset_b), preset=preset_b)
    fixed = explained_config(config_a, config_b, entries)
    seen = 0
    used: set[str] = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(config_a, seed)
        if state != replace(new_game(fixed, seed), config=config_a):
            return seen, sorted(used), _shrunk(config_a, fixed, preset_a, preset_b, players,
                                               shrink_examples)
        for _ in range(max_steps):
            if state.phase is Phase.OVER:
                break
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            kind = first_difference(state, config_b) or successor_difference(
                state, config_b, action)
            if kind:
                seen += 1
                if first_difference(state, fixed) or successor_difference(state, fixed, action):
                    return seen, sorted(used), _shrunk(config_a, fixed, preset_a, preset_b,
                                                       players, shrink_examples)
                used.update(_which(state, config_b, action, applicable(entries, players)))
            state = step(state, action)[0]
    return seen, sorted(used), None


def _shrunk(config_a: Config, fixed: Config, preset_a: str, preset_b: str, players: int,
            examples: int) -> Unexplained:
    found = search(config_a, fixed, examples)
    if found is None:  # pragma: no cover - the divergence was just seen
        return Unexplained(preset_a, preset_b, players, -1, (), "divergence not reproduced")
    return Unexplained(preset_a, preset_b, players, found.seed,
                       tuple(str(a) for a in found.actions), found.kind)


def _which(state: State, config_b: Config, action: Action,
           entries: tuple[Ambiguity, ...]) -> set[str]:
    """Entries that alone remove the divergence (for the report)."""
    out: set[str] = set()
    for e in entries:
        if e.option is None:
            continue
        value = option_value(state.config.options, e.option)
        if value == option_value(config_b.options, e.option):
            continue
        single = replace(config_b, options=parse_options({e.option: value},
                                                         base=config_b.options))
        if first_difference(state, single) is None and successor_difference(
                state, single, action) is None:
            out.add(e.id)
    return out


@dataclass(frozen=True)
class _Register:
    """Dawn Under's capability ``"ambiguities"`` (see
    :class:`ruleproof.properties.contracts.register.AmbiguityRegister`)."""

    def entries(self) -> tuple[Ambiguity, ...]:
        return register()

    def replay_witness(self, entry: Any) -> tuple[bool, str]:
        return replay_witness(entry)

    def find_witness(self, entry: Any, max_examples: int, write: bool = False,
                     shrink: bool = True) -> tuple[bool, str]:
        return find_witness(entry, max_examples, write=write, shrink=shrink)

    def compare_texts(self, profile: str) -> list[Any]:
        from ruleproof.properties.dawn_under.contracts.discovery import compare_texts

        return compare_texts(profile)

    def listing(self) -> tuple[Any, ...]:
        from ruleproof.properties.contracts.register import Entry, Reading

        return tuple(Entry("dawn-under", e.id, "dawn_under/ambiguities.toml", e.title,
                           e.question, e.clauses,
                           tuple(Reading(r.value, r.summary, r.supported_by)
                                 for r in e.readings),
                           e.option, e.default, e.why,
                           (e.witness,) if e.witness else (), e.keys, e.no_difference,
                           native=e) for e in register())

    def catalogue(self) -> str:
        """The game's introduction on the catalogue page."""
        entries = register()
        return (f"Dawn Under's register (`spec/dawn_under/ambiguities.toml`) holds every point "
                "where its sources (du-en, du-cs, the 2-player rules, the expansion) disagree or "
                "are silent and a reading had to be chosen: each maps to a rule option "
                "(docs/rules-options.md) with a witness found by the tool (`ruleproof "
                "ambiguities --search --write`), or an argument why the readings cannot differ "
                f"({sum(1 for e in entries if e.witness)} with a witness, "
                f"{sum(1 for e in entries if not e.witness)} argued).")


AMBIGUITIES = _Register()
"""The capability ``"ambiguities"`` of Dawn Under's plugin record."""
