"""Verification: invariants, hypothesis state machines, z3 proofs, scenarios and reports."""
