"""A database holding every kind of row the door keeps, made through the store as the door
makes them: members with an SSH key and a BBS link (one renamed and locked, one with a
reset code, an address and a note), a finished game, a saved game, a rated match, a
started tournament, a finished mail game and the audit, for the copy, backup and check
tests. ``table_rows`` reads every table back for comparing two databases."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from door.competition.pbm import PbmRules
from door.competition.tournament import Tournament
from door.competition.turns import play_automatic
from door.defence.bans import BanTarget
from door.storage.matches import MatchStore
from door.storage.pbm_games import PbmGameStore
from door.storage.ratings import RatingStore
from door.storage.schema import metadata
from door.storage.store import Seat, Store
from door.storage.tournaments import TournamentStore
from engine.rules.game import Phase
from engine.rules.record import RecordedGame
from tests.door.competition.outcomes import won
from tests.door.storage.conftest import FAST_HASHER, postgres_url
from tests.door.storage.games import played_game

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
PASSWORD = "correct horse battery"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


async def fill(url: str, **options: Any) -> dict[str, int]:
    """Put every kind of row into the database at ``url``; the numbers of what it made."""
    store = await Store.open(url, hasher=FAST_HASHER, **options)
    try:
        seats = []
        for handle in ("Ada", "Bob", "Cy", "Di"):
            account = await store.create_account(handle, PASSWORD)
            seats.append(Seat(account.handle, account.id))
        ada, bob, cy, di = seats
        assert ada.account_id is not None
        await store.add_ssh_key(ada.account_id, SSH_KEY)
        await store.bbs_account("FakeBBS", "#12", "Eve")
        finished = played_game(5)
        finished_id = await store.record_game_result(
            finished.recording, [ada, Seat("computer", None)], "computer-normal"
        )
        saved = played_game(6, actions=12)
        saved_id = await store.start_game(saved.recording, [bob, cy], "people")
        await RatingStore(store).rate_game(ada.account_id, bob.account_id, won(0, 80), START)
        match_id = await MatchStore(store).start_match(ada, bob, 3, START, rated=True)
        await MatchStore(store).add_match_game(match_id, won(0, 85), START, game_id=finished_id)
        cup = Tournament("Spring Swiss", "swiss", 1, START, rounds=2)
        cup_id = await TournamentStore(store).create_tournament(cup, START)
        for seat in seats:
            assert seat.account_id is not None
            await TournamentStore(store).sign_up(cup_id, seat.account_id)
        await TournamentStore(store).start_tournament(cup_id, START)
        mail = RecordedGame(seed=2026)
        play_automatic(mail)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            cy, di, mail.recording, PbmRules(3), START
        )
        whole = played_game(9)
        assert whole.game.phase is Phase.OVER
        await PbmGameStore(store).finish_pbm_game(pbm_id, whole.recording)
        await store.record_action("shell:root", "user.lock", "Bob", "spam", "for 24 hours")
        await _sysop_rows(store, ada.account_id)
        await _bans_and_mutes(store)
        return {
            "finished_game": finished_id,
            "saved_game": saved_id,
            "match": match_id,
            "tournament": cup_id,
            "mail_game": pbm_id,
        }
    finally:
        await store.close()


async def _sysop_rows(store: Store, account_id: int) -> None:
    """What the sysop's tools for members leave: a reset code, an address seen, a note, a
    lock, and a renamed member's held handle."""
    await store.make_reset_code("Ada")
    await store.note_address(account_id, "2001:db8::1")
    await store.set_member_note("Ada", "plays on Tuesdays")
    await store.keep_member_setting(account_id, "mouse", "off")
    await store.keep_member_setting(account_id, "screen_reader", "on")
    await store.create_account("Flo", PASSWORD)
    await store.rename_member("Flo", "Fay")
    await store.lock_member("Fay", "asked to be locked", START + dt.timedelta(days=400))


async def _bans_and_mutes(store: Store) -> None:
    """A ban lifted, one in force, and a mute (door/storage/bans.py)."""
    lasting = dt.datetime.now(dt.UTC) + dt.timedelta(days=400)
    lifted = await store.add_ban(BanTarget.parse("203.0.113.0/24"), "spam", None, "shell:root")
    await store.lift_ban(lifted.id, "Sysop")
    await store.add_ban(BanTarget.parse("handle:Mallory"), "abuse", lasting, "Sysop")
    await store.add_mute("Eve", "flooding the lobby", lasting, "Sysop")
    await store.sysop_came_from("2001:db8::5")


async def table_rows(url: str, **connect_args: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the door's schema, sorted, read through the schema's
    types (so a moment reads the same from SQLite and PostgreSQL)."""
    engine = create_async_engine(url, connect_args=connect_args)
    try:
        async with engine.connect() as connection:
            rows = {}
            for table in metadata.sorted_tables:
                result = await connection.execute(select(table))
                rows[table.name] = sorted(tuple(row) for row in result)
            return rows
    finally:
        await engine.dispose()


@contextlib.contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database on the test server, dropped after
    (skips the test without CRIBBAGE_TEST_POSTGRES_URL)."""
    server = postgres_url()
    name = f"copy_{uuid.uuid4().hex[:12]}"
    base = server.rsplit("/", 1)[0]
    asyncio.run(run_sql(f"{base}/postgres", f"CREATE DATABASE {name}"))
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(run_sql(f"{base}/postgres", f"DROP DATABASE {name} WITH (FORCE)"))


async def run_sql(url: str, sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await connection.execute(sql)
    finally:
        await connection.close()
