"""How a ``ruleproof`` process starts and ends: standard output that cannot fail silently,
SIGINT and SIGTERM that end every command within 2 seconds, nothing left running.

* :class:`CheckedStdout`: standard output is written through a raw writer that reports every
  failed or short write (Python's own file object let a write cut by ``ulimit -f`` pass, and
  the run exit 0 with the output cut). A failure (EPIPE, ENOSPC, EFBIG...) raises
  :class:`StdoutFailed`; the command line then prints one ``error:`` line on stderr and exits
  non-zero (:func:`stdout_failure`), never with a traceback.
* :class:`Run`: the first SIGINT or SIGTERM stops every process the run started but a local
  Ray's (worker pools, engines: at once) and raises :class:`ruleproof.errors.Interrupted` in
  the main thread, so that every ``finally`` runs (temporary files removed, Ray shut down);
  the command line prints ``error: interrupted by SIGINT`` and exits 130 (SIGTERM: 143). If
  that takes longer than :data:`GRACE` seconds, or a second signal comes, everything the
  run started is killed and the process leaves at once with the same line and code.
"""

from __future__ import annotations

import contextlib
import errno as errnos
import io
import os
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING

from ruleproof.errors import Interrupted
from ruleproof.system import interrupts
from ruleproof.system.processes import mark_run, stop_children_but_ray, stop_run

if TYPE_CHECKING:
    from typing_extensions import Buffer

GRACE = 1.0
"""Seconds an interrupted run may take to end by itself before it is ended at once."""

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StdoutFailed(Exception):
    """Standard output could not be written (the run's output is incomplete).

    Attributes:
        errno: the operating system's error number; strerror: its text.
    """

    def __init__(self, errno: int | None, strerror: str) -> None:
        self.errno = errno
        self.strerror = strerror
        super().__init__(strerror)


class CheckedStdout(io.RawIOBase):
    """A raw writer on a file descriptor that writes all it is given or raises
    :class:`StdoutFailed` (a short write is retried; an error is never dropped)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Buffer) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        while view:
            try:
                written = os.write(self._fd, view)
            except InterruptedError:  # pragma: no cover - retried by os.write itself
                continue
            except OSError as exc:
                raise StdoutFailed(exc.errno, exc.strerror or str(exc)) from None
            if written <= 0:  # pragma: no cover - write(2) reports an error instead
                raise StdoutFailed(errnos.EIO, "short write")
            view = view[written:]
        return total


def check_stdout() -> None:
    """Put :class:`CheckedStdout` under ``sys.stdout`` (same encoding, line buffering on a
    terminal as before)."""
    old = sys.stdout
    if old is None or not hasattr(old, "fileno"):  # pragma: no cover - no stdout at all
        return
    try:
        fd = old.fileno()
    except (OSError, ValueError):  # pragma: no cover - a replaced stdout (tests)
        return
    with contextlib.suppress(OSError):  # broken before anything was written
        old.flush()
    raw = CheckedStdout(fd)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=old.encoding or "utf-8",
                                  errors=getattr(old, "errors", None) or "strict",
                                  line_buffering=raw.isatty(), write_through=False)


def where_stdout() -> str:
    """What standard output is, for a message: its path, or ``a pipe``."""
    try:
        target = os.readlink("/proc/self/fd/1")
    except OSError:
        return "standard output"
    if target.startswith(("pipe:", "socket:")):
        return f"standard output ({target.split(':')[0]})"
    return f"standard output ({target})"


def stdout_failure(exc: StdoutFailed) -> None:
    """Print the one line for a failed standard output on stderr, and point fd 1 at the null
    device so that the interpreter's last flush cannot fail again (and print a traceback)."""
    where = where_stdout()
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:  # pragma: no cover
        pass
    os.write(2, f"error: {where}: cannot write: {exc.strerror}; the output is incomplete\n"
             .encode("utf-8", "replace"))


class Run:
    """One ``ruleproof`` run: its token (:func:`ruleproof.system.processes.mark_run`) and its
    signal handling (module docstring). :meth:`finish` says how it ends; a signal after it
    changes nothing."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.token = mark_run()
        self.signum: int | None = None
        self._done = threading.Lock()  # held by whoever ends the run (main or the timer)
        self._timer: threading.Timer | None = None

    def install(self) -> None:
        """Handle SIGINT and SIGTERM (in the main thread); no signal noted yet. Once a signal
        has come, an exception in another thread is not printed: the run is ending, and the
        stopped workers make library threads fail (Python 3.11's process pool: its manager
        thread sets an exception on a future the shutdown had cancelled and prints an
        ``InvalidStateError`` traceback), which broke the promise of one line."""
        interrupts.clear()
        for sig in SIGNALS:
            signal.signal(sig, self._on_signal)
        before = threading.excepthook
        if getattr(before, "quiet_once_interrupted", False):
            return  # installed by an earlier run in this process

        def hook(args: threading.ExceptHookArgs) -> None:
            if interrupts.pending() is None:
                before(args)

        hook.quiet_once_interrupted = True  # type: ignore[attr-defined]
        threading.excepthook = hook

    @property
    def code(self) -> int:
        """The exit code of an interrupted run (128 + the signal), 0 if none came."""
        return 0 if self.signum is None else 128 + self.signum

    def line(self) -> str:
        """The one line an interrupted run prints."""
        name = signal.Signals(self.signum).name if self.signum is not None else "a signal"
        return f"error: interrupted by {name}: stopped, every worker with it\n"

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self.pid:  # a forked worker: its parent handles the run
            os._exit(128 + signum)
        if self.signum is not None:  # a second signal: end now
            self._hard_stop()
            return
        if _in_gc_callback(frame):
            # an exception raised inside a garbage-collector callback is printed as "Exception
            # ignored" and dropped: deliver the signal again once the callback has returned
            again = threading.Timer(0.01, os.kill, (self.pid, signum))
            again.daemon = True
            again.start()
            return
        self.signum = signum
        interrupts.note(signum)  # for code that must not read the stopped engines as findings
        stop_children_but_ray()
        self._timer = threading.Timer(GRACE, self._hard_stop)
        self._timer.daemon = True
        self._timer.start()
        raise Interrupted(signum)

    def _hard_stop(self) -> None:
        """Kill everything the run started and leave at once (the run took too long to end,
        or a second signal came)."""
        if not self._done.acquire(blocking=False):
            return
        stop_run(self.token)
        with contextlib.suppress(OSError):
            os.write(2, self.line().encode())
        os._exit(self.code or 1)

    def finish(self) -> bool:
        """Claim the end of the run for the main thread: False if the timer has it (then the
        process is leaving already). An interrupted run's processes are killed here."""
        if not self._done.acquire(blocking=False):
            return False
        for sig in SIGNALS:  # the end is decided: later signals end at once
            signal.signal(sig, signal.SIG_DFL)
        if self._timer is not None:
            self._timer.cancel()
        if self.signum is not None:
            stop_run(self.token)
        return True


def _in_gc_callback(frame: FrameType | None) -> bool:
    """Whether ``frame`` (a signal handler's interrupted frame) is inside one of the garbage
    collector's callbacks (``gc.callbacks``, e.g. a test library's timing hook)."""
    import gc

    codes = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    codes.discard(None)
    while frame is not None and codes:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False
