"""The one-text ambiguity register (properties/contracts/one_text.py) refuses a bad file with
one located line, for every game that uses it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.properties.contracts.one_text import OneTextAmbiguities, load_register
from ruleproof.properties.plugin import plugins


def _one_text() -> list[OneTextAmbiguities]:
    found = [p.capabilities.get("ambiguities") for p in plugins().values()]
    return [a for a in found if isinstance(a, OneTextAmbiguities)]


def test_every_one_text_register_loads_and_refuses_a_bad_option(tmp_path: Path) -> None:
    registers = _one_text()
    assert len(registers) >= 2  # Dracula and Liar's Dice
    for reg in registers:
        entries = reg.entries()
        assert entries, reg.game
        text = reg.register_path().read_text(encoding="utf-8")
        option = entries[0].option
        bad = tmp_path / f"{reg.folder}.toml"
        bad.write_text(text.replace(f'option = "{option}"', 'option = "no-such-option"', 1),
                       encoding="utf-8")
        with pytest.raises(MalformedInput, match="unknown option no-such-option") as err:
            load_register(bad, reg.game, reg.folder, reg.choices)
        assert err.value.line is not None and "\n" not in err.value.one_line()
