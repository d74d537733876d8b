"""Attack bench: one hostile caller at a time, and a well-behaved witness beside it.

Starts the real server (one process; the defaults, with the web, RLogin or PROXY front
turned on for the attacks on them) on free loopback ports, once per attack. A witness
logs in over telnet from 127.0.0.1 and, while the attack runs, toggles an option in the
lobby every 100 ms and times each key to the screen change it causes. The attacker is a
separate process (this script run with ``--attacker KIND``) whose connections come from
127.0.0.2 (and 127.0.0.3 for an untrusted balancer). For each attack it prints the
witness's key-to-screen p50/p95, the server's CPU seconds, its RSS and open descriptors
before / at their peak / ``--after`` seconds after the attacker left, the lines the
server logged from the attack's start to then (how many at ERROR, how many tracebacks),
the sessions the witness's lobby still counts besides the witness's own then, and what
the attack itself found.

Attacks (``--only`` picks attacks or groups, comma-separated; attack_table.GROUPS):
  flood-telnet, flood-ssh    a guest writes keys as fast as it can (``--flood-seconds``)
  resize-telnet, resize-ssh  a guest sends window-size changes and never reads
  silent                     ``--silent`` connections (half telnet, half SSH) say nothing
  subneg                     twenty 1 MiB unterminated telnet IAC SB before log-in
  hammer                     wrong passwords for member Ada over telnet and SSH, while
                             Ada logs in from her own address
  lookalike                  a guest calls themselves "Аda" (Cyrillic А) while Ada is on
  banned                     the attacker's address is banned (cribbage-door ban add, as
                             the sysop would); it calls again and again, eight lines at
                             a time, over telnet and SSH: each told, none let in
  web-tunnel-flood           a telnet-tunnel guest (subprotocol telnet) floods 4,000-byte
                             frames of keys and window sizes up to 400x200 without
                             reading, then resets (``--flood-seconds``)
  web-page-flood             the same from the page's own protocol, keys only
  web-resize                 the page's guest sends resize frames and never reads
  web-malformed              resize frames {"cols": Infinity}, 1e400 and 3,000 "[", one
                             session each: does the session go on?
  web-half-open              ``--held`` upgrade requests without their last line
  web-refused                ``--refused`` WebSockets at once from one address, and one
                             from another site's page; refused ones held open
  web-silent                 ``--held`` connections to the web port that say nothing
  web-arrival-keys           six page sessions type random keys on the arrival screen
  proxy-family               v2 headers with family 0xFF and other unassigned values
  proxy-flood                refused PROXY connections, twenty at a time
  rlogin-resize              a listed system's caller floods window-size messages
  cluster-redis              two workers with Redis: a game across them, Redis killed for
                             10 s and started empty; then SIGTERM (bench/cluster_attack.py)

Run: python bench/attacks.py [--only web,proxy] [--repo PATH] [--markdown]
``--repo`` runs the server from another checkout (its ``door``), so the same bench
measures before and after a change. Every run is bounded: each attack by its flag.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
import door_attacks  # noqa: E402  (sibling scripts)
from attack_frames import proxy_v1_header  # noqa: E402
from attack_table import (  # noqa: E402
    ALL_ATTACKS,
    GROUPS,
    PROXY_ATTACKS,
    RLOGIN_ATTACKS,
    WEB_ATTACKS,
    Figures,
    LogCount,
    select_attacks,
    sessions_shown,
    table,
)
from load import cpu_seconds, free_port, rss_kib  # noqa: E402
from load_bot import IAC, NAWS, SB, SE, MiniTelnet  # noqa: E402

WITNESS_ADDRESS = "127.0.0.1"
ATTACKER_ADDRESS = "127.0.0.2"
SERVER_HOST = "127.0.0.1"
OWNER, OWNER_PASSWORD = "Ada", "correct horse battery"
WITNESS_BEHIND_PROXY = "198.51.100.1"
"""Where the witness says it comes from, through the PROXY front."""
KEY_INTERVAL = 0.1
ANSWER_TIMEOUT = 5.0


# --- clients --------------------------------------------------------------------------


class TelnetLine(door_attacks.ScreenLine):
    """A telnet caller over MiniTelnet: raw bytes in ``received``, and a pyte screen."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self.telnet = MiniTelnet(writer)
        self.reader, self.writer = reader, writer
        self.pump = asyncio.create_task(self._pump())

    @classmethod
    async def open(cls, port: int, source: str, first: bytes = b"") -> TelnetLine:
        """Connect from ``source``; ``first`` (a PROXY header) is sent before telnet."""
        reader, writer = await asyncio.open_connection(
            SERVER_HOST, port, local_addr=(source, 0), limit=1 << 20
        )
        if first:
            writer.write(first)
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

    async def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()
        self.pump.cancel()


