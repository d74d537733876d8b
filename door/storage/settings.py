"""The ``[database]`` table of the door's config: where the database is, and the log-in
lock-out rules.

Kept apart from door/config.py (and free of SQLAlchemy) so the config loader can call
``database_settings_from_mapping`` cheaply. Every key is optional::

    [database]
    url = ""                          # "" = SQLite file cribbage.sqlite3 in server.data_dir
                                      # or "postgresql://user:password@host:5432/dbname"
    max_failed_logins = 0             # wrong passwords in a row that lock an account (0: off)...
    failed_login_window_seconds = 900 # ...when they come within this many seconds
    lockout_seconds = 900             # how long the account then stays locked
    backup_every_hours = 24           # a backup into data_dir/backups this often (0: never)
    backup_keep = 7                   # the newest this many are kept, older ones deleted
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

SQLITE_FILE_NAME: Final = "cribbage.sqlite3"

# What a sysop may write, and the driver the door uses for it.
_SCHEMES: Final = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}
_RANGES: Final = {
    "max_failed_logins": (0, 1000),
    "failed_login_window_seconds": (1, 86_400 * 30),
    "lockout_seconds": (1, 86_400 * 30),
    "backup_every_hours": (0, 24 * 366),
    "backup_keep": (1, 1000),
}


class DatabaseSettingsError(ValueError):
    """A bad ``[database]`` value; the one-line message names the file and the key."""


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = ""
    max_failed_logins: int = 0
    """0: no account-wide lock-out, which anyone could turn against the owner; the
    door's LoginGuard (door/defence/logins.py) slows guessing per account and address."""
    failed_login_window_seconds: int = 900
    lockout_seconds: int = 900
    backup_every_hours: int = 24
    """Hours between the backups the running door makes (door/scheduled_backup.py); 0
    makes none. A database lost with no backup is a board lost."""
    backup_keep: int = 7


def database_settings_from_mapping(raw: Any, where: str = "config") -> DatabaseSettings:
    """Check the parsed ``[database]`` table (``{}`` when the file has none).

    Raises DatabaseSettingsError naming ``where`` (the file) and the key. A URL's
    password never appears in a message.
    """
    if not isinstance(raw, dict):
        raise DatabaseSettingsError(f"{where}: [database] must be a table")
    known = {field.name for field in dataclasses.fields(DatabaseSettings)}
    for key, value in raw.items():
        if key not in known:
            raise DatabaseSettingsError(f"{where}: unknown key database.{key}")
        if key == "url":
            if not isinstance(value, str):
                raise DatabaseSettingsError(f"{where}: database.url must be a string")
            _check_url(value, where)
        else:
            low, high = _RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise DatabaseSettingsError(
                    f"{where}: database.{key} must be a whole number, not {value!r}"
                )
            if not low <= value <= high:
                raise DatabaseSettingsError(
                    f"{where}: database.{key} must be from {low} to {high}, not {value}"
                )
    return DatabaseSettings(**raw)


def _check_url(url: str, where: str) -> None:
    if not url.strip():
        return
    scheme, separator, _ = url.partition("://")
    if not separator or scheme.lower() not in _SCHEMES:
        raise DatabaseSettingsError(
            f"{where}: database.url must be empty (SQLite in the data directory), "
            f'"sqlite:///path/to/file.sqlite3" or "postgresql://user:password@host/dbname", '
            f"not {redact_url(url)!r}"
        )
    if _SCHEMES[scheme.lower()].startswith("sqlite") and not url.partition("://")[2].strip("/"):
        raise DatabaseSettingsError(f"{where}: database.url names no SQLite file")


def database_url(settings: DatabaseSettings, data_dir: str | Path) -> str:
    """The SQLAlchemy URL to open: the configured one with the door's async driver, or a
    SQLite file in ``data_dir`` (an absolute path, so the working directory cannot move it).
    """
    url = settings.url.strip()
    if not url:
        return f"sqlite+aiosqlite:///{Path(data_dir).resolve() / SQLITE_FILE_NAME}"
    scheme, _, rest = url.partition("://")
    return f"{_SCHEMES[scheme.lower()]}://{rest}"


def redact_url(url: str) -> str:
    """The URL with any password replaced by ``***``, fit for logs and messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "<unreadable URL>"
    if not password:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{user}:***@{host}").geturl()
