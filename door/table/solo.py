"""One caller against the computer: the simplest table, with "play again?" after each
game. It seats the caller as door/table/person.py's ``Person``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from door.table.flow import Table
from door.table.listener import TableListener
from door.table.options import GameOptions, GameResult
from door.table.person import Person
from door.table.reader import Reader
from door.table.seats import DEFAULT_PAUSE
from door.ui.session import Session
from engine.rules.game import Game


async def play_against_computer(
    session: Session,
    options: GameOptions,
    caller_name: str,
    *,
    rng: random.Random,
    pause: float = DEFAULT_PAUSE,
    help_text: str | None = None,
    listener: TableListener[Any] | None = None,
    on_table: Callable[[Table[Any]], None] | None = None,
    game: Game | None = None,
    win_bar: str = "on",
) -> GameResult:
    """Play games of cribbage against the computer until the caller stops.

    The caller is seat 0 ("player 1"). After each finished game ``listener`` (if
    given) hears its result (door/table/listener.py) and the caller is asked whether to
    play again; the result returned is that of the last game, with ``quit`` set if the
    caller left it unfinished. A caller whose session is a screen reader's
    (``Session.speech``) sits as a ``Reader`` (door/table/reader.py). ``rng`` shuffles
    every deck (and seeds the computer's choices); ``pause`` is how long the computer's
    moves are held on screen; ``help_text`` defaults to the contents of config/help.txt;
    ``on_table`` is told the table once it is set (so it can be listed and watched).
    ``game``, if given, is played instead of a new one: a game being recorded, or a saved
    game to resume where it stands. ``win_bar`` is the sysop's setting
    (``door.table.win_bars.WIN_BAR_SETTINGS``). Raises ``door.term.terminal.Disconnected``
    if the line drops.
    """
    table: Table[Any] = Table(
        options,
        (caller_name, *([None] * (options.players - 1))),
        rng=rng,
        admit=Reader if session.speech else Person,
        pause=pause,
        help_text=help_text,
        listener=listener,
        game=game,
        win_bar=win_bar,
    )
    person = table.sit(0, session)
    if on_table is not None:
        on_table(table)
    table.start()
    try:
        return await person.attend()
    finally:
        table.close()
