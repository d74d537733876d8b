"""The door in a web browser: one page with a terminal (xterm.js, shipped in the package)
and a WebSocket that is, under the Terminal seam, one more transport beside telnet and SSH.

``GET /`` is the page, ``GET /ws`` the WebSocket (aiohttp). The page's own protocol:
binary frames carry bytes both ways (keys and pastes up; the screen down, always UTF-8),
text frames up are JSON ``{"cols": C, "rows": R}`` on every resize, and text frames down,
to a page on a touch screen, the keys the screen offers when they change (``{"keys":
[...]}``, door/term/offers.py), which the page shows as its row of buttons. BBS web clients that
tunnel telnet over a WebSocket (fTelnet and its kind, subprotocol ``telnet`` or
``binary``) get a telnet session instead: their binary frames run through the same
telnetlib3 protocol as the door's telnet listener, so IAC commands, window sizes and
terminal types are negotiated, never read as keys.

A WebSocket is refused (403, and the connection closed) when its ``Origin`` is another
site's, unless ``[web] allowed_origins`` lists it, so no other page can open a session in
the caller's browser. Every connection meets the per-address limits as it arrives and is
closed when no request comes (door/transports/web_guard.py); every frame up is read as it
comes, within rates, and parsed within bounds (door/transports/web_input.py); output is
bounded in bytes as over telnet, and the newest screen is what a slow reader gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
from collections.abc import Coroutine
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from aiohttp import web

from door.app.call import Caller
from door.defence.guard import address_of, peer_text
from door.defence.log_limit import SourceLog
from door.term.charset import Charset
from door.term.offers import Offer
from door.term.sources import InputReceiver
from door.term.terminal import OUTPUT_HIGH_WATER, StreamTerminal
from door.transports.web_forwarded import parse_trusted
from door.transports.web_guard import (
    PAGE_PATH,
    REQUEST_WAIT_SECONDS,
    SESSION_PATH,
    ConnectionKeeper,
    ServerLog,
)
from door.transports.web_input import MAX_FRAME_BYTES, FrameReader, ResizeCoalescer, parse_resize

logger = logging.getLogger(__name__)

MAX_PENDING_INPUT: Final = 16 * 1024
"""Bytes from the page held for the terminal; it reads them as they come, so only a
caller sending faster than keys are taken fills this, and the rest is dropped."""
SESSION_END_SECONDS: Final = 5.0
"""How long a WebSocket's handler waits for its session to end once the caller has gone."""
TELNET_SUBPROTOCOLS: Final = ("telnet", "binary")
STATIC_FILES: Final = {
    "xterm.mjs": "text/javascript",
    "addon-fit.mjs": "text/javascript",
    "door.mjs": "text/javascript",
    "xterm.css": "text/css",
    "XTERM-LICENSE.txt": "text/plain",
}


def _asset(name: str) -> bytes:
    return resources.files("door.resources").joinpath("web", name).read_bytes()


class Asset:
    """One of the page's files, read and gzipped once as the listener starts: gzipping
    xterm.js (345 KB, about 90 gzipped) at every request took 14.6 ms of the worker's
    processor, every caller waiting, at each fresh page load (or a script asking for it
    over and over)."""

    def __init__(self, body: bytes, content_type: str) -> None:
        self.body = body
        self.gzipped = gzip.compress(body, compresslevel=9, mtime=0)
        self.content_type = content_type

    def response(self, accept_encoding: str) -> web.Response:
        headers = {"Cache-Control": "max-age=3600", "Vary": "Accept-Encoding"}
        body = self.body
        if takes_gzip(accept_encoding):
            body = self.gzipped
            headers["Content-Encoding"] = "gzip"
        return web.Response(body=body, content_type=self.content_type, headers=headers)


def takes_gzip(accept_encoding: str) -> bool:
    """Whether a request's Accept-Encoding takes gzip (named, or ``*``, with a q above 0).

    >>> takes_gzip("gzip, deflate, br"), takes_gzip("br;q=1, gzip;q=0"), takes_gzip("")
    (True, False, False)
    >>> takes_gzip("*"), takes_gzip("identity, *;q=0.5")
    (True, True)
    """
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = params.strip().lower().removeprefix("q=")
        try:
            return not q or float(q) > 0
        except ValueError:
            return False
    return False


