"""The sysop's tools for members in the store, on SQLite and PostgreSQL: the list and one
member, lock and unlock, rename with the old handle held, delete with the games kept
under a placeholder, the note, reset codes, and the addresses members call from."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from door.competition.pbm import PbmRules
from door.competition.tournament import Tournament
from door.storage.errors import (
    HandleError,
    HandleTakenError,
    LoginError,
    PasswordResetRequired,
    PasswordRuleError,
    UnknownMemberError,
)
from door.storage.members import ADDRESSES_KEPT, DELETED_MEMBER, DeletedMember
from door.storage.pbm_games import PbmGameStore
from door.storage.schema import password_resets
from door.storage.store import Seat
from door.storage.tournaments import TournamentStore
from engine.rules.record import RecordedGame, replay
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.games import played_game
from tests.door.storage.test_accounts import FakeClock

PASSWORD = "correct horse"


@run_async
async def test_the_list_searches_handles_in_any_case_and_counts_games(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        await store.create_account("Bob", PASSWORD)
        await store.create_account("Adalbert", PASSWORD)
        game = played_game(5)
        await store.record_game_result(
            game.recording, [Seat("Ada", ada.id), Seat("computer")], "computer-normal"
        )
        listed = await store.members()
        assert [(m.handle, m.games, m.status) for m in listed] == [
            ("Ada", 1, "active"),
            ("Adalbert", 0, "active"),
            ("Bob", 0, "active"),
        ]
        assert [m.handle for m in await store.members("ADA")] == ["Ada", "Adalbert"]
        assert [m.handle for m in await store.members("%")] == []
        assert [m.handle for m in await store.members("b", limit=1)] == ["Adalbert"]


@run_async
async def test_a_lock_refuses_the_member_with_its_reason_until_it_ends(database: Database) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        ada = await store.create_account("Ada", PASSWORD)
        ends = clock.now + dt.timedelta(hours=2)
        await store.lock_member("ada", "spam\x1b[2J in chat", ends)
        with pytest.raises(
            Exception, match=r"locked Ada until 2025-03-01 14:00 UTC\. Reason: spam"
        ) as refused:
            await store.check_not_locked(ada)
        assert "\x1b" not in str(refused.value)
        assert [m.status for m in await store.members()] == ["locked"]
        clock.advance(hours=2)
        await store.check_not_locked(ada)  # it ended by itself
        await store.lock_member("Ada", "again")
        with pytest.raises(Exception, match="until the sysop unlocks it"):
            await store.check_not_locked(ada)
        await store.unlock_member("ADA")
        await store.check_not_locked(ada)
        with pytest.raises(ValueError, match="reason"):
            await store.lock_member("Ada", "  \x07 ")
        with pytest.raises(ValueError, match="past"):
            await store.lock_member("Ada", "why", clock.now)
        with pytest.raises(UnknownMemberError, match="No member has the handle 'Zed'"):
            await store.lock_member("Zed", "why")


@run_async
async def test_a_reset_code_logs_in_once_to_choose_a_new_password(database: Database) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        ada = await store.create_account("Ada", PASSWORD)
        _, code, expires = await store.make_reset_code("ada")
        assert expires == clock.now + dt.timedelta(hours=24)
        async with store._engine.connect() as connection:
            stored = await connection.scalar(select(password_resets.c.code_hash))
        assert code not in stored and code.replace("-", "") not in stored
        with pytest.raises(PasswordResetRequired) as reset:
            await store.verify_login("Ada", code.lower().replace("-", " "))
        assert reset.value.account_id == ada.id
        with pytest.raises(PasswordRuleError):
            await store.reset_password(ada.id, code, "short")
        account = await store.reset_password(ada.id, code, "a brand new secret")
        assert account.handle == "Ada"
        assert (await store.verify_login("Ada", "a brand new secret")).id == ada.id
        with pytest.raises(LoginError):
            await store.verify_login("Ada", PASSWORD)  # the old password no longer works
        with pytest.raises(LoginError):
            await store.verify_login("Ada", code)  # nor the code, used once
        with pytest.raises(LoginError, match="no longer valid"):
            await store.reset_password(ada.id, code, "another new secret")


@run_async
async def test_a_reset_code_lasts_a_day_and_a_wrong_one_counts_as_a_wrong_password(
    database: Database,
) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        await store.create_account("Ada", PASSWORD)
        _, code, _ = await store.make_reset_code("Ada")
        wrong = "ABCD-EFGH-JKMN" if code != "ABCD-EFGH-JKMN" else "ABCD-EFGH-JKMP"
        with pytest.raises(LoginError):
            await store.verify_login("Ada", wrong)
        detail = await store.member("Ada")
        assert detail is not None and detail.reset_code_until is not None
        async with store._engine.connect() as connection:
            from door.storage.schema import accounts

            failures = await connection.scalar(select(accounts.c.failed_logins))
        assert failures == 1
        clock.advance(hours=24)
        with pytest.raises(LoginError) as expired:
            await store.verify_login("Ada", code)
        assert not isinstance(expired.value, PasswordResetRequired)


@run_async
async def test_a_rename_holds_the_old_handle_from_others_for_thirty_days(
    database: Database,
) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        ada = await store.create_account("Ada", PASSWORD)
        await store.create_account("Bob", PASSWORD)
        game = played_game(5)
        game_id = await store.record_game_result(
            game.recording, [Seat("Ada", ada.id), Seat("computer")], "computer-normal"
        )
        assert await store.rename_member("ada", "Grace") == ("Ada", "Grace")
        assert (await store.verify_login("grace", PASSWORD)).id == ada.id
        [summary] = await store.recent_games(account_id=ada.id)
        assert (summary.game_id, summary.seats[0].name) == (game_id, "Grace")
        with pytest.raises(HandleTakenError, match="held"):
            await store.check_new_handle("ADA")
        assert await store.lookalike_handle("ada", reserved=False) == "Ada"  # nor as a guest
        with pytest.raises(HandleTakenError, match="held"):
            await store.rename_member("Bob", "Ada")
        with pytest.raises(HandleTakenError, match="Someone already has"):
            await store.rename_member("Bob", "grace")
        with pytest.raises(HandleError):
            await store.rename_member("Bob", "1nvalid")
        assert await store.rename_member("Grace", "Ada") == ("Grace", "Ada")  # hers again
        await store.rename_member("Ada", "Grace")
        await store.rename_member("Bob", "Bill")
        with pytest.raises(HandleTakenError, match="looks too much like Bill"):
            await store.check_new_handle("Bi11")  # ones for ells
        with pytest.raises(HandleTakenError, match="looks too much like Bill"):
            await store.rename_member("Grace", "Bi11")
        clock.advance(days=30, seconds=1)
        store._forget_handle_index()  # kept a minute of real time, which the clock skips
        assert await store.check_new_handle("Ada") == "Ada"


@run_async
async def test_a_deleted_members_games_stay_in_the_opponents_record(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        bob = await store.create_account("Bob", PASSWORD)
        await store.note_address(ada.id, "192.0.2.7")
        game = played_game(5)
        game_id = await store.record_game_result(
            game.recording, [Seat("Ada", ada.id), Seat("Bob", bob.id)], "people"
        )
        assert await store.delete_member("ADA") == DeletedMember("Ada", 1, 0)
        assert await store.account("Ada") is None
        [summary] = await store.recent_games(account_id=bob.id)
        assert summary.game_id == game_id
        assert [seat.name for seat in summary.seats] == [DELETED_MEMBER, "Bob"]
        stats = await store.stats_for("Bob")
        assert stats is not None and stats.total.games == 1
        with pytest.raises(HandleTakenError, match="held"):
            await store.check_new_handle("Ada")
        with pytest.raises(UnknownMemberError):
            await store.delete_member("Ada")


@run_async
async def test_deleting_a_member_settles_their_mail_games_as_won_by_the_opponent(
    database: Database,
) -> None:
    """Bob's game going against Ada is his, by forfeit, once she is deleted (not while
    the delete is refused); Cid's game that was over stays in his list. Both show her as
    a deleted member."""
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        ada, bob, cid = [await store.create_account(n, PASSWORD) for n in ("Ada", "Bob", "Cid")]
        mail = PbmGameStore(store)
        going = await mail.start_pbm_game(
            Seat("Bob", bob.id),
            Seat("Ada", ada.id),
            RecordedGame(seed=3).recording,
            PbmRules(3),
            clock.now,
        )
        over = await mail.start_pbm_game(
            Seat("Ada", ada.id),
            Seat("Cid", cid.id),
            RecordedGame(seed=4).recording,
            PbmRules(1),
            clock.now,
        )
        await mail.finish_pbm_game(over, (await mail.pbm_game(over)).recording, forfeited_by=1)
        tournaments = TournamentStore(store)
        cup = Tournament("Cup", "round robin", 1, clock.now)
        cup_id = await tournaments.create_tournament(cup, clock.now)
        await tournaments.sign_up(cup_id, ada.id)
        with pytest.raises(ValueError, match="not over"):
            await store.delete_member("Ada")
        (still,) = await mail.pbm_games_for(bob.id)  # a refused delete settles nothing
        assert (still.pbm_id, still.finished) == (going, False)
        await tournaments.withdraw(cup_id, ada.id)
        deleted = await store.delete_member("Ada")
        # qa4: the audit said "1 game kept", her games before the delete: the mail game
        # it settled is kept too.
        assert deleted == DeletedMember("Ada", games_kept=2, mail_forfeits=1)
        assert deleted.kept() == "2 games kept, 1 of them a mail game settled by forfeit"
        assert await mail.pbm_games_for(bob.id) == []
        (won,) = await mail.finished_pbm_games_for(bob.id)
        assert (won.pbm_id, won.finished) == (going, True)
        assert won.seats == (Seat("Bob", bob.id), Seat(DELETED_MEMBER, None))
        outcome = replay(won.recording).outcome()
        assert outcome is not None and (outcome.winner_side, outcome.forfeited_by) == (0, 1)
        stats = await store.stats_for("Bob")
        assert stats is not None and (stats.total.games, stats.total.wins) == (1, 1)
        assert won.game_id is not None
        [summary] = await store.recent_games(account_id=bob.id)
        assert summary.game_id == won.game_id
        assert [seat.name for seat in summary.seats] == ["Bob", DELETED_MEMBER]
        (lost,) = await mail.finished_pbm_games_for(cid.id)
        assert lost.pbm_id == over and lost.seats[0] == Seat(DELETED_MEMBER, None)


@run_async
async def test_the_member_shows_note_addresses_latest_first_and_bounded(
    database: Database,
) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        ada = await store.create_account("Ada", PASSWORD)
        for number in range(ADDRESSES_KEPT + 3):
            await store.note_address(ada.id, f"192.0.2.{number}")
            clock.advance(minutes=1)
        await store.note_address(ada.id, "192.0.2.0")  # again: latest now, two calls
        await store.set_member_note("Ada", "asked for a reset\r\n\x1b[31m by mail ")
        detail = await store.member("ada")
        assert detail is not None
        assert detail.note == "asked for a reset [31m by mail"
        assert len(detail.addresses) == ADDRESSES_KEPT
        assert (detail.addresses[0].address, detail.addresses[0].calls) == ("192.0.2.0", 1)
        assert detail.addresses[1].address == f"192.0.2.{ADDRESSES_KEPT + 2}"
        await store.set_member_note("Ada", "")
        assert (await store.member("Ada")).note is None  # type: ignore[union-attr]
        assert await store.member("Nobody") is None
        async with store._engine.connect() as connection:
            from door.storage.schema import account_addresses

            count = await connection.scalar(select(func.count()).select_from(account_addresses))
        assert count == ADDRESSES_KEPT
