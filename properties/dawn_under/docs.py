"""Dawn Under's capability ``docs``: what the documentation site and ``ruleproof assumed`` show
of it besides the clauses and scenarios (protocol :class:`ruleproof.cli.site.GameDocs`): the
values no source settles (manifest facts not from the rulebook, the assumed board), its presets
and rule options, and the rule sets of the statistics page.
"""

from __future__ import annotations


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


class DawnUnderDocs:
    """See the module docstring."""

    statistics = ((3, "du-en", ()), (4, "du-en", ()), (5, "du-en", ()), (6, "du-en", ()),
                  (4, "du-cs", ()), (2, "2p", ()), (4, "du-en", ("expansion=gruft",)))
    """(players, preset, options) of each rule set on the statistics page: every preset, the
    expansion."""
    comparison = (4, "du-en", ("after_match=turn-ends",),
                  "Two readings compared: may a player continue after a match?",
                  "`ruleproof stats dawn-under --compare after_match=turn-ends` (du-en lets the "
                  "player go on after a match; du-cs ends the turn):")
    """(players, preset, the other reading's options, heading, introduction) of the
    statistics page's comparison."""

    def assumed(self) -> list[tuple[str, str, str, str]]:
        """(fact, value, provenance, source or reason) of every manifest fact no rule text
        states, then the board layout (assumed: no source publishes it)."""
        from ruleproof.model.dawn_under.board import default_board
        from ruleproof.spec import manifest

        rows = [(f.name, str(f.value), f.provenance, f.source)
                for f in manifest("dawn_under").facts.values() if f.provenance != "rulebook"]
        b = default_board()
        rows.append(("board layout", f"{b.name}: quarters {b.quarter_sizes()}", b.provenance,
                     "grave coordinates and neighbour lists are published nowhere"))
        return rows

    def reference(self) -> list[str]:
        """The presets (``spec/dawn_under/presets.toml``) and every rule option with its values,
        as Markdown sections."""
        from ruleproof.model.dawn_under.config import presets
        from ruleproof.model.dawn_under.state import OPTION_VALUES, Options

        defaults = Options()
        lines = ["## Dawn Under presets", "",
                 "| preset | source | players | options | description |",
                 "| --- | --- | --- | --- | --- |"]
        for p in presets().values():
            opts = ", ".join(f"`{k}={v}`" for k, v in p.options) or "defaults"
            lines.append(f"| `{p.name}` | {p.source} | {', '.join(map(str, p.players))} | "
                         f"{opts} | {_md(p.description)} |")
        lines += ["", "## Dawn Under options", "", "| option | values (default first) |",
                  "| --- | --- |"]
        for name, values in OPTION_VALUES.items():
            default = str(getattr(defaults, name)).lower()
            ordered = [default, *[v for v in values if v != default]]
            lines.append(f"| `{name}` | " + ", ".join(f"`{v}`" for v in ordered) + " |")
        return lines


DOCS = DawnUnderDocs()
"""The capability ``docs``."""