def caller_peer(request: web.Request) -> Any:
    """The caller's (address, port): the socket's, or for a request a trusted proxy passed
    on, the address it forwards (``request.remote``, set by web_guard) and port 0, since
    the proxy does not say which port its caller used."""
    socket_peer = request.transport.get_extra_info("peername") if request.transport else None
    if request.remote is not None and request.remote != address_of(socket_peer):
        return (request.remote, 0)
    return socket_peer


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket may come from this door's own page, or from a listed site.
    No Origin at all is a program, not a page in someone's browser: let it in."""
    if not origin:
        return True
    if origin.rstrip("/") in {entry.rstrip("/") for entry in allowed}:
        return True
    return bool(host) and urlsplit(origin).netloc.lower() == (host or "").lower()


class _PageSource:
    """Keys from the page's binary frames, handed to the caller's terminal as the frame
    reader receives them (``deliver_to``: no task of the terminal's reads them). Held
    here, up to ``MAX_PENDING_INPUT`` bytes, only before the terminal starts and while
    the terminal holds its input back (``hold``: keys past the caller's rate); frames
    past that are dropped."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._arrived = asyncio.Event()
        self._ended = False
        self._receiver: InputReceiver | None = None
        self._held = False

    def feed(self, data: bytes) -> bool:
        """Hand ``data`` on, or keep it; False (dropped) when it has no room."""
        receiver = self._receiver
        if receiver is not None and not self._held:
            receiver.received(data)
            return True
        if len(self._pending) + len(data) > MAX_PENDING_INPUT:
            return False
        self._pending += data
        self._arrived.set()
        return True

    def end(self) -> None:
        """The caller has gone: the terminal's input ends (what was held is dropped)."""
        self._ended = True
        self._arrived.set()
        receiver, self._receiver = self._receiver, None
        if receiver is not None:
            receiver.ended()

    def deliver_to(self, receiver: InputReceiver | None) -> None:
        self._receiver = receiver
        if receiver is not None and not self._held:
            self._deliver_held(receiver)

    def hold(self, seconds: float) -> None:
        if not self._held:
            self._held = True
            asyncio.get_running_loop().call_later(seconds, self._release)

    def _release(self) -> None:
        self._held = False
        if self._receiver is not None:
            self._deliver_held(self._receiver)

    def _deliver_held(self, receiver: InputReceiver) -> None:
        if self._pending:
            data, self._pending = bytes(self._pending), bytearray()
            receiver.received(data)
        if self._ended and self._receiver is not None:
            self._receiver = None
            receiver.ended()

    async def read(self) -> bytes:
        while not self._pending and not self._ended:
            self._arrived.clear()
            await self._arrived.wait()
        data, self._pending = bytes(self._pending), bytearray()
        return data


class _WebSocketSink:
    """Output gathered by ``write`` and sent as one binary frame by ``drain``, then the
    keys on offer, when they changed, as a text frame after the picture that offers them
    (``{"keys": [{"label": "RETURN", "words": "RETURN throw", "send": "\\r"}, ...]}``:
    the page's buttons on a touch screen); dropped quietly once the WebSocket is
    closing."""

    def __init__(self, ws: web.WebSocketResponse, transport: Any) -> None:
        self.ws = ws
        self.transport = transport
        self.pending = bytearray()
        self.keys_message = ""

    def write(self, data: bytes) -> None:
        if not self.ws.closed:
            self.pending += data

    def offer_keys(self, offers: tuple[Offer, ...]) -> None:
        keys = [{"label": o.label, "words": o.words, "send": o.send} for o in offers]
        self.keys_message = json.dumps({"keys": keys})

    async def drain(self) -> None:
        if self.pending:
            data, self.pending = bytes(self.pending), bytearray()
            if self.ws.closed:
                return
            await self.ws.send_bytes(data)
        if self.keys_message:
            message, self.keys_message = self.keys_message, ""
            if not self.ws.closed:
                await self.ws.send_str(message)

    def buffered(self) -> int:
        waiting = self.transport.get_write_buffer_size() if self.transport is not None else 0
        return len(self.pending) + len(self.keys_message) + int(waiting)

    def close(self) -> None:
        _close_soon(self.ws)


