"""Leaving a game that counts (issue #43, item 5): a member who quits a rated best-of-3
against another member forfeits the match. The game in play is recorded as their loss
(record and rating), both are told, and the other is not left playing the computer. Who
leaves while the other's line is down forfeits nothing to them: the game ends counted for
neither, or, once the reconnect wait is over, as the dropped caller's forfeit.
Fake terminals against a real store (SQLite, and PostgreSQL when
CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import asyncio
import faulthandler

from door.config import config_from_mapping
from door.storage.ratings import RatingStore
from door.storage.store import Account
from door.table.flow import Table
from door.term.keys import Key
from tests.door.app.test_lobby import challenge, in_lobby, screen
from tests.door.app.test_saved_games import AccountDoor, account_door
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until


def flat(terminal: object) -> str:
    return " ".join(" ".join(terminal.display).split())  # type: ignore[attr-defined]


async def rated_game_dealt(
    door: AccountDoor,
) -> tuple[Account, Account, KeyboardTerminal, KeyboardTerminal, Table]:
    """Members Ada and Bob at a rated game of Ada's challenge, its first hand dealt (by
    whichever cut low): their accounts, their terminals and the table."""
    ada = await door.store.create_account("Ada", "correct horse")
    bob = await door.store.create_account("Bob", "battery staple")
    ada_terminal, _ = door.call(ada)
    bob_terminal, _ = door.call(bob)
    await in_lobby(ada_terminal, bob_terminal)
    ada_terminal.press("e")
    await until(lambda: "E rated" in screen(ada_terminal))
    await challenge(ada_terminal, bob_terminal)
    await until(lambda: bool(door.presence.tables))
    terminals = (ada_terminal, bob_terminal)
    await until(lambda: any("blank line: deal" in t.status for t in terminals))
    next(t for t in terminals if "blank line: deal" in t.status).press(Key.ENTER)
    return ada, bob, ada_terminal, bob_terminal, door.presence.tables[0]


@run_async
async def test_quitting_a_rated_match_between_members_forfeits_it_and_says_so(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        ada_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(ada_terminal, bob_terminal)
        ada_terminal.press("e", "m")
        await until(lambda: "E rated" in screen(ada_terminal))
        await until(lambda: "best of 3" in screen(ada_terminal))
        await challenge(ada_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await until(lambda: "Esc table keys" in bob_terminal.status)

        # Bob asks to quit: the dialog says what it costs him.
        bob_terminal.press(Key.CTRL_C)
        await until(lambda: "forfeit the match to Ada" in flat(bob_terminal))
        assert "your rating" in flat(bob_terminal)
        bob_terminal.press("y")

        # Ada is not left playing the computer: the table ends, and says why.
        await until(lambda: "RETURN back to the lobby" in ada_terminal.status)
        assert "Bob left and forfeits the match to Ada" in flat(ada_terminal)
        assert not any(seat.computer_plays for seat in table.seats)
        outcome = table.game.outcome()
        assert outcome is not None and outcome.forfeited_by == 1 and outcome.winner_side == 0

        # Bob is told in the lobby, with his rating; the store has the loss.
        await in_lobby(bob_terminal)
        await until(lambda: "Bob left and forfeits the match to Ada. Rating" in flat(bob_terminal))
        assert (await RatingStore(door.store).rating(ada.id)).rating > 1500
        assert (await RatingStore(door.store).rating(bob.id)).rating < 1500

        async def losses() -> int:
            stats = await door.store.stats_for("Bob")
            assert stats is not None
            return sum(line.losses for line in stats.modes if line.opponent == "people")

        await until(losses, what="Bob's loss in the store")  # the saver writes off the game's path
        assert await losses() == 1
        ada_terminal.press(Key.ENTER)
        await in_lobby(ada_terminal)
        assert "Bob left and forfeits the match to Ada. Rating" in flat(ada_terminal)


@run_async
async def test_quitting_a_friendly_game_still_hands_the_seat_to_the_computer(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        ada_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(ada_terminal, bob_terminal)
        await challenge(ada_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await until(lambda: "Esc table keys" in bob_terminal.status)
        bob_terminal.press(Key.CTRL_C)
        await until(lambda: "the computer plays your seat" in flat(bob_terminal))
        bob_terminal.press("y")
        await until(lambda: table.seats[1].computer_plays)
        assert not table.over and table.game.outcome() is None


@run_async
async def test_quitting_a_rated_game_while_choosing_the_discard_ends_it_for_both(
    database: Database,
) -> None:
    # Before the fix the quitter's unanswered discard sent the table round a loop with
    # no await (nobody in the seat, the seat not away): the whole door froze, every
    # caller with it, and no until() could time out. The watchdog makes that a failure.
    faulthandler.dump_traceback_later(90, exit=True)
    try:
        async with account_door(database) as door:
            _, _, ada_terminal, bob_terminal, table = await rated_game_dealt(door)
            await until(lambda: "RETURN mark" in bob_terminal.status)  # his throw is asked
            bob_terminal.press(Key.CTRL_C)
            await until(lambda: "forfeit the game to Ada" in flat(bob_terminal))
            bob_terminal.press("y")
            await until(lambda: "RETURN back to the lobby" in ada_terminal.status)
            assert "Bob left and forfeits the game to Ada" in flat(ada_terminal)
            outcome = table.game.outcome()
            assert table.over and outcome is not None and outcome.forfeited_by == 1
            await in_lobby(bob_terminal)
            await until(lambda: "forfeits the game to Ada. Rating" in flat(bob_terminal))
    finally:
        faulthandler.cancel_dump_traceback_later()


async def bob_dropped_and_ada_quits(
    door: AccountDoor,
) -> tuple[Account, Account, KeyboardTerminal, Table]:
    """A rated game of Ada and Bob, dealt; Bob's line drops, Ada hands his seat to the
    computer (p) and asks to quit: their accounts, Ada's terminal (at the quit dialog)
    and the table."""
    ada, bob, ada_terminal, bob_terminal, table = await rated_game_dealt(door)
    bob_terminal.hang_up()
    await play_together([ada_terminal], stop=lambda: "p computer plays for" in ada_terminal.status)
    ada_terminal.press("p")
    await until(lambda: "The computer plays for Bob" in flat(ada_terminal))
    ada_terminal.press(Key.CTRL_C)
    await until(lambda: "Quit this game?" in flat(ada_terminal))
    return ada, bob, ada_terminal, table


def dialog(terminal: KeyboardTerminal) -> str:
    """The words inside the dialog's borders, its lines run on."""
    rows = [
        row[row.index("║") + 1 : row.rindex("║")] for row in terminal.display if row.count("║") >= 2
    ]
    return " ".join(" ".join(rows).split())


