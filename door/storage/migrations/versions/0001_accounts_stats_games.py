"""Accounts, SSH keys, statistics per mode, saved games, their seats and game logs.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

STAT_COUNTERS = (
    "games",
    "wins",
    "losses",
    "skunks_given",
    "skunks_taken",
    "double_skunks_given",
    "double_skunks_taken",
    "pegging_points",
    "hand_points",
    "crib_points",
    "muggins_taken",
    "muggins_given",
    "hands_dealt",
    "hands_shown",
    "cribs_shown",
    "best_hand_score",
)


def counter(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=False, server_default=sa.text("0"))


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("handle", sa.String(20), nullable=False),
        sa.Column("handle_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_login_at", sa.DateTime(), nullable=True),
        counter("failed_logins"),
        sa.Column("first_failed_at", sa.DateTime(), nullable=True),
        sa.Column("locked_until", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("handle_key", name="uq_accounts_handle_key"),
    )
    op.create_table(
        "ssh_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_ssh_keys_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_ssh_keys"),
        sa.UniqueConstraint("public_key", name="uq_ssh_keys_public_key"),
    )
    op.create_index("ix_ssh_keys_account_id", "ssh_keys", ["account_id"])
    op.create_table(
        "player_stats",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("runs", sa.String(8), nullable=False),
        sa.Column("counting", sa.String(8), nullable=False),
        sa.Column("opponent", sa.String(24), nullable=False),
        *(counter(name) for name in STAT_COUNTERS),
        sa.Column("best_hand_cards", sa.String(20), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_player_stats_account_id_accounts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "account_id", "runs", "counting", "opponent", name="pk_player_stats"
        ),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("runs", sa.String(8), nullable=False),
        sa.Column("counting", sa.String(8), nullable=False),
        sa.Column("opponent", sa.String(24), nullable=False),
        sa.Column("recording", sa.Text(), nullable=False),
        counter("actions"),
        sa.Column("finished", sa.Boolean(), nullable=False, server_default=sa.text("false")),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_game_seats_account_id_accounts",
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_seats"),
    )
    op.create_index("ix_game_seats_account_id", "game_seats", ["account_id"])
    op.create_table(
        "game_logs",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("recording", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_logs_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_logs"),
    )


def downgrade() -> None:
    op.drop_table("game_logs")
    op.drop_index("ix_game_seats_account_id", table_name="game_seats")
    op.drop_table("game_seats")
    op.drop_table("games")
    op.drop_table("player_stats")
    op.drop_index("ix_ssh_keys_account_id", table_name="ssh_keys")
    op.drop_table("ssh_keys")
    op.drop_table("accounts")
