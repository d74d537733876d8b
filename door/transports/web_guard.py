"""The web listener's door-keeper: every TCP connection meets the per-address limits the
moment it arrives, before aiohttp reads a byte of it (door/defence/guard.py, shared with
telnet and SSH), and one that has no request in progress is closed once it has been
quiet for ``REQUEST_WAIT_SECONDS``.

What counts as a new connection. A telnet or SSH call is one connection and one session;
a page load is 7 requests over 3 to 7 TCP connections (``ARRIVALS_PER_PAGE_LOAD``).
Counted a connection each against ``connections_per_minute_per_address`` (30), one
address could load the page four times a minute: a caller reloading on a phone, or a
household behind one NAT, was refused. So here the page (``PAGE_PATH``) counts as one new
connection in the minute, and the WebSocket it opens (``SESSION_PATH``, the session) is
paid for by it; a WebSocket with no page loaded from its address in the minute (another
site's client, a program, a flood) is a new connection itself. The page's files do not
count as new connections: they are bounded by the limit at once (a TCP connection holds
a place while it is open, as a telnet one does) and by ``ARRIVALS_PER_PAGE_LOAD`` times
the per-minute limit a minute, both of TCP connections and of requests, so that neither
a flood of bare connections nor requests kept coming on one kept-alive connection go
unbounded. Long cache lifetimes would not have been enough: a browser asks for the page
and opens the WebSocket on every load, and a fresh one (a private window, another phone
behind the same NAT) fetches everything.

Checked only inside the WebSocket handler, the limits let anything else through: refused
WebSockets (429 without ``Connection: close``), half-sent requests and silent
connections all stayed open for minutes, 600 descriptors from one address. Here a
refused connection gets a short 429 with ``Connection: close`` and is closed at once (a
refused request the same, as the response to it); the refusals of one address are one
log line a minute (door/defence/log_limit.py).

Behind a reverse proxy every caller comes from the proxy's address. A connection from
one of the ``trusted`` proxies is not counted as it arrives (it would hold all of the
proxy's callers to one caller's limits); each of its requests is counted instead, as its
headers are read, against the address the proxy forwards (door/transports/web_forwarded.py),
as a direct caller's requests are, and holds a place at once for as long as it runs (a
WebSocket's as long as it is open). The proxy's connections still meet the time limits
here. A request whose forwarding header names no address is refused: 400, and closed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from door.defence.guard import PER_MINUTE_MESSAGE, AddressGuard, MinuteWindow, address_of
from door.defence.log_limit import SourceLog
from door.logtext import escaped
from door.metrics.tally import TALLY
from door.transports.web_forwarded import (
    FORWARDED_FOR,
    REAL_IP,
    ForwardedError,
    Network,
    forwarded_address,
    is_trusted,
)

REQUEST_WAIT_SECONDS: Final = 10.0
"""How long a connection may sit without a request in progress: from connecting to the
end of its request's headers, and between the requests of a kept-alive connection. A
browser sends its request at once and opens a new connection when one was closed."""


PAGE_PATH: Final = "/"
"""The page: a new connection in the minute, as a telnet call is."""
SESSION_PATH: Final = "/ws"
"""The page's WebSocket, the session: paid for by its page's load within the minute."""
ARRIVALS_PER_PAGE_LOAD: Final = 8
"""A page load's requests and TCP connections: 7 requests (the page, its stylesheet and
three scripts, the WebSocket, the icon) over 3 to 4 connections from Chromium, or 7
through a proxy that opens one a request (measured with headless Chromium and the door's page).
An address may make this many times its new connections a minute of each."""
REQUESTS_MESSAGE: Final = "Too many requests from your address: wait a minute."


REFUSED_LINGER_SECONDS: Final = 1.0
"""How long a refused connection's input is read and dropped before it is closed."""


def refusal_response(refusal: str, *, banned: bool = False) -> bytes:
    """A complete HTTP response that says why, and that the connection is closing: 429
    for an address over its limits, 403 for a banned one (trying again will not help)."""
    body = f"{refusal}\r\n".encode("ascii", "replace")
    status = "403 Forbidden" if banned else "429 Too Many Requests\r\nRetry-After: 60"
    head = (
        f"HTTP/1.1 {status}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def refused_request(refusal: str, status: int = 429) -> web.Response:
    """The same answer to one request, and its connection closed after it."""
    headers = {"Connection": "close"}
    if status == 429:
        headers["Retry-After"] = "60"
    response = web.Response(status=status, text=f"{refusal}\r\n", headers=headers)
    response.force_close()
    return response


def caller_address(request: web.Request, trusted: tuple[Network, ...], proxy: str) -> str:
    """The address of the caller whose request a trusted proxy (at ``proxy``) passed on;
    the proxy's own when it names none. ForwardedError for a header that is not one."""
    headers = request.headers
    chain = headers.getall(FORWARDED_FOR, None)
    found = forwarded_address(
        trusted,
        x_forwarded_for=",".join(chain) if chain is not None else None,
        forwarded=request.forwarded,
        real_ip=headers.get(REAL_IP),
    )
    return found if found is not None else proxy


class ServerLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server log (``AppRunner(logger=...)``), where a request it cannot parse
    (a control character in a header, a header longer than it reads) is the caller's
    doing, not the door's: one line per address and minute, no traceback. aiohttp
    logged each as an ERROR with a ten-line traceback, so a caller (or anyone behind a
    proxy, which passes such headers on) could fill the log. The door's own failures
    keep their tracebacks."""

    def __init__(self, log: SourceLog) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.source_log = log

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            source = args[0] if args else ""
            why = (exc_info.message or "").strip().splitlines() or ["malformed"]
            # The first line, without the bytes aiohttp quotes (the caller's own).
            reason = escaped(why[0].split(": b'")[0].rstrip(":"))[:80]
            self.source_log.info(source, "web request refused (400): %s", reason)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)


class ConnectionKeeper:
    """Makes the protocol for each connection and keeps count of the requests in progress
    on each (the ``middleware`` tells it), for the web listener."""

    def __init__(
        self,
        guard: AddressGuard,
        log: SourceLog,
        *,
        request_wait: float = REQUEST_WAIT_SECONDS,
        longest_wait: float = 60.0,
        trusted: tuple[Network, ...] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.guard = guard
        self.log = log
        self.trusted = trusted
        self.clock = clock
        arrivals = guard.per_minute * ARRIVALS_PER_PAGE_LOAD
        self.connections_a_minute = MinuteWindow(arrivals)
        """TCP connections from each direct caller (a proxy's are not counted)."""
        self.requests_a_minute = MinuteWindow(arrivals)
        """Requests from each caller, direct or behind a trusted proxy."""
        """The reverse proxies whose forwarding headers are believed."""
        self.request_wait = request_wait
        self.longest_wait = max(longest_wait, request_wait)
        """However slowly a response is read, a connection with no request in progress
        is closed after this (the log-in timeout)."""
        self.connections: dict[asyncio.BaseTransport, KeptConnection] = {}

    def protocol_factory(
        self, handler_factory: Callable[[], asyncio.Protocol]
    ) -> Callable[[], KeptConnection]:
        """The listener's protocol factory: each connection kept by this keeper, and
        once admitted handed to a protocol ``handler_factory`` makes (aiohttp's)."""
        return lambda: KeptConnection(self, handler_factory)

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        connection = self.connections.get(request.transport) if request.transport else None
        if connection is None:
            return await handler(request)
        connection.requests += 1
        connection.served += 1
        try:
            if connection.proxied:
                return await self._forwarded(request, handler, connection.address)
            refusal = self.request_refusal(request, connection.address)
            if refusal is not None:
                return refused_request(refusal)
            return await handler(request)
        finally:
            connection.request_ended()

    def connection_refusal(self, address: str) -> str | None:
        """Why a direct caller's new TCP connection is refused, or None (it is counted
        open in the guard then). At the limit at once, an idle kept-alive connection of
        the same address makes way for it (``make_way``)."""
        if self.guard.open_from(address) >= self.guard.max_at_once:
            self.make_way(address)
        refusal = self.guard.admit(address, new=False)
        if refusal is None and not self.connections_a_minute.take(address, self.clock()):
            self.guard.release(address)
            TALLY.refused["limits"] += 1
            refusal = PER_MINUTE_MESSAGE
        return refusal

    def make_way(self, address: str) -> bool:
        """Close the connection from ``address`` that has been idle longest since a
        request it served (a browser keeps them for its next request; True), or none.

        A browser holds up to six connections to a host, kept alive after its requests
        until ``request_wait``: two or three browsers behind one NAT address loading the
        page at once held all eight places with idle ones, and the page's files were
        refused. An idle connection costs its browser nothing to lose (HTTP lets a
        server close one at any time; the browser opens another), so a new connection
        takes its place. Never one with a request in progress (a WebSocket is one while
        it is open) or one that has served nothing yet (a silent or half-sent one): a
        flood of those stays held to the limit, and the new connections stay held to
        the limits a minute."""
        idle = [
            kept
            for kept in self.connections.values()
            if kept.address == address and not kept.proxied and kept.idle
        ]
        if not idle:
            return False
        min(idle, key=lambda kept: kept.quiet_since).close_idle()
        return True

    def request_refusal(self, request: web.Request, address: str) -> str | None:
        """Why a request from ``address`` is refused, or None: any request is one of the
        address's requests a minute; the page also one of its new connections, and the
        WebSocket too unless its page's load paid for it."""
        refusal: str | None = None
        if not self.requests_a_minute.take(address, self.clock()):
            TALLY.refused["limits"] += 1
            refusal = REQUESTS_MESSAGE
        elif request.path == PAGE_PATH:
            refusal = self.guard.page_loaded(address)
        elif request.path == SESSION_PATH:
            refusal = self.guard.session_opened(address)
        if refusal is not None:
            self.log.info(address, "web request refused: %s", refusal)
        return refusal

    async def _forwarded(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
        proxy: str,
    ) -> web.StreamResponse:
        """A trusted proxy's request: counted against its caller's address while it runs."""
        try:
            address = caller_address(request, self.trusted, proxy)
        except ForwardedError as error:
            self.log.info(proxy, "web request from the proxy refused: %s", error)
            return refused_request(f"Bad request: {error}.", status=400)
        refusal = self.guard.admit(address, new=False)
        if refusal is not None:
            self.log.info(address, "web request refused: %s", refusal)
            banned = self.guard.bans.refusal(address) is not None
            return refused_request(refusal, status=403 if banned else 429)
        try:
            refusal = self.request_refusal(request, address)
            if refusal is not None:
                return refused_request(refusal)
            return await handler(request.clone(remote=address))
        finally:
            self.guard.release(address)


class KeptConnection(asyncio.Protocol):
    """One TCP connection: refused at once, or handed to aiohttp's protocol and watched."""

    def __init__(
        self, keeper: ConnectionKeeper, handler_factory: Callable[[], asyncio.Protocol]
    ) -> None:
        self.keeper = keeper
        self.handler_factory = handler_factory
        self.handler: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.proxied = False
        """From a trusted proxy: its requests are counted, each as its caller's."""
        self.requests = 0
        """Requests in progress on this connection (a WebSocket is one while it is open)."""
        self.served = 0
        self.quiet_since = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        keeper = self.keeper
        self.address = address_of(transport.get_extra_info("peername"))
        self.proxied = is_trusted(self.address, keeper.trusted)
        refusal = None if self.proxied else keeper.connection_refusal(self.address)
        if refusal is not None:
            keeper.log.info(self.address, "web connection refused: %s", refusal)
            banned = keeper.guard.bans.refusal(self.address) is not None
            transport.write(refusal_response(refusal, banned=banned))
            # Closed for writing at once; what the caller already sent is read and thrown
            # away for a moment, so that closing does not reset the line before the 429
            # is read (a socket closed with unread input sends RST).
            transport.write_eof()
            self._timer = asyncio.get_running_loop().call_later(
                REFUSED_LINGER_SECONDS, transport.close
            )
            return
        self.transport = transport
        keeper.connections[transport] = self
        self.handler = self.handler_factory()
        self.handler.connection_made(transport)
        self.quiet_since = asyncio.get_running_loop().time()
        self._watch(keeper.request_wait)

    def data_received(self, data: bytes) -> None:
        if self.handler is not None:
            self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        # A refused connection (no handler) closes when the caller has said all.
        return self.handler.eof_received() if self.handler is not None else False

    def pause_writing(self) -> None:
        if self.handler is not None:
            self.handler.pause_writing()

    def resume_writing(self) -> None:
        if self.handler is not None:
            self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        handler, self.handler = self.handler, None
        transport, self.transport = self.transport, None
        # None: refused (never counted), or closed to make way (released then).
        if transport is not None:
            self.keeper.connections.pop(transport, None)
            if not self.proxied:
                self.keeper.guard.release(self.address)
        if handler is not None:
            handler.connection_lost(exc)

    @property
    def idle(self) -> bool:
        """Kept alive after the requests it served, with none in progress."""
        transport = self.transport
        return (
            transport is not None
            and not transport.is_closing()
            and self.served > 0
            and self.requests == 0
            and transport.get_write_buffer_size() == 0
        )

    def close_idle(self) -> None:
        """Close this idle connection and give up its place at once (``make_way``), not
        when the loop next reports it lost."""
        transport = self.transport
        if transport is None:
            return
        self.keeper.connections.pop(transport, None)
        self.transport = None
        if not self.proxied:
            self.keeper.guard.release(self.address)
        transport.close()

    def request_ended(self) -> None:
        self.requests -= 1
        if self.requests == 0:
            self.quiet_since = asyncio.get_running_loop().time()

    def _watch(self, seconds: float) -> None:
        self._timer = asyncio.get_running_loop().call_later(seconds, self._check)

    def _check(self) -> None:
        self._timer = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        keeper = self.keeper
        if self.requests:
            self._watch(keeper.request_wait)
            return
        quiet = asyncio.get_running_loop().time() - self.quiet_since
        sending = transport.get_write_buffer_size() > 0
        if quiet < keeper.request_wait or (sending and quiet < keeper.longest_wait):
            # A response still going out to a slow reader, or a request just ended.
            self._watch(max(0.5, keeper.request_wait - quiet))
            return
        if not self.served:  # a browser's idle kept-alive connection is no news
            keeper.log.info(
                self.address, "web connection closed: no request within %.0f s", keeper.request_wait
            )
        transport.close()
