"""The PROXY header checked field by field as the spec says (door/transports/proxy_checks.py),
through the protocol that reads it (ProxyHeader) with a transport of our own: a header
the spec refuses closes the connection before the door's transport sees it; one it
accepts hands the connection on, with the caller's address or the balancer's own."""

from __future__ import annotations

import asyncio
import doctest
import logging
import struct
from typing import Any

import pytest

import door.transports.proxy_checks
from door.defence.log_limit import SourceLog
from door.transports.proxy_header import ProxyHeader, parse_networks

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
BALANCER = ("127.0.0.1", 40000)
INET_BLOCK = bytes([203, 0, 113, 7, 10, 0, 0, 1]) + struct.pack("!HH", 51000, 23)
INET6_BLOCK = bytes(15) + b"\x01" + bytes(15) + b"\x02" + struct.pack("!HH", 51000, 23)


def v2(
    version_command: int, family_transport: int, block: bytes, length: int | None = None
) -> bytes:
    size = len(block) if length is None else length
    return SIGNATURE + bytes([version_command, family_transport]) + struct.pack("!H", size) + block


def tlv(kind: int, value: bytes) -> bytes:
    return struct.pack("!BH", kind, len(value)) + value


class FakeTransport(asyncio.Transport):
    def __init__(self, peer: tuple[str, int] = BALANCER) -> None:
        super().__init__()
        self.peer = peer
        self.closed = False
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.peer if name == "peername" else default

    def is_closing(self) -> bool:
        return self.closed

    def abort(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol


class Inner(asyncio.Protocol):
    """The door's transport protocol: what it was told."""

    def __init__(self) -> None:
        self.peer: object = None
        self.data = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = transport.get_extra_info("peername")

    def data_received(self, data: bytes) -> None:
        self.data += data


def arrive(*chunks: bytes, log: SourceLog | None = None) -> tuple[FakeTransport, list[Inner]]:
    """A connection from the balancer sending ``chunks``; the protocols it was handed to."""
    made: list[Inner] = []

    def inner() -> Inner:
        made.append(Inner())
        return made[-1]

    async def scenario() -> FakeTransport:
        header = ProxyHeader(
            inner, parse_networks(["127.0.0.1"]), *([log] if log is not None else [])
        )
        transport = FakeTransport()
        header.connection_made(transport)
        for chunk in chunks:  # to whichever protocol the transport now has, as asyncio does
            (transport.protocol or header).data_received(chunk)
        header.connection_lost(None)
        return transport

    return asyncio.run(scenario()), made


def test_module_examples_run() -> None:
    assert doctest.testmod(door.transports.proxy_checks).failed == 0


ACCEPTED = [
    ("v1 TCP4", b"PROXY TCP4 203.0.113.7 10.0.0.1 51000 23\r\n", ("203.0.113.7", 51000)),
    ("v1 TCP6", b"PROXY TCP6 2001:db8::7 ::1 65535 0\r\n", ("2001:db8::7", 65535)),
    ("v1 UNKNOWN", b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", BALANCER),
    ("v2 INET", v2(0x21, 0x11, INET_BLOCK), ("203.0.113.7", 51000)),
    ("v2 INET6", v2(0x21, 0x21, INET6_BLOCK), ("::1", 51000)),
    ("v2 LOCAL", v2(0x20, 0x00, b""), BALANCER),
    ("v2 LOCAL skips its block", v2(0x20, 0x11, INET_BLOCK), BALANCER),
    ("v2 UNSPEC", v2(0x21, 0x00, b""), BALANCER),
    ("v2 with TLVs", v2(0x21, 0x11, INET_BLOCK + tlv(0x04, b"") + tlv(0xE0, b"x" * 40)), None),
    (
        "v2 SSL TLV",
        v2(0x21, 0x11, INET_BLOCK + tlv(0x20, b"\x01" + bytes(4) + tlv(0x21, b"TLSv1.3"))),
        None,
    ),
]


@pytest.mark.parametrize(("name", "header", "peer"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_headers_the_spec_allows_hand_the_connection_on(
    name: str, header: bytes, peer: tuple[str, int] | None
) -> None:
    transport, made = arrive(header + b"keys")
    assert not transport.closed and len(made) == 1
    assert made[0].data == b"keys"
    if peer is not None:
        assert made[0].peer == peer


REFUSED = [
    ("v2 family 0xF", v2(0x21, 0xF1, INET_BLOCK)),
    ("v2 family/transport 0xFF", v2(0x21, 0xFF, INET_BLOCK)),
    ("v2 transport 3", v2(0x21, 0x13, INET_BLOCK)),
    ("v2 family 4", v2(0x21, 0x41, b"")),
    ("v2 version 1", v2(0x11, 0x11, INET_BLOCK)),
    ("v2 version 3", v2(0x31, 0x11, INET_BLOCK)),
    ("v2 command 2", v2(0x22, 0x11, INET_BLOCK)),
    ("v2 command 0xF", v2(0x2F, 0x11, INET_BLOCK)),
    ("v2 INET block too short", v2(0x21, 0x11, INET_BLOCK[:8])),
    ("v2 INET6 block of an INET", v2(0x21, 0x21, INET_BLOCK)),
    ("v2 UNIX block too short", v2(0x21, 0x31, INET6_BLOCK)),
    ("v2 length over the bound", v2(0x21, 0x11, INET_BLOCK, length=65535)),
    ("v2 TLV cut short", v2(0x21, 0x11, INET_BLOCK + tlv(0xE0, b"abcd")[:-1])),
    ("v2 TLV trailing byte", v2(0x21, 0x11, INET_BLOCK + tlv(0x04, b"") + b"\x04")),
    ("v2 CRC32C not 4 bytes", v2(0x21, 0x11, INET_BLOCK + tlv(0x03, b"\x00\x00"))),
    ("v2 CRC32C wrong", v2(0x21, 0x11, INET_BLOCK + tlv(0x03, b"\x00\x00\x00\x01"))),
    ("v2 SSL TLV cut short", v2(0x21, 0x11, INET_BLOCK + tlv(0x20, b"\x01"))),
    ("v2 SSL sub-TLV cut", v2(0x21, 0x11, INET_BLOCK + tlv(0x20, bytes(5) + b"\x21\x00"))),
    ("v1 no CRLF in 107 bytes", b"PROXY UNKNOWN " + b"x" * 100),
    ("v1 over 107 bytes", b"PROXY UNKNOWN " + b"x" * 100 + b"\r\n"),
    ("v1 port with a sign", b"PROXY TCP4 203.0.113.7 10.0.0.1 +51000 23\r\n"),
    ("v1 port with a leading zero", b"PROXY TCP4 203.0.113.7 10.0.0.1 051000 23\r\n"),
    ("v1 port with an underscore", b"PROXY TCP4 203.0.113.7 10.0.0.1 51_000 23\r\n"),
    ("v1 port over 65535", b"PROXY TCP4 203.0.113.7 10.0.0.1 65536 23\r\n"),
    ("v1 address with a leading zero", b"PROXY TCP4 203.0.113.07 10.0.0.1 5 23\r\n"),
    ("v1 two spaces", b"PROXY TCP4  203.0.113.7 10.0.0.1 5 23\r\n"),
    ("v1 a tab", b"PROXY TCP4 203.0.113.7\t10.0.0.1 5 23\r\n"),
    ("v1 lower case", b"PROXY tcp4 203.0.113.7 10.0.0.1 5 23\r\n"),
    ("v1 IPv6 zone", b"PROXY TCP6 fe80::1%eth0 ::1 5 23\r\n"),
    ("v1 IPv4 as TCP6", b"PROXY TCP6 203.0.113.7 ::1 5 23\r\n"),
    ("v1 bare LF", b"PROXY TCP4 203.0.113.7 10.0.0.1 5 23\n"),
    ("v1 a sixth field", b"PROXY TCP4 203.0.113.7 10.0.0.1 5 23 9\r\n"),
    ("neither version", b"GET / HTTP/1.0\r\n\r\n"),
]


@pytest.mark.parametrize(("name", "header"), REFUSED, ids=[row[0] for row in REFUSED])
def test_headers_the_spec_refuses_close_the_connection_unseen(name: str, header: bytes) -> None:
    transport, made = arrive(header + b"keys")
    assert transport.closed and made == []


def test_a_header_arriving_a_byte_at_a_time_is_read_whole() -> None:
    header = v2(0x21, 0x11, INET_BLOCK + tlv(0xE0, b"x" * 10))
    transport, made = arrive(*(header[at : at + 1] for at in range(len(header))), b"k")
    assert not transport.closed and made[0].peer == ("203.0.113.7", 51000)


def test_an_overlong_v2_length_is_refused_at_once_not_waited_for() -> None:
    transport, made = arrive(v2(0x21, 0x11, b"", length=60000))
    assert transport.closed and made == []


def test_a_flood_of_refused_connections_logs_one_line_per_address_and_minute(
    caplog: pytest.LogCaptureFixture,
) -> None:
    log = SourceLog(logging.getLogger("door.transports.proxy_header"))
    with caplog.at_level(logging.WARNING):
        for _ in range(200):
            arrive(v2(0x21, 0xFF, INET_BLOCK), log=log)
    lines = [r for r in caplog.records if r.name.startswith("door.transports.proxy")]
    assert len(lines) == 1
    assert "127.0.0.1" in lines[0].getMessage()
    assert "0xff" in lines[0].getMessage()
