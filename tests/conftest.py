"""Shared fixtures for the test suite."""

from __future__ import annotations

import pytest

from ruleproof.model.dawn_under import Config, make_config


@pytest.fixture(params=[3, 4, 5, 6], ids=lambda n: f"{n}p")
def config(request: pytest.FixtureRequest) -> Config:
    """A default du-en configuration for each player count."""
    players: int = request.param
    return make_config(players)
