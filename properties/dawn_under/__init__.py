"""Verification of the Dawn Under model: invariants, random games, z3 proofs, hidden information."""