class _TelnetOverWebSocket(asyncio.Transport):
    """What telnetlib3's protocol writes to, for a client tunnelling telnet in frames.

    Writes are gathered and sent by one task, a frame at a time; the bytes waiting are
    what ``get_write_buffer_size`` says, and past ``OUTPUT_HIGH_WATER`` the protocol is
    told to pause writing, so the terminal's drain waits (and its output stall applies)
    as over a socket. Writes to a closing WebSocket are dropped quietly."""

    def __init__(
        self, ws: web.WebSocketResponse, peer: Any, socket: asyncio.BaseTransport | None
    ) -> None:
        super().__init__()
        self.ws = ws
        self.peer = peer
        self.socket = socket
        self.protocol: asyncio.Protocol | None = None
        self.closing = False
        self._pending = bytearray()
        self._in_flight = 0
        self._sender: asyncio.Task[None] | None = None
        self._writing_paused = False
        self.reading = True
        """False while telnetlib3's reader holds as much as it may: frames are dropped."""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.closing or self.ws.closed or not data:
            return
        self._pending += data
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send())
        if not self._writing_paused and self.get_write_buffer_size() > OUTPUT_HIGH_WATER:
            self._writing_paused = True
            if self.protocol is not None:
                self.protocol.pause_writing()

    async def _send(self) -> None:
        try:
            while self._pending and not self.closing:
                data, self._pending = bytes(self._pending), bytearray()
                self._in_flight = len(data)
                await self.ws.send_bytes(data)
                self._in_flight = 0
                self._writing_may_resume()
        except (OSError, RuntimeError):
            # The caller hung up under the write (aiohttp's ClientConnectionResetError is
            # an OSError): an ordinary end, not an error to log.
            self.closing = True
        finally:
            self._pending.clear()
            self._in_flight = 0
            self._sender = None
            self._writing_may_resume()

    def _writing_may_resume(self) -> None:
        if self._writing_paused and self.get_write_buffer_size() <= OUTPUT_HIGH_WATER // 2:
            self._writing_paused = False
            if self.protocol is not None:
                self.protocol.resume_writing()

    def get_write_buffer_size(self) -> int:
        waiting = self.socket.get_write_buffer_size() if self.socket is not None else 0  # type: ignore[attr-defined]
        return len(self._pending) + self._in_flight + int(waiting)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": self.peer}.get(name, default)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            _close_soon(self.ws)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass


def _close_soon(ws: web.WebSocketResponse) -> None:
    if ws.closed:
        return
    with contextlib.suppress(RuntimeError):
        task = asyncio.get_running_loop().create_task(_close_quietly(ws))
        _closing.add(task)
        task.add_done_callback(_closing.discard)


async def _close_quietly(ws: web.WebSocketResponse) -> None:
    with contextlib.suppress(OSError, RuntimeError):
        await ws.close()


_closing: set[asyncio.Task[None]] = set()
"""Strong references to the closing handshakes under way (the loop holds tasks weakly)."""
_sessions: set[asyncio.Task[None]] = set()
"""The same for the page's sessions, each run beside the reader of its frames."""


class WebServer:
    """The running web listener, shaped like the others for ``serve``."""

    def __init__(self, runner: web.AppRunner, server: asyncio.Server) -> None:
        self.runner = runner
        self.server = server
        self._cleanup: asyncio.Task[None] | None = None

    @property
    def sockets(self) -> list[Any]:
        return list(self.server.sockets)

    def close(self) -> None:
        """Stop listening and begin closing the connections (once, however often asked)."""
        self.server.close()
        if self._cleanup is None:
            self._cleanup = asyncio.get_running_loop().create_task(self.runner.cleanup())

    async def wait_closed(self) -> None:
        self.close()
        assert self._cleanup is not None
        await asyncio.shield(self._cleanup)


async def start_web(door: Any, host: str, port: int, allowed_origins: tuple[str, ...]) -> WebServer:
    """Serve the page and its WebSocket; returns the listener."""
    page = _asset("index.html")
    log = SourceLog(logger)
    """One line per address and minute for everything refused or dropped."""

    async def index(request: web.Request) -> web.Response:
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    assets = {name: Asset(_asset(name), kind) for name, kind in STATIC_FILES.items()}

    async def asset(request: web.Request) -> web.Response:
        found = assets.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        return found.response(request.headers.get("Accept-Encoding", ""))

    async def websocket(request: web.Request) -> web.StreamResponse:
        peer = caller_peer(request)
        address = address_of(peer)
        if not origin_allowed(request.headers.get("Origin"), request.host, allowed_origins):
            log.info(address, "web: refused a WebSocket from another site's page")
            refused = web.Response(
                status=403,
                text="This door takes callers from its own page only.",
                headers={"Connection": "close"},
            )
            refused.force_close()
            return refused
        # The per-address limits were applied as the connection arrived and as this
        # request did (a session: its page's load paid for it, or it counted itself),
        # to the caller's address, the one a trusted proxy forwards (web_guard).
        ws = web.WebSocketResponse(
            protocols=TELNET_SUBPROTOCOLS, max_msg_size=MAX_FRAME_BYTES, heartbeat=30
        )
        await ws.prepare(request)
        shown = peer_text(peer) if isinstance(peer, tuple) else address
        reader_args = (request.transport, address, log)
        if ws.ws_protocol in TELNET_SUBPROTOCOLS:
            await _serve_telnet_tunnel(door, ws, peer, shown, reader_args)
        else:
            await _serve_page(door, ws, request, shown, reader_args)
        return ws

    async def no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    login_wait = float(door.config.server.login_timeout_seconds)
    keeper = ConnectionKeeper(
        door.guard,
        log,
        request_wait=min(REQUEST_WAIT_SECONDS, login_wait),
        longest_wait=login_wait,
        trusted=parse_trusted(door.config.web.trusted_proxies),
    )
    app = web.Application(middlewares=[keeper.middleware])
    app.router.add_get(PAGE_PATH, index)
    app.router.add_get("/favicon.ico", no_icon)
    app.router.add_get(SESSION_PATH, websocket)
    app.router.add_get("/{name}", asset)
    runner = web.AppRunner(app, access_log=None, handler_cancellation=False, logger=ServerLog(log))
    await runner.setup()
    assert runner.server is not None
    server = await asyncio.get_running_loop().create_server(
        keeper.protocol_factory(runner.server), host, port, reuse_port=door.shares_ports or None
    )
    return WebServer(runner, server)


