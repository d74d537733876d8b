"""Whole games over real sockets: a telnet caller and an SSH caller, each against the
computer, and against each other with a dropped line in the middle."""

import asyncio
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from door.app.door import Door
from door.config import config_from_mapping
from door.serve import Listening, run_server
from door.table.flow import Table
from door.term.keys import encode_key
from tests.door.caller import answer, answer_at_table
from tests.door.cycles import collector_off, ours_in_cycles
from tests.door.netclients import Caller, SSHCaller, TelnetCaller, free_port
from tests.door.waiting import until

QUIET = 0.12  # seconds without output: the door is waiting for a key
# (a caller over a socket has no other sign of it: the door says nothing when it waits)


async def quiet(caller: Caller) -> None:
    while True:
        before = caller.received
        await asyncio.sleep(QUIET)
        if caller.received == before:
            return


async def play_one_game(caller: Caller) -> str:
    """Answer the status line until the game-over box; returns that screen."""
    await caller.wait_for("Play the computer")
    await caller.send("p")
    for _ in range(3000):
        await quiet(caller)
        status = caller.screen.display[23]
        if "y play again" in status:
            over = caller.text
            await caller.send("n")
            await caller.wait_for("Play the computer")
            await caller.send("q")
            await caller.wait_for("Leave the door?")
            await caller.send("y")
            await caller.wait_for("Thanks for playing")
            return over
        for key in answer(status):
            await caller.send(key if isinstance(key, str) else encode_key(key))
    raise AssertionError("the game never ended:\n" + caller.text)


def test_a_telnet_and_an_ssh_caller_each_play_a_whole_game(tmp_path: Path) -> None:
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(tmp_path),
            },
            "game": {"computer_pause_seconds": 0, "level": "expert"},
        }
    )

    async def scenario() -> tuple[list[str], Counter[str]]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.telnet and listening.ssh
        telnet, ssh = TelnetCaller(), SSHCaller()
        await telnet.connect(listening.telnet[1])
        await ssh.connect(listening.ssh[1], username="guest")
        await telnet.come_as_guest("Tess")
        await ssh.give_name("Sam")
        screens = await asyncio.wait_for(
            asyncio.gather(play_one_game(telnet), play_one_game(ssh)), 600
        )
        await until_gone(door, 0)
        left = ours_in_cycles()
        stop.set()
        await asyncio.wait_for(server, 10)
        return screens, left

    with collector_off():
        screens, left = asyncio.run(scenario())
    # Two whole calls and games, ended: nothing of them waits for the cycle collector.
    assert not left, left
    for screen in screens:
        match = re.search(r"(You|Computer) wins?, (\d+) to (\d+)", screen)
        assert match, screen
        winner_score, loser_score = int(match.group(2)), int(match.group(3))
        assert winner_score >= 121 > loser_score
        # the board's rail shows the same two scores
        rail = screen.splitlines()[4]
        shown = sorted(int(n) for n in re.findall(r" (\d+) \((?:above|below)\)", rail))
        assert shown == sorted([winner_score, loser_score]), rail


async def until_gone(door: Door, callers: int) -> None:
    """Wait until the door's callers are down to ``callers`` (sessions ended)."""
    await until(
        lambda: door.caller_count == callers,
        5.0,
        what=lambda: f"{callers} callers on ({door.caller_count} are)",
    )


async def play_until(callers: list[Caller], stop: Callable[[], bool], limit: float = 300) -> None:
    """Each caller presses what their status line asks for once their screen has been
    still for a moment, until ``stop`` says so."""
    deadline = asyncio.get_running_loop().time() + limit
    seen = [-1] * len(callers)
    while not stop():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the game never got there:\n" + callers[0].text)
        await asyncio.sleep(QUIET / 2)
        for index, caller in enumerate(callers):
            if caller.received != seen[index]:
                seen[index] = caller.received  # still drawing: look again later
                continue
            keys = answer_at_table(caller.screen.display[23])
            for key in keys or ():
                await caller.send(key if isinstance(key, str) else encode_key(key))
            if keys:
                seen[index] = -1


def test_two_callers_chat_play_drop_and_call_back_over_telnet_and_ssh(tmp_path: Path) -> None:
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(tmp_path),
            },
            "game": {"computer_pause_seconds": 0},
        }
    )

    async def scenario() -> tuple[Table, list[str], tuple[int, ...]]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.telnet and listening.ssh
        tess, sam = TelnetCaller(), SSHCaller()
        await tess.connect(listening.telnet[1])
        await tess.come_as_guest("Tess")
        await tess.wait_for("Press a key from the menu")
        await sam.connect(listening.ssh[1], username="guest")
        await sam.give_name("Sam")
        await tess.wait_for("Sam ")
        number = re.search(r"(\d)\s+Sam ", tess.text)
        assert number, tess.text
        await tess.send("w" + number.group(1))  # Tess challenges Sam: Tess is player 1
        await sam.wait_for("Tess challenges you")
        await sam.send("y")
        await tess.wait_for("Chat: ")
        await sam.wait_for("Chat: ")
        table = door.presence.tables[0]
        assert table.names == ("Tess", "Sam")

        # Before the first hand both chat; the dealer's blank line deals.
        dealer, other = (tess, sam) if table.game.dealer == 0 else (sam, tess)
        other_name = table.names[1 - table.game.dealer]
        await other.send("hello from across the table\r")
        await dealer.wait_for(f"{other_name}: hello from across the table")
        await other.wait_for(f"{other_name}: hello from across the table")
        await dealer.send("\r")
        await tess.wait_for("RETURN mark")

        # Into the second hand, then Tess's line drops.
        await play_until([tess, sam], lambda: table.game.hand_number >= 2)
        tess.hang_up()
        await sam.wait_for("Tess's line has dropped.")
        await until_gone(door, 1)
        # Her session ended on a dropped line, mid-game: nothing of it is left in a cycle.
        assert not ours_in_cycles()
        await play_until([sam], lambda: "p computer plays for Tess" in sam.screen.display[23])
        standing = tuple(table.game.scores)

        # Tess calls back under the same name and is back at her seat.
        tess = TelnetCaller()
        await tess.connect(listening.telnet[1])
        await tess.come_as_guest("Tess")
        await tess.wait_for("You are back at the table")
        await sam.wait_for("Tess is back.")
        assert tuple(table.game.scores) == standing

        await play_until([tess, sam], lambda: table.over, limit=400)
        await tess.wait_for("Game over")
        await sam.wait_for("Game over")
        screens = [tess.text, sam.text]
        stop.set()
        await asyncio.wait_for(server, 10)
        return table, screens, standing

    with collector_off():
        table, screens, standing = asyncio.run(scenario())
    scores = tuple(table.game.scores)
    assert max(scores) >= 121 > min(scores)
    assert all(now >= then for now, then in zip(scores, standing, strict=True))
    winner = table.game.winner_side
    assert winner is not None
    high, low = max(scores), min(scores)
    tess_headline = f"You win, {high} to {low}!" if winner == 0 else f"Sam wins, {high} to {low}."
    sam_headline = f"You win, {high} to {low}!" if winner == 1 else f"Tess wins, {high} to {low}."
    assert tess_headline in screens[0] and sam_headline in screens[1]
    for screen in screens:
        rail = screen.splitlines()[4]
        assert f"Tess {scores[0]} (above)" in rail and f"Sam {scores[1]} (below)" in rail
    assert not any(seat.computer_plays for seat in table.seats)  # nobody handed Tess over
