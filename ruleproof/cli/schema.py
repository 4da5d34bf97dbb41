"""The ``schema`` command: the JSON Schema of each typed file format, every game's included
(:func:`ruleproof.properties.formats.every_schema`).

The same text is shipped in ``spec/schemas/NAME.json`` (the formats every game shares) or in the
game's data folder ``spec/<game>/schemas/NAME.json`` (its own), a test keeps them in sync; they
are referenced from docs/formats.md and docs/scenarios.md. Exit codes: 0, 2 for an unknown name.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ruleproof.cli.clitools import bad_input_exits_2


def register(app: typer.Typer) -> None:
    """Add ``ruleproof schema`` to ``app``."""

    @app.command()
    @bad_input_exits_2
    def schema(name: Annotated[str | None, typer.Argument(
            help="a format name: scenario, presets, trace-header, trace-step or a game's own "
                 "(GAME-scenario, GAME-board...; default: list them all)")] = None) -> None:
        """Print the JSON Schema of a file format (or list the formats)."""
        from ruleproof.properties.formats import every_schema, first_line, schema_text

        known = every_schema()
        if name is None:
            for format_name, (model, _where) in known.items():
                sys.stdout.write(f"{format_name}: {first_line(model)}\n")
            return
        sys.stdout.write(schema_text(name, {k: m for k, (m, _) in known.items()}))
