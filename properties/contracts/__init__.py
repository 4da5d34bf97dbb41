"""Clauses as executable contracts, refinement of the engines against them, and the search for
what the contracts leave open (docs/discovery.md)."""

from functools import cache

from ruleproof.properties.contracts.core import Coverage, contract_set, coverage


@cache
def _coverages() -> dict[str, Coverage]:
    from ruleproof.properties.contracts.games import sources

    return {source: coverage(contract_set(source)) for source in sources()}


def clause_status(clause_id: str) -> str:
    """The contract status of a clause, for the clause pages of the documentation site:
    ``contract``, ``no contract: REASON``, ``set-up clause`` or ``-`` (a source without
    contracts, e.g. a clause of another document)."""
    source = clause_id.split(":", 1)[0]
    cov = _coverages().get(source)
    if cov is None:
        return "-"
    if clause_id in cov.covered:
        return "contract"
    if clause_id in cov.uncovered:
        return f"no contract: {cov.uncovered[clause_id]}"
    if clause_id in cov.setup:
        return "set-up clause"
    return "no contract (unexplained)" if clause_id in cov.unexplained else "-"


__all__ = ["clause_status"]
