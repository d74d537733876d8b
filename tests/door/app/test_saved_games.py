"""Callers with accounts, on fake terminals against a real store (SQLite, and PostgreSQL
when CRIBBAGE_TEST_POSTGRES_URL names a server, as in tests/door/storage): games against
the computer saved after every action (a dropped line leaves one to resume, quitting
or abandoning it is a loss), games between callers recorded with everyone's statistics,
the statistics and leaderboard screens, and the names guests may not take."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.app.records import Records
from door.config import Config, config_from_mapping
from door.storage.ratings import RatingStore
from door.storage.store import Account, Store
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.game import Phase
from engine.rules.record import RecordedGame
from tests.door.app.test_lobby import challenge, in_lobby, in_lobby_after_game, offer_challenge
from tests.door.caller import KeyboardTerminal, answer, play_together, run_async
from tests.door.storage.conftest import FAST_HASHER, Database
from tests.door.storage.test_saver import FlakyStore
from tests.door.waiting import until
from tests.engine.rules.test_record import snapshot

RAIL_ROW, HAND_ROW = 4, 14


class AccountDoor:
    """Sessions on keyboard terminals sharing one Presence and one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.records = Records(store)
        self.config: Config = config_from_mapping(
            {"game": {"computer_pause_seconds": 0, "level": "easy"}}
        )
        self.presence = Presence("Sysop", random.Random(1))
        self.tasks: list[asyncio.Task[None]] = []

    def call(
        self, account: Account | None = None, name: str | None = None, *, sysop: bool = False
    ) -> tuple[KeyboardTerminal, asyncio.Task[None]]:
        """A caller who logged in to ``account`` (as over SSH), a guest ``name``, or the
        sysop ``name``."""
        terminal = KeyboardTerminal()
        caller = Caller(name, "test", account=account, sysop=sysop)
        rng = random.Random(len(self.tasks) + 7)
        session = run_session(terminal, self.config, caller, rng, self.presence, self.records)
        task = asyncio.ensure_future(session)
        self.tasks.append(task)
        return terminal, task

    async def close(self) -> None:
        self.presence.close_tables()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.records.close()


@asynccontextmanager
async def account_door(database: Database) -> AsyncIterator[AccountDoor]:
    store = await Store.open(database.url, connect_args=database.connect_args, hasher=FAST_HASHER)
    door = AccountDoor(store)
    try:
        yield door
    finally:
        await door.close()


def screen(terminal: KeyboardTerminal) -> str:
    return "\n".join(terminal.display)


async def press_until(terminal: KeyboardTerminal, done: str, limit: int = 3000) -> None:
    """Answer what the status line asks for until ``done`` shows on it."""
    for _ in range(limit):
        await until(lambda: terminal.reading and terminal.read == terminal.pressed)
        await asyncio.sleep(0.002)
        if not (terminal.reading and terminal.read == terminal.pressed):
            continue
        if done in terminal.status:
            return
        terminal.press(*answer(terminal.status))
    raise AssertionError(f"{done!r} never showed: {terminal.status!r}")


async def into_the_play(terminal: KeyboardTerminal) -> None:
    """From the lobby: a game against the computer, up to the caller's turn in the play
    with a card or more on the count."""
    terminal.press("p")
    for _ in range(100):
        await press_until(terminal, "RETURN play")
        if "the count is 0" not in terminal.message:
            return
        terminal.press(*answer(terminal.status))
    raise AssertionError("never a count to play on")


