"""The door in a web browser: one page with a terminal (xterm.js, shipped in the package)
and a WebSocket that is, under the Terminal seam, one more transport beside telnet and SSH.

``GET /`` is the page, ``GET /ws`` the WebSocket (aiohttp). The page's own protocol:
binary frames carry bytes both ways (keys and pastes up; the screen down, always UTF-8),
text frames up are JSON ``{"cols": C, "rows": R}`` on every resize. BBS web clients that
tunnel telnet over a WebSocket (fTelnet and its kind, subprotocol ``telnet`` or
``binary``) get a telnet session instead: their binary frames run through the same
telnetlib3 protocol as the door's telnet listener, so IAC commands, window sizes and
terminal types are negotiated, never read as keys.

A WebSocket is refused (403) when its ``Origin`` is another site's, unless ``[web]
allowed_origins`` lists it, so no other page can open a session in the caller's browser.
Frames are bounded (4 KiB up), and so is everything the terminal holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from door.app.call import Caller
from door.defence.guard import address_of
from door.defence.ratelimit import TokenBucket
from door.logtext import escaped
from door.term.charset import Charset
from door.term.terminal import StreamTerminal

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES: Final = 4096
RESIZES_PER_SECOND: Final = 20.0
RESIZE_BURST: Final = 50
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


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket may come from this door's own page, or from a listed site.
    No Origin at all is a program, not a page in someone's browser: let it in."""
    if not origin:
        return True
    if origin.rstrip("/") in {entry.rstrip("/") for entry in allowed}:
        return True
    return bool(host) and urlsplit(origin).netloc.lower() == (host or "").lower()


class _PageSource:
    """Keys from the page's binary frames; its JSON text frames resize the terminal."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.terminal: StreamTerminal | None = None
        # A page resizes a few times a second at most; a script sending thousands is
        # refused the surplus (each would be a repaint).
        self.resizes = TokenBucket(RESIZES_PER_SECOND, RESIZE_BURST)

    async def read(self) -> bytes:
        while True:
            message = await self.ws.receive()
            if message.type == WSMsgType.BINARY:
                return bytes(message.data)
            if message.type == WSMsgType.TEXT:
                self._control(message.data)
                continue
            return b""  # closed, closing or an error: the caller has gone

    def _control(self, text: str) -> None:
        try:
            size = json.loads(text)
            cols, rows = int(size["cols"]), int(size["rows"])
        except (ValueError, TypeError, KeyError):
            return  # not a message this page sends: ignore it
        if self.terminal is not None and self.resizes.take():
            self.terminal.resize(cols, rows)


class _WebSocketSink:
    """Output gathered by ``write`` and sent as one binary frame by ``drain``."""

    def __init__(self, ws: web.WebSocketResponse, transport: Any) -> None:
        self.ws = ws
        self.transport = transport
        self.pending = bytearray()

    def write(self, data: bytes) -> None:
        self.pending += data

    async def drain(self) -> None:
        if self.pending:
            data, self.pending = bytes(self.pending), bytearray()
            await self.ws.send_bytes(data)

    def buffered(self) -> int:
        waiting = self.transport.get_write_buffer_size() if self.transport is not None else 0
        return len(self.pending) + int(waiting)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self.ws.close())


class _TelnetOverWebSocket(asyncio.Transport):
    """What telnetlib3's protocol writes to, for a client tunnelling telnet in frames."""

    def __init__(self, ws: web.WebSocketResponse, peer: Any) -> None:
        super().__init__()
        self.ws = ws
        self.peer = peer
        self.closing = False
        self._sends: set[asyncio.Task[None]] = set()
        self.reading = asyncio.Event()
        """Clear while telnetlib3's reader holds too much: frames wait in the socket."""
        self.reading.set()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.closing or not data:
            return
        task = asyncio.get_running_loop().create_task(self.ws.send_bytes(bytes(data)))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    def get_write_buffer_size(self) -> int:
        return len(self._sends)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": self.peer}.get(name, default)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            asyncio.get_running_loop().create_task(self.ws.close())

    def pause_reading(self) -> None:
        self.reading.clear()

    def resume_reading(self) -> None:
        self.reading.set()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass


