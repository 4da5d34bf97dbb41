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


class Engine(Protocol):
    """The Python form of the engine protocol (one game at a time).

    Action strings and public states are as in traces (docs/conformance.md). Every method may
    raise :class:`EngineFailure`.
    """

    def new_game(self, game: str, players: int, options: Mapping[str, str],
                 setup: Mapping[str, Any]) -> None:
        """Start a game from an explicit set-up (chance is decided by the harness)."""
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
        """What ``player`` sees (``player`` plus public state plus private fields); asked only
        for games with hidden information (Dracula)."""
        ...

    def close(self) -> None:
        """Release the engine (ask a subprocess to quit, then make sure it is gone)."""
        ...


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
    """The message layer shared by both engine forms (subclasses implement ``call``)."""

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def new_game(self, game: str, players: int, options: Mapping[str, str],
                 setup: Mapping[str, Any]) -> None:
        opts = dict(options)
        request: dict[str, Any] = {"cmd": "new_game", "game": game, "players": players}
        if "preset" in opts:
            request["preset"] = opts.pop("preset")
        request.update({"options": opts, "setup": dict(setup)})
        answer = self.call(request)
        if answer["ok"] is not True and answer.get("unsupported") is True:
            raise Unsupported(str(answer.get("error") or "unsupported")[:300])
        _checked(answer, "new_game")

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
        if len(raw) > MAX_ANSWER_BYTES:
            raise EngineFailure(f"answer longer than {MAX_ANSWER_BYTES} bytes")
        return _decode_answer(raw)

    def close(self) -> None:
        return None


class SubprocessEngine(_Messages):
    """An engine run as ``command`` (split with :func:`shlex.split`, no shell).

    Args:
        command: the command line, e.g. ``"python examples/engines/dawn_under_ref.py"``.
        timeout: seconds allowed for each answer (a hang is an :class:`EngineFailure`).
        cwd: working directory of the engine.

    Raises:
        MalformedInput: the command is empty, cannot be split, or cannot be started.
    """

    def __init__(self, command: str, *, timeout: float = 5.0, cwd: str | None = None) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise MalformedInput(f"cannot split engine command {command!r}: {exc}") from None
        if not argv:
            raise MalformedInput("the engine command is empty")
        self.command = command
        self.timeout = timeout
        # Kept open for the engine's lifetime (closed in close()); holds its stderr.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, cwd=cwd, shell=False)
        except OSError as exc:
            self._stderr.close()
            raise MalformedInput(f"cannot start engine {argv[0]!r}: "
                                 f"{exc.strerror or exc}") from None
        assert self._proc.stdout is not None
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 600))
            tail = self._stderr.read().decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""
        lines = tail.splitlines()
        return f"; stderr ends: {' | '.join(lines[-3:])}" if lines else ""

    def _dead(self, what: str) -> EngineFailure:
        code = self._proc.poll()
        status = f" (exit code {code})" if code is not None else ""
        return EngineFailure(f"{what}{status}{self._stderr_tail()}")

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        stdin = self._proc.stdin
        assert stdin is not None
        if os.fstat(self._stderr.fileno()).st_size > MAX_STDERR_BYTES:
            raise EngineFailure(f"engine wrote more than {MAX_STDERR_BYTES} bytes to stderr "
                                "(prints too much)")
        try:
            stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._dead(f"engine exited before {request['cmd']}") from None
        return _decode_answer(self._read_line(str(request["cmd"])))

    def _read_line(self, cmd: str) -> bytes:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_ANSWER_BYTES:
                raise EngineFailure(f"{cmd}: answer longer than {MAX_ANSWER_BYTES} bytes "
                                    "(engine prints too much)")
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise EngineFailure(f"{cmd}: no answer within {self.timeout:g} s (engine hangs)")
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._dead(f"{cmd}: engine closed its output (crashed)")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_ANSWER_BYTES:
            raise EngineFailure(f"{cmd}: answer longer than {MAX_ANSWER_BYTES} bytes "
                                "(engine prints too much)")
        return line

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(b'{"cmd": "quit"}\n')
                self._proc.stdin.close()
                self._proc.wait(timeout=0.5)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        elif self._proc.stdin is not None and not self._proc.stdin.closed:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
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
