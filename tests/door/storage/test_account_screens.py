"""The account screens through a fake terminal, checked on the screen the caller sees."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Callable, Coroutine
from typing import Any

import asyncssh

from door.app.account_checks import (
    name_is_an_account,
    ssh_key_login,
    ssh_needs_auth,
    ssh_password_login,
)
from door.app.accounts import (
    Arrival,
    choose_arrival,
    log_in,
    offer_resume,
    show_leaderboard,
    show_stats,
    sign_up,
)
from door.app.records import Records
from door.storage.store import LoginPolicy, Seat
from door.term.display import Display
from door.term.keys import Key
from door.ui.session import Session
from engine.rules.outcome import Outcome
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import Database
from tests.door.storage.games import played_game

PASSWORD = "correct horse"
MESSAGE_ROW = 22


class Screen:
    """A screen coroutine running against a scripted caller."""

    def __init__(self, make: Callable[..., Coroutine[Any, Any, Any]], *args: Any, **kwargs: Any):
        self.terminal = KeyboardTerminal()
        self.task: asyncio.Future[Any] = asyncio.ensure_future(
            make(Session(self.terminal), *args, **kwargs)
        )

    async def type(self, *keys: Key | str) -> None:
        self.terminal.press(*keys)
        await self.terminal.until_waiting(self.task)

    @property
    def text(self) -> str:
        return "\n".join(self.terminal.display)

    @property
    def words(self) -> str:
        """The screen's words in one line: a notice wraps, so phrases may span rows."""
        return " ".join(self.text.split())

    @property
    def message(self) -> str:
        return self.terminal.display[MESSAGE_ROW].strip()

    async def result(self) -> Any:
        return await asyncio.wait_for(self.task, 5)


