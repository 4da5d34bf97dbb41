"""The result of one model transition (no other imports, so the games' conformance
capabilities can use it without an import cycle through
:mod:`ruleproof.properties.conformance.games`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Stepped:
    """The model's successor state and the clause ids of what happened in the transition."""

    state: Any
    clauses: tuple[str, ...]
