"""Kuhn poker's properties: invariants and its plugin record (``plugin.py``)."""
