"""A page load is one new connection from its address, not one for each of its files: a
real aiohttp server on port 0, and this test as a browser that keeps no connection alive
(each file on a connection of its own, the most a load can cost), directly or through a
trusted proxy. Floods of bare connections, of requests and of WebSockets from one address
are still refused."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
import pytest

from tests.door.caller import run_async
from tests.door.transports.test_web_defence import closed_by_server, web_door
from tests.door.transports.test_web_proxy import get, open_websocket

# What Chromium asks for on a fresh load (measured with the door's page; the WebSocket
# is opened after the scripts run).
PAGE_FILES = ("/", "/xterm.css", "/door.mjs", "/xterm.mjs", "/addon-fit.mjs", "/favicon.ico")
DIRECT: dict[str, Any] = {"trusted_proxies": []}
PER_MINUTE = "Too many new connections from your address: wait a minute."
REQUESTS_MESSAGE = "Too many requests from your address: wait a minute."


async def load_the_page(port: int, headers: dict[str, str]) -> list[bytes]:
    """Each file of the page on its own connection, then its WebSocket: the status line
    of every answer."""
    statuses = []
    for path in PAGE_FILES:
        answer = await get(port, path, headers)
        statuses.append(answer.split(b"\r\n", 1)[0])
    head, _reader, writer = await open_websocket(port, headers)
    statuses.append(head.split(b"\r\n", 1)[0])
    writer.close()
    return statuses


@pytest.mark.parametrize(
    ("web_settings", "headers"),
    [(DIRECT, {}), ({}, {"X-Forwarded-For": "198.51.100.7"})],
    ids=["direct", "behind-a-proxy"],
)
@run_async
async def test_ten_page_loads_a_minute_from_one_address_are_served(
    web_settings: dict[str, Any], headers: dict[str, str]
) -> None:
    async with web_door(web_settings) as (door, port):  # 30 new connections a minute
        for load in range(10):
            statuses = await load_the_page(port, headers)
            # Before: the fifth load's files were refused (429), each connection (or,
            # behind a proxy, each request) counted as a new connection.
            assert statuses == [b"HTTP/1.1 200 OK"] * 5 + [
                b"HTTP/1.1 204 No Content",
                b"HTTP/1.1 101 Switching Protocols",
            ], (load, statuses)
        # Ten of the thirty used: twenty more WebSockets with no page are let in, the
        # next is refused.
        for _ in range(20):
            head, _reader, writer = await open_websocket(port, headers)
            assert head.startswith(b"HTTP/1.1 101"), head
            writer.close()
        head, reader, _writer = await open_websocket(port, headers)
        assert head.startswith(b"HTTP/1.1 429") and b"Connection: close" in head, head
        assert await closed_by_server(reader, 3) is not None


@run_async
async def test_a_flood_of_bare_connections_from_one_address_is_refused() -> None:
    # 5 new connections a minute: 40 TCP connections a minute for the page's files.
    async with web_door(DIRECT, connections_per_minute_per_address=5) as (door, port):
        for _ in range(40):
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            await writer.wait_closed()
        reader, _writer = await asyncio.open_connection("127.0.0.1", port)
        refused = await closed_by_server(reader, 3)
        assert refused is not None and refused.startswith(b"HTTP/1.1 429"), refused
        assert PER_MINUTE.encode() in refused


@run_async
async def test_a_flood_of_requests_on_one_kept_alive_connection_is_refused() -> None:
    async with web_door(DIRECT, connections_per_minute_per_address=5) as (door, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        # 40 requests a minute (8 a new connection), the 41st refused and its connection closed.
        request = f"GET /xterm.css HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        writer.write(request * 40 + request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        answers = await closed_by_server(reader, 5)
        assert answers is not None
        assert answers.count(b"HTTP/1.1 200 OK") == 40
        assert answers.count(b"HTTP/1.1 429") == 1 and REQUESTS_MESSAGE.encode() in answers


@run_async
async def test_websockets_with_no_page_count_as_new_connections_each() -> None:
    async with web_door(DIRECT, connections_per_minute_per_address=5) as (door, port):
        assert (await get(port, "/", {})).startswith(b"HTTP/1.1 200")  # pays for one
        for _ in range(5):  # the page's own, and four more new connections
            head, _reader, writer = await open_websocket(port, {})
            assert head.startswith(b"HTTP/1.1 101"), head
            writer.close()
        head, _reader, _writer = await open_websocket(port, {})
        assert (
            head.startswith(b"HTTP/1.1 429") and PER_MINUTE.encode() in head + await _reader.read()
        )


async def a_browser_loads_the_page(
    port: int, stack: contextlib.AsyncExitStack
) -> tuple[list[int], aiohttp.ClientWebSocketResponse | None]:
    """As Chromium loads it: the page, then its files at once over up to six kept-alive
    connections, then the WebSocket; kept open (on ``stack``), as a browser keeps them.
    The status of every answer, and the WebSocket if it opened."""
    client = await stack.enter_async_context(
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit_per_host=6))
    )

    async def status(path: str) -> int:
        async with client.get(f"http://127.0.0.1:{port}{path}") as response:
            await response.read()
            return response.status

    statuses = [await status("/")]
    statuses += await asyncio.gather(*(status(path) for path in PAGE_FILES[1:]))
    try:
        session = await client.ws_connect(f"ws://127.0.0.1:{port}/ws", protocols=("telnet",))
    except aiohttp.WSServerHandshakeError as refused:
        return [*statuses, refused.status], None
    stack.push_async_callback(session.close)
    return [*statuses, 101], session


@run_async
async def test_three_browsers_behind_one_address_all_load_the_page() -> None:
    # By hand (three aiohttp clients kept alive as Chromium's are, 8 at once an address):
    # the second and the third browser's last files were refused (429), the first
    # browser's idle kept-alive connections holding the address's places.
    async with web_door(DIRECT) as (door, port), contextlib.AsyncExitStack() as stack:
        loads = [await a_browser_loads_the_page(port, stack) for _ in range(3)]
        assert [statuses for statuses, _ in loads] == [[200] * 5 + [204, 101]] * 3
        await asyncio.sleep(0.2)
        assert all(session is not None and not session.closed for _, session in loads)
