"""ruleproof: formal rules specifications and verifiers for tabletop games.

One installed namespace; the source folders stay at the top of the repository (the design card)
and are linked into this package, so ``pip install .`` adds only ``ruleproof`` to site-packages:

* ``ruleproof.errors``      -- ground layer: the one error hierarchy (imports nothing of ours).
* ``ruleproof.spec``        -- data (``spec/``): clause registries, manifests, boards, scenarios.
* ``ruleproof.model``       -- the games (``model/``): frozen state, typed actions, pure transitions.
* ``ruleproof.properties``  -- checks (``properties/``): invariants, hypothesis, z3, conformance.
* ``ruleproof.cli``         -- the ``ruleproof`` command.

Each layer imports only the layers above it in this list; nothing imports upward.
"""

__version__ = "0.1.0"
