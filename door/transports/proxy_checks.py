"""What the PROXY protocol spec (HAProxy's proxy-protocol.txt) demands of a header, checked
before the ``proxy-protocol`` library reads the addresses out of it.

The library checks v2's signature, version and command, and v1's words and addresses, but
it takes any other v2 family or transport byte as "unknown" (so a header with family 0xFF
passed as the balancer's own connection), reads an address block shorter than the family's
as a struct error, parses TLVs leniently (a truncated one is cut, trailing bytes dropped),
never bounds a v1 line at 107 bytes, and reads v1 ports with ``int()``, which takes
``+80``, ``0080`` and ``8_0``. These checks are the spec's, field by field; each raises
``ProxyHeaderError`` with a short reason.

>>> v1_length(b"PROXY TCP4 203.0.113.7 10.0.0.1 51000 23\\r\\nhello")
42
>>> check_v1(b"PROXY TCP4 203.0.113.7 10.0.0.1 051000 23\\r\\n")
Traceback (most recent call last):
    ...
door.transports.proxy_checks.ProxyHeaderError: a PROXY v1 line out of its grammar
>>> v2_length(V2_SIGNATURE + bytes([0x21, 0xFF, 0, 12]))
Traceback (most recent call last):
    ...
door.transports.proxy_checks.ProxyHeaderError: a PROXY v2 family/transport byte 0xff
"""

from __future__ import annotations

import enum
import re
import struct
from typing import Final

V1_PREFIX: Final = b"PROXY "
V1_MAX_BYTES: Final = 107
"""The spec's longest v1 line, CRLF included (``PROXY UNKNOWN`` with the most it may carry)."""
V2_SIGNATURE: Final = b"\r\n\r\n\x00\r\nQUIT\n"
V2_FIXED_BYTES: Final = 16
V2_MAX_BYTES: Final = 4096
"""A v2 header as HAProxy sends it, TLVs included, is a few hundred bytes; the length field
allows 64 KiB, which a door has no reason to buffer before it knows who is calling."""


class ProxyHeaderError(ValueError):
    """A header the spec says a receiver must refuse; the message is a short reason."""


class Command(enum.IntEnum):
    LOCAL = 0x0
    PROXY = 0x1


ADDRESS_BYTES: Final = {0x0: 0, 0x1: 12, 0x2: 36, 0x3: 216}
"""The address block of each defined family (UNSPEC, INET, INET6, UNIX)."""
TRANSPORTS: Final = frozenset({0x0, 0x1, 0x2})
"""UNSPEC, STREAM, DGRAM."""
CRC32C_TYPE: Final = 0x03
SSL_TYPE: Final = 0x20
SSL_FIXED_BYTES: Final = 5
"""PP2_TYPE_SSL's client flags (1 byte) and verify result (4) before its sub-TLVs."""


def is_v2(data: bytes) -> bool:
    """Whether ``data`` (at least 12 bytes) starts with the v2 signature."""
    return data[: len(V2_SIGNATURE)] == V2_SIGNATURE


def could_be_header(data: bytes) -> bool:
    """Whether ``data``, the first bytes of a connection, may still become a header."""
    return V1_PREFIX.startswith(data[:6]) or V2_SIGNATURE.startswith(data[:12])


# --- v1: one line of US-ASCII ---------------------------------------------------------

_BYTE: Final = rb"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
_IPV4: Final = rb"(?:" + _BYTE + rb"\.){3}" + _BYTE
_IPV6: Final = rb"[0-9A-Fa-f:.]{2,45}"  # its exact form is left to ipaddress, below
_PORT: Final = (
    rb"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}|0)"
)
_V1_LINE: Final = re.compile(
    rb"PROXY (?:UNKNOWN[^\r\n]*"
    rb"|TCP4 " + _IPV4 + rb" " + _IPV4 + rb" " + _PORT + rb" " + _PORT + rb""
    rb"|TCP6 " + _IPV6 + rb" " + _IPV6 + rb" " + _PORT + rb" " + _PORT + rb")\r\n\Z"
)


def v1_length(data: bytes) -> int | None:
    """The length of the v1 line at the start of ``data``, CRLF included; None while it
    may still be coming. Raises ProxyHeaderError past 107 bytes with no CRLF."""
    end = data.find(b"\n", 0, V1_MAX_BYTES)
    if end > 0 and data[end - 1 : end] == b"\r":
        return end + 1
    if end >= 0:
        raise ProxyHeaderError("a PROXY v1 line ending without CRLF")
    if len(data) >= V1_MAX_BYTES:
        raise ProxyHeaderError(f"a PROXY v1 line longer than {V1_MAX_BYTES} bytes")
    return None


