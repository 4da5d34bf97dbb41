"""Engine adapters: the Python interface and the JSON-Lines-over-a-subprocess protocol.

An engine under test is driven through :class:`Engine`. Two implementations are shipped:

* :class:`SubprocessEngine` speaks the language-neutral protocol (docs/conformance.md): one JSON
  request per line on the engine's stdin, one JSON answer per line on its stdout. The command is
  split with :func:`shlex.split` and started without a shell; every call has a timeout, answers
  are limited in size and parsed defensively. Crashes, hangs, garbage and floods become
  :class:`EngineFailure`.
* :class:`MessageEngine` wraps an in-process callable ``handle(request: dict) -> dict`` that
  speaks the same messages (requests and answers go through a JSON round trip, so the in-process
  check is as strict as the subprocess one).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from typing import IO, Any, Protocol

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.jsonsafe import MAX_DEPTH, depth_exceeded

PROTOCOL = 1
"""Version of the engine protocol."""
MAX_ANSWER_BYTES = 1024 * 1024
"""An answer line longer than this is reported as a flood."""
MAX_STDERR_BYTES = 16 * 1024 * 1024
"""An engine that writes more than this to stderr is reported as a flood."""


class Unsupported(Exception):
    """The engine declined a game, preset or option it does not implement (answered
    ``new_game`` with ``"unsupported": true``); reported as unsupported, not as a mismatch.

    Attributes:
        what: the engine's explanation.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


class EngineFailure(Exception):
    """The engine crashed, hung, answered garbage, too much, or broke the protocol.

    Attributes:
        what: a one-line description (with the tail of the engine's stderr when it crashed).
    """

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


class EngineNotStarted(EngineFailure):
    """The engine's process ended before it gave any answer: a missing script, a syntax error,
    a crash while starting. No game can be judged; ``conform`` reports it as bad input (the
    engine command), not as a divergence."""


class BudgetSpent(Exception):
    """The search's wall-clock budget ran out while waiting for the engine (the engine's whole
    process group has been killed); the game in progress is not counted."""


def _shown(line: bytes, limit: int = 120) -> str:
    """A line the engine printed, as text in quotes for a report (at most ``limit``
    characters, control characters escaped)."""
    text = line.decode("utf-8", "replace")
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def exit_status(returncode: int | None) -> str:
    """A readable exit status: ``still running``, ``exited cleanly (exit code 0)``,
    ``crashed (exit code N)`` or ``crashed (killed by signal SIGNAME)``."""
    if returncode is None:
        return "still running"
    if returncode == 0:
        return "exited cleanly (exit code 0)"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        return f"crashed (killed by signal {name})"
    return f"crashed (exit code {returncode})"


FAILURE_CATEGORIES = ("hangs", "extra output", "exited cleanly", "crashed", "not JSON",
                      "prints too much", "nested deeper", "not an object", "declined",
                      "must be", "failed")
"""Words that classify an :class:`EngineFailure` message (see :func:`failure_category`)."""


def failure_category(what: str) -> str:
    """The kind of an engine failure message (``hangs``, ``crashed``, ``extra output``...), so
    that two reports of the same fault compare equal while shrinking."""
    for word in FAILURE_CATEGORIES:
        if word in what:
            return word
    return "other"


