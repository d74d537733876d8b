"""A win bar worked out after its frame was sent, drawn as the bar's row alone.

The frame answering a key showed the bar dimmed (door/table/win_bars.py). When the bar
is worked out and nothing else has changed for the person since, the table is not
composed again to change one row: the bar's layer is drawn again in the person's own
layers (so the next whole frame finds it drawn and its difference stays right) and the
renderer sends the difference, one row (bench/bar_row.py: 33 us of processor time a
bar, where composing the table took 42).
"""

from __future__ import annotations

from door.screens.game_screen import TableView, redraw_win_bar
from door.table.win_bars import Shown
from door.term.layers import Layers
from door.ui.renderer import Renderer
from door.ui.session import Screen, Session


def paint_bar_row(
    session: Session, screen: Screen, view: TableView, layers: Layers, shown: Shown | None
) -> bool:
    """Send ``shown`` (a bar now current) as the row of ``view``'s last frame that
    changes, if that frame is what the caller sees: ``screen`` on top of ``session``
    (no help or dialog over it), a screen rather than lines, the window the same size.
    Whether it was sent; if not, the whole frame must be drawn."""
    if shown is None or not shown.current or view.win_chances is None:
        return False
    if session.top is not screen or view.size != session.size:
        return False
    renderer = session.renderer
    if not isinstance(renderer, Renderer):
        return False  # lines (a screen reader, a plain terminal): no rows to change
    view.win_chances, view.win_bar_current = shown.chances, True
    redrawn = redraw_win_bar(view, layers)
    if redrawn is None:
        return False
    renderer.render(*redrawn)
    return True
