"""When a person's last whole frame was composed, and so what may be drawn alone since:
a win bar worked out after it (door/table/bar_row.py), or a key that changed only the
step's part of the screen (door/table/step_frame.py). Either needs that nothing else
changed for the person since that frame: nothing woke their inbox but the bar."""

from __future__ import annotations

from door.term.inbox import Inbox


class LastFrame:
    """The inbox's wake-ups when the person's last whole frame was composed, and whether
    their table was on top then (not under help or a dialog)."""

    __slots__ = ("wakes", "on_top", "_bar_row_wakes")

    def __init__(self) -> None:
        self.wakes = -1
        self.on_top = False
        self._bar_row_wakes: int | None = None
        """The wake-ups once ``bar_ready`` woke the inbox, if nothing else had since the
        last frame: the next draw then sends the bar's row alone."""

    def composed(self, inbox: Inbox, on_top: bool) -> None:
        """A whole frame is being composed: it shows everything that woke ``inbox``."""
        self.wakes, self.on_top = inbox.wakes, on_top

    def bar_ready(self, inbox: Inbox) -> None:
        """Wake ``inbox``: the win bar the last frame showed dimmed is worked out."""
        quiet = inbox.wakes == self.wakes
        inbox.wake()
        self._bar_row_wakes = inbox.wakes if quiet else None

    def bar_row_only(self, inbox: Inbox) -> bool:
        """Whether the bar is all that woke ``inbox`` since the last frame (asked once a
        draw: the next draw's answer is no, unless the bar wakes it again)."""
        row_only = self._bar_row_wakes == inbox.wakes
        self._bar_row_wakes = None
        return row_only

    def bar_row_sent(self, inbox: Inbox) -> None:
        """The bar's row was sent: the frame is as a whole one would be, and it answers
        the bar's wake-up (a step's keys after it can be drawn alone)."""
        self.wakes = inbox.wakes
