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

The clock is the time the table began to wait on a seat, and a timer that looks at it
(``Table.set_waits`` and the others call ``waits_changed``, a few times a turn): nothing
is looked at per key. Nothing is offered against a seat whose
caller's line is down (the reconnect wait already bounds that, and the others may hand
the seat to the computer). Its clock is held meanwhile, and goes on from where it was
when the caller, back, is waited on for the same thing: a call back that started it
again let a caller drop and call back within the reconnect wait, again and again, and
stall the game for ever. (The time away counts; a staller not warned yet is still
warned the full minute ahead.) Games of three sides
are left out: a forfeit there goes to the best placed of the other two (``Game.forfeit``),
not to whoever claims it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from typing import TYPE_CHECKING, Any, Final

from door.screens import theme
from door.table.forfeits import claim_line
from door.table.question import ClaimGame
from door.table.seats import Participant, Seat
from door.table.words import BE_READY, CALL_BACK, and_list, duration

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
        # Weakly: the table holds its clocks, and a table and its clocks in a cycle would
        # outlive the game once frozen (door/gc_policy.py; tests/door/cycles.py).
        self._table = weakref.ref(table)
        self.claim_after = claim_after
        self._ahead = min(WARNING_AHEAD, claim_after / 3)
        game = table.game
        self._clocked = frozenset(
            seat.index
            for seat in table.seats
            if game.sides == 2
            and seat.human
            and any(other.human and self._other_side(seat, other) for other in table.seats)
        )
        """The seats a clock may run on: a caller's, with a caller on the other side (a
        seat's caller and the sides never change)."""
        self._since: dict[int, float] = {}
        """When (the loop's time) the game began to wait on each seat it waits on."""
        self._what: dict[int, str] = {}
        """What it waits on each for ("throw to the crib"), when the clock started."""
        self._held: dict[int, tuple[float, str, bool]] = {}
        """The clocks of seats whose caller's line dropped while waited on: since when,
        for what, warned or not; taken up again when the caller, back, is waited on for
        the same thing."""
        self._warned: set[int] = set()
        self._overdue: set[int] = set()
        """Seats whose claim came due while nobody could claim it (the other side was
        deciding too): offered as soon as someone can."""
        self._timers: dict[int, asyncio.TimerHandle] = {}
        """Each clocked seat's timer. It outlives the wait it was set for: a wait that
        starts finds it there, and when it fires it sets itself again for the rest of
        the wait now under way, if any (as the idle guard's does, door/term/idle.py).
        bench/table_waits.py, a wait started and stopped: 1.0 us without the clocks, 8.7
        to 9.8 with two timers made and cancelled each time, 2.4 to 3.9 so."""
        self._offers: dict[int, list[Offer]] = {}

    @property
    def table(self) -> Company[Any]:
        table = self._table()
        if table is None:  # (its timers are cancelled when it closes)
            raise RuntimeError("the table of these clocks is gone")
        return table

    def waits_changed(self) -> None:
        """The seats the table waits on changed: clocks start on the new ones, stop on
        the others (a move made, a line dropped, the game over)."""
        waits, seats = self.table.waits, self.table.seats
        if self._since:
            for index in [index for index in self._since if index not in waits]:
                self._stop(index, held=seats[index].away)
            for index in [index for index in self._since if seats[index].away]:
                self._stop(index, held=True)  # (still waited on: for their call back)
        if self._held:  # the computer took a seat held: it moves for them, no stall
            for index in [index for index in self._held if seats[index].computer_plays]:
                del self._held[index]
        if self.claim_after <= 0:
            return
        for index in waits:
            if index in self._clocked and index not in self._since:
                self._start(index, waits[index])
        if self._overdue:
            for index in list(self._overdue):
                self._offer(index)  # someone on the other side may claim it now

    def stop_all(self) -> None:
        for index in list(self._since):
            self._stop(index)
        self._held.clear()
        for timer in self._timers.values():
            timer.cancel()  # (they would hold the table until they fired)
        self._timers.clear()

    def _other_side(self, seat: Seat, other: Seat) -> bool:
        game = self.table.game
        return game.side_of(other.index) != game.side_of(seat.index)

    def _claimants(self, staller: Seat, *, deciding_too: bool = False) -> list[Participant]:
        """The callers present on the other side whom the game is not waiting on (or
        all of them, ``deciding_too``)."""
        waits = () if deciding_too else self.table.waits
        return [
            person
            for person in self.table.players_present()
            if person.seat is not None
            and person.seat.index not in waits
            and not person.seat.computer_plays
            and self._other_side(staller, person.seat)
        ]

    def _start(self, index: int, what: str) -> None:
        seat = self.table.seats[index]
        if seat.away or what == CALL_BACK:
            return  # the reconnect wait bounds it; a clock held waits for their return
        held = self._held.pop(index, None)
        if seat.computer_plays:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        since, warned = now, False
        if held is not None and held[1] == what:  # back from a dropped line
            since, _, warned = held
            if not warned:  # not warned yet: still the full time ahead
                since = max(since, now - self.claim_after + self._ahead)
        self._since[index], self._what[index] = since, what
        if warned:
            self._warned.add(index)
        if index not in self._timers:
            due = since + self.claim_after - (0 if warned else self._ahead)
            self._timers[index] = loop.call_at(due, self._due, index)

    def _stop(self, index: int, *, held: bool = False) -> None:
        """The game waits on the seat no more (``held``: its caller's line dropped; the
        clock is kept for their return)."""
        since, what = self._since.pop(index), self._what.pop(index, "")
        if held:
            self._held[index] = (since, what, index in self._warned)
        self._warned.discard(index)
        self._overdue.discard(index)
        for person, offer in self._offers.pop(index, ()):
            person.withdraw(offer)

    def _due(self, index: int) -> None:
        """A seat's timer fired: the wait it was set for may be over, and another under
        way; warn, or offer, or set it again for when the wait now under way is due."""
        del self._timers[index]
        since = self._since.get(index)
        if since is None or self._table() is None:
            return  # not waited on: the next wait sets a timer again
        warned = index in self._warned
        due = since + self.claim_after - (0 if warned else self._ahead)
        loop = asyncio.get_running_loop()
        if loop.time() < due:
            self._timers[index] = loop.call_at(due, self._due, index)
        elif not warned:
            self._warned.add(index)
            self._timers[index] = loop.call_at(since + self.claim_after, self._due, index)
            self._warn(index)
        else:
            self._offer(index)

    def _ready_wait(self, index: int) -> bool:
        """The game waits on the seat to say they are ready for the computer's deal:
        no move of the game, and the words say so."""
        return self.table.waits.get(index) == BE_READY

    def _awaited(self, index: int) -> str:
        """What the game waits for, as the staller is told it."""
        return "you to say you are ready" if self._ready_wait(index) else "your move"

    def _warn(self, index: int) -> None:
        staller = self.table.seats[index]
        claimants = self._claimants(staller, deciding_too=True)
        if staller.person is None or not claimants or self.table.over:
            return
        names = and_list([person.name for person in claimants])
        staller.person.tell(
            f"{names} may claim the game in {duration(self._ahead)}: "
            f"it waits for {self._awaited(index)}.",
            theme.ERROR,
        )

    def _offer(self, index: int) -> None:
        table, staller = self.table, self.table.seats[index]
        if staller.person is None or table.over:
            self._overdue.discard(index)
            return  # away: the reconnect wait bounds it
        claimants = self._claimants(staller)
        if not claimants:
            self._overdue.add(index)
            return
        self._overdue.discard(index)
        waited = duration(self.claim_after)
        offers = self._offers.setdefault(index, [])
        for person in claimants:
            offer = person.ask(ClaimGame(staller.name, waited, self._ready_wait(index)))
            offers.append((person, offer))
            offer.add_done_callback(functools.partial(self._answered, index, person))
        names = and_list([person.name for person in claimants])
        staller.person.tell(
            f"{names} may now claim the game: it has waited {waited} for {self._awaited(index)}.",
            theme.ERROR,
        )
        table.changed()

    def _answered(self, index: int, person: Participant, offer: asyncio.Future[str]) -> None:
        if offer.cancelled() or offer.exception() is not None or self._table() is None:
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
        waited, ready = duration(self.claim_after), self._ready_wait(index)
        self.table.forfeited_by(
            staller,
            claim_line(self.table.options, person.name, staller.name, waited, ready=ready),
            by=person.seat.index if person.seat is not None else None,
        )