async def telnet_guest(port: int, source: str, name: str, first: bytes = b"") -> TelnetLine:
    line = await TelnetLine.open(port, source, first)
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


async def banned(args: argparse.Namespace) -> dict[str, object]:
    """Call again and again from a banned address, eight lines at a time, until time is
    up: how many were told they are banned, and how many got any further."""
    deadline = time.monotonic() + args.seconds
    told = let_in = other = ssh_told = 0

    async def telnet_calls() -> None:
        nonlocal told, let_in, other
        while time.monotonic() < deadline:
            try:
                line = await TelnetLine.open(args.telnet_port, ATTACKER_ADDRESS)
            except OSError:
                other += 1
                continue
            try:
                found = await line.wait_for("banned", "G guest", timeout=5)
            except TimeoutError:
                found = ""
            line.close()
            told += found == "banned"
            let_in += found == "G guest"
            other += found == ""

    async def ssh_calls() -> None:
        nonlocal ssh_told, let_in, other
        while time.monotonic() < deadline:
            try:
                connection = await asyncssh.connect(
                    SERVER_HOST, args.ssh_port, username="guest", known_hosts=None,
                    client_keys=None, local_addr=(ATTACKER_ADDRESS, 0),
                )  # fmt: skip
                let_in += 1
                connection.close()
            except asyncssh.DisconnectError as error:
                ssh_told += "banned" in error.reason
                other += "banned" not in error.reason
            except OSError:
                other += 1

    await asyncio.gather(*(telnet_calls() for _ in range(6)), *(ssh_calls() for _ in range(2)))
    return {"telnet_told": told, "ssh_told": ssh_told, "let_in": let_in, "other": other}


ATTACKERS: dict[str, Callable[[argparse.Namespace], Awaitable[dict[str, object]]]] = {
    "flood-telnet": flood_telnet,
    "flood-ssh": flood_ssh,
    "resize-telnet": resize_telnet,
    "resize-ssh": resize_ssh,
    "silent": silent,
    "subneg": subneg,
    "hammer": hammer,
    "lookalike": lookalike,
    "banned": banned,
    **door_attacks.ATTACKS,
}


def attacker_main(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(ATTACKERS[args.attacker](args))
    except Exception as error:  # a bench reports, it does not stop
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps({"event": "done", **result}), flush=True)
    return 0


# --- the bench (server, witness, measurements) -------------------------------------------


def server_config(kind: str, web_port: int, rlogin_port: int) -> str:
    """The door.toml for ``kind``: the defaults, and the door under attack turned on."""
    if kind in WEB_ATTACKS:
        return f"[web]\nport = {web_port}\n"
    if kind in RLOGIN_ATTACKS:
        address = door_attacks.ATTACKER_ADDRESS
        return f'[rlogin]\nport = {rlogin_port}\nsystems = {{ "{address}" = "ATTACK" }}\n'
    if kind in PROXY_ATTACKS:
        # The witness's and the attacker's addresses are trusted balancers; 127.0.0.3 not.
        trusted = [WITNESS_ADDRESS, door_attacks.ATTACKER_ADDRESS]
        return f"[server]\nproxy_protocol = true\nproxy_addresses = {json.dumps(trusted)}\n"
    return ""


def server_environment(repo: Path) -> dict[str, str]:
    """The server's environment: ``repo``'s door first on the path, whatever is installed."""
    return {**os.environ, "PYTHONPATH": str(repo)}


