"""Set deals: a table's first deck as its host gave it; ordinary tables keep no seed.

An ordinary table's ``seed`` is :data:`~conquian.web.store.NO_SEED` (-1): every deal's deck is
drawn from the operating system's randomness when it starts and stored in its command.  Tables
stored before this revision keep their seed, and are shown as set deals (their host may have
chosen it).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("deck", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "deck")
