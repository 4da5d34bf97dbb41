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
    """

    def __init__(self, what: str, *, file: str | None = None, line: int | None = None) -> None:
        self.what = what
        self.file = file
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """``file:line: what`` (the parts that are known)."""
        where = ""
        if self.file is not None:
            where = self.file if self.line is None else f"{self.file}:{self.line}"
            where += ": "
        return f"{where}{self.what}"


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
