"""The games for other frameworks: OpenSpiel (:mod:`ruleproof.interop.openspiel`), PettingZoo
(:mod:`ruleproof.interop.pettingzoo`), and conformance of their implementations
(:mod:`ruleproof.interop.conform`). Optional extras: ``pip install ".[openspiel]"``,
``pip install ".[pettingzoo]"`` from the clone (docs/interop.md)."""
