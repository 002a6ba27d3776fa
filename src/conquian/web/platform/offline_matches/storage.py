"""The offline matches' storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata` and the
queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

from sqlalchemy import Float, Index, String, UniqueConstraint
from sqlalchemy import Table as SqlTable

from conquian.web.store import account_key, metadata, required, table_key

offline_matches = SqlTable(
    "offline_matches", metadata,
    table_key(),
    account_key("account_id"),
    *required(digest=String(64), at=Float),
    UniqueConstraint("account_id", "digest", name="uq_offline_matches_digest"),
    Index("ix_offline_matches_account", "account_id"),
)
