"""One caller of the load bench: a telnet or SSH connection that plays whole games.

A bot keeps just enough of the screen to play: the last two rows (the message and the
status line, which says what keys work now), kept by a small parser of the sequences
the door sends (cursor moves, erases, colours). It presses what a player would: it moves
the highlight bar, marks and throws two cards, cuts, plays, says go, deals again and
plays another game, each key after a short think.

Every key is timed from the moment it is sent to the first byte of screen that follows
it. A bot sends a key only when the screen has answered the one before and the status
line offers a move, so a frame can never be booked to the wrong key; a key unanswered
after ``KEY_TIMEOUT`` seconds is counted as a failure and never left out.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

import asyncssh

KEY_TIMEOUT: Final = 5.0
SIGN_IN_TIMEOUT: Final = 60.0
RIGHT: Final = b"\x1b[C"
ENTER: Final = b"\r"

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
TTYPE, NAWS, ECHO, SGA = 24, 31, 1, 3

Send = Callable[[bytes], Awaitable[None]]

_CARDS = re.compile(r"1-(\d) move")
_SEQUENCE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b[^\[]|[\r\n\b]")
_COMPLETE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[^\[])")


RULE_ROW: Final = 16
"""The row of an 80x24 table screen where the win bar stands (door/screens/layout.py)."""


class BottomRows:
    """The text of an 80x24 screen's last two rows, and the win bar's row with which of
    its cells are dimmed (bold black: a bar not worked out yet), kept from the door's
    output."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols, self.rows = cols, rows
        self.row, self.col = 0, 0
        self.kept = {rows - 2: [" "] * cols, rows - 1: [" "] * cols, RULE_ROW: [" "] * cols}
        self.rule_dim = [False] * cols
        self._bold, self._fg = False, 39
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""

    @property
    def status(self) -> str:
        return "".join(self.kept[self.rows - 1])

    @property
    def message(self) -> str:
        return "".join(self.kept[self.rows - 2])

    @property
    def bar(self) -> str:
        """The win bar as shown: "" (none on screen), "dim" (an earlier moment's, while the
        new one is worked out) or "current"."""
        row = "".join(self.kept[RULE_ROW])
        percent = row.find("%")
        if "Win:" not in row or percent < 1:
            return ""
        return "dim" if self.rule_dim[percent - 1] else "current"

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decoder.decode(data)
        self._pending = ""
        escape = text.rfind("\x1b")
        if escape >= 0 and not _COMPLETE.match(text, escape):
            # A sequence cut by the socket: keep its start for the next piece.
            text, self._pending = text[:escape], text[escape:]
        position = 0
        for match in _SEQUENCE.finditer(text):
            self._write(text[position : match.start()])
            position = match.end()
            self._control(match)
        self._write(text[position:])

    def _write(self, text: str) -> None:
        if not text:
            return
        line = self.kept.get(self.row)
        if line is not None:
            dim = self._bold and self._fg in (30, 90) if self.row == RULE_ROW else False
            for char in text[: max(0, self.cols - self.col)]:
                line[self.col] = char
                if self.row == RULE_ROW:
                    self.rule_dim[self.col] = dim
                self.col += 1
        else:
            self.col = min(self.cols, self.col + len(text))

    def _control(self, match: re.Match[str]) -> None:
        whole = match.group(0)
        if whole == "\r":
            self.col = 0
        elif whole == "\n":
            self.row = min(self.rows - 1, self.row + 1)
        elif whole == "\b":
            self.col = max(0, self.col - 1)
        elif match.group(2):
            self._csi(match.group(1), match.group(2))

    def _csi(self, params: str, final: str) -> None:
        if params.startswith("?"):
            return  # cursor shown or hidden
        numbers = [int(part) if part else 0 for part in params.split(";")] if params else []
        first = numbers[0] if numbers else 0
        if final == "m":
            self._style(numbers or [0])
            return
        if final in "Hf":
            row = numbers[0] if numbers else 1
            col = numbers[1] if len(numbers) > 1 else 1
            self.row, self.col = max(0, row - 1), max(0, col - 1)
        elif final == "A":
            self.row = max(0, self.row - max(1, first))
        elif final == "B":
            self.row = min(self.rows - 1, self.row + max(1, first))
        elif final == "C":
            self.col = min(self.cols, self.col + max(1, first))
        elif final == "D":
            self.col = max(0, self.col - max(1, first))
        elif final == "G":
            self.col = max(0, max(1, first) - 1)
        elif final == "K":
            line = self.kept.get(self.row)
            if line is not None:
                start = {0: self.col, 1: 0, 2: 0}.get(first, self.col)
                end = {0: self.cols, 1: self.col + 1, 2: self.cols}.get(first, self.cols)
                line[start:end] = [" "] * (end - start)
        elif final == "J" and first == 2:
            for line in self.kept.values():
                line[:] = [" "] * self.cols

    def _style(self, numbers: list[int]) -> None:
        for number in numbers:
            if number == 0:
                self._bold, self._fg = False, 39
            elif number == 1:
                self._bold = True
            elif number == 22:
                self._bold = False
            elif 30 <= number <= 39 or 90 <= number <= 97:
                self._fg = number


