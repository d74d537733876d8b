"""Attack bench: one hostile caller at a time, and a well-behaved witness beside it.

Starts the real server (one process, default settings) on free loopback ports, once per
attack. A witness logs in over telnet from 127.0.0.1 and, while the attack runs, toggles
an option in the lobby every 100 ms and times each key to the screen change it causes.
The attacker is a separate process (this script run with ``--attacker KIND``) whose
connections come from 127.0.0.2. For each attack it prints the witness's key-to-screen
p50/p95/max, the server's RSS before / at its peak / 10 s after the attacker left, the
server's CPU seconds, how long the CPU took to go idle after the attacker left, and what
the attack itself found (silent connections dropped after, passwords tried per
connection, whether the owner got in).

Attacks (``--attacks`` picks some, comma-separated):
  flood-telnet, flood-ssh    a guest writes keys as fast as it can (``--flood-seconds``)
  resize-telnet, resize-ssh  a guest sends window-size changes and never reads
  silent                     ``--silent`` connections (half telnet, half SSH) say nothing
  subneg                     twenty 1 MiB unterminated telnet IAC SB before log-in
  hammer                     wrong passwords for member Ada over telnet and SSH, while
                             Ada logs in from her own address
  lookalike                  a guest calls themselves "Аda" (Cyrillic А) while Ada is on

Run: python bench/attacks.py [--attacks flood-telnet,silent] [--flood-seconds 60]
Every run is bounded: each attack by its flag, the whole by the sum.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import cpu_seconds, free_port, rss_kib  # noqa: E402  (sibling scripts)
from load_bot import IAC, NAWS, SB, SE, MiniTelnet  # noqa: E402

WITNESS_ADDRESS = "127.0.0.1"
ATTACKER_ADDRESS = "127.0.0.2"
SERVER_HOST = "127.0.0.1"
OWNER, OWNER_PASSWORD = "Ada", "correct horse battery"
ALL_ATTACKS = (
    "flood-telnet",
    "flood-ssh",
    "resize-telnet",
    "resize-ssh",
    "silent",
    "subneg",
    "hammer",
    "lookalike",
)
KEY_INTERVAL = 0.1
ANSWER_TIMEOUT = 5.0


# --- clients --------------------------------------------------------------------------


class TelnetLine:
    """A telnet caller over MiniTelnet: raw bytes in ``received``, and a pyte screen."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.telnet = MiniTelnet(writer)
        self.reader, self.writer = reader, writer
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.closed = False
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.pump = asyncio.create_task(self._pump())

    @classmethod
    async def open(cls, port: int, source: str) -> TelnetLine:
        reader, writer = await asyncio.open_connection(
            SERVER_HOST, port, local_addr=(source, 0), limit=1 << 20
        )
        return cls(reader, writer)

    async def _pump(self) -> None:
        try:
            while data := await self.reader.read(65536):
                text = self.telnet.strip(data)
                if text:
                    self.received += text
                    self.stream.feed(text)
                    self.arrived.set()
        except OSError:
            pass
        finally:
            self.closed = True
            self.arrived.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """Until one of ``texts`` shows on the screen (returns it) or the line closes ("")."""
        deadline = time.monotonic() + timeout
        while True:
            for text in texts:
                if text in self.text:
                    return text
            if self.closed:
                return ""
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"none of {texts!r} arrived; screen:\n{self.text}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(remaining, 0.5))

    async def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()
        self.pump.cancel()


async def telnet_guest(port: int, source: str, name: str) -> TelnetLine:
    line = await TelnetLine.open(port, source)
    await line.wait_for("G guest")
    await line.send("g")
    await line.wait_for("Your name:")
    await line.send(f"{name}\r")
    await line.wait_for("Play the computer")
    return line


async def telnet_login(port: int, source: str, handle: str, password: str) -> tuple[str, float]:
    """Log in over telnet; (what came of it, seconds from the password to the answer)."""
    line = await TelnetLine.open(port, source)
    try:
        await line.wait_for("G guest")
        await line.send("l")
        await line.wait_for("Password:")
        await line.send(f"{handle}\r")
        await asyncio.sleep(0.1)
        started = time.monotonic()
        await line.send(f"{password}\r")
        found = await line.wait_for(
            "Play the computer", "saved game", "locked", "Wrong", "Too many", "wait", timeout=30
        )
        elapsed = time.monotonic() - started
        return ("in" if found in ("Play the computer", "saved game") else found or "closed"), (
            elapsed
        )
    except TimeoutError:
        return "no answer", 30.0
    finally:
        line.close()


