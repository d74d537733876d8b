"""``cribbage-door console``: the door with the sysop at the local keyboard.

The console *is* the server: it opens the configured telnet and SSH listeners in this
process and runs the sysop's session on the terminal it was started from, a
``StreamTerminal`` over stdin and stdout in raw mode. That is how BBS software has always
given the sysop a local console, and it needs no extra socket, protocol or password: whoever
can start the door on this machine is the sysop. (A console that attaches to a server
already running would need a local socket and its own permission check; it is not here.)

When the sysop leaves the lobby the door stays open: the console asks whether to go back
in or to close the door, which tells every caller and stops the server. SIGTERM, SIGINT
and SIGHUP close it the same way, without asking.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import termios
import tty
from pathlib import Path
from typing import Any

from door.app.call import Caller
from door.app.door import Door
from door.config import Config, ConfigError
from door.logtext import escape_log_lines
from door.paths import DataDirError, ensure_writable_dir
from door.serve import config_from_args, quiet_library_loggers, run_server
from door.term.ansi import RESET, SHOW_CURSOR
from door.term.terminal import StreamTerminal
from door.term.window import DEFAULT_SIZE
from door.transports.local_tty import TtySink, TtySource

logger = logging.getLogger(__name__)

CONSOLE_LOG = "door-console.log"
"""The console's log, in the data folder: the terminal is the sysop's screen."""

AGAIN_PROMPT = (
    "\r\n\x1b[0mThe door is still open.\r\n"
    "RETURN: back to the lobby   Q: close the door (tells every caller, stops the server)\r\n"
)


def console_terminal(in_fd: int, out_fd: int) -> StreamTerminal:
    """The local terminal as a door terminal, sized and typed as the shell knows it."""
    try:
        size = os.get_terminal_size(out_fd)
        cols, rows = size.columns, size.lines
    except OSError:
        cols, rows = DEFAULT_SIZE
    source = TtySource(in_fd)
    terminal = StreamTerminal(
        source, TtySink(out_fd, source), term_type=os.environ.get("TERM"), size=(cols, rows)
    )
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGWINCH, lambda: _resized(terminal, out_fd)
        )
    terminal.start()
    return terminal


def _resized(terminal: StreamTerminal, out_fd: int) -> None:
    with contextlib.suppress(OSError):
        size = os.get_terminal_size(out_fd)
        terminal.resize(size.columns, size.lines)


async def run_console(config: Config, in_fd: int, out_fd: int) -> None:
    """Serve callers, with the sysop's session on the local terminal, until the sysop
    closes the door."""
    stop = asyncio.Event()
    opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_door=opened.set_result))
    started: set[asyncio.Future[Any]] = {server, opened}
    done, _ = await asyncio.wait(started, return_when=asyncio.FIRST_COMPLETED)
    if server in done:
        server.result()  # a listener could not open: raise its ConfigError
        return
    door = opened.result()
    sysop = Caller(name=config.sysop.name, transport="console", peer="local", sysop=True)
    # The sysop's terminal hanging up (its window closed, the SSH session it ran in
    # dropped) closes the door as SIGTERM does, saving the games, rather than killing it.
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGHUP, stop.set)
    try:
        while not stop.is_set():
            terminal = console_terminal(in_fd, out_fd)
            await door.serve_caller(terminal, sysop, idle_guard=False)
            # A signal (SIGTERM from a service manager) sets ``stop`` and the door's
            # shut-down then ends the sysop's session too: nobody is there to ask.
            if stop.is_set() or not await _again(in_fd, out_fd, stop):
                break
    finally:
        stop.set()
        await server
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGHUP)


async def _again(in_fd: int, out_fd: int, stop: asyncio.Event) -> bool:
    """Ask on the raw terminal whether the sysop goes back in; False closes the door, as
    does ``stop`` being set (a signal) while the question waits."""
    try:
        os.write(out_fd, AGAIN_PROMPT.encode())
    except OSError:
        return False  # the sysop's terminal is gone (its window closed): nobody to ask
    terminal = console_terminal(in_fd, out_fd)
    answer = asyncio.create_task(_answer(terminal))
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({answer, stopped}, return_when=asyncio.FIRST_COMPLETED)
        return answer.done() and not stopped.done() and answer.result()
    finally:
        for task in (answer, stopped):
            task.cancel()
        await asyncio.gather(answer, stopped, return_exceptions=True)
        terminal.close()


async def _answer(terminal: StreamTerminal) -> bool:
    """RETURN or space: back in (True); Q, or the terminal gone: close the door."""
    try:
        while True:
            key = await terminal.read_key()
            if key.char in ("q", "Q"):
                return False
            if key.char in ("\r", " ") or key.name.value == "enter":
                return True
    except Exception:
        return False


def console_command(args: argparse.Namespace) -> int:
    """Run the door with the sysop on this terminal; the terminal is raw until it ends."""
    try:
        config = config_from_args(args)
        log_file = Path(args.log_file) if getattr(args, "log_file", None) else None
        if log_file is None:
            log_file = ensure_writable_dir(config.server.data_path) / CONSOLE_LOG
    except (ConfigError, DataDirError) as error:
        print(f"cribbage-door: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
        filename=str(log_file),
    )
    escape_log_lines()
    quiet_library_loggers()
    print(f"cribbage-door: the log goes to {log_file}", file=sys.stderr)
    in_fd, out_fd = sys.stdin.fileno(), sys.stdout.fileno()
    if not os.isatty(in_fd):
        print("cribbage-door: the console needs a terminal on standard input", file=sys.stderr)
        return 2
    saved = termios.tcgetattr(in_fd)
    try:
        tty.setraw(in_fd)
        asyncio.run(run_console(config, in_fd, out_fd))
    except ConfigError as error:
        termios.tcsetattr(in_fd, termios.TCSADRAIN, saved)
        print(f"\r\ncribbage-door: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        # A terminal that went away (its window closed) has no settings to put back.
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(in_fd, termios.TCSADRAIN, saved)
    # The reset belongs to the screen, on the console's terminal; the message to standard
    # error, which a sysop may send to a file (`2>err.log`) that should hold no escapes.
    with contextlib.suppress(OSError):
        os.write(out_fd, f"{RESET}{SHOW_CURSOR}\r\n".encode())
    with contextlib.suppress(OSError):
        print("cribbage-door: the door is closed.", file=sys.stderr)
    return 0
