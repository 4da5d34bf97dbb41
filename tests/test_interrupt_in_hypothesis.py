"""A signal that arrives while hypothesis starts a run must end the run as interrupted.

Hypothesis turns an interrupt raised while it computes the test's database key into an
``AssertionError`` (its ``except BaseException`` handler asserts that its runner exists, which
it does not yet). ``conform`` suppressed errors from its hypothesis rounds and went on: the
engine the signal had killed was then read as an engine failure and a trace written for it
(seen as a flaky ``test_sigterm_ends_conform_and_its_engine_at_once`` under load). The tests
plant the interrupt exactly there, so they do not depend on timing.
"""

from __future__ import annotations

import signal
from typing import Any

import hypothesis.core
import pytest
from reference_engines import load_engine

from ruleproof.errors import Interrupted
from ruleproof.properties.conformance.differential import conform
from ruleproof.properties.conformance.engine import Engine, MessageEngine
from ruleproof.properties.conformance.games import model_of
from ruleproof.properties.machine import run_machine
from ruleproof.properties.reproducible import reraise_interrupt

ref: Any = load_engine("dawn_under_ref.py")


@pytest.fixture
def interrupt_at_database_key(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first database-key computation of hypothesis raises Interrupted(SIGTERM)."""
    calls: list[int] = []
    real = getattr(hypothesis.core, "function_digest")  # noqa: B009 - not re-exported

    def digest(fn: Any) -> bytes:
        calls.append(1)
        if len(calls) == 1:
            raise Interrupted(signal.SIGTERM)
        out: bytes = real(fn)
        return out

    monkeypatch.setattr(hypothesis.core, "function_digest", digest)
    return calls


def test_an_interrupt_at_the_database_key_is_found_whatever_hypothesis_makes_of_it(
        interrupt_at_database_key: list[int]) -> None:
    """Depending on where hypothesis first computes the key (in a plain run it became an
    AssertionError; under pytest's hypothesis plugin in CI it passed through), the run ends
    with the interrupt itself or with an error that holds it: either way it is found."""
    @hypothesis.given(hypothesis.strategies.integers())
    def test(_: int) -> None:
        pass

    with pytest.raises(BaseException) as caught:
        test()
    assert interrupt_at_database_key
    with pytest.raises(Interrupted):
        reraise_interrupt(caught.value)


def test_conform_ends_interrupted_not_with_a_finding(
        interrupt_at_database_key: list[int]) -> None:
    def make() -> Engine:
        return MessageEngine(ref.DawnUnderEngine(None).handle)

    with pytest.raises(Interrupted):
        conform(model_of("dawn-under"), make, players=3, budget=5.0, seed=0)
    assert interrupt_at_database_key


def test_the_hypothesis_machine_ends_interrupted_not_failed(
        interrupt_at_database_key: list[int]) -> None:
    with pytest.raises(Interrupted):
        run_machine("dawn-under", {"players": 3}, games=2, max_steps=20)
    assert interrupt_at_database_key


def test_an_error_without_an_interrupt_in_its_chain_is_left_alone() -> None:
    try:
        try:
            raise ValueError("inner")
        except ValueError as inner:
            raise AssertionError("outer") from inner
    except AssertionError as exc:
        reraise_interrupt(exc)  # returns


def test_a_lost_interrupt_still_ends_conform_without_a_finding() -> None:
    """One arriving while hypothesis seeds its generators (importing numpy) never reached
    conform at all: the run went on and read the engine the handler had stopped as a crash.
    The handler notes the signal (ruleproof.system.interrupts); conform raises it again before
    it counts a game or returns a result."""
    from ruleproof.system import interrupts

    def make() -> Engine:
        return MessageEngine(ref.DawnUnderEngine(None).handle)

    interrupts.note(signal.SIGTERM)  # as the handler does; the exception itself "lost"
    try:
        with pytest.raises(Interrupted) as caught:
            conform(model_of("dawn-under"), make, players=3, budget=5.0, seed=0)
        assert caught.value.signum == signal.SIGTERM
    finally:
        interrupts.clear()
    # and without a signal the same call plays games and conforms
    result = conform(model_of("dawn-under"), make, players=3, budget=2.0, seed=0, max_games=2)
    assert result.conforms and result.coverage.games >= 1, result.report()


def test_a_thread_failing_after_the_signal_prints_nothing() -> None:
    """Python 3.11's process pool printed an InvalidStateError traceback from its manager
    thread when a signal stopped the workers (``prove`` under SIGTERM, seen in CI): once a
    signal has come, the run's thread hook keeps other threads' failures quiet; before it,
    they go to the hook in place before (which prints them) as ever."""
    import threading

    from ruleproof.cli.runtime import Run
    from ruleproof.system import interrupts

    seen: list[str] = []

    def printing(args: threading.ExceptHookArgs) -> None:  # stands for the default hook
        seen.append(str(args.exc_value))

    def fail() -> None:
        raise RuntimeError("a library thread failed")

    saved = (threading.excepthook, signal.getsignal(signal.SIGINT),
             signal.getsignal(signal.SIGTERM))
    try:
        threading.excepthook = printing
        Run().install()
        t = threading.Thread(target=fail)
        t.start()
        t.join()
        assert seen == ["a library thread failed"]
        interrupts.note(signal.SIGTERM)
        t = threading.Thread(target=fail)
        t.start()
        t.join()
        assert seen == ["a library thread failed"]  # nothing more
    finally:
        interrupts.clear()
        threading.excepthook = saved[0]
        signal.signal(signal.SIGINT, saved[1])
        signal.signal(signal.SIGTERM, saved[2])


def test_an_error_after_a_noted_signal_is_the_interrupt() -> None:
    """An error whose chain holds no interrupt, once the handler has noted a signal, is the
    interrupt too (a stopped worker's failure is no finding): the check's property runner and
    the hypothesis machine go through reraise_interrupt."""
    from ruleproof.system import interrupts

    interrupts.note(signal.SIGINT)
    try:
        with pytest.raises(Interrupted) as caught:
            reraise_interrupt(RuntimeError("a worker the signal stopped"))
        assert caught.value.signum == signal.SIGINT
    finally:
        interrupts.clear()
    reraise_interrupt(RuntimeError("no signal: returns"))
