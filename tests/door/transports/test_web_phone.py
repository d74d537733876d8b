"""The door's page on a phone (headless Chromium with a phone's viewport and touch): the
keys a soft keyboard lacks on screen, the ones the screen offers now, no soft keyboard
until asked for, 80x24 legible in landscape, a note to turn the phone in portrait, and a
whole game played by tapping.

Screenshots go to $CRIBBAGE_SCREENSHOTS when it is set."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.door.netclients import TelnetCaller
from tests.door.test_end_to_end import play_one_game, quiet
from tests.door.transports.test_web import (
    BrowserCaller,
    chromium,
    running,
    shoot,
    web_config,
)

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 844, "height": 390}
PORTRAIT_TALL = {"width": 390, "height": 844}
# Where the row's button that sends ``bytes`` is, to tap it (null: not on the row now).
ROW_BUTTON_JS = r"""(bytes) => {
    const button = [...document.querySelectorAll("#keys button[data-send]")].find((b) =>
        b.dataset.send.replace(/\\r/g, "\r").replace(/\\x1b/g, "\x1b") === bytes);
    if (!button) return null;
    const r = button.getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}"""
ROW_JS = """() => [...document.querySelectorAll("#keys button")].map((b) =>
    [b.textContent, b.getAttribute("aria-label")])"""
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
    """A caller on a phone: a key on the page's row is tapped; anything else (a name, a
    menu letter) is typed on the soft keyboard, opened by tapping its key first."""

    typing = False
    row_taps = 0

    async def send(self, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        where = await self.page.evaluate(ROW_BUTTON_JS, raw.decode())
        if where is not None:
            await self.page.touchscreen.tap(where["x"], where["y"])
            self.row_taps += 1
            return
        if raw.startswith(b"\x1b"):
            raise AssertionError(f"the row has no button for {raw!r}: {await self.row()}")
        if not self.typing:
            await self.page.get_by_role("button", name="Keyboard").tap()
            self.typing = True
        for piece in re.split(rb"(\r)", raw):
            if piece == b"\r":  # the row's RETURN, or the soft keyboard's own
                where = await self.page.evaluate(ROW_BUTTON_JS, "\r")
                if where is not None:
                    await self.page.touchscreen.tap(where["x"], where["y"])
                else:
                    await self.page.keyboard.press("Enter")
            elif piece:
                await self.page.keyboard.type(piece.decode())

    async def row(self) -> list[str]:
        """The row's buttons as they read (the keyboard key last)."""
        return [text for text, _ in await self.page.evaluate(ROW_JS)]


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
        assert len(layout["buttons"]) >= 2  # what the first screen offers, and the keyboard
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


KEYBOARD = "\u2328"
LEFT, RIGHT = "\u2190", "\u2192"


