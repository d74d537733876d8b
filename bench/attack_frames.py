"""What the attack bench sends and reads on the wire, built by hand (no I/O here).

The bench speaks each protocol from outside, as a hostile client would, so it needs its
own builders rather than the door's: a client's WebSocket handshake and masked frames
(RFC 6455) and a reader for the server's frames; PROXY protocol v1 lines and v2 headers
with any family byte (HAProxy's proxy-protocol.txt); RLogin's start and its in-band
window-size message (RFC 1282); telnet's NAWS. Tests under tests/bench/ check each
against the door's or a library's own parser.

>>> proxy_v2_header("198.51.100.7", 4000, "127.0.0.1", 23)[12:16].hex()
'2111000c'
>>> rlogin_window_size(132, 50).hex()
'ffff73730032008400000000'
"""

from __future__ import annotations

import base64
import ipaddress
import struct
from typing import Final

WEBSOCKET_PATH: Final = "/ws"
OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
PROXY_V2_SIGNATURE: Final = b"\r\n\r\n\x00\r\nQUIT\n"
PROXY_V2_PROXY: Final = 0x21  # version 2, command PROXY
PROXY_V2_LOCAL: Final = 0x20  # version 2, command LOCAL
PROXY_TCP4: Final = 0x11
PROXY_TCP6: Final = 0x21
IAC, SB, SE, NAWS = 255, 250, 240, 31

# --- WebSocket (RFC 6455), the client's side ---------------------------------------------


def websocket_request(
    host: str,
    port: int,
    key: bytes,
    *,
    protocol: str | None = None,
    origin: str | None = None,
    complete: bool = True,
) -> bytes:
    """The HTTP upgrade request for ``/ws``; ``complete=False`` leaves off the blank line
    that ends it (a half-sent request, which a server must not wait on for ever)."""
    lines = [
        f"GET {WEBSOCKET_PATH} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {base64.b64encode(key).decode()}",
        "Sec-WebSocket-Version: 13",
    ]
    if protocol:
        lines.append(f"Sec-WebSocket-Protocol: {protocol}")
    if origin:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n" + ("\r\n" if complete else "")).encode()


def websocket_frame(opcode: int, payload: bytes, mask: bytes = b"\0\0\0\0") -> bytes:
    """One final frame from a client (clients must mask; an all-zero key is a valid mask
    and leaves the payload as it is, which keeps a flood's cost on the server's side)."""
    if len(mask) != 4:
        raise ValueError("a WebSocket mask is four bytes")
    length = len(payload)
    head = bytes([0x80 | opcode])
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack(">H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", length)
    return head + mask + _masked(payload, mask)


def _masked(payload: bytes, mask: bytes) -> bytes:
    if mask == b"\0\0\0\0" or not payload:
        return payload
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    number = int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")
    return number.to_bytes(len(payload), "big")


class WebSocketReader:
    """The server's frames from a byte stream cut anywhere: ``feed`` returns the whole
    frames so far as (opcode, payload), and keeps a frame's start until its end comes."""

    def __init__(self) -> None:
        self._held = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self._held += data
        frames: list[tuple[int, bytes]] = []
        while True:
            frame = self._next()
            if frame is None:
                return frames
            frames.append(frame)

    def _next(self) -> tuple[int, bytes] | None:
        held = self._held
        if len(held) < 2:
            return None
        opcode, masked, length = held[0] & 0x0F, held[1] & 0x80, held[1] & 0x7F
        at = 2
        if length == 126:
            if len(held) < 4:
                return None
            (length,), at = struct.unpack(">H", held[2:4]), 4
        elif length == 127:
            if len(held) < 10:
                return None
            (length,), at = struct.unpack(">Q", held[2:10]), 10
        mask = b"\0\0\0\0"
        if masked:
            if len(held) < at + 4:
                return None
            mask, at = bytes(held[at : at + 4]), at + 4
        if len(held) < at + length:
            return None
        payload = _masked(bytes(held[at : at + length]), mask)
        del held[: at + length]
        return opcode, payload


def http_status(head: bytes) -> int | None:
    """The status code of a response's first line (``HTTP/1.1 101 ...``), else None."""
    parts = head.split(b"\r\n", 1)[0].split()
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
        return int(parts[1])
    return None


def http_header(head: bytes, name: str) -> str | None:
    """A response header's value (the first of that name, any case), else None."""
    wanted = name.lower().encode()
    for line in head.split(b"\r\n")[1:]:
        key, colon, value = line.partition(b":")
        if colon and key.strip().lower() == wanted:
            return value.strip().decode("latin-1")
    return None


# --- PROXY protocol ------------------------------------------------------------------------


def proxy_v1_header(source: str, source_port: int, target: str, target_port: int) -> bytes:
    family = "TCP6" if ipaddress.ip_address(source).version == 6 else "TCP4"
    return f"PROXY {family} {source} {target} {source_port} {target_port}\r\n".encode()


def proxy_v2_header(
    source: str,
    source_port: int,
    target: str,
    target_port: int,
    *,
    command: int = PROXY_V2_PROXY,
    family: int | None = None,
    address_bytes: bytes | None = None,
) -> bytes:
    """A v2 header. ``family`` overrides the family-and-protocol byte (0xFF, say, which
    the spec leaves unassigned); ``address_bytes`` overrides the address block."""
    source_ip, target_ip = ipaddress.ip_address(source), ipaddress.ip_address(target)
    if address_bytes is None:
        address_bytes = (
            source_ip.packed + target_ip.packed + struct.pack(">HH", source_port, target_port)
        )
    if family is None:
        family = PROXY_TCP6 if source_ip.version == 6 else PROXY_TCP4
    return (
        PROXY_V2_SIGNATURE
        + bytes([command, family])
        + struct.pack(">H", len(address_bytes))
        + address_bytes
    )


# --- RLogin (RFC 1282) and telnet ----------------------------------------------------------


def rlogin_start(local_user: str, remote_user: str, terminal: str = "xterm/38400") -> bytes:
    """A client's start: a NUL, then three NUL-ended fields."""
    return b"\0" + b"".join(part.encode() + b"\0" for part in (local_user, remote_user, terminal))


def rlogin_window_size(cols: int, rows: int) -> bytes:
    """The in-band window-size control message: FF FF 's' 's', rows, cols, x and y
    pixels, each 16 bits big-endian."""
    return b"\xff\xffss" + struct.pack(">HHHH", rows, cols, 0, 0)


def telnet_naws(cols: int, rows: int) -> bytes:
    """IAC SB NAWS with the size, a 255 in it doubled as telnet requires."""
    body = struct.pack(">HH", cols, rows).replace(b"\xff", b"\xff\xff")
    return bytes([IAC, SB, NAWS]) + body + bytes([IAC, SE])


def tunnel_flood_payload(size: int, turn: int) -> bytes:
    """``size`` bytes of what the tunnel flood sends in one frame: keys, and window
    sizes up to 400x200, whole ones only (the rest padded with keys)."""
    piece = bytearray()
    while True:
        cols, rows = 40 + (turn * 37) % 361, 10 + (turn * 13) % 191
        chunk = b"1212121212121212" + telnet_naws(cols, rows)
        if len(piece) + len(chunk) > size:
            break
        piece += chunk
        turn += 1
    return bytes(piece + b"1" * (size - len(piece)))
