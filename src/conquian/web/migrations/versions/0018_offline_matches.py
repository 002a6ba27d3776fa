"""Offline matches come home: ``offline_matches``, the tables that are matches played in the
offline app and sent to the server by their player (unrated; the digest of their record, once
per account).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_matches",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "digest", name="uq_offline_matches_digest"),
    )
    op.create_index("ix_offline_matches_account", "offline_matches", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_offline_matches_account", table_name="offline_matches")
    op.drop_table("offline_matches")
