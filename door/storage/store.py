"""The door's database: accounts, SSH keys, statistics, saved games and game logs, and the
audit of what the sysop did.

One ``Store`` serves the whole server; every method is a coroutine and one transaction.
Open it with ``Store.open(url)`` (which also brings the schema up to date) and close it
with ``close()``.

When the database cannot be used (a read-only or damaged SQLite file, a PostgreSQL
server that is down, a full disk) ``open`` and every method raise
``StorageUnavailableError``: its message tells a caller that accounts are off and they
can play as a guest, its ``detail`` tells the sysop which database and why. Nothing
else about a failing database escapes, so a session that catches ``StoreError`` around
each call keeps serving its caller, and the server keeps serving everyone else.
"""

from __future__ import annotations

from door.storage.audit import AuditEntry, AuditStore
from door.storage.bans import BanStore
from door.storage.games import GameStore
from door.storage.member_settings import MemberSettingsStore
from door.storage.members import MemberStore
from door.storage.password_resets import PasswordResetStore
from door.storage.records import RecordStore
from door.storage.values import (
    MAX_NAME_LENGTH,
    MAX_OPPONENT_LENGTH,
    WRONG_LOGIN,
    Account,
    Clock,
    GameSummary,
    LeaderboardEntry,
    LeaderboardOrder,
    LoginPolicy,
    PlayerStats,
    SavedGame,
    Seat,
    StatLine,
    utc_now,
)

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_OPPONENT_LENGTH",
    "WRONG_LOGIN",
    "Account",
    "AuditEntry",
    "Clock",
    "GameSummary",
    "LeaderboardEntry",
    "LeaderboardOrder",
    "LoginPolicy",
    "PlayerStats",
    "SavedGame",
    "Seat",
    "StatLine",
    "Store",
    "utc_now",
]


class Store(
    MemberStore,
    PasswordResetStore,
    AuditStore,
    GameStore,
    RecordStore,
    BanStore,
    MemberSettingsStore,
):
    """The database behind the door. Create with ``await Store.open(url)``.

    Each part lives in its own module: the connection and its transactions
    (door/storage/database.py), accounts and SSH keys (accounts.py) with the sysop's
    tools for members (members.py) and their password reset codes (password_resets.py),
    games (games.py), statistics and the leaderboard (records.py), the audit of what the
    sysop did (audit.py), bans and mutes (bans.py), what members keep for themselves
    (member_settings.py).
    Ratings, matches, tournaments and play-by-mail games have stores of their own beside
    it (ratings.py, matches.py, tournaments.py, pbm_games.py), each taking this one.
    """
