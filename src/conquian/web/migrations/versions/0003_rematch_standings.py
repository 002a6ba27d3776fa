"""Rematches: a table's first dealer (the deal passes to the left from one match to the next,
R3.8, R4) and the running totals carried from its earlier matches.

Tables stored before this revision have neither: the first dealer is the last seat and the
totals start at zero.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("first_dealer", sa.Integer, nullable=True))
    op.add_column("tables", sa.Column("carried", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "carried")
    op.drop_column("tables", "first_dealer")
