"""Alembic's environment for the web table's database: run with the connection the store passes."""

from __future__ import annotations

from alembic import context

from conquian.web.store import full_metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("run the migrations through conquian.web.store.Store.upgrade()")
context.configure(connection=connection, target_metadata=full_metadata(), render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
