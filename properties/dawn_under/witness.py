"""Automatic witnesses for rule ambiguities, and differential play between rule sets.

A *witness* for two readings of a rule is a start position and a short action sequence after
which the readings lead to different states, different legal actions or a different player to
move. Witnesses are searched with hypothesis over games played under both readings at once (the
same state is interpreted under each reading after every action) and shrunk to the shortest
example hypothesis finds; set-up differences are found at step 0.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from ruleproof.errors import IllegalAction
from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options
from ruleproof.model.dawn_under.engine import current_player, legal_actions, new_game, step
from ruleproof.model.dawn_under.state import RAT, Action, Config, Options, State, option_value
from ruleproof.model.dawn_under.state import Phase as GamePhase
from ruleproof.properties.dawn_under.scenarios import fact
from ruleproof.properties.reproducible import reproducible_draws

MAX_ACTIONS = 3000
"""Longest game played while searching (the drawn choices, then a seeded continuation)."""


@dataclass(frozen=True)
class Divergence:
    """Where two readings part: after ``actions`` (from the deal of ``seed``), ``kind`` says
    what differs; ``action`` is the action whose effect differs, if any."""

    seed: int
    actions: tuple[Action, ...]
    kind: str
    action: Action | None


def as_config(state: State, config: Config) -> State:
    """``state`` reinterpreted under another configuration (same position, other rules)."""
    return replace(state, config=config)


def first_difference(a: State, config_b: Config) -> str | None:
    """What differs between reading A (``a.config``) and reading B in the position ``a``."""
    b = as_config(a, config_b)
    if a.phase is GamePhase.OVER:
        return None
    if current_player(a) != current_player(b):
        return "the player to move differs"
    if legal_actions(a) != legal_actions(b):
        return "the legal actions differ"
    return None


def successor_difference(a: State, config_b: Config, action: Action) -> str | None:
    """Whether ``action`` has a different effect under reading B."""
    after_a = step(a, action)[0]
    try:
        after_b = step(as_config(a, config_b), action)[0]
    except IllegalAction:
        return f"'{action}' is illegal under one reading"
    if after_a != as_config(after_b, a.config):
        return f"'{action}' leads to different states"
    return None


def play_until_divergence(config_a: Config, config_b: Config, seed: int,
                          choices: Sequence[int], continue_play: bool = True
                          ) -> Divergence | None:
    """Play the choices under reading A from the deal of ``seed``, comparing with reading B.

    After the drawn choices the game goes on with choices from ``random.Random(seed)``, so
    that rare situations deep in a game are reachable; hypothesis shrinks the drawn prefix."""
    a = new_game(config_a, seed)
    if a != as_config(new_game(config_b, seed), config_a):
        return Divergence(seed, (), "the set-up differs", None)
    taken: list[Action] = []
    rng = random.Random(seed)
    more = (rng.randrange(2**16) for _ in range(MAX_ACTIONS if continue_play else 0))
    stream = itertools.chain(choices, more)
    for choice in itertools.islice(stream, MAX_ACTIONS):
        if a.phase is GamePhase.OVER:
            return None
        kind = first_difference(a, config_b)
        if kind:
            return Divergence(seed, tuple(taken), kind, None)
        legal = legal_actions(a)
        action = legal[choice % len(legal)]
        kind = successor_difference(a, config_b, action)
        taken.append(action)
        if kind:
            return Divergence(seed, tuple(taken), kind, action)
        a = step(a, action)[0]
    return None


def search(config_a: Config, config_b: Config, max_examples: int = 300,
           seeds: int = 50, shrink: bool = True) -> Divergence | None:
    """Search a shrunk divergence between two readings (None if none was found).

    Hypothesis draws a deal seed and a list of action choices and shrinks the first example
    that diverges (fewer actions, smaller seeds and choices). A first round plays only the drawn
    choices (short games, short witnesses); if that finds nothing, a second round continues each
    game with seeded random choices to reach situations deep in a game."""
    phases = list(Phase) if shrink else [Phase.explicit, Phase.reuse, Phase.generate]
    cfg = settings(max_examples=max_examples, database=None, derandomize=True, deadline=None,
                   suppress_health_check=list(HealthCheck), phases=phases)
    for continue_play, size in ((False, 120), (True, 60)):
        strategy = st.tuples(st.integers(0, seeds - 1),
                             st.lists(st.integers(0, 2**16), max_size=size))
        def diverges(ex: tuple[int, list[int]], cont: bool = continue_play) -> bool:
            return play_until_divergence(config_a, config_b, ex[0], ex[1], cont) is not None

        try:
            with reproducible_draws():
                seed, choices = find(strategy, diverges, settings=cfg)
        except NoSuchExample:
            continue
        return play_until_divergence(config_a, config_b, seed, choices, continue_play)
    return None


def reading_configs(preset: str, players: int, option: str, values: tuple[str, str],
                    base: Options | None = None) -> tuple[Config, Config]:
    """The two configurations of an option's readings on top of a preset."""
    start = base or preset_options(preset)
    return tuple(make_config(players, parse_options({option: v}, base=start), preset=preset)
                 for v in values)  # type: ignore[return-value]


