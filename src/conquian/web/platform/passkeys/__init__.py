"""Passkeys: signing in with WebAuthn, adding and removing an account's passkeys.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
