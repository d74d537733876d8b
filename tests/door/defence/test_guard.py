"""Before log-in: per-address limits, the telnet subnegotiation cap, the login timeout
and the places kept for members; and caller text escaped for the log."""

from __future__ import annotations

import asyncio
import doctest
import logging
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import door.defence.guard
import door.logtext
import door.transports.subneg
from door.app.call import Caller
from door.app.door import Door
from door.defence.guard import (
    AT_ONCE_MESSAGE,
    PER_MINUTE_MESSAGE,
    AddressGuard,
    peer_text,
    system_peer,
)
from door.logtext import escaped
from door.serve import Listening, run_server
from door.transports.subneg import IAC, SB, SE, SubnegotiationLimit
from tests.door.netclients import TelnetCaller, server_config
from tests.door.waiting import until


@pytest.mark.parametrize("module", [door.defence.guard, door.transports.subneg, door.logtext])
def test_module_examples_run(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_the_per_minute_limit_forgets_connections_a_minute_old() -> None:
    now = [0.0]
    guard = AddressGuard(max_at_once=10, per_minute=3, clock=lambda: now[0])
    for _ in range(3):
        assert guard.admit("a") is None
        guard.release("a")
    assert guard.admit("a") == PER_MINUTE_MESSAGE
    now[0] = 60.5
    assert guard.admit("a") is None
    assert guard.open_from("a") == 1


def test_a_refused_connection_is_not_counted_as_open() -> None:
    guard = AddressGuard(max_at_once=1, per_minute=100)
    assert guard.admit("a") is None
    assert guard.admit("a") == AT_ONCE_MESSAGE
    assert guard.open_from("a") == 1
    guard.release("a")
    assert guard.open_from("a") == 0


SB_START = bytes([IAC, SB, 24])
SB_END = bytes([IAC, SE])


@pytest.mark.parametrize(
    ("chunks", "within"),
    [
        # The option byte (24, terminal type) counts: 1 + 99 is the most allowed.
        ([SB_START + b"x" * 99 + SB_END], True),
        ([SB_START + b"x" * 100 + SB_END], False),
        ([SB_START, b"x" * 60, b"x" * 60], False),  # split over reads still counts
        ([SB_START + b"x" * 90 + SB_END, SB_START + b"x" * 90 + SB_END], True),  # each its own
        ([b"plain text " * 100], True),  # outside a subnegotiation nothing is counted
        ([SB_START + bytes([IAC, IAC]) * 40 + SB_END], True),  # escaped 255s count once each
        ([SB_START + b"x" * 98, bytes([IAC]), bytes([SE]), b"y" * 500], True),  # IAC SE split
    ],
)
def test_subnegotiation_length_is_capped(chunks: list[bytes], within: bool) -> None:
    limit = SubnegotiationLimit(100)
    results = [limit.feed(chunk) for chunk in chunks]
    assert all(results) is within


@pytest.mark.parametrize(
    ("text", "logged"),
    [
        ("xterm", "xterm"),
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
        ("a\r\nERROR forged", "a\\r\\nERROR forged"),
        ("\u202eevil", "\\u202eevil"),
    ],
)
def test_caller_text_is_escaped_for_the_log(text: str, logged: str) -> None:
    assert escaped(text) == logged


async def _serve(
    config_dir: Path, on_door: Callable[[Door], None] | None = None, **server: object
) -> tuple[asyncio.Event, asyncio.Task, Listening]:
    config = server_config(config_dir, ssh_port=0, **server)
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        run_server(config, stop=stop, on_ready=ready.set_result, on_door=on_door)
    )
    return stop, task, await asyncio.wait_for(ready, 20)


def test_an_address_over_its_limit_is_told_and_closed(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, bool, str]:
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        stop, server, listening = await _serve(
            tmp_path, opened.set_result, max_connections_per_address=2
        )
        door = await opened
        assert listening.telnet
        first, second, third = TelnetCaller(), TelnetCaller(), TelnetCaller()
        await first.connect(listening.telnet[1])
        await second.connect(listening.telnet[1])
        await first.wait_for("G guest")
        await third.connect(listening.telnet[1])
        await third.wait_for_close()
        refused = third.text
        second.hang_up()
        await until(lambda: door.guard.open_from("127.0.0.1") == 1, what="the second's place freed")
        fourth = TelnetCaller()
        await fourth.connect(listening.telnet[1])
        await fourth.wait_for("G guest")
        stop.set()
        await asyncio.wait_for(server, 10)
        return refused, third.closed, fourth.text

    refused, closed, later = asyncio.run(scenario())
    assert AT_ONCE_MESSAGE in refused and closed
    assert "G guest" in later  # a place freed is a place again


