"""Matches played offline and sent to be kept (and rated) by the server.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
