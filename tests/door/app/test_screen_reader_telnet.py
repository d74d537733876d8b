"""The screen-reader mode over a real telnet connection (issue #50): S at the arrival
menu, then as a guest a game against the computer played to its end by typed words
only; from S on, the bytes sent hold no escape sequence (so no cursor movement or
clearing), no box-drawing character nor suit symbol, and the hand is named in words."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from door.config import config_from_mapping
from door.term.ansi import SHOW_CURSOR
from door.term.mouse import STOP_REPORTS
from tests.door.app.test_accounts_server import running
from tests.door.caller import run_async
from tests.door.netclients import KeepsEveryByte, TelnetCaller, free_port
from tests.door.table.reader_client import words_for

LOBBY_PROMPT = "Lobby: type a key or a word, then RETURN."
"""The lobby's prompt, said to a screen reader's caller (door/screens/lobby_speech.py)."""
DRAWING = re.compile("[\u2500-\u259f♠♥♦♣]")
"""Box drawing and blocks, and suit symbols: read out, they are noise."""


def fast_typist_config(data_dir: Path):  # type: ignore[no-untyped-def]
    """The door's defaults, but for the key rate: this client types a line the moment
    it reads a prompt, all game long, faster than the 40 keys a second a caller may."""
    server = {"telnet_port": free_port(), "ssh_port": free_port(), "data_dir": str(data_dir)}
    server |= {"key_rate": 5000.0}
    return config_from_mapping({"server": server, "game": {"computer_pause_seconds": 0}})


class ListeningCaller(KeepsEveryByte, TelnetCaller):
    """A telnet caller that keeps every byte the door sent, as a screen reader gets them."""


def assert_only_clicks_stopped(sent: bytes, said: bytes) -> None:
    """The one escape sent once a caller chose the screen reader: their terminal, asked
    for clicks, told to stop, and to show the cursor the screen hid, before the mode is
    said (a click in plain lines would be noise between typed words). Nothing else sent
    is an escape."""
    stop = (STOP_REPORTS + SHOW_CURSOR).encode()
    assert sent.count(stop) == 1 and sent.index(stop) < sent.index(said)
    assert b"\x1b" not in sent.replace(stop, b""), "an escape sequence was sent after S"


async def play_by_words(caller: ListeningCaller, mark: int, max_lines: int = 3000) -> None:
    """Type what each prompt asks until the door asks whether to play again."""
    seen, tried = mark, 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 40
    for _ in range(max_lines):
        while True:
            new = caller.since(seen)
            lines = new.rstrip().splitlines()
            typed = words_for(lines[-1], tried) if lines else None
            if typed is not None:
                break
            if loop.time() > deadline:
                raise AssertionError(f"no prompt; the last of it:\n{caller.since(mark)[-800:]}")
            await asyncio.sleep(0.005)
        seen = len(caller.raw)
        tried = tried + 1 if "the count cannot pass 31" in lines[-1] else 0
        await caller.send(typed + "\r")
        if typed == "no":
            return
    raise AssertionError("the game did not end")


@run_async
async def test_a_guest_plays_the_computer_to_the_end_in_words_over_telnet(
    tmp_path: Path,
) -> None:
    async with running(fast_typist_config(tmp_path)) as listening:
        assert listening.telnet
        caller = ListeningCaller()
        await caller.connect(listening.telnet[1])
        await caller.wait_for("S screen reader")
        mark = len(caller.raw)
        await caller.send("s")
        await caller.until_sent("Screen reader mode: plain text, one line at a time.", mark)
        await caller.send("g\r")  # a choice is a line typed, as every answer after S
        await caller.until_sent("Your name:", mark)
        await caller.send("Bob\r")
        await caller.until_sent(LOBBY_PROMPT, mark)
        await caller.send("p\r")
        await caller.until_sent("You sit down at Bob vs Computer.", mark)
        await play_by_words(caller, mark)
        await caller.until_sent("The game is over.", mark)
        # Back in the lobby, said whole, and how the game went.
        over = caller.raw.index(b"The game is over.", mark)
        await caller.until_sent(" 121 to ", over)
        await caller.until_sent(LOBBY_PROMPT, over)
        sent = caller.since(mark)
        assert_only_clicks_stopped(bytes(caller.raw[mark:]), b"Screen reader mode")
        assert DRAWING.search(sent) is None, DRAWING.search(sent)
        assert re.search(r"Your hand: 1 \w+ of \w+, 2 \w+ of \w+", sent)
        lobby = sent.index("Cribbage Door. Welcome, Bob!")
        assert sent[lobby - 2 : lobby] == "\r\n"  # on a line of its own, not after the name
        assert re.search(r"(You win|Computer wins), 121 to \d+", sent)
        caller.hang_up()


@run_async
async def test_a_member_turns_the_screen_reader_on_in_the_lobby_and_comes_back_in_it(
    tmp_path: Path,
) -> None:
    async with running(fast_typist_config(tmp_path)) as listening:
        assert listening.telnet
        first = ListeningCaller()
        await first.connect(listening.telnet[1])
        await first.sign_up("Ray", "correct horse")
        await first.wait_for("J screen reader")
        mark = len(first.raw)
        await first.send("j")
        await first.until_sent("Screen reader on, kept for your next call.", mark)
        assert_only_clicks_stopped(bytes(first.raw[mark:]), b"Screen reader on")
        first.hang_up()

        again = ListeningCaller()
        await again.connect(listening.telnet[1])
        await again.log_in("Ray", "correct horse")
        await again.until_sent(LOBBY_PROMPT, len(again.raw))
        mark = again.raw.index(b"Welcome, Ray!")  # the lobby, from its first byte
        await again.send("p\r")
        await again.until_sent("You sit down at Ray vs Computer.", mark)
        await again.until_sent("Press RETURN to deal.", mark)
        await again.send("quit\r")
        await again.until_sent("Leave the game?", mark)
        await again.send("yes\r")
        await again.until_sent(LOBBY_PROMPT, again.raw.index(b"Leave the game?"))
        after_login = again.since(mark)
        assert "\x1b" not in after_login and DRAWING.search(after_login) is None
        off = len(again.raw)
        await again.send("j\r")
        await again.until_sent("Screen reader off, kept for your next call.", off)
        assert b"\x1b[" in again.raw[off:]  # the screen is painted again
        again.hang_up()


@run_async
async def test_a_wrong_answer_at_the_arrival_is_one_sentence_then_the_prompt(
    tmp_path: Path,
) -> None:
    async with running(fast_typist_config(tmp_path)) as listening:
        assert listening.telnet
        caller = ListeningCaller()
        await caller.connect(listening.telnet[1])
        await caller.wait_for("S screen reader")
        await caller.send("s")
        await caller.until_sent("Screen reader mode: plain text, one line at a time.", 0)
        prompt = "Type l to log in, n for a new account or g for a guest, then RETURN."
        for typed in ("x", "hello"):
            mark = len(caller.raw)
            await caller.send(f"{typed}\r")
            await caller.until_sent(prompt, mark)
            await asyncio.sleep(0.2)  # anything said after the prompt would come now
            # Before: the welcome and the three choices were said again before these.
            said = caller.since(mark).split("\r\n")
            assert said == [typed, "That is not one of the choices.", prompt, ""], said
        await caller.send("g\r")  # and the menu still answers
        await caller.until_sent("Your name:", mark)
        caller.hang_up()