async def ssh_login(port: int, source: str, handle: str, password: str) -> tuple[str, float]:
    started = time.monotonic()
    try:
        connection = await asyncio.wait_for(
            asyncssh.connect(
                SERVER_HOST,
                port,
                username=handle,
                password=password,
                known_hosts=None,
                client_keys=None,
                local_addr=(source, 0),
            ),
            30,
        )
    except asyncssh.PermissionDenied:
        return "refused", time.monotonic() - started
    except (OSError, asyncssh.Error, TimeoutError) as error:
        return type(error).__name__, time.monotonic() - started
    connection.close()
    return "in", time.monotonic() - started


class Witness:
    """A telnet guest in the lobby, toggling the runs option: ``1`` shows "free", ``2``
    shows "exact"; each key is timed to the arrival of the word it brings."""

    def __init__(self, line: TelnetLine) -> None:
        self.line = line
        self.latencies: list[float] = []
        self.unanswered = 0
        self.turn = 0

    async def press(self) -> None:
        key, answer = ("2", b"exact") if self.turn % 2 == 0 else ("1", b"free")
        self.turn += 1
        start_at = len(self.line.received)
        started = time.perf_counter()
        await self.line.send(key)
        deadline = started + ANSWER_TIMEOUT
        while answer not in self.line.received[start_at:]:
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self.line.closed:
                self.unanswered += 1
                self.latencies.append(ANSWER_TIMEOUT)
                return
            self.line.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.line.arrived.wait(), remaining)
        self.latencies.append(time.perf_counter() - started)

    async def keep_pressing(self, until: Callable[[], bool]) -> None:
        while not until():
            began = time.monotonic()
            await self.press()
            await asyncio.sleep(max(0.0, KEY_INTERVAL - (time.monotonic() - began)))


# --- the attacker (a process of its own) -------------------------------------------------


async def flood_telnet(args: argparse.Namespace) -> dict[str, object]:
    line = await telnet_guest(args.telnet_port, ATTACKER_ADDRESS, "Flooder")
    chunk = b"12" * 2048
    sent = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline and not line.closed:
        line.writer.write(chunk)
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(line.writer.drain(), 1.0)
        sent += len(chunk)
    line.close()
    return {"keys_sent": sent}


async def flood_ssh(args: argparse.Namespace) -> dict[str, object]:
    connection = await asyncssh.connect(
        SERVER_HOST,
        args.ssh_port,
        username="guest",
        known_hosts=None,
        client_keys=None,
        local_addr=(ATTACKER_ADDRESS, 0),
    )
    process = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    received = bytearray()

    async def pump() -> None:
        with contextlib.suppress(Exception):
            while data := await process.stdout.read(65536):
                if len(received) < 65536:
                    received.extend(data)

    pumping = asyncio.create_task(pump())
    while b"Your name:" not in received:
        await asyncio.sleep(0.05)
    process.stdin.write(b"SshFlooder\r")
    await asyncio.sleep(1.0)
    chunk = b"12" * 2048
    sent = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline and not process.stdin.is_closing():
        process.stdin.write(chunk)
        with contextlib.suppress(TimeoutError, asyncssh.Error, OSError):
            await asyncio.wait_for(process.stdin.drain(), 1.0)
        sent += len(chunk)
    connection.abort()
    pumping.cancel()
    return {"keys_sent": sent}


async def resize_telnet(args: argparse.Namespace) -> dict[str, object]:
    line = await telnet_guest(args.telnet_port, ATTACKER_ADDRESS, "Resizer")
    line.pump.cancel()  # from now on, never read
    sent = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        burst = bytearray()
        for _ in range(200):
            cols, rows = 60 + sent % 60, 20 + sent % 30
            burst += bytes([IAC, SB, NAWS, 0, cols, 0, rows, IAC, SE])
            sent += 1
        line.writer.write(bytes(burst))
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(line.writer.drain(), 1.0)
        await asyncio.sleep(0)
    line.writer.transport.abort()
    return {"resizes_sent": sent}


