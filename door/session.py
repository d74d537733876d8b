"""One caller's way through the door: welcome, name, the lobby, games, goodbye.

A caller whose line dropped in the middle of a game with other people, and who calls
back under the same name, goes straight back to their seat.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from door.ansi import CLEAR_SCREEN, HIDE_CURSOR, SHOW_CURSOR, Color, Palette, at
from door.canvas import Canvas, Renderer
from door.config import Config
from door.keys import Key
from door.line_input import Cancelled, read_line
from door.lobby import Lobby, MenuChoices
from door.presence import IN_THE_LOBBY, MAX_NAME_LENGTH, Member, NameInUse, Presence, clean_name
from door.screens.frame import draw_status
from door.screens.help import HelpOverlay, default_help, draw_help
from door.terminal import Disconnected, Terminal
from door.texts import load_text

logger = logging.getLogger(__name__)

__all__ = ["Caller", "MenuChoices", "clean_name", "run_session"]


@dataclass(frozen=True)
class Caller:
    """Who is on the line: a name already known (SSH user), how they came, from where,
    and whether they proved to be the sysop (SSH key or password, or the local console)."""

    name: str | None
    transport: str
    peer: str = ""
    sysop: bool = False


async def run_session(
    terminal: Terminal,
    config: Config,
    caller: Caller,
    rng: random.Random | None = None,
    presence: Presence | None = None,
) -> None:
    """Serve one caller until they quit or the line drops; always closes the terminal.

    ``presence`` is the door's registry of who is online (a session alone gets its own)."""
    rng = rng or random.Random()
    presence = presence or Presence(config.sysop.name)
    member: Member | None = None
    try:
        terminal.write(HIDE_CURSOR)
        member = await sign_in(terminal, config, caller, presence)
        logger.info("%s caller %r from %s", caller.transport, member.name, caller.peer)
        choices = MenuChoices(config.game.runs, config.game.counting, config.game.level)
        lobby = Lobby(presence, member, config, choices, rng, lambda: show_help(terminal))
        await rejoin_game(presence, member, lobby)
        await lobby.run()
        terminal.write(
            f"{SHOW_CURSOR}{CLEAR_SCREEN}Thanks for playing, {member.name}. Goodbye!\r\n"
        )
        await terminal.flush()
    except Disconnected:
        logger.info("%s caller from %s disconnected", caller.transport, caller.peer)
    finally:
        if member is not None:
            presence.leave(member)
        terminal.close()


async def sign_in(terminal: Terminal, config: Config, caller: Caller, presence: Presence) -> Member:
    """Put the caller online under their name, asking for one (again) until it is free."""
    name = clean_name(caller.name or "")
    if caller.sysop:
        name = config.sysop.name
    message = ""
    while True:
        if name:
            try:
                return presence.join(name, terminal, sysop=caller.sysop)
            except NameInUse as taken:
                message = f"Sorry, {taken}. Please choose another name."
        name = await ask_name(terminal, config, message)


async def rejoin_game(presence: Presence, member: Member, lobby: Lobby) -> None:
    """Back to the seat a game kept for this caller when their line dropped."""
    table = presence.table_waiting_for(member.name)
    if table is None:
        return
    person = table.rejoin(member.name, member.terminal)
    if person is None:
        return
    presence.notice(f"{member.name} is back at {table.title}.")
    member.seat = person
    await lobby.go_where_called()
    presence.set_place(member, IN_THE_LOBBY)


def draw_welcome(terminal: Terminal, config: Config) -> None:
    palette = Palette(terminal.color_mode)
    terminal.write(CLEAR_SCREEN)
    art = load_text("art/welcome.txt", "   CRIBBAGE DOOR\n")
    for row, line in enumerate(art.splitlines()[:8], start=2):
        terminal.write(at(row, 1) + palette.paint(line[:79], fg=Color.CYAN, bold=True))
    terminal.write(at(7, 4) + palette.paint(f"Welcome to {config.door.bbs_name}!", bold=True))


async def ask_name(terminal: Terminal, config: Config, message: str = "") -> str:
    palette = Palette(terminal.color_mode)
    while True:
        draw_welcome(terminal, config)
        terminal.write(at(9, 4) + "The caller enters their name as player 1.")
        if message:
            terminal.write(at(13, 4) + palette.paint(message[:76], fg=Color.RED, bold=True))
        terminal.write(at(11, 4) + "Your name: " + SHOW_CURSOR)
        try:
            name = clean_name(await read_line(terminal, MAX_NAME_LENGTH))
        except Cancelled:
            name = ""
        terminal.write(HIDE_CURSOR)
        if name:
            return name
        message = "Please type a name (letters, digits, spaces), then press RETURN."


async def show_help(terminal: Terminal) -> None:
    """The same help pages as in a game, over a blank screen."""
    overlay = HelpOverlay.from_text(default_help())
    renderer = Renderer(terminal)
    try:
        while True:
            canvas = Canvas()
            draw_help(canvas, overlay)
            more = "PgDn/RETURN next page  PgUp back  " if not overlay.last_page else "PgUp back  "
            draw_status(canvas, more + "any other key: back to the menu")
            renderer.render(canvas)
            await terminal.flush()
            key = await terminal.read_key()
            if key == Key.CTRL_L:
                renderer.invalidate()
            elif key in (Key.PGDN, Key.DOWN, Key.RIGHT, Key.ENTER, Key.printable(" ")):
                if overlay.last_page and key in (Key.ENTER, Key.printable(" ")):
                    return
                overlay = overlay.turned(1)
            elif key in (Key.PGUP, Key.UP, Key.LEFT):
                overlay = overlay.turned(-1)
            else:
                return
    finally:
        renderer.close()
