"""Public tables: a table made public lists its finished match in the lobby and lets anyone replay
it; every other table's finished match is its players' only.

Tables stored before this revision are private (their matches were listed to every visitor; now
they are kept to their players).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("tables", "public")
