"""Behind a load balancer: the PROXY protocol on both transports
(door/transports/proxy_header.py). A relay here plays HAProxy: it accepts a caller,
connects to the door, sends the header naming the caller's (made-up) address, then
copies bytes both ways."""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import logging
from collections.abc import AsyncIterator
from ipaddress import IPv4Address
from pathlib import Path

import pytest
from proxyprotocol.result import ProxyResultIPv4
from proxyprotocol.v2 import ProxyProtocolV2

import door.transports.proxy_header
from door.serve import Listening, run_server
from tests.door.netclients import SSHCaller, TelnetCaller, free_port, server_config


def test_module_examples_run() -> None:
    assert doctest.testmod(door.transports.proxy_header).failed == 0


def v1_header(source: str, port: int) -> bytes:
    return f"PROXY TCP4 {source} 127.0.0.1 {port} 23\r\n".encode()


def v2_header(source: str, port: int) -> bytes:
    result = ProxyResultIPv4((IPv4Address(source), port), (IPv4Address("127.0.0.1"), 22))
    return bytes(ProxyProtocolV2().pack(result))


@contextlib.asynccontextmanager
async def balancer(target: int, headers: list[bytes]) -> AsyncIterator[int]:
    """A relay on a port of its own; the n-th connection is sent ``headers[n]`` first."""
    pending = list(headers)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while data := await reader.read(4096):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def relay(caller_in: asyncio.StreamReader, caller_out: asyncio.StreamWriter) -> None:
        door_in, door_out = await asyncio.open_connection("127.0.0.1", target)
        door_out.write(pending.pop(0))
        await asyncio.gather(pipe(caller_in, door_out), pipe(door_in, caller_out))

    port = free_port()
    server = await asyncio.start_server(relay, "127.0.0.1", port)
    try:
        yield port
    finally:
        server.close()


@contextlib.asynccontextmanager
async def door_behind_balancer(tmp_path: Path, **server: object) -> AsyncIterator[Listening]:
    config = server_config(tmp_path / "data", proxy_protocol=True, **server)
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    try:
        yield await asyncio.wait_for(ready, 10)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def test_callers_through_the_balancer_are_seen_from_their_own_addresses(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        # One connection per address: through the balancer every caller would share
        # its address, and the second would be refused, were the header not read.
        async with door_behind_balancer(tmp_path, max_connections_per_address=1) as door:
            telnet_headers = [v1_header("203.0.113.7", 51000), v2_header("203.0.113.8", 51001)]
            async with balancer(door.telnet[1], telnet_headers) as telnet_port:
                first, second = TelnetCaller(), TelnetCaller()
                await first.connect(telnet_port)
                await second.connect(telnet_port)
                await first.come_as_guest("Dave")
                await second.come_as_guest("Erin")
                await first.wait_for("Welcome, Dave!")
                await second.wait_for("Welcome, Erin!")
            async with balancer(door.ssh[1], [v2_header("198.51.100.9", 40000)]) as ssh_port:
                ssh = SSHCaller()
                await ssh.connect(ssh_port, username="guest")
                await ssh.give_name("Carol")
                await ssh.wait_for("Welcome, Carol!")

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
    for address in ("203.0.113.7:51000", "203.0.113.8:51001", "198.51.100.9"):
        assert address in caplog.text


def test_connections_without_a_header_or_from_elsewhere_are_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def closed_without_a_word(port: int, first: bytes) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(first)
        data = await asyncio.wait_for(reader.read(), 10)  # until the door closes it
        writer.close()
        return data

    async def scenario() -> list[bytes]:
        async with door_behind_balancer(tmp_path) as door:
            no_header = await closed_without_a_word(door.telnet[1], b"hello\r\n")
            garbage = await closed_without_a_word(door.ssh[1], b"PROXY NONSENSE\r\n")
        async with door_behind_balancer(tmp_path, proxy_addresses=["10.9.9.9"]) as door:
            untrusted = await closed_without_a_word(door.telnet[1], v1_header("1.2.3.4", 5))
        return [no_header, garbage, untrusted]

    with caplog.at_level(logging.WARNING):
        answers = asyncio.run(scenario())
    assert answers == [b"", b"", b""]  # the transports never spoke
    assert "a PROXY v1 line out of its grammar" in caplog.text
    assert "not a trusted proxy" in caplog.text


def test_proxy_addresses_must_be_addresses(tmp_path: Path) -> None:
    from door.config import ConfigError

    with pytest.raises(ConfigError, match="proxy_addresses"):
        server_config(tmp_path, proxy_addresses=["the balancer"])


def test_a_v2_header_of_an_undefined_family_is_refused_and_a_flood_logs_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    header = bytearray(v2_header("203.0.113.7", 51000))
    header[13] = 0xFF  # family and transport: values the spec says a receiver must refuse

    async def answer(port: int) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(bytes(header))
        data = await asyncio.wait_for(reader.read(), 10)  # until the door closes it
        writer.close()
        return data

    async def scenario() -> list[bytes]:
        async with door_behind_balancer(tmp_path) as door:
            return [await answer(door.telnet[1]) for _ in range(40)]

    with caplog.at_level(logging.WARNING):
        answers = asyncio.run(scenario())
    assert set(answers) == {b""}  # telnet never started: no negotiation was sent
    refusals = [r for r in caplog.records if r.name == "door.transports.proxy_header"]
    assert len(refusals) == 1 and "0xff" in refusals[0].getMessage()
