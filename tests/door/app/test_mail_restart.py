"""A play-by-mail game on the real server over loopback, across a restart: Ada starts it
over telnet and makes her moves; the server stops and starts again on the same
database; Bob calls in over SSH, is told it is his move, sees what Ada did and makes his;
Ada calls back and finds the game where Bob left it. Overdue games are forfeited when
the server starts."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from pathlib import Path

from door.competition.pbm import PbmRules
from door.storage.pbm_games import PbmGameStore
from door.storage.settings import SQLITE_FILE_NAME
from door.storage.store import Seat, Store
from door.term.keys import encode_key
from engine.rules.record import Recording
from tests.door.app.test_accounts_server import door_config, running
from tests.door.caller import answer
from tests.door.netclients import Caller, SSHCaller, TelnetCaller
from tests.door.storage.conftest import FAST_HASHER
from tests.door.test_end_to_end import quiet

PLAY_CARDS_ROW, MESSAGE_ROW, STATUS_ROW = 10, 22, 23
MAIL_KEYS = "N new game"
BACK = "RETURN back to your mail games"


async def store_at(data_dir: Path) -> Store:
    return await Store.open(
        f"sqlite+aiosqlite:///{data_dir / SQLITE_FILE_NAME}", hasher=FAST_HASHER
    )


async def take_turn(caller: Caller) -> None:
    """At a mail table: what the status line asks for, until the table lets go."""
    for _ in range(300):
        await quiet(caller)
        status = caller.screen.display[STATUS_ROW]
        if BACK in status:
            return
        for key in answer(status):
            await caller.send(key if isinstance(key, str) else encode_key(key))
    raise AssertionError("the turn never ended:\n" + caller.text)


def mail_lines(caller: Caller) -> list[str]:
    """The numbered lines of the mail screen."""
    return [line for line in caller.screen.display[2:18] if re.match(r"\s+\d+ ", line)]


def test_a_mail_game_goes_on_across_a_restart_over_telnet_and_ssh(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await store_at(tmp_path)
        await store.create_account("Bob", "correct horse")
        await store.close()

        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet
            ada = TelnetCaller()
            await ada.connect(listening.telnet[1])
            await ada.sign_up("Ada", "correct horse")
            await ada.wait_for("F Mail games")
            await ada.send("f")
            await ada.wait_for(MAIL_KEYS)
            # The cut for the deal decides who moves first: start games until Ada deals.
            for number in range(1, 13):
                await ada.send("n")
                await ada.wait_for("Play whom")
                await ada.send("Bob\r")
                await ada.wait_for(f"Game {number} against Bob is started")
                if "your move against Bob" in mail_lines(ada)[-1]:
                    break
            else:
                raise AssertionError("Bob dealt in twelve games running")
            await ada.send(str(number))
            await ada.wait_for("blank line: deal")
            await take_turn(ada)  # the deal and her throw
            assert "It is Bob's turn to throw to the crib" in ada.words
            await ada.send("\r")
            await ada.wait_for("Bob's move (2 days 23 hours left)")  # 3 days less the moments since
            ada.hang_up()

        async with running(door_config(tmp_path)) as listening:
            assert listening.ssh and listening.telnet
            bob = SSHCaller()
            await bob.connect(listening.ssh[1], "Bob", password="correct horse")
            await bob.wait_for("press F.")
            assert "Your move" in bob.words
            await bob.send("f")
            await bob.wait_for(MAIL_KEYS)
            assert "your move against Ada (2 days 23 hours left)" in mail_lines(bob)[number - 1]
            await bob.send(str(number))
            await bob.wait_for("RETURN mark")
            assert "Ada deals" in bob.words  # what Ada did since, told to Bob
            await take_turn(bob)  # his throw, the cut, his first card
            assert "It is Ada's turn to play" in bob.words
            count_row = bob.screen.display[PLAY_CARDS_ROW]
            count = re.search(r"count (\d+)", bob.words)
            assert count_row.strip() and count, bob.text
            await bob.send("\r")
            await bob.wait_for("Ada's move (2 days 23 hours left)")

            ada = TelnetCaller()
            await ada.connect(listening.telnet[1])
            await ada.log_in("Ada", "correct horse")
            await ada.wait_for("press F.")
            await ada.send("f")
            await ada.wait_for(MAIL_KEYS)
            assert "your move against Bob (2 days 23 hours left)" in mail_lines(ada)[number - 1]
            await ada.send(str(number))
            await ada.wait_for("RETURN play")
            await quiet(ada)
            # The same cards on the count as Bob left them, and it is Ada's turn on it.
            assert ada.screen.display[PLAY_CARDS_ROW] == count_row
            assert f"Your turn, the count is {count.group(1)}" in ada.screen.display[MESSAGE_ROW]
            assert "Bob plays" in ada.words
            bob.hang_up()
            ada.hang_up()

    asyncio.run(scenario())


def test_a_game_out_of_time_is_forfeited_when_the_server_starts(tmp_path: Path) -> None:
    async def scenario() -> tuple[bool, int]:
        store = await store_at(tmp_path)
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "correct horse")
        long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=4)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            Seat("Ada", ada.id), Seat("Bob", bob.id), Recording(seed=3), PbmRules(3), long_ago
        )
        await store.close()
        async with running(door_config(tmp_path)):
            pass
        store = await store_at(tmp_path)
        try:
            game = await PbmGameStore(store).pbm_game(pbm_id)
            stats = await store.stats_for("Ada")
            games = stats.total.games if stats is not None else 0
            return game.finished, games
        finally:
            await store.close()

    finished, games = asyncio.run(scenario())
    assert finished and games == 1