@run_async
async def test_signing_up_explains_each_refusal_and_never_shows_the_password(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        await store.create_account("Bob", PASSWORD)
        caller = Screen(sign_up, store)
        await caller.type()
        assert "New account" in caller.text and "starting with a letter" in caller.text

        await caller.type("Bob!", Key.ENTER)
        assert "'!' is not one" in caller.message
        await caller.type(Key.BACKSPACE, Key.BACKSPACE, Key.BACKSPACE, Key.BACKSPACE)
        await caller.type("BOB", Key.ENTER)
        assert 'Someone already has the handle "BOB"' in caller.message
        await caller.type(Key.BACKSPACE, Key.BACKSPACE, Key.BACKSPACE, "Ada", Key.ENTER)
        assert caller.message == ""

        await caller.type("short", Key.ENTER)
        assert "at least 8 characters" in caller.message
        await caller.type("battery staple", Key.ENTER, "battery stapler", Key.ENTER)
        assert "The two passwords differ" in caller.message
        await caller.type("battery staple", Key.ENTER, "battery staple")
        assert "battery" not in caller.text
        assert "*" * len("battery staple") in caller.text
        await caller.type(Key.ENTER)
        assert "Welcome, Ada! Your account is ready." in caller.words
        await caller.type(Key.ENTER)
        account = await caller.result()
        assert account is not None and account.handle == "Ada"
        assert (await store.verify_login("ada", "battery staple")).id == account.id


@run_async
async def test_logging_in_after_a_wrong_password(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        caller = Screen(log_in, store, wrong_password_delay=0)
        await caller.type("Ada", Key.ENTER, "wrong guess", Key.ENTER)
        assert caller.message.startswith("Wrong handle or password. RETURN keeps the handle")
        assert "Handle:             Ada" in caller.text  # kept: RETURN accepts it
        assert "wrong guess" not in caller.text
        await caller.type(Key.ENTER, PASSWORD, Key.ENTER)
        account = await caller.result()
        assert account is not None and account.id == ada.id


@run_async
async def test_typing_the_handle_again_after_a_wrong_password_replaces_it(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        caller = Screen(log_in, store, wrong_password_delay=0)
        await caller.type("Ada", Key.ENTER, "wrong guess", Key.ENTER)
        await caller.type("Ada")
        assert "Handle:             Ada " in caller.text and "AdaAda" not in caller.text
        await caller.type(Key.ENTER, PASSWORD, Key.ENTER)
        account = await caller.result()
        assert account is not None and account.id == ada.id


@run_async
async def test_a_locked_account_is_told_how_long_to_wait(sqlite_database: Database) -> None:
    policy = LoginPolicy(2, dt.timedelta(minutes=10), dt.timedelta(minutes=30))
    async with sqlite_database.store(policy=policy) as store:
        await store.create_account("Ada", PASSWORD)
        caller = Screen(log_in, store, handle="Ada", wrong_password_delay=0)
        await caller.type("guess one", Key.ENTER)
        await caller.type(Key.ENTER, "guess two", Key.ENTER)
        assert "Ada is locked for 30 minutes" in caller.words
        await caller.type(Key.ENTER)
        assert await caller.result() is None


@run_async
async def test_escape_leaves_the_log_in_screen(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        caller = Screen(log_in, store)
        await caller.type("Ad", Key.ESCAPE)
        assert await caller.result() is None


@run_async
async def test_a_caller_becomes_a_guest_when_the_database_fails(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        await store.create_account("Ada", PASSWORD)
        await store.close()
        assert sqlite_database.path is not None
        sqlite_database.path.write_bytes(b"ruined" * 1000)
        caller = Screen(choose_arrival, store, "Test BBS")
        await caller.type("l", "Ada", Key.ENTER, PASSWORD, Key.ENTER)
        assert "not available right now (the database file is damaged)" in caller.words
        assert "You can still play as a guest." in caller.words
        await caller.type(Key.ENTER)
        assert "G  Play as a guest" in caller.text
        await caller.type("g")
        assert await caller.result() == Arrival(None)


@run_async
async def test_without_a_store_everyone_is_a_guest() -> None:
    caller = Screen(choose_arrival, None, "Test BBS")
    await caller.type()
    assert "Accounts are off today" in caller.words
    await caller.type(Key.ENTER)
    assert (await caller.result()).guest


@run_async
async def test_the_arrival_screen_signs_up_a_new_caller(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        caller = Screen(choose_arrival, store, "Test BBS")
        await caller.type("x")
        assert "Press L to log in, N for a new account or G for a guest." in caller.message
        await caller.type("n", "Ada", Key.ENTER, PASSWORD, Key.ENTER, PASSWORD, Key.ENTER)
        await caller.type(Key.ENTER)
        arrival = await caller.result()
        assert arrival.account is not None and arrival.account.handle == "Ada"


@run_async
async def test_the_statistics_screen_shows_each_mode_and_the_best_hand(
    sqlite_database: Database,
) -> None:
    game = played_game(111)
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        seats = [Seat("Ada", ada.id), Seat("Computer")]
        for _ in range(3):
            await store.record_game_result(game.recording, seats, "computer-easy")
        stats = await store.stats_for("Ada")
        assert stats is not None
        caller = Screen(show_stats, store, "ada")
        await caller.type()
        rows = caller.terminal.display
        assert rows[0].startswith(" Statistics for Ada")
        mode_row = next(row for row in rows if row.startswith(" computer-easy free auto"))
        line = stats.total
        assert mode_row.split()[3:6] == [str(line.games), str(line.wins), str(line.losses)]
        suits = str.maketrans({"C": "♣", "D": "♦", "H": "♥", "S": "♠"})
        cards = [
            c.replace("T", "10").translate(suits) for c in (line.best_hand_cards or "").split()
        ]
        assert f"Best hand: {line.best_hand_score} points, {' '.join(cards[:4])}" in caller.text
        await caller.type("x")
        await caller.result()


@run_async
async def test_the_leaderboard_screen_switches_between_wins_and_win_rate(
    sqlite_database: Database,
) -> None:
    game = played_game(112)
    winner = game.game.winner_side
    assert winner is not None
    async with sqlite_database.store() as store:
        ids = [(await store.create_account(name, PASSWORD)).id for name in ("Ada", "Bob")]
        seats = [Seat("x", ids[1]), Seat("x", ids[1])]
        seats[winner] = Seat("x", ids[0])
        for _ in range(2):
            await store.record_game_result(game.recording, seats, "human")  # Ada 2-0, Bob 0-2
        caller = Screen(show_leaderboard, store, min_games=3)
        await caller.type()
        rows = [row.split() for row in caller.terminal.display[5:7]]
        assert rows == [["1", "Ada", "2", "2", "0", "100%"], ["2", "Bob", "2", "0", "2", "0%"]]
        await caller.type("r")
        assert "best win rate (at least 3 games)" in caller.terminal.display[0]
        assert "Nobody has played 3 games yet." in caller.text
        await caller.type("q")
        await caller.result()


def test_ssh_users_new_and_guest_come_in_without_a_password() -> None:
    assert not ssh_needs_auth("new") and not ssh_needs_auth("GUEST")
    assert ssh_needs_auth("ada")


@run_async
async def test_ssh_log_in_by_password_or_by_a_key_on_the_account(
    sqlite_database: Database,
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        await store.create_account("Bob", PASSWORD)
        await store.add_ssh_key(ada.id, key)
        by_password = await ssh_password_login(store, "ada", PASSWORD)
        assert by_password is not None and by_password.id == ada.id
        assert await ssh_password_login(store, "ada", "wrong") is None
        found = await ssh_key_login(store, "ADA", key)
        assert found is not None and found.id == ada.id
        assert await ssh_key_login(store, "bob", key) is None  # Ada's key is not Bob's
    assert await ssh_password_login(None, "ada", PASSWORD) is None


@run_async
async def test_a_guest_may_not_go_by_someones_handle(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        await store.create_account("Ada", PASSWORD)
        assert await name_is_an_account(store, "ADA")
        assert not await name_is_an_account(store, "Babbage")
    assert not await name_is_an_account(None, "Ada")


@run_async
async def test_a_caller_with_a_saved_game_is_offered_to_resume_it(
    sqlite_database: Database,
) -> None:
    partial = played_game(113, actions=50)
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        await store.start_game(
            partial.recording, [Seat("Ada", ada.id), Seat("Computer")], "computer-normal"
        )
        saved = await store.load_unfinished_game(ada.id)
    assert saved is not None
    caller = Screen(offer_resume, saved)
    await caller.type()
    scores = partial.game.scores
    assert f"the score: Ada {scores[0]}, Computer {scores[1]}." in caller.text
    await caller.type("x")
    assert "Press R to resume, A to abandon or L for later." in caller.message
    await caller.type("R")
    assert await caller.result() == "resume"


@run_async
async def test_a_screen_readers_caller_hears_the_saved_game_and_answers_in_words(
    sqlite_database: Database,
) -> None:
    partial = played_game(113, actions=50)
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        await store.start_game(
            partial.recording, [Seat("Ada", ada.id), Seat("Computer")], "computer-normal"
        )
        saved = await store.load_unfinished_game(ada.id)
    assert saved is not None
    terminal = KeyboardTerminal()
    terminal.display_mode = Display.SPEECH
    task = asyncio.ensure_future(offer_resume(Session(terminal), saved))
    await terminal.until_waiting(task)
    scores = partial.game.scores
    said = bytes(terminal.output).decode()
    assert f"the score: Ada {scores[0]}, Computer {scores[1]}.\r\n" in said
    assert said.endswith("then RETURN.\r\n") and "Type resume, abandon" in said
    # Typed as words: "ab" is no answer (its a is not taken for abandon), "later" is.
    terminal.press("ab\r")
    await terminal.until_waiting(task)
    assert (
        bytes(terminal.output)
        .decode()
        .endswith("Type resume, abandon or later.\r\n" + said.splitlines()[-1] + "\r\n")
    )
    terminal.press("later\r")
    assert await asyncio.wait_for(task, 5) == "later"
    assert "\x1b" not in bytes(terminal.output).decode()


@run_async
async def test_games_against_the_computer_are_rated_and_the_leaderboard_shows_ratings(
    sqlite_database: Database,
) -> None:
    won = Outcome(winner_side=0, scores=(121, 88))
    lost = Outcome(winner_side=1, scores=(70, 121))
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        bob = await store.create_account("Bob", PASSWORD)
        records = Records(store)
        first = await records.rate_against_computer(ada, "expert", won)
        assert first is not None and first.startswith("Rating ") and "(+" in first
        assert await records.rate_against_computer(bob, "easy", lost) is not None
        # Three players share no one-against-one rating: not rated.
        three = Outcome(winner_side=0, scores=(121, 100, 90))
        assert await records.rate_against_computer(ada, "expert", three) is None
        caller = Screen(show_leaderboard, store)
        await caller.type("a")
        assert "Leaderboard: rating" in caller.terminal.display[0]
        rows = [row.split() for row in caller.terminal.display[5:7]]
        assert [row[1] for row in rows] == ["Ada", "Bob"]
        assert int(rows[0][2].rstrip("?")) > 1500 > int(rows[1][2].rstrip("?"))
        await caller.type("q")
        await caller.result()
        record = Screen(show_stats, store, "ada")
        await record.type()
        assert re.search(r"Rating 1\d{3}\?? \(newest first: \+\d+\)", record.text)
        await record.type("x")
        await record.result()
