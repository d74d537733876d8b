"""Schema migrations with Alembic, run from inside the door (no alembic.ini needed).

The revisions live in door/storage/migrations/versions and ship in the package, so an
installed door migrates its database the same way as a checkout. ``Store.open`` calls
``upgrade_to_head`` on every start; an up-to-date database costs one query.

To add a revision after changing door/storage/schema.py (from a checkout)::

    python -m door.storage.migrate revision "add the chat_muted column"

writes a new file in versions/ from a comparison of schema.py with a scratch SQLite
database brought to the current head; read it, fix what autogenerate got wrong, and
never edit a revision that has been released.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations, for ``connection`` (used as
    it is, inside its transaction) or else a database ``url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def upgrade_to_head(connection: Connection) -> None:
    """Bring the schema on ``connection`` to the newest revision (run through run_sync)."""
    command.upgrade(alembic_config(connection), "head")


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def new_revision(message: str) -> None:
    """Autogenerate a revision against a scratch SQLite database at the current head."""
    from sqlalchemy.ext.asyncio import create_async_engine

    async def generate(url: str) -> None:
        engine = create_async_engine(url)
        async with engine.begin() as connection:
            await connection.run_sync(upgrade_to_head)
            await connection.run_sync(
                lambda sync: command.revision(
                    alembic_config(sync), message=message, autogenerate=True
                )
            )
        await engine.dispose()

    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(generate(f"sqlite+aiosqlite:///{scratch}/scratch.sqlite3"))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "revision":
        sys.exit('usage: python -m door.storage.migrate revision "what changed"')
    new_revision(sys.argv[2])
