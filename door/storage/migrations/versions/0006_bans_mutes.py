"""The sysop's bans (an address, a network or a handle), chat mutes, and the addresses
the sysop called in from lately, which a ban must not cover (#45).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("target", sa.String(60), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("actor", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("lifted_at", sa.DateTime(), nullable=True),
        sa.Column("lifted_by", sa.String(60), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_bans"),
    )
    op.create_table(
        "mutes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_look", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("actor", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=False),
        sa.Column("lifted_at", sa.DateTime(), nullable=True),
        sa.Column("lifted_by", sa.String(60), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_mutes"),
    )
    op.create_index("ix_mutes_name_look", "mutes", ["name_look"])
    op.create_table(
        "sysop_addresses",
        sa.Column("address", sa.String(45), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("address", name="pk_sysop_addresses"),
    )


def downgrade() -> None:
    op.drop_table("sysop_addresses")
    op.drop_index("ix_mutes_name_look", table_name="mutes")
    op.drop_table("mutes")
    op.drop_table("bans")
