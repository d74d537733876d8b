"""The [database] config table: defaults, checks naming file and key, the URL it opens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from door.storage.settings import (
    DatabaseSettings,
    DatabaseSettingsError,
    database_settings_from_mapping,
    database_url,
    redact_url,
)


def test_no_table_means_sqlite_in_the_data_directory(tmp_path: Path) -> None:
    settings = database_settings_from_mapping({}, "door.toml")
    assert settings == DatabaseSettings()
    assert database_url(settings, tmp_path) == f"sqlite+aiosqlite:///{tmp_path}/cribbage.sqlite3"


def test_a_relative_data_directory_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_url(DatabaseSettings(), "data") == (
        f"sqlite+aiosqlite:///{tmp_path}/data/cribbage.sqlite3"
    )


@pytest.mark.parametrize(
    ("url", "opened"),
    [
        ("postgresql://door:pw@db:5432/door", "postgresql+asyncpg://door:pw@db:5432/door"),
        ("postgres://db/door", "postgresql+asyncpg://db/door"),
        ("postgresql+asyncpg://db/door", "postgresql+asyncpg://db/door"),
        ("sqlite:////srv/door.sqlite3", "sqlite+aiosqlite:////srv/door.sqlite3"),
    ],
)
def test_a_url_is_opened_with_the_doors_async_driver(url: str, opened: str) -> None:
    settings = database_settings_from_mapping({"url": url}, "door.toml")
    assert database_url(settings, "data") == opened


@pytest.mark.parametrize(
    ("table", "complaint"),
    [
        ([], "door.toml: [database] must be a table"),
        ({"uri": ""}, "door.toml: unknown key database.uri"),
        ({"url": 5}, "door.toml: database.url must be a string"),
        ({"url": "mysql://u:hunter2@h/db"}, "door.toml: database.url must be empty"),
        ({"url": "sqlite://"}, "door.toml: database.url names no SQLite file"),
        ({"max_failed_logins": -1}, "database.max_failed_logins must be from 0 to 1000, not -1"),
        ({"lockout_seconds": "900"}, "database.lockout_seconds must be a whole number"),
        ({"failed_login_window_seconds": True}, "must be a whole number"),
    ],
)
def test_a_bad_value_names_the_file_and_the_key(table: Any, complaint: str) -> None:
    with pytest.raises(DatabaseSettingsError) as refused:
        database_settings_from_mapping(table, "door.toml")
    assert complaint in str(refused.value)
    assert "hunter2" not in str(refused.value)


def test_passwords_are_hidden_in_urls_shown_anywhere() -> None:
    assert redact_url("postgresql://door:hunter2@db/door") == "postgresql://door:***@db/door"
    assert redact_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"


def test_reading_the_settings_does_not_load_sqlalchemy() -> None:
    import subprocess
    import sys

    code = "import sys, door.storage.settings; print('sqlalchemy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
