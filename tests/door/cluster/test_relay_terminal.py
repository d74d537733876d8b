"""A relayed caller's terminal at the table's worker: keys in order, waited for without a
task, and the end of the relay seen by whoever waits (no Redis needed)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from door.cluster.relay import RelayTerminal
from door.term.inbox import Inbox
from door.term.keys import Key
from door.term.terminal import Disconnected


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
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await asyncio.sleep(0.01)
        terminal.received({"op": "hangup"})
        with pytest.raises(Disconnected):
            await waiting
        with pytest.raises(Disconnected):
            await terminal.read_key()  # and every read after
        assert terminal.discard_typeahead() == 0

    asyncio.run(asyncio.wait_for(scenario(), 5))
