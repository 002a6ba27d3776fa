"""Passkeys: the WebAuthn credentials of accounts, and the challenges of ceremonies under way
(kept in the database so that any server process can finish a ceremony another began).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("label", sa.String(60), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(12), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("browser", sa.String(64), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