def test_the_key_row_follows_what_the_screen_offers(tmp_path: Path) -> None:
    # The row was fixed HTML: y, n and w at the lobby, no BS on a line being typed, no
    # PgDn on the help. It is now the status line's offers, sent after each picture.
    config = web_config(tmp_path)

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page = await phone_page(browser, listening.web[1], PORTRAIT_TALL)
            caller = PhoneCaller(page)

            async def row_when(name: str, *wanted: str) -> None:
                """Until the row is ``wanted`` then the keyboard key; kept as ``name``."""
                for _ in range(100):
                    seen[name] = await caller.row()
                    if seen[name] == [*wanted, KEYBOARD]:
                        break
                    await asyncio.sleep(0.05)
                seen[f"{name} words"] = await page.evaluate(ROW_JS)
                seen[f"{name} layout"] = await page.evaluate(LAYOUT_JS)
                await shoot(page, f"phone-row-{name}")

            await row_when("arrival", "L", "N", "G", "S")
            await caller.send("G")  # the row's G, as the arrival offers it
            await caller.give_name("Rowan")
            await caller.wait_for("Play the computer")
            await row_when("lobby", "c", "?", "q")
            await caller.send("c")  # the row's c: the chat line
            await caller.wait_for("RETURN send")
            await row_when("chat line", "RETURN", "Esc", "BS")
            await caller.send("\x1b")  # the row's Esc
            await caller.send("?")  # a menu of pages: the help
            await caller.wait_for("next page")
            await row_when("help", "PgDn", "PgUp", "Esc")
            await caller.send("\x1b")
            await caller.wait_for("Play the computer")
            await caller.send("p")  # typed: the lobby's menu is on the screen
            await caller.wait_for("blank line: deal")  # the table's chat line, before a deal
            await row_when("table chat line", "RETURN", "Esc", "?")
            await caller.send("\r")
            await caller.wait_for("RETURN mark")
            await row_when("throw", LEFT, RIGHT, "RETURN", "DEL", "c", "?", "q")
            for _ in range(200):  # two cards marked and thrown, the starter cut
                await quiet(caller)
                status = caller.screen.display[STATUS_ROW]
                if "RETURN play" in status:
                    break
                if "RETURN cut" in status and not re.search(r"\(1-\d+\): \d", caller.text):
                    await caller.send("7")
                if "RETURN mark" in status:
                    await caller.send("\x1b[C")  # the row's arrow: the next card
                await caller.send("\r")
            await row_when("play", LEFT, RIGHT, "RETURN", "c", "?", "q")
            caller.watch.cancel()
        return seen

    seen = asyncio.run(scenario())
    assert seen["arrival"] == ["L", "N", "G", "S", KEYBOARD], seen["arrival"]
    assert seen["lobby"] == ["c", "?", "q", KEYBOARD], seen["lobby"]
    assert seen["chat line"] == ["RETURN", "Esc", "BS", KEYBOARD], seen["chat line"]
    assert seen["help"] == ["PgDn", "PgUp", "Esc", KEYBOARD], seen["help"]
    assert seen["table chat line"] == ["RETURN", "Esc", "?", KEYBOARD]
    assert seen["throw"] == [LEFT, RIGHT, "RETURN", "DEL", "c", "?", "q", KEYBOARD]
    assert seen["play"][:3] == [LEFT, RIGHT, "RETURN"] and "DEL" not in seen["play"]
    # A screen reader says each button as the status line offers it.
    assert ["RETURN", "RETURN send"] in seen["chat line words"], seen["chat line words"]
    assert [LEFT, "left"] in seen["throw words"], seen["throw words"]
    for name in ("arrival", "lobby", "throw", "play"):  # the row keeps its place
        layout = seen[f"{name} layout"]
        viewport = {"left": 0, "top": 0, "right": 390, "bottom": 844}
        assert within(layout["keys"], viewport), (name, layout)
        assert not overlaps(layout["terminal"], layout["keys"]), (name, layout)
        for button in layout["buttons"]:
            assert button["height"] >= 44 and within(button, viewport), (name, button)
    heights = {seen[f"{name} layout"]["keys"]["height"] for name in ("lobby", "throw")}
    assert len(heights) == 1, heights  # the terminal is not resized between screens


