"""Helpers shared by the command modules of the ``ruleproof`` CLI."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from ruleproof.errors import MalformedInput

F = TypeVar("F", bound=Callable[..., Any])


def bad_input_exits_2(fn: F) -> F:
    """Turn MalformedInput into a one-line ``error: FILE:LINE: what`` and exit code 2; so too
    an operating-system error on a path the user gave (a directory where a file is wanted, a
    missing folder, a full disk): ``error: PATH: cannot use it: REASON``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MalformedInput as exc:
            typer.echo(f"error: {exc.one_line()}", err=True)
            raise typer.Exit(2) from None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename is not None else ""
            reason = " ".join(str(exc.strerror or exc).split())
            typer.echo(f"error: {where}cannot use it: {reason}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def option_pairs(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings of ``--option`` as a mapping (names with ``_`` for ``-``).

    Raises:
        MalformedInput: for an item without ``=``, or for one name given twice with different
            values (never silently the last one).
    """
    found: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise MalformedInput(f"--option expects NAME=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        name, value = key.strip().replace("-", "_"), value.strip()
        if name in found and found[name] != value:
            raise MalformedInput(f"--option {name} given twice with different values: "
                                 f"{found[name]!r} and {value!r}; give it once")
        found[name] = value
    return found


MAX_JOBS = 64
"""Most worker processes any command starts."""


def number_in_range(value: float, option: str, low: float, high: float) -> float:
    """``value`` of ``option`` if it is a finite number in ``low..high``.

    Shared by every command with a numeric option (``--seed``, ``--max-steps``, ``--jobs``,
    ``--players``...): nan, inf and out-of-range values are refused, never used.

    Raises:
        MalformedInput: naming the option and the accepted range.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high:
        shown = repr(value)[:40]
        raise MalformedInput(f"{option} must be a number in {low}..{high}, got {shown}")
    return value


def int_in_range(value: int, option: str, low: int, high: int) -> int:
    """``value`` of ``option`` if it is an integer in ``low..high``.

    Raises:
        MalformedInput: naming the option and the accepted range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{option} must be an integer, got {repr(value)[:40]}")
    number_in_range(value, option, low, high)
    return value


def jobs_in_range(value: int) -> int:
    """A worker count: 1..min(MAX_JOBS, 4 x the CPUs).

    Raises:
        MalformedInput: for a count outside that range.
    """
    return int_in_range(value, "--jobs", 1, min(MAX_JOBS, 4 * (os.cpu_count() or 1)))