def descriptors(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


class Server:
    def __init__(self, root: Path, name: str, repo: Path) -> None:
        self.data_dir = root / name
        self.data_dir.mkdir(parents=True)
        self.telnet_port, self.ssh_port = free_port(), free_port()
        self.web_port, self.rlogin_port = free_port(), free_port()
        self.proxied = name in PROXY_ATTACKS
        config = self.data_dir / "door.toml"
        config.write_text(server_config(name, self.web_port, self.rlogin_port))
        self.log_path = self.data_dir / "server.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "door.cli",
                "--config",
                str(config),
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
            cwd=self.data_dir,
            env=server_environment(repo),
        )
        self.ports = [self.telnet_port, self.ssh_port]
        if name in WEB_ATTACKS:
            self.ports.append(self.web_port)
        if name in RLOGIN_ATTACKS:
            self.ports.append(self.rlogin_port)

    @property
    def pid(self) -> int:
        return self.process.pid

    def witness_header(self) -> bytes:
        """What the witness sends first: a PROXY header when the front is on."""
        if not self.proxied:
            return b""
        return proxy_v1_header(WITNESS_BEHIND_PROXY, 40000, SERVER_HOST, self.telnet_port)

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 90
        while "ready in" not in self.log_text():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the server never got ready:\n{self.log_text()[-2000:]}")
            time.sleep(0.1)

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
        "banned": args.hammer_seconds,
        "web-tunnel-flood": args.flood_seconds,
        "web-page-flood": args.flood_seconds,
        "web-resize": args.storm_seconds,
        "web-half-open": args.held_seconds,
        "web-refused": args.held_seconds,
        "web-silent": args.held_seconds,
        "web-arrival-keys": args.storm_seconds,
        "proxy-flood": args.storm_seconds,
        "rlogin-resize": args.storm_seconds,
    }.get(kind, 30.0)
    count = {
        "silent": args.silent,
        "subneg": 20,
        "web-half-open": args.held,
        "web-silent": args.held,
        "web-refused": args.refused,
        "web-arrival-keys": 6,
    }.get(kind, 1)
    return [
        sys.executable,
        __file__,
        "--attacker",
        kind,
        "--telnet-port",
        str(server.telnet_port),
        "--ssh-port",
        str(server.ssh_port),
        "--web-port",
        str(server.web_port),
        "--rlogin-port",
        str(server.rlogin_port),
        "--seconds",
        str(seconds),
        "--count",
        str(count),
    ]


async def sample_server(pid: int, figures: Figures, stop: asyncio.Event) -> None:
    started = time.monotonic()
    timeline: list[str] = []
    next_mark = 0.0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            figures.rss_peak = max(figures.rss_peak, rss_kib(pid) / 1024)
        open_now = descriptors(pid)
        figures.fds_peak = max(figures.fds_peak, open_now)
        if time.monotonic() - started >= next_mark:  # the descriptors every 15 s
            timeline.append(f"{next_mark:.0f}s:{open_now}")
            next_mark += 15.0
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.2)
    figures.found["fds_every_15s"] = " ".join(timeline)


async def run_attack(kind: str, root: Path, args: argparse.Namespace) -> Figures:
    if kind == "cluster-redis":
        from cluster_attack import redis_outage

        return await redis_outage(root, args.repo, args.after)
    figures = Figures(kind)
    server = Server(root, kind, args.repo)
    try:
        await asyncio.to_thread(server.wait_ready)
        return await attack_with_witness(kind, server, figures, args)
    finally:
        server.stop()