def keys_for(status: str, rng: random.Random, message: str = "") -> list[bytes] | None:
    """What a player presses for what the status line offers (and the message line
    says); None: nothing to do yet (the computer is thinking, or a frame is on its
    way)."""
    if "Press a key from the menu" in status:
        return [b"p"]  # the lobby: play the computer
    if "blank line: deal" in status:
        return [ENTER]
    if "RETURN mark" in status or "RETURN play" in status:
        # The bar wraps round; with one card it cannot move, and the key bar offers no
        # moving ("1-1 move" before the door said nothing of it, as --repo may run).
        cards = _CARDS.search(status)
        if cards is None or int(cards.group(1)) == 1:
            return [ENTER]
        # RETURN on the card just marked would do nothing: move on before marking again.
        # So would RETURN again on a card that was just refused.
        again = "RETURN mark" in status or "cannot pass 31" in message
        moves = 1 + rng.randrange(2) if again else rng.randrange(3)
        return [RIGHT] * moves + [ENTER]
    if "RETURN throw" in status or "RETURN go on" in status:
        return [ENTER]
    if "RETURN cut" in status:
        return [str(rng.randrange(4, 37)).encode(), ENTER]
    if "your count" in status:
        return [b"0", ENTER]
    if "y play again" in status or "y next game" in status:
        return [b"y"]
    return None


@dataclass
class Bot:
    """One caller: its screen, its keys and their times."""

    name: str
    rng: random.Random
    think: float
    screen: BottomRows = field(default_factory=BottomRows)
    latencies: list[float] = field(default_factory=list)
    key_bytes: list[int] = field(default_factory=list)
    failures: int = 0
    unanswered: list[str] = field(default_factory=list)
    """What the status line said when a key went unanswered (for the report)."""
    signed_in: float | None = None
    failed: str = ""
    measuring: bool = False
    bar_lags: list[float] = field(default_factory=list)
    """From a screen showing the win bar dimmed (a new moment, its bar not worked out
    yet) to the bar shown current."""
    bar_waits: int = 0
    """Times the bar showed dimmed while measuring (each lag above ended one)."""
    _bar_since: float | None = None
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    _received: int = 0
    _seen: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> None:
        self.screen.feed(data)
        self._received += len(data)
        bar = self.screen.bar
        if bar == "dim" and self._bar_since is None and self.measuring:
            # Timed from the screen that showed the moment, not from the last key: the
            # computer's plays move the game (and the bar) seconds after a key.
            self._bar_since = time.perf_counter()
            self.bar_waits += 1
        elif bar != "dim" and self._bar_since is not None:
            if bar == "current":
                self.bar_lags.append(time.perf_counter() - self._bar_since)
            self._bar_since = None
        if self.signed_in is None:
            self._seen += data[-4096:]
            del self._seen[:-8192]
        self._arrived.set()

    async def wait_for(self, text: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self._seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{text.decode()!r} never came")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                continue

    async def press(self, send: Send, key: bytes) -> bool:
        """Send ``key`` and wait for the screen to answer; False when it never did."""
        self._arrived.clear()
        before = self._received
        status, message = self.screen.status.strip(), self.screen.message.strip()
        started = time.perf_counter()
        await send(key)
        try:
            await asyncio.wait_for(self._arrived.wait(), KEY_TIMEOUT)
        except TimeoutError:
            if self.measuring:
                self.failures += 1
                self.unanswered.append(f"{key!r} at {status[:40]!r} {message!r}")
            return False
        if self.measuring:
            self.latencies.append(time.perf_counter() - started)
        # Let the rest of the frame arrive before reading the screen again.
        await asyncio.sleep(0.02)
        if self.measuring:
            self.key_bytes.append(self._received - before)
        return True

    async def play(self, send: Send, until: float) -> None:
        """Play games until the monotonic clock reaches ``until``."""
        while time.monotonic() < until:
            keys = keys_for(self.screen.status, self.rng, self.screen.message)
            if keys is None:
                self._arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._arrived.wait(), 1.0)
                continue
            offered = self.screen.status
            for key in keys:
                await asyncio.sleep(self.rng.expovariate(1 / self.think))
                if self.screen.status != offered:
                    break  # the screen moved on while the player thought: look again
                if not await self.press(send, key):
                    break
                offered = self.screen.status


