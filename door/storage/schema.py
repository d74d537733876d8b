"""The tables, in SQLAlchemy Core. The migrations in door/storage/migrations build exactly
this (a test compares them), so change both together: add a revision, never edit one.

accounts      one row per caller with a handle
ssh_keys      public keys that log an account in over SSH
player_stats  running totals per account and per mode (runs rule x counting x opponent)
games         every game saved as it is played (its recording, after each action)
game_seats    who sat where in a game: an account, or a name only (guest, computer)
game_logs     finished games: the final recording and the result, for replay
bbs_users     callers who come through a BBS: (BBS, who they are there) -> their account
ratings       each rated member's Glicko-2 rating (door.competition.rating)
rating_history  every rated game's change to a member's rating
matches       matches of one game or the best of 3, 5 or 7; match_games holds their games
tournaments   round-robin and Swiss tournaments; tournament_entrants and
              tournament_pairings hold who plays and who met whom, with the games
pbm_games     play-by-mail games: the recording (as in games) and the clock
password_resets  the one-time code a sysop gave a member to set a new password (a hash)
account_addresses  the addresses a member called from lately, a few per member
held_handles  a renamed member's old handle, kept from everyone else for a while
audit         what the sysop (at the door or the shell) did: append-only
bans          addresses, networks and handles the sysop turned away (lifted ones kept)
mutes         callers the sysop silenced in chat for a while
sysop_addresses  where the sysop called in from lately (a ban must not cover them)
member_settings  what a member chose for themselves and keeps between calls (the mouse)
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    text,
)

# Constraint names are spelled out so that migrations can name them on every database.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A moment, stored as UTC without a zone (SQLite has none) and read back as UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("store moments with their time zone")
        return value.astimezone(dt.UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        moment: dt.datetime = value
        return moment.replace(tzinfo=dt.UTC)


def _counter(name: str) -> Column[int]:
    return Column(name, Integer, nullable=False, server_default=text("0"))


accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("handle", String(20), nullable=False),
    # The handle lowercased: two handles differing only in case are one handle.
    Column("handle_key", String(20), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_login_at", UTCDateTime),
    # Wrong passwords since first_failed_at; reaching the limit sets locked_until.
    _counter("failed_logins"),
    Column("first_failed_at", UTCDateTime),
    Column("locked_until", UTCDateTime),
    # Locked by the sysop (not the wrong-password lock-out above): since when, why, and
    # until when (None: until unlocked).
    Column("sysop_locked_at", UTCDateTime),
    Column("sysop_lock_reason", String(200)),
    Column("sysop_lock_ends", UTCDateTime),
    # The sysop's own note on the member; never shown to the member.
    Column("sysop_note", Text),
    # The member plays in screen-reader mode (plain sentences): set from the lobby.
)

ssh_keys = Table(
    "ssh_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    # "type base64", without the comment: the form keys are compared in.
    Column("public_key", Text, nullable=False, unique=True),
    Column("added_at", UTCDateTime, nullable=False),
)

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
)
"""The player_stats columns that only ever add up."""

player_stats = Table(
    "player_stats",
    metadata,
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("runs", String(8), primary_key=True),
    Column("counting", String(8), primary_key=True),
    Column("opponent", String(24), primary_key=True),
    *(_counter(name) for name in STAT_COUNTERS),
    _counter("best_hand_score"),
    # The best hand's four cards and the starter, e.g. "5H 5D 5C JS 5S".
    Column("best_hand_cards", String(20)),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("players", Integer, nullable=False),
    Column("runs", String(8), nullable=False),
    Column("counting", String(8), nullable=False),
    Column("opponent", String(24), nullable=False),
    # engine.rules.record.Recording as JSON, rewritten after every action.
    Column("recording", Text, nullable=False),
    # How many actions that recording holds: a late, older save never overwrites a newer.
    _counter("actions"),
    Column("finished", Boolean, nullable=False, server_default=text("false")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    # For a game between callers: its table's options and the match so far, as JSON
    # (door/app/table_settings.py), to set the table again after a restart.
    Column("table_settings", Text),
)

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("name", String(20), nullable=False),
    Index(None, "account_id"),
)

game_logs = Table(
    "game_logs",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("recording", Text, nullable=False),
    # JSON: winner side, final scores, skunks, who forfeited (see door.storage.stats).
    Column("result", Text, nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
)

bbs_users = Table(
    "bbs_users",
    metadata,
    # The BBS's name (a drop file's, or a linked BBS's system tag) and who the caller is
    # there: "#12" for user record 12, or an RLogin alias lowercased.
    Column("system", String(60), primary_key=True),
    Column("user_id", String(60), primary_key=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("created_at", UTCDateTime, nullable=False),
)


ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    _counter("games"),
    Column("updated_at", UTCDateTime, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="SET NULL")),
    # Whom the game was against: a handle, or "computer-expert" and the like.
    Column("opponent", String(24), nullable=False),
    Column("score", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("rated_at", UTCDateTime, nullable=False),
)

matches = Table(
    "matches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("best_of", Integer, nullable=False),
    Column("rated", Boolean, nullable=False, server_default=text("false")),
    # As in games.opponent: "people", or "computer-normal" against the computer.
    Column("opponent", String(24), nullable=False),
    Column("first_account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("first_name", String(20), nullable=False),
    Column("second_account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("second_name", String(20), nullable=False),
    # 0 or 1 (first or second) once the match is decided.
    Column("winner", Integer),
    Column("created_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    Index(None, "first_account_id"),
    Index(None, "second_account_id"),
)

match_games = Table(
    "match_games",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="SET NULL")),
    # The game's outcome as JSON (door.storage.stats), side 0 being the match's first.
    Column("result", Text, nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("kind", String(12), nullable=False),
    Column("games_per_match", Integer, nullable=False),
    Column("rounds", Integer),
    # None: it waits for sign-ups until the sysop starts it (then: when it started).
    Column("starts_at", UTCDateTime),
    Column("status", String(8), nullable=False),
    # Bumped by every change: the first write of a change, so changes take turns.
    _counter("version"),
    Column("created_at", UTCDateTime, nullable=False),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column(
        "tournament_id",
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    # Sign-up order, from 0: the seeding.
    Column("seed", Integer, nullable=False),
)

tournament_pairings = Table(
    "tournament_pairings",
    metadata,
    Column(
        "tournament_id",
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("round", Integer, primary_key=True),
    Column("table_number", Integer, primary_key=True),
    Column("first_account_id", Integer, nullable=False),
    # None: a bye.
    Column("second_account_id", Integer),
    # A JSON list of the games' outcomes (door.storage.stats), side 0 being the first.
    Column("games", Text, nullable=False),
)

pbm_games = Table(
    "pbm_games",
    metadata,
    Column("id", Integer, primary_key=True),
    # engine.rules.record.Recording as JSON, as in games, rewritten after every move.
    Column("recording", Text, nullable=False),
    _counter("actions"),
    # None: the member was deleted (their games going were settled first as lost by
    # forfeit, door/storage/pbm_games.py); the game stays in the opponent's list.
    Column(
        "first_account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="SET NULL"),
        index=True,
    ),
    Column("first_name", String(20), nullable=False),
    Column(
        "second_account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="SET NULL"),
        index=True,
    ),
    Column("second_name", String(20), nullable=False),
    Column("rated", Boolean, nullable=False, server_default=text("false")),
    Column("days_per_move", Integer, nullable=False),
    Column("moves_per_day", Integer),
    # The clock (door.competition.pbm.PbmClock).
    Column("waiting_since", UTCDateTime, nullable=False),
    Column("first_moved_at", UTCDateTime),
    Column("second_moved_at", UTCDateTime),
    _counter("first_moves_on_day"),
    _counter("second_moves_on_day"),
    Column("finished", Boolean, nullable=False, server_default=text("false")),
    # The finished game as logged in games and game_logs, with its statistics.
    Column("game_id", Integer, ForeignKey("games.id", ondelete="SET NULL")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

password_resets = Table(
    "password_resets",
    metadata,
    # One code per member at a time: a new code replaces the old.
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    # The code's SHA-256 in hex; the code itself is never kept (it is random and long,
    # so a fast hash is enough).
    Column("code_hash", String(64), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
)

account_addresses = Table(
    "account_addresses",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    # An IPv4 or IPv6 address as text (45 characters hold the longest IPv6 form).
    Column("address", String(45), primary_key=True),
    Column("first_seen", UTCDateTime, nullable=False),
    Column("last_seen", UTCDateTime, nullable=False),
    _counter("calls"),
)

held_handles = Table(
    "held_handles",
    metadata,
    # As accounts.handle_key: the old handle lowercased.
    Column("handle_key", String(20), primary_key=True),
    Column("handle", String(20), nullable=False),
    # Who had it (None once that member is deleted): they may take it back.
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("held_until", UTCDateTime, nullable=False),
)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime, nullable=False, index=True),
    # The sysop's handle for an action at the door, "shell:<unix user>" for the shell's.
    Column("actor", String(60), nullable=False),
    # What was done: "user.lock", "user.reset-password", "ban.add" ...
    Column("action", String(40), nullable=False),
    # On whom or what: a handle, an address, a network, a ban's number.
    Column("target", String(100), index=True),
    Column("reason", String(500)),
    # Anything else worth keeping (an end, an old handle); never a secret.
    Column("detail", String(1000)),
)

bans = Table(
    "bans",
    metadata,
    Column("id", Integer, primary_key=True),
    # door.defence.bans.BanTarget as it prints: an address, a network or handle:NAME.
    Column("target", String(60), nullable=False),
    Column("reason", String(200), nullable=False),
    Column("actor", String(60), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("ends_at", UTCDateTime),
    # Lifted by the sysop: kept, for the record and so that the door's cheap check of
    # whether anything changed (the highest id, how many lifted) sees it.
    Column("lifted_at", UTCDateTime),
    Column("lifted_by", String(60)),
)

mutes = Table(
    "mutes",
    metadata,
    Column("id", Integer, primary_key=True),
    # The caller's name (a member's handle or a guest's name) and its look (skeleton).
    Column("name", String(40), nullable=False),
    Column("name_look", String(80), nullable=False, index=True),
    Column("reason", String(200), nullable=False),
    Column("actor", String(60), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("ends_at", UTCDateTime, nullable=False),
    Column("lifted_at", UTCDateTime),
    Column("lifted_by", String(60)),
)

sysop_addresses = Table(
    "sysop_addresses",
    metadata,
    # An IPv4 or IPv6 address as text (45 characters hold the longest IPv6 form).
    Column("address", String(45), primary_key=True),
    Column("last_seen", UTCDateTime, nullable=False),
)

member_settings = Table(
    "member_settings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    # A setting's name ("mouse") and its value ("off"): names and values are the door's
    # own words (door/storage/member_settings.py), never a caller's text.
    Column("name", String(20), primary_key=True),
    Column("value", String(20), nullable=False),
)
