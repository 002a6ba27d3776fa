"""Rematches and the bots' pace: a table's first dealer, the running totals carried from its
earlier matches, and the delay between the bots' moves chosen at the table.

Tables stored before this revision have none of them: the first dealer is the last seat, the
totals start at zero and the bots keep the server's pace.

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
    op.add_column("tables", sa.Column("pace", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "pace")
    op.drop_column("tables", "carried")
    op.drop_column("tables", "first_dealer")
