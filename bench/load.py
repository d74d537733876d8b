"""Load benchmark: many telnet and SSH callers playing the computer at once.

Starts the real server as a separate process on free loopback ports, connects
bots (default 200 telnet + 50 SSH) that sign in, start a game and then press a
key every 250 ms, and measures the time from each key to the first byte of the
screen update it causes. Prints p50/p99 latency, and the server's CPU and
memory per session read from /proc.

Run: python bench/load.py [--telnet 200] [--ssh 50] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

RIGHT, LEFT = b"\x1b[C", b"\x1b[D"
LOCKSTEP = False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def proc_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Bot:
    name: str
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    received: bytearray = field(default_factory=bytearray)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str = ""
    pressing: bool = False
    bytes_while_pressing: int = 0

    def feed(self, data: bytes) -> None:
        if self.pressing:
            self.bytes_while_pressing += len(data)
        self.received += data
        self.arrived.set()

    async def wait_for(self, text: bytes, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.received:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{text!r} never arrived")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), remaining)

    async def press(self, send, key: bytes, timeout: float = 2.0) -> None:
        """Send a key and time the first output that follows it."""
        self.arrived.clear()
        started = time.perf_counter()
        await send(key)
        try:
            await asyncio.wait_for(self.arrived.wait(), timeout)
        except TimeoutError:
            self.unanswered += 1
            return
        self.latencies.append(time.perf_counter() - started)


async def drive(bot: Bot, send, seconds: float, start_game: bool) -> None:
    """Sign in (telnet asks a name), start a game, then move the bar every 250 ms."""
    try:
        await bot.wait_for(b"Play the computer")
        if start_game:
            await send(b"p")
            await asyncio.sleep(1.0)
            await send(b"\r")  # a blank chat line deals the first hand
            await asyncio.sleep(1.0)
        # A key every 250 ms on the bot's own schedule. Callers are independent,
        # so each bot starts at a random phase unless --lockstep asks for the
        # worst case of every key arriving at the same instant.
        keys = (RIGHT, LEFT)
        start = time.monotonic() if LOCKSTEP else time.monotonic() + random.random() * 0.25
        if LOCKSTEP:
            start = 0.25 * (int(time.monotonic() / 0.25) + 1)
        deadline = time.monotonic() + seconds
        bot.pressing = True
        turn = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(max(0.0, start + 0.25 * turn - time.monotonic()))
            await bot.press(send, keys[turn % 2], timeout=0.24)
            turn += 1
    except Exception as error:  # a bench reports failures instead of stopping
        bot.failed = f"{type(error).__name__}: {error}"


IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
TTYPE, NAWS, ECHO, SGA = 24, 31, 1, 3


class MiniTelnet:
    """Just enough telnet for a bot: says xterm and 80x24, refuses everything else.

    telnetlib3's own client runs every received byte through Python, which
    would make the bots, not the server, the thing being measured.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.pending = b""

    def answer(self, command: int, option: int) -> None:
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
        """Remove telnet commands from the stream, answering them."""
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
                self.answer(command, data[j + 2])
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


async def telnet_bot(index: int, port: int, seconds: float, start_game: bool) -> Bot:
    bot = Bot(f"telnet{index}")
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    telnet = MiniTelnet(reader, writer)

    async def pump() -> None:
        while data := await reader.read(65536):
            text = telnet.strip(data)
            if text:
                bot.feed(text)

    async def send(data: bytes) -> None:
        writer.write(data)
        await writer.drain()

    pumping = asyncio.create_task(pump())
    await bot.wait_for(b"G guest")  # the arrival screen: log in, new account or guest
    await send(b"g")
    await bot.wait_for(b"Your name:")
    await send(f"Bot{index}\r".encode())
    await drive(bot, send, seconds, start_game)
    writer.close()
    pumping.cancel()
    return bot


async def ssh_bot(index: int, port: int, seconds: float, start_game: bool) -> Bot:
    bot = Bot(f"ssh{index}")
    # SSH user "guest" plays without an account (and gives a name), as bots do.
    connection = await asyncssh.connect(
        "127.0.0.1", port, username="guest", known_hosts=None, client_keys=None
    )
    process = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)

    async def pump() -> None:
        while data := await process.stdout.read(65536):
            bot.feed(data)

    async def send(data: bytes) -> None:
        process.stdin.write(data)

    pumping = asyncio.create_task(pump())
    await bot.wait_for(b"Your name:")
    await send(f"SshBot{index}\r".encode())
    await drive(bot, send, seconds, start_game)
    connection.close()
    pumping.cancel()
    return bot


