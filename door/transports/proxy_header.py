"""The PROXY protocol (v1 text and v2 binary, as HAProxy sends them) in front of a
listener, so that a door behind a load balancer sees each caller's own address.

With ``[server] proxy_protocol`` on, every connection must come from one of the
``proxy_addresses`` and begin with a PROXY header; the header is read (parsed by the
``proxy-protocol`` library, after the spec's checks the library leaves out:
door/transports/proxy_checks.py), and only then is the connection handed to the transport's
own protocol (telnetlib3's or asyncssh's), with the caller's address as its peer. The
per-address limits, the log-in throttles and the logs then see the caller, not the
balancer. A connection from anywhere else, without a header, with a header that does not
parse or that the spec refuses, or silent for ``HEADER_SECONDS``, is closed before the
transport sees a byte, with one log line per address and minute however many there are.

>>> ProxyHeader.accepts_from(("10.0.0.5", 4000), parse_networks(["10.0.0.0/8"]))
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from proxyprotocol.detect import ProxyProtocolDetect
from proxyprotocol.result import ProxyResultIPv4, ProxyResultIPv6, ProxyResultLocal

from door.defence.guard import peer_text
from door.defence.log_limit import SourceLog
from door.transports.proxy_checks import (
    V1_PREFIX,
    V2_FIXED_BYTES,
    Command,
    ProxyHeaderError,
    check_v1,
    check_v2,
    could_be_header,
    v1_length,
    v2_command,
    v2_length,
)

logger = logging.getLogger(__name__)

HEADER_SECONDS: Final = 5.0
"""How long a balancer has to send the header (it sends it at once)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """``"127.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"`` as networks; ValueError for others."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in texts)


class _ProxiedTransport:
    """The real transport, but with the caller's address as its peer."""

    def __init__(self, transport: asyncio.Transport, peername: tuple[str, int]) -> None:
        self._transport = transport
        self._peername = peername

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peername
        return self._transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class ProxyHeader(asyncio.Protocol):
    """Reads the PROXY header of one connection, then hands it to ``inner()``.

    Refusals are logged through ``log``, one line per address and minute, so that a
    flood of bad connections is not a flood of log lines."""

    def __init__(
        self,
        inner: Callable[[], asyncio.Protocol],
        trusted: Sequence[Network],
        log: SourceLog | None = None,
    ) -> None:
        self._inner_factory = inner
        self._trusted = trusted
        self._log = log if log is not None else SourceLog(logger)
        self._parser = ProxyProtocolDetect()
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None

    @staticmethod
    def accepts_from(peer: object, trusted: Sequence[Network]) -> bool:
        """Whether ``peer`` (a socket's peername) is one of the trusted balancers."""
        if not isinstance(peer, tuple) or not peer:
            return False
        try:
            address = ipaddress.ip_address(str(peer[0]).split("%")[0])
        except ValueError:
            return False
        return any(address in network for network in trusted)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        peer = transport.get_extra_info("peername")
        if not self.accepts_from(peer, self._trusted):
            self._log.warning(_address(peer), "refused a connection: not a trusted proxy")
            transport.abort()
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(HEADER_SECONDS, self._refuse, "no PROXY header in time")

    def data_received(self, data: bytes) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        self._buffer += data
        try:
            parsed = self._parse()
        except ProxyHeaderError as error:
            self._refuse(str(error))
            return
        except Exception as error:  # the library's syntax errors, and anything odd
            self._refuse(f"a PROXY header that does not parse ({type(error).__name__})")
            return
        if parsed is None:
            return
        result, used = parsed
        if self._timer is not None:
            self._timer.cancel()
        rest = bytes(self._buffer[used:])
        self._buffer = bytearray()
        if isinstance(result, ProxyResultIPv4 | ProxyResultIPv6):
            peer: tuple[str, int] = (str(result.source[0]), int(result.source[1]))
        else:  # LOCAL (the balancer's own health check), UNSPEC or UNIX: its own address
            peer = transport.get_extra_info("peername")
        inner = self._inner_factory()
        transport.set_protocol(inner)
        inner.connection_made(_ProxiedTransport(transport, peer))  # type: ignore[arg-type]
        if rest:
            inner.data_received(rest)

    def _parse(self) -> tuple[object, int] | None:
        """The header's result and its length in bytes, or None while more is needed;
        raises ProxyHeaderError (the spec's checks) or the library's errors."""
        data = bytes(self._buffer)
        if not could_be_header(data):
            raise ProxyHeaderError("not a PROXY header")
        if data.startswith(V1_PREFIX):
            length = v1_length(data)
            if length is None:
                return None
            check_v1(data[:length])
            return self._parser.unpack(data[:length]), length
        if len(data) < V2_FIXED_BYTES:
            return None
        length = v2_length(data[:V2_FIXED_BYTES])
        if len(data) < length:
            return None
        header = data[:length]
        check_v2(header)
        if v2_command(header) is Command.LOCAL:
            # The balancer's own connection: its address block is skipped unread.
            return ProxyResultLocal(), length
        return self._parser.unpack(header), length

    def _refuse(self, reason: str) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        peer = transport.get_extra_info("peername")
        self._log.warning(
            _address(peer), "closed a connection from %s: %s", peer_text(peer), reason
        )
        transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()


def _address(peer: object) -> str:
    """The address part of a peername: one source for the log, whatever its port."""
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return str(peer)


class ProxiedListener:
    """What asyncssh calls a tunnel: it makes the listening server, here one whose
    connections begin with a PROXY header (asyncssh's ``tunnel`` option), its port
    shared with other workers when ``reuse_port``."""

    def __init__(self, trusted: Sequence[Network], reuse_port: bool = False) -> None:
        self._trusted = trusted
        self._reuse_port = reuse_port

    async def create_server(
        self, session_factory: Callable[[str, int], asyncio.Protocol], host: str, port: int
    ) -> asyncio.Server:
        return await listen_tcp(
            lambda: session_factory("", 0),
            host,
            port,
            trusted=self._trusted,
            reuse_port=self._reuse_port,
        )


async def listen_tcp(
    inner: Callable[[], asyncio.Protocol],
    host: str,
    port: int,
    *,
    trusted: Sequence[Network] | None = None,
    reuse_port: bool = False,
) -> asyncio.Server:
    """A listening server making ``inner`` protocols. With ``trusted``, each connection
    begins with a PROXY header from one of those networks. With ``reuse_port``, other
    processes (the door's workers) listen on the same port and the kernel spreads the
    connections between them (SO_REUSEPORT)."""
    loop = asyncio.get_running_loop()
    refusals = SourceLog(logger)

    def protocol() -> asyncio.Protocol:
        return inner() if trusted is None else ProxyHeader(inner, trusted, refusals)

    return await loop.create_server(protocol, host, port, reuse_port=reuse_port or None)