async def resize_ssh(args: argparse.Namespace) -> dict[str, object]:
    connection = await asyncssh.connect(
        SERVER_HOST,
        args.ssh_port,
        username="guest",
        known_hosts=None,
        client_keys=None,
        local_addr=(ATTACKER_ADDRESS, 0),
    )
    process = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    received = bytearray()
    while b"Your name:" not in received:
        received += await process.stdout.read(65536)
    process.stdin.write(b"SshResizer\r")
    await asyncio.sleep(1.0)
    # Never read again: the channel's window fills and the server must hold or drop.
    sent = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        for _ in range(50):
            process.change_terminal_size(60 + sent % 60, 20 + sent % 30)
            sent += 1
        await asyncio.sleep(0.001)
    connection.abort()
    return {"resizes_sent": sent}


async def silent(args: argparse.Namespace) -> dict[str, object]:
    """Open connections that say nothing; report how long the server kept each."""
    opened_at: list[float] = []
    closed_after: list[float] = []
    refused = 0

    async def hold(port: int) -> None:
        nonlocal refused
        try:
            reader, writer = await asyncio.open_connection(
                SERVER_HOST, port, local_addr=(ATTACKER_ADDRESS, 0)
            )
        except OSError:
            refused += 1
            return
        started = time.monotonic()
        opened_at.append(started)
        try:
            while await asyncio.wait_for(reader.read(65536), args.seconds):
                pass  # what the server says is ignored; the caller never answers
            closed_after.append(time.monotonic() - started)
        except (TimeoutError, OSError):
            if not reader.at_eof():
                return
            closed_after.append(time.monotonic() - started)
        finally:
            writer.transport.abort()

    ports = [args.telnet_port, args.ssh_port]
    holders = [asyncio.create_task(hold(ports[n % 2])) for n in range(args.count)]
    print(json.dumps({"event": "held"}), flush=True)
    await asyncio.gather(*holders, return_exceptions=True)
    closed_after.sort()
    return {
        "connections": args.count,
        "refused_at_connect": refused,
        "closed_by_server": len(closed_after),
        "still_open": args.count - refused - len(closed_after),
        "last_closed_after": closed_after[-1] if closed_after else None,
    }


async def subneg(args: argparse.Namespace) -> dict[str, object]:
    """Twenty telnet connections each send a 1 MiB subnegotiation that never ends."""
    payload = bytes([IAC, SB, 24]) + b"A" * (1 << 20)

    async def one() -> bool:
        try:
            reader, writer = await asyncio.open_connection(
                SERVER_HOST, args.telnet_port, local_addr=(ATTACKER_ADDRESS, 0)
            )
            writer.write(payload)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(writer.drain(), args.seconds)
            closed = False
            with contextlib.suppress(TimeoutError):
                while await asyncio.wait_for(reader.read(65536), 2.0):
                    pass
                closed = True
            writer.transport.abort()
            return closed
        except OSError:
            return True

    results = await asyncio.gather(*(one() for _ in range(args.count)))
    return {"connections": args.count, "closed_by_server": sum(results)}