def test_a_whole_game_by_taps_on_a_phone_held_sideways(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> tuple[str, int]:
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page = await phone_page(browser, listening.web[1], LANDSCAPE)
            caller = PhoneCaller(page)
            await caller.come_as_guest("Thumbs")
            await caller.wait_for("Play the computer")
            await caller.wait_for("Press a key from the menu or tap one")  # not "click"
            await shoot(page, "phone-lobby")

            async def picture() -> None:  # the middle of the play
                await caller.wait_for("Count", timeout=60)
                await shoot(page, "phone-pegging")

            picture_task = asyncio.create_task(picture())
            screen = await asyncio.wait_for(play_one_game(caller), 600)
            picture_task.cancel()
            caller.watch.cancel()
            return screen, caller.row_taps

    screen, taps = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen
    assert taps > 50  # the game's cards and answers went by the on-screen keys


# Where the door draws what is tapped (rows and columns of its 80x24 picture): the hand's
# cards from column 11, a card every 6 columns, their faces on row 13; the cut's fan on
# row 9 from column 11, a column a card; the status line on row 23.
HAND_ROW, FAN_ROW, STATUS_ROW, CARDS_COL, CARD_STEP = 13, 9, 23, 11, 6
CELL_JS = """() => {
    const term = window.door.term;
    const box = document.querySelector("#screen .xterm-screen").getBoundingClientRect();
    return {left: box.left, top: box.top, width: box.width / term.cols,
            height: box.height / term.rows, top_row: Math.max(0, Math.floor((term.rows - 24) / 2))};
}"""


class TappingCaller(PhoneCaller):
    """A caller on a phone who plays by tapping the terminal: the cards of the hand and
    of the cut, and the offers of the status line (a tap is a click, which xterm.js
    reports once the door asks for reports); the on-screen keys for the rest."""

    terminal_taps = 0

    async def tap(self, row: int, column: int) -> None:
        """A tap on the middle of the picture's cell at ``row``, ``column``."""
        cell = await self.page.evaluate(CELL_JS)
        x = cell["left"] + (column + 0.5) * cell["width"]
        y = cell["top"] + (cell["top_row"] + row + 0.5) * cell["height"]
        await self.page.touchscreen.tap(x, y)
        self.terminal_taps += 1
        self.typing = False  # the page puts the soft keyboard away at a tap on the board

    async def tap_offer(self, words: str) -> None:
        """A tap on ``words`` offered on the status line."""
        status = self.screen.display[STATUS_ROW]
        await self.tap(STATUS_ROW, status.index(words) + 1)

    async def tap_words(self, words: str) -> None:
        """A tap on ``words`` wherever the picture shows them (a menu's row)."""
        for row, line in enumerate(self.screen.display):
            if words in line:
                await self.tap(row, line.index(words) + 1)
                return
        raise AssertionError(f"{words!r} is not on the screen:\n{self.text}")

    async def tap_card(self, number: int) -> None:
        await self.tap(HAND_ROW, CARDS_COL + (number - 1) * CARD_STEP + 2)


async def play_by_taps(caller: TappingCaller) -> str:
    """A game against the computer from the lobby, every answer a tap on the terminal;
    returns the screen of the game's end."""
    await caller.tap_words("P Play the computer")
    marked = tried = 0
    for _ in range(3000):
        await quiet(caller)
        status = caller.screen.display[STATUS_ROW]
        if "RETURN play" not in status:
            tried = 0
        if "y play again" in status:
            return caller.text
        if "blank line: deal" in status:
            await caller.tap_offer("RETURN on a blank line")
        elif "RETURN mark" in status:
            marked += 1
            await caller.tap_card(marked)  # the first two cards, one tap each
        elif "RETURN throw" in status:
            await caller.tap_offer("RETURN throw")
            marked = 0
        elif "RETURN cut" in status:
            if re.search(r"\(1-\d+\): \d", caller.text):
                await caller.tap_offer("RETURN cut")
            else:
                await caller.tap(FAN_ROW, CARDS_COL + 6)  # the fan's seventh card
        elif "RETURN play" in status:
            # A card that would pass 31 is refused with a word: the next is tried.
            await caller.tap_card(tried % 4 + 1)
            tried += 1
        elif "RETURN go on" in status:
            await caller.send("\r")  # the on-screen RETURN
        else:
            raise AssertionError(f"the status line offers nothing to tap: {status!r}")
    raise AssertionError("the game never ended:\n" + caller.text)


def test_a_whole_game_by_taps_on_the_cards_sideways_and_upright(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> list[tuple[str, str, int, int]]:
        games = []
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            for name, viewport in (("landscape", LANDSCAPE), ("portrait", PORTRAIT_TALL)):
                page = await phone_page(browser, listening.web[1], viewport)
                caller = TappingCaller(page)
                await caller.come_as_guest(f"Tap{name[0].upper()}")
                await caller.wait_for("Play the computer")
                typed_before = caller.terminal_taps
                keys = 0
                send = caller.send

                async def counted(data: bytes | str, send: Any = send) -> None:
                    nonlocal keys
                    keys += 1
                    await send(data)

                caller.send = counted  # type: ignore[method-assign]

                async def picture(name: str = name, caller: TappingCaller = caller) -> None:
                    await caller.wait_for("RETURN throw", timeout=60)
                    await shoot(caller.page, f"phone-{name}-two-cards-tapped")
                    await caller.wait_for("Count", timeout=60)
                    await shoot(caller.page, f"phone-{name}-pegging-by-taps")

                pictures = asyncio.create_task(picture())
                screen = await asyncio.wait_for(play_by_taps(caller), 600)
                await shoot(page, f"phone-{name}-game-over")
                pictures.cancel()
                await caller.tap_offer("n leave")
                await caller.wait_for("Play the computer")
                caller.watch.cancel()
                games.append((name, screen, caller.terminal_taps - typed_before, keys))
                await page.context.close()
        return games

    for name, screen, taps, keys in asyncio.run(scenario()):
        assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), (name, screen)
        # Every card and answer was a tap on the terminal, but for the on-screen RETURN
        # that goes on after the show (a key row tap, not a keyboard's key).
        assert taps > 30, (name, taps)
        assert taps > keys, (name, taps, keys)


KEYBOARD_JS = """() => [window.door.term.textarea.getAttribute("inputmode"),
    document.getElementById("keyboard").getAttribute("aria-pressed")]"""


def test_a_tap_on_the_board_puts_the_soft_keyboard_away(tmp_path: Path) -> None:
    config = web_config(tmp_path)

    async def scenario() -> list[list[str]]:
        seen = []
        async with running(config) as (listening, _door), chromium() as browser:
            assert listening.web is not None
            page = await phone_page(browser, listening.web[1], LANDSCAPE)
            caller = TappingCaller(page)
            await caller.come_as_guest("Kay")  # typed on the soft keyboard
            await caller.wait_for("Play the computer")
            seen.append(await page.evaluate(KEYBOARD_JS))
            await caller.tap(5, 40)  # the list of who is on: no key, but play
            await asyncio.sleep(0.2)
            seen.append(await page.evaluate(KEYBOARD_JS))
            await page.get_by_role("button", name="Keyboard").tap()
            seen.append(await page.evaluate(KEYBOARD_JS))
            caller.watch.cancel()
        return seen

    typed, tapped, asked = asyncio.run(scenario())
    assert typed == ["text", "true"]
    assert tapped == ["none", "false"]
    assert asked == ["text", "true"]  # and back when asked for


def test_the_key_row_offers_w_while_a_request_for_the_win_bar_waits(tmp_path: Path) -> None:
    # The fixed row had a w; the status lines have none, so a phone's caller asked for
    # the win bar by another player had to open the soft keyboard to agree.
    config = web_config(tmp_path)

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with running(config) as (listening, door), chromium() as browser:
            assert listening.web is not None and listening.telnet is not None
            page = await phone_page(browser, listening.web[1], PORTRAIT_TALL)
            pia = PhoneCaller(page)
            await pia.come_as_guest("Pia")
            tess = TelnetCaller()
            await tess.connect(listening.telnet[1])
            await tess.come_as_guest("Tess")
            await tess.wait_for("Pia ")
            number = re.search(r"(\d)\s+Pia ", tess.text)
            assert number, tess.text
            await tess.send("w" + number.group(1))
            await pia.wait_for("Tess challenges you")
            await pia.send("y")
            await tess.wait_for("Hand 1")
            table = door.presence.tables[0]
            dealer = tess if table.game.dealer == 0 else pia
            await dealer.send("\r")
            await pia.wait_for("RETURN mark")
            await tess.wait_for("RETURN mark")

            async def row_until(name: str, wanted: bool) -> None:
                for _ in range(100):
                    seen[name] = await pia.page.evaluate(ROW_JS)
                    if (["w", "w win bar"] in seen[name]) == wanted:
                        break
                    await asyncio.sleep(0.05)
                await shoot(page, f"phone-row-{name}")

            await row_until("throw", False)
            await tess.send("w")  # asks Pia for the win bar
            await pia.wait_for("press w to agree")
            await row_until("asked", True)
            seen["layout"] = await page.evaluate(LAYOUT_JS)
            taps = pia.row_taps
            await pia.send("w")  # the row's w
            seen["tapped"] = pia.row_taps - taps
            await tess.wait_for("Every player asked for the win bar")
            await row_until("agreed", False)
            pia.watch.cancel()
            tess.hang_up()
        return seen

    seen = asyncio.run(scenario())
    assert [label for label, _ in seen["throw"]] == [
        *(LEFT, RIGHT, "RETURN", "DEL", "c", "?", "q", KEYBOARD)
    ], seen["throw"]
    asked = [label for label, _ in seen["asked"]]
    assert asked == [LEFT, RIGHT, "RETURN", "DEL", "c", "?", "w", "q", KEYBOARD], asked
    assert seen["tapped"] == 1  # agreed by the row's button, not the soft keyboard
    assert "w" not in [label for label, _ in seen["agreed"]], seen["agreed"]
    layout = seen["layout"]
    viewport = {"left": 0, "top": 0, "right": 390, "bottom": 844}
    for button in layout["buttons"]:
        assert button["height"] >= 44 and within(button, viewport), button