class Engine(Protocol):
    """The Python form of the engine protocol (one game at a time).

    Action strings and public states are as in traces (docs/conformance.md). Every method may
    raise :class:`EngineFailure`.
    """

    def new_game(self, game: str, players: int, options: Mapping[str, str],
                 setup: Mapping[str, Any]) -> None:
        """Start a game from an explicit set-up (chance is decided by the harness).

        ``options`` may hold ``preset`` and ``expansion`` entries: the JSON form sends them as
        the request's own fields (``expansion`` only when it is not ``none``); ``setup`` may
        name the players (Dawn Under ``names``, seat order)."""
        ...

    def legal_actions(self) -> list[str]:
        """The legal actions of the player to move (any order; empty when the game is over)."""
        ...

    def apply(self, action: str) -> str | None:
        """Apply an action; None if accepted, else the engine's reason for rejecting it."""
        ...

    def state(self) -> dict[str, Any]:
        """The public state after the last action."""
        ...

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees (``player`` plus public state plus private fields); asked
        after every step, for each player of a game with hidden information (its conformance
        capability's ``observed_players``)."""
        ...

    def close(self) -> None:
        """Release the engine (ask a subprocess to quit, then make sure it is gone)."""
        ...

    def hello(self) -> dict[str, Any]:
        """The handshake: what the engine declares it supports (``{}`` if nothing)."""
        ...

    deadline: float | None
    """The search's wall-clock deadline (monotonic seconds); past it a call raises
    :class:`BudgetSpent`."""


EngineFactory = Callable[[], Engine]
"""Builds a fresh engine; called again after an engine failure."""


def _decode_answer(raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EngineFailure("answer is not UTF-8 text") from None
    if depth_exceeded(text) is not None:
        raise EngineFailure(f"answer nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, ValueError, RecursionError):
        raise EngineFailure(f"answer is not JSON: {text[:120]!r}") from None
    if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
        raise EngineFailure(f"answer is not an object with a boolean 'ok': {text[:120]!r}")
    return value


def _checked(answer: dict[str, Any], request: str) -> dict[str, Any]:
    if answer["ok"] is not True:
        raise EngineFailure(f"{request} failed: {str(answer.get('error'))[:200]}")
    return answer


class _Messages:
    """The message layer shared by both engine forms (subclasses implement ``call``).

    ``deadline`` (a :func:`time.monotonic` instant, or None) is the search's wall-clock budget:
    a call still unanswered then raises :class:`BudgetSpent`.
    """

    deadline: float | None = None

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def new_game(self, game: str, players: int, options: Mapping[str, str],
                 setup: Mapping[str, Any]) -> None:
        opts = dict(options)
        request: dict[str, Any] = {"cmd": "new_game", "game": game, "players": players}
        if "preset" in opts:
            request["preset"] = opts.pop("preset")
        if opts.get("expansion", "none") != "none":  # a game's expansion
            request["expansion"] = opts.pop("expansion")
        opts.pop("expansion", None)
        request.update({"options": opts, "setup": dict(setup)})
        answer = self.call(request)
        if answer["ok"] is not True and answer.get("unsupported") is True:
            raise Unsupported(str(answer.get("error") or "unsupported")[:300])
        _checked(answer, "new_game")

    def hello(self) -> dict[str, Any]:
        """The engine's handshake answer (``{"cmd": "hello"}``); ``{}`` if it does not answer
        the handshake with ``ok: true``. Engine failures propagate.

        Raises:
            Unsupported: the answer names a ``protocol`` version other than :data:`PROTOCOL`
                (the engine speaks a protocol this harness does not).
        """
        answer = self.call({"cmd": "hello"})
        if answer.get("ok") is not True:
            return {}
        if "protocol" in answer and (answer["protocol"] != PROTOCOL
                                     or isinstance(answer["protocol"], bool)):
            shown = json.dumps(answer["protocol"])
            raise Unsupported(f"hello: the engine speaks protocol {shown[:40]}; this harness "
                              f"speaks protocol {PROTOCOL}")
        return answer

    def legal_actions(self) -> list[str]:
        actions = _checked(self.call({"cmd": "legal_actions"}), "legal_actions").get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise EngineFailure("legal_actions: 'actions' must be a list of strings")
        return actions

    def apply(self, action: str) -> str | None:
        answer = self.call({"cmd": "apply", "action": action})
        if answer["ok"]:
            return None
        return str(answer.get("reason") or answer.get("error") or "rejected")[:300]

    def state(self) -> dict[str, Any]:
        state = _checked(self.call({"cmd": "state"}), "state").get("state")
        if not isinstance(state, dict):
            raise EngineFailure("state: 'state' must be an object")
        return state

    def observation(self, player: int) -> dict[str, Any]:
        seen = _checked(self.call({"cmd": "observation", "player": player}),
                        "observation").get("observation")
        if not isinstance(seen, dict):
            raise EngineFailure("observation: 'observation' must be an object")
        return seen


class MessageEngine(_Messages):
    """An in-process engine given as a message handler ``handle(request) -> answer``.

    Exceptions raised by the handler are reported as :class:`EngineFailure` (a crash).
    """

    def __init__(self, handle: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self._handle = handle

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            answer = self._handle(json.loads(json.dumps(request)))
            raw = json.dumps(answer).encode("utf-8")
        except Exception as exc:  # the engine under test may fail in any way
            raise EngineFailure(f"engine raised {type(exc).__name__}: {exc}") from None
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetSpent("the budget ran out during an engine call")
        if len(raw) > MAX_ANSWER_BYTES:
            raise EngineFailure(f"answer longer than {MAX_ANSWER_BYTES} bytes")
        return _decode_answer(raw)

    def close(self) -> None:
        return None


class SubprocessEngine(_Messages):
    """An engine run as ``command`` (split with :func:`shlex.split`, no shell).

    The engine runs in a session and process group of its own; whenever it must go (a hang, the
    budget spent, :meth:`close`) the whole group is killed with SIGKILL, so an engine that forks
    leaves nothing behind. Every read waits at most until the earlier of ``timeout`` seconds and
    ``deadline``. Failure reports give the exit status (or signal) and the last lines of the
    engine's stderr.

    Args:
        command: the command line, e.g. ``"python examples/engines/dawn_under_ref.py"``.
        timeout: seconds allowed for each answer (a hang is an :class:`EngineFailure`).
        cwd: working directory of the engine.

    Raises:
        MalformedInput: the command is empty, cannot be split, or cannot be started.
    """

    POLL = 0.05
    """Seconds between checks that the engine is still alive while waiting for an answer."""
    STARTUP = 10.0
    """Seconds the first answer may take at least (the engine is starting), whatever the
    per-answer timeout; the wall-clock budget still applies."""

    def __init__(self, command: str, *, timeout: float = 5.0, cwd: str | None = None) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise MalformedInput(f"cannot split engine command {command!r}: {exc}") from None
        if not argv:
            raise MalformedInput("the engine command is empty")
        self.command = command
        self.timeout = timeout
        self.last_cmd = ""
        # Kept open for the engine's lifetime (closed in close()); holds its stderr.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, cwd=cwd, shell=False,
                                          start_new_session=True)
        except OSError as exc:
            self._stderr.close()
            raise MalformedInput(f"cannot start engine {argv[0]!r}: "
                                 f"{exc.strerror or exc}") from None
        assert self._proc.stdout is not None
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._buffer = b""
        self._eof = False
        self._answered = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)

    @property
    def pid(self) -> int:
        """The engine's process id (also its process group and session id)."""
        return self._proc.pid

    def stderr_tail(self, lines: int = 5) -> str:
        """The last ``lines`` lines of the engine's stderr, joined with `` | `` ('' if none)."""
        try:
            self._stderr.flush()
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            tail = self._stderr.read().decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""
        found = [line for line in tail.splitlines() if line.strip()]
        return " | ".join(found[-lines:])

    def _kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=2.0)

    def _failure(self, what: str, *, kill: bool = False, ended: bool = False) -> EngineFailure:
        """An :class:`EngineFailure` with the exit status and the stderr tail (killing the
        group first if asked); :class:`EngineNotStarted` if ``ended`` (the output closed or
        stdin broke) before any answer, the process gone."""
        gone = ended and not self._answered and self._proc.poll() is not None
        if kill:
            code_before = self._proc.poll()
            self._kill_group()
            status = (exit_status(code_before) if code_before is not None
                      else "was still running; killed with its process group")
        else:
            status = exit_status(self._proc.poll())
        tail = self.stderr_tail()
        return (EngineNotStarted if gone else EngineFailure)(
            f"{what}: the engine {status}" + (f"; stderr ends: {tail}" if tail else ""))

    def _drain(self) -> None:
        """Read whatever the engine has written without being asked (non-blocking)."""
        while not self._eof and self._selector.select(0):
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                return
            if not chunk:
                self._eof = True
                return
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER_BYTES:
                return

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        stdin = self._proc.stdin
        assert stdin is not None
        cmd = str(request["cmd"])
        if os.fstat(self._stderr.fileno()).st_size > MAX_STDERR_BYTES:
            raise self._failure(f"engine wrote more than {MAX_STDERR_BYTES} bytes to stderr "
                                "(prints too much)", kill=True)
        self._drain()
        if self._buffer.strip():
            extra = _shown(self._buffer.split(b"\n")[0])
            raise self._failure(f"{cmd}: extra output: the engine printed a line nobody asked "
                                f"for after its answer to {self.last_cmd or 'nothing'!r} (one "
                                f"answer line per request; debug output goes to stderr): "
                                f"{extra}", kill=True)
        self._buffer = b""
        try:
            stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.5)
            raise self._failure(f"engine exited before {cmd}", ended=True) from None
        self.last_cmd = cmd
        return _decode_answer(self._read_line(cmd))

    def _read_line(self, cmd: str) -> bytes:
        started = time.monotonic()
        # The first answer also waits for the engine to start (an interpreter, a JVM...).
        allowed = self.timeout if self._answered else max(self.timeout, self.STARTUP)
        limit = started + allowed
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_ANSWER_BYTES:
                raise self._failure(f"{cmd}: answer longer than {MAX_ANSWER_BYTES} bytes "
                                    "(engine prints too much)", kill=True)
            now = time.monotonic()
            if self.deadline is not None and now >= self.deadline:
                self._kill_group()
                raise BudgetSpent(f"the budget ran out while waiting for {cmd}")
            if now >= limit:
                raise self._failure(f"{cmd}: no answer within {allowed:g} s "
                                    "(engine hangs)", kill=True)
            if self._eof:
                break
            wait = min(self.POLL, limit - now)
            if self.deadline is not None:
                wait = min(wait, max(0.0, self.deadline - now))
            if not self._selector.select(wait):
                code = self._proc.poll()
                if code is not None:
                    # The engine is gone while something (a forked child) holds its output.
                    raise self._failure(f"{cmd}: no answer (its output is still held open, "
                                        "by a child process?)", kill=True)
                continue
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self._eof = True
                break
            self._buffer += chunk
        if b"\n" not in self._buffer:
            # End of output: wait briefly for the exit status.
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.5)
            raise self._failure(f"{cmd}: no answer, the engine closed its output", kill=True,
                                ended=True)
        line, _, self._buffer = self._buffer.partition(b"\n")
        self._answered = True
        if len(line) > MAX_ANSWER_BYTES:
            raise self._failure(f"{cmd}: answer longer than {MAX_ANSWER_BYTES} bytes "
                                "(engine prints too much)", kill=True)
        if self._buffer.strip():
            extra = _shown(self._buffer.split(b"\n")[0])
            raise self._failure(f"{cmd}: extra output: the engine printed more than one line "
                                f"for one request (one answer line per request; debug output "
                                f"goes to stderr): {_shown(line)}, then {extra}", kill=True)
        return line

    def close(self) -> None:
        """Ask the engine to quit, then kill its whole process group (forked children too)."""
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(b'{"cmd": "quit"}\n')
                self._proc.stdin.close()
                self._proc.wait(timeout=0.5)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        elif self._proc.stdin is not None and not self._proc.stdin.closed:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        self._kill_group()
        self._selector.close()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._stderr.close()


def subprocess_factory(command: str, *, timeout: float = 5.0,
                       cwd: str | None = None) -> EngineFactory:
    """A factory of :class:`SubprocessEngine` for ``command``."""

    def make() -> Engine:
        return SubprocessEngine(command, timeout=timeout, cwd=cwd)

    return make
