"""A tournament may wait for the sysop to start it: its start time may be empty (NULL)
until then. Offered as the tournament form's "now", a start time of the moment it was
made started it as its second member signed up.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.alter_column("starts_at", existing_type=sa.DateTime(), nullable=True)


def downgrade() -> None:
    # The older door starts a tournament at its time: one without starts as two sign up.
    table = sa.table("tournaments", sa.column("starts_at"), sa.column("created_at"))
    op.execute(
        table.update().where(table.c.starts_at.is_(None)).values(starts_at=table.c.created_at)
    )
    with op.batch_alter_table("tournaments") as batch:
        batch.alter_column("starts_at", existing_type=sa.DateTime(), nullable=False)
