"""Ratings: rated tables, each player's and bot's rating per game, and its history (tables stored
before this revision are casual).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(30), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("tableaux", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_history",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(30), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("settled", sa.Boolean, nullable=False),
        sa.Column("settled_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rated_tables")
    op.drop_table("rating_history")
    op.drop_table("ratings")
