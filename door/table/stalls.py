"""A caller cannot stall a game between callers for ever.

Without a turn timer a caller may sit on their move as long as they like: any key (chat,
``w``, Ctrl-L) keeps their idle guard quiet, and the other player's only way out, ``q``,
forfeits a game that counts *to* the one stalling. So, as on the boards that play for
ratings: once the game has waited on one caller's move (the deal, the throw, the cut, a
card, a count, going on) for ``claim_after`` seconds, each caller of the other side
who is not being waited on is asked whether to claim the game (``ClaimGame``: key g, or
the word ``claim`` with a screen reader). A claim ends the game as the staller's forfeit,
as leaving a game that counts does (``Company.forfeited_by``); a friendly game ends the same
way, unrated: the claimant came to play a caller, and the computer in the staller's seat
is what ``q`` already gives them. The staller is told once, a minute before (a third of
the wait, for a shorter one), and their move withdraws the offer.

The clock is two timer handles the table sets when it starts waiting on a seat and
cancels when it stops (``Table.set_waits`` and the others call ``waits_changed``, a few
times a turn): nothing is looked at per key. Nothing is offered against a seat whose
caller's line is down (the reconnect wait already bounds that, and the others may hand
the seat to the computer), and a call back starts the clock again. Games of three sides
are left out: a forfeit there goes to the best placed of the other two (``Game.forfeit``),
not to whoever claims it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any, Final

from door.screens import theme
from door.table.forfeits import claim_line
from door.table.question import ClaimGame
from door.table.seats import Participant, Seat
from door.table.words import and_list, duration

if TYPE_CHECKING:
    from door.table.company import Company

logger = logging.getLogger(__name__)

DEFAULT_CLAIM_AFTER: Final = 180.0
"""Seconds a game between callers waits on one caller's move before the others may claim
it (``[game] claim_after_seconds``)."""
WARNING_AHEAD: Final = 60.0
"""Seconds before the offer that the staller is told it is coming (at most a third of
the wait)."""

Offer = tuple[Participant, "asyncio.Future[str]"]


class Stalls:
    """The clocks on the seats ``table`` waits on (see the module)."""

    def __init__(self, table: Company[Any], claim_after: float) -> None:
        self.table = table
        self.claim_after = claim_after
        self._timers: dict[int, list[asyncio.TimerHandle]] = {}
        self._offers: dict[int, list[Offer]] = {}

    def waits_changed(self) -> None:
        """The seats the table waits on changed: clocks start on the new ones, stop on
        the others (a move made, a line dropped, the game over)."""
        waits = self.table.waits
        for index in [index for index in self._timers if index not in waits]:
            self._stop(index)
        if self.claim_after <= 0:
            return
        for index in waits:
            if index not in self._timers and self._may_stall(index):
                self._start(index)

    def stop_all(self) -> None:
        for index in list(self._timers):
            self._stop(index)

    def _may_stall(self, index: int) -> bool:
        table = self.table
        seat = table.seats[index]
        return (
            table.game.sides == 2
            and seat.human
            and not seat.computer_plays
            and any(other.human and self._other_side(seat, other) for other in table.seats)
        )

    def _other_side(self, seat: Seat, other: Seat) -> bool:
        game = self.table.game
        return game.side_of(other.index) != game.side_of(seat.index)

    def _claimants(self, staller: Seat) -> list[Participant]:
        """The callers present on the other side whom the game is not waiting on."""
        waits = self.table.waits
        return [
            person
            for person in self.table.players_present()
            if person.seat is not None
            and person.seat.index not in waits
            and not person.seat.computer_plays
            and self._other_side(staller, person.seat)
        ]

    def _start(self, index: int) -> None:
        loop = asyncio.get_running_loop()
        ahead = min(WARNING_AHEAD, self.claim_after / 3)
        self._timers[index] = [
            loop.call_later(self.claim_after - ahead, self._warn, index, ahead),
            loop.call_later(self.claim_after, self._offer, index),
        ]

    def _stop(self, index: int) -> None:
        for timer in self._timers.pop(index, ()):
            timer.cancel()
        for person, offer in self._offers.pop(index, ()):
            person.withdraw(offer)

    def _warn(self, index: int, ahead: float) -> None:
        staller = self.table.seats[index]
        claimants = self._claimants(staller)
        if staller.person is None or not claimants or self.table.over:
            return
        names = and_list([person.name for person in claimants])
        staller.person.tell(
            f"{names} may claim the game in {duration(ahead)}: it waits for your move.",
            theme.ERROR,
        )

    def _offer(self, index: int) -> None:
        table, staller = self.table, self.table.seats[index]
        claimants = self._claimants(staller)
        if staller.person is None or not claimants or table.over:
            return  # away: the reconnect wait bounds it
        waited = duration(self.claim_after)
        offers = self._offers.setdefault(index, [])
        for person in claimants:
            offer = person.ask(ClaimGame(staller.name, waited))
            offers.append((person, offer))
            offer.add_done_callback(functools.partial(self._answered, index, person))
        names = and_list([person.name for person in claimants])
        staller.person.tell(
            f"{names} may now claim the game: it has waited {waited} for your move.",
            theme.ERROR,
        )
        table.changed()

    def _answered(self, index: int, person: Participant, offer: asyncio.Future[str]) -> None:
        if offer.cancelled() or offer.exception() is not None:
            return  # withdrawn (the staller moved), or the claimant's line dropped
        if (person, offer) not in self._offers.get(index, ()) or self.table.over:
            return  # the staller's move came first
        staller = self.table.seats[index]
        logger.info(
            "table %s: %s claimed the game after %s without %s's move",
            self.table.title,
            person.name,
            duration(self.claim_after),
            staller.name,
        )
        waited = duration(self.claim_after)
        self.table.forfeited_by(
            staller, claim_line(self.table.options, person.name, staller.name, waited)
        )
