"""Liar's Dice's ambiguity register (``spec/liars_dice/ambiguities.toml``) as ``ruleproof
ambiguities`` reads it: the capability ``"ambiguities"`` (:data:`AMBIGUITIES`), the generic
one-text register (:mod:`ruleproof.properties.contracts.one_text`) with Liar's Dice's options.

Each entry's option is one of :data:`ruleproof.model.liars_dice.rules.OPTIONS` selecting a
reading; each entry has one witness scenario (``spec/liars_dice/scenarios/witnesses/``) run
under every reading (its ``[[reading]]`` tables), in which the readings end apart. The game has
one text (ld-wp).
"""

from __future__ import annotations

from ruleproof.properties.contracts.one_text import OneTextAmbiguities, TextAmbiguity

NAME = "liars-dice"


def _choices(option: str) -> tuple[str, ...] | None:
    """The values of a Liar's Dice rule option (None: no such option)."""
    from ruleproof.model.liars_dice.rules import OPTIONS

    return OPTIONS.get(option)


AMBIGUITIES = OneTextAmbiguities(
    NAME, "liars_dice", _choices,
    "Liar's Dice's register (`spec/liars_dice/ambiguities.toml`) holds the points the article "
    "ld-wp leaves to the house rules: how a bid is raised, whether ones are wild, the spot-on "
    "variant, one round or many; each reading is a value of a rule option (`ruleproof check "
    "liars-dice --option NAME=VALUE`), and each entry has a witness scenario played under every "
    "reading, in which the readings end apart.")
"""The capability ``"ambiguities"`` of Liar's Dice's plugin record."""


def register() -> tuple[TextAmbiguity, ...]:
    """The shipped register."""
    return AMBIGUITIES.entries()


__all__ = ["AMBIGUITIES", "register"]
