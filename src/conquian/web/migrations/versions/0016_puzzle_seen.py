"""Puzzles: the answers shown to a browser or an account (``puzzle_seen``), so that an account's
attempt at a puzzle whose answer it, or its browser as a guest, was shown before is not rated.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_seen",
        sa.Column("viewer", sa.String(80), primary_key=True),
        sa.Column("puzzle_id", sa.String(40), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_seen")
