"""The questions a table has put to one caller and not yet had answered: the half of a
``Participant`` (door/table/seats.py) that a caller on the full screen
(door/table/person.py) and a caller with a screen reader (door/table/reader.py) share.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from door.table.question import Answer, Question
from door.table.seats import SeatAway


@dataclass
class Request:
    """A question put to the caller, and the future their answer goes into."""

    question: Question[Any]
    future: asyncio.Future[Any]


class Asked:
    """The questions open for one caller. Mixed into a participant that has ``name`` and
    ``left`` and redraws on ``wake()``."""

    name: str
    left: bool
    requests: list[Request]

    def wake(self) -> None:
        raise NotImplementedError

    def ask(self, question: Question[Answer]) -> asyncio.Future[Answer]:
        """Put a question to this caller; the future holds their answer, or SeatAway.
        Urgent questions come first, then the newest: someone's line dropping interrupts
        a discard, which is asked again after."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        if self.left:
            future.set_exception(SeatAway(self.name))
            return future
        self.requests.append(Request(question, future))
        self.wake()
        return future

    @property
    def deciding(self) -> bool:
        return self.current_request() is not None

    def current_request(self) -> Request | None:
        requests = self.requests
        if len(requests) <= 1:  # nearly always (asked several times a key)
            return requests[0] if requests and not requests[0].future.done() else None
        waiting = [r for r in reversed(requests) if not r.future.done()]
        return next((r for r in waiting if r.question.urgent), waiting[0] if waiting else None)

    def forget(self, future: asyncio.Future[Any]) -> None:
        self.requests = [r for r in self.requests if r.future is not future]

    def withdraw(self, future: asyncio.Future[Any]) -> None:
        """The question is no longer asked (someone else answered, the game moved on)."""
        if not future.done():
            future.cancel()
        self.forget(future)
        self.wake()

    def gone(self) -> None:
        self.left = True
        requests, self.requests = self.requests, []
        for request in requests:
            if not request.future.done():
                request.future.set_exception(SeatAway(self.name))
                # The table may have stopped waiting for this answer (someone else
                # dealt): mark the exception seen so asyncio does not log it as lost.
                request.future.exception()
