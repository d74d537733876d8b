"""The attack bench builds its wire formats by hand (bench/attack_frames.py): each is
read here by the party it is meant for, a real WebSocket server (aiohttp), the PROXY
protocol library the door uses, the door's RLogin reader, so what the bench reports
was an attack in the protocol, not a bench that spoke it wrong."""

from __future__ import annotations

import asyncio
import doctest
import os
import random
import sys
from ipaddress import IPv4Address, IPv6Address
from pathlib import Path

import pytest
from aiohttp import WSMsgType, web
from proxyprotocol.result import ProxyResultIPv4, ProxyResultIPv6, ProxyResultLocal
from proxyprotocol.v1 import ProxyProtocolV1
from proxyprotocol.v2 import ProxyProtocolV2

from door.transports.rlogin import RloginInput, parse_handshake
from tests.door.caller import run_async

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import attack_frames  # noqa: E402
from attack_frames import (  # noqa: E402
    OP_BINARY,
    OP_TEXT,
    PROXY_V2_LOCAL,
    WebSocketReader,
    http_header,
    http_status,
    proxy_v1_header,
    proxy_v2_header,
    rlogin_start,
    rlogin_window_size,
    telnet_naws,
    tunnel_flood_payload,
    websocket_frame,
    websocket_request,
)


def test_module_examples_run() -> None:
    assert doctest.testmod(attack_frames).failed == 0


@run_async
async def test_a_websocket_server_reads_the_benchs_frames_and_the_bench_reads_its_own() -> None:
    received: list[tuple[WSMsgType, bytes | str]] = []

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=("telnet",), max_msg_size=1 << 20)
        await ws.prepare(request)
        async for message in ws:
            received.append((message.type, message.data))
            if message.type == WSMsgType.BINARY:
                await ws.send_bytes(message.data)
            else:
                await ws.send_str(message.data)
        return ws

    app = web.Application()
    app.router.add_get("/ws", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(websocket_request("127.0.0.1", port, os.urandom(16), protocol="telnet"))
        head = await reader.readuntil(b"\r\n\r\n")
        assert http_status(head) == 101
        assert http_header(head, "sec-websocket-protocol") == "telnet"
        rng = random.Random(7)
        mask = bytes(rng.randrange(256) for _ in range(4))
        sent = [  # every length form: 7 bits, 16 bits, 64 bits; masked and not
            (OP_TEXT, b'{"cols": 80, "rows": 24}', mask),
            (OP_BINARY, bytes(rng.randrange(256) for _ in range(4000)), b"\x01\x02\x03\x04"),
            (OP_BINARY, b"\xff" * 70_000, b"\0\0\0\0"),
        ]
        for opcode, payload, mask in sent:
            writer.write(websocket_frame(opcode, payload, mask))
        frames = WebSocketReader()
        echoed: list[tuple[int, bytes]] = []
        while len(echoed) < len(sent):
            data = await asyncio.wait_for(reader.read(997), 10)
            assert data, "the server closed the WebSocket"
            for cut in range(0, len(data), 3):  # cut anywhere, even inside a header
                echoed += frames.feed(data[cut : cut + 3])
        writer.close()
    finally:
        await runner.cleanup()
    assert [(opcode, payload) for opcode, payload, _ in sent] == echoed
    assert received[0] == (WSMsgType.TEXT, '{"cols": 80, "rows": 24}')
    assert [data for _, data in received[1:3]] == [sent[1][1], sent[2][1]]


def test_a_half_sent_request_lacks_only_its_last_line() -> None:
    key = b"k" * 16
    whole = websocket_request("127.0.0.1", 80, key)
    half = websocket_request("127.0.0.1", 80, key, complete=False)
    assert whole.endswith(b"\r\n\r\n") and not half.endswith(b"\r\n\r\n")
    assert whole == half + b"\r\n"


def test_refusals_are_read_from_their_head() -> None:
    head = (
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nconnection: close\r\n\r\n"
    )
    assert http_status(head) == 429
    assert http_header(head, "Connection") == "close"
    assert http_header(head, "Upgrade") is None
    assert http_status(b"SSH-2.0-x\r\n") is None


def test_the_proxy_library_reads_the_benchs_valid_headers() -> None:
    v2 = ProxyProtocolV2()
    four = v2.unpack(proxy_v2_header("203.0.113.9", 40000, "127.0.0.1", 23))
    assert isinstance(four, ProxyResultIPv4)
    assert four.source == (IPv4Address("203.0.113.9"), 40000)
    assert four.dest == (IPv4Address("127.0.0.1"), 23)
    six = v2.unpack(proxy_v2_header("2001:db8::7", 5000, "::1", 22))
    assert isinstance(six, ProxyResultIPv6)
    assert six.source == (IPv6Address("2001:db8::7"), 5000)
    local = v2.unpack(proxy_v2_header("203.0.113.9", 1, "127.0.0.1", 2, command=PROXY_V2_LOCAL))
    assert isinstance(local, ProxyResultLocal)
    one = ProxyProtocolV1().unpack(proxy_v1_header("203.0.113.9", 40000, "127.0.0.1", 23))
    assert isinstance(one, ProxyResultIPv4) and one.source == (IPv4Address("203.0.113.9"), 40000)


def test_a_v2_header_carries_the_family_byte_it_is_given_and_its_length() -> None:
    header = proxy_v2_header("203.0.113.9", 40000, "127.0.0.1", 23, family=0xFF)
    assert header[12:14] == b"\x21\xff"
    assert int.from_bytes(header[14:16], "big") == len(header) - 16 == 12
    short = proxy_v2_header("203.0.113.9", 1, "127.0.0.1", 2, address_bytes=b"\x01\x02")
    assert short[14:16] == b"\x00\x02" and len(short) == 18


def test_the_doors_rlogin_reader_takes_the_benchs_start_and_window_sizes() -> None:
    parsed = parse_handshake(rlogin_start("bbs", "RloginResizer", "xterm/38400") + b"\r")
    assert parsed is not None
    start, rest = parsed
    assert (start.local_user, start.alias, start.terminal_type, rest) == (
        "bbs",
        "RloginResizer",
        "xterm",
        b"\r",
    )
    sizes = b"".join(rlogin_window_size(60 + n, 20 + n) for n in range(300))
    split = RloginInput()
    keys, found = split.feed(sizes[:7])
    more_keys, more = split.feed(sizes[7:])
    assert keys + more_keys == b""
    assert found + more == [(60 + n, 20 + n) for n in range(300)]


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (400, 200), (255, 255), (511, 0)])
def test_naws_doubles_a_255_as_telnet_requires(cols: int, rows: int) -> None:
    message = telnet_naws(cols, rows)
    assert message[:3] == b"\xff\xfa\x1f" and message[-2:] == b"\xff\xf0"
    body = message[3:-2].replace(b"\xff\xff", b"\xff")
    assert (int.from_bytes(body[:2], "big"), int.from_bytes(body[2:], "big")) == (cols, rows)


def test_a_tunnel_flood_frame_is_its_size_in_whole_window_sizes_up_to_400_by_200() -> None:
    for turn in (0, 1, 5000):
        payload = tunnel_flood_payload(4000, turn)
        assert len(payload) == 4000
        pieces = payload.split(b"\xff\xfa\x1f")[1:]
        assert len(pieces) > 100
        for piece in pieces:
            body = piece.split(b"\xff\xf0")[0].replace(b"\xff\xff", b"\xff")
            cols, rows = int.from_bytes(body[:2], "big"), int.from_bytes(body[2:4], "big")
            assert 40 <= cols <= 400 and 10 <= rows <= 200
