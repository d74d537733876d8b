"""``cribbage-door door DROPFILE``: one BBS caller's session, run as a door, then exit.

The BBS writes a drop file (door/transports/dropfile.py) and starts the door for the caller:

- comm type 2 (telnet): the caller's telnet socket is handed over as an inherited file
  descriptor (Synchronet's ``%H``, Mystic, ENiGMA½'s socket mode). The door speaks telnet
  on it (telnetlib3: window size and terminal type are negotiated, never read as keys)
  and on leaving closes only its own descriptor: the BBS keeps the connection.
- comm type 0 (local), or ``--stdio``: keys on standard input, the screen on standard
  output (Synchronet's stdio doors, Mystic on Linux, ENiGMA½ through a pty, the sysop's
  local test); raw mode when standard input is a terminal.

The caller comes in under their BBS alias, with no password. With ``[hub] address`` naming
a running ``cribbage-door serve`` (door/transports/hub_relay.py), the door bridges the caller
into it over RLogin, so callers of every node and the hub's own callers share one lobby; without
one (or while it cannot be reached) the caller plays the computer here. The screen follows the drop
file's emulation: ASCII gets plain text without colour; ANSI (and the richer ones) gets
CP437 bytes, or UTF-8 with ``--utf8``. The time the BBS allows is enforced: a warning at
5 minutes and at 1 minute (at once, on arriving with less than 5), then the caller is told
and the door exits. A dropped line,
SIGHUP or SIGTERM ends the session the same way (a member's game against the computer is
saved after every move, so nothing is lost). The log goes to ``door.log`` in the data
folder, never to the caller's screen.

Exit codes: 0 the caller left, their time ran out or the line dropped; 1 an unexpected
failure (see the log); 2 a bad configuration; 3 a bad or missing drop file; 4 a comm
handle that cannot be used (not an open socket, or a serial port).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import logging
import os
import signal
import stat
import sys
import termios
import tty
from pathlib import Path
from typing import Any, Final, NamedTuple

from door.config import Config, ConfigError
from door.data_lock import DataFolderBusy, door_at_work
from door.logtext import escape_log_lines, escaped
from door.paths import DataDirError, ensure_writable_dir
from door.term.ansi import ColorMode
from door.term.charset import Charset
from door.term.display import PLAIN_DISPLAYS, Display
from door.term.terminal import StreamTerminal
from door.transports.bbs_line import (
    TIME_UP,
    ConnectionError_,
    closing_message,
    inherited_telnet,
    keep_time,
)
from door.transports.dropfile import CommType, DropFile, DropFileError, Emulation, read_drop_file

logger = logging.getLogger("door")

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_CONFIG: Final = 2
EXIT_DROP_FILE: Final = 3
EXIT_CONNECTION: Final = 4

DOOR_LOG: Final = "door.log"
SESSION_END_WAIT_SECONDS: Final = 5.0
ARRIVAL_WAIT_SECONDS: Final = 30.0
"""How long a time warning waits for the caller to be in the door (log-in, the welcome);
past it, the warning is dropped rather than held."""
HUNG_UP: Final = "The BBS is closing this door. Goodbye!"


def add_door_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("drop_file", metavar="DROPFILE", help="DOOR32.SYS or DOOR.SYS, or a folder")
    parser.add_argument(
        "--stdio", action="store_true", help="keys on stdin, screen on stdout (any comm type)"
    )
    parser.add_argument("--utf8", action="store_true", help="UTF-8 screens instead of CP437")
    parser.add_argument(
        "--system",
        metavar="NAME",
        help="the BBS's name, under which its callers' records are kept "
        "(default: DOOR32.SYS's BBS name, or 'BBS')",
    )
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--data-dir", metavar="DIR", help="where data and the log live")


class Screen(NamedTuple):
    charset: Charset
    color_mode: ColorMode
    display_mode: Display


def screen_for(emulation: Emulation, utf8: bool, *, screen_reader: bool = False) -> Screen:
    """What the drop file's emulation makes of the screen: ASCII is a terminal that
    shows lines of plain text, with no escape sequence at all. ``screen_reader`` (the
    sysop's ``[game] screen_reader``): every caller is sent sentences for a screen
    reader, in the charset their emulation reads."""
    if not emulation.has_ansi:
        lines = Display.SPEECH if screen_reader else Display.LINES
        return Screen(Charset.ASCII, ColorMode.NONE, lines)
    charset = Charset.UTF8 if utf8 else Charset.CP437
    if screen_reader:
        return Screen(charset, ColorMode.NONE, Display.SPEECH)
    return Screen(charset, ColorMode.ANSI, Display.SCREEN)


def door_command(args: argparse.Namespace) -> int:
    from door.serve import config_from_args, quiet_library_loggers

    try:
        config = config_from_args(args)
        log_path = ensure_writable_dir(config.server.data_path) / DOOR_LOG
    except (ConfigError, DataDirError) as error:
        print(f"cribbage-door door: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
        filename=str(log_path),
    )
    escape_log_lines()
    quiet_library_loggers()
    try:
        drop = read_drop_file(Path(args.drop_file))
    except DropFileError as error:
        logger.error("door: %s", error)
        print(f"cribbage-door door: {error}", file=sys.stderr)
        return EXIT_DROP_FILE
    stdio = args.stdio or drop.comm_type is CommType.LOCAL
    try:
        if not stdio:
            _check_socket_handle(drop)
    except ConnectionError_ as error:
        logger.error("door: %s", error)
        print(f"cribbage-door door: {error}", file=sys.stderr)
        return EXIT_CONNECTION
    logger.info(
        "door: %r (user %d of %r, node %d), %d minutes, %s, %s",
        drop.caller_name,
        drop.user_number,
        drop.bbs_name,
        drop.node,
        drop.minutes_left,
        drop.emulation.name,
        "stdio" if stdio else f"telnet socket {drop.handle}",
    )
    raw = _RawStdin() if stdio else None
    try:
        with door_at_work(config.server.data_path), raw or contextlib.nullcontext():
            asyncio.run(run_door(config, drop, stdio=stdio, utf8=args.utf8, system=args.system))
    except (ConfigError, DataFolderBusy) as error:
        print(f"cribbage-door door: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except ConnectionError_ as error:
        logger.error("door: %s", error)
        print(f"cribbage-door door: {error}", file=sys.stderr)
        return EXIT_CONNECTION
    except Exception:
        logger.exception("door: failed")
        print(f"cribbage-door door: failed; see {log_path}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _check_socket_handle(drop: DropFile) -> None:
    if drop.comm_type is CommType.SERIAL:
        raise ConnectionError_(
            f"comm type 1 (serial port {drop.handle}) is not supported: run the door with --stdio"
        )
    try:
        mode = os.fstat(drop.handle).st_mode
    except OverflowError:  # the drop file's numbers are bounded; this is a second guard
        raise ConnectionError_(f"comm handle {drop.handle} is no file descriptor") from None
    except OSError as error:
        raise ConnectionError_(
            f"comm handle {drop.handle} is not an open file descriptor ({error.strerror})"
        ) from None
    if not stat.S_ISSOCK(mode):
        raise ConnectionError_(f"comm handle {drop.handle} is not a socket")


class _RawStdin:
    """Standard input in raw mode while the door runs, when it is a terminal."""

    def __enter__(self) -> _RawStdin:
        self.fd = sys.stdin.fileno()
        self.saved: list[Any] | None = None
        if os.isatty(self.fd):
            self.saved = termios.tcgetattr(self.fd)
            tty.setraw(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.saved is not None:
            # A terminal hung up (the BBS closed the pty, the window was closed) takes no
            # settings back (EIO), and nobody is left to see them: the caller has left.
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


async def run_door(
    config: Config, drop: DropFile, *, stdio: bool, utf8: bool, system: str | None = None
) -> None:
    """The caller's session, bounded by their time left, a hang-up and SIGHUP, SIGTERM or
    SIGINT (each tells the caller and saves their game)."""
    from door.app.call import Caller
    from door.app.door import Door
    from door.app.records import Records
    from door.serve import prepare_computer_player

    if config.hub.address:
        from door.transports.hub_relay import HubUnavailable, relay_to_hub

        try:
            await relay_to_hub(config.hub.address, drop, stdio=stdio, utf8=utf8, system=system)
            return
        except HubUnavailable as error:
            logger.warning("door: %s; the caller plays here, alone with the computer", error)
    records = await Records.open(config)
    prepare_computer_player()
    door = Door(config, records=records)
    try:
        terminal = await (
            _stdio_terminal() if stdio else _telnet_terminal(drop.handle, door.terminal_limits())
        )
        screen = screen_for(drop.emulation, utf8, screen_reader=config.door_mode_screen_reader)
        terminal.charset = screen.charset
        terminal.color_mode = screen.color_mode
        terminal.display_mode = screen.display_mode
        system = system or drop.bbs_name or "BBS"
        account = await _bbs_account(records, system, drop)
        caller = Caller(
            name=None if account is not None else drop.caller_name,
            account=account,
            transport="door",
            peer=f"{system} node {drop.node}",
        )
        session = asyncio.create_task(door.serve_caller(terminal, caller))
        ended = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, ended.set)
        clock = asyncio.create_task(
            keep_time(
                drop.minutes_left * 60.0,
                functools.partial(_warn, door, account.handle if account else drop.caller_name),
            )
        )
        stopper = asyncio.create_task(ended.wait())
        done, _ = await asyncio.wait({session, clock, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if session not in done:
            message = closing_message(
                TIME_UP if clock in done else HUNG_UP, lines=screen.display_mode in PLAIN_DISPLAYS
            )
            logger.info("door: %s", "time is up" if clock in done else "told to stop")
            terminal.write(message)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(terminal.flush(), 2.0)
            terminal.close()
            await asyncio.wait({session}, timeout=SESSION_END_WAIT_SECONDS)
        for task in (clock, stopper, session):
            task.cancel()
        await asyncio.gather(clock, stopper, session, return_exceptions=True)
    finally:
        await records.close()


async def _bbs_account(records: Any, system: str, drop: DropFile) -> Any:
    """The caller's account here, keyed by (BBS, user number); None (a guest) when the
    database cannot be used."""
    from door.storage.errors import StoreError

    if records.store is None:
        return None
    try:
        user_id = f"#{drop.user_number}"
        return await records.store.bbs_account(system, user_id, drop.caller_name)
    except StoreError as error:
        logger.warning("door: no account for %r: %s; they play as a guest", drop.caller_name, error)
        return None


async def _warn(door: Any, name: str | None, text: str) -> None:
    """Tell the caller, waiting (a little) for them to arrive: the clock starts with the
    session, before the caller is in the door's presence, and a warning given then was
    lost."""
    if not name:
        return
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + ARRIVAL_WAIT_SECONDS
    while (member := door.presence.find(name)) is None:
        if loop.time() >= give_up_at:
            logger.info("door: %s not told %r: not in the door", escaped(name), text)
            return
        await asyncio.sleep(0.05)
    member.tell(text)
    if member.table is not None:
        member.table.announce(f"*** {text}")


# --- the two ways the caller's line arrives ------------------------------------------


async def _stdio_terminal() -> StreamTerminal:
    from door.transports.console import console_terminal

    return console_terminal(sys.stdin.fileno(), sys.stdout.fileno())


async def _telnet_terminal(handle: int, limits: dict[str, Any]) -> StreamTerminal:
    from door.transports.telnet import terminal_for

    streams = await inherited_telnet(handle)
    return terminal_for(streams.reader, streams.writer, **limits)
