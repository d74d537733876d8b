"""The web listener behind a reverse proxy (``[web] trusted_proxies``): a real aiohttp
server on port 0, and this test as the proxy, connecting from 127.0.0.1 with a new
connection per request (as nginx does) and X-Forwarded-For naming its callers.

Every caller of a proxy shares its address; before, the proxy's connections were held to
one address's limits (8 at once, 30 a minute: about 4 page loads a minute for everyone)
and every caller was logged and throttled as 127.0.0.1."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
from typing import Any

import pytest

from door.app.call import Caller
from door.app.door import Door
from door.transports.web_guard import refusal_response
from tests.door.caller import run_async
from tests.door.transports.test_web_defence import closed_by_server, web_door
from tests.door.waiting import until

PAGE = ("/", "/xterm.mjs", "/addon-fit.mjs", "/door.mjs", "/xterm.css")


def websocket_request(port: int, headers: dict[str, str]) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        f"Sec-WebSocket-Version: 13\r\n{extra}\r\n"
    ).encode()


async def open_websocket(
    port: int, headers: dict[str, str]
) -> tuple[bytes, asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket as a proxy passes it on: the answer's head, and the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(websocket_request(port, headers))
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    return head, reader, writer


async def get(port: int, path: str, headers: dict[str, str]) -> bytes:
    """One request on its own connection (``Connection: close``, as nginx's upstream
    requests are): everything the server sent before it closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    writer.write(f"{head}{extra}\r\n".encode())
    answer = await closed_by_server(reader, 5)
    writer.close()
    assert answer is not None, f"{path}: the connection was not closed"
    return answer


def peers_of_callers(door: Door) -> list[str]:
    """The ``peer`` of every caller the door serves from now on."""
    peers: list[str] = []
    serve = door.serve_caller

    async def recording(terminal: Any, caller: Caller, **options: Any) -> None:
        peers.append(caller.peer)
        await serve(terminal, caller, **options)

    door.serve_caller = recording  # type: ignore[method-assign]
    return peers


@run_async
async def test_a_crowd_behind_the_proxy_loads_the_page_more_than_20_times_a_minute() -> None:
    async with web_door() as (_, port):  # the defaults: 8 at once, 30 a minute
        for caller in range(25):
            forwarded = {"X-Forwarded-For": f"203.0.113.{caller + 1}"}
            for path in PAGE:
                answer = await get(port, path, forwarded)
                # Before: the 31st request from the proxy got a 429 (page load 7).
                assert answer.startswith(b"HTTP/1.1 200"), (caller, path, answer[:80])


@run_async
async def test_more_than_8_callers_behind_the_proxy_play_at_once_each_as_their_own_address() -> (
    None
):
    async with web_door() as (door, port):
        peers = peers_of_callers(door)
        lines = []
        for caller in range(12):
            head, reader, writer = await open_websocket(
                port, {"X-Forwarded-For": f"6.6.6.6, 198.51.100.{caller + 1}"}
            )
            # Before: the 9th was refused (429), all twelve coming from 127.0.0.1.
            assert head.startswith(b"HTTP/1.1 101"), (caller, head)
            lines.append(writer)
        await until(lambda: door.caller_count == 12, 10)
        # The rightmost address the proxy did not add itself: never the proxy's, never
        # what the caller wrote to its left.
        assert sorted(peers) == sorted(f"198.51.100.{n + 1}:0" for n in range(12))
        for writer in lines:
            writer.close()


