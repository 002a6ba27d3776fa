"""Accounts: players without a password kept by a session cookie, their sessions, and the seats
they took (tables stored before this revision have no seat tied to an account).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("skeleton", sa.String(160), nullable=True, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(16), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("agent", sa.String(120), nullable=False),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "seat_accounts",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    )
    op.create_index("ix_seat_accounts_account", "seat_accounts", ["account_id"])


def downgrade() -> None:
    op.drop_table("seat_accounts")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