class WebServer:
    """The running web listener, shaped like the others for ``serve``."""

    def __init__(self, runner: web.AppRunner, site: web.TCPSite) -> None:
        self.runner = runner
        self.site = site

    @property
    def sockets(self) -> list[Any]:
        server = self.site._server  # noqa: SLF001 - aiohttp keeps the asyncio server here
        return list(server.sockets) if server is not None else []

    def close(self) -> None:
        asyncio.get_running_loop().create_task(self.runner.cleanup())

    async def wait_closed(self) -> None:
        await self.runner.cleanup()


async def start_web(door: Any, host: str, port: int, allowed_origins: tuple[str, ...]) -> WebServer:
    """Serve the page and its WebSocket; returns the listener."""
    page = _asset("index.html")

    async def index(request: web.Request) -> web.Response:
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    async def asset(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        response = web.Response(
            body=_asset(name),
            content_type=STATIC_FILES[name],
            headers={"Cache-Control": "max-age=3600"},
        )
        response.enable_compression()  # xterm.js is 345 KB as it is, about 90 gzipped
        return response

    async def websocket(request: web.Request) -> web.StreamResponse:
        if not origin_allowed(request.headers.get("Origin"), request.host, allowed_origins):
            logger.info("web: refused a WebSocket from another site's page")
            raise web.HTTPForbidden(text="This door takes callers from its own page only.")
        peer = request.transport.get_extra_info("peername") if request.transport else None
        address = address_of(peer)
        refusal = door.guard.admit(address)
        if refusal is not None:  # the same per-address limits as telnet and SSH
            logger.info("web connection from %s refused: %s", escaped(address), refusal)
            raise web.HTTPTooManyRequests(text=refusal)
        try:
            ws = web.WebSocketResponse(
                protocols=TELNET_SUBPROTOCOLS, max_msg_size=MAX_FRAME_BYTES, heartbeat=30
            )
            await ws.prepare(request)
            peer_text = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else address
            if ws.ws_protocol in TELNET_SUBPROTOCOLS:
                await _serve_telnet_tunnel(door, ws, peer, peer_text)
            else:
                await _serve_page(door, ws, request, peer_text)
            return ws
        finally:
            door.guard.release(address)

    async def no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/favicon.ico", no_icon)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/{name}", asset)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_port=door.shares_ports or None)
    await site.start()
    return WebServer(runner, site)


async def _serve_page(
    door: Any, ws: web.WebSocketResponse, request: web.Request, peer: str
) -> None:
    source = _PageSource(ws)
    terminal = StreamTerminal(
        source,
        _WebSocketSink(ws, request.transport),
        term_type="xterm-256color",
        size=(80, 24),
        charset=Charset.UTF8,
        **door.terminal_limits(),
    )
    source.terminal = terminal
    terminal.start()
    caller = Caller(
        name=None, transport="web", peer=peer, connected_at=asyncio.get_running_loop().time()
    )
    await door.serve_caller(terminal, caller)


async def _serve_telnet_tunnel(door: Any, ws: web.WebSocketResponse, peer: Any, text: str) -> None:
    from door.transports.telnet import DoorTelnetServer, terminal_for

    finished = asyncio.Event()
    started = asyncio.get_running_loop().time()

    async def shell(reader: Any, writer: Any) -> None:
        try:
            terminal = terminal_for(reader, writer, **door.terminal_limits())
            caller = Caller(name=None, transport="web-telnet", peer=text, connected_at=started)
            await door.serve_caller(terminal, caller)
        finally:
            finished.set()

    protocol = DoorTelnetServer(shell=shell, encoding=False, connect_maxwait=1.5, timeout=False)
    transport = _TelnetOverWebSocket(ws, peer)
    protocol.connection_made(transport)
    try:
        async for message in ws:
            # The protocol pauses "reading" when the caller sends faster than the door
            # takes keys: then the next frame waits in the WebSocket, not in memory.
            await transport.reading.wait()
            if message.type == WSMsgType.BINARY:
                protocol.data_received(bytes(message.data))
            elif message.type == WSMsgType.TEXT:
                protocol.data_received(message.data.encode("utf-8"))
    finally:
        protocol.connection_lost(None)
        transport.closing = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(finished.wait(), 5)
