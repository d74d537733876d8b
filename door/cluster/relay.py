"""A caller's line carried from the worker they called to the worker of their table.

A game between callers of two workers is played on one of them (the challenger's). The
other worker hands its caller over: it stops their session, and from then on only
relays their line (``relay_line``): each key goes to the table's worker, each screen
update comes back and is written to the caller's terminal (with the keys it offers, for a
touch screen's page: its row of buttons), and window sizes follow.
The table's worker runs the caller's session on a ``RelayTerminal``, a ``Terminal``
like any other: the caller sits at their seat, and after the game is in that worker's
lobby (which is the same lobby). Keys and screens travel on the two workers' channels
(door/cluster/link.py), in order.

Redis may stop and come back meanwhile (door/cluster/link.py): the relay waits for it,
and when either worker hears the other again the table's worker repaints the caller's
screen whole, as after Ctrl-L, since screens sent meanwhile were lost (keys typed
meanwhile are lost too: the caller saw nothing answer them).

Either end may go: the caller hanging up ends the session at the table's worker as a
dropped line does (the seat waits for them to call back); the table's worker dying ends
the relay, and the caller carries on at their own worker, which sets the game again from
the store (door/app/call.py).

The caller's idle guard is their session's at the table's worker, which knows when the
table waits on someone else; the guard at their own worker counts nothing while the
relay runs, but for while Redis does not answer: then nothing of theirs reaches the
table, and the guard there, which would hang them up, cannot reach them. A relay whose
session at the table's worker ended meanwhile (its close lost with Redis) is told so when
the caller's keys or the repaint after Redis is back reach that worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from door.term.ansi import ColorMode
from door.term.charset import Charset
from door.term.display import Display, display_mode_of
from door.term.idle import tell_waiting_on_others
from door.term.key_queue import KeyQueue
from door.term.keys import Key, KeyName, Mouse, MouseButton
from door.term.offers import MAX_OFFERS, Offer
from door.term.terminal import MAX_TYPEAHEAD, Disconnected, Terminal, read_key_watching
from door.term.window import MAX_COLS, MAX_ROWS

if TYPE_CHECKING:
    from door.cluster.link import ClusterLink

logger = logging.getLogger(__name__)

MAX_RELAYED_OUTPUT: Final = 256 * 1024
"""Characters of screen one flush may carry; a renderer never sends near this."""
MAX_OFFER_LABEL: Final = 8
"""Characters of a relayed offer's label ("RETURN", "PgDn": 6 at most)."""
MAX_OFFER_WORDS: Final = 80
"""Characters of a relayed offer's words: a part of one key bar ("RETURN on a blank
line: deal", 28, is the longest a screen has)."""
MAX_OFFER_SEND: Final = 8
"""Characters a relayed offer's button sends (an escape sequence, "\x1b[6~", at most)."""


