"""The sysop's tools for members, and the audit: a sysop's lock and note on an account,
one-time password reset codes, the addresses members call from, renamed members' held
handles, and the append-only audit of what the sysop did.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def account_key(table: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["account_id"], ["accounts.id"], name=f"fk_{table}_account_id_accounts", ondelete=ondelete
    )


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("sysop_locked_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("sysop_lock_reason", sa.String(200), nullable=True))
        batch.add_column(sa.Column("sysop_lock_ends", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("sysop_note", sa.Text(), nullable=True))
    op.create_table(
        "password_resets",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        account_key("password_resets", "CASCADE"),
        sa.PrimaryKeyConstraint("account_id", name="pk_password_resets"),
    )
    op.create_table(
        "account_addresses",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(45), nullable=False),
        sa.Column("first_seen", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False, server_default=sa.text("0")),
        account_key("account_addresses", "CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "address", name="pk_account_addresses"),
    )
    op.create_table(
        "held_handles",
        sa.Column("handle_key", sa.String(20), nullable=False),
        sa.Column("handle", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("held_until", sa.DateTime(), nullable=False),
        account_key("held_handles", "SET NULL"),
        sa.PrimaryKeyConstraint("handle_key", name="pk_held_handles"),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(60), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target", sa.String(100), nullable=True),
        sa.Column("reason", sa.String(500), nullable=True),
        sa.Column("detail", sa.String(1000), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_audit"),
    )
    op.create_index("ix_audit_at", "audit", ["at"])
    op.create_index("ix_audit_target", "audit", ["target"])


def downgrade() -> None:
    op.drop_index("ix_audit_target", table_name="audit")
    op.drop_index("ix_audit_at", table_name="audit")
    op.drop_table("audit")
    op.drop_table("held_handles")
    op.drop_table("account_addresses")
    op.drop_table("password_resets")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("sysop_note")
        batch.drop_column("sysop_lock_ends")
        batch.drop_column("sysop_lock_reason")
        batch.drop_column("sysop_locked_at")
