"""Shared fixtures for the test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleproof.model.dawn_under import Config, make_config


@pytest.fixture(params=[3, 4, 5, 6], ids=lambda n: f"{n}p")
def config(request: pytest.FixtureRequest) -> Config:
    """A default du-en configuration for each player count."""
    players: int = request.param
    return make_config(players)


def pytest_configure(config: pytest.Config) -> None:
    """Every test sees the width of a pipe (``PIPE_WIDTH``), whatever terminal runs the suite:
    a ``COLUMNS`` in the environment is dropped (pytest-xdist sets it to 80 in its workers,
    and a user may export one). A test that wants a width passes ``COLUMNS`` itself."""
    os.environ.pop("COLUMNS", None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml's addopts): one worker per core, at most 8 (each worker
    imports the whole tool: z3, hypothesis, the games)."""
    return max(1, min(8, os.cpu_count() or 1))


_CACHES = {".hypothesis", ".pytest_cache", "__pycache__", ".mypy_cache", ".ruff_cache"}


@pytest.fixture(autouse=True)
def _nothing_written_to_the_working_folder() -> Iterator[None]:
    """Tests write only under a temporary folder: a file a test leaves in the working folder
    (a command's default output, e.g. ``ruleproof-divergence.jsonl``) fails that test. With
    parallel workers (pyproject.toml's ``-n auto``) the test that fails may be one running
    beside the writer at the time: the suite still fails; ``pytest -n 0`` names the writer."""
    cwd = Path.cwd()
    before = set(os.listdir(cwd))
    yield
    left = sorted(set(os.listdir(cwd)) - before - _CACHES)
    if left:
        for name in left:  # remove it, so the next test is judged on its own
            target = cwd / name
            if target.is_file() or target.is_symlink():
                target.unlink()
        pytest.fail(f"the test left {', '.join(left)} in the working folder {cwd}")
