"""ruleproof: formal rules specifications and verifiers for tabletop games.

The project is split as the design card fixes it:

* ``spec``        -- data: clause registries, component manifests, boards, scenarios.
* ``model``       -- executable models (frozen state, typed actions, pure transitions).
* ``properties``  -- invariants, hypothesis state machines, z3 proofs, scenario runner.
* ``ruleproof``   -- the shared framework (error hierarchy, citations) and the CLI.
"""

__version__ = "0.1.0"
