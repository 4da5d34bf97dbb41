"""Kuhn poker's ambiguity register (``spec/kuhn_poker/ambiguities.toml``) as ``ruleproof
ambiguities`` reads it: the capability ``"ambiguities"`` (:data:`AMBIGUITIES`, an
:class:`~ruleproof.properties.contracts.register.AmbiguityRegister`).

The register has no entry: the rules text (kuhn-wp) settles every question the model asks --
who decides first (kuhn-wp:rules.first), what a pass or a bet means with or without a bet
standing (kuhn-wp:rules.after-pass, kuhn-wp:rules.facing-bet), how a hand ends and what it
pays (kuhn-wp:rules.fold, kuhn-wp:rules.showdown, kuhn-wp:rules.payoff); ties cannot happen
(three cards of different rank, kuhn-wp:rules.deck). The game has one text, so there are no
translations to compare. An entry would follow the other games' register format (question,
clauses, readings with their support, the option selecting one, a witness scenario).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.spec import game_folder

NAME = "kuhn-poker"


def register_path() -> Any:
    """The register file (``ambiguities.toml`` of the game's data folder)."""
    return game_folder(NAME) / "ambiguities.toml"


def entries() -> tuple[Any, ...]:
    """The register's entries (none).

    Raises:
        MalformedInput: the file is not TOML, names another game, or holds an entry (Kuhn
            poker has no rule option a reading could select, so an entry needs one added to
            the model first).
    """
    from ruleproof.spec.formats import read_toml

    path = register_path()
    toml = read_toml(path)  # bounded; a syntax error is FILE:LINE:COL
    data = toml.data
    if data.get("game") != NAME:
        raise MalformedInput(f"the register must say game = {NAME!r}", file=str(path))
    if data.get("ambiguity"):
        raise MalformedInput("kuhn-poker has no rule option a reading could select: add the "
                             "option to the model before registering an entry", file=str(path))
    return ()


@dataclass(frozen=True)
class KuhnAmbiguities:
    """The capability ``"ambiguities"`` (see the module docstring)."""

    def entries(self) -> tuple[Any, ...]:
        return entries()

    def listing(self) -> tuple[Any, ...]:
        """None (see :meth:`entries`)."""
        return entries()

    def replay_witness(self, entry: Any) -> tuple[bool, str]:
        """No entry, so never asked; an entry would be refused by :meth:`entries`."""
        return False, f"kuhn-poker registers no ambiguity ({entry!r})"

    def find_witness(self, entry: Any, max_examples: int, write: bool = False,
                     shrink: bool = True) -> tuple[bool, str]:
        """No entry, so never asked."""
        return False, f"kuhn-poker registers no ambiguity ({entry!r})"

    def compare_texts(self, profile: str) -> list[Any]:
        """None: Kuhn poker has one text (kuhn-wp), no translation."""
        return []

    def catalogue(self) -> str:
        """The game's introduction on the catalogue page."""
        return ("The rules text kuhn-wp settles every question the model asks (who decides "
                "first, what a pass or a bet does with or without a bet standing, how a hand ends "
                "and what it pays), and three cards of different rank leave no tie to settle; "
                "the register `spec/kuhn_poker/ambiguities.toml` has no entry.")


AMBIGUITIES = KuhnAmbiguities()
"""The capability ``"ambiguities"`` of Kuhn poker's plugin record."""

__all__ = ["AMBIGUITIES", "KuhnAmbiguities", "entries", "register_path"]