ReaderArgs = tuple[Any, str, SourceLog]
"""The socket under a WebSocket, its caller's address and the web's log: what a
FrameReader needs besides the WebSocket and where its frames go."""


async def _serve_page(
    door: Any, ws: web.WebSocketResponse, request: web.Request, peer: str, reader: ReaderArgs
) -> None:
    source = _PageSource()
    terminal = StreamTerminal(
        source,
        _WebSocketSink(ws, request.transport),
        term_type="xterm-256color",
        size=(80, 24),
        charset=Charset.UTF8,
        **door.terminal_limits(),
    )
    resizes = ResizeCoalescer(terminal.resize)
    socket, address, log = reader

    def control(text: str) -> None:
        size = parse_resize(text)
        if size is None:
            log.info(address, "web caller sent a control frame that is not a window size: dropped")
        else:
            resizes.offer(*size)

    frames = FrameReader(ws, socket, address, log, source.feed, control)
    terminal.start()
    caller = Caller(
        name=None,
        transport="web",
        peer=peer,
        connected_at=asyncio.get_running_loop().time(),
        # The page says whether it is on a touch screen; anything else is a mouse.
        touch=request.query.get("touch") == "1",
    )
    await _run_until_gone(door.serve_caller(terminal, caller), frames, terminal, ws)
    source.end()
    resizes.close()


async def _run_until_gone(
    session: Coroutine[Any, Any, None], frames: FrameReader, terminal: Any, ws: Any
) -> None:
    """Run the caller's session while its frames are read; the moment the caller has
    gone the terminal is closed, so the session ends whatever it was waiting for (a
    pause for keys sent too fast included)."""
    running = asyncio.get_running_loop().create_task(session)
    _sessions.add(running)  # the loop holds tasks weakly; one outliving the wait goes on
    running.add_done_callback(_sessions.discard)
    try:
        await frames.run()
    finally:
        terminal.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(running), SESSION_END_SECONDS)
        if not ws.closed:
            await _close_quietly(ws)


async def _serve_telnet_tunnel(
    door: Any, ws: web.WebSocketResponse, peer: Any, text: str, reader: ReaderArgs
) -> None:
    from door.transports.telnet import DoorTelnetServer, terminal_for

    started = asyncio.get_running_loop().time()
    socket, address, log = reader
    terminals: list[Any] = []
    finished = asyncio.Event()

    async def shell(telnet_reader: Any, writer: Any) -> None:
        try:
            terminal = terminal_for(telnet_reader, writer, **door.terminal_limits())
            terminals.append(terminal)
            caller = Caller(name=None, transport="web-telnet", peer=text, connected_at=started)
            await door.serve_caller(terminal, caller)
        finally:
            finished.set()

    protocol = DoorTelnetServer(shell=shell, encoding=False, connect_maxwait=1.5, timeout=False)
    transport = _TelnetOverWebSocket(ws, peer, socket)
    transport.protocol = protocol
    protocol.connection_made(transport)

    def received(data: bytes) -> bool:
        # telnetlib3's reader holds what the door has not read yet, up to its limit;
        # past that the frames are dropped, never queued.
        if not transport.reading or transport.closing:
            return False
        protocol.data_received(data)
        return True

    frames = FrameReader(ws, socket, address, log, received)
    try:
        await frames.run()
    finally:
        # The caller has gone: the session ends now, whatever it was waiting for.
        transport.closing = True
        protocol.connection_lost(None)
        for terminal in terminals:
            terminal.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(finished.wait(), SESSION_END_SECONDS)
