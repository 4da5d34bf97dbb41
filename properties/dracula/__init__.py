"""Verification of the Dracula model: invariants, a hypothesis state machine, the
observation-independence property, z3 proofs and scenarios. Entry point: :func:`checks`."""

from __future__ import annotations

from .checks import checks

__all__ = ["checks"]
