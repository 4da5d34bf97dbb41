"""Hypothesis stateful testing of Dawn Under: random legal games, invariants after every step.

A failure shrinks (hypothesis) to a minimal game, reported as a readable log in the game's terms
(``note`` lines: set-up, every event, the broken invariant).
"""

from __future__ import annotations

import io
import random

from hypothesis import HealthCheck, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st
from hypothesis.control import note, should_note
from hypothesis.reporting import with_reporter
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ruleproof.model.dawn_under.config import make_config
from ruleproof.model.dawn_under.engine import current_player, deal, initial_state, legal_actions, step
from ruleproof.model.dawn_under.render import event_text, player_name, row_text
from ruleproof.model.dawn_under.state import Options, Phase, State
from ruleproof.properties.dawn_under.invariants import Totals, transition_violations, violations
from ruleproof.properties.report import Tally
from ruleproof.properties.reproducible import reproducible_draws


def make_machine(players: int, options: Options | None = None,
                 preset: str = "du-en", tally: Tally | None = None) -> type[RuleBasedStateMachine]:
    """A state machine class playing ``players``-player games under ``preset`` and ``options``;
    games, endings and steps are counted into ``tally`` when given."""
    work = tally if tally is not None else Tally()

    class DawnUnderGames(RuleBasedStateMachine):
        """Random legal Dawn Under games; every invariant is checked after every step."""

        state: State
        totals: Totals

        @initialize(seed=st.integers(min_value=0, max_value=2**32 - 1))
        def set_up(self, seed: int) -> None:
            config = make_config(players, options, preset=preset)
            self.state = initial_state(config, deal(config, random.Random(seed)))
            self.totals = Totals.of_manifest(config)
            work.games += 1
            note(f"Set-up: {players} players, deal seed {seed}")
            for p, row in enumerate(self.state.rows):
                note(f"  {player_name(p)}: {row_text(config, row)}")

        @precondition(lambda self: hasattr(self, "state"))
        @rule(choice=st.integers(min_value=0, max_value=2**16))
        def play(self, choice: int) -> None:
            if self.state.phase is Phase.OVER:
                return  # the game is over; remaining steps are no-ops
            legal = legal_actions(self.state)
            action = legal[choice % len(legal)]
            before = self.state
            self.state, events = step(before, action)
            work.steps += 1
            work.finished += self.state.phase is Phase.OVER
            broken = transition_violations(before, events, self.state)
            assert not broken, "transition property violated: " + "; ".join(broken)
            if should_note():  # the game log is built only when hypothesis keeps it
                note(f"> {player_name(current_player(before))}: {action}")
                for event in events:
                    note("  " + event_text(before, event))

        @invariant()
        def invariants_hold(self) -> None:
            if not hasattr(self, "state"):
                return
            broken = violations(self.state, self.totals)
            assert not broken, "invariant violated: " + "; ".join(broken)

    DawnUnderGames.__name__ = f"DawnUnderGames{players}p"
    return DawnUnderGames


def run_machine(players: int, games: int, max_steps: int, options: Options | None = None,
                seed: int | None = 0, preset: str = "du-en",
                tally: Tally | None = None) -> tuple[bool, str]:
    """Run the state machine for ``games`` examples of up to ``max_steps`` steps (work counted
    into ``tally`` when given).

    Returns:
        (passed, detail): detail is empty on success, else the shrunk counterexample log.
    """
    machine = make_machine(players, options, preset, tally)
    if seed is not None:  # the same games wherever the package is installed (derandomize alone
        machine = fixed_seed(seed)(machine)  # seeds from the code's digest, which varies)
    out = io.StringIO()
    cfg = settings(
        max_examples=games,
        stateful_step_count=max_steps,
        deadline=None,
        derandomize=seed is not None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )

    def report(text: object) -> None:
        out.write(str(text) + "\n")

    try:
        with with_reporter(report), reproducible_draws():
            run_state_machine_as_test(machine, settings=cfg)  # type: ignore[no-untyped-call,unused-ignore]
    except Exception as exc:  # an invariant failed, or the model itself crashed
        notes = "\n".join(getattr(exc, "__notes__", []))
        message = str(exc) if isinstance(exc, AssertionError) else (
            f"the model raised {type(exc).__name__}: {exc}")
        return False, _readable(out.getvalue() + "\n" + notes, message)
    return True, ""


def _readable(reported: str, error: str) -> str:
    """Keep the game log notes and the broken invariant; drop hypothesis' step calls."""
    lines = [ln for ln in reported.splitlines()
             if ln.startswith(("Set-up", "  ", ">")) and "state." not in ln]
    return "\n".join([*lines, error])
