"""A tiny type language for JSON values reported by engines, shared by the games'
conformance capabilities.

Specs: ``int``, ``str``, ``bool``; ``X?`` (X or null); ``[X]`` (a list of X); plus names a game
defines itself (``named``), which take precedence over the generic forms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Named = Mapping[str, Callable[[Any], bool]]


def has_type(value: Any, spec: str, named: Named | None = None) -> bool:
    """Whether a JSON value matches ``spec``."""
    named = named or {}
    if spec in named:
        return named[spec](value)
    if spec.endswith("?"):
        return value is None or has_type(value, spec[:-1], named)
    if spec.startswith("[") and spec.endswith("]"):
        return isinstance(value, list) and all(has_type(v, spec[1:-1], named) for v in value)
    if spec == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if spec == "bool":
        return isinstance(value, bool)
    if spec == "str":
        return isinstance(value, str)
    return False


def field_problem(name: str, value: Any, types: Mapping[str, str], words: Mapping[str, str],
                  named: Named | None = None) -> str | None:
    """None if state field ``name`` is known and ``value`` has its type, else what is wrong."""
    spec = types.get(name)
    if spec is None:
        return f"unknown state field {name!r}"
    return None if has_type(value, spec, named) else f"field {name!r} must be {words[spec]}"
