"""Alembic's environment for the web table's database: run with the connection the store passes."""

from __future__ import annotations

from alembic import context

import conquian.web.passkeys
import conquian.web.ratings  # noqa: F401  (its tables and the accounts' join the metadata)
from conquian.web.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("run the migrations through conquian.web.store.Store.upgrade()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
