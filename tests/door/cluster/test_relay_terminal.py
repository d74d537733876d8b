"""A relayed caller's terminal at the table's worker: keys in order, waited for without a
task, and the end of the relay seen by whoever waits (no Redis needed)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from door.cluster.relay import RelayTerminal, install, relay_line, relayed_offers
from door.term.display import PLAIN_DISPLAYS, Display, display_mode_of
from door.term.inbox import Inbox
from door.term.keys import Key, Mouse, MouseButton
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS
from door.term.offers import Offer
from door.term.terminal import Disconnected
from door.ui.session import Session
from tests.door.fake_terminal import FakeTerminal


class _Link:
    def __init__(self) -> None:
        self.relays: dict[str, Any] = {}
        self.sent: list[dict[str, Any]] = []
        self.reachable = True
        self.on_reachable: list[Any] = []
        self.handlers: dict[str, Any] = {}
        self.on_sync: list[Any] = []
        self.on_back: list[Any] = []

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


def test_the_table_worker_asks_the_callers_own_terminal_for_clicks_and_gets_them() -> None:
    """A relayed caller's clicks cross the relay as [name, char, [button, column, row]];
    the table's worker asking for reports is relayed to the caller's real terminal, which
    asks as before once the relay ends."""

    async def scenario() -> tuple[bool, bytes, list[Any], bool, bytes]:
        link = _Link()
        caller = FakeTerminal()
        relaying = asyncio.ensure_future(relay_line(link, caller, "w1", {"from": "w2"}))  # type: ignore[arg-type]
        while not link.relays:
            await asyncio.sleep(0)
        (end,) = link.relays.values()
        end.received({"op": "mouse", "on": True})
        await caller.flush()
        while not caller.mouse_reporting:
            await asyncio.sleep(0)
        asked = caller.output
        caller.push_bytes(b"\x1b[<0;12;15M\x1b[<0;12;15m")
        while len(link.sent) < 2:
            await asyncio.sleep(0)
        sent = link.sent[1]["k"]
        end.received({"op": "close"})
        await relaying
        await caller.flush()
        return (
            asked.endswith(ASK_FOR_REPORTS.encode()),
            b"",
            sent,
            caller.mouse_reporting,
            caller.output,
        )

    asked, _, sent, still_on, output = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert asked
    assert sent == [["mouse", "", ["left", 11, 14]]]
    assert not still_on and output.endswith(STOP_REPORTS.encode())

    at_the_table = _terminal()
    at_the_table.received({"op": "keys", "k": sent})
    assert at_the_table.discard_typeahead() == 0  # not asked for: dropped, as a terminal does
    at_the_table.mouse_reporting = True
    assert at_the_table.link.sent[-1] == {"t": "relay", "r": "r1", "op": "mouse", "on": True}  # type: ignore[attr-defined]
    at_the_table.received({"op": "keys", "k": sent})
    got = asyncio.run(at_the_table.read_key())
    assert got == Key.mouse_report(Mouse(MouseButton.LEFT, 11, 14))


@pytest.mark.parametrize(
    "relayed",
    [
        ["mouse", "", ["sideways", 1, 1]],
        ["mouse", "", [" left", 1, 1]],
        ["mouse", "", ["left", "1", 1]],
        ["mouse", "", ["left", True, 1]],
        ["mouse", "", ["left", 1]],
        ["mouse", ""],
        ["mouse", "x", ["left", 1, 1]],
        ["char", "", ["left", 1, 1]],
        "mouse",
        {"mouse": 1},
    ],
)
def test_a_malformed_relayed_click_is_dropped(relayed: Any) -> None:
    terminal = _terminal()
    terminal.mouse_reporting = True
    terminal.received({"op": "keys", "k": [relayed, ["char", "z"]]})
    assert asyncio.run(terminal.read_key()) == Key.printable("z")


def test_a_relayed_click_far_off_the_screen_is_held_to_it() -> None:
    terminal = _terminal()
    terminal.mouse_reporting = True
    terminal.received({"op": "keys", "k": [["mouse", "", ["left", 10**9, -5]]]})
    got = asyncio.run(terminal.read_key())
    assert got.mouse is not None and got.mouse.column <= 1000 and got.mouse.row == 0


def test_a_key_while_the_stopping_worker_holds_the_relay_is_not_answered_as_ended() -> None:
    # The table's worker stops: it holds the relayed caller, saves the game, then hands
    # them back ("gone"), and their own worker sets the game again. A key of theirs
    # meanwhile was answered "close" (a relay whose session ended), and their worker
    # ended the relay as a hang-up: no game set again (CI on 3a79042, PostgreSQL slow
    # to save).
    link = _Link()
    install(link, lambda terminal, hello: None)  # type: ignore[arg-type]
    link.handlers["relay_open"]({"r": "r1", "from": "w2"})
    terminal = link.relays["r1"]
    terminal.hold()
    link.handlers["relay"]({"t": "relay", "r": "r1", "from": "w2", **_keys("x")})
    assert all(event.get("op") != "close" for event in link.sent)
    terminal.hand_back()
    assert [event["op"] for event in link.sent] == ["gone"] and "r1" not in link.relays
    # A key for a relay this worker no longer knows at all is still answered "close".
    link.handlers["relay"]({"t": "relay", "r": "r1", "from": "w2", **_keys("y")})
    assert link.sent[-1]["op"] == "close"


def test_the_keys_on_offer_go_after_the_frame_that_offers_them() -> None:
    terminal = _terminal()
    terminal.write("a frame")
    terminal.offer_keys((Offer("RETURN", "RETURN throw", "\r"), Offer("c", "c chat", "c")))
    asyncio.run(terminal.flush())
    sent = terminal.link.sent  # type: ignore[attr-defined]
    assert [event["op"] for event in sent] == ["out", "offers"]
    offers = relayed_offers(sent[1]["o"])
    assert offers == (Offer("RETURN", "RETURN throw", "\r"), Offer("c", "c chat", "c"))


@pytest.mark.parametrize(
    "relayed",
    [
        None,
        "keys",
        {"label": "c"},
        [["c", "c chat"]],
        ["abc"],
        [("c", "c chat", "c")],
        [["c", "c chat", "c", "more"]],
        [["c", "c chat", 99]],
        [["", "nothing", "c"]],
        [["c", "c chat", ""]],
        [["RETURN!!!", "RETURN", "\r"]],
        [["c", "c " + "chat " * 40, "c"]],
        [["c", "c chat", "\x1b[" + "9" * 20 + "~"]],
        [["c", "c chat", "c"]] * 12,
    ],
)
def test_relayed_offers_that_are_not_as_sent_or_too_long_are_refused(relayed: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        relayed_offers(relayed)


def test_a_hostile_offer_is_dropped_and_the_relay_goes_on() -> None:
    class Page(FakeTerminal):
        def __init__(self) -> None:
            super().__init__()
            self.offered: list[Any] = []

        def offer_keys(self, offers: Any) -> None:
            self.offered.append([offer.label for offer in offers])

    async def scenario() -> tuple[list[Any], str]:
        link = _Link()
        page = Page()
        relaying = asyncio.ensure_future(relay_line(link, page, "w2", {}))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        (end,) = link.relays.values()
        end.received({"op": "offers", "o": [["c", "c chat", "c" * 1000]]})
        end.received({"op": "offers", "o": [["q", "q quit", "q"]]})
        end.received({"op": "out", "d": "still here"})
        await asyncio.sleep(0.05)
        relaying.cancel()
        return page.offered, bytes(page.output).decode()

    offered, shown = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert offered == [["q"]]
    assert "still here" in shown
