"""A key that changed only the step's own part of the screen, drawn as that part alone.

Most keys at a table move the highlight bar over the caller's hand (a third of the keys
the load bench's callers press), or the cut's choice over the deck. Nothing else the
caller sees changes with them: the game, the log, the win bar and the panel are the last
frame's. The table is not composed again for them (its view brought up to the table, the
win bar looked up, every layer's key built and compared): the layers a step's keys
change (the hand, the cut's panel, the message, the key bar, the line being typed) are
drawn again in the person's own layers where their keys changed, so that the next whole
frame finds them drawn and its difference stays right, and the session sends the
difference with the click map and a touch screen's keys, as after a whole frame. A
move's draw at 300 callers in the game (bench/screen_cost.py --moves): 39-41 us of
processor time, where composing the table took 60-62 (bench/step_frame.py: 14 against
19 warm, 25 against 35 cold).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from door.competition.turn_timer import TurnTimer
from door.screens.cut import CutPanel
from door.screens.game_screen import Panel, TableView, redraw_step
from door.screens.play_area import HandState
from door.table.last_frame import LastFrame
from door.term.inbox import Inbox
from door.term.layers import Layers
from door.ui.renderer import Renderer
from door.ui.session import Screen, Session


class HasPanel(Protocol):
    @property
    def panel(self) -> Panel | None:
        """The panel the table shows everyone (a step may show its own instead)."""
        ...


class Stepping(Protocol):
    """What a step's frame needs of the person at the table (door/table/person.py)."""

    session: Session
    screen: Screen
    inbox: Inbox
    view: TableView
    layers: Layers
    last_frame: LastFrame
    own_panel: Panel | None
    nesting: int
    finishing: bool
    timer: TurnTimer | None

    @property
    def table(self) -> HasPanel: ...

    @property
    def running(self) -> object | None:
        """The request being answered (None: watching the game)."""
        ...

    def hand_now(self) -> HandState: ...


async def paint_step_frame(person: Stepping) -> bool:
    """Send the last frame with the step's layers drawn again, if nothing but the
    person's step can have changed what they see since it was composed: the table was on
    top then and is now (no help or dialog over it), nothing woke them since (news at
    the table, the log, the win bar, a resize), they are answering a step (no chat line
    open), the panel is the one drawn or a cut's in place of a cut's, and the caller
    sees a screen (not lines or speech) of the same size. Whether it was sent; if not,
    the whole frame must be composed."""
    last, session, view = person.last_frame, person.session, person.view
    if not last.on_top or person.inbox.wakes != last.wakes or session.top is not person.screen:
        return False
    if person.running is None or person.nesting or person.finishing:
        return False
    if view.size != session.size or not isinstance(session.renderer, Renderer):
        return False  # lines (a screen reader, a plain terminal): no rows to change
    panel = person.own_panel if person.own_panel is not None else person.table.panel
    if panel is not view.panel and not (
        isinstance(panel, CutPanel) and isinstance(view.panel, CutPanel)
    ):
        return False
    # The view brought up to the step (``Person.compose`` for the rest, as it was).
    view.panel, view.hand = panel, person.hand_now()
    timer = person.timer
    view.clock = timer.label(asyncio.get_running_loop().time()) if timer is not None else ""
    drawn = redraw_step(view, person.layers)
    if drawn is None:
        return False
    await session.paint_drawn(*drawn)
    return True