async def ban_attacker(server: Server, repo: Path) -> str:
    """Ban the attacker's address as the sysop would, beside the running door, and wait
    for the door to turn it away (it reads the store every few seconds)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door.cli", "ban", "add", ATTACKER_ADDRESS,
        "--reason", "attack bench", "--config", str(server.data_dir / "door.toml"),
        "--data-dir", str(server.data_dir),
        cwd=server.data_dir, env=server_environment(repo),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    began = time.monotonic()
    found = ""
    while time.monotonic() - began < 15:
        line = await TelnetLine.open(server.telnet_port, ATTACKER_ADDRESS)
        with contextlib.suppress(TimeoutError):
            found = await line.wait_for("banned", "G guest", timeout=5)
        line.close()
        if found == "banned":
            return f"{output.decode().strip()}; in force {time.monotonic() - began:.1f} s later"
        await asyncio.sleep(0.5)
    return f"{output.decode().strip()}; not in force after 15 s"


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
    if kind == "banned":
        extra_ban = await ban_attacker(server, args.repo)
        figures.found["ban_add"] = extra_ban
    witness = Witness(
        await telnet_guest(server.telnet_port, WITNESS_ADDRESS, "Witness", server.witness_header())
    )
    for _ in range(10):  # warm up: the first keys of a session are slower
        await witness.press()
    witness.latencies.clear()
    witness.unanswered = 0
    await asyncio.sleep(1.0)
    sessions_before = sessions_shown(witness.line.text)
    figures.rss_before = figures.rss_peak = rss_kib(pid) / 1024
    figures.fds_before = figures.fds_peak = descriptors(pid)
    log_before = len(server.log_text().splitlines())
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
    figures.fds_after = descriptors(pid)
    others = 1 + (owner is not None)  # the witness, and the owner if on
    shown = sessions_shown(witness.line.text)
    if shown is not None:
        figures.sessions_left = shown - others
        waited = time.monotonic()
        while (shown or 0) > others and time.monotonic() - waited < args.ghost_wait:
            await asyncio.sleep(0.5)
            shown = sessions_shown(witness.line.text)
        if figures.sessions_left:
            gone = (shown or 0) <= others
            figures.found["sessions_gone"] = (
                f"{args.after + time.monotonic() - waited:.0f} s after"
                if gone
                else f"still {shown - others} at {args.after + args.ghost_wait:.0f} s"  # type: ignore[operator]
            )
    figures.log = LogCount.of("\n".join(server.log_text().splitlines()[log_before:]))
    stop_sampling.set()
    await sampling
    found = {k: v for k, v in lines[-1].items() if k != "event"} if lines else {}
    figures.found = {
        **found,
        **extra,
        "sessions_before": None if sessions_before is None else sessions_before - 1,
        "idle_after": f"{figures.idle_after:.1f} s" if figures.idle_after else f"> {args.after} s",
        **figures.found,
    }
    witness.line.close()
    if owner is not None:
        owner.close()
    return figures


def describe_checkout(repo: Path) -> str:
    """Which door is under attack: the folder, its commit, and whether its C is built."""
    commit = subprocess.run(
        ["git", "-C", str(repo), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    line = f"server code: {repo} at {commit or 'an unknown commit'}"
    if not list((repo / "door" / "term").glob("_lay*.so")):
        line += " (no compiled C parts built there: its door runs on the Python, more CPU)"
    return line


async def bench(args: argparse.Namespace) -> None:
    try:
        kinds = select_attacks(args.only, ALL_ATTACKS, GROUPS)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    print(describe_checkout(args.repo), flush=True)
    results = []
    with contextlib.ExitStack() as stack:
        root = args.keep or stack.enter_context(tempfile.TemporaryDirectory())
        for repeat in range(args.repeat):
            for kind in kinds:
                print(f"{kind} (run {repeat + 1})...", flush=True)
                try:
                    results.append(await run_attack(kind, Path(root) / f"{repeat}", args))
                except Exception as error:  # report what ran, and why one did not
                    print(f"  {kind} failed: {type(error).__name__}: {error}", flush=True)
                    continue
                # Each run as it ends, so that a bench stopped early has said something.
                print(textwrap.indent(table(results[-1:]), "  "), flush=True)
    print()
    print(table(results, markdown=args.markdown))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--only",
        "--attacks",
        default="old",
        help="attacks or groups, comma-separated (default: old, the telnet and SSH ones;"
        f" groups: {', '.join(GROUPS)})",
    )
    parser.add_argument(
        "--repo",
        type=lambda text: Path(text).resolve(),
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose door is run (default: this bench's own)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each attack")
    parser.add_argument("--markdown", action="store_true", help="the table in Markdown")
    parser.add_argument("--flood-seconds", type=float, default=60.0)
    parser.add_argument("--storm-seconds", type=float, default=20.0)
    parser.add_argument("--silent", type=int, default=300, help="silent connections")
    parser.add_argument(
        "--silent-wait", type=float, default=75.0, help="how long silent connections wait"
    )
    parser.add_argument("--hammer-seconds", type=float, default=30.0)
    parser.add_argument("--held", type=int, default=300, help="half-open or silent web sockets")
    parser.add_argument("--refused", type=int, default=300, help="WebSockets opened at once")
    parser.add_argument(
        "--held-seconds", type=float, default=90.0, help="how long held web sockets wait"
    )
    parser.add_argument("--after", type=float, default=10.0, help="seconds watched after")
    parser.add_argument(
        "--ghost-wait",
        type=float,
        default=30.0,
        help="after that, how long to wait for sessions left to go (their seconds are reported)",
    )
    parser.add_argument("--keep", type=Path, help="keep each server's data and log here")
    # The attacker process's own arguments.
    parser.add_argument("--attacker", choices=sorted(ATTACKERS), help=argparse.SUPPRESS)
    parser.add_argument("--telnet-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ssh-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--web-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rlogin-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--max-tries", type=int, default=30, help=argparse.SUPPRESS)
    return parser


def main() -> int:
    args = build_parser().parse_args()
    if args.attacker:
        return attacker_main(args)
    asyncio.run(bench(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