async def hammer(args: argparse.Namespace) -> dict[str, object]:
    """Wrong passwords for the owner's account, over telnet and SSH, until time is up."""
    deadline = time.monotonic() + args.seconds
    telnet_tries: list[int] = []
    ssh_tries: list[int] = []

    async def telnet_connection(number: int) -> None:
        line = await TelnetLine.open(args.telnet_port, ATTACKER_ADDRESS)
        tries = 0
        try:
            while time.monotonic() < deadline and tries < args.max_tries:
                found = await line.wait_for("any key", "locked", "G guest", "Password:", timeout=15)
                if not found or line.closed:
                    break
                if found == "G guest":
                    await line.send("l")
                    await line.wait_for("Password:", timeout=15)
                    found = "Password:"
                if found in ("any key", "locked"):
                    await line.send(" ")
                    await asyncio.sleep(0.2)
                    continue
                if line.closed:
                    break
                sent_at = len(line.received)
                await line.send("\x7f" * 24 + f"{OWNER}\r" + f"guess{number}x{tries}\r")
                tries += 1
                # Until the door answers this password (it may delay the answer up to a
                # minute) or closes the line.
                end = min(deadline + 5, time.monotonic() + 65)
                answers = (b"Wrong handle", b"Too many", b"try again later", b"locked")
                while not line.closed and time.monotonic() < end:
                    if any(answer in line.received[sent_at:] for answer in answers):
                        break
                    line.arrived.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(line.arrived.wait(), 0.5)
                await asyncio.sleep(0.3)
        except TimeoutError:
            pass
        finally:
            telnet_tries.append(tries)
            line.close()

    class Guesser(asyncssh.SSHClient):
        def __init__(self) -> None:
            self.tries = 0

        def password_auth_requested(self) -> str | None:
            if self.tries >= args.max_tries or time.monotonic() > deadline:
                return None
            self.tries += 1
            return f"sshguess{self.tries}"

    async def ssh_connection() -> None:
        guesser = Guesser()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                asyncssh.connect(
                    SERVER_HOST,
                    args.ssh_port,
                    username=OWNER,
                    known_hosts=None,
                    client_keys=None,
                    client_factory=lambda: guesser,
                    local_addr=(ATTACKER_ADDRESS, 0),
                ),
                max(1.0, deadline - time.monotonic() + 5),
            )
        ssh_tries.append(guesser.tries)

    async def telnet_loop() -> None:
        number = 0
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, TimeoutError):
                await telnet_connection(number)
            number += 1

    async def ssh_loop() -> None:
        while time.monotonic() < deadline:
            await ssh_connection()

    await asyncio.gather(telnet_loop(), telnet_loop(), ssh_loop())
    return {
        "telnet_connections": len(telnet_tries),
        "telnet_max_tries_per_connection": max(telnet_tries, default=0),
        "telnet_tries": sum(telnet_tries),
        "ssh_connections": len(ssh_tries),
        "ssh_max_tries_per_connection": max(ssh_tries, default=0),
        "ssh_tries": sum(ssh_tries),
    }


async def lookalike(args: argparse.Namespace) -> dict[str, object]:
    results: dict[str, object] = {}
    for name in ("\u0410da", "A\u200bda", "\uff21da", "Sys\u043ep"):
        line = await TelnetLine.open(args.telnet_port, ATTACKER_ADDRESS)
        try:
            await line.wait_for("G guest")
            await line.send("g")
            await line.wait_for("Your name:")
            await line.send(f"{name}\r".encode())
            found = await line.wait_for("Play the computer", "choose another", "Please", timeout=10)
            results[ascii(name)] = "accepted" if found == "Play the computer" else "refused"
        except TimeoutError:
            results[ascii(name)] = "no answer"
        finally:
            line.close()
        await asyncio.sleep(0.2)
    return results


ATTACKERS: dict[str, Callable[[argparse.Namespace], Awaitable[dict[str, object]]]] = {
    "flood-telnet": flood_telnet,
    "flood-ssh": flood_ssh,
    "resize-telnet": resize_telnet,
    "resize-ssh": resize_ssh,
    "silent": silent,
    "subneg": subneg,
    "hammer": hammer,
    "lookalike": lookalike,
}


def attacker_main(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(ATTACKERS[args.attacker](args))
    except Exception as error:  # a bench reports, it does not stop
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps({"event": "done", **result}), flush=True)
    return 0


# --- the bench (server, witness, measurements) -------------------------------------------


@dataclass
class Figures:
    attack: str
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    rss_before: float = 0.0
    rss_peak: float = 0.0
    rss_after: float = 0.0
    cpu_during: float = 0.0
    idle_after: float | None = None
    seconds: float = 0.0
    found: dict[str, object] = field(default_factory=dict)