@run_async
async def test_a_dropped_line_leaves_the_game_saved_and_it_resumes_at_the_same_state(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal, task = door.call(ada)
        await in_lobby(terminal)
        assert "R Record  L Leaderboard" in screen(terminal)
        await into_the_play(terminal)
        before = (terminal.display[RAIL_ROW], terminal.display[HAND_ROW], terminal.message)
        terminal.hang_up()
        await until(task.done)

        saved = await door.store.load_unfinished_game(ada.id)
        assert saved is not None and saved.opponent == "computer-easy"
        game = saved.resume()
        assert game.phase is Phase.PLAY and game.count > 0

        terminal, task = door.call(ada)
        await until(lambda: "Your saved game" in screen(terminal))
        scores = f"Ada {game.scores[0]}, Computer {game.scores[1]}"
        assert f"Hand {game.hand_number}, the score: {scores}." in screen(terminal)
        terminal.press("r")
        await until(lambda: "RETURN play" in terminal.status)
        await until(lambda: terminal.reading and terminal.read == terminal.pressed)
        assert terminal.display[RAIL_ROW] == before[0]
        assert terminal.display[HAND_ROW] == before[1]
        assert terminal.message == before[2]
        assert "Your saved game goes on where it stopped" in screen(terminal)

        # Played to the end, it counts in Ada's record: a game, and its log.
        await press_until(terminal, "y play again")
        terminal.press("n")
        await in_lobby(terminal)
        stats = await door.store.stats_for("Ada")
        assert stats is not None and stats.total.games == 1
        assert stats.total.wins + stats.total.losses == 1
        assert await door.store.load_unfinished_game(ada.id) is None
        log = await door.store.game_log(saved.game_id)
        assert log[0].startswith(f"Game {saved.game_id}") and "finished" in log[0]

        # The record and the leaderboard, from the lobby.
        terminal.press("r")
        await until(lambda: "Statistics for Ada" in screen(terminal))
        assert "computer-easy free auto" in screen(terminal)
        terminal.press("x")
        await in_lobby(terminal)
        terminal.press("l")
        await until(lambda: "Leaderboard: most games won" in screen(terminal))
        assert "Ada" in screen(terminal)
        terminal.press("x")
        await in_lobby(terminal)


@run_async
async def test_quitting_a_saved_game_is_a_loss_and_nothing_is_left_to_resume(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        await into_the_play(terminal)
        terminal.press("q", "y")
        await in_lobby(terminal)
        assert "Game abandoned." in screen(terminal)
        assert await door.store.load_unfinished_game(ada.id) is None
        stats = await door.store.stats_for("Ada")
        assert stats is not None and (stats.total.games, stats.total.losses) == (1, 1)
        # A quit is rated as the loss it is, and the member is told their new rating.
        await until(lambda: "Rating " in screen(terminal))
        assert (await RatingStore(door.store).rating(ada.id)).rating < 1500


@run_async
async def test_a_saved_game_abandoned_when_offered_is_a_loss(database: Database) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal, task = door.call(ada)
        await in_lobby(terminal)
        await into_the_play(terminal)
        terminal.hang_up()
        await until(task.done)
        terminal, _ = door.call(ada)
        await until(lambda: "Your saved game" in screen(terminal))
        terminal.press("a")
        await in_lobby(terminal)
        await until(lambda: "Your saved game is abandoned" in screen(terminal))
        stats = await door.store.stats_for("Ada")
        assert stats is not None and (stats.total.games, stats.total.losses) == (1, 1)
        history = await RatingStore(door.store).rating_history(ada.id)
        assert [entry.opponent for entry in history] == ["computer-easy"]
        assert (await RatingStore(door.store).rating(ada.id)).rating < 1500


@run_async
async def test_a_game_between_callers_is_recorded_for_both_accounts(database: Database) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        alice_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(alice_terminal, bob_terminal)
        await challenge(alice_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        assert [seat.account_id for seat in table.seats] == [ada.id, bob.id]
        await play_together([alice_terminal, bob_terminal], stop=lambda: table.over)
        await in_lobby_after_game(alice_terminal, bob_terminal)
        await door.records.close()  # waits for the result to be written
        records = [await door.store.stats_for(handle) for handle in ("Ada", "Bob")]
        assert all(r is not None and r.total.games == 1 for r in records)
        assert sorted(r.total.wins for r in records if r is not None) == [0, 1]
        assert {line.opponent for r in records if r is not None for line in r.modes} == {"people"}


@run_async
async def test_a_rated_challenge_between_members_moves_both_ratings(database: Database) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        alice_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(alice_terminal, bob_terminal)
        alice_terminal.press("e")
        await until(lambda: "E rated" in screen(alice_terminal))
        await offer_challenge(alice_terminal, bob_terminal)
        await until(lambda: "challenges you" in screen(bob_terminal))
        assert "rated" in " ".join(screen(bob_terminal).split())
        bob_terminal.press("y")
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await play_together([alice_terminal, bob_terminal], stop=lambda: table.over)
        await in_lobby_after_game(alice_terminal, bob_terminal)
        for terminal in (alice_terminal, bob_terminal):
            await until(lambda terminal=terminal: "Rating " in screen(terminal))
        outcome = table.game.outcome()
        assert outcome is not None
        winner, loser = (ada, bob) if outcome.winner_side == 0 else (bob, ada)
        assert (await RatingStore(door.store).rating(winner.id)).rating > 1500
        assert (await RatingStore(door.store).rating(loser.id)).rating < 1500


@run_async
async def test_a_guest_may_not_take_a_members_handle(database: Database) -> None:
    async with account_door(database) as door:
        await door.store.create_account("Ada", "correct horse")
        terminal, _ = door.call(name="ada")
        await until(
            lambda: "ada is a member's handle: please choose another name." in screen(terminal)
        )
        terminal.press("Adam\r")
        await in_lobby(terminal)
        assert "Welcome, Adam!" in screen(terminal)
        assert "(a guest's games are not kept)" in screen(terminal)
        terminal.press("r")
        await until(lambda: "Guests have no record" in screen(terminal))


def test_a_dropped_seat_waits_only_for_the_account_that_sat_there() -> None:
    table = Table(
        GameOptions(), ["Ada", "Carl"], rng=random.Random(1), admit=Person, account_ids=[1, None]
    )  # nobody has sat down: both seats wait
    assert table.waits_for("Ada", 1) is table.seats[0]
    assert table.waits_for("ada", 1) is table.seats[0]
    assert table.waits_for("Ada", 2) is None  # another account
    assert table.waits_for("Ada", None) is None  # a guest of that name
    assert table.waits_for("Carl", None) is table.seats[1]  # a guest's seat, by name


@run_async
async def test_logging_in_on_a_second_line_may_hang_up_the_first(database: Database) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        first, first_task = door.call(ada)
        await in_lobby(first)
        second, second_task = door.call(ada)
        await until(lambda: "Ada is online on another line already." in flat(second))
        second.press("n")  # no: this line leaves, the first stays
        await until(second_task.done)
        assert "Goodbye!" in screen(second) and not first_task.done()

        third, _ = door.call(ada)
        await until(lambda: "Hang that line up" in flat(third))
        third.press("y")
        await until(first_task.done)
        assert "You have called in again on another line" in screen(first)
        await in_lobby(third)
        assert [member.name for member in door.presence.online()] == ["Ada"]
        # Ada neither left nor came: the chat says she came in, once (by hand, each
        # takeover added "Ada has left." and "Ada has come in.").
        assert [line.text for line in door.presence.chat] == ["Ada has come in."]


def flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(terminal.display).split())


@run_async
async def test_closing_the_records_waits_for_a_result_still_being_written(
    database: Database,
) -> None:
    """A game between callers that ended just before the door stopped: the store is
    closed only once its result is written."""
    store = await Store.open(database.url, connect_args=database.connect_args, hasher=FAST_HASHER)
    records = Records(store)
    ada = await store.create_account("Ada", "correct horse")
    game = RecordedGame(seed=3)
    assert records.keep_game_between_callers(game, ["Ada", "Bob"], [ada.id, None], 2)
    players = [RandomPlayer(random.Random(3 + seat)) for seat in range(2)]
    while game.phase is not Phase.OVER:  # no wait between actions: every save is to come
        next_action(game, players)
    await records.close()
    async with database.store() as again:
        stats = await again.stats_for("Ada")
    assert stats is not None and stats.total.games == 1


@run_async
async def test_a_member_back_as_soon_as_the_store_is_gets_the_game_as_they_last_saw_it(
    database: Database,
) -> None:
    """A line that drops while writes fail (a full disk) leaves the game's newest state
    with its saver, which tries again only after its wait (up to a minute). By hand: the
    caller freed the disk, called back, was offered hand 1 at 0-0 where they had left
    hand 3 at 44-41, resumed it, and the saver then wrote hand 3 over the resumed game."""
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        flaky = FlakyStore(store)
        flaky.broken = False
        records = Records(flaky)  # type: ignore[arg-type]
        kept = records.computer_game(ada, GameOptions(level="easy"), random.Random(3))
        assert kept is not None
        kept.saver.retry_seconds = 60.0  # the longest wait between tries
        seats = [RandomPlayer(random.Random(seat)) for seat in range(2)]
        for _ in range(5):
            next_action(kept.game, seats)
        await kept.saver.flush()
        flaky.broken = True  # the disk fills
        for _ in range(25):
            next_action(kept.game, seats)
        await until(lambda: flaky.failed_writes > 0, what="a write failing")
        flaky.broken = False  # room again; the saver is still waiting out its minute
        saved = await asyncio.wait_for(records.saved_game(ada), timeout=10)
        assert saved is not None
        assert snapshot(saved.resume()) == snapshot(kept.game)
        await records.close()
