"""The storage tests' database fixture, for the door's tests of accounts and saved games:
SQLite always, and PostgreSQL as well when CRIBBAGE_TEST_POSTGRES_URL names a server."""

from tests.door.storage.conftest import database  # noqa: F401
