"""A rated game between members that one of them stalls (door/table/stalls.py): the other
claims it, and it ends as the staller's forfeit, as quitting would: recorded as their
loss, rated, both told in plain words at the table and in the lobby. Fake terminals
against a real store (SQLite, and PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL names a
server)."""

from __future__ import annotations

from door.config import config_from_mapping
from door.storage.ratings import RatingStore
from door.term.keys import Key
from tests.door.app.test_forfeits import rated_game_dealt
from tests.door.app.test_lobby import in_lobby
from tests.door.app.test_saved_games import account_door
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until

CLAIM = "Ada claimed the game: Bob had not moved for 1 second, and forfeits it."


def flat(terminal: object) -> str:
    return " ".join(" ".join(terminal.display).split())  # type: ignore[attr-defined]


@run_async
async def test_a_rated_game_stalled_by_bob_is_claimed_by_ada_and_rated_as_his_forfeit(
    database: Database,
) -> None:
    async with account_door(database) as door:
        door.config = config_from_mapping(
            {"game": {"computer_pause_seconds": 0, "level": "easy", "claim_after_seconds": 1}}
        )
        ada, bob, ada_terminal, bob_terminal, table = await rated_game_dealt(door)
        terminals = (ada_terminal, bob_terminal)
        await until(lambda: "RETURN mark" in ada_terminal.status)
        ada_terminal.press(Key.ENTER, "2", Key.ENTER, Key.ENTER)  # Ada throws two cards
        # Bob sits on his throw, chatting: his line stays alive, the game waits.
        await until(lambda: "RETURN mark" in bob_terminal.status)
        bob_terminal.press("c", "thinking", Key.ENTER)
        await until(lambda: "may claim the game in" in flat(bob_terminal), what="Bob warned")
        await until(lambda: "g claim the game" in ada_terminal.status, what="Ada's offer")
        ada_terminal.press("g")

        await until(lambda: "RETURN back to the lobby" in ada_terminal.status)
        await until(lambda: "RETURN back to the lobby" in bob_terminal.status)
        for terminal in terminals:
            assert CLAIM in flat(terminal)
        # The game-over box says it was claimed: nobody left the game.
        assert "You claimed the game: you win by forfeit." in flat(ada_terminal)
        assert "Claimed from you at 0: it counts as a loss." in flat(bob_terminal)
        assert "left the game" not in flat(ada_terminal) + flat(bob_terminal)
        outcome = table.game.outcome()
        assert outcome is not None and outcome.forfeited_by == 1 and outcome.winner_side == 0
        bob_terminal.press(Key.ENTER)
        await in_lobby(bob_terminal)
        await until(lambda: f"{CLAIM} Rating" in flat(bob_terminal))
        assert (await RatingStore(door.store).rating(ada.id)).rating > 1500
        assert (await RatingStore(door.store).rating(bob.id)).rating < 1500

        async def losses() -> int:
            stats = await door.store.stats_for("Bob")
            assert stats is not None
            return sum(line.losses for line in stats.modes if line.opponent == "people")

        await until(losses, what="Bob's loss in the store")
        assert await losses() == 1

        # The stored game and Bob's record say it was claimed: he did not leave it.
        [game] = await door.store.recent_games(account_id=bob.id)
        log = " ".join(await door.store.game_log(game.game_id))
        assert "Ada claimed the game from Bob, who kept it waiting: Ada won by forfeit." in log
        assert "left the game" not in log
        bob_terminal.press("r")
        await until(lambda: "Latest games" in flat(bob_terminal), what="Bob's record")
        assert f"#{game.game_id} " in flat(bob_terminal)
        assert "claimed from you: lost Ada vs Bob" in flat(bob_terminal)
