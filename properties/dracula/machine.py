"""A hypothesis RuleBasedStateMachine that plays random legal Dracula games from random secret
choices and checks every invariant after every step; a failure carries a readable trace
(hypothesis ``note``) of the actions that led to it."""

from __future__ import annotations

import io
from collections.abc import Callable

from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st
from hypothesis.reporting import with_reporter
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from ruleproof.model import CHANCE
from ruleproof.model.dracula import engine
from ruleproof.model.dracula.engine import Action, State
from ruleproof.model.dracula.rules import DraculaRules
from ruleproof.properties.report import Tally
from ruleproof.properties.reproducible import reproducible_draws

from .invariants import INVARIANTS, Invariant, violations

Apply = Callable[[State, Action], State]


def make_machine(apply: Apply | None = None,
                 invariants: dict[str, Invariant] | None = None,
                 rules: DraculaRules | None = None,
                 tally: Tally | None = None) -> type[RuleBasedStateMachine]:
    """The state-machine class, for a given transition function (default: the model's) and
    rule options (default: the shipped defaults); work is counted into ``tally``."""
    step_fn = apply or engine.apply
    checks = invariants or INVARIANTS
    work = tally if tally is not None else Tally()

    class DraculaMachine(RuleBasedStateMachine):
        """Random legal play; invariants after every step."""

        def __init__(self) -> None:
            super().__init__()
            self.state: State | None = None

        @initialize(seed=st.integers(0, 2**20))
        def start(self, seed: int) -> None:
            self.state = engine.new_game(seed, rules)
            work.games += 1
            note(f"new_game(seed={seed})")

        @rule(pick=st.integers(0, 2**16))
        def act(self, pick: int) -> None:
            s = self.state
            assert s is not None
            if engine.is_terminal(s):
                note(f"game over ({s.reason}); new_game(seed={pick})")
                self.state = engine.new_game(pick, rules)
                work.games += 1
                return
            options = engine.legal_actions(s)
            assert options, f"no legal action in phase {engine.phase(s)}"
            a = options[pick % len(options)]
            who = "chance" if engine.current_player(s) == CHANCE else \
                ("Dracula" if engine.current_player(s) == 0 else "Van Helsing")
            note(f"step {s.step}: {who}: {a}")
            self.state = step_fn(s, a)
            work.steps += 1
            work.finished += engine.is_terminal(self.state)

        @invariant()
        def hold(self) -> None:
            if self.state is None:
                return
            bad = violations(self.state, checks)
            assert not bad, "; ".join(bad)

    return DraculaMachine


def run_machine(games: int, max_steps: int, apply: Apply | None = None,
                invariants: dict[str, Invariant] | None = None,
                shrink: bool = False, rules: DraculaRules | None = None,
                tally: Tally | None = None) -> tuple[bool, int, str]:
    """Run the machine for ``games`` examples of at most ``max_steps`` steps.

    Returns (passed, games, detail). On failure the detail is the trace of the failing example
    up to the first step that broke an invariant (invariants are checked after every step);
    with ``shrink`` hypothesis also shrinks it (slow on long games).
    """
    cls = fixed_seed(0)(make_machine(apply, invariants, rules, tally))  # same games everywhere
    out = io.StringIO()

    def report(text: object) -> None:
        out.write(f"{text}\n")

    conf = settings(max_examples=games, stateful_step_count=max_steps, deadline=None,
                    database=None, derandomize=True, print_blob=False,
                    phases=list(Phase) if shrink else [p for p in Phase if p is not Phase.shrink],
                    suppress_health_check=list(HealthCheck))
    try:
        with with_reporter(report), reproducible_draws():
            run_state_machine_as_test(cls, settings=conf)  # type: ignore[no-untyped-call,unused-ignore]
    except AssertionError as exc:
        notes = [str(n) for n in getattr(exc, "__notes__", [])]
        trace = [*out.getvalue().strip().splitlines(), *notes]
        trace = [t for t in trace if t.strip() and not t.startswith("state.")]
        return False, games, "\n".join([f"invariant violated: {exc}", *trace[-80:]])
    return True, games, f"{games} random games, every invariant held after every step"
