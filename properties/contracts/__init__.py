"""Clauses as executable contracts, refinement of the engines against them, and the search for
what the contracts leave open (docs/discovery.md)."""
