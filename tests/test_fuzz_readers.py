"""Fuzz every reader of a user file with mutations of the shipped files: the only error that
may come out is the project's own MalformedInput (one line, with the file), never a traceback,
a hang or a silent pass of garbage.

Inputs per reader: ``RULEPROOF_FUZZ_EXAMPLES`` (default 500, so a few thousand in all in CI;
set 10000 or more for the thorough run of 50,000+ inputs).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.board import load_board
from ruleproof.model.dawn_under.config import load_presets as load_du_presets
from ruleproof.model.dracula.data import load_board as load_dracula_board
from ruleproof.model.dracula.data import load_cards
from ruleproof.properties.dracula.scenarios import load_presets as load_dracula_presets
from ruleproof.properties.scenarios import run_scenario, shipped
from ruleproof.spec import spec_path

EXAMPLES = int(os.environ.get("RULEPROOF_FUZZ_EXAMPLES", "500"))
NASTY = ["nan", "inf", "-inf", "-1", "1.9", "0", "054", "1e999", '"x"', "[]", "[1]", "{}",
         "true", '"²"', '"open ٣"', '"open 054"', '"grave.-1"', '"\\n\\n"', '""',
         '"' + "y" * 3000 + '"', "[" * 300 + "]" * 300, "{ a = { b = { c = 1 } } }",
         "9" * 40, '"P1"', '"dracula"', '"red"', "[[1], [2]]", '"a1-b1"', "2026-11-30"]


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    kind = rng.randrange(7)
    if not lines:
        return text
    i = rng.randrange(len(lines))
    if kind == 0 and "=" in lines[i]:  # replace a value
        key = lines[i].split("=", 1)[0]
        lines[i] = f"{key}= {rng.choice(NASTY)}"
    elif kind == 1:  # delete a line
        del lines[i]
    elif kind == 2:  # duplicate a line
        lines.insert(i, lines[i])
    elif kind == 3:  # swap two lines
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 4:  # replace an element inside a list or table
        line = lines[i]
        starts = [k for k, ch in enumerate(line) if ch in '[,{"']
        if starts:
            k = rng.choice(starts)
            lines[i] = line[:k + 1] + rng.choice(NASTY) + line[k + 1:]
    elif kind == 5:  # change a digit or a word
        line = lines[i]
        if line:
            k = rng.randrange(len(line))
            lines[i] = line[:k] + rng.choice(["0", "9", "-", "²", "٣", " ", "x", ".", "\\"]) + \
                line[k + 1:]
    else:  # truncate
        return "\n".join(lines)[:rng.randrange(len(text) + 1)]
    return "\n".join(lines) + "\n"


def _readers() -> list[tuple[str, list[Path], Callable[[Path], object]]]:
    return [
        ("scenario", shipped(), run_scenario),
        ("dawn-under board", [spec_path("dawn_under", "boards", "default.toml")], load_board),
        ("dracula cards", [spec_path("dracula", "cards.toml")], load_cards),
        ("dracula board", [spec_path("dracula", "board.toml")], load_dracula_board),
        ("dawn-under presets", [spec_path("dawn_under", "presets.toml")], load_du_presets),
        ("dracula presets", [spec_path("dracula", "presets.toml")], load_dracula_presets),
    ]


@pytest.mark.parametrize(("name", "sources", "reader"), _readers(), ids=lambda x: x
                         if isinstance(x, str) else "")
def test_only_malformed_input_comes_out(name: str, sources: list[Path],
                                        reader: Callable[[Path], object]) -> None:
    texts = [p.read_text(encoding="utf-8") for p in sources]
    seen = {"ok": 0, "malformed": 0}
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "fuzzed.toml"

        @settings(max_examples=EXAMPLES, deadline=timedelta(seconds=20), database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.integers(0, len(texts) - 1), st.integers(0, 2**32 - 1),
               st.integers(1, 3), st.booleans())
        def one(which: int, seed: int, times: int, raw_bytes: bool) -> None:
            rng = random.Random(seed)
            text = texts[which]
            for _ in range(times):
                text = _mutate(text, rng)
            data = text.encode("utf-8")
            if raw_bytes:
                k = rng.randrange(len(data) + 1)
                data = data[:k] + bytes([rng.randrange(256)]) + data[k:]
            target.write_bytes(data)
            try:
                reader(target)
                seen["ok"] += 1
            except MalformedInput as exc:
                line = exc.one_line()
                assert "\n" not in line and line.startswith(str(target)), line
                seen["malformed"] += 1

        one()
    # the fuzzer did real work: both outcomes were reached
    assert seen["malformed"] > 0 and seen["ok"] + seen["malformed"] >= EXAMPLES // 2, seen
