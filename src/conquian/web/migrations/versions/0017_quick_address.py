"""Quick match: the hash of the address a waiting player joined from (``quick_queue.address``),
so that two accounts of one address are not paired with each other for a rated match.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("quick_queue", sa.Column("address", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("quick_queue", "address")
