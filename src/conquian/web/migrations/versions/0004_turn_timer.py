"""The turn timer: seconds a person has to move before the expert plays that move for him.

Tables stored before this revision have none (no timer).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("turn_timer", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "turn_timer")
