"""Friends: friend links, blocks, invitations, notices and reports of chat lines.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
