"""Accounts: names, sessions, the CSRF check and the account's page.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
