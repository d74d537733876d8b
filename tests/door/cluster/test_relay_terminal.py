"""A relayed caller's terminal at the table's worker: keys in order, waited for without a
task, and the end of the relay seen by whoever waits (no Redis needed)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from door.cluster.relay import RelayTerminal, relay_line
from door.term.inbox import Inbox
from door.term.keys import Key
from door.term.terminal import PLAIN_DISPLAYS, Disconnected, Display, display_mode_of
from door.ui.session import Session
from tests.door.fake_terminal import FakeTerminal


class _Link:
    def __init__(self) -> None:
        self.relays: dict[str, Any] = {}
        self.sent: list[dict[str, Any]] = []

    def send(self, worker: str, event: dict[str, Any]) -> None:
        self.sent.append(event)


def _terminal() -> RelayTerminal:
    link = _Link()
    terminal = RelayTerminal(link, "r1", {"from": "w2"})  # type: ignore[arg-type]
    link.relays["r1"] = terminal
    return terminal


def _keys(*chars: str) -> dict[str, Any]:
    return {"op": "keys", "k": [["char", char] for char in chars]}


def test_keys_come_in_order_and_typed_ahead_ones_can_be_dropped() -> None:
    async def scenario() -> tuple[list[Key], int, Key]:
        terminal = _terminal()
        reading = asyncio.ensure_future(terminal.read_key())
        await asyncio.sleep(0)
        terminal.received(_keys("a", "b"))
        got = [await reading, await terminal.read_key()]
        terminal.received(_keys("c", "d"))
        dropped = terminal.discard_typeahead()
        terminal.received(_keys("e"))
        return got, dropped, await terminal.read_key()

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) == (
        [Key.printable("a"), Key.printable("b")],
        2,
        Key.printable("e"),
    )


def test_a_screen_waiting_for_a_key_or_news_hears_the_relay_end() -> None:
    async def scenario() -> None:
        terminal = _terminal()
        watching = asyncio.Event()
        watch_keys = terminal.watch_keys

        def watched(waiter: asyncio.Future[None]) -> None:
            watch_keys(waiter)
            watching.set()

        terminal.watch_keys = watched  # type: ignore[method-assign]
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await watching.wait()  # the screen waits for a key or news
        terminal.received({"op": "hangup"})
        with pytest.raises(Disconnected):
            await waiting
        with pytest.raises(Disconnected):
            await terminal.read_key()  # and every read after
        assert terminal.discard_typeahead() == 0

    asyncio.run(asyncio.wait_for(scenario(), 5))


def test_a_teletype_caller_is_sent_lines_by_the_worker_holding_their_game() -> None:
    """A BBS caller on ASCII emulation (a door node, bridged in as an RLogin "dumb"
    terminal) whose game is at another worker: that worker's session for them must draw
    lines, not a screen painted in place (which their own worker could only strip of its
    escapes, leaving the layout garbled)."""

    async def hello_of(display: Display) -> dict[str, Any]:
        link = _Link()
        caller = FakeTerminal()
        caller.display_mode = display
        relaying = asyncio.ensure_future(relay_line(link, caller, "w1", {"from": "w2"}))  # type: ignore[arg-type]
        while not link.sent:
            await asyncio.sleep(0)
        relaying.cancel()
        with pytest.raises(asyncio.CancelledError):
            await relaying
        return link.sent[0]

    for display in Display:
        hello = asyncio.run(asyncio.wait_for(hello_of(display), 5))
        at_the_table = RelayTerminal(_Link(), "r1", hello)  # type: ignore[arg-type]
        assert display_mode_of(at_the_table) is display
        assert Session(at_the_table).lines is (display in PLAIN_DISPLAYS)
        assert Session(at_the_table).speech is (display is Display.SPEECH)


@pytest.mark.parametrize("display", [None, "", "teletype", 7])
def test_a_hello_naming_no_known_display_is_a_screen(display: object) -> None:
    hello = {"from": "w2"} if display is None else {"from": "w2", "display": display}
    terminal = RelayTerminal(_Link(), "r1", hello)  # type: ignore[arg-type]
    assert display_mode_of(terminal) is Display.SCREEN
