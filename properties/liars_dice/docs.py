"""Liar's Dice's capability ``docs``: what the documentation site and ``ruleproof assumed``
show of it besides its clauses and scenarios (protocol :class:`ruleproof.cli.site.GameDocs`):
the values no clause of ld-wp states, its presets and options, and the rule sets of the
statistics page.
"""

from __future__ import annotations

from ruleproof.model.liars_dice.rules import OPTIONS


class LiarsDocs:
    """See the module docstring."""

    statistics: tuple[tuple[int | None, str | None, tuple[str, ...]], ...] = (
        (2, "ld-wp", ()), (3, "ld-wp", ()), (2, "ld-wp-one-round", ()))
    """(players, preset, options) of each rule set on the statistics page."""
    comparison = None
    """No second text to compare."""

    def assumed(self) -> list[tuple[str, str, str, str]]:
        """(what, value, ``assumed``, why) of every value the model fixes that ld-wp does not
        state."""
        return [
            ("opener of the first round", "seat 0 (P1)", "assumed",
             "ld-wp:round.opening speaks of 'the first player' without saying who; OpenSpiel's "
             "liars_dice starts with player 0 as well"),
            ("largest quantity bid", "the dice on the table", "assumed",
             "ld-wp:bid.raise sets no maximum; a bid of more dice than are on the table is "
             "always false, so the cap only keeps the action table finite (OpenSpiel caps "
             "it the same way)"),
            ("bids on the wild face", "allowed, ones counted once", "assumed",
             "ld-wp:round.wild says ones count as the face bid; a bid on ones counts the ones"),
            ("dice and faces", "parameters dice (1..5) and sides (2..6)", "assumed",
             "ld-wp:setup.dice states five six-sided dice; fewer make small set-ups for the "
             "exact methods (explore, the OpenSpiel comparison)"),
        ]

    def reference(self) -> list[str]:
        """The presets and options, as a Markdown section."""
        lines = ["## Liar's Dice presets and options", "", "| preset | source | players | "
                 "options |", "| --- | --- | --- | --- |",
                 "| `ld-wp` | ld-wp | 2-4 | (defaults) |",
                 "| `ld-wp-one-round` | ld-wp | 2-4 | rounds=one |", "",
                 "| option | values (default first) |", "| --- | --- |"]
        lines += [f"| `{k}` | {', '.join(v)} |" for k, v in OPTIONS.items()]
        return lines


DOCS = LiarsDocs()
"""The capability ``docs``."""
