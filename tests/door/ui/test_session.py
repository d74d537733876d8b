"""The session's screen stack: what is drawn, who gets keys, and one repaint per resize."""

from __future__ import annotations

import asyncio

from door.term.canvas import Canvas
from door.term.clicks import Hit, HitMap
from door.term.keys import Key
from door.ui.session import Drawn, Frame, Overlay, Session
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal


def words(text: str, row: int = 0, col: int = 0) -> Canvas:
    canvas = Canvas()
    canvas.put(row, col, text)
    return canvas


def test_a_frame_is_composed_from_the_highest_opaque_screen_up() -> None:
    session = Session(FakeTerminal())
    lobby = session.push(Frame(words("the lobby")))
    table = session.push(Drawn(lambda: (words("the table", row=1), (5, 5))))
    help_page = session.push(Overlay(lambda canvas: canvas.put(2, 0, "help page")))
    canvas, cursor = session.compose()
    assert canvas.text(0).strip() == ""  # the lobby is under the table: not drawn
    assert canvas.text(1).startswith("the table")
    assert canvas.text(2).startswith("help page")
    assert cursor is None  # an overlay hides the cursor of what it covers
    session.pop(help_page)
    assert session.compose()[1] == (5, 5)
    session.pop(table)
    assert session.compose()[0].text(0).startswith("the lobby")
    assert session.top is lobby


def test_popping_a_screen_takes_what_was_left_above_it() -> None:
    session = Session(FakeTerminal())
    base = session.push(Frame())
    middle = session.push(Frame())
    session.push(Frame())
    session.pop(middle)
    assert session.screens == (base,)
    with session.showing(Frame(words("dialog"))) as dialog:
        assert session.top is dialog
    assert session.top is base


def test_a_resize_is_one_repaint_of_the_top_screen() -> None:
    async def scenario() -> None:
        terminal = FakeTerminal()
        session = Session(terminal)
        drawn: list[str] = []

        def lobby() -> tuple[Canvas, None]:
            drawn.append("lobby")
            return words("LOBBY"), None

        def table() -> tuple[Canvas, None]:
            drawn.append("table")
            return words("TABLE"), None

        session.push(Drawn(lobby))
        session.push(Drawn(table))
        await session.paint()
        assert drawn == ["table"]
        before = len(terminal.output)
        for cols in (100, 90, 120, 80):
            terminal.resize(cols, 24)
        # Resizes coalesce on a timer (the renderer's repaint interval, 50 ms): wait it
        # out several times over, so that a repaint too many would be counted.
        await asyncio.sleep(0.2)
        repaint = terminal.output[before:].decode()
        assert repaint.count("\x1b[2J") <= 2  # the first resize, and the storm's last
        assert "LOBBY" not in repaint and "TABLE" in repaint
        assert terminal.display[0].startswith("TABLE")
        session.close()

    asyncio.run(scenario())


def test_ctrl_l_is_answered_by_the_session_with_a_whole_repaint() -> None:
    async def scenario() -> Key:
        terminal = FakeTerminal()
        session = Session(terminal)
        session.push(Frame(words("hello")))
        await session.paint()
        before = len(terminal.output)
        terminal.push_keys(Key.CTRL_L, "x")
        key = await session.read_key()
        assert b"\x1b[2J" in terminal.output[before:]
        assert b"hello" in terminal.output[before:]
        session.close()
        return key

    assert asyncio.run(scenario()) == Key.printable("x")


def test_a_paint_answers_the_wake_ups_that_came_before_it() -> None:
    """News that arrived while the screen was busy is in the next frame: the wait after
    that frame is for a key, not a second drawing of the same frame. News that comes
    after the frame still wakes the screen."""

    async def scenario() -> tuple[object, object, list[str]]:
        terminal = FakeTerminal()
        session = Session(terminal)
        drawn: list[str] = []
        session.push(Drawn(lambda: (drawn.append("table"), (words("TABLE"), None))[1]))
        session.wake()  # news while the screen was busy (the table asked something)
        session.wake()  # and more of it before the screen drew again
        await session.paint()
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, terminal.push_keys, "x")
        after_paint = await session.next_key(timeout=2)
        await session.paint()
        session.wake()  # news after the frame: the screen must draw again
        after_news = await session.next_key(timeout=2)
        session.close()
        return after_paint, after_news, drawn

    after_paint, after_news, drawn = asyncio.run(scenario())
    assert after_paint == Key.printable("x")
    assert after_news is None
    assert drawn == ["table", "table"]


@run_async
async def test_the_rest_of_a_click_goes_with_the_typeahead() -> None:
    """A click that stands for several keys, half read when a new decision is shown,
    leaves nothing for that decision."""
    terminal = FakeTerminal()
    terminal.mouse_reporting = True
    session = Session(terminal)
    keys = (Key.BACKSPACE, Key.printable("1"), Key.printable("2"))
    frame = session.push(Frame())
    frame.hits = HitMap((Hit(5, 0, 10, keys),))
    session.compose()
    terminal.push_bytes(b"\x1b[<0;3;6Mx")
    assert await session.next_key() == Key.BACKSPACE
    assert session.forget_typeahead() == 3  # "1", "2" and the typed x
    terminal.push_bytes(b"y")
    assert await session.next_key() == Key.printable("y")


