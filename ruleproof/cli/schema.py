"""The ``schema`` command: the JSON Schema of each typed file format.

The same text is shipped in ``spec/schemas/NAME.json`` (a test keeps them in sync) and
referenced from docs/formats.md and docs/scenarios.md. Exit codes: 0, 2 for an unknown name.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ruleproof.cli.clitools import bad_input_exits_2
from ruleproof.errors import MalformedInput


def register(app: typer.Typer) -> None:
    """Add ``ruleproof schema`` to ``app``."""

    @app.command()
    @bad_input_exits_2
    def schema(name: Annotated[str | None, typer.Argument(
            help="scenario, presets, dawn-under-board, dracula-cards, dracula-board, "
                 "trace-header or trace-step (default: list them)")] = None) -> None:
        """Print the JSON Schema of a file format (or list the formats)."""
        from ruleproof.spec.models import SCHEMAS, schema_text

        if name is None:
            for known, model in SCHEMAS.items():
                doc = (model.__doc__ or "").strip().splitlines()[0]
                sys.stdout.write(f"{known}: {doc}\n")
            return
        if name not in SCHEMAS:
            raise MalformedInput(f"unknown schema {name[:60]!r}; known: {', '.join(SCHEMAS)}")
        sys.stdout.write(schema_text(name))
