"""The packaged Alembic migrations build exactly the tables door/storage/schema.py
describes, and run by themselves when the store opens."""

from __future__ import annotations

import datetime as dt

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from door.competition.pbm import PbmRules
from door.storage.errors import StorageUnavailableError
from door.storage.migrate import (
    MIGRATIONS_DIR,
    alembic_config,
    current_revision,
    head_revision,
    upgrade_to_head,
)
from door.storage.pbm_games import PbmGameStore
from door.storage.schema import metadata
from door.storage.store import Seat
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.storage.conftest import Database


def differences(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


@run_async
async def test_opening_a_new_database_migrates_it_to_exactly_the_schema(
    database: Database,
) -> None:
    async with database.store() as store, store._engine.connect() as connection:
        assert await connection.run_sync(current_revision) == head_revision()
        assert await connection.run_sync(differences) == []


@run_async
async def test_opening_again_keeps_the_data_and_the_revision(database: Database) -> None:
    async with database.store() as store:
        await store.create_account("Ada", "correct horse")
    async with database.store() as store:
        assert await store.account("ada") is not None
        async with store._engine.connect() as connection:
            assert await connection.run_sync(current_revision) == head_revision()


@run_async
async def test_every_revision_downgrades_and_upgrades_again(database: Database) -> None:
    def down_to_base(connection: Connection) -> list[str]:
        command.downgrade(alembic_config(connection), "base")
        return [name for name in inspect(connection).get_table_names() if name != "alembic_version"]

    async with database.store() as store, store._engine.begin() as connection:
        assert await connection.run_sync(down_to_base) == []
        await connection.run_sync(upgrade_to_head)
        assert await connection.run_sync(differences) == []


def test_the_migrations_ship_inside_the_package() -> None:
    assert (MIGRATIONS_DIR / "env.py").is_file()
    assert (MIGRATIONS_DIR / "__init__.py").is_file()
    assert (MIGRATIONS_DIR / "versions" / "__init__.py").is_file()
    assert MIGRATIONS_DIR.parent.name == "storage" and MIGRATIONS_DIR.parent.parent.name == "door"
    assert head_revision() is not None


@run_async
async def test_a_database_from_a_newer_door_is_refused_clearly(database: Database) -> None:
    async with database.store() as store, store._engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = 'fffffff'"))
    with pytest.raises(StorageUnavailableError, match="newer version of the door") as refused:
        async with database.store():
            pass
    assert "fffffff" in refused.value.detail


@run_async
async def test_0009_keeps_mail_games_and_lets_them_outlive_a_member(database: Database) -> None:
    """From 0008 (keys that cascade) to head with a game kept: the game is copied over
    (SQLite's batch mode rebuilds the table) and a member's key to it is SET NULL."""

    def back_to_0008_and_up(connection: Connection) -> list[tuple[str | None, object]]:
        command.downgrade(alembic_config(connection), "0008")
        command.upgrade(alembic_config(connection), "head")
        keys = inspect(connection).get_foreign_keys("pbm_games")
        return sorted((key["name"], key["options"].get("ondelete")) for key in keys)

    async with database.store() as store:
        ada, bob = [await store.create_account(n, "correct horse") for n in ("Ada", "Bob")]
        start = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            Seat("Ada", ada.id),
            Seat("Bob", bob.id),
            RecordedGame(seed=1).recording,
            PbmRules(3),
            start,
        )
        async with store._engine.begin() as connection:
            assert await connection.run_sync(back_to_0008_and_up) == [
                ("fk_pbm_games_first_account_id_accounts", "SET NULL"),
                ("fk_pbm_games_game_id_games", "SET NULL"),
                ("fk_pbm_games_second_account_id_accounts", "SET NULL"),
            ]
            await connection.execute(text(f"DELETE FROM accounts WHERE id = {ada.id}"))
        game = await PbmGameStore(store).pbm_game(pbm_id)
        assert game.seats == (Seat("Ada", None), Seat("Bob", bob.id))