@run_async
async def test_a_click_lands_on_the_picture_centred_anew_after_a_resize() -> None:
    """A screen waiting for a key is not drawn again when the window grows (the phone's
    page sent its size just after the first screen, a phone turned): the renderer
    centres the picture anew, and a click must be read where it now is. It was read
    where the picture was before: a tap on the web's first screen, on a phone held
    upright, did nothing, and a tap on the blank rows above it chose a line."""
    terminal = FakeTerminal()
    terminal.mouse_reporting = True
    session = Session(terminal)
    frame = session.push(Frame(words("G guest", row=10, col=9)))
    frame.hits = HitMap((Hit(10, 9, 16, (Key.printable("g"),)),))
    await session.paint()
    terminal.resize(80, 40)  # the picture goes 8 rows down
    await asyncio.sleep(0.1)
    assert terminal.display[18].startswith("         G guest")
    # (read_key: the arrival's wait, which a resize does not wake to draw again)
    terminal.push_bytes(b"\x1b[<0;12;19Mx")  # where it is, then a key
    assert await asyncio.wait_for(session.read_key(), 1) == Key.printable("g")
    assert await asyncio.wait_for(session.read_key(), 1) == Key.printable("x")
    terminal.push_bytes(b"\x1b[<0;12;11My")  # where it was, blank now: nothing
    assert await asyncio.wait_for(session.read_key(), 1) == Key.printable("y")
    session.close()


def test_a_screen_reader_turns_clicks_off_and_back_on_leaving_it() -> None:
    """J in the lobby: the terminal is told to stop reporting clicks while escapes still
    reach it (a click in plain lines is noise between typed words), and asked again when
    the caller goes back to the screen."""
    terminal = FakeTerminal()
    session = Session(terminal)
    session.mouse_offered = True
    session.mouse = True
    session.use_speech()
    stopped = terminal.output
    assert not terminal.mouse_reporting
    assert b"\x1b[?1000l" in stopped
    session.stop_speech()
    assert terminal.mouse_reporting
    assert terminal.output[len(stopped) :].count(b"\x1b[?1000h") == 1


@run_async
async def test_the_cursor_the_screen_hid_is_shown_again_for_plain_lines() -> None:
    """S at the arrival, J in the lobby, a member's kept screen reader: the screens hid
    the cursor (it is parked, not typed at), and plain lines have none of their own, so
    it stayed hidden for the rest of the call and after it: a caller typing a line saw
    no cursor, and a magnifier or screen reader that follows the cursor lost it."""
    terminal = FakeTerminal()
    session = Session(terminal)
    session.push(Frame(words("Welcome")))
    await session.paint()
    assert terminal.screen.cursor.hidden  # as the arrival leaves it
    session.use_speech()
    await session.send_lines("Welcome to Cribbage Door.\r\n")
    assert not terminal.screen.cursor.hidden
    assert terminal.output.endswith(b"Welcome to Cribbage Door.\r\n")  # no escape after


def test_a_caller_without_clicks_is_not_asked_for_them_after_the_screen_reader() -> None:
    terminal = FakeTerminal()
    session = Session(terminal)
    session.use_speech()
    session.stop_speech()
    assert not terminal.mouse_reporting
    assert b"?1000h" not in terminal.output


def test_clicks_turned_off_in_the_screen_reader_stay_off_on_leaving_it() -> None:
    """A member who chose no mouse and comes back in screen-reader mode: their setting is
    applied while plain lines are sent, and J back to the screen must not ask for clicks."""
    terminal = FakeTerminal()
    session = Session(terminal)
    session.mouse_offered = True
    session.mouse = True  # asked at the arrival
    session.use_speech()  # their kept screen reader
    session.mouse = False  # their kept "no mouse"
    session.stop_speech()
    assert not terminal.mouse_reporting
    assert terminal.output.count(b"\x1b[?1000h") == 1  # the arrival's ask, and no other


def test_clicks_turned_on_in_the_screen_reader_are_asked_for_on_leaving_it() -> None:
    terminal = FakeTerminal()
    session = Session(terminal)
    session.mouse_offered = True
    session.use_speech()
    session.mouse = True
    assert not terminal.mouse_reporting  # never asked in plain lines
    session.stop_speech()
    assert terminal.mouse_reporting


def test_a_drawn_screen_holds_its_owner_weakly_and_draws_nothing_once_it_is_gone() -> None:
    class Owner:
        def __init__(self) -> None:
            self.screen = Drawn(self.frame, hits=self.hits, said=self.said)

        def frame(self) -> tuple[Canvas, tuple[int, int] | None]:
            canvas = Canvas(10, 2)
            canvas.put(0, 0, "table")
            return canvas, (1, 2)

        def hits(self) -> HitMap:
            return HitMap((Hit(0, 0, 5, (Key.ENTER,)),))

        def said(self) -> None:
            return None

    owner = Owner()
    screen = owner.screen
    canvas, cursor = screen.frame(None)
    assert canvas.text(0).startswith("table") and cursor == (1, 2)
    assert screen.hits == owner.hits()
    del owner  # freed by its count alone: the screen does not keep it
    canvas, cursor = screen.frame(None)
    assert canvas.text(0).strip() == "" and cursor is None
    assert screen.hits == HitMap() and screen.said() is None
    lone = Drawn(lambda: (Canvas(3, 1), None))  # a plain function is held as it is
    assert lone.frame(None)[0].cols == 3
