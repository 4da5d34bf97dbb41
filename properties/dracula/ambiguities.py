"""Dracula's ambiguity register (``spec/dracula/ambiguities.toml``) as ``ruleproof ambiguities``
reads it: the capability ``"ambiguities"`` (:data:`AMBIGUITIES`), the generic one-text register
(:mod:`ruleproof.properties.contracts.one_text`) with Dracula's options.

Each entry's option is a field of :class:`ruleproof.model.dracula.DraculaRules` selecting a
reading; each entry has two hand-written witness scenarios (``spec/dracula/scenarios/``), one
per reading, that play the same actions and end apart. The game has one text (dracula-en).
"""

from __future__ import annotations

from ruleproof.properties.contracts.one_text import OneTextAmbiguities, TextAmbiguity

NAME = "dracula"


def _choices(option: str) -> tuple[str, ...] | None:
    """The values of a Dracula rule option (None: no such option)."""
    from ruleproof.model.dracula.rules import option_choices, option_names

    return option_choices(option) if option in option_names() else None


AMBIGUITIES = OneTextAmbiguities(
    NAME, "dracula", _choices,
    "Dracula's register (`spec/dracula/ambiguities.toml`) holds the questions the rulebook "
    "dracula-en leaves open or answers twice; each reading is a value of a rule option "
    "(`ruleproof check --option NAME=VALUE`), and each entry has two witness scenarios that "
    "play the same actions and end apart, one per reading.")
"""The capability ``"ambiguities"`` of Dracula's plugin record."""


def register() -> tuple[TextAmbiguity, ...]:
    """The shipped register."""
    return AMBIGUITIES.entries()


__all__ = ["AMBIGUITIES", "register"]
