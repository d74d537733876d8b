"""Scripted telnet and SSH callers for tests, over real loopback sockets."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import telnetlib3

from door.config import Config, config_from_mapping
from door.serve import Listening, run_server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_config(data_dir: Path, **server: Any) -> Config:
    settings = {
        "host": "127.0.0.1",
        "telnet_port": free_port(),
        "ssh_port": free_port(),
        "data_dir": str(data_dir),
        **server,
    }
    return config_from_mapping({"server": settings})


async def ssh_connection(
    port: int, username: str = "guest", **options: Any
) -> asyncssh.SSHClientConnection:
    """An SSH connection to the door on loopback as ``username``, any host key trusted;
    ``options`` are asyncssh.connect's (client_keys, password, encryption_algs...)."""
    return await asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None, **options)


@contextlib.asynccontextmanager
async def running_server(
    config: Config, ready_seconds: float = 60.0, stop_seconds: float = 10.0
) -> AsyncIterator[Listening]:
    """The door of ``config`` serving until the block ends, then stopped and awaited (a
    failing block stops it too). Raises TimeoutError when it is not listening within
    ``ready_seconds`` or not stopped within ``stop_seconds``."""
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    try:
        yield await asyncio.wait_for(ready, ready_seconds)
    finally:
        stop.set()
        await asyncio.wait_for(server, stop_seconds)


class Caller:
    """A screen the server's bytes are fed into, and a way to send keys."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.closed = False

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    @property
    def words(self) -> str:
        """The screen as one line of words, so a sentence wrapped over rows reads whole."""
        return " ".join(self.text.split())

    async def wait_for(self, text: str, timeout: float = 10.0) -> None:
        """Until ``text`` shows on the screen, on one row or wrapped over several."""
        deadline = asyncio.get_running_loop().time() + timeout
        words = " ".join(text.split())
        while text not in self.text and words not in self.words:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{text!r} never appeared; screen:\n{self.text}")
            await asyncio.sleep(0.02)

    async def wait_for_close(self, timeout: float = 10.0) -> None:
        """Until the server closes the connection."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.closed:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("the connection never closed")
            await asyncio.sleep(0.02)

    async def send(self, data: bytes | str) -> None:
        raise NotImplementedError

    async def give_name(self, name: str) -> None:
        """Answer the guest's name prompt."""
        await self.wait_for("Your name:")
        await self.send(f"{name}\r")

    async def come_as_guest(self, name: str) -> None:
        """From the telnet arrival screen (log in, new account, guest): a guest."""
        await self.wait_for("G guest")
        await self.send("g")
        await self.give_name(name)

    async def sign_up(self, handle: str, password: str) -> None:
        """From the arrival screen: a new account, then on to the lobby."""
        await self.wait_for("G guest")
        await self.send("n")
        await self.wait_for("Password again:")
        await self.send(f"{handle}\r{password}\r{password}\r")
        await self.wait_for("Your account is ready.")
        await self.send("\r")

    async def log_in(self, handle: str, password: str) -> None:
        """From the arrival screen: log in (what follows depends on the account)."""
        await self.wait_for("G guest")
        await self.send("l")
        await self.wait_for("Password:")
        await self.send(f"{handle}\r{password}\r")


class KeepsEveryByte(Caller):
    """A caller that keeps every byte the door sent, as a screen reader gets them (mixed
    in before TelnetCaller or SSHCaller)."""

    def __init__(self) -> None:
        super().__init__()
        self.raw = bytearray()

    def feed(self, data: bytes) -> None:
        self.raw += data
        super().feed(data)

    def since(self, mark: int) -> str:
        return bytes(self.raw[mark:]).decode("utf-8", errors="replace")

    async def until_sent(self, text: str, mark: int, timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.since(mark):
            if loop.time() > deadline:
                raise AssertionError(
                    f"{text!r} never sent; the last of it:\n{self.since(mark)[-800:]}"
                )
            await asyncio.sleep(0.01)


class TelnetCaller(Caller):
    async def connect(self, port: int, host: str = "127.0.0.1") -> None:
        self.reader, self.writer = await telnetlib3.open_connection(
            host,
            port,
            encoding=False,
            term="xterm-256color",
            cols=80,
            rows=24,
            connect_minwait=0.05,
        )
        self.pump = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            data = await self.reader.read(4096)
            if not data:
                self.closed = True
                return
            self.feed(data)

    async def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)
        await self.writer.drain()

    def hang_up(self) -> None:
        self.writer.close()


class SSHCaller(Caller):
    async def connect(
        self,
        port: int,
        username: str = "guest",
        password: str | None = None,
        client_keys: list[asyncssh.SSHKey] | None = None,
    ) -> None:
        """Log in as ``username``: "guest" and "new" need nothing, a handle its
        ``password`` or one of ``client_keys``."""
        self.connection = await ssh_connection(
            port, username, password=password, client_keys=client_keys
        )
        self.process = await self.connection.create_process(
            term_type="xterm", term_size=(80, 24), encoding=None
        )
        self.pump = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            data = await self.process.stdout.read(4096)
            if not data:
                self.closed = True
                return
            self.feed(data)

    async def send(self, data: bytes | str) -> None:
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)

    def hang_up(self) -> None:
        self.connection.close()
