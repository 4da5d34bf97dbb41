"""Kuhn poker's capability ``docs``: what the documentation site and ``ruleproof assumed`` show
of it besides its clauses and scenarios (protocol :class:`ruleproof.cli.site.GameDocs`): the
values no clause of kuhn-wp states, its one preset, and the rule set of the statistics page.
"""

from __future__ import annotations


class KuhnDocs:
    """See the module docstring."""

    statistics: tuple[tuple[int | None, str | None, tuple[str, ...]], ...] = ((2, "kuhn-wp", ()),)
    """(players, preset, options) of each rule set on the statistics page: the one rule set."""
    comparison = None
    """No second reading to compare."""

    def assumed(self) -> list[tuple[str, str, str, str]]:
        """(what, value, ``assumed``, why) of every value the model fixes that kuhn-wp does
        not state."""
        return [
            ("card names", "J < Q < K", "assumed",
             "kuhn-wp:rules.deck names jack, queen and king only as an example of three ranks; "
             "any three ranked cards play alike"),
            ("seat of the first player", "seat 0 (P1)", "assumed",
             "kuhn-wp:rules.first says the first player acts first; which seat that is, is a "
             "numbering of ours (OpenSpiel's kuhn_poker numbers it 0 as well)"),
        ]

    def reference(self) -> list[str]:
        """The one preset, as a Markdown section (Kuhn poker has no rule options)."""
        return ["## Kuhn poker presets", "", "| preset | source | players |",
                "| --- | --- | --- |", "| `kuhn-wp` | kuhn-wp | 2 |", "",
                "Kuhn poker has no rule options."]


DOCS = KuhnDocs()
"""The capability ``docs``."""
