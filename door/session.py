"""One caller's way through the door: welcome, name, menu, games, goodbye."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field

from door.ansi import CLEAR_SCREEN, HIDE_CURSOR, SHOW_CURSOR, Color, Palette, at, sanitize
from door.canvas import Canvas, Renderer
from door.charset import Charset
from door.config import Config
from door.keys import Key
from door.line_input import Cancelled, read_line
from door.screens.frame import draw_status
from door.screens.help import HelpOverlay, default_help, draw_help
from door.terminal import Disconnected, Terminal
from door.texts import load_text

logger = logging.getLogger(__name__)

MAX_NAME_LENGTH = 20
LEVELS = ("easy", "normal", "expert")
CHARSET_NAMES = {Charset.UTF8: "UTF-8", Charset.CP437: "CP437 (BBS)", Charset.ASCII: "plain ASCII"}
CHARSET_CYCLE = (Charset.UTF8, Charset.CP437, Charset.ASCII)


@dataclass(frozen=True)
class Caller:
    """Who is on the line: a name already known (SSH user), how they came, from where."""

    name: str | None
    transport: str
    peer: str = ""


@dataclass
class MenuChoices:
    runs: str = "free"
    counting: str = "auto"
    level: str = "normal"
    games_won: int = 0
    games_lost: int = 0
    notes: list[str] = field(default_factory=list)


def clean_name(text: str) -> str:
    return " ".join(sanitize(text, MAX_NAME_LENGTH).split())


async def run_session(
    terminal: Terminal, config: Config, caller: Caller, rng: random.Random | None = None
) -> None:
    """Serve one caller until they quit or the line drops; always closes the terminal."""
    rng = rng or random.Random()
    try:
        terminal.write(HIDE_CURSOR)
        name = clean_name(caller.name or "") or await ask_name(terminal, config)
        logger.info("%s caller %r from %s", caller.transport, name, caller.peer)
        choices = MenuChoices(config.game.runs, config.game.counting, config.game.level)
        await main_menu(terminal, config, name, choices, rng)
        terminal.write(f"{SHOW_CURSOR}{CLEAR_SCREEN}Thanks for playing, {name}. Goodbye!\r\n")
        await terminal.flush()
    except Disconnected:
        logger.info("%s caller from %s disconnected", caller.transport, caller.peer)
    finally:
        terminal.close()


def draw_welcome(terminal: Terminal, config: Config) -> None:
    palette = Palette(terminal.color_mode)
    terminal.write(CLEAR_SCREEN)
    art = load_text("art/welcome.txt", "   CRIBBAGE DOOR\n")
    for row, line in enumerate(art.splitlines()[:8], start=2):
        terminal.write(at(row, 1) + palette.paint(line[:79], fg=Color.CYAN, bold=True))
    terminal.write(at(7, 4) + palette.paint(f"Welcome to {config.door.bbs_name}!", bold=True))


async def ask_name(terminal: Terminal, config: Config) -> str:
    palette = Palette(terminal.color_mode)
    message = ""
    while True:
        draw_welcome(terminal, config)
        terminal.write(at(9, 4) + "The caller enters their name as player 1.")
        if message:
            terminal.write(at(13, 4) + palette.paint(message, fg=Color.RED, bold=True))
        terminal.write(at(11, 4) + "Your name: " + SHOW_CURSOR)
        try:
            name = clean_name(await read_line(terminal, MAX_NAME_LENGTH))
        except Cancelled:
            name = ""
        terminal.write(HIDE_CURSOR)
        if name:
            return name
        message = "Please type a name (letters, digits, spaces), then press RETURN."


def draw_menu(terminal: Terminal, config: Config, name: str, choices: MenuChoices) -> None:
    palette = Palette(terminal.color_mode)
    draw_welcome(terminal, config)
    terminal.write(at(7, 4) + palette.paint(f"Welcome, {name}!", bold=True) + "\x1b[K")
    if choices.games_won or choices.games_lost:
        terminal.write(f"   Games this call: {choices.games_won} won, {choices.games_lost} lost.")

    def option(row: int, key: str, text: str, chosen: bool = False) -> None:
        mark = palette.paint(" <", fg=Color.YELLOW, bold=True) if chosen else ""
        key_text = palette.paint(f"{key:>2}", fg=Color.YELLOW, bold=True)
        terminal.write(at(row, 6) + f"{key_text}  {text}{mark}")

    option(9, "P", "Play the computer")
    option(11, "1", "Pegging runs in any order (7-5-6 is a run)", choices.runs == "free")
    option(12, "2", "Pegging runs in exact order (5-6-7 or 7-6-5 only)", choices.runs == "exact")
    counting = "you count your hands (muggins!)" if choices.counting == "manual" else "automatic"
    option(13, "A", f"Counting the show: {counting}")
    option(14, "D", f"Difficulty: {choices.level}")
    option(15, "S", f"Character set: {CHARSET_NAMES[terminal.charset]}")
    option(16, "?", "Help")
    option(17, "Q", "Quit")
    for row, note in enumerate(choices.notes[-2:], start=19):
        terminal.write(at(row, 6) + palette.paint(note[:72], fg=Color.GREEN))
    terminal.write(at(22, 6) + "Press a key: " + palette.paint("P 1 2 A D S ? Q", bold=True))


async def main_menu(
    terminal: Terminal, config: Config, name: str, choices: MenuChoices, rng: random.Random
) -> None:
    while True:
        draw_menu(terminal, config, name, choices)
        await terminal.flush()
        key = await terminal.read_key()
        char = key.char.lower() if key.is_printable else ""
        if char == "q" or key == Key.CTRL_C:
            return
        if char == "p" or key == Key.ENTER:
            await play_computer(terminal, name, choices, rng, config.game.computer_pause_seconds)
        elif char in ("1", "2"):
            choices.runs = "free" if char == "1" else "exact"
        elif char == "a":
            choices.counting = "manual" if choices.counting == "auto" else "auto"
        elif char == "d":
            choices.level = LEVELS[(LEVELS.index(choices.level) + 1) % len(LEVELS)]
        elif char == "s":
            position = CHARSET_CYCLE.index(terminal.charset)
            terminal.charset = CHARSET_CYCLE[(position + 1) % len(CHARSET_CYCLE)]
        elif char == "?" or key == Key.F1:
            await show_help(terminal)


async def play_computer(
    terminal: Terminal, name: str, choices: MenuChoices, rng: random.Random, pause: float
) -> None:
    from door.table import GameOptions, GameResult, play_against_computer

    options = GameOptions(runs=choices.runs, counting=choices.counting, level=choices.level)

    def finished(result: GameResult) -> None:
        if result.caller_won:
            choices.games_won += 1
        else:
            choices.games_lost += 1
        skunk = f" ({result.skunk})" if result.skunk else ""
        outcome = "You won" if result.caller_won else "The computer won"
        high = max(result.caller_score, result.computer_score)
        low = min(result.caller_score, result.computer_score)
        choices.notes.append(f"{outcome} {high} to {low}{skunk}.")

    result = await play_against_computer(
        terminal,
        options,
        name,
        rng=random.Random(rng.getrandbits(64)),
        pause=pause,
        on_game_over=finished,
    )
    if result.quit:
        choices.notes.append("Game abandoned.")


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