class MiniTelnet:
    """Just enough telnet for a bot: says xterm and 80x24, refuses everything else.

    telnetlib3's own client runs every received byte through Python, which would make
    the bots, not the server, the thing being measured.
    """

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.pending = b""

    def _answer(self, command: int, option: int) -> None:
        if command == DO:
            if option == TTYPE:
                self.writer.write(bytes([IAC, WILL, TTYPE]))
            elif option == NAWS:
                self.writer.write(bytes([IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, 0, 24, IAC, SE]))
            else:
                self.writer.write(bytes([IAC, WONT, option]))
        elif command == WILL:
            agree = DO if option in (ECHO, SGA) else DONT
            self.writer.write(bytes([IAC, agree, option]))

    def strip(self, data: bytes) -> bytes:
        """The stream without telnet commands, which are answered."""
        data = self.pending + data
        self.pending = b""
        if IAC not in data:
            return data
        out = bytearray()
        i = 0
        while i < len(data):
            j = data.find(b"\xff", i)
            if j < 0:
                out += data[i:]
                break
            out += data[i:j]
            if j + 1 >= len(data):
                self.pending = data[j:]
                break
            command = data[j + 1]
            if command == IAC:
                out.append(IAC)
                i = j + 2
            elif command in (DO, DONT, WILL, WONT):
                if j + 2 >= len(data):
                    self.pending = data[j:]
                    break
                self._answer(command, data[j + 2])
                i = j + 3
            elif command == SB:
                end = data.find(bytes([IAC, SE]), j)
                if end < 0:
                    self.pending = data[j:]
                    break
                if data[j + 2 : j + 4] == bytes([TTYPE, 1]):
                    self.writer.write(bytes([IAC, SB, TTYPE, 0]) + b"xterm" + bytes([IAC, SE]))
                i = end + 2
            else:
                i = j + 2
        return bytes(out)


async def run_telnet(bot: Bot, port: int, source: str, until: float, measure_from: float) -> None:
    """A telnet guest: connect from ``source``, sign in, play until ``until``."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    telnet = MiniTelnet(writer)

    async def pump() -> None:
        while data := await reader.read(65536):
            if text := telnet.strip(data):
                bot.feed(text)
        bot.failed = bot.failed or "the server hung up"

    async def send(data: bytes) -> None:
        writer.write(data)
        await writer.drain()

    pumping = asyncio.create_task(pump())
    try:
        await bot.wait_for(b"G guest", SIGN_IN_TIMEOUT)
        await send(b"g")
        await bot.wait_for(b"Your name:", SIGN_IN_TIMEOUT)
        await send(f"{bot.name}\r".encode())
        await bot.wait_for(b"Play the computer", SIGN_IN_TIMEOUT)
        bot.signed_in = time.monotonic() - started
        await _play_then_measure(bot, send, until, measure_from)
    finally:
        pumping.cancel()
        writer.close()


async def run_ssh(bot: Bot, port: int, source: str, until: float, measure_from: float) -> None:
    """An SSH guest (user "guest" plays without an account), as ``run_telnet``."""
    started = time.monotonic()
    connection = await asyncssh.connect(
        "127.0.0.1",
        port,
        username="guest",
        known_hosts=None,
        client_keys=None,
        local_addr=(source, 0),
    )
    process = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)

    async def pump() -> None:
        while data := await process.stdout.read(65536):
            bot.feed(data)
        bot.failed = bot.failed or "the server hung up"

    async def send(data: bytes) -> None:
        process.stdin.write(data)

    pumping = asyncio.create_task(pump())
    try:
        await bot.wait_for(b"Your name:", SIGN_IN_TIMEOUT)
        await send(f"{bot.name}\r".encode())
        await bot.wait_for(b"Play the computer", SIGN_IN_TIMEOUT)
        bot.signed_in = time.monotonic() - started
        await _play_then_measure(bot, send, until, measure_from)
    finally:
        pumping.cancel()
        connection.close()


async def _play_then_measure(bot: Bot, send: Send, until: float, measure_from: float) -> None:
    await bot.play(send, measure_from)  # the ramp: everyone signs in and starts playing
    bot.measuring = True
    await bot.play(send, until)
    bot.measuring = False
