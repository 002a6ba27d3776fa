"""Quick match: the queue, its pairing by rating and the tables it opens.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
