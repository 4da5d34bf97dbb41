"""Dracula's capability ``docs``: what the documentation site and ``ruleproof assumed`` show of
it besides the clauses and scenarios (protocol :class:`ruleproof.cli.site.GameDocs`): every
assumed value (card and board data, rule-option defaults, model choices), its rule options,
and the rule sets of the statistics page (both openings).
"""

from __future__ import annotations


class DraculaDocs:
    """See the module docstring."""

    statistics: tuple[tuple[int | None, str | None, tuple[str, ...]], ...] = (
        (None, None, ()), (None, None, ("first_player=van-helsing",)))
    """(players, preset, options) of each rule set on the statistics page."""
    comparison = None
    """No comparison of two readings on the statistics page."""

    def assumed(self) -> list[tuple[str, str, str, str]]:
        """(what, value, ``assumed``, why) of every assumed value
        (:func:`ruleproof.model.dracula.assumed_values`)."""
        from ruleproof.model.dracula import assumed_values

        return [(what, value, "assumed", why) for what, value, why in assumed_values()]

    def reference(self) -> list[str]:
        """Every rule option with its default, as a Markdown section."""
        from dataclasses import fields

        from ruleproof.model.dracula.rules import DraculaRules

        lines = ["## Dracula options", "", "| option | default |", "| --- | --- |"]
        rules = DraculaRules()
        for f in fields(DraculaRules):
            value = getattr(rules, f.name)
            shown = str(value).lower() if isinstance(value, bool) else value
            lines.append(f"| `{f.name}` | `{shown}` |")
        return lines


DOCS = DraculaDocs()
"""The capability ``docs``."""
