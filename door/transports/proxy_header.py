"""The PROXY protocol (v1 text and v2 binary, as HAProxy sends them) in front of a
listener, so that a door behind a load balancer sees each caller's own address.

With ``[server] proxy_protocol`` on, every connection must come from one of the
``proxy_addresses`` and begin with a PROXY header; the header is read (parsed by the
``proxy-protocol`` library), and only then is the connection handed to the transport's
own protocol (telnetlib3's or asyncssh's), with the caller's address as its peer. The
per-address limits, the log-in throttles and the logs then see the caller, not the
balancer. A connection from anywhere else, without a header, with a header that does not
parse, or silent for ``HEADER_SECONDS``, is closed before the transport sees a byte.

>>> ProxyHeader.accepts_from(("10.0.0.5", 4000), parse_networks(["10.0.0.0/8"]))
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from proxyprotocol import ProxyProtocolIncompleteError
from proxyprotocol.detect import ProxyProtocolDetect
from proxyprotocol.result import ProxyResultIPv4, ProxyResultIPv6

logger = logging.getLogger(__name__)

HEADER_SECONDS: Final = 5.0
"""How long a balancer has to send the header (it sends it at once)."""
MAX_HEADER_BYTES: Final = 4096
"""A v1 header is at most 107 bytes; a v2 one with the TLVs HAProxy sends, a few hundred."""

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
    """Reads the PROXY header of one connection, then hands it to ``inner()``."""

    def __init__(self, inner: Callable[[], asyncio.Protocol], trusted: Sequence[Network]) -> None:
        self._inner_factory = inner
        self._trusted = trusted
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
            logger.warning("refused a connection from %s: not a trusted proxy", _shown(peer))
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
            result, used = self._parse()
        except ProxyProtocolIncompleteError:
            if len(self._buffer) > MAX_HEADER_BYTES:
                self._refuse("a PROXY header too long")
            return
        except Exception as error:  # the library's syntax errors, and anything odd
            self._refuse(f"a PROXY header that does not parse ({type(error).__name__})")
            return
        if self._timer is not None:
            self._timer.cancel()
        rest = bytes(self._buffer[used:])
        self._buffer = bytearray()
        if isinstance(result, ProxyResultIPv4 | ProxyResultIPv6):
            peer: tuple[str, int] = (str(result.source[0]), int(result.source[1]))
        else:  # LOCAL (the balancer's own health check) or an unknown family
            peer = transport.get_extra_info("peername")
        inner = self._inner_factory()
        transport.set_protocol(inner)
        inner.connection_made(_ProxiedTransport(transport, peer))  # type: ignore[arg-type]
        if rest:
            inner.data_received(rest)

    def _parse(self) -> tuple[object, int]:
        """The header's result and its length in bytes; raises the library's
        ProxyProtocolIncompleteError while more is needed."""
        data = bytes(self._buffer)
        if data[:5] == b"PROXY":  # v1: a line
            end = data.find(b"\r\n")
            if end < 0:
                raise ProxyProtocolIncompleteError(_want_line())
            return self._parser.unpack(data[: end + 2]), end + 2
        if len(data) < 16:
            self._parser.unpack(data)  # raises incomplete, or a syntax error
        length = 16 + int.from_bytes(data[14:16], "big")
        if len(data) < length:
            raise ProxyProtocolIncompleteError(_want_line())
        return self._parser.unpack(data[:length]), length

    def _refuse(self, reason: str) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        logger.warning(
            "closed a connection from %s: %s", _shown(transport.get_extra_info("peername")), reason
        )
        transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()


def _want_line() -> Any:
    from proxyprotocol import ProxyProtocolWantRead

    return ProxyProtocolWantRead(want_line=True)


def _shown(peer: object) -> str:
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
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

    def protocol() -> asyncio.Protocol:
        return inner() if trusted is None else ProxyHeader(inner, trusted)

    return await loop.create_server(protocol, host, port, reuse_port=reuse_port or None)