@run_async
async def test_one_caller_behind_the_proxy_is_still_held_to_the_limits_per_address(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door(connections_per_minute_per_address=12) as (door, port):
        one = {"X-Forwarded-For": "198.51.100.7"}
        lines = []
        for _ in range(8):
            head, _reader, writer = await open_websocket(port, one)
            assert head.startswith(b"HTTP/1.1 101"), head
            lines.append(writer)
        head, reader, _writer = await open_websocket(port, one)
        assert head.startswith(b"HTTP/1.1 429") and b"Connection: close" in head, head
        assert await closed_by_server(reader, 3) is not None  # and the connection closed
        # Another caller of the same proxy is not held back by them.
        head, _reader, other = await open_websocket(port, {"X-Forwarded-For": "198.51.100.8"})
        assert head.startswith(b"HTTP/1.1 101"), head
        await until(lambda: door.caller_count == 9, 10)
        for writer in [*lines, other]:
            writer.close()
        await until(lambda: door.guard.open_from("198.51.100.7") == 0, 10)
        # Eight of twelve a minute used (a refused one is not counted, as for a direct
        # caller); the 13th request from that address in the minute is refused.
        for _ in range(4):
            assert (await get(port, "/", one)).startswith(b"HTTP/1.1 200")
        refused = await get(port, "/", one)
        assert refused.startswith(b"HTTP/1.1 429") and b"Connection: close" in refused
        assert (await get(port, "/", {"X-Forwarded-For": "198.51.100.8"})).startswith(
            b"HTTP/1.1 200"
        )
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refusals and all(line.startswith("198.51.100.7: ") for line in refusals), refusals


@run_async
async def test_a_direct_callers_forwarding_headers_are_ignored() -> None:
    # 127.0.0.1 is not a trusted proxy here: it is a caller claiming addresses.
    async with web_door({"trusted_proxies": ["192.0.2.1"]}) as (door, port):
        peers = peers_of_callers(door)
        lines = []
        for caller in range(8):
            head, _reader, writer = await open_websocket(
                port, {"X-Forwarded-For": f"198.51.100.{caller + 1}", "X-Real-IP": "10.0.0.1"}
            )
            assert head.startswith(b"HTTP/1.1 101"), head
            lines.append(writer)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(websocket_request(port, {"X-Forwarded-For": "198.51.100.99"}))
        assert await closed_by_server(reader, 3) == refusal_response(
            "Too many connections from your address at once."
        )
        await until(lambda: len(peers) == 8, 10)
        assert all(peer.startswith("127.0.0.1:") and peer != "127.0.0.1:0" for peer in peers)
        for line in lines:
            line.close()


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Forwarded-For": "not-an-address"},
        {"X-Forwarded-For": "198.51.100.7, "},
        {"X-Forwarded-For": "198.51.100.7:4000"},
        {"X-Forwarded-For": "fe80::1%eth0"},
        {"Forwarded": "for=unknown"},
        {"Forwarded": 'for="_hidden"'},
        {"X-Real-IP": "<script>"},
    ],
)
@run_async
async def test_a_malformed_forwarding_header_is_refused_with_one_log_line(
    headers: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door() as (door, port):
        for path in ("/", "/door.mjs", "/ws", "/"):
            answer = await get(port, path, headers)  # and closed, or get() says so
            assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
            assert b"Connection: close" in answer
        assert door.caller_count == 0
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1, refused  # one line for the proxy in the minute, not four
    assert refused[0].startswith("127.0.0.1: ")


@run_async
async def test_rfc7239_forwarded_and_x_real_ip_name_the_caller_too() -> None:
    async with web_door() as (door, port):
        peers = peers_of_callers(door)
        for headers in (
            {"Forwarded": 'for="[2001:DB8::17]:4711";proto=https, for=127.0.0.1'},
            {"X-Real-IP": "203.0.113.44"},
            {},  # the proxy's own request: its own address
        ):
            head, _reader, writer = await open_websocket(port, headers)
            assert head.startswith(b"HTTP/1.1 101"), head
            writer.close()
        await until(lambda: len(peers) == 3, 10)
        assert peers[:2] == ["[2001:db8::17]:0", "203.0.113.44:0"]  # was "2001:db8::17:0"
        # The address the log-in throttles count by (door/app/call.py), port taken off.
        assert Caller(None, "web", peers[0]).address == "2001:db8::17"
        assert peers[2].startswith("127.0.0.1:") and peers[2] != "127.0.0.1:0"


def test_forwarding_headers_are_read_from_the_right_past_trusted_proxies() -> None:
    import doctest

    from door.transports import web_forwarded
    from door.transports.web_forwarded import ForwardedError, forwarded_address, parse_trusted

    assert doctest.testmod(web_forwarded).failed == 0
    trusted = parse_trusted(["127.0.0.1", "::1", "10.0.0.0/8"])
    cases: list[tuple[dict[str, Any], str | None]] = [
        ({"x_forwarded_for": "203.0.113.9"}, "203.0.113.9"),
        ({"x_forwarded_for": "1.1.1.1,203.0.113.9 , 10.0.0.3,127.0.0.1"}, "203.0.113.9"),
        ({"x_forwarded_for": "10.0.0.3, 127.0.0.1"}, "10.0.0.3"),  # all trusted: the first
        ({"x_forwarded_for": "garbage, 203.0.113.9"}, "203.0.113.9"),  # left of it not read
        ({"x_forwarded_for": "2001:DB8::1"}, "2001:db8::1"),
        ({"x_forwarded_for": "::ffff:203.0.113.9"}, "203.0.113.9"),
        ({"x_forwarded_for": "203.0.113.9", "real_ip": "6.6.6.6"}, "203.0.113.9"),
        ({"forwarded": [{"for": "192.0.2.43:47011"}]}, "192.0.2.43"),
        ({"forwarded": [{"proto": "https"}]}, None),
        ({"real_ip": " 203.0.113.9 "}, "203.0.113.9"),
        ({}, None),
    ]
    for given, expected in cases:
        assert forwarded_address(trusted, **given) == expected, given
    for bad in (
        {"x_forwarded_for": ""},
        {"x_forwarded_for": "203.0.113.9, garbage"},
        {"x_forwarded_for": "[2001:db8::1]"},
        {"x_forwarded_for": "fe80::1%eth0"},
        {"forwarded": [{"for": "2001:db8::1"}]},  # RFC 7239 brackets IPv6
        {"forwarded": [{"for": "[2001:db8::1"}]},
        {"real_ip": "999.1.1.1"},
    ):
        with pytest.raises(ForwardedError):
            forwarded_address(trusted, **bad)


@pytest.mark.parametrize(
    "header",
    [
        "X-Forwarded-For: 203.0.113.9\x1b[2J",  # nginx passes it on, appending its own
        "X-Forwarded-For: " + "1" * 9000,  # longer than aiohttp reads a header
    ],
    ids=["control-character", "overlong"],
)
@run_async
async def test_a_request_aiohttp_cannot_parse_is_one_log_line_not_a_traceback_each(
    header: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door() as (_, port):
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET / HTTP/1.1\r\nHost: x\r\n{header}, 127.0.0.1\r\n\r\n".encode())
            answer = await closed_by_server(reader, 5)
            assert answer is not None and answer.startswith(b"HTTP/1.0 400"), answer
            writer.close()
    # Before: five ERROR lines, each with a 10-line traceback.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and refused[0].startswith("127.0.0.1: "), refused
    assert "\x1b" not in refused[0] and len(refused[0]) < 200
