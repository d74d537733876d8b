"""Play-by-mail games in the door, on fake terminals against a real store (SQLite, and
PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL names a server) with a clock the test moves:
the mail screen and its refusals, a turn at a mail game with the other seat empty, the
move-per-day limit, and a forfeit when time runs out."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from sqlalchemy.exc import OperationalError

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.app.records import Records
from door.competition.pbm import PbmRules
from door.config import config_from_mapping
from door.serve import forfeit_overdue_mail_games
from door.storage.pbm_games import PbmGame, PbmGameStore
from door.storage.store import Account, Store
from door.term.keys import Key
from engine.rules.game import Phase
from tests.door.app.test_lobby import in_lobby
from tests.door.caller import KeyboardTerminal, answer, run_async
from tests.door.storage.conftest import FAST_HASHER, Database
from tests.door.waiting import until

START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
MAIL_STATUS = "N new game"
BACK_STATUS = "RETURN back to your mail games"


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


class MailDoor:
    """Sessions on keyboard terminals sharing one Presence, one store and one clock."""

    def __init__(self, store: Store, rules: PbmRules, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.records = Records(store, pbm=rules, clock=self.clock)
        self.config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
        self.presence = Presence("Sysop", random.Random(1))
        self.tasks: list[asyncio.Task[None]] = []

    def call(
        self, account: Account | None = None, name: str | None = None
    ) -> tuple[KeyboardTerminal, asyncio.Task[None]]:
        terminal = KeyboardTerminal()
        caller = Caller(name, "test", account=account)
        rng = random.Random(len(self.tasks) + 11)
        session = run_session(terminal, self.config, caller, rng, self.presence, self.records)
        task = asyncio.ensure_future(session)
        self.tasks.append(task)
        return terminal, task

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.records.close()


@asynccontextmanager
async def mail_door(database: Database, rules: PbmRules | None = None) -> AsyncIterator[MailDoor]:
    clock = Clock()  # the store's too: a member deleted is deleted at the game's time
    store = await Store.open(
        database.url, connect_args=database.connect_args, hasher=FAST_HASHER, clock=clock
    )
    door = MailDoor(store, rules or PbmRules(), clock)
    try:
        yield door
    finally:
        await door.close()


def words(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(terminal.display).split())


async def waiting(terminal: KeyboardTerminal) -> None:
    """Every key pressed is read and the door waits for the next."""
    await until(lambda: terminal.reading and terminal.read == terminal.pressed)
    await asyncio.sleep(0.02)
    await until(lambda: terminal.reading and terminal.read == terminal.pressed)


async def open_mail(terminal: KeyboardTerminal) -> None:
    terminal.press("f")
    await until(lambda: MAIL_STATUS in terminal.status)
    await waiting(terminal)


async def mail_list_read(door: MailDoor, account: Account) -> tuple[str, str]:
    """What ``account``'s mail list says (its words, and its lines for a failure's
    message), read by calling in, opening it and hanging up."""
    terminal, task = door.call(account)
    await in_lobby(terminal)
    await open_mail(terminal)
    shown = words(terminal), "\n".join(terminal.display)
    terminal.press(Key.ESCAPE)
    await in_lobby(terminal)
    terminal.press("q", "y")
    await until(task.done)
    return shown


async def start_game(terminal: KeyboardTerminal, handle: str) -> None:
    terminal.press("n")
    await until(lambda: "Play whom" in words(terminal))
    terminal.press(handle, Key.ENTER)
    await until(lambda: MAIL_STATUS in terminal.status)
    await waiting(terminal)


async def take_turn(terminal: KeyboardTerminal, limit: int = 400) -> None:
    """From the table: press what the status line asks until the table is done with
    the caller."""
    for _ in range(limit):
        await waiting(terminal)
        if BACK_STATUS in terminal.status:
            return
        terminal.press(*answer(terminal.status))
    raise AssertionError(f"the turn never ended: {terminal.status!r}")


async def kept_game(
    store: Store, pbm_id: int, done: Callable[[PbmGame], bool], seconds: float = 5.0
) -> PbmGame:
    """The mail game as the store keeps it, once ``done`` holds of it: a move is written
    by the saver's task after the table has gone on, so a read at once can come first."""
    kept: list[PbmGame] = []

    async def written() -> bool:
        kept[:] = [await PbmGameStore(store).pbm_game(pbm_id)]
        return done(kept[0])

    await until(written, seconds, what=lambda: f"the move written: {kept}")
    return kept[0]


