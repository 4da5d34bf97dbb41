"""The ``schema`` command: the JSON Schema of each typed file format, every game's included
(:func:`ruleproof.properties.formats.schemas`).

The same text is shipped in ``spec/schemas/NAME.json`` (a test keeps them in sync) and
referenced from docs/formats.md and docs/scenarios.md. Exit codes: 0, 2 for an unknown name.
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
                 "(default: list them all)")] = None) -> None:
        """Print the JSON Schema of a file format (or list the formats)."""
        from ruleproof.properties.formats import first_line, schema_text, schemas

        known = schemas()
        if name is None:
            for format_name, model in known.items():
                sys.stdout.write(f"{format_name}: {first_line(model)}\n")
            return
        sys.stdout.write(schema_text(name, known))
