"""Competition: ratings and their history, matches and their games, tournaments with
their entrants and pairings, and play-by-mail games.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def counter(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=False, server_default=sa.text("0"))


def flag(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.text("false"))


def account_key(table: str, column: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["accounts.id"], name=f"fk_{table}_{column}_accounts", ondelete=ondelete
    )


def game_key(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=f"fk_{table}_game_id_games", ondelete="SET NULL"
    )


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        counter("games"),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        account_key("ratings", "account_id", "CASCADE"),
        sa.PrimaryKeyConstraint("account_id", name="pk_ratings"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("opponent", sa.String(24), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("rated_at", sa.DateTime(), nullable=False),
        account_key("rating_history", "account_id", "CASCADE"),
        game_key("rating_history"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=False),
        flag("rated"),
        sa.Column("opponent", sa.String(24), nullable=False),
        sa.Column("first_account_id", sa.Integer(), nullable=True),
        sa.Column("first_name", sa.String(20), nullable=False),
        sa.Column("second_account_id", sa.Integer(), nullable=True),
        sa.Column("second_name", sa.String(20), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        account_key("matches", "first_account_id", "SET NULL"),
        account_key("matches", "second_account_id", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_first_account_id", "matches", ["first_account_id"])
    op.create_index("ix_matches_second_account_id", "matches", ["second_account_id"])
    op.create_table(
        "match_games",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("result", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_match_games_match_id_matches", ondelete="CASCADE"
        ),
        game_key("match_games"),
        sa.PrimaryKeyConstraint("match_id", "number", name="pk_match_games"),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("games_per_match", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        counter("version"),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        account_key("tournament_entrants", "account_id", "CASCADE"),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_entrants_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "account_id", name="pk_tournament_entrants"),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("first_account_id", sa.Integer(), nullable=False),
        sa.Column("second_account_id", sa.Integer(), nullable=True),
        sa.Column("games", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_pairings_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round", "table_number", name="pk_tournament_pairings"
        ),
    )
    op.create_table(
        "pbm_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("recording", sa.Text(), nullable=False),
        counter("actions"),
        sa.Column("first_account_id", sa.Integer(), nullable=False),
        sa.Column("first_name", sa.String(20), nullable=False),
        sa.Column("second_account_id", sa.Integer(), nullable=False),
        sa.Column("second_name", sa.String(20), nullable=False),
        flag("rated"),
        sa.Column("days_per_move", sa.Integer(), nullable=False),
        sa.Column("moves_per_day", sa.Integer(), nullable=True),
        sa.Column("waiting_since", sa.DateTime(), nullable=False),
        sa.Column("first_moved_at", sa.DateTime(), nullable=True),
        sa.Column("second_moved_at", sa.DateTime(), nullable=True),
        counter("first_moves_on_day"),
        counter("second_moves_on_day"),
        flag("finished"),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        account_key("pbm_games", "first_account_id", "CASCADE"),
        account_key("pbm_games", "second_account_id", "CASCADE"),
        game_key("pbm_games"),
        sa.PrimaryKeyConstraint("id", name="pk_pbm_games"),
    )
    op.create_index("ix_pbm_games_first_account_id", "pbm_games", ["first_account_id"])
    op.create_index("ix_pbm_games_second_account_id", "pbm_games", ["second_account_id"])


def downgrade() -> None:
    op.drop_index("ix_pbm_games_second_account_id", table_name="pbm_games")
    op.drop_index("ix_pbm_games_first_account_id", table_name="pbm_games")
    op.drop_table("pbm_games")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
    op.drop_table("match_games")
    op.drop_index("ix_matches_second_account_id", table_name="matches")
    op.drop_index("ix_matches_first_account_id", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_rating_history_account_id", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