async def back_to_mail(terminal: KeyboardTerminal) -> None:
    terminal.press(Key.ENTER)
    await until(lambda: MAIL_STATUS in terminal.status)
    await waiting(terminal)


@run_async
async def test_a_mail_game_is_played_turn_by_turn_with_the_other_seat_empty(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        assert "F Mail games" in words(terminal)
        await open_mail(terminal)
        assert "None going" in words(terminal)
        await start_game(terminal, "bob")  # handles are found whatever their case
        assert "against Bob is started" in words(terminal)
        (game,) = await PbmGameStore(door.store).pbm_games_for(ada.id)
        first = game.waiting_on()[0]  # whoever cut the low card deals
        players = {0: (ada, "Ada"), 1: (bob, "Bob")}
        other = players[1 - first][1]
        if first == 1:
            assert f"{other}'s move (3 days left)" in words(terminal)
            terminal.press("1")
            await waiting(terminal)
            assert "It is Bob's move" in terminal.message  # nothing opens
            assert MAIL_STATUS in terminal.status
        terminal.press(Key.ESCAPE)
        await in_lobby(terminal)
        if first == 1:
            terminal, _ = door.call(bob)
            await in_lobby(terminal)
        assert f"Your move against {other} (3 days left): press F." in words(terminal)
        await open_mail(terminal)
        assert f"your move against {other} (3 days left)" in words(terminal)
        terminal.press("1")
        await until(lambda: "blank line: deal" in terminal.status)
        assert "Mail game against" in words(terminal)
        await take_turn(terminal)
        # The deal and the throw are made; the other player is still to throw.
        assert f"It is {other}'s turn to throw to the crib" in words(terminal)
        saved = await kept_game(door.store, game.pbm_id, lambda g: len(g.recording.actions) == 3)
        assert saved.waiting_on() == (1 - first,)
        assert [a.name for a in saved.recording.actions] == ["cut_for_deal", "deal", "discard"]
        assert saved.clock.last_moved[first] == START
        await back_to_mail(terminal)
        assert f"{other}'s move (3 days left)" in words(terminal)


@run_async
async def test_the_mail_screen_refuses_what_cannot_be_done_and_changes_nothing(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        guest, _ = door.call(name="Gus")
        await in_lobby(guest)
        guest.press("f")
        await waiting(guest)
        assert "Mail games are between members" in guest.message
        assert MAIL_STATUS not in guest.status

        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        await open_mail(terminal)
        for handle, refusal in (
            ("Nobody", "Nobody has the handle Nobody"),
            ("ada", "That is you"),
            ("Gus", "Nobody has the handle Gus"),
        ):
            await start_game(terminal, handle)
            assert refusal in terminal.message
        terminal.press("7")
        await waiting(terminal)
        assert "There is no game 7" in terminal.message
        terminal.press("x")
        await waiting(terminal)
        assert "The 'x' key does nothing here" in terminal.message
        assert await PbmGameStore(door.store).pbm_games_for(ada.id) == []

        # The cap on games going, for either player.
        from door.app import mail_games

        bob = await door.store.create_account("Bob", "correct horse")
        for number in range(mail_games.MAX_OPEN_GAMES):
            await door.records.mail.start(bob, "Ada", seed=number)
        await start_game(terminal, "Bob")
        assert "You have 20 mail games going" in terminal.message
        assert len(await PbmGameStore(door.store).pbm_games_for(ada.id)) == 20


@run_async
async def test_the_move_limit_stops_a_turn_until_the_next_day(database: Database) -> None:
    async with mail_door(database, PbmRules(days_per_move=3, moves_per_day=1)) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        pbm_id, _ = await door.records.mail.start(ada, "Bob", seed=5)
        game = await PbmGameStore(door.store).pbm_game(pbm_id)
        dealer = game.waiting_on()[0]
        terminal, _ = door.call((ada, bob)[dealer])
        await in_lobby(terminal)
        await open_mail(terminal)
        terminal.press("1")
        await until(lambda: "blank line: deal" in terminal.status)
        await take_turn(terminal)
        assert "You have made today's moves in this game" in words(terminal)
        saved = await kept_game(door.store, pbm_id, lambda g: len(g.recording.actions) == 2)
        assert saved.resume().phase is Phase.DISCARD and not saved.resume().has_discarded(dealer)
        await back_to_mail(terminal)
        assert "today's moves made" in words(terminal)
        terminal.press("1")
        await waiting(terminal)
        assert "You have made your 1 moves for today" in terminal.message
        assert MAIL_STATUS in terminal.status

        door.clock.advance(days=1)
        terminal.press(Key.CTRL_L)  # the screen reads the games again
        await waiting(terminal)
        terminal.press("1")
        await until(lambda: "RETURN mark" in terminal.status)
        await take_turn(terminal)
        saved = await kept_game(door.store, pbm_id, lambda g: g.resume().has_discarded(dealer))
        assert saved.resume().has_discarded(dealer)
        assert saved.clock.moves_on_day[dealer] == 1


@run_async
async def test_a_player_out_of_time_forfeits_and_both_see_it(database: Database) -> None:
    async with mail_door(database, PbmRules(days_per_move=2)) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        mail = door.records.mail
        assert mail is not None
        pbm_id, _ = await mail.start(ada, "Bob", seed=9)
        game = await PbmGameStore(door.store).pbm_game(pbm_id)
        late = game.waiting_on()[0]
        door.clock.advance(days=2, seconds=-1)
        task = asyncio.ensure_future(forfeit_overdue_mail_games(mail, every=0.01))
        try:
            # A second short of the deadline, ten of the check's rounds forfeit nothing
            # (that nothing happens has no event to wait for: the time is the point).
            await asyncio.sleep(0.1)
            assert not (await PbmGameStore(door.store).pbm_game(pbm_id)).finished
            door.clock.advance(seconds=1)

            async def forfeited() -> bool:
                return (await PbmGameStore(door.store).pbm_game(pbm_id)).finished

            await until(forfeited, what="the late player's forfeit")
        finally:
            task.cancel()
        finished = await PbmGameStore(door.store).pbm_game(pbm_id)
        assert finished.finished and finished.game_id is not None
        loser, winner = ((ada, bob), (bob, ada))[late]
        stats = await door.store.stats_for(loser.handle)
        assert stats is not None and stats.total.losses == 1
        told = ((loser, "won on time: you did not move"), (winner, "You won on time"))
        for account, said in told:
            shown, lines = await mail_list_read(door, account)
            assert said in shown, lines


@run_async
async def test_a_game_won_on_time_between_long_handles_lists_whole_naming_each_once(
    database: Database,
) -> None:
    # By hand (callers): the finished line read "(deleted member) You won on time:
    # (deleted member) did not move in tim", the name twice and the ending cut at 80.
    handles = ("Maximilian Rosenthal", "Bartholomew Smithers")  # 20 letters, the most
    async with mail_door(database, PbmRules(days_per_move=2)) as door:
        ada = await door.store.create_account(handles[0], "correct horse")
        bob = await door.store.create_account(handles[1], "correct horse")
        mail = door.records.mail
        assert mail is not None
        pbm_id, _ = await mail.start(ada, handles[1], seed=9)
        late = (await PbmGameStore(door.store).pbm_game(pbm_id)).waiting_on()[0]
        door.clock.advance(days=2)
        assert await mail.forfeit_overdue() == 1
        for seat, account in enumerate((ada, bob)):
            _, lines = await mail_list_read(door, account)
            row = next(line for line in lines.splitlines() if "did not move" in line)
            ending = ("You won on time: they", "They won on time: you")[seat == late]
            assert len(row.rstrip()) <= 80, row
            assert re.search(rf"{ending} did not move in time \(\d+ to \d+\)\.$", row.rstrip())
            opponent = handles[1 - seat]
            name = row.split(ending)[0].strip()
            # The name once: whole, or its start and an ellipsis when the ending needs room.
            assert name == opponent or (name.endswith("…") and opponent.startswith(name[:-1]))
            assert row.count(opponent.split()[0]) == 1, row


@run_async
async def test_a_game_won_on_time_still_reads_so_once_the_loser_is_deleted(
    database: Database,
) -> None:
    # By hand (qa4): it read "You won: their account was removed".
    async with mail_door(database, PbmRules(days_per_move=2)) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        mail = door.records.mail
        assert mail is not None
        pbm_id, _ = await mail.start(ada, "Bob", seed=9)
        late = (await PbmGameStore(door.store).pbm_game(pbm_id)).waiting_on()[0]
        door.clock.advance(days=2)
        assert await mail.forfeit_overdue() == 1
        door.clock.advance(days=5)
        loser, winner = ((ada, bob), (bob, ada))[late]
        await door.store.delete_member(loser.handle)
        shown, lines = await mail_list_read(door, winner)
        assert "(deleted member) You won on time: they did not move" in shown, lines


@run_async
async def test_a_game_open_when_the_opponent_is_deleted_says_it_was_won_so(
    database: Database,
) -> None:
    # By hand (qa4): the next move was refused with "There is no play-by-mail game 1 in
    # progress", and the mail screen said a move could not be kept.
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        mail = door.records.mail
        assert mail is not None
        pbm_id, _ = await mail.start(ada, "Bob", seed=9)
        first = (await PbmGameStore(door.store).pbm_game(pbm_id)).waiting_on()[0]
        mover, other = ((ada, bob), (bob, ada))[first]
        terminal, task = door.call(mover)
        await in_lobby(terminal)
        await open_mail(terminal)
        terminal.press("1")
        await until(lambda: "blank line: deal" in terminal.status)
        await door.store.delete_member(other.handle)  # the sysop, meanwhile
        await take_turn(terminal)
        said = "The game is over. You won: their account was removed (0 to 0)."
        assert said in words(terminal), "\n".join(terminal.display)
        await back_to_mail(terminal)
        assert terminal.message.strip() == said
        terminal.press(Key.ESCAPE)
        await in_lobby(terminal)
        terminal.press("q", "y")
        await until(task.done)


@run_async
async def test_a_move_the_store_cannot_keep_says_why_in_one_line(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By hand, on a full disk, the table's last line read "Your move could not be kept
    (Accounts, statistics and saved games are not ava…": the log-in's advice, cut off."""

    async def disk_full(self: PbmGameStore, *args: object) -> None:
        async with self.store.transaction():  # the database's own error, as SQLite gives it
            raise OperationalError(
                "INSERT", {}, sqlite3.OperationalError("database or disk is full")
            )

    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        await open_mail(terminal)
        await start_game(terminal, "bob")
        (game,) = await PbmGameStore(door.store).pbm_games_for(ada.id)
        if game.waiting_on()[0] == 1:
            terminal.press(Key.ESCAPE)
            await in_lobby(terminal)
            terminal, _ = door.call(bob)
            await in_lobby(terminal)
            await open_mail(terminal)
        monkeypatch.setattr(PbmGameStore, "save_pbm_move", disk_full)
        terminal.press("1")
        await until(lambda: "blank line: deal" in terminal.status)
        await take_turn(terminal)
        shown = [line.rstrip() for line in terminal.display]
        assert " Move not kept: the disk is full. Try again later." in shown
        assert not any("…" in line for line in terminal.display)
        # A new game the store cannot start is refused in a sentence of its own, not
        # the bare reason.
        await back_to_mail(terminal)
        monkeypatch.setattr(PbmGameStore, "start_pbm_game", disk_full)
        terminal.press("n")
        await until(lambda: "Play whom" in words(terminal))
        terminal.press("ada" if game.waiting_on()[0] == 1 else "bob", Key.ENTER)
        await until(lambda: "cannot be used" in terminal.message)
        assert terminal.message.strip() == "The database cannot be used now: the disk is full."


@run_async
async def test_a_deleted_opponents_game_is_won_and_listed_as_such(database: Database) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        mail = door.records.mail
        assert mail is not None
        await mail.start(ada, "Bob", seed=9)
        await door.store.delete_member("Ada")
        shown, lines = await mail_list_read(door, bob)
        assert "None going" in shown, lines
        assert "(deleted member) You won: their account was removed (0 to 0)." in shown
