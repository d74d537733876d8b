"""Clicks over a real telnet line: an xterm caller is asked for SGR mouse reports,
plays the discard by clicking, and is told to stop reporting when the call ends."""

from __future__ import annotations

import asyncio
from pathlib import Path

from door.serve import Listening, run_server
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS
from tests.door.netclients import KeepsEveryByte, TelnetCaller, server_config

HAND_CARDS, STATUS, CARDS_COL, STEP = 13, 23, 11, 6


class RecordingCaller(KeepsEveryByte, TelnetCaller):
    """A telnet caller that keeps every byte it was sent."""

    def __init__(self, term: str = "xterm-256color") -> None:
        super().__init__()
        self.arrival = b""
        """What it was sent until the lobby showed (for a test to keep)."""
        self.term = term

    async def click(self, row: int, col: int) -> None:
        """A left click as xterm reports it in SGR form: 1-based, press then release."""
        await self.send(f"\x1b[<0;{col + 1};{row + 1}M\x1b[<0;{col + 1};{row + 1}m")


def test_an_xterm_caller_throws_to_the_crib_by_clicks_and_reports_stop_at_the_end(
    tmp_path: Path,
) -> None:
    config = server_config(tmp_path / "data")

    async def scenario() -> RecordingCaller:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 10)
        caller = RecordingCaller()
        await caller.connect(listening.telnet[1])
        await caller.come_as_guest("Dave")
        await caller.wait_for("P Play the computer")
        assert ASK_FOR_REPORTS.encode() in caller.raw
        await caller.send("p")
        while "RETURN mark" not in caller.screen.display[STATUS]:
            await caller.wait_for("RETURN")
            if "RETURN mark" not in caller.screen.display[STATUS]:
                await caller.send("\r")  # the deal (and any cut for it)
                await asyncio.sleep(0.05)
        await caller.click(HAND_CARDS + 1, CARDS_COL + 2)
        await caller.click(HAND_CARDS + 1, CARDS_COL + STEP + 2)
        await caller.wait_for("RETURN throw")
        status = caller.screen.display[STATUS]
        await caller.click(STATUS, status.index("RETURN throw") + 2)
        await caller.wait_for("You throw")
        # (a key sent before the next question shows is typed ahead of it, and dropped)
        for _ in range(100):
            if "Your turn, the count is" in caller.text:
                break
            if "RETURN cut" in caller.screen.display[STATUS]:
                await caller.click(9, CARDS_COL + 6)  # card 7 of the fan: picked
                await caller.wait_for("(1-40): 7")
                await caller.send("\r")
            await asyncio.sleep(0.05)
        await caller.wait_for("Your turn, the count is")
        await caller.send("q")
        await caller.wait_for("Quit this game?")
        await caller.send("y")
        await caller.wait_for("P Play the computer")
        await caller.send("q")
        await caller.wait_for("Leave the door?")
        await caller.send("y")
        await caller.wait_for_close()
        stop.set()
        await asyncio.wait_for(server, 10)
        return caller

    caller = asyncio.run(scenario())
    raw = bytes(caller.raw)
    assert raw.rfind(STOP_REPORTS.encode()) > raw.rfind(ASK_FOR_REPORTS.encode())


def test_a_member_who_turned_the_mouse_off_has_it_off_once_logged_in_on_their_next_call(
    tmp_path: Path,
) -> None:
    config = server_config(tmp_path / "data")

    async def scenario() -> tuple[RecordingCaller, RecordingCaller]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 10)
        first = RecordingCaller()
        await first.connect(listening.telnet[1])
        await first.sign_up("Ada", "correct horse battery")
        await first.wait_for("Z mouse")
        await first.send("z")
        await first.wait_for("Z no mouse")
        await first.send("q")
        await first.wait_for("Leave the door?")
        await first.send("y")
        await first.wait_for_close()
        second = RecordingCaller()
        await second.connect(listening.telnet[1])
        await second.log_in("Ada", "correct horse battery")
        await second.wait_for("Z no mouse")
        second.arrival = bytes(second.raw)
        await second.send("z")  # and on again, for the next call
        await second.wait_for("Clicks work now.")
        second.hang_up()
        stop.set()
        await asyncio.wait_for(server, 10)
        return first, second

    first, second = asyncio.run(scenario())
    assert ASK_FOR_REPORTS.encode() in first.raw
    # Asked at the arrival (nobody knows who calls yet), told to stop once logged in:
    # the lobby and everything after it sees no click.
    arrival = second.arrival
    assert arrival.rfind(STOP_REPORTS.encode()) > arrival.rfind(ASK_FOR_REPORTS.encode())
    assert ASK_FOR_REPORTS.encode() in second.raw[len(arrival) :]  # once z turned it on


def test_an_xterm_caller_chooses_at_the_arrival_by_a_click(tmp_path: Path) -> None:
    config = server_config(tmp_path / "data")

    async def scenario() -> RecordingCaller:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 10)
        caller = RecordingCaller()
        await caller.connect(listening.telnet[1])
        await caller.wait_for("Play as a guest")
        row = next(n for n, line in enumerate(caller.screen.display) if "Play as a guest" in line)
        await caller.click(row, 30)  # on the line's words, not its key
        await caller.wait_for("Who is calling?")
        await caller.give_name("Gus")
        await caller.wait_for("P Play the computer")
        caller.hang_up()
        stop.set()
        await asyncio.wait_for(server, 10)
        return caller

    caller = asyncio.run(scenario())
    assert ASK_FOR_REPORTS.encode() in caller.raw
