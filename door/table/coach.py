"""The coach of a caller playing the computer: ``h`` turns it on, and each choice is
then weighed against the best one, off the event loop, in the caller's log; at the end
of a game the door records, its costliest choices are reviewed (``r``).

A coach at a table of callers would play for one of them: it works only against the
computer (the person asking, door/table/person.py, says so).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any, Final

from door.screens import theme
from door.screens.cards import card_face
from door.table.computer import think
from door.term.canvas import Style
from engine.computer.coach import Analysis, review_game
from engine.rules.cards import Card
from engine.rules.errors import CribbageError
from engine.rules.game import Game
from engine.rules.record import RecordedGame

logger = logging.getLogger(__name__)

REVIEW_LENGTH: Final = 8
"""How many of a coached game's costliest choices its review names."""
_CARD_TEXT: Final = re.compile(r"\b[A2-9TJQK][SHDC]\b")


def coach_line(analysis: Analysis) -> str:
    """The coach's words on one choice; a cost that rounds to nothing is no cost."""
    shown = f"{analysis.points_cost:.1f} {analysis.chance_cost * 100:.1f}"
    if shown == "0.0 0.0":  # what describe() would say it cost
        return analysis.describe() if analysis.is_best else _as_good(analysis)
    return analysis.describe()


def _as_good(analysis: Analysis) -> str:
    best = analysis.describe().split(" cost ")[0]
    return f"{best}: as good as the best. Chance to win {analysis.chosen.chance:.1%}."


def with_faces(text: str) -> str:
    """The engine's card notation ("5H") as the screen shows cards ("5♥")."""
    return _CARD_TEXT.sub(lambda match: card_face(Card.parse(match.group(0))), text)


Say = Callable[[str, Style], None]
"""Puts a line in the caller's log. Given with each piece of work, not kept: a coach
holding its caller's method would tie the two in a cycle only the collector frees."""


class Coach:
    """One caller's coach; ``name`` is theirs, for the server's log when it fails."""

    def __init__(self, name: str) -> None:
        self.on = False
        self.review_text = ""
        """The review of the game just ended, shown with r ("" until it is ready)."""
        self._name = name
        self._working: set[asyncio.Task[None]] = set()

    def toggle(self) -> str:
        """The coach on or off; returns what to tell the caller."""
        self.on = not self.on
        if self.on:
            return "Coach on: each choice is weighed against the best one (h: off)."
        return "Coach off."

    def weigh(
        self,
        before: Game,
        say: Say,
        analyse: Callable[..., Analysis],
        *args: object,
        **kwargs: object,
    ) -> None:
        """Weigh the choice just made from ``before`` (a snapshot of the game) off the
        event loop; the coach's line is said when it is ready."""
        if not self.on:
            return

        async def weigh() -> None:
            try:
                analysis = await think(analyse, before, *args, **kwargs)
            except CribbageError:
                logger.exception("the coach could not weigh %s's choice", self._name)
                return
            say(f"Coach: {with_faces(coach_line(analysis))}", theme.COACH)

        self._start(weigh())

    def review(self, game: Game, seat: int, say: Say, ready: Callable[[], None]) -> None:
        """At a coached game's end: its costliest choices, worst first (a game the door
        records; a guest's is not). ``ready`` is called once ``review_text`` is set."""
        if not self.on or not isinstance(game, RecordedGame):
            return
        recording = game.recording

        async def look_back() -> None:
            try:
                mistakes = await think(review_game, recording, [seat], REVIEW_LENGTH)
            except CribbageError:
                logger.exception("the coach could not review %s's game", self._name)
                return
            if not mistakes:
                say("Coach's review: none of your choices cost anything.", theme.COACH)
                return
            lines = [
                with_faces(f"{number}. Hand {mistake.hand}: {coach_line(mistake.analysis)}")
                for number, mistake in enumerate(mistakes, start=1)
            ]
            self.review_text = "\n".join(["Your costliest choices, worst first:", "", *lines])
            ready()
            count = f"{len(mistakes)} choice{'s' if len(mistakes) > 1 else ''}"
            say(f"Coach's review: {count} cost you something; r shows them.", theme.COACH)

        self._start(look_back())

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._working.add(task)
        task.add_done_callback(self._working.discard)
