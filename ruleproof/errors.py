"""The single error hierarchy of ruleproof.

Four kinds of failure are kept apart, because users react to them differently:

* :class:`MalformedInput`  -- a file or argument the user supplied is wrong (exit code 2 in the CLI).
* :class:`IllegalAction`   -- an action that the rules forbid in the given state; the state is untouched.
* :class:`AmbiguousRule`   -- the sources do not settle a question and no reading was chosen.
* :class:`Nonconformance`  -- an engine (or the model under a fault) disagrees with the specification.

Two more are about the run rather than the game: :class:`OutputFailed` (a file the user asked
for cannot be written: a kind of :class:`MalformedInput`, exit code 2 unless a finding was
reported first) and :class:`Interrupted` (SIGINT or SIGTERM: exit code 130 or 143).
"""

from __future__ import annotations

from collections.abc import Sequence


def _rebuilt(cls: type[BaseException], args: tuple[object, ...],
             state: dict[str, object]) -> BaseException:
    """An error unpickled without calling its ``__init__`` (whose parameters differ from
    ``args``): what a worker process raised arrives whole in the parent."""
    err = cls.__new__(cls)
    BaseException.__init__(err, *args)
    err.__dict__.update(state)
    return err


class RuleproofError(Exception):
    """Base class of every error raised on purpose by ruleproof. Every subclass pickles (an
    error raised in a worker process is re-raised in the parent with its attributes)."""

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


class MalformedInput(RuleproofError):
    """User input (file, option, argument) is malformed.

    Attributes:
        what: one line saying what is wrong and what was expected.
        file: path of the offending file, if any.
        line: 1-based line number in ``file``, if known.
        col: 1-based column in ``line``, if known.
        more: further problems found in the same pass (each ``file:line:col: what``), so a
            reader can report every problem of a file at once (python-chess status style).
    """

    def __init__(self, what: str, *, file: str | None = None, line: int | None = None,
                 col: int | None = None, more: Sequence[str] = ()) -> None:
        self.what = what
        self.file = file
        self.line = line
        self.col = col if line is not None else None
        self.more = tuple(more)
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """``file:line:col: what`` (the parts that are known) on ONE line: newlines and other
        control characters are escaped and an over-long message is cut."""
        where = ""
        if self.file is not None:
            where = printable(self.file, 200)
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        what = printable(self.what, 400)
        if self.more:
            what += f" (and {len(self.more)} more problem{'s' if len(self.more) > 1 else ''})"
        return f"{where}{what}"

    def report(self) -> str:
        """What the CLI prints: :meth:`one_line`, then the further problems (:attr:`more`) on
        the same line (``; also: ...``, at most :data:`REPORT_MORE` of them, then how many
        are left), so a file's problems are seen at once and bad input still gives one line."""
        shown = [printable(m, 200) for m in self.more[:REPORT_MORE]]
        left = len(self.more) - len(shown)
        tail = f"; and {left} more" if left else ""
        return self.one_line() + "".join(f"; also: {m}" for m in shown) + tail


REPORT_MORE = 10
"""How many further problems :meth:`MalformedInput.report` names after the first."""


def printable(text: str, limit: int) -> str:
    """``text`` with control characters escaped (``\\n``) and cut to ``limit`` characters."""
    out = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)
    return out if len(out) <= limit else out[:limit - 1] + "…"


class IllegalAction(RuleproofError):
    """An action that is not legal in the state it was applied to.

    The state passed to the transition function is never modified (states are immutable).

    Attributes:
        action: the offending action (any object with a readable ``str``).
        clauses: ids of the clauses that forbid it, e.g. ``("du-en:ch4.just-opened",)``.
        reason: a one-line explanation in the game's terms.
    """

    def __init__(self, action: object, reason: str, clauses: Sequence[str]) -> None:
        self.action = action
        self.reason = reason
        self.clauses = tuple(clauses)
        # No clause list when none applies (an id outside the numbering is not a rule matter).
        cited = f" [{', '.join(self.clauses)}]" if self.clauses else ""
        super().__init__(f"illegal action {action}: {reason}{cited}")


class AmbiguousRule(RuleproofError):
    """A rule question that the sources leave open was reached without a chosen reading.

    Attributes:
        option: the name of the rule option that would settle it.
        clauses: the clause ids involved.
    """

    def __init__(self, option: str, question: str, clauses: Sequence[str]) -> None:
        self.option = option
        self.question = question
        self.clauses = tuple(clauses)
        super().__init__(f"ambiguous rule ({option}): {question} [{', '.join(self.clauses)}]")


class Nonconformance(RuleproofError):
    """An implementation disagrees with the specification.

    Attributes:
        property_name: the property or comparison that failed.
        detail: a readable description, usually a counterexample trace.
    """

    def __init__(self, property_name: str, detail: str) -> None:
        self.property_name = property_name
        self.detail = detail
        super().__init__(f"{property_name}: {detail}")


class OutputFailed(MalformedInput):
    """A file the run was asked to write (a checkpoint, trace, witness, page, plot) could not
    be written: the disk is full, the file too large, the folder gone or read-only. The file
    is left as it was (``ruleproof.system.outputs`` writes a temporary file and renames it).

    Attributes:
        what: ``cannot write the KIND: REASON`` (one line).
        file: the path that was to be written.
        errno: the operating system's error number, if there was one.
    """

    def __init__(self, what: str, *, file: str, errno: int | None = None) -> None:
        self.errno = errno
        super().__init__(what, file=file)


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal (SIGINT, SIGTERM), raised in the main thread by the
    command line's handler so that every ``finally`` runs (temporary files removed, engines
    and workers stopped). A :class:`KeyboardInterrupt`, so that what stops on Ctrl-C stops on
    it too (``ray.get`` gives up waiting only for that); not an :class:`Exception`, so that
    nothing that handles errors catches it.

    Attributes:
        signum: the signal's number (2 SIGINT, 15 SIGTERM); the exit code is ``128 + signum``.
    """

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"interrupted by signal {signum}")

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


EXTRAS = {"pyspiel": "openspiel", "open_spiel": "openspiel",
          "pettingzoo": "pettingzoo", "gymnasium": "pettingzoo", "ray": "ray",
          "mkdocs": "docs", "material": "docs", "matplotlib": "docs", "selenium": "test"}
"""Top-level module -> the optional extra of pyproject.toml that installs it."""


def missing_extra(exc: ImportError) -> str:
    """The message of an import that failed, with the extra that installs the missing module
    when one does: ``No module named 'pyspiel' (install the openspiel extra: pip install
    ".[openspiel]" from the clone)``."""
    top = (exc.name or "").split(".", 1)[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return str(exc)
    return f'{exc} (install the {extra} extra: pip install ".[{extra}]" from the clone)'
