"""Planted mutants of the games, written as OpenSpiel python games (and one PettingZoo
environment), for ``ruleproof conform-framework``: each must be caught (tests/test_interop_conform.py).
Each module exposes ``GAME`` (a ``pyspiel.Game``) or ``ENV`` (a PettingZoo environment factory)
and says in ``CAUGHT_AS`` which kind of divergence should find it."""