async def run_bots(args: argparse.Namespace, telnet_port: int, ssh_port: int, pid: int) -> None:
    rss_before = proc_rss_mib(pid)
    connecting = []
    for index in range(args.telnet):
        connecting.append(telnet_bot(index, telnet_port, args.seconds, not args.menu_only))
        if index % 20 == 19:
            await asyncio.sleep(0.2)
    for index in range(args.ssh):
        connecting.append(ssh_bot(index, ssh_port, args.seconds, not args.menu_only))
    tasks = [asyncio.create_task(coroutine) for coroutine in connecting]
    # Measure the server while every bot is pressing keys.
    await asyncio.sleep(args.warmup)
    cpu_start, wall_start = proc_cpu_seconds(pid), time.monotonic()
    bots_cpu_start = time.process_time()
    await asyncio.sleep(max(1.0, args.seconds - args.warmup - 1))
    cpu_used, wall = proc_cpu_seconds(pid) - cpu_start, time.monotonic() - wall_start
    bots_cpu = (time.process_time() - bots_cpu_start) / wall
    rss_loaded = proc_rss_mib(pid)
    bots = await asyncio.gather(*tasks, return_exceptions=True)
    report(args, bots, cpu_used, wall, rss_before, rss_loaded)
    print(
        f"Bots' own CPU (this process): {bots_cpu:.1%} of one core"
        " (near 100% means the bots, not the server, limit the latency)"
    )


def report(args, bots, cpu_used, wall, rss_before, rss_loaded) -> None:
    finished = [bot for bot in bots if isinstance(bot, Bot)]
    errors = [bot for bot in bots if not isinstance(bot, Bot)]
    failed = [bot for bot in finished if bot.failed]
    latencies = sorted(lat for bot in finished for lat in bot.latencies)
    unanswered = sum(bot.unanswered for bot in finished)
    keys_pressed = sum(len(bot.latencies) + bot.unanswered for bot in finished)
    bytes_after_start = sum(bot.bytes_while_pressing for bot in finished)
    sessions = args.telnet + args.ssh
    timing = "all at the same instant" if args.lockstep else "each bot at its own phase"
    print(f"Keys every 250 ms, {timing}")
    print(
        f"Callers: {args.telnet} telnet + {args.ssh} SSH = {sessions}; "
        f"{len(errors)} could not connect, {len(failed)} failed during play"
    )
    for problem in (errors + [bot.failed for bot in failed])[:5]:
        print(f"  e.g. {problem}")
    if latencies:

        def percentile(p: float) -> float:
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

        print(
            f"Key to screen update: {len(latencies):,} keys, p50 {percentile(0.50):.1f} ms, "
            f"p90 {percentile(0.90):.1f} ms, p99 {percentile(0.99):.1f} ms, "
            f"max {latencies[-1] * 1000:.1f} ms, mean {statistics.mean(latencies) * 1000:.1f} ms; "
            f"{unanswered} keys unanswered before the next key was due"
        )
    if keys_pressed:
        per_key = bytes_after_start / keys_pressed
        print(f"Bytes to the bots while pressing keys: {per_key:,.0f} per key")
    print(
        f"Server CPU: {cpu_used / wall:.1%} of one core over {wall:.0f} s "
        f"= {cpu_used / wall / sessions * 1000:.2f} ms CPU per session per second"
    )
    print(
        f"Server memory: {rss_before:.1f} MiB idle, {rss_loaded:.1f} MiB loaded "
        f"= {(rss_loaded - rss_before) / sessions * 1024:.0f} KiB per session"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--telnet", type=int, default=200)
    parser.add_argument("--ssh", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--menu-only", action="store_true", help="stay in the menu")
    parser.add_argument(
        "--lockstep", action="store_true", help="every bot presses at the same instant"
    )
    args = parser.parse_args()
    global LOCKSTEP
    LOCKSTEP = args.lockstep
    telnet_port, ssh_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        config = Path(data_dir) / "door.toml"
        config.write_text(
            "[server]\nidle_warning_seconds = 600\nidle_timeout_seconds = 900\n"
            "max_sessions = 1000\n"
        )
        server_log = open(Path(data_dir) / "server.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "door.cli",
                "--config",
                str(config),
                "--telnet-port",
                str(telnet_port),
                "--ssh-port",
                str(ssh_port),
                "--data-dir",
                data_dir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=server_log,
        )
        try:
            deadline = time.monotonic() + 30
            waiting = {telnet_port, ssh_port}
            while waiting and time.monotonic() < deadline:
                for port in list(waiting):
                    try:
                        socket.create_connection(("127.0.0.1", port), 0.2).close()
                        waiting.discard(port)
                    except OSError:
                        time.sleep(0.1)
            asyncio.run(run_bots(args, telnet_port, ssh_port, server.pid))
        finally:
            server.terminate()
            stopped = time.monotonic()
            server.wait(60)
            print(f"Server stopped {time.monotonic() - stopped:.1f} s after SIGTERM")
            server_log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
