"""Helpers shared by the command modules of the ``ruleproof`` CLI."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from ruleproof.errors import MalformedInput

F = TypeVar("F", bound=Callable[..., Any])


def bad_input_exits_2(fn: F) -> F:
    """Turn MalformedInput into a one-line ``error: FILE:LINE: what`` and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MalformedInput as exc:
            typer.echo(f"error: {exc.one_line()}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def option_pairs(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings of ``--option`` as a mapping (names with ``_`` for ``-``).

    Raises:
        MalformedInput: for an item without ``=``.
    """
    found: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise MalformedInput(f"--option expects NAME=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        found[key.strip().replace("-", "_")] = value.strip()
    return found
