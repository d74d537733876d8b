"""The door's page on a phone (headless Chromium with a phone's viewport and touch): the
keys a soft keyboard lacks on screen, no soft keyboard until asked for, 80x24 legible in
landscape, a note to turn the phone in portrait, and a whole game played by tapping.

Screenshots go to $CRIBBAGE_SCREENSHOTS when it is set."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.door.test_end_to_end import play_one_game
from tests.door.transports.test_web import (
    BrowserCaller,
    chromium,
    running,
    shoot,
    web_config,
)

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 844, "height": 390}
# What each on-screen key sends (index.html's #keys), by its label.
BUTTONS = {
    b"\r": "Return",
    b"\x1b[3~": "Delete",
    b"\x1b[D": "Left",
    b"\x1b[C": "Right",
    b"\x1b": "Escape",
    b"y": "y",
    b"n": "n",
    b"c": "c, chat",
    b"?": "Help",
}
LAYOUT_JS = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: r.width, height: r.height}; };
    const term = window.door.term;
    return {
        touch: window.door.touch,
        cols: term.cols, rows: term.rows, font: term.options.fontSize,
        terminal: box(document.querySelector("#screen .xterm-screen")),
        keys: getComputedStyle(document.getElementById("keys")).display === "none"
            ? null : box(document.getElementById("keys")),
        buttons: [...document.querySelectorAll("#keys button")].map(box),
        turn: getComputedStyle(document.getElementById("turn")).display !== "none",
        inputmode: term.textarea.getAttribute("inputmode"),
        scrollWidth: document.documentElement.scrollWidth,
    };
}"""


class PhoneCaller(BrowserCaller):
    """A caller on a phone: keys on the page's row are tapped; anything else (a name, a
    menu letter) is typed on the soft keyboard, opened by tapping its key first."""

    typing = False

    async def send(self, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        if raw in BUTTONS:
            await self.page.get_by_role("button", name=BUTTONS[raw], exact=True).tap()
            return
        if not self.typing:
            await self.page.get_by_role("button", name="Keyboard").tap()
            self.typing = True
        for piece in re.split(rb"(\r)", raw):
            if piece == b"\r":
                await self.page.get_by_role("button", name="Return", exact=True).tap()
            elif piece:
                await self.page.keyboard.type(piece.decode())


async def phone_page(browser: Any, port: int, viewport: dict[str, int]) -> Any:
    context = await browser.new_context(
        viewport=viewport, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    await page.wait_for_function("() => window.door && window.door.term.cols >= 80")
    return page


def within(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["left"] >= outer["left"] - 0.5
        and inner["right"] <= outer["right"] + 0.5
        and inner["top"] >= outer["top"] - 0.5
        and inner["bottom"] <= outer["bottom"] + 0.5
    )


def overlaps(one: dict[str, float], other: dict[str, float]) -> bool:
    return not (
        one["right"] <= other["left"]
        or other["right"] <= one["left"]
        or one["bottom"] <= other["top"]
        or other["bottom"] <= one["top"]
    )


def test_the_page_on_a_phone_held_upright_and_sideways(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> dict[str, dict[str, Any]]:
        found = {}
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            for name, viewport in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
                page = await phone_page(browser, listening.web[1], viewport)
                await page.wait_for_function(
                    "() => window.door.term.buffer.active.getLine(0) !== undefined"
                )
                await asyncio.sleep(0.3)  # let the arrival screen paint before the picture
                await shoot(page, f"phone-{name}")
                found[name] = await page.evaluate(LAYOUT_JS)
                found[name]["viewport"] = {
                    "left": 0,
                    "top": 0,
                    "right": viewport["width"],
                    "bottom": viewport["height"],
                }
                await page.context.close()
            desktop = await browser.new_page(viewport={"width": 1024, "height": 640})
            await desktop.goto(f"http://127.0.0.1:{listening.web[1]}/")
            await desktop.wait_for_function("() => window.door && window.door.term.cols >= 80")
            found["desktop"] = await desktop.evaluate(LAYOUT_JS)
        return found

    found = asyncio.run(scenario())
    for name in ("portrait", "landscape"):
        layout = found[name]
        viewport = layout["viewport"]
        assert layout["touch"], name
        assert layout["cols"] >= 80 and layout["rows"] >= 24, (name, layout)
        assert layout["inputmode"] == "none", name  # no soft keyboard over the board
        assert layout["keys"] is not None and within(layout["keys"], viewport), name
        assert len(layout["buttons"]) == 10
        for button in layout["buttons"]:
            assert button["height"] >= 44 and button["width"] >= 36, (name, button)
            assert within(button, viewport), (name, button)
        assert not overlaps(layout["terminal"], layout["keys"]), (name, layout)
        assert within(layout["terminal"], viewport), (name, layout)
        assert layout["scrollWidth"] <= viewport["right"], name
    assert found["portrait"]["turn"] and not found["landscape"]["turn"]
    # Sideways, 80x24 fills the screen at a size that reads (upright it cannot).
    assert found["landscape"]["font"] >= 11, found["landscape"]
    assert found["landscape"]["terminal"]["height"] >= 0.85 * LANDSCAPE["height"]
    # A desktop browser keeps the page as it was: no key row, no note.
    assert not found["desktop"]["touch"]
    assert found["desktop"]["keys"] is None and not found["desktop"]["turn"]
    assert found["desktop"]["inputmode"] != "none"


def test_a_whole_game_by_taps_on_a_phone_held_sideways(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> tuple[str, int]:
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page = await phone_page(browser, listening.web[1], LANDSCAPE)
            caller = PhoneCaller(page)
            await caller.come_as_guest("Thumbs")
            await caller.wait_for("Play the computer")
            taps = 0
            original_tap = caller.send

            async def counted(data: bytes | str) -> None:
                nonlocal taps
                raw = data.encode() if isinstance(data, str) else data
                taps += raw in BUTTONS
                await original_tap(data)

            caller.send = counted  # type: ignore[method-assign]
            await shoot(page, "phone-lobby")

            async def picture() -> None:  # the middle of the play
                await caller.wait_for("Count", timeout=60)
                await shoot(page, "phone-pegging")

            picture_task = asyncio.create_task(picture())
            screen = await asyncio.wait_for(play_one_game(caller), 600)
            picture_task.cancel()
            caller.watch.cancel()
            return screen, taps

    screen, taps = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen
    assert taps > 50  # the game's cards and answers went by the on-screen keys
