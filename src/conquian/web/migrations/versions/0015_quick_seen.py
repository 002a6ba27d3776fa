"""Quick match: when a waiting player's page last asked how things stand (``quick_queue.seen_at``),
so that a player whose page is gone leaves the queue instead of being seated in his absence.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("quick_queue", sa.Column("seen_at", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("quick_queue", "seen_at")
