"""Exhaustive exploration of reduced set-ups (``ruleproof explore``, docs/explore.md)."""
