"""The one seam between transports (telnet, SSH, a BBS's stdio) and the screens.

Screens see a ``Terminal``: they ``write`` Unicode text, ``await flush()``, ``await
read_key()`` and read ``size``, ``charset`` and ``color_mode``. ``StreamTerminal`` holds
everything transports have in common, so an adapter only wraps its connection as a
``ByteSource`` (or a ``PushingSource``) and a ``ByteSink`` (door/term/sources.py),
reports resizes with ``resize()`` and calls ``start()``.
(The tests' ``FakeTerminal``, a ``StreamTerminal`` over memory with a pyte screen on its
output, lives in tests/door/fake_terminal.py: production code never imports pyte.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final, Protocol

from door.defence.ratelimit import TokenBucket
from door.metrics.tally import TALLY
from door.term.ansi import ColorMode, color_mode_for_terminal_type, without_escapes
from door.term.charset import Charset, charset_for_terminal_type, encode
from door.term.display import PLAIN_DISPLAYS, Display, without_drawing
from door.term.key_queue import KeyQueue
from door.term.keys import ESCAPE_TIMEOUT, Key, KeyDecoder, KeyName
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS
from door.term.offers import Offer
from door.term.sources import ByteSink, ByteSource, PushingSource
from door.term.window import DEFAULT_SIZE, clamp_size

logger = logging.getLogger(__name__)

MAX_TYPEAHEAD: Final = 256
"""Keys waiting for a screen beyond this are dropped, as a BBS drops excess type-ahead."""

MAX_HELD_OUTPUT: Final = 256 * 1024
MAX_UNFLUSHED_OUTPUT: Final = 64 * 1024
"""Bytes held while output is paused; past this, output resumes on its own rather than
letting a caller who never sends Ctrl-Q grow the door's memory."""

OUTPUT_HIGH_WATER: Final = 64 * 1024
"""Bytes waiting in the transport beyond which the caller counts as not reading: the
renderer then keeps only its latest frame until the transport drains."""
MAX_QUEUED_OUTPUT: Final = 1024 * 1024
"""Bytes waiting in the transport beyond which the line is closed: only a caller who
reads nothing at all gets there, and the door will not hold their screens for them."""

ResizeListener = Callable[[int, int], None]


_SCREEN: Final = Display.SCREEN
_MOUSE: Final = KeyName.MOUSE
_CTRL_S: Final = KeyName.CTRL_S
_CTRL_Q: Final = KeyName.CTRL_Q
_SPEECH: Final = Display.SPEECH


class Disconnected(Exception):
    """The caller's line has dropped: hung up, killed, or closed by the door."""


class Terminal(Protocol):
    """What a screen may do with the caller's terminal."""

    @property
    def size(self) -> tuple[int, int]:
        """(cols, rows), never zero."""
        ...

    @property
    def term_type(self) -> str | None:
        """The terminal type as the caller's client reported it, or None."""
        ...

    @property
    def charset(self) -> Charset: ...

    @charset.setter
    def charset(self, charset: Charset) -> None: ...

    @property
    def color_mode(self) -> ColorMode: ...

    @color_mode.setter
    def color_mode(self, mode: ColorMode) -> None: ...

    @property
    def mouse_reporting(self) -> bool:
        """Whether the caller's terminal is asked for mouse reports (door/term/mouse.py):
        on, clicks come in as keys named MOUSE; off, none do."""
        ...

    @mouse_reporting.setter
    def mouse_reporting(self, on: bool) -> None: ...

    @property
    def idle(self) -> float:
        """Seconds since the caller last pressed a key."""
        ...

    @property
    def backlogged(self) -> bool:
        """The caller is not reading what was sent: output waits in the transport."""
        ...

    async def read_key(self) -> Key:
        """The next key; raises Disconnected once the line has dropped."""
        ...

    # Waiting for a key or something else, whichever comes first (door/term/inbox.py),
    # with one plain future and no task: ``watch_keys(waiter)``, await the waiter (which
    # the other thing may settle too), ``unwatch_keys(waiter)``, then ``take_key()``.
    # Keys stay in the terminal until taken, so one that came with the other thing is
    # taken by the next read.

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        """Settle ``waiter`` once ``take_key`` may have an answer: a key has arrived or
        the line has dropped (at once if so already); the idle guard's warning due too.
        ``unwatch_keys`` must follow."""
        ...

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        """Stop watching for ``waiter``: it is forgotten, settled or not."""
        ...

    async def take_key(self) -> Key | None:
        """The next key if it has arrived, else None at once (never waiting for the
        caller; the idle guard may wait for its warning to go out). Raises Disconnected
        once the line has dropped."""
        ...

    def discard_typeahead(self) -> int:
        """Forget the keys that have arrived and not been read (a decision about to be
        asked must not be answered by keys pressed before it was shown); returns how
        many. A dropped line stays dropped."""
        ...

    def write(self, text: str) -> None:
        """Queue ``text``, encoded in the current charset. Never raises; after the line has
        dropped the text is discarded and the next ``read_key``/``flush`` raises."""
        ...

    async def flush(self) -> None:
        """Wait until written text has gone out; raises Disconnected if the line dropped.
        Returns at once while the caller has paused output with Ctrl-S."""
        ...

    def on_resize(self, listener: ResizeListener) -> Callable[[], None]:
        """Call ``listener(cols, rows)`` on every resize; returns a function that stops it."""
        ...

    def close(self) -> None:
        """Send any held output and end the connection. Safe to call more than once."""
        ...


