"""Witness scenario files for discovery findings and cycles, in the shipped scenario format
(``spec/dawn_under/scenarios/*.toml``: preset, players, actions, [setup] seed, [expect] facts).

The expectations are what the engine does (the reading the model takes); a comment names the
other reading and the clauses in play. ``ruleproof scenario FILE`` replays a witness.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruleproof.properties.contracts.discovery import Finding
from ruleproof.properties.contracts.games import RuleSet, engine_of, rule_set
from ruleproof.properties.endless import Cycle

FACTS = ("to_move", "turn", "phase", "plague", "stakes_path", "reserve", "removed_rats")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def scenario_text(rs: RuleSet, title: str, clauses: tuple[str, ...], seed: int,
                  actions: list[str], comment: str) -> str:
    """A scenario file replaying ``actions`` from the deal of ``seed`` under ``rs``, expecting
    the facts the engine ends in.

    Raises:
        ValueError: if the actions do not replay (a stale witness).
    """
    from ruleproof.properties.dawn_under.scenarios import fact

    engine = engine_of(rs)
    assert engine.parse is not None
    state = engine.new(seed)
    for text in actions:
        state = engine.apply(state, engine.parse(text))
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [f"title = {_toml(title)}", 'game = "dawn-under"', f"preset = {_toml(rs.preset)}",
              f"players = {rs.count}", f"clauses = {_toml(sorted(clauses))}",
              f"actions = {_toml(actions)}"]
    if rs.options:
        lines += ["", "[options]"] + [f"{k} = {_toml(v)}" for k, v in rs.options]
    lines += ["", "[setup]", f"seed = {seed}", "", "[expect]"]
    for key in FACTS:
        try:
            lines.append(f"{_toml(key)} = {_toml(fact(state, key, ()))}")
        except KeyError:
            continue
    return "\n".join(lines) + "\n"


def finding_scenario(f: Finding) -> str:
    """The witness file of a finding: the actions up to and including the finding's action
    (when the engine allows it), expecting the engine's facts."""
    rs = rule_set(f.rule_set)
    actions = list(f.prefix)
    engine = engine_of(rs)
    assert engine.parse is not None
    state = engine.new(f.seed)
    for text in actions:
        state = engine.apply(state, engine.parse(text))
    if engine.parse(f.action) in engine.legal(state):
        actions.append(f.action)
        note = f"the engine takes '{f.action}'"
    else:
        note = f"the engine refuses '{f.action}' here (not played)"
    comment = (f"Witness found by `ruleproof ambiguities --discover`: {f.key}.\n"
               f"{f.detail}; {note}.")
    return scenario_text(rs, f.key, f.clauses, f.seed, actions, comment)


def cycle_scenario(c: Cycle, clauses: tuple[str, ...], rounds: int = 2) -> str:
    """The witness of a cycle: the prefix, then the loop ``rounds`` times; the facts at the end
    equal those at the loop's start (the state recurs exactly, checked by replay)."""
    rs = rule_set(c.rule_set)
    comment = (f"Endless game found by search (properties/endless.py): after the prefix, the\n"
               f"loop {list(c.loop)} returns to exactly the same state; it can repeat for ever.")
    return scenario_text(rs, f"endless loop under {c.rule_set}", clauses, c.seed,
                         [*c.prefix, *(list(c.loop) * rounds)], comment)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
