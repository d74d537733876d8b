"""A game between members is saved after every action, with how its table was set: when
the door stops mid-game (no clean-up: a new door on the same store stands for the
restart), the first of them to call back finds the table set again where it stood, the
same kind of table (a rated match stays a rated match), and the other sits down when
they call."""

from __future__ import annotations

from door.app.table_settings import read_settings, settings_text
from door.table.options import GameOptions
from engine.rules.outcome import Outcome
from tests.door.app.test_lobby import challenge, in_lobby
from tests.door.app.test_saved_games import AccountDoor, account_door, screen
from tests.door.caller import play_together, run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until


def test_table_settings_read_back_as_written() -> None:
    options = GameOptions(runs="exact", players=2, best_of=5, rated=True, turn_seconds=60)
    games = (Outcome(1, (97, 121), ((0, "skunk"),)), Outcome(0, (121, 40), ((1, "double skunk"),)))
    assert read_settings(settings_text(options, games)) == (options, games)


def test_settings_that_do_not_read_leave_a_plain_game() -> None:
    for text in (None, "", "not json", '{"options": {"players": 9}}', '{"match": []}'):
        assert read_settings(text) == (None, ())
    bad_skunk = settings_text(GameOptions(), (Outcome(0, (121, 80), ((1, "skunk"),)),))
    assert read_settings(bad_skunk.replace('"skunk"', '"rm -rf"')) == (None, ())


@run_async
async def test_a_rated_match_set_again_after_a_restart_is_still_a_rated_match(
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
        await play_together(
            [ada_terminal, bob_terminal], stop=lambda: len(table.game.recording.actions) >= 10
        )
        await until(lambda: table.saved_as() is not None)
        game_id = table.saved_as()

        # The door stops without a word; a new one on the same store takes the calls.
        restarted = AccountDoor(door.store)
        try:
            ada_again, _ = restarted.call(ada)
            await until(lambda: bool(restarted.presence.tables))
            resumed = restarted.presence.tables[0]
            assert resumed.saved_as() == game_id
            assert resumed.options.rated and resumed.options.best_of == 3
            assert resumed.match is not None and resumed.match.games == ()
            await until(lambda: "it goes on where it was saved" in " ".join(ada_again.display))
            bob_again, _ = restarted.call(bob)
            await until(lambda: all(seat.person is not None for seat in resumed.seats))
            await play_together(
                [ada_again, bob_again],
                stop=lambda: resumed.match is not None and len(resumed.match.games) == 1,
            )
        finally:
            restarted.presence.close_tables()
            for task in restarted.tasks:
                task.cancel()
