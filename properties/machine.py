"""Hypothesis stateful testing of any game: random legal games over the one game interface, every
invariant after every step, a failure shrunk to a minimal game and reported as a readable log.

One machine for every registered game. It plays :class:`~ruleproof.model.api.GameState` values
of the game the plugin makes from the given parameters, and reaches the game only through the
plugin's capabilities (:mod:`ruleproof.properties.play`): ``invariants`` (required: the state
invariants and the transition properties), ``machine`` (optional settings) and ``chance``.

What it draws (so that a seeded run plays the same games wherever it runs):

* a set-up seed in ``0..seed_max`` (``settings.seed_max``), the game from
  ``new_seeded_state(seed)``;
* per step an integer ``choice`` in ``0..2**16``; the action is
  ``legal[choice % len(legal)]`` over the legal typed actions in the engine's order (at a
  chance node: the chance outcomes, unless the game settles them);
* at a finished game the step does nothing (``after_end="stop"``) or starts a new game from
  ``new_seeded_state(choice)`` (``after_end="restart"``).

The game is made with its truncation bound above ``max_steps`` (``play.bounded_params``), so a
game ends by its rules or by the step budget, never by truncation.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st
from hypothesis.control import should_note
from hypothesis.reporting import with_reporter
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from ruleproof.model.api import CHANCE, GameState
from ruleproof.properties.play import (
    GameInvariants,
    MachineSettings,
    build_game,
    model_mutant,
    settler,
)
from ruleproof.properties.plugin import GamePlugin, plugin, require
from ruleproof.properties.report import Tally
from ruleproof.properties.reproducible import reproducible_draws, reraise_interrupt

Step = Callable[[GameState, Any], GameState]
"""A transition of the machine: (state, typed action) -> successor (default: ``apply_typed``)."""

TAIL = 80
"""Log lines kept from the end of an unshrunk failing game (its set-up lines are kept too)."""


def _seat(p: GamePlugin, state: GameState) -> str:
    player = state.current_player()
    return "chance" if player == CHANCE else p.seat_name(player)


def make_machine(game_plugin: GamePlugin, game: Any, checks: GameInvariants,
                 machine: MachineSettings | None = None, tally: Tally | None = None,
                 apply: Step | None = None,
                 logs: list[list[str]] | None = None) -> type[RuleBasedStateMachine]:
    """A state machine class playing ``game`` (a :class:`~ruleproof.model.api.GameBase` made by
    ``game_plugin``) and checking ``checks`` after every step (see the module docstring).

    Args:
        machine: the play settings (default: the plugin's ``machine`` capability, else the
            generic ones).
        tally: games started, finished and steps taken are counted into it.
        apply: a replacement transition (a planted mutant, :func:`play.model_mutant`).
        logs: the readable log of each game hypothesis reports is appended to it (the last
            one is the failing game's).
    """
    opts = machine or game_plugin.capability("machine") or MachineSettings()
    work = tally if tally is not None else Tally()
    step: Step = apply or (lambda s, a: s.apply_typed(a))
    settle = settler(game_plugin)
    setup_lines = opts.setup_lines or (lambda s, seed: [f"new game, seed {seed}"])
    action_line = opts.action_line or (lambda s, a: f"{_seat(game_plugin, s)}: {a}")
    event_lines = opts.event_lines or (lambda before, after: ())
    end_line = opts.end_line or (lambda s: "game over")
    kept = logs if logs is not None else []

    class GameMachine(RuleBasedStateMachine):
        """Random legal play; every invariant after every step."""

        def __init__(self) -> None:
            super().__init__()
            self.state: GameState | None = None
            self.baseline: Any = None
            self.trail: list[str] = []
            if should_note():  # the game hypothesis reports: keep its log
                kept.append(self.trail)

        def _start(self, seed: int) -> None:
            self.state = game.new_seeded_state(seed)
            self.baseline = checks.baseline(self.state)
            work.games += 1
            if should_note():
                self.trail.extend(setup_lines(self.state, seed))

        @initialize(seed=st.integers(min_value=0, max_value=opts.seed_max))
        def set_up(self, seed: int) -> None:
            self._start(seed)

        @rule(choice=st.integers(min_value=0, max_value=2**16))
        def play(self, choice: int) -> None:
            before = self.state
            assert before is not None
            if before.is_terminal():
                if opts.after_end == "restart":
                    if should_note():
                        self.trail[:] = [end_line(before)]
                    self._start(choice)
                return  # stop: the game is over, the remaining steps do nothing
            if opts.chance == "settle" and before.current_player() == CHANCE:
                before = settle(before)
            legal = before.legal_typed_actions()
            assert legal, f"no legal action in a running game (a dead end): {before!r}"
            action = legal[choice % len(legal)]
            noting = should_note()
            if noting:
                self.trail.append(action_line(before, action))
            after = step(before, action)
            self.state = after
            work.steps += 1
            if noting:  # before anything else reads the new state (it may be broken)
                self.trail.extend(event_lines(before, after))
            work.finished += after.is_terminal()
            broken = checks.transition_violations(before, after)
            assert not broken, "transition property violated: " + "; ".join(broken)

        @invariant()
        def invariants_hold(self) -> None:
            if self.state is None:
                return
            broken = checks.violations(self.state, self.baseline)
            assert not broken, "invariant violated: " + "; ".join(broken)

    name = "".join(part.title() for part in game_plugin.package.split("_"))
    GameMachine.__name__ = GameMachine.__qualname__ = f"{name}Games"
    return GameMachine


def run_machine(game: str | GamePlugin, params: Mapping[str, Any], games: int, max_steps: int,
                *, seed: int | None = 0, shrink: bool | None = None, tally: Tally | None = None,
                apply: Step | None = None, invariants: GameInvariants | None = None
                ) -> tuple[bool, str]:
    """Run the machine on the game ``game`` (a registered name or a plugin) made from
    ``params`` for ``games`` examples of up to ``max_steps`` steps.

    Args:
        seed: hypothesis's seed (the same games wherever the package is installed); None: a
            random run.
        shrink: shrink a failure (default: the game's ``machine.shrink``).
        tally: the work is counted into it.
        apply: a replacement transition (a planted mutant).
        invariants: instead of the game's ``invariants`` capability.

    Returns:
        (passed, detail): detail is empty on success, else the failing game's readable log
        (shrunk, or without shrinking its set-up and last :data:`TAIL` lines) and the broken
        property or the model's error last.

    Raises:
        MalformedInput: an unknown game or bad parameters; Unsupported: the game has no
            ``invariants`` capability and none is given.
    """
    p = game if isinstance(game, GamePlugin) else plugin(game)
    checks: GameInvariants = invariants or require(p, "invariants", "the hypothesis machine")
    opts: MachineSettings = p.capability("machine") or MachineSettings()
    built = build_game(p, params, max_steps)
    logs: list[list[str]] = []
    machine = make_machine(p, built, checks, opts, tally, apply, logs)
    if seed is not None:  # the same games wherever the package is installed (derandomize alone
        machine = fixed_seed(seed)(machine)  # seeds from the code's digest, which varies)
    shrinking = opts.shrink if shrink is None else shrink
    cfg = settings(
        max_examples=games,
        stateful_step_count=max_steps,
        deadline=None,
        derandomize=seed is not None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=[ph for ph in Phase if shrinking or ph is not Phase.shrink],
    )
    out = io.StringIO()

    def report(text: object) -> None:
        out.write(f"{text}\n")

    try:
        with with_reporter(report), reproducible_draws():
            run_state_machine_as_test(machine, settings=cfg)  # type: ignore[no-untyped-call,unused-ignore]
    except Exception as exc:  # a property failed, or the model itself crashed
        reraise_interrupt(exc)  # unless it was a signal that hypothesis turned into an error
        message = str(exc) if isinstance(exc, AssertionError) else (
            f"the model raised {type(exc).__name__}: {exc}")
        trail = logs[-1] if logs else [str(n) for n in getattr(exc, "__notes__", [])]
        return False, "\n".join([*_shorten(trail, shrinking), message])
    return True, ""


def _shorten(trail: list[str], shrunk: bool) -> list[str]:
    """The whole log of a shrunk game; of an unshrunk long one its first lines (the set-up)
    and the last :data:`TAIL`."""
    if shrunk or len(trail) <= TAIL + 20:
        return trail
    head = trail[:10]
    return [*head, f"... ({len(trail) - len(head) - TAIL} lines left out)", *trail[-TAIL:]]


__all__ = ["TAIL", "Step", "make_machine", "model_mutant", "run_machine"]