def check_v1(line: bytes) -> None:
    """The spec's grammar: one space between fields, no leading zeros in addresses or
    ports, ports up to 65535, IPv6 addresses in their textual form (no zone)."""
    import ipaddress

    if len(line) > V1_MAX_BYTES or _V1_LINE.match(line) is None:
        raise ProxyHeaderError("a PROXY v1 line out of its grammar")
    fields = line[:-2].split(b" ")
    if fields[1] != b"UNKNOWN" and max(int(port) for port in fields[4:6]) > 0xFFFF:
        raise ProxyHeaderError("a PROXY v1 port over 65535")
    if fields[1] == b"TCP6":
        for text in fields[2:4]:
            try:
                ipaddress.IPv6Address(text.decode("ascii"))
            except ValueError:
                raise ProxyHeaderError("a PROXY v1 line with a bad IPv6 address") from None


# --- v2: a fixed 16 bytes, then the address block and TLVs ----------------------------


def v2_length(fixed: bytes) -> int:
    """The whole v2 header's length from its first 16 bytes, once they are checked:
    version 2, command LOCAL or PROXY, a defined family and transport, and an address
    length that holds the family's block and stays within ``V2_MAX_BYTES``."""
    if not is_v2(fixed) or len(fixed) < V2_FIXED_BYTES:
        raise ProxyHeaderError("not a PROXY v2 signature")
    version_command, family_transport, length = struct.unpack_from("!BBH", fixed, 12)
    if version_command >> 4 != 2:
        raise ProxyHeaderError(f"a PROXY v2 version {version_command >> 4}")
    if version_command & 0xF not in {int(command) for command in Command}:
        raise ProxyHeaderError(f"a PROXY v2 command {version_command & 0xF}")
    family, transport = family_transport >> 4, family_transport & 0xF
    if family not in ADDRESS_BYTES or transport not in TRANSPORTS:
        raise ProxyHeaderError(f"a PROXY v2 family/transport byte {family_transport:#04x}")
    if V2_FIXED_BYTES + length > V2_MAX_BYTES:
        raise ProxyHeaderError(f"a PROXY v2 header of {V2_FIXED_BYTES + length} bytes")
    if version_command & 0xF == Command.PROXY and length < ADDRESS_BYTES[family]:
        raise ProxyHeaderError(f"a PROXY v2 address block of {length} bytes for family {family}")
    return V2_FIXED_BYTES + length


def v2_command(header: bytes) -> Command:
    """LOCAL (the balancer's own connection, a health check) or PROXY."""
    return Command(header[12] & 0xF)


def check_v2(header: bytes) -> None:
    """The whole v2 header (as long as ``v2_length`` says): its fixed part, and for a
    PROXY command TLVs that exactly fill what follows the address block. A LOCAL
    header's block is skipped unread, as the spec says."""
    length = v2_length(header)
    if len(header) != length:
        raise ProxyHeaderError("a PROXY v2 header cut short")
    if v2_command(header) is Command.LOCAL:
        return
    start = V2_FIXED_BYTES + ADDRESS_BYTES[header[13] >> 4]
    _check_tlvs(header[start:], "TLV")


def _check_tlvs(data: bytes, what: str) -> None:
    at = 0
    seen: set[int] = set()
    while at < len(data):
        if len(data) - at < 3:
            raise ProxyHeaderError(f"a PROXY v2 {what} cut short")
        kind, size = struct.unpack_from("!BH", data, at)
        value = data[at + 3 : at + 3 + size]
        if len(value) != size:
            raise ProxyHeaderError(f"a PROXY v2 {what} longer than the header")
        if kind == CRC32C_TYPE and (size != 4 or kind in seen):
            raise ProxyHeaderError("a PROXY v2 CRC32C that is not one 4-byte value")
        if kind == SSL_TYPE and what == "TLV":
            if size < SSL_FIXED_BYTES:
                raise ProxyHeaderError("a PROXY v2 SSL TLV cut short")
            _check_tlvs(value[SSL_FIXED_BYTES:], "SSL sub-TLV")
        seen.add(kind)
        at += 3 + size
