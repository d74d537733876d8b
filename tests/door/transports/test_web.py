"""The door in a real (headless) browser: the page, the WebSocket transport, a whole game
by key presses, a browser caller against a telnet caller, origins and telnet tunnels.

Chromium comes from the system (Debian's ``chromium``; CI installs it) and Playwright
drives it; nothing is downloaded here. Without either the browser tests skip, saying why.
Screenshots go to $CRIBBAGE_SCREENSHOTS when it is set."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from door.app.door import Door
from door.config import Config, config_from_mapping
from door.serve import Listening, run_server
from tests.door.netclients import Caller, TelnetCaller, free_port
from tests.door.test_end_to_end import play_one_game, play_until

CHROMIUM = os.environ.get("CRIBBAGE_CHROMIUM") or shutil.which("chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
KEY_NAMES = {
    b"\r": "Enter",
    b"\x1b": "Escape",
    b"\x1b[A": "ArrowUp",
    b"\x1b[B": "ArrowDown",
    b"\x1b[C": "ArrowRight",
    b"\x1b[D": "ArrowLeft",
    b"\x7f": "Backspace",
    b"\x1b[3~": "Delete",
}
SCREEN_JS = """() => {
    // Every row, and where the door's 24-row picture starts: centred in a taller
    // terminal (door/term/canvas.py), so the status line is its row 23.
    const term = window.door.term;
    const buffer = term.buffer.active;
    const rows = [];
    for (let y = 0; y < term.rows; y++) {
        const line = buffer.getLine(buffer.viewportY + y);
        rows.push(line ? line.translateToString(true).padEnd(80) : " ".repeat(80));
    }
    return {rows: rows, top: Math.max(0, Math.floor((term.rows - 24) / 2))};
}"""


def web_config(tmp_path: Path) -> Config:
    return config_from_mapping(
        {
            "server": {"telnet_port": free_port(), "ssh_port": 0, "data_dir": str(tmp_path)},
            "game": {"computer_pause_seconds": 0},
            "web": {"port": free_port()},
        }
    )


@asynccontextmanager
async def running(config: Config) -> AsyncIterator[tuple[Listening, Door]]:
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(
        run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
    )
    try:
        yield await asyncio.wait_for(ready, 10), await opened
    finally:
        stop.set()
        await asyncio.wait_for(server, 10)


class _Screen:
    def __init__(self) -> None:
        self.display = [" " * 80] * 24


class BrowserCaller(Caller):
    """A caller at the door's page in Chromium: the screen is read from xterm.js's
    buffer, keys are pressed on the page's keyboard."""

    def __init__(self, page: Any) -> None:
        super().__init__()
        self.page = page
        self.screen = _Screen()  # type: ignore[assignment]
        self.whole: list[str] = []
        """Every row of the terminal (``screen.display`` is the door's picture)."""
        self.watch = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            try:
                shown = await self.page.evaluate(SCREEN_JS)
            except Exception:  # the page is going away
                return
            rows, top = shown["rows"], shown["top"]
            if rows != self.whole:
                self.whole = rows
                self.screen.display = rows[top : top + 24]
                self.received += 1
            await asyncio.sleep(0.03)

    @property
    def text(self) -> str:
        return "\n".join(self.whole)

    async def send(self, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        if raw in KEY_NAMES:
            await self.page.keyboard.press(KEY_NAMES[raw])
            return
        for piece in re.split(rb"(\r)", raw):
            if piece == b"\r":
                await self.page.keyboard.press("Enter")
            elif piece:
                await self.page.keyboard.type(piece.decode())


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    playwright_api = pytest.importorskip(
        "playwright.async_api", reason="Playwright for Python is not installed"
    )
    if not CHROMIUM:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)")
    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


