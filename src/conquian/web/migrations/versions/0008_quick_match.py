"""Quick match: the players waiting to be paired (any server process pairs them), and, once
paired, the seat each is to take.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quick_queue",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(30), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("matched_at", sa.Float, nullable=True),
    )
    op.create_index("ix_quick_queue_game", "quick_queue", ["game", "players"])


def downgrade() -> None:
    op.drop_table("quick_queue")