class RelayTerminal:
    """The caller of another worker, as a Terminal at the table's worker."""

    def __init__(self, link: ClusterLink, relay_id: str, hello: dict[str, Any]) -> None:
        self.link = link
        self.relay_id = relay_id
        self.peer_worker = str(hello["from"])
        cols, rows = hello.get("size", (80, 24))
        self._size = (_clamp(cols, MAX_COLS), _clamp(rows, MAX_ROWS))
        self._term_type = hello.get("term")
        self._charset = Charset(hello.get("charset", Charset.UTF8.value))
        self._color_mode = ColorMode(hello.get("color", ColorMode.ANSI.value))
        self._display_mode = _display_mode(hello.get("display"))
        self._keys: KeyQueue[Key | None] = KeyQueue()
        """The caller's keys, then None once the relay has ended (to settle watchers)."""
        self._pending: list[str] = []
        self._listeners: list[Callable[[int, int], None]] = []
        self._last_key = time.monotonic()
        self._closed = asyncio.Event()
        self._held = False
        self._mouse_reporting = False
        self._offers: list[list[str]] | None = None
        """The keys on offer, to send after the frame being written (``offer_keys``)."""

    @property
    def far_worker(self) -> str:
        return self.peer_worker

    # --- what the far end sends -------------------------------------------------------

    def received(self, event: dict[str, Any]) -> None:
        op = event.get("op")
        if op == "keys":
            self._last_key = time.monotonic()
            for relayed in event.get("k", ()):
                with contextlib.suppress(ValueError, TypeError):
                    key = relayed_key(relayed)
                    if key.name is KeyName.MOUSE and not self._mouse_reporting:
                        continue  # as the caller's own terminal drops them
                    if self._keys.qsize() < MAX_TYPEAHEAD and not self._closed.is_set():
                        self._keys.put_nowait(key)
        elif op == "size":
            cols, rows = event.get("c", 80), event.get("r", 24)
            self._size = (_clamp(cols, MAX_COLS), _clamp(rows, MAX_ROWS))
            for listener in list(self._listeners):
                listener(*self._size)
        elif op == "repaint":
            self.repaint()
        elif op == "hangup":
            self._drop()

    def far_end_gone(self) -> None:
        self._drop()

    def repaint(self) -> None:
        """Send the caller's screen whole: what was sent while Redis was away is lost.
        The renderer listening for resizes does that for a resize to the same size."""
        for listener in list(self._listeners):
            listener(*self._size)

    def hold(self) -> None:
        """This worker is stopping: nothing more reaches the caller from here, and
        their keys no longer reach the table; ``hand_back`` follows. The relay stays
        known here till then: a key of theirs meanwhile would otherwise be answered as
        one for a session that ended (``install``'s "close"), and their worker would
        end the relay where it should carry on with them."""
        self._held = not self._closed.is_set()
        self._drop(forget=False)

    def hand_back(self) -> None:
        """The caller's own worker carries on with them, as after a worker dies (their
        game set again from the store)."""
        if self._held or not self._closed.is_set():
            self._send({"op": "gone"})
        self._held = False
        self._drop()

    def _drop(self, *, forget: bool = True) -> None:
        if not self._closed.is_set():
            self._closed.set()
            self._keys.put_nowait(None)
        if forget:
            self.link.relays.pop(self.relay_id, None)

    # --- the Terminal ---------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def term_type(self) -> str | None:
        return self._term_type

    @property
    def display_mode(self) -> Display:
        """How the caller's own terminal shows the door: a teletype (a BBS caller on
        ASCII emulation) is sent lines, not a screen painted in place."""
        return self._display_mode

    @property
    def charset(self) -> Charset:
        return self._charset

    @charset.setter
    def charset(self, charset: Charset) -> None:
        self._charset = charset
        self._send({"op": "charset", "v": charset.value})

    @property
    def color_mode(self) -> ColorMode:
        return self._color_mode

    @color_mode.setter
    def color_mode(self, mode: ColorMode) -> None:
        self._color_mode = mode
        self._send({"op": "color", "v": mode.value})

    @property
    def mouse_reporting(self) -> bool:
        return self._mouse_reporting

    @mouse_reporting.setter
    def mouse_reporting(self, on: bool) -> None:
        # The caller's own terminal is asked (or told to stop) by their worker.
        if on != self._mouse_reporting:
            self._mouse_reporting = on
            self._send({"op": "mouse", "on": on})

    @property
    def idle(self) -> float:
        return time.monotonic() - self._last_key

    @property
    def backlogged(self) -> bool:
        return False

    async def read_key(self) -> Key:
        return await read_key_watching(self)

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        self._keys.watch(waiter)

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        self._keys.unwatch(waiter)

    async def take_key(self) -> Key | None:
        if self._closed.is_set():
            raise Disconnected("the caller's worker relays no more")
        return self._keys.get_nowait() if not self._keys.empty() else None

    def discard_typeahead(self) -> int:
        count = 0
        while not self._keys.empty():
            if self._keys.get_nowait() is not None:
                count += 1
        if self._closed.is_set():
            self._keys.put_nowait(None)  # the end stays
        return count

    def write(self, text: str) -> None:
        if not self._closed.is_set():
            self._pending.append(text)

    async def flush(self) -> None:
        if self._closed.is_set():
            raise Disconnected("the caller's worker relays no more")
        if self._pending:
            text, self._pending = "".join(self._pending), []
            self._send({"op": "out", "d": text[:MAX_RELAYED_OUTPUT]})
        if self._offers is not None:
            offers, self._offers = self._offers, None
            self._send({"op": "offers", "o": offers})

    def offer_keys(self, offers: tuple[Offer, ...]) -> None:
        """The keys the caller's screen offers (their session is a touch screen's): sent
        with the next flush, after the frame that offers them, for their own worker's
        terminal to show (the web page's row of buttons)."""
        self._offers = [[offer.label, offer.words, offer.send] for offer in offers]

    def on_resize(self, listener: Callable[[int, int], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def close(self) -> None:
        if not self._closed.is_set():
            if self._pending:
                self._send({"op": "out", "d": "".join(self._pending)[:MAX_RELAYED_OUTPUT]})
                self._pending = []
            self._send({"op": "close"})
        self._drop()

    def _send(self, event: dict[str, Any]) -> None:
        self.link.send(self.peer_worker, {"t": "relay", "r": self.relay_id, **event})


def key_to_relay(key: Key) -> list[Any]:
    """A key as the relay sends it: [name, char], and for a click [button, column, row]."""
    if key.mouse is None:
        return [key.name.value, key.char]
    mouse = key.mouse
    return [key.name.value, key.char, [mouse.button.value, mouse.column, mouse.row]]


def relayed_key(relayed: Any) -> Key:
    """The key ``key_to_relay`` sent; raises ValueError or TypeError for anything else
    (the far end is another worker of this door, but what it relays came from a caller)."""
    name, char, *rest = relayed
    if KeyName(name) is not KeyName.MOUSE:
        return Key(KeyName(name), char)
    (button, column, row), *_ = rest
    if char or type(column) is not int or type(row) is not int:
        raise TypeError("a click carries no character, and its place is two whole numbers")
    mouse = Mouse(MouseButton(button), min(max(column, 0), MAX_COLS), min(max(row, 0), MAX_ROWS))
    return Key.mouse_report(mouse)


def relayed_offers(relayed: Any) -> tuple[Offer, ...]:
    """The offers ``RelayTerminal.offer_keys`` sent; raises ValueError or TypeError for
    anything else, or more (they go to the caller's page: door/term/offers.py)."""
    if type(relayed) is not list or len(relayed) > MAX_OFFERS:
        raise ValueError("offers are a list of at most MAX_OFFERS")
    offers = []
    for item in relayed:
        if type(item) is not list or len(item) != 3:
            raise TypeError("an offer is a list of three")
        label, words, send = item
        if not all(type(part) is str for part in (label, words, send)):
            raise TypeError("an offer is three strings")
        if not (
            0 < len(label) <= MAX_OFFER_LABEL
            and len(words) <= MAX_OFFER_WORDS
            and 0 < len(send) <= MAX_OFFER_SEND
        ):
            raise ValueError("an offer's label, words or keys are too long")
        offers.append(Offer(label, words, send))
    return tuple(offers)


def _display_mode(value: object) -> Display:
    """The display mode a relay's hello names; a worker of an older door names none, and
    its callers have a screen."""
    try:
        return Display(value)
    except ValueError:
        return Display.SCREEN


def _clamp(value: Any, most: int) -> int:
    try:
        return max(1, min(most, int(value)))
    except (TypeError, ValueError):
        return 1


class RelayEnd:
    """The caller's worker's end of a relay: what the table's worker sends back."""

    def __init__(self, link: ClusterLink, relay_id: str, worker: str) -> None:
        self.link = link
        self.relay_id = relay_id
        self.worker = worker
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    @property
    def far_worker(self) -> str:
        return self.worker

    def received(self, event: dict[str, Any]) -> None:
        self.inbox.put_nowait(event)

    def far_end_gone(self) -> None:
        self.inbox.put_nowait({"op": "gone"})

    def repaint(self) -> None:
        """Ask the table's worker for the caller's screen whole (see RelayTerminal)."""
        self.send({"op": "repaint"})

    def send(self, event: dict[str, Any]) -> None:
        self.link.send(self.worker, {"t": "relay", "r": self.relay_id, **event})


async def relay_line(
    link: ClusterLink, terminal: Terminal, worker: str, hello: dict[str, Any]
) -> bool:
    """Carry the caller's line to ``worker``, where their session goes on, until either
    end closes it. Returns True if the caller hung up or the session there ended, False
    if that worker went away. ``terminal``'s idle guard, if any, counts only while Redis
    does not answer (see the module)."""
    relay_id = uuid.uuid4().hex
    end = RelayEnd(link, relay_id, worker)
    link.relays[relay_id] = end
    cols, rows = terminal.size
    link.send(
        worker,
        {
            "t": "relay_open",
            "r": relay_id,
            "size": [cols, rows],
            "term": terminal.term_type,
            "charset": terminal.charset.value,
            "color": terminal.color_mode.value,
            "display": display_mode_of(terminal).value,
            **hello,
        },
    )
    stop_resizes = terminal.on_resize(lambda c, r: end.send({"op": "size", "c": c, "r": r}))
    mouse_before = terminal.mouse_reporting

    def guard_here(reachable: bool) -> None:
        tell_waiting_on_others(terminal, reachable)

    guard_here(link.reachable)
    link.on_reachable.append(guard_here)

    async def keys() -> None:
        while True:
            key = await terminal.read_key()
            end.send({"op": "keys", "k": [key_to_relay(key)]})

    async def screens() -> bool:
        while True:
            event = await end.inbox.get()
            op = event.get("op")
            if op == "out":
                terminal.write(str(event.get("d", "")))
                await terminal.flush()
            elif op == "charset":
                with contextlib.suppress(ValueError):
                    terminal.charset = Charset(event.get("v"))
            elif op == "color":
                with contextlib.suppress(ValueError):
                    terminal.color_mode = ColorMode(event.get("v"))
            elif op == "mouse":
                terminal.mouse_reporting = event.get("on") is True
            elif op == "offers":
                offer_keys = getattr(terminal, "offer_keys", None)  # (a page's: the web)
                if offer_keys is not None:
                    with contextlib.suppress(ValueError, TypeError):
                        offer_keys(relayed_offers(event.get("o")))
                        await terminal.flush()  # (a page's sink sends them as it flushes)
            elif op == "close":
                return True
            elif op == "gone":
                return False

    typing = asyncio.ensure_future(keys())
    showing = asyncio.ensure_future(screens())
    try:
        await asyncio.wait({typing, showing}, return_when=asyncio.FIRST_COMPLETED)
        if showing.done() and not showing.cancelled() and showing.exception() is None:
            return showing.result()
        end.send({"op": "hangup"})  # the caller's line dropped
        return True
    finally:
        for task in (typing, showing):
            task.cancel()
        for task in (typing, showing):
            with contextlib.suppress(asyncio.CancelledError, Disconnected, Exception):
                await task
        stop_resizes()
        link.on_reachable.remove(guard_here)
        guard_here(False)  # back at this worker: its guard counts again
        link.relays.pop(relay_id, None)
        # Back at this worker, the caller's screens ask for clicks as they did before.
        terminal.mouse_reporting = mouse_before


def install(
    link: ClusterLink, serve_relayed: Callable[[RelayTerminal, dict[str, Any]], None]
) -> None:
    """Route relay messages to their ends, open sessions for callers sent here, and end
    the relays of a worker that died."""

    def relay(event: dict[str, Any]) -> None:
        relay_id = str(event.get("r"))
        end = link.relays.get(relay_id)
        if end is not None and end.far_worker == event.get("from"):
            end.received(event)
        elif end is None and event.get("op") in ("keys", "repaint") and event.get("from"):
            # The session this line was relayed to ended while Redis was away (its
            # close was lost): the caller's worker ends the relay now. ("close" is never
            # answered, so two workers cannot bounce it between them.)
            link.send(str(event["from"]), {"t": "relay", "r": relay_id, "op": "close"})

    def relay_open(event: dict[str, Any]) -> None:
        relay_id = str(event["r"])
        terminal = RelayTerminal(link, relay_id, event)
        link.relays[relay_id] = terminal
        serve_relayed(terminal, event)

    def check_alive() -> None:
        for end in list(link.relays.values()):
            if end.far_worker not in link.alive:
                logger.info("cluster: worker %s is gone: its relay ends", end.far_worker)
                link.relays.pop(end.relay_id, None)
                end.far_end_gone()

    def back(worker: str | None) -> None:
        """``worker`` (None: this one) hears the others again after Redis was lost."""
        for end in list(link.relays.values()):
            if worker is None or end.far_worker == worker:
                end.repaint()

    link.handlers.update(relay=relay, relay_open=relay_open)
    link.on_sync.append(check_alive)
    link.on_back.append(back)
