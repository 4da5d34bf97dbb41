"""Generic discovery searches beyond the original ones (issue #24), each a module of its own."""
