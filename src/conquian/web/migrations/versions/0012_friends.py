"""Friends, blocks and reports: friend links, friendships, blocks, invitations to a table, when an
account was last connected, and the reports of chat lines kept for the server's owner.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _account(name: str, primary: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=primary,
                     nullable=False)


def upgrade() -> None:
    op.create_table(
        "friend_codes",
        _account("account_id", True),
        sa.Column("code", sa.String(32), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "friendships",
        _account("account_id", True),
        _account("friend_id", True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_friendships_friend", "friendships", ["friend_id"])
    op.create_table(
        "blocks",
        _account("blocker", True),
        _account("blocked", True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "friend_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("to_account"),
        _account("from_account"),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_friend_notices_to", "friend_notices", ["to_account"])
    op.create_table(
        "account_seen",
        _account("account_id", True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(32), nullable=True),
        sa.Column("reported", sa.String(32), nullable=True),
        sa.Column("seat_name", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("said_at", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("resolved_at", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_status", "reports", ["status"])


def downgrade() -> None:
    for name in ("reports", "account_seen", "friend_notices", "blocks", "friendships", "friend_codes"):
        op.drop_table(name)
