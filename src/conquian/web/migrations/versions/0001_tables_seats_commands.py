"""The first schema: tables, their seats, and the commands each table accepted.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("variant", sa.String(30), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("show_buried", sa.Boolean, nullable=False),
        sa.Column("away_after", sa.Float, nullable=True),
        sa.Column("deals_in_match", sa.Integer, nullable=False),
        sa.Column("rematch_id", sa.String(16), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("state", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated_at"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "commands",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("commands")
    op.drop_table("seats")
    op.drop_index("ix_tables_status_updated", table_name="tables")
    op.drop_table("tables")
