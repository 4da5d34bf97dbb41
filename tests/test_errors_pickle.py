"""Errors cross process boundaries whole: ``check`` runs properties in worker processes, and an
IllegalAction raised there once arrived as ``TypeError: IllegalAction.__init__() missing 1
required positional argument: 'reason'`` (exceptions unpickle by calling ``cls(*args)``)."""

from __future__ import annotations

import pickle

import pytest

from ruleproof.errors import (
    AmbiguousRule,
    IllegalAction,
    Interrupted,
    MalformedInput,
    Nonconformance,
    OutputFailed,
)

ERRORS: list[BaseException] = [
    IllegalAction("open 3", "the grave is open", ["du-en:ch4.just-opened"]),
    AmbiguousRule("after_match", "does the turn end?", ["du-en:ch1.continue"]),
    Nonconformance("legal actions", "the engine offers 'pass'"),
    MalformedInput("bad value", file="a.toml", line=3, col=7, more=["a.toml:4:1: worse"]),
    OutputFailed("cannot write the trace: disk full", file="/tmp/x.jsonl", errno=28),
    Interrupted(15),
]


@pytest.mark.parametrize("err", ERRORS, ids=lambda e: type(e).__name__)
def test_every_error_survives_pickling_with_its_attributes(err: BaseException) -> None:
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err)
    assert back.__dict__ == err.__dict__
