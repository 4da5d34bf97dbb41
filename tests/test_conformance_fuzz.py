"""Fuzzing the trace reader: mutated and random files never cause an uncaught exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.jsonsafe import TraceError
from ruleproof.properties.conformance.replay import replay
from ruleproof.properties.conformance.trace import parse_trace

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [p.read_bytes() for p in sorted((ROOT / "spec").glob("*/traces/*.jsonl"))
         if p.stat().st_size < 20_000]
SEEDS += [p.read_bytes() for p in sorted((ROOT / "spec" / "malformed").glob("*"))]
SPECIAL = [b"{", b"}", b"[", b"]", b'"', b",", b":", b"\n", b"\\", b"-", b"0", b"9" * 30, b"null",
           b"true", b"NaN", b"1e999", b"\xff", b"\x00", b" ", b'"step"', b'"state"', b"{}", b"[]"]
FUZZ = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


def _outcome(data: bytes) -> str:
    """Read and replay ``data``; the only allowed failure is MalformedInput (TraceError)."""
    try:
        trace = parse_trace(data, file="fuzz.jsonl")
        return "conforms" if replay(trace).conforms else "diverges"
    except TraceError as exc:
        assert exc.line is None or exc.line >= 1
        assert exc.column is None or exc.column >= 1
        return "malformed"
    except MalformedInput:
        return "malformed"


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "dup-line"]))
        if kind == "insert":
            data[at:at] = draw(st.sampled_from(SPECIAL) | st.binary(max_size=8))
        elif kind == "delete":
            del data[at: at + draw(st.integers(1, 16))]
        elif kind == "replace":
            data[at: at + 1] = draw(st.sampled_from(SPECIAL))
        elif kind == "truncate":
            del data[at:]
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@FUZZ
@given(mutated())
def test_mutated_traces_never_crash_the_reader(data: bytes) -> None:
    assert _outcome(data) in ("conforms", "diverges", "malformed")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(max_size=12)
    | st.floats(allow_nan=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["step", "player", "action", "state", "legal", "observation", "seed",
                         "setup", "rows", "lids", "plague", "phase", "x"]), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=120, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(JSON, max_size=3), st.sampled_from([0, 1, 2]))
def test_wrongly_typed_lines_are_malformed_input(lines: list[Any], seed: int) -> None:
    header = {"format": "ruleproof-trace", "version": 1, "game": "dawn-under", "players": 3,
              "seed": seed}
    body = [header, *({"step": i + 1, "action": "open 1", **v} if isinstance(v, dict) else v
                      for i, v in enumerate(lines))]
    text = "".join(json.dumps(v) + "\n" for v in body)
    assert _outcome(text.encode()) in ("conforms", "diverges", "malformed")


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_replay_reads_a_bounded_number_of_bytes(special: str, tmp_path: Path) -> None:
    import os

    from ruleproof.properties.conformance.replay import replay_file

    path = Path(special)
    if special == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
    elif not path.exists():
        pytest.skip("no /dev/zero here")
    with pytest.raises(MalformedInput, match=r"larger than|FIFO"):
        replay_file(path)
