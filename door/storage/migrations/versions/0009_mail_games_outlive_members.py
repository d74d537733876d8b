"""A play-by-mail game outlives a deleted member, as any game does: its keys to the two
members' accounts become SET NULL (nullable) instead of CASCADE, so deleting one no
longer removes the game from the other's list. The door settles a deleted member's games
going as forfeits before the account goes (door/storage/pbm_games.py).

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

SIDES = ("first_account_id", "second_account_id")


def _account_keys(ondelete: str, nullable: bool) -> None:
    # Batch mode: SQLite copies the table to change a key; PostgreSQL alters it in place.
    with op.batch_alter_table("pbm_games") as batch:
        for column in SIDES:
            name = f"fk_pbm_games_{column}_accounts"
            batch.drop_constraint(name, type_="foreignkey")
            batch.alter_column(column, existing_type=sa.Integer(), nullable=nullable)
            batch.create_foreign_key(name, "accounts", [column], ["id"], ondelete=ondelete)


def upgrade() -> None:
    _account_keys("SET NULL", nullable=True)


def downgrade() -> None:
    # The older schema cannot hold a game without both members: it would have gone with
    # the member, as it goes here.
    table = sa.table("pbm_games", *(sa.column(column) for column in SIDES))
    op.execute(table.delete().where(sa.or_(*(table.c[column].is_(None) for column in SIDES))))
    _account_keys("CASCADE", nullable=False)
