"""Callers who come through a BBS: (BBS, who they are there) -> their account.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bbs_users",
        sa.Column("system", sa.String(60), nullable=False),
        sa.Column("user_id", sa.String(60), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_bbs_users_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("system", "user_id", name="pk_bbs_users"),
        sa.UniqueConstraint("account_id", name="uq_bbs_users_account_id"),
    )


def downgrade() -> None:
    op.drop_table("bbs_users")