async def people_games(door: AccountDoor, name: str) -> int:
    stats = await door.store.stats_for(name)
    assert stats is not None
    return sum(line.games for line in stats.modes if line.opponent == "people")


@run_async
async def test_quitting_after_p_while_the_others_line_is_down_counts_for_neither(
    database: Database,
) -> None:
    # Before the fix Ada, who stayed, forfeited the game to Bob, whose line had dropped:
    # a loss in her record and 162 rating points off, for his dropped line.
    async with account_door(database) as door:
        ada, bob, ada_terminal, table = await bob_dropped_and_ada_quits(door)
        said = "Bob's line is down: leave now and this game ends, counted for neither of you."
        assert said in dialog(ada_terminal)
        ada_terminal.press("y")
        await in_lobby(ada_terminal)
        await until(lambda: "Ada left while Bob's line was down" in flat(ada_terminal))
        assert table.over and table.abandoned and table.game.outcome() is None
        await table.until_saved()
        ratings = RatingStore(door.store)
        assert (await ratings.rating(ada.id)).rating == 1500
        assert (await ratings.rating(bob.id)).rating == 1500
        assert await people_games(door, "Ada") == 0 and await people_games(door, "Bob") == 0


@run_async
async def test_quitting_once_the_reconnect_wait_is_over_is_the_dropped_callers_forfeit(
    database: Database,
) -> None:
    async with account_door(database) as door:
        door.config = config_from_mapping(
            {"game": {"computer_pause_seconds": 0, "level": "easy", "reconnect_wait_seconds": 1}}
        )
        ada, bob, ada_terminal, table = await bob_dropped_and_ada_quits(door)
        ada_terminal.press(Key.ESCAPE)  # not yet: once the wait is over
        await asyncio.sleep(1.1)
        ada_terminal.press(Key.CTRL_C)
        await until(
            lambda: "Bob has not called back: leave now and Bob forfeits" in dialog(ada_terminal)
        )
        ada_terminal.press("y")
        told = "Bob did not call back within 1 second, and forfeits the game to Ada."
        await in_lobby(ada_terminal)
        await until(lambda: f"{told} Rating" in flat(ada_terminal))
        outcome = table.game.outcome()
        assert outcome is not None and outcome.forfeited_by == 1 and outcome.winner_side == 0
        assert (await RatingStore(door.store).rating(ada.id)).rating > 1500
        assert (await RatingStore(door.store).rating(bob.id)).rating < 1500

        async def bobs_games() -> int:
            return await people_games(door, "Bob")

        await until(bobs_games, what="Bob's loss in the store")


@run_async
async def test_quitting_between_two_games_of_a_rated_match_forfeits_the_match_and_no_game(
    database: Database,
) -> None:
    # The dialog said "a loss in your record and your rating", but between games no game
    # is in play: the match is lost, and nothing more is rated or recorded.
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        ada_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(ada_terminal, bob_terminal)
        ada_terminal.press("e", "m")
        await until(lambda: "E rated" in screen(ada_terminal))
        await until(lambda: "best of 3" in screen(ada_terminal))
        await challenge(ada_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await play_together(
            [ada_terminal, bob_terminal],
            stop=lambda: table.match is not None and any(table.match.wins),
        )
        ratings = RatingStore(door.store)

        async def rated() -> bool:  # game 1, in the background
            return (await ratings.rating(ada.id)).rating != 1500

        await until(rated, what="game 1 rated")
        after_one = [(await ratings.rating(a.id)).rating for a in (ada, bob)]
        bob_terminal.press(Key.CTRL_C)
        await until(lambda: "Quit this game?" in flat(bob_terminal))
        said = "Leave now and you forfeit the match to Ada; its games stay as they ended."
        assert said in dialog(bob_terminal)
        bob_terminal.press("y")
        await until(lambda: "Bob left and forfeits the match to Ada." in flat(ada_terminal))
        await table.until_saved()
        assert [(await ratings.rating(a.id)).rating for a in (ada, bob)] == after_one
        assert await people_games(door, "Bob") == 1  # the game played, and no other
