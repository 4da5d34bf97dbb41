"""The single error hierarchy of ruleproof.

Four kinds of failure are kept apart, because users react to them differently:

* :class:`MalformedInput`  -- a file or argument the user supplied is wrong (exit code 2 in the CLI).
* :class:`IllegalAction`   -- an action that the rules forbid in the given state; the state is untouched.
* :class:`AmbiguousRule`   -- the sources do not settle a question and no reading was chosen.
* :class:`Nonconformance`  -- an engine (or the model under a fault) disagrees with the specification.
"""

from __future__ import annotations

from collections.abc import Sequence


class RuleproofError(Exception):
    """Base class of every error raised on purpose by ruleproof."""


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
            where = _printable(self.file, 200)
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        what = _printable(self.what, 400)
        if self.more:
            what += f" (and {len(self.more)} more problem{'s' if len(self.more) > 1 else ''})"
        return f"{where}{what}"


def _printable(text: str, limit: int) -> str:
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
        super().__init__(f"illegal action {action}: {reason} [{', '.join(self.clauses)}]")


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