class Server:
    def __init__(self, root: Path, name: str) -> None:
        self.data_dir = root / name
        self.data_dir.mkdir()
        self.telnet_port, self.ssh_port = free_port(), free_port()
        self.log = open(self.data_dir / "server.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "door.cli",
                "--telnet-port",
                str(self.telnet_port),
                "--ssh-port",
                str(self.ssh_port),
                "--data-dir",
                str(self.data_dir),
                "--host",
                SERVER_HOST,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            cwd=self.data_dir,  # no config/door.toml there: the defaults
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        waiting = {self.telnet_port, self.ssh_port}
        while waiting and time.monotonic() < deadline:
            for port in list(waiting):
                try:
                    socket.create_connection((SERVER_HOST, port), 0.2).close()
                    waiting.discard(port)
                except OSError:
                    time.sleep(0.1)
        if waiting:
            raise RuntimeError("the server never listened")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def attacker_command(kind: str, server: Server, args: argparse.Namespace) -> list[str]:
    seconds = {
        "flood-telnet": args.flood_seconds,
        "flood-ssh": args.flood_seconds,
        "resize-telnet": args.storm_seconds,
        "resize-ssh": args.storm_seconds,
        "silent": args.silent_wait,
        "subneg": 20.0,
        "hammer": args.hammer_seconds,
        "lookalike": 30.0,
    }[kind]
    count = {"silent": args.silent, "subneg": 20}.get(kind, 1)
    return [
        sys.executable,
        __file__,
        "--attacker",
        kind,
        "--telnet-port",
        str(server.telnet_port),
        "--ssh-port",
        str(server.ssh_port),
        "--seconds",
        str(seconds),
        "--count",
        str(count),
    ]


async def sample_server(pid: int, figures: Figures, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(OSError):
            figures.rss_peak = max(figures.rss_peak, rss_kib(pid) / 1024)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.2)


async def run_attack(kind: str, root: Path, args: argparse.Namespace) -> Figures:
    figures = Figures(kind)
    server = Server(root, kind)
    try:
        await asyncio.to_thread(server.wait_ready)
        return await attack_with_witness(kind, server, figures, args)
    finally:
        server.stop()


async def attack_with_witness(
    kind: str, server: Server, figures: Figures, args: argparse.Namespace
) -> Figures:
    pid = server.pid
    owner: TelnetLine | None = None
    if kind in ("hammer", "lookalike"):
        line = await TelnetLine.open(server.telnet_port, WITNESS_ADDRESS)
        await line.wait_for("G guest")
        await line.send("n")
        await line.wait_for("Password again:")
        await line.send(f"{OWNER}\r{OWNER_PASSWORD}\r{OWNER_PASSWORD}\r")
        await line.wait_for("Your account is ready.")
        await line.send("\r")
        await line.wait_for("Play the computer")
        if kind == "lookalike":
            owner = line  # stays online
        else:
            await line.send("q")
            await asyncio.sleep(0.5)
            line.close()
    witness = Witness(await telnet_guest(server.telnet_port, WITNESS_ADDRESS, "Witness"))
    for _ in range(10):  # warm up: the first keys of a session are slower
        await witness.press()
    witness.latencies.clear()
    witness.unanswered = 0
    await asyncio.sleep(1.0)
    figures.rss_before = figures.rss_peak = rss_kib(pid) / 1024
    cpu_start = cpu_seconds(pid)
    started = time.monotonic()
    stop_sampling = asyncio.Event()
    sampling = asyncio.create_task(sample_server(pid, figures, stop_sampling))
    attacker = await asyncio.create_subprocess_exec(
        *attacker_command(kind, server, args), stdout=asyncio.subprocess.PIPE
    )
    assert attacker.stdout is not None
    done = asyncio.Event()
    lines: list[dict[str, object]] = []

    async def read_attacker() -> None:
        assert attacker.stdout is not None
        while raw := await attacker.stdout.readline():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(raw))
        await attacker.wait()
        done.set()

    reading = asyncio.create_task(read_attacker())
    extra: dict[str, object] = {}

    async def during() -> None:
        if kind == "silent":
            # While the silent connections are held, can a new caller still come in?
            await asyncio.sleep(3.0)
            began = time.monotonic()
            try:
                line = await asyncio.wait_for(
                    telnet_guest(server.telnet_port, WITNESS_ADDRESS, "Newcomer"), 20
                )
                extra["new_caller_admitted_in"] = round(time.monotonic() - began, 2)
                line.close()
            except (TimeoutError, OSError) as error:
                extra["new_caller_admitted_in"] = f"not admitted ({type(error).__name__})"
        if kind == "hammer":
            await asyncio.sleep(args.hammer_seconds / 2)
            how, seconds = await telnet_login(
                server.telnet_port, WITNESS_ADDRESS, OWNER, OWNER_PASSWORD
            )
            extra["owner_telnet_login"] = f"{how} in {seconds:.2f} s"
            how, seconds = await ssh_login(server.ssh_port, WITNESS_ADDRESS, OWNER, OWNER_PASSWORD)
            extra["owner_ssh_login"] = f"{how} in {seconds:.2f} s"

    checking = asyncio.create_task(during())
    await witness.keep_pressing(done.is_set)
    await reading
    with contextlib.suppress(Exception):
        await asyncio.wait_for(checking, 40)
    left = time.monotonic()
    figures.seconds = left - started
    figures.cpu_during = cpu_seconds(pid) - cpu_start
    figures.latencies = witness.latencies
    figures.unanswered = witness.unanswered
    # After the attacker left: when does the CPU go quiet, and where does memory settle?
    previous = cpu_seconds(pid)
    while time.monotonic() - left < args.after:
        await asyncio.sleep(0.5)
        now = cpu_seconds(pid)
        if figures.idle_after is None and now - previous < 0.05:
            figures.idle_after = time.monotonic() - left
        previous = now
    figures.rss_after = rss_kib(pid) / 1024
    stop_sampling.set()
    await sampling
    figures.found = (
        {**{k: v for k, v in lines[-1].items() if k != "event"}, **extra} if lines else extra
    )
    witness.line.close()
    if owner is not None:
        owner.close()
    return figures


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else 0.0