_FACTS = ("to_move", "turn", "phase", "winner", "plague", "plague.holder", "plague.current",
          "removed_rats", "reserve", "stakes_path", "barred", "post", "count", "open")


def differing_facts(a: State, b: State, graves: Sequence[int]) -> tuple[list[str], list[str]]:
    """Fact keys to expect in a witness: always ``to_move`` and ``legal``, plus every fact in
    which the two final states differ. Returns (keys, keys that differ)."""
    keys = list(_FACTS)
    for p in range(a.config.players):
        keys += [f"stakes.P{p + 1}", f"garlic.P{p + 1}", f"row.P{p + 1}"]
    keys += [f"grave.{g}" for g in graves] + [f"lid.{g}" for g in graves]
    keys.append("legal")
    differ = []
    for key in keys:
        try:
            if fact(a, key, ()) != fact(b, key, ()):
                differ.append(key)
        except KeyError:
            continue
    chosen = ["to_move", *[k for k in differ if k not in ("to_move", "legal")], "legal"]
    return chosen, differ


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\\\", "\\\\\\\\").replace('"', '\\\\"')
    return f'"{text}"'


def witness_scenario(ambiguity: str, title: str, preset: str, players: int, option: str,
                     values: tuple[str, str], clauses: Sequence[str],
                     divergence: Divergence, base: Options | None = None) -> str:
    """A scenario file (TOML text) replaying the witness under both readings, with the
    expected facts and errors that tell them apart."""
    configs = reading_configs(preset, players, option, values, base)
    actions = [str(a) for a in divergence.actions]
    graves = sorted({g for a in divergence.actions if (g := getattr(a, "grave", None)) is not None})
    finals: list[State] = []
    errors: list[tuple[int, str] | None] = []
    for config in configs:
        state = new_game(config, divergence.seed)
        error = None
        for number, action in enumerate(divergence.actions, start=1):
            try:
                state = step(state, action)[0]
            except IllegalAction as err:
                error = (number, err.clauses[0])
                break
        finals.append(state)
        errors.append(error)
    keys, _differ = differing_facts(finals[0], finals[1], graves)
    base_opts = base or preset_options(preset)
    fixed = {name: option_value(base_opts, name) for name in ("lidless_grave",)
             if option_value(base_opts, name) != option_value(Options(), name)}
    lines = [
        f"# Witness generated by `ruleproof ambiguities --search --write`: {divergence.kind}.",
        f"title = {_toml(title)}",
        f"ambiguity = {_toml(ambiguity)}",
        'game = "dawn-under"',
        f"preset = {_toml(preset)}",
        f"players = {players}",
        f"clauses = {_toml(list(clauses))}",
        f"actions = {_toml(actions)}",
        "",
        "[setup]",
        f"seed = {divergence.seed}",
    ]
    if base is not None:
        changed = {n: option_value(base, n) for n in _option_names()
                   if option_value(base, n) != option_value(preset_options(preset), n)
                   and n != option}
        changed.update(fixed)
        if changed:
            lines += ["", "[options]"] + [f"{k} = {_toml(v)}" for k, v in sorted(changed.items())]
    for value, final, error in zip(values, finals, errors, strict=True):
        lines += ["", "[[reading]]", f"name = {_toml(value)}",
                  f"options = {{ {option} = {_toml(value)} }}"]
        if error is not None:
            lines += ["[[reading.refused]]", f"action = {error[0]}",
                      f"clauses = [{_toml(error[1])}]"]
        lines.append("[reading.expect]")
        for key in keys:
            lines.append(f"{_toml(key)} = {_toml(fact(final, key, ()))}")
    return "\n".join(lines) + "\n"


def _option_names() -> tuple[str, ...]:
    from ruleproof.model.dawn_under.config import option_values

    return tuple(option_values())


__all__ = ["RAT", "Divergence", "first_difference", "play_until_divergence", "search",
           "successor_difference", "witness_scenario"]
