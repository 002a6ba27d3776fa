"""The learning pages: lessons, puzzles and the progress kept for an account.

Its modules: ``service`` (its rules), ``routes`` (its HTTP handlers)."""