def report(all_figures: list[Figures], args: argparse.Namespace) -> None:
    print()
    print(
        f"{'attack':<14} {'secs':>5} {'keys':>5} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}"
        f" {'lost':>4} {'RSS before':>10} {'peak':>7} {'+10s':>7} {'CPU s':>6} {'idle after':>10}"
    )
    for f in all_figures:
        idle = f"{f.idle_after:.1f} s" if f.idle_after is not None else f"> {args.after:.0f} s"
        print(
            f"{f.attack:<14} {f.seconds:5.0f} {len(f.latencies):5d}"
            f" {percentile(f.latencies, 0.5):7.1f} {percentile(f.latencies, 0.95):7.1f}"
            f" {max(f.latencies, default=0) * 1000:7.1f} {f.unanswered:4d}"
            f" {f.rss_before:8.0f}MB {f.rss_peak:5.0f}MB {f.rss_after:5.0f}MB"
            f" {f.cpu_during:6.1f} {idle:>10}"
        )
    print()
    for f in all_figures:
        if f.found:
            print(f"{f.attack}: " + ", ".join(f"{k}={v}" for k, v in f.found.items()))


async def bench(args: argparse.Namespace) -> None:
    kinds = [kind.strip() for kind in args.attacks.split(",") if kind.strip()]
    unknown = [kind for kind in kinds if kind not in ALL_ATTACKS]
    if unknown:
        raise SystemExit(f"unknown attacks: {', '.join(unknown)}; known: {', '.join(ALL_ATTACKS)}")
    results = []
    with tempfile.TemporaryDirectory() as root:
        for kind in kinds:
            print(f"{kind}...", flush=True)
            try:
                results.append(await run_attack(kind, Path(root), args))
            except Exception as error:  # report what ran, and why one did not
                print(f"  {kind} failed: {type(error).__name__}: {error}", flush=True)
    report(results, args)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attacks", default=",".join(ALL_ATTACKS))
    parser.add_argument("--flood-seconds", type=float, default=60.0)
    parser.add_argument("--storm-seconds", type=float, default=20.0)
    parser.add_argument("--silent", type=int, default=300, help="silent connections")
    parser.add_argument(
        "--silent-wait", type=float, default=75.0, help="how long silent connections wait"
    )
    parser.add_argument("--hammer-seconds", type=float, default=30.0)
    parser.add_argument("--after", type=float, default=10.0, help="seconds watched after")
    # The attacker process's own arguments.
    parser.add_argument("--attacker", choices=sorted(ATTACKERS), help=argparse.SUPPRESS)
    parser.add_argument("--telnet-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ssh-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--max-tries", type=int, default=30, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attacker:
        return attacker_main(args)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parent.parent))
    asyncio.run(bench(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