async def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("CRIBBAGE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / f"{name}.png"))


async def open_page(browser: Any, port: int) -> tuple[Any, BrowserCaller]:
    page = await browser.new_page(viewport={"width": 1024, "height": 640})
    await page.goto(f"http://127.0.0.1:{port}/")
    caller = BrowserCaller(page)
    return page, caller


def test_a_whole_game_in_the_browser(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> str:
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page, caller = await open_page(browser, listening.web[1])
            await caller.come_as_guest("Webby")
            await caller.wait_for("Play the computer")
            await shoot(page, "lobby")

            async def pictures() -> None:  # the middle of the play, and the show
                await caller.wait_for("Count", timeout=60)
                await shoot(page, "pegging")
                await caller.wait_for("counts ", timeout=120)
                await shoot(page, "show")

            pictures_task = asyncio.create_task(pictures())
            screen = await asyncio.wait_for(play_one_game(caller), 600)
            pictures_task.cancel()
            caller.watch.cancel()
            return screen

    screen = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen


def test_a_browser_caller_plays_a_telnet_caller(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> tuple[str, str, tuple[int, ...]]:
        async with running(config) as (listening, door), chromium() as browser:
            assert listening.web is not None and listening.telnet is not None
            page, webby = await open_page(browser, listening.web[1])
            await webby.come_as_guest("Webby")
            tess = TelnetCaller()
            await tess.connect(listening.telnet[1])
            await tess.come_as_guest("Tess")
            await tess.wait_for("Webby ")
            number = re.search(r"(\d)\s+Webby ", tess.text)
            assert number, tess.text
            await tess.send("w" + number.group(1))
            await webby.wait_for("Tess challenges you")
            await webby.send("y")
            await webby.wait_for("Chat: ")
            await webby.send("hello from a browser\r")
            await tess.wait_for("Webby: hello from a browser")
            table = door.presence.tables[0]
            dealer = tess if table.game.dealer == 0 else webby
            await dealer.send("\r")
            await play_until([tess, webby], lambda: table.over, limit=400)
            await webby.wait_for("Game over")
            await tess.wait_for("Game over")
            await shoot(page, "browser-vs-telnet")
            webby.watch.cancel()
            return webby.text, tess.text, tuple(table.game.scores)

    webby_screen, tess_screen, scores = asyncio.run(scenario())
    assert max(scores) == 121 > min(scores)
    assert "Game over" in webby_screen and "Game over" in tess_screen


def test_another_sites_page_cannot_open_a_session(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> tuple[int, int]:
        async with running(config) as (listening, _door), aiohttp.ClientSession() as http:
            assert listening.web is not None
            url = f"http://127.0.0.1:{listening.web[1]}/ws"
            async with http.get(url, headers={"Origin": "https://evil.example"}) as refused:
                refused_status = refused.status
            page = await http.get(f"http://127.0.0.1:{listening.web[1]}/nothing-here")
            return refused_status, page.status

    assert asyncio.run(scenario()) == (403, 404)


def test_a_bbs_web_client_tunnels_telnet(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> bytes:
        async with running(config) as (listening, _door), aiohttp.ClientSession() as http:
            assert listening.web is not None
            url = f"http://127.0.0.1:{listening.web[1]}/ws"
            async with http.ws_connect(url, protocols=("telnet",)) as ws:
                assert ws.protocol == "telnet"
                received = b""
                # A telnet client answers the door's questions: WILL NAWS, then 80x24.
                await ws.send_bytes(b"\xff\xfb\x1f\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0")
                while b"G guest" not in received:
                    message = await asyncio.wait_for(ws.receive(), 10)
                    received += message.data
                await ws.send_bytes(b"g")
                while b"Your name:" not in received:
                    message = await asyncio.wait_for(ws.receive(), 10)
                    received += message.data
                return received

    received = asyncio.run(scenario())
    assert received.startswith(b"\xff")  # the door negotiated telnet first
    assert b"Your name:" in received  # and the "g" reached it as a key, IAC did not


def test_the_page_on_a_touch_screen_is_told_to_tap_and_a_mouse_to_click(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def arrival(query: str) -> str:
        async with running(config) as (listening, _door), aiohttp.ClientSession() as http:
            assert listening.web is not None
            url = f"http://127.0.0.1:{listening.web[1]}/ws{query}"
            async with http.ws_connect(url) as ws:  # as door.mjs does, on a phone or not
                received = b""
                while b"G guest" not in received:
                    message = await asyncio.wait_for(ws.receive(), 10)
                    received += message.data
                return received.decode()

    assert "Tap a line, or press its key." in asyncio.run(arrival("?touch=1"))
    with_a_mouse = asyncio.run(arrival(""))
    assert "Click a line, or press its key." in with_a_mouse
    assert "Tap" not in with_a_mouse
    # Anything else the query says is a mouse, as before.
    assert "Click a line" in asyncio.run(arrival("?touch=%1b%5b2J"))


TERMINAL_JS = """() => {
    const term = window.door.term;
    const box = term.element.getBoundingClientRect();
    const right = [];
    for (let y = 0; y < term.rows; y++) {
        const line = term.buffer.active.getLine(term.buffer.active.viewportY + y);
        right.push(line ? line.translateToString(true).slice(80) : "");
    }
    return {cols: term.cols, rows: term.rows, font: term.options.fontSize,
            right: box.right, bottom: box.bottom, pane: right.join("\\n")};
}"""


@pytest.mark.parametrize(
    ("width", "height"), [(1800, 1000), (1024, 768), (390, 844)], ids=["large", "xga", "phone"]
)
def test_a_larger_window_gets_more_rows_and_columns(
    tmp_path: Path, width: int, height: int
) -> None:
    """The page keeps a reading font and fills the window with the terminal (README: a
    larger window gives more rows and columns), shrinking the font only where 80x24
    would not fit otherwise; the door draws for the size it is told."""
    config = web_config(tmp_path)

    async def scenario() -> dict[str, Any]:
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(f"http://127.0.0.1:{listening.web[1]}/")
            caller = BrowserCaller(page)
            await caller.come_as_guest("Webby")
            await caller.wait_for("Press a key from the menu")
            await shoot(page, f"lobby-{width}x{height}")
            size: dict[str, Any] = await page.evaluate(TERMINAL_JS)
            caller.watch.cancel()
            return size

    size = asyncio.run(scenario())
    assert size["cols"] >= 80 and size["rows"] >= 24
    assert size["right"] <= width and size["bottom"] <= height  # all of it in the window
    if width >= 1800:
        assert size["font"] <= 18  # not a larger font: more of the terminal
        assert size["cols"] >= 132 and size["rows"] >= 37
        assert "Lobby chat" in size["pane"]  # wide enough for the door's side pane
