"""The README's tour names commands that exist and files that are shipped.

A new user runs the tour line by line; a renamed command or a moved file would fail there
first. This test runs nothing long: it parses each line of the tour's ``sh`` block and checks
the command word against the CLI and every path-like argument against the clone."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import typer.main

from ruleproof.cli import app

ROOT = Path(__file__).resolve().parents[1]
PATHLIKE = re.compile(r"^[\w.-]+(/[\w.*-]+)+\.(toml|jsonl|py|json)$")
OBJECT = re.compile(r"^(\w+(\.\w+)+):\w+$")  # module:attribute, as --openspiel takes it


def tour_lines() -> list[list[str]]:
    """The tour's command lines (comments stripped), each split as the shell would."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            lines.append(words)
    return lines


def test_the_tour_names_registered_commands_and_shipped_files() -> None:
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    lines = tour_lines()
    assert len(lines) >= 30  # the tour was read, not an empty block
    paths = []
    for words in lines:
        assert words[0] in ("ruleproof", "python"), words
        if words[0] == "ruleproof":
            assert words[1] in commands, words
        for word in words[1:]:
            # an engine command is one argument: its own words too
            paths += [w for w in word.split() if PATHLIKE.match(w)]
            found = OBJECT.match(word)
            if found:
                paths.append(found.group(1).replace(".", "/") + ".py")
    assert len(paths) >= 5
    for path in paths:
        assert sorted(ROOT.glob(path)), f"the README's tour names {path}, which is not shipped"
