"""The signal that has interrupted this run, for code that must not mistake its effects for a
finding.

The command line's handler (:class:`ruleproof.cli.runtime.Run`) stops every process the run
started and raises :class:`~ruleproof.errors.Interrupted` in the main thread. A library between
the raise and the command line can lose that exception: hypothesis turns it into an
``AssertionError`` when it arrives while the database key is computed, and one arriving while
hypothesis seeds its random generators (importing numpy) did not reach the caller at all. The
run then went on, read the engine the handler had killed as a crash, and wrote a trace for it.

So the handler also :func:`note`\\ s the signal here, and code that turns an engine's death or a
failed example into a finding first calls :func:`check`, which raises the interrupt again.

A deliberate exception to the project's "no global mutable state": a signal is process-wide,
the flag is written once (the first signal) and only read afterwards; a forked worker leaves
through its own handler.
"""

from __future__ import annotations

from ruleproof.errors import Interrupted

_signal: list[int] = []  # the first signal of this run (empty: none)


def note(signum: int) -> None:
    """Record that the run is interrupted by ``signum`` (the first call wins)."""
    if not _signal:
        _signal.append(signum)


def pending() -> int | None:
    """The signal that interrupted this run, or None."""
    return _signal[0] if _signal else None


def check() -> None:
    """Raise the run's interrupt again if a signal has come.

    Raises:
        Interrupted: the run was interrupted (its signal number).
    """
    if _signal:
        raise Interrupted(_signal[0])


def clear() -> None:
    """Forget the signal (tests, and a process that runs the command line more than once)."""
    _signal.clear()


__all__ = ["check", "clear", "note", "pending"]
