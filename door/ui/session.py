"""One caller's user interface: their terminal, the one renderer, and a stack of screens.

Every screen a caller sees (the arrival menu, a form, the lobby, a table, help, a dialog)
is pushed onto the session's stack while it is up and popped when it closes. A frame is
composed from the top: the highest *opaque* screen draws the whole frame and every screen
above it draws over that (help and dialogs over a table). Only the top screen's owner
reads keys, and the session has one renderer, so a resize is one repaint of what is on
top, and Ctrl-L repaints it whole.

The session is the only thing below the transports that holds the Terminal: the lobby,
presence, records and accounts hold the session (or nothing) and never write to a
terminal themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Final, Generic, Protocol, TypeVar

from door.screens.speech import Said
from door.term.ansi import CLEAR_SCREEN, SHOW_CURSOR
from door.term.canvas import SCREEN_ROWS, Canvas, picture
from door.term.charset import Charset
from door.term.clicks import NO_HITS, CentredHits, ClickKeys, FrameHits, HitMap, LaterHits
from door.term.display import PLAIN_DISPLAYS, Display, display_mode_of
from door.term.inbox import Inbox
from door.term.keys import Key
from door.term.offers import Offer, offers_of
from door.term.terminal import Disconnected, Terminal
from door.ui.line_renderer import LineRenderer
from door.ui.renderer import Renderer
from door.ui.speech_renderer import SpeechRenderer

logger = logging.getLogger(__name__)

Cursor = tuple[int, int] | None
HANG_UP_FLUSH_SECONDS: Final = 2.0


class Screen(Protocol):
    """Something on the stack. ``frame(below)`` returns the frame with this screen drawn
    and where the cursor belongs; ``below`` is the frame of the screens under it (None for
    the bottom one). An opaque screen ignores ``below`` and draws the whole frame."""

    opaque: bool

    def frame(self, below: Canvas | None) -> tuple[Canvas, Cursor]: ...


def hits_of(screen: Screen) -> FrameHits:
    """What a click on ``screen``'s frame means: its ``hits``, if it has any (a screen
    without them is not clicked: a click on it does nothing)."""
    hits = getattr(screen, "hits", None)
    return hits if isinstance(hits, (HitMap, LaterHits)) else NO_HITS  # (no union a call)


ScreenT = TypeVar("ScreenT", bound=Screen)


class Frame:
    """An opaque screen showing a frame its owner drew (forms, notices, menus)."""

    opaque = True

    def __init__(self, canvas: Canvas | None = None, cursor: Cursor = None) -> None:
        self.canvas = canvas or Canvas()
        self.cursor = cursor
        self.hits = NO_HITS
        """What a click on the frame means (none unless its owner says)."""
        self.words: Said | None = None
        """The frame in words, for a screen reader (None: its lines are printed)."""

    def show(
        self,
        canvas: Canvas,
        cursor: Cursor = None,
        hits: HitMap = NO_HITS,
        said: Said | None = None,
    ) -> None:
        self.canvas, self.cursor, self.hits, self.words = canvas, cursor, hits, said

    def frame(self, below: Canvas | None) -> tuple[Canvas, Cursor]:
        return self.canvas, self.cursor


class Drawn:
    """A screen drawn by a function of nothing, called at every paint: the lobby and the
    table draw from their live state this way.

    The lobby or a person at a table keeps its own ``Drawn(self.frame)``, so a bound
    method is held weakly: held strongly, owner and screen would be a cycle, which only
    a full collection frees, and the door freezes what lives long (``door.gc_policy``),
    so such a cycle would never be freed. An owner gone draws an empty frame."""

    def __init__(
        self,
        draw: Callable[[], tuple[Canvas, Cursor]],
        *,
        opaque: bool = True,
        hits: Callable[[], FrameHits] | None = None,
        hits_in: Callable[[Canvas], HitMap] | None = None,
        said: Callable[[], Said] | None = None,
    ) -> None:
        """``hits``: what a click on the frame last drawn means; or ``hits_in``, which
        reads it from the frame itself (door/screens/form_hits.py: its key bar)."""
        self._draw = _HeldWeakly(draw)
        self._hits = None if hits is None else _HeldWeakly(hits)
        self._hits_in = hits_in
        self._drawn: Canvas | None = None
        self._said = None if said is None else _HeldWeakly(said)
        self.opaque = opaque

    def frame(self, below: Canvas | None) -> tuple[Canvas, Cursor]:
        drawn = self._draw.call(None)
        canvas, cursor = drawn if drawn is not None else (Canvas(), None)
        if self._hits_in is not None:
            self._drawn = canvas
        return canvas, cursor

    @property
    def hits(self) -> FrameHits:
        """What a click on the frame last drawn means (asked after ``frame``)."""
        if self._hits_in is not None and self._drawn is not None:
            return self._hits_in(self._drawn)
        return NO_HITS if self._hits is None else self._hits.call(NO_HITS)

    def said(self) -> Said | None:
        """The screen in words for a screen reader, if it can say itself."""
        return None if self._said is None else self._said.call(None)


T = TypeVar("T")
D = TypeVar("D")


class _HeldWeakly(Generic[T]):
    """A function of nothing, or a bound method whose owner is held weakly: ``call``
    calls it, or gives ``default`` once its owner is gone. The owner and the function
    are kept apart, so a call makes no bound method (a WeakMethod makes one a call,
    twice a frame at a table)."""

    __slots__ = ("_owner", "_function")

    def __init__(self, function: Callable[[], T]) -> None:
        self._owner: weakref.ref[Any] | None = None
        self._function: Callable[..., T] = function
        if isinstance(function, types.MethodType):
            self._owner = weakref.ref(function.__self__)
            self._function = function.__func__

    def call(self, default: D) -> T | D:
        if self._owner is None:
            return self._function()
        owner = self._owner()
        return default if owner is None else self._function(owner)


class Overlay:
    """A screen drawn over the frame beneath it (help, a dialog): ``draw(canvas)`` draws
    into a copy of that frame; the cursor is hidden while it is up."""

    opaque = False

    def __init__(self, draw: Callable[[Canvas], None], hits: HitMap = NO_HITS) -> None:
        self.draw = draw
        self.hits = hits

    def frame(self, below: Canvas | None) -> tuple[Canvas, Cursor]:
        canvas = below.copy() if below is not None else Canvas()
        self.draw(picture(canvas))  # over the picture, where a taller frame has it
        return canvas, None


class Session:
    """The caller's terminal, their one renderer and inbox, and their stack of screens."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.lines = display_mode_of(terminal) in PLAIN_DISPLAYS
        """The terminal shows lines, not a screen: no escape sequence is sent to it."""
        self.renderer: Renderer | LineRenderer = (
            LineRenderer(terminal) if self.lines else Renderer(terminal)
        )
        self.speaker = SpeechRenderer(terminal)
        """Says a screen that can say itself (the lobby) to a screen reader's caller."""
        self._speaking = False
        self.clicks = ClickKeys()
        self.mouse_offered = False
        self.touch = False
        """The caller plays on a touch screen (the web page said so): prompts say tap."""
        """The caller's terminal can report clicks and may be asked (door/term/mouse.py):
        the lobby's O turns them on and off."""
        self._offers: tuple[Offer, ...] | None = None
        """The keys the page was last told are on offer (``_offer_keys``)."""
        self.inbox = Inbox(terminal, self.clicks)
        self._display_before_speech = Display.SCREEN
        self._mouse_after_lines = False
        """Whether clicks are asked for again when the caller goes back from plain lines
        to a screen: on when plain lines began, or turned on (or off) meanwhile."""
        self._stack: list[Screen] = []
        # The renderer repaints the last frame at once; the screen on top is woken too,
        # so that a screen laid out for the size (a side pane from 110 columns) is drawn
        # again for the new one.
        inbox = self.inbox  # not self: the listener must not hold the session (see Drawn)
        self._stop_listening = terminal.on_resize(lambda cols, rows: inbox.wake())

    @property
    def speech(self) -> bool:
        """The caller uses a screen reader: tables tell them sentences (Display.SPEECH)."""
        return display_mode_of(self.terminal) is Display.SPEECH

    def use_speech(self) -> None:
        """From now on the caller is sent plain lines for a screen reader (they chose it,
        or it is their setting): the terminal strips what a reader would read as noise."""
        if self.speech:
            return
        self._display_before_speech = display_mode_of(self.terminal)
        self._use(Display.SPEECH)

    def stop_speech(self) -> None:
        """Back to the display the caller had before screen-reader mode (a screen, or
        lines for an ASCII terminal), repainted whole."""
        if self.speech:
            self._use(self._display_before_speech)

    def _use(self, display: Display) -> None:
        lines = display in PLAIN_DISPLAYS
        if lines and not self.lines:
            # Told to stop while escapes still reach the terminal: in plain lines a
            # click would only come in as noise between a screen reader's typed words.
            wanted = self.mouse
            self.mouse = False
            self._mouse_after_lines = wanted
            # And the cursor the screens hid shown again: lines are typed at it, and a
            # magnifier or screen reader follows it (lines never send an escape to show
            # it, so it stayed hidden to the end of the call and after).
            if isinstance(self.renderer, Renderer) and self.renderer.hid_cursor:
                self.terminal.write(SHOW_CURSOR)
        self.terminal.display_mode = display  # type: ignore[attr-defined]
        self.renderer.close()
        self.lines = lines
        self.renderer = LineRenderer(self.terminal) if self.lines else Renderer(self.terminal)
        if not lines and self._mouse_after_lines:
            self._mouse_after_lines = False
            self.mouse = True

    # --- the stack ----------------------------------------------------------------------

    @property
    def screens(self) -> tuple[Screen, ...]:
        return tuple(self._stack)

    @property
    def top(self) -> Screen | None:
        return self._stack[-1] if self._stack else None

    def push(self, screen: ScreenT) -> ScreenT:
        self._stack.append(screen)
        return screen

    def pop(self, screen: Screen) -> None:
        """Take ``screen`` off the stack (with anything a careless owner left above it)."""
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index] is screen:
                del self._stack[index:]
                return

    @contextlib.contextmanager
    def showing(self, screen: ScreenT) -> Iterator[ScreenT]:
        """``screen`` on top for the ``with`` block."""
        self.push(screen)
        try:
            yield screen
        finally:
            self.pop(screen)

    def compose(self) -> tuple[Canvas, Cursor]:
        """The frame of the whole stack, from its highest opaque screen up."""
        start = 0
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index].opaque:
                start = index
                break
        canvas: Canvas | None = None
        cursor: Cursor = None
        for screen in self._stack[start:]:
            canvas, cursor = screen.frame(canvas)
        canvas = canvas if canvas is not None else Canvas()
        self._aim_clicks(canvas)
        return canvas, cursor

    def _aim_clicks(self, canvas: Canvas) -> None:
        """A click means what ``canvas``, the frame about to be sent, shows where it
        lands (worked out only for a caller whose clicks come in at all). A frame of 24
        rows is sent centred in a taller window (door/term/canvas.py's centred), and
        centred anew after a resize: its map is read where the picture is at the click."""
        if self._stack and self.terminal.mouse_reporting:
            hits = hits_of(self._stack[-1])
            if canvas.rows == SCREEN_ROWS:
                terminal = self.terminal  # not self: the clicks must not hold the session
                hits = CentredHits(hits, lambda: terminal.size[1])
            self.clicks.hits = hits
        else:
            self.clicks.hits = NO_HITS

    async def paint(self) -> None:
        """Bring the caller's screen up to the stack and send it.

        A wake-up that came before the paint is answered by it (the frame shows the
        news), so the next wait is for a key. Kept, it made that wait return at once to
        draw the very same frame again: a sixth of the table's frames sent nothing, most
        after the table asked a player something while they were still busy with their
        last answer (the frame showing the question was the answer to that wake-up)."""
        self.inbox.forget_wake()
        said = self._said()
        if said is not None:
            if not self._speaking:
                # Lines were printed since (a prompt may be open): say it whole, from a
                # line of its own.
                self.terminal.write("\r\n")
                self.speaker.invalidate()
            self.speaker.render(said)
        else:
            if self._speaking:
                self.renderer.invalidate()
            canvas, cursor = self.compose()
            self.renderer.render(canvas, cursor)
            if self.touch:
                self._offer_keys(canvas)
        self._speaking = said is not None
        await self.terminal.flush()

    async def paint_drawn(self, canvas: Canvas, cursor: Cursor) -> None:
        """Send ``canvas``, the frame of the top screen as its owner drew it without the
        stack being composed (a part of its last frame drawn again: a move of the
        highlight bar at a table, door/table/step_frame.py), as ``paint`` sends a
        composed one: it answers the wake-ups before it, and the click map and a touch
        screen's keys follow it. Only for a screen on top, not lines or speech (the
        owner makes sure: ``renderer`` is a ``Renderer``, nothing over its screen)."""
        self.inbox.forget_wake()
        if self._speaking:
            self.renderer.invalidate()
            self._speaking = False
        self._aim_clicks(canvas)
        self.renderer.render(canvas, cursor)
        if self.touch:
            self._offer_keys(canvas)
        await self.terminal.flush()

    def forget_offers(self) -> None:
        """The page was told other keys meanwhile (by another worker's screens, the
        caller's line relayed there): the next frame tells it again."""
        self._offers = None

    def _offer_keys(self, canvas: Canvas) -> None:
        """Tell a touch screen's page the keys the frame offers, when they changed: its
        row of buttons follows the screen (a fixed row offered y and n at the table and
        no BS on a line being typed)."""
        offers = offers_of(canvas)
        if offers != self._offers:
            self._offers = offers
            offer_keys = getattr(self.terminal, "offer_keys", None)
            if offer_keys is not None:
                offer_keys(offers)

    def _said(self) -> Said | None:
        """The top screen in words, for a screen reader's caller, if it says itself."""
        if not self.speech:
            return None
        top = self.top
        if isinstance(top, Frame):
            return top.words
        return top.said() if isinstance(top, Drawn) else None

    def redraw_all(self) -> None:
        """The next paint sends everything (Ctrl-L, or after something else wrote)."""
        self.renderer.invalidate()
        self.speaker.invalidate()

    # --- keys -----------------------------------------------------------------------------

    async def read_key(self) -> Key:
        """The caller's next key, Ctrl-L answered here (a whole repaint). Raises
        ``Disconnected``."""
        while True:
            key = self.clicks.pending() or self.clicks.translate(await self.terminal.read_key())
            if key is None:
                continue  # a click on nothing
            if key != Key.CTRL_L:
                return key
            self.redraw_all()
            await self.paint()

    async def next_key(self, timeout: float | None = None) -> Key | None:
        """The next key, or None when woken (something changed) or after ``timeout``."""
        return await self.inbox.next(timeout)

    def wake(self) -> None:
        """Something the caller sees changed: the screen waiting for a key redraws."""
        self.inbox.wake()

    async def wait_woken(self) -> None:
        await self.inbox.wait_woken()

    def forget_typeahead(self) -> int:
        """Drop keys typed before a decision was shown; how many were dropped (the rest of
        a click among them: a click on the last step's screen is no answer to this one)."""
        return self.clicks.forget() + self.terminal.discard_typeahead()

    # --- the line -------------------------------------------------------------------------

    @property
    def idle(self) -> float:
        """Seconds since the caller last pressed a key."""
        return self.terminal.idle

    @property
    def size(self) -> tuple[int, int]:
        """The caller's window: (columns, rows)."""
        return self.terminal.size

    @property
    def mouse(self) -> bool:
        """Whether the caller's terminal reports clicks (asked for, or told to stop)."""
        return self.terminal.mouse_reporting

    @mouse.setter
    def mouse(self, on: bool) -> None:
        if self.lines:
            # Never asked in plain lines; kept for going back to a screen.
            self._mouse_after_lines, on = on, False
        self.terminal.mouse_reporting = on
        self.clicks.forget()

    @property
    def click_word(self) -> str:
        """What the prompts call a click: a tap on a touch screen."""
        return "tap" if self.touch else "click"

    @property
    def mouse_wanted(self) -> bool:
        """Whether the caller wants clicks: on a screen, whether they are asked for; in
        plain lines (never asked there), whether they will be on going back to a screen."""
        return self._mouse_after_lines if self.lines else self.mouse

    @property
    def charset(self) -> Charset:
        return self.terminal.charset

    @charset.setter
    def charset(self, charset: Charset) -> None:
        self.terminal.charset = charset
        self.redraw_all()

    def write_text(self, text: str) -> None:
        """Plain text outside any screen (a goodbye, a notice as the line closes); the
        next paint repaints whole."""
        self.terminal.write(text)
        self.redraw_all()

    async def send_lines(self, text: str) -> None:
        """Lines of plain text sent as they are, for a terminal in ``Display.SPEECH``
        (a screen reader reads each once: no frame is painted over them)."""
        self.terminal.write(text)
        await self.terminal.flush()

    async def say_goodbye(self, text: str) -> None:
        if self.lines:
            self.terminal.write(f"\r\n{text}\r\n")  # on a line of its own
        else:
            self.terminal.write(f"{SHOW_CURSOR}{CLEAR_SCREEN}{text}\r\n")
        await self.terminal.flush()

    async def hang_up(self, message: str) -> None:
        """Tell the caller why, then close the line (a take-over, the sysop's kick)."""
        self.terminal.write(message)
        with contextlib.suppress(Disconnected, OSError, TimeoutError):
            await asyncio.wait_for(self.terminal.flush(), HANG_UP_FLUSH_SECONDS)
        self.close()

    def close(self) -> None:
        self._stack.clear()
        # The terminal's listener refers to the inbox, which refers to the terminal: left
        # in place, they would be a cycle (see Drawn).
        self._stop_listening()
        self.renderer.close()
        self.terminal.close()