def test_a_caller_who_never_logs_in_is_closed_at_the_login_timeout(tmp_path: Path) -> None:
    async def scenario() -> tuple[float, str]:
        stop, server, listening = await _serve(tmp_path, login_timeout_seconds=5)
        assert listening.telnet
        silent = TelnetCaller()
        started = asyncio.get_running_loop().time()
        await silent.connect(listening.telnet[1])
        await silent.wait_for("G guest")
        await silent.wait_for_close(timeout=10)
        took = asyncio.get_running_loop().time() - started
        stop.set()
        await asyncio.wait_for(server, 10)
        return took, silent.text

    took, text = asyncio.run(scenario())
    assert 4.5 <= took <= 6.5
    assert "took too long" in text


def test_a_full_door_keeps_its_last_places_for_members(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, str]:
        stop, server, listening = await _serve(
            tmp_path, max_sessions=2, reserved_sessions=1, login_timeout_seconds=30
        )
        assert listening.telnet
        guest = TelnetCaller()
        await guest.connect(listening.telnet[1])
        await guest.come_as_guest("Grace")
        await guest.wait_for("Play the computer")
        late = TelnetCaller()
        await late.connect(listening.telnet[1])
        await late.wait_for("Password:")  # only logging in is offered
        first_screen = late.text
        await late.send("\x1b")  # would rather not log in
        await late.wait_for("kept for members")
        stop.set()
        await asyncio.wait_for(server, 10)
        return first_screen, late.text

    first_screen, told = asyncio.run(scenario())
    assert "G guest" not in first_screen
    assert "the last places are kept for members" in " ".join(told.split())


def test_an_address_hammering_the_door_is_one_log_line_a_minute(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Refused connections are told why, each of them, but logged once per address and
    minute: a flood of connections must not be a flood of log lines (#52)."""

    async def scenario() -> list[str]:
        stop, server, listening = await _serve(tmp_path, max_connections_per_address=1)
        assert listening.telnet
        holder = TelnetCaller()
        await holder.connect(listening.telnet[1])
        await holder.wait_for("G guest")
        told = []
        for _ in range(20):
            refused = TelnetCaller()
            await refused.connect(listening.telnet[1])
            await refused.wait_for_close()
            told.append(refused.text)
        stop.set()
        await asyncio.wait_for(server, 10)
        return told

    with caplog.at_level(logging.INFO):
        told = asyncio.run(scenario())
    assert all(AT_ONCE_MESSAGE in text for text in told)
    refusals = [r.getMessage() for r in caplog.records if "connection refused" in r.getMessage()]
    assert refusals == [f"127.0.0.1: telnet connection refused: {AT_ONCE_MESSAGE}"]


@pytest.mark.parametrize(
    ("peername", "logged", "address"),
    [
        (("203.0.113.7", 4711), "203.0.113.7:4711", "203.0.113.7"),
        # Logged "2001:db8::1:0": the port read as the address's last group.
        (("2001:db8::1", 0, 0, 0), "[2001:db8::1]:0", "2001:db8::1"),
        (("fe80::1%eth0", 23, 0, 2), "[fe80::1%eth0]:23", "fe80::1%eth0"),
        (("::ffff:192.0.2.9", 5000, 0, 0), "[::ffff:192.0.2.9]:5000", "::ffff:192.0.2.9"),
        (None, "", ""),
    ],
)
def test_a_peer_is_written_address_and_port_an_ipv6_address_in_brackets(
    peername: object, logged: str, address: str
) -> None:
    assert peer_text(peername) == logged
    assert Caller(None, "telnet", logged).address == address  # what bans and throttles key on


def test_a_peer_written_before_the_brackets_keeps_its_address() -> None:
    # A worker of the version before relays "2001:db8::1:4711" in its hello.
    assert Caller(None, "telnet", "2001:db8::1:4711").address == "2001:db8::1"


@pytest.mark.parametrize(
    ("peername", "logged", "address"),
    [
        (("192.0.2.7", 40123), "NODES (192.0.2.7)", "192.0.2.7"),
        # The address was "NODES (2001:db8:" (cut at its last colon), and "NODES
        # (192.0.2.7)" for IPv4: no ban or log-in throttle could ever match either.
        (("2001:db8::7", 40123, 0, 0), "NODES (2001:db8::7)", "2001:db8::7"),
    ],
)
def test_a_linked_bbss_caller_has_the_bbss_address(
    peername: object, logged: str, address: str
) -> None:
    assert system_peer("NODES", peername) == logged  # as the log has always written it
    assert Caller(None, "rlogin", logged).address == address


def test_an_ipv6_caller_is_logged_with_their_address_in_brackets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        stop, server, listening = await _serve(tmp_path, host="::1")
        assert listening.telnet
        caller = TelnetCaller()
        await caller.connect(listening.telnet[1], host="::1")
        await caller.wait_for("G guest")
        caller.hang_up()
        await until(lambda: any("disconnected" in r.getMessage() for r in caplog.records))
        stop.set()
        await asyncio.wait_for(server, 10)

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
    [line] = [r.getMessage() for r in caplog.records if "disconnected" in r.getMessage()]
    assert re.fullmatch(r"telnet caller from \[::1\]:\d+ disconnected", line), line
