"""Puzzle ratings: each puzzle and each solver rated by the first tries.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries)."""
