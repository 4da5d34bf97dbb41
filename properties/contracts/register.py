"""A game's ambiguity register as ``ruleproof ambiguities`` reads it: the capability
``"ambiguities"`` of its plugin record (an :class:`AmbiguityRegister`; the register file is
``ambiguities.toml`` in the game's data folder). Games without it are not listed.
"""

from __future__ import annotations

from typing import Any, Protocol

from ruleproof.properties.plugin import GamePlugin, plugins

CAPABILITY = "ambiguities"
"""The name of the capability in a game's plugin record."""


class AmbiguityRegister(Protocol):
    """A game's ambiguity register (capability ``"ambiguities"``)."""

    def entries(self) -> tuple[Any, ...]:
        """The register's entries, in file order; each has ``id``, ``option``, ``default``,
        ``readings`` (each with a ``value``), ``sources`` and ``witness`` (a path under
        ``spec/`` or None).

        Raises:
            MalformedInput: the register file is malformed (file, line, entry).
        """
        ...

    def replay_witness(self, entry: Any) -> tuple[bool, str]:
        """Replay the entry's witness: (every reading met its expectations and the readings
        end apart, detail)."""
        ...

    def find_witness(self, entry: Any, max_examples: int, write: bool = False,
                     shrink: bool = True) -> tuple[bool, str]:
        """Search a witness for the entry (hypothesis, ``max_examples``); ``write`` rewrites
        its witness file. (found, how)."""
        ...

    def compare_texts(self, profile: str) -> list[Any]:
        """The game's translations compared as texts (their clause contracts): explained
        discovery findings (``explained_by`` '' for a divergence no entry explains)."""
        ...

    def catalogue(self) -> str:
        """The register as a Markdown page (the docs' ambiguity catalogue)."""
        ...


def registers() -> list[tuple[GamePlugin, AmbiguityRegister]]:
    """Every registered game with an ambiguity register, in registry order."""
    return [(p, cap) for p in plugins().values()
            if (cap := p.capability(CAPABILITY)) is not None]