# Errors a source or sink raises when the line drops. Adapters for libraries with their
# own exception types (asyncssh's ConnectionLost) translate them or raise Disconnected.
_LINE_ERRORS: Final = (OSError, EOFError, Disconnected)
_SOME_TIME: Final = 0.001
"""A hold never shorter than this: a zero one would not stop reading at all."""


class StreamTerminal:
    """A ``Terminal`` over a byte source and sink.

    A background task reads input as soon as ``start()`` is called, so Ctrl-S and Ctrl-Q
    take effect even while no screen is waiting for a key. Those two are consumed here:
    Ctrl-S holds all output until Ctrl-Q. Every other key waits for ``read_key``.

    With ``key_rate`` (keys a second, ``key_burst`` at once) keys beyond the rate are
    dropped, and reading stops until the bucket is half full again, so a flooding
    caller is held back by the transport's own flow control instead of by the door's
    memory and CPU. ``output_stall_seconds`` closes the line of a caller whose transport
    has not taken output for that long.
    """

    def __init__(
        self,
        source: ByteSource,
        sink: ByteSink,
        *,
        term_type: str | None = None,
        size: tuple[int, int] = DEFAULT_SIZE,
        charset: Charset | None = None,
        color_mode: ColorMode | None = None,
        escape_timeout: float = ESCAPE_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
        key_rate: float | None = None,
        key_burst: int = 1,
        output_stall_seconds: float | None = None,
        display_mode: Display = Display.SCREEN,
    ) -> None:
        self._source = source
        self._display_mode = display_mode
        self._sink = sink
        self._buffered: Callable[[], int] | None = getattr(sink, "buffered", None)
        """The sink's ``buffered``, looked up once (read at every frame)."""
        self._offer_keys: Callable[[tuple[Offer, ...]], None] | None = getattr(
            sink, "offer_keys", None
        )
        """The sink's ``offer_keys``: a page that shows the keys on offer as buttons."""
        self._term_type = term_type
        self._cols, self._rows = clamp_size(*size)
        self._charset = charset if charset is not None else charset_for_terminal_type(term_type)
        self._color_mode = (
            color_mode if color_mode is not None else color_mode_for_terminal_type(term_type)
        )
        self._escape_timeout = escape_timeout
        self._clock = clock
        self._decoder = KeyDecoder()
        self._keys: KeyQueue[Key | None] = KeyQueue()
        self._reader: asyncio.Task[None] | None = None
        self._pushing: PushingSource | None = None
        """The source, once it delivers to ``received`` (no reading task then)."""
        self._escape_timer: asyncio.TimerHandle | None = None
        self._resize_listeners: list[ResizeListener] = []
        self._held_output = bytearray()
        self._paused = False
        self._dropped = False
        self._closed = False
        self._said_last = False
        self._last_key_at = clock()
        self._unanswered_since: float | None = None
        """When the first key not yet answered by a frame came in (door/metrics)."""
        self._inputs_read = 0
        self._key_bucket = TokenBucket(key_rate, key_burst, clock) if key_rate else None
        self.keys_dropped = 0
        """Keys thrown away because the caller sent them faster than ``key_rate``."""
        self._output_stall_seconds = output_stall_seconds
        self._mouse_reporting = False

    @property
    def size(self) -> tuple[int, int]:
        return (self._cols or DEFAULT_SIZE[0], self._rows or DEFAULT_SIZE[1])

    @property
    def term_type(self) -> str | None:
        return self._term_type

    @property
    def charset(self) -> Charset:
        return self._charset

    @charset.setter
    def charset(self, charset: Charset) -> None:
        # What was written under the old charset goes out before the switch.
        self._send_written()
        self._charset = charset

    @property
    def color_mode(self) -> ColorMode:
        return self._color_mode

    @color_mode.setter
    def color_mode(self, mode: ColorMode) -> None:
        self._color_mode = mode

    @property
    def display_mode(self) -> Display:
        return self._display_mode

    @display_mode.setter
    def display_mode(self, mode: Display) -> None:
        self._display_mode = mode

    @property
    def idle(self) -> float:
        return self._clock() - self._last_key_at

    @property
    def backlogged(self) -> bool:
        return self._queued_output() > OUTPUT_HIGH_WATER

    def _waiting_output(self) -> int | None:
        """Bytes of ours waiting in the transport, or None for one that cannot tell
        (rlogin's), which is never taken to be empty."""
        buffered = self._buffered
        return None if buffered is None else int(buffered())

    def _queued_output(self) -> int:
        return self._waiting_output() or 0

    @property
    def paused(self) -> bool:
        """The caller pressed Ctrl-S and output is held until Ctrl-Q."""
        return self._paused

    @property
    def connected(self) -> bool:
        return not (self._dropped or self._closed)

    def start(self) -> None:
        """Begin reading input. Needs a running event loop; later calls do nothing."""
        if self._reader is not None or self._pushing is not None or self._closed:
            return
        if hasattr(self._source, "deliver_to"):
            source: PushingSource = self._source  # type: ignore[assignment]
            self._pushing = source
            source.deliver_to(self)
        else:
            self._reader = asyncio.get_running_loop().create_task(self._read_input())

    async def read_key(self) -> Key:
        self.start()
        return self._taken(await self._keys.get())

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        self.start()
        self._keys.watch(waiter)

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        self._keys.unwatch(waiter)

    async def take_key(self) -> Key | None:
        # (Not started here: a terminal not started has no key, and the watch that
        # follows an empty take starts it.)
        if self._keys.empty():
            return None
        return self._taken(self._keys.get_nowait())

    def _taken(self, key: Key | None) -> Key:
        if key is None:
            # Leave the end marker for any later call.
            self._keys.put_nowait(None)
            raise Disconnected("the caller's line has dropped")
        return key

    def discard_typeahead(self) -> int:
        dropped = 0
        hung_up = False
        while not self._keys.empty():
            if self._keys.get_nowait() is None:
                hung_up = True
            else:
                dropped += 1
        if hung_up:
            self._keys.put_nowait(None)  # the end marker stays for the next read
        return dropped

    def write(self, text: str) -> None:
        # Output is gathered until flush(): a screen drawn in many small writes
        # then goes out as one transport write (for SSH, one encrypted packet
        # rather than dozens).
        if not self.connected or self._said_last:
            return
        mode = self._display_mode
        # (``is`` first: an enum hashes in Python, and a member read from its class
        # costs as much; a frame is several writes.)
        if mode is not _SCREEN and mode in PLAIN_DISPLAYS and "\x1b" in text:
            # Whatever wrote it (a message of the door's, a relayed screen), a terminal
            # showing lines is never sent an escape sequence: it would print it.
            text = without_escapes(text)
        if mode is _SPEECH:
            # A screen reader reads "box drawings light horizontal" for every line drawn.
            text = without_drawing(text)
        self._held_output += encode(text, self._charset)
        if len(self._held_output) > (MAX_HELD_OUTPUT if self._paused else MAX_UNFLUSHED_OUTPUT):
            self._resume_output()

    @property
    def mouse_reporting(self) -> bool:
        """The caller's terminal was asked for mouse reports, and clicks come in as keys
        named MOUSE. Off, reports are dropped here: no screen sees a click it never
        asked for, whatever bytes a caller sends."""
        return self._mouse_reporting

    @mouse_reporting.setter
    def mouse_reporting(self, on: bool) -> None:
        if on != self._mouse_reporting:
            self._mouse_reporting = on
            self.write(ASK_FOR_REPORTS if on else STOP_REPORTS)

    def offer_keys(self, offers: tuple[Offer, ...]) -> None:
        """Tell a sink that shows the keys on offer as buttons (the web page's, on a
        touch screen) which ones the screen now takes; a sink without buttons has no
        ``offer_keys`` and nothing is done. Sent with the next flush, after the frame."""
        if self._offer_keys is not None and self.connected:
            self._offer_keys(offers)

    def write_last(self, text: str) -> None:
        """Write ``text`` as the last thing the caller is sent (the door closing):
        a screen still being redrawn as it closes must not paint over it. A terminal
        asked for mouse reports is told to stop, so the caller's shell does not get
        them after the door."""
        self.write(text)
        self.mouse_reporting = False
        self._said_last = True

    async def flush(self) -> None:
        if not self.connected:
            raise Disconnected("the caller's line has dropped")
        if self._paused:
            return
        if self._resume_output() == 0:
            # The transport took it all: there is nothing to wait for, and no drain (a
            # chain of coroutines in telnetlib3 or asyncssh, every frame). A line that
            # drops meanwhile is seen by the reading task, and the next read says so.
            return
        try:
            if self._output_stall_seconds is None:
                await self._sink.drain()
            else:
                await asyncio.wait_for(self._sink.drain(), self._output_stall_seconds)
        except TimeoutError:
            logger.info("caller read nothing for %.0f s: line closed", self._output_stall_seconds)
            self._line_dropped()
            self.close()
            raise Disconnected("the caller stopped reading") from None
        except _LINE_ERRORS as error:
            self._line_dropped()
            raise Disconnected("the caller's line dropped while sending") from error

    def resize(self, cols: int, rows: int) -> None:
        """Called by the transport when the caller's window changes size."""
        self._cols, self._rows = clamp_size(cols, rows)
        effective_cols, effective_rows = self.size
        for listener in list(self._resize_listeners):
            listener(effective_cols, effective_rows)

    def on_resize(self, listener: ResizeListener) -> Callable[[], None]:
        self._resize_listeners.append(listener)

        def stop() -> None:
            if listener in self._resize_listeners:
                self._resize_listeners.remove(listener)

        return stop

    def close(self) -> None:
        if self._closed:
            return
        self.mouse_reporting = False
        if not self._dropped and self._held_output:
            self._resume_output()
        self._closed = True
        if self._pushing is not None:
            self._pushing.deliver_to(None)
        if self._escape_timer is not None:
            self._escape_timer.cancel()
            self._escape_timer = None
        if self._reader is not None:
            # Let go of it: cancelled, it keeps its CancelledError, whose traceback holds
            # the reading frame and so this terminal (a cycle: door.gc_policy).
            self._reader.cancel()
            self._reader = None
        self._keys.put_nowait(None)
        self._sink.close()

    async def _read_input(self) -> None:
        try:
            while True:
                data = await self._next_input()
                if data is None:
                    continue
                self._inputs_read += 1
                if not data:
                    return
                hold = self._decoded(data)
                if hold:
                    await asyncio.sleep(hold)
        except _LINE_ERRORS:
            pass
        except Exception:
            # A transport bug must not pass for a quiet hang-up, nor vanish unlogged
            # inside a task nobody awaits.
            logger.exception("reading the caller's input failed")
        finally:
            self._line_dropped()

    def _decoded(self, data: bytes | str) -> float:
        """Decode ``data`` and queue its keys; returns how long to stop reading (0: not),
        when the caller sent keys faster than their rate and the excess was dropped."""
        keys = self._decoder.feed(data)
        bucket = self._key_bucket
        if bucket is not None and keys:
            granted = bucket.take(len(keys))
            if granted < len(keys):
                self.keys_dropped += len(keys) - granted
                self._accept(keys[:granted])
                # Stop reading for a while: what the caller sends meanwhile waits in
                # their own transport, not in the door.
                return bucket.seconds_until(bucket.burst / 2) or _SOME_TIME
        self._accept(keys)
        return 0.0

    def received(self, data: bytes | str) -> None:
        """What a pushing source delivers (in its transport's callback): decoded and
        queued at once, as the reading task would after its wake-up."""
        if not data or self._dropped or self._closed:
            return
        if self._escape_timer is not None:
            self._escape_timer.cancel()
            self._escape_timer = None
        try:
            hold = self._decoded(data)
        except Exception:
            # Raised into the transport it would close the line with asyncio's own
            # complaint, or not at all: the line ends here, logged, as the task's does.
            logger.exception("reading the caller's input failed")
            self._line_dropped()
            return
        if hold and self._pushing is not None:
            self._pushing.hold(hold)
        if self._decoder.pending_escape:
            self._escape_timer = asyncio.get_running_loop().call_later(
                self._escape_timeout, self._escape_waited
            )

    def ended(self) -> None:
        self._line_dropped()

    def _escape_waited(self) -> None:
        """A lone ESC the next input did not follow in time: the Escape key."""
        self._escape_timer = None
        if not (self._dropped or self._closed):
            self._accept(self._decoder.flush())

    async def _next_input(self) -> bytes | str | None:
        """The next input, or None when a lone ESC timed out and became the Escape key."""
        if not self._decoder.pending_escape:
            return await self._source.read()
        try:
            return await asyncio.wait_for(self._source.read(), self._escape_timeout)
        except TimeoutError:
            self._accept(self._decoder.flush())
            return None

    def _accept(self, keys: list[Key]) -> None:
        if keys:
            self._last_key_at = self._clock()
            TALLY.keys += len(keys)
            if self._unanswered_since is None:
                self._unanswered_since = self._last_key_at
        queue = self._keys
        for key in keys:
            # (By name, ``is``: a named key carries nothing else, and ``==`` on the
            # dataclass was two calls a key.)
            name = key.name
            if name is _MOUSE:
                # Only the reports a screen can act on take a place in the queue: a
                # button going up follows every click and means nothing to the door.
                wanted = self._mouse_reporting and key.mouse is not None and key.mouse.pressed
                if wanted and queue.qsize() < MAX_TYPEAHEAD:
                    queue.put_nowait(key)
            elif name is _CTRL_S:
                self._paused = True
            elif name is _CTRL_Q:
                self._resume_output()
            elif queue.qsize() < MAX_TYPEAHEAD:
                queue.put_nowait(key)

    def _send_written(self) -> None:
        if not self._paused and self.connected:
            self._resume_output()

    def _resume_output(self) -> int | None:
        """Send what is held; returns the bytes then waiting in the transport (None: it
        cannot tell), asked once (``flush`` goes by it)."""
        self._paused = False
        if not self._held_output:
            return self._waiting_output()
        held, self._held_output = bytes(self._held_output), bytearray()
        try:
            self._sink.write(held)
        except _LINE_ERRORS:
            # A line that dropped under a write: an ordinary hang-up, not an error.
            self._line_dropped()
            return self._waiting_output()
        TALLY.frames += 1
        TALLY.bytes_sent += len(held)
        if self._unanswered_since is not None:
            TALLY.key_answered(self._clock() - self._unanswered_since)
            self._unanswered_since = None
        waiting = self._waiting_output()
        if waiting is not None and waiting > MAX_QUEUED_OUTPUT:
            logger.info("caller left %d bytes unread: line closed", waiting)
            self._line_dropped()
            self.close()
            return self._waiting_output()
        return waiting

    def _line_dropped(self) -> None:
        if self._dropped or self._closed:
            return
        self._dropped = True
        self._held_output.clear()
        self._keys.put_nowait(None)


async def read_key_watching(terminal: Terminal) -> Key:
    """``read_key`` for a terminal whose keys are told by ``watch_keys`` and taken by
    ``take_key`` (the idle guard's, the relay's): one plain future a wait, no task."""
    while True:
        key = await terminal.take_key()
        if key is not None:
            return key
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        terminal.watch_keys(waiter)
        try:
            await waiter
        finally:
            terminal.unwatch_keys(waiter)
