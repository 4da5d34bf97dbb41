"""Simulation mode (TLC's ``-simulate``): long random behaviours of a set-up too large to
explore, every invariant and every clause contract checked on every successor of every state
visited, the clause coverage counted the same way as exhaustive exploration's.

A behaviour starts at a root of the set-up (behaviour ``b`` at root ``b mod roots``) and at
each step computes every successor, checks each (the game's invariants on the successor, the
clause contracts and transition properties on the transition), counts the clauses each
transition exercised, then follows one chosen uniformly at random with
``random.Random(f"{seed}/{b}")`` -- the same seed gives the same behaviours. It ends at a
terminal state, a dead end, a model error or after ``depth`` steps. Every finding comes with
the behaviour's trace up to it (``ruleproof replay`` replays it).

The set-ups meant for it are the full games, ``spec/<game>/full/*.toml`` (reduced files
with ``whole = true``); any reduced configuration works too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.games import (
    ExploreGame,
    Root,
    explore_game,
    spec_folders,
    started_roots,
)

FULL_FOLDER = "full"
"""The folder of a game's data folder holding its full set-ups for simulation."""


def full_setups() -> dict[str, Path]:
    """Name -> file of every game's full set-up (``spec/<game>/full/*.toml``)."""
    return {p.stem: p for folder in spec_folders()
            for p in sorted((folder / FULL_FOLDER).glob("*.toml"))}


@dataclass(frozen=True)
class SimFinding:
    """A finding of a behaviour: what, and the replayable trace to it.

    Attributes:
        kind: ``violation``, ``dead-end`` or ``error``.
        message: what is wrong.
        behaviour: the behaviour's number; depth: the steps before it.
        trace: header and steps (the last step is the offending action for a transition
            property or contract).
    """

    kind: str
    message: str
    behaviour: int
    depth: int
    trace: tuple[dict[str, Any], ...] = ()


@dataclass
class SimResult:
    """What a simulation did and found.

    Attributes:
        name, game: the set-up; seed: the seed of the behaviours.
        behaviours: behaviours run; steps: steps taken in all; transitions: successors
            checked; terminal: behaviours that ended in a terminal state; longest: the most
            steps of one behaviour; cut: behaviours stopped at ``depth``.
        contracts: whether the clause contracts were checked.
        fired: clause id -> transitions (successors checked) that exercised it.
        findings: the first finding per kind and message.
        seconds: wall time.
    """

    name: str
    game: str
    seed: int
    behaviours: int = 0
    steps: int = 0
    transitions: int = 0
    terminal: int = 0
    longest: int = 0
    cut: int = 0
    contracts: bool = True
    fired: dict[str, int] = field(default_factory=dict)
    findings: list[SimFinding] = field(default_factory=list)
    seconds: float = 0.0

    def problems(self) -> list[str]:
        """Why the simulation does not pass: findings, or no step taken."""
        out = [f"{f.kind}: {f.message} (behaviour {f.behaviour}, step {f.depth})"
               for f in self.findings]
        if not self.steps:
            out.append("no step was simulated")
        return out


def _trace(game: ExploreGame, root: Root, actions: list[str], note: str
           ) -> tuple[dict[str, Any], ...]:
    from ruleproof.properties.conformance.trace import header_object

    header = header_object(
        game.name, root.header["players"], {
            **({"preset": root.header["preset"]} if "preset" in root.header else {}),
            **root.header["options"]},
        seed=root.header.get("seed"), setup=root.header.get("setup"), note=note)
    steps = [*root.prefix, *actions]  # from the real start (a set-up's [playout])
    return (header, *({"step": n, "action": a} for n, a in enumerate(steps, start=1)))


def simulate(name: str, *, behaviours: int, depth: int, seed: int = 0,
             contracts: bool = True, max_seconds: float | None = None,
             progress: Callable[[int], None] | None = None) -> SimResult:
    """Run ``behaviours`` random behaviours of at most ``depth`` steps on the set-up ``name``
    (a full set-up's name, ``spec/<game>/full``; a shipped reduced name; or a file).
    ``progress(b)`` is called after each behaviour with the number done so far (the
    command's progress bar).

    Raises:
        MalformedInput: an unknown set-up or bad file; ``behaviours`` or ``depth`` below 1.
    """
    if behaviours < 1 or depth < 1:
        raise MalformedInput(f"--simulate needs behaviours >= 1 and --depth >= 1, got "
                             f"{behaviours} and {depth}")
    path = full_setups().get(name)
    game = explore_game(str(path) if path is not None else name, contracts=contracts)
    if game.played is None:
        raise MalformedInput(f"{game.name} has no rule set to count clause coverage against")
    roots = started_roots(game)
    res = SimResult(game.spec.name, game.name, seed, contracts=contracts)
    fired = res.fired
    firsts: set[tuple[str, str]] = set()
    began = time.perf_counter()

    def found(kind: str, message: str, b: int, root: Root, actions: list[str]) -> None:
        key = (kind, message.split(":")[0] if kind == "violation" else message)
        if key in firsts:
            return
        firsts.add(key)
        res.findings.append(SimFinding(kind, message, b, len(actions), _trace(
            game, root, actions, f"ruleproof explore --simulate {game.spec.name}: behaviour "
                                 f"{b} of seed {seed}")))

    for b in range(behaviours):
        if max_seconds is not None and time.perf_counter() - began >= max_seconds:
            break
        rng = random.Random(f"{seed}/{b}")
        root = roots[b % len(roots)]
        state = root.state
        actions: list[str] = []
        res.behaviours += 1
        for v in game.violations(state):
            found("violation", v, b, root, actions)
        for _ in range(depth):
            for c in game.refused(state):
                fired[c] = fired.get(c, 0) + 1
            if game.is_terminal(state):
                res.terminal += 1
                break
            try:
                succ = game.successors(state)
                clauses = game.fired(state, succ)
            except Exception as exc:  # a model crash is a finding, with its trace
                found("error", f"{type(exc).__name__}: {exc}", b, root, actions)
                break
            if not succ:
                found("dead-end", "a non-terminal state without a legal action", b, root,
                      actions)
                break
            res.transitions += len(succ)
            for (action, nxt), hit in zip(succ, clauses, strict=True):
                for c in hit:
                    fired[c] = fired.get(c, 0) + 1
                for v in game.step_violations(state, action, nxt):
                    found("violation", f"step {action}: {v}", b, root, [*actions, action])
                for v in game.violations(nxt):
                    found("violation", v, b, root, [*actions, action])
            action, state = succ[rng.randrange(len(succ))]
            actions.append(action)
            res.steps += 1
        else:
            if not game.is_terminal(state):
                res.cut += 1
            else:
                res.terminal += 1
        res.longest = max(res.longest, len(actions))
        if progress is not None:
            progress(res.behaviours)
    res.fired = dict(sorted(fired.items()))
    res.seconds = round(time.perf_counter() - began, 3)
    return res
