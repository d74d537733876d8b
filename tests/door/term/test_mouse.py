"""Mouse reports: decoded as MOUSE keys, bounded like keys, and let through to screens only
by a terminal that asked for them."""

from __future__ import annotations

import pytest

from door.term.idle import IdleGuardTerminal
from door.term.keys import MAX_SEQUENCE_LENGTH, Key, KeyDecoder, KeyName, Mouse, MouseButton
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS, offers_mouse, reports_mouse
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal


def click(column: int, row: int, button: MouseButton = MouseButton.LEFT) -> Key:
    return Key.mouse_report(Mouse(button, column, row))


REPORTS = [
    # SGR (?1006): decimal fields, 1-based, M pressed and m released.
    (b"\x1b[<0;12;7M", [click(11, 6)]),
    (b"\x1b[<2;80;24M", [click(79, 23, MouseButton.RIGHT)]),
    (b"\x1b[<1;1;1M", [click(0, 0, MouseButton.MIDDLE)]),
    (b"\x1b[<0;12;7m", [Key.mouse_report(Mouse(MouseButton.LEFT, 11, 6, pressed=False))]),
    (b"\x1b[<16;5;5M", [click(4, 4)]),  # control held: still a click
    (b"\x1b[<64;3;9M", [click(2, 8, MouseButton.WHEEL_UP)]),
    (b"\x1b[<65;3;9M", [click(2, 8, MouseButton.WHEEL_DOWN)]),
    (b"\x1b[<300;1;1M", []),  # 300 = 256+32+8+4: motion, dropped
    # X10 (?1000 alone): ESC [ M and three bytes, each its value plus 32.
    (b"\x1b[M !!", [click(0, 0)]),
    (b'\x1b[M"p8', [click(79, 23, MouseButton.RIGHT)]),
    (b"\x1b[M#!!", [Key.mouse_report(Mouse(MouseButton.UNKNOWN, 0, 0, pressed=False))]),
    # What no terminal sends, or what the door never asked for, is dropped.
    (b"\x1b[<32;3;3M", []),  # motion with the button down (?1002)
    (b"\x1b[<35;3;3M", []),  # motion with no button (?1003)
    (b"\x1b[<66;1;1M", []),  # wheel left/right
    (b"\x1b[<0;0;1M", []),  # column 0 does not exist
    (b"\x1b[<0;1M", []),
    (b"\x1b[<0;1;1;1M", []),
    (b"\x1b[<;1;1M", []),
    (b"\x1b[<0;999999;1M", []),
    (b"\x1b[<0;1;1X", []),
    (b"\x1b[<-1;1;1M", []),
]


@pytest.mark.parametrize(("data", "expected"), REPORTS, ids=[repr(d) for d, _ in REPORTS])
def test_reports_decode_to_mouse_keys(data: bytes, expected: list[Key]) -> None:
    assert KeyDecoder().feed(data) == expected


@pytest.mark.parametrize(("data", "expected"), REPORTS, ids=[repr(d) for d, _ in REPORTS])
def test_reports_split_anywhere_decode_the_same(data: bytes, expected: list[Key]) -> None:
    for cut in range(1, len(data)):
        decoder = KeyDecoder()
        assert decoder.feed(data[:cut]) + decoder.feed(data[cut:]) == expected


def test_keys_around_a_report_are_kept() -> None:
    assert KeyDecoder().feed(b"a\x1b[<0;2;3Mb\r") == [
        Key.printable("a"),
        click(1, 2),
        Key.printable("b"),
        Key.ENTER,
    ]


def test_an_overlong_report_is_bounded_and_dropped() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b[<" + b"1" * 500) == []
    assert len(decoder.pending) <= MAX_SEQUENCE_LENGTH
    assert decoder.feed(b";1;1Mq") == [Key.printable("q")]


def test_a_mouse_key_is_no_other_key() -> None:
    key = click(3, 4)
    assert key.name is KeyName.MOUSE
    assert not key.is_printable and key.char == ""
    assert key not in (Key.ENTER, Key.ESCAPE, Key.DELETE)
    with pytest.raises(ValueError):
        Key(KeyName.MOUSE)
    with pytest.raises(ValueError):
        Key(KeyName.ENTER, mouse=Mouse(MouseButton.LEFT, 0, 0))


@pytest.mark.parametrize(
    ("term_type", "asked"),
    [
        ("xterm", True),
        ("XTERM-256COLOR", True),
        ("putty", True),
        ("screen.xterm-256color", True),
        ("tmux-256color", True),
        ("syncterm", True),
        ("ansi", False),
        ("ansi-bbs", False),
        ("vt100", False),
        ("dumb", False),
        ("linux", False),
        ("", False),
        (None, False),
    ],
)
def test_which_terminals_are_asked_for_reports(term_type: str | None, asked: bool) -> None:
    assert reports_mouse(term_type) is asked


@run_async
async def test_clicks_reach_screens_only_once_asked_for() -> None:
    terminal = FakeTerminal()
    terminal.push_bytes(b"\x1b[<0;5;5M\x1b[<0;5;5mx")
    assert await terminal.read_key() == Key.printable("x")  # not asked: the report dropped

    terminal.mouse_reporting = True
    await terminal.flush()
    assert terminal.output.endswith(ASK_FOR_REPORTS.encode())
    terminal.push_bytes(b"\x1b[<0;5;5M\x1b[<0;5;5my")
    assert await terminal.read_key() == click(4, 4)
    assert await terminal.read_key() == Key.printable("y")  # the release never queued


@run_async
async def test_closing_the_door_stops_the_reports() -> None:
    terminal = FakeTerminal()
    terminal.mouse_reporting = True
    terminal.write_last("Goodbye.\r\n")
    await terminal.flush()
    assert terminal.output.endswith(b"Goodbye.\r\n" + STOP_REPORTS.encode())
    assert not terminal.mouse_reporting


@run_async
async def test_a_closed_terminal_was_told_to_stop_reports() -> None:
    terminal = FakeTerminal()
    terminal.mouse_reporting = True
    await terminal.flush()
    terminal.close()
    assert terminal.output.endswith(STOP_REPORTS.encode())


@run_async
async def test_a_flood_of_clicks_is_bounded_like_keys() -> None:
    terminal = FakeTerminal()
    terminal.mouse_reporting = True
    terminal.push_bytes(b"\x1b[<0;5;5M" * 5000)
    await terminal.settle()
    queued = 0
    while await terminal.take_key() is not None:
        queued += 1
    assert 0 < queued <= 256


@pytest.mark.parametrize(
    ("term_type", "lines", "door_mode", "asked"),
    [
        ("xterm-256color", False, False, True),
        ("XTERM-256COLOR", False, False, True),  # netkit telnet's spelling
        ("xterm", True, False, False),  # a caller who chose lines
        ("syncterm", False, True, False),  # door mode: the BBS owns the terminal
        ("ansi-bbs", False, False, False),
        (None, False, False, False),
    ],
)
def test_who_is_asked_on_arrival(
    term_type: str | None, lines: bool, door_mode: bool, asked: bool
) -> None:
    assert offers_mouse(term_type, lines=lines, door_mode=door_mode) is asked


@run_async
async def test_the_idle_guard_passes_the_asking_through() -> None:
    terminal = FakeTerminal()
    guard = IdleGuardTerminal(terminal, warn_after=60, hang_up_after=120)
    guard.mouse_reporting = True
    assert terminal.mouse_reporting and guard.mouse_reporting
    guard.close()
    assert terminal.output.endswith(STOP_REPORTS.encode())
