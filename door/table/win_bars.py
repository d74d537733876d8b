"""The win bar for everyone at one table, worked out once per moment of the game, after
the frame that answers a key.

Each person sees the chances as their seat may know them (their own hand and the cards
they threw; a watcher sees every hand). People who see the game the same way (every
watcher, say) share one computation, and nothing is worked out again until the game
moves: a play, a count, a cut, a new hand.

A caller's key is answered first: the frame it causes shows the bar the person saw last,
dimmed, and asks for the new moment's bar, which the event loop works out on a turn with
nothing more urgent (``BarQueue``), then tells whoever asked (``Asker.bar_ready``), who
sends the bar's row alone. A table whose game moves on before its bar was worked out
skips that moment: only the newest is worked out, so under overload the bar lags and
says so, and keys never wait for it.

A bar that costs less than the frame of its own it would need is worked out in the
key's frame instead (``CHEAP_BAR_SECONDS``): the queue learns what bars of each phase
cost on its loop (two players': 0.02-0.35 ms, twice that on a saturated core).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Final, Protocol

from door.metrics.tally import TALLY
from engine.odds.winbar import DealKept, win_bar
from engine.rules.cards import Card
from engine.rules.errors import CribbageError
from engine.rules.game import Game, Phase

logger = logging.getLogger(__name__)

WIN_BAR_SETTINGS = ("on", "off", "never")
"""The sysop's ``[game] win_bar``: the bar on from the start where it may show (against
the computer, for watchers), off until a caller presses w, or never (w is refused). A
bar costs about a twentieth of the processor time a key (README), so "never" is for a
board that needs every caller it can seat on one core."""

QUIET_TURN_SECONDS: Final = 0.0003
"""A turn of the event loop that took less of this thread's processor time than this ran
nothing but the queue's own look (an idle loop's turn takes 0.02-0.05 ms; a key's hop
through the door 0.1 ms and more): the loop has nothing more urgent, and one bar is
worked out. Processor time, not the wall clock: on a shared machine a turn during which
the system ran other programs is not a busy turn (timed on the wall clock, 11% of the
moments were skipped at 240 callers with the machine's load at 4.5 on two cores)."""
OVERDUE_SECONDS: Final = 0.25
"""A bar asked for this long ago is worked out even on a busy turn, but overdue bars
take no more than ``OVERDUE_SHARE`` of the loop's processor time: a loop that is never
quiet (overload) still shows bars, late, and lets a key's every hop through the loop
wait for a bar only that often. A first version worked bars out every turn (2 ms of them
at most): with 240 callers, each hop of a key waited behind bars, and keys took 8-57 ms
at p50 where they had taken 2 ms."""
OVERDUE_SHARE: Final = 0.05
"""After an overdue bar, the next waits 19 times as long as it took (0.1-3 ms, the
throw's the dearest): under overload, bars take no more than a twentieth of the core,
and the tables whose bar waits longest are skipped to their newest moment. One overdue
bar every 50 ms, as before, let 20 through a second: at 240 callers on a machine busy
with other work, the cuts' bars (one a hand, about 20 a second) waited 1.3 s at p99."""

CHEAP_BAR_SECONDS: Final = 0.001
"""A bar expected to take less of the door's processor time than this is worked out in
the frame that shows its moment: a bar sent as an update of its own costs the door more
than that. bench/load.py, 200 telnet + 40 SSH callers: at 0.3 ms the cut's bars (the
door timed them at 0.35 ms, the play's at 0.16) followed their frames, and the door took
1.35 frames and 0.72 ms of processor time a key (two runs); at 0.4 ms, 1.32 frames and
0.64 ms, as main's 1.31-1.32 and 0.66-0.70 ms with every bar in its frame.
On a saturated core (1,000 telnet + 200 SSH callers) every bar costs more, its caches
cold: the door timed two players' cut bars at 0.33 ms on average (one in six over
0.4 ms), their play bars at 0.12 ms. With 0.4 ms here the cut's running cost hovered
about the mark, so most cut bars were put off, and a bar put off on a loop never quiet
waits until overdue: 5,400-5,800 screens showed the bar dimmed in a minute, 7.7-8.4 % of
the moments' bars were skipped and the door took 0.55 ms a key. At 1 ms (two pairs of
runs, alternating): 12-113 screens dimmed, 0.0-0.1 % skipped, 0.48 ms a key, key p50
53-59 ms where it was 129-132 and p99 274-320 ms where it was 405-481. A bar of 1 ms at
most in a key's frame is a fiftieth of the 50 ms a key may take at p99. What still
follows: a phase's first bars on the loop (not timed yet), and the dearer bars of three
and four players (0.2-3 ms on a quiet core, the throw's the dearest; two or three times
that on a saturated one)."""
LEARNING: Final = 0.2
"""How much a new timing moves the expected cost of a phase's bars (a running mean)."""
TIMED_EVERY: Final = 8
"""Once the cost of a phase's bars is known, one bar in this many is timed: reading the
thread's processor clock is a system call (0.7-1.3 us, twice a bar, where a play's bar
takes 40-50 us), and at a thousand bars a second one in eight still moves the running
mean as load comes and goes many times a second. bench/load.py, 600 telnet + 120 SSH
callers on a loaded machine (the server saturated): with every bar timed, 645 screens
showed a bar waiting, 17.5 % of the moments' bars were skipped and the bar lagged 8.1 s
at p99; with one in eight, none waited and none was skipped (two runs; main: 443-1,256
waiting, 2.7-7.1 % skipped, 2.5-2.9 s at p99), and the door worked out as many bars a
key (0.65)."""

View = tuple[int | None, tuple[Card, ...]]
"""A way of seeing the game: the seat (None: a watcher) and what it threw to the crib."""


def moment_of(game: Game) -> Hashable:
    """What changes whenever any side's chance to win may change."""
    return (
        id(game),
        game.phase,
        game.hand_number,
        len(game.plays),
        len(game.shows),
        tuple(game.scores),
        game.starter,
        len(game.crib),
    )


class Asker(Protocol):
    """Whoever asked for a bar that was not worked out yet (a person at the table)."""

    def bar_ready(self) -> None:
        """The bar asked for is worked out: ``shown`` now gives it, current."""
        ...


@dataclass
class _Wait:
    asked: float
    """When the view was first asked for (``time.perf_counter``)."""
    askers: list[Asker] = field(default_factory=list)


@dataclass(frozen=True)
class Shown:
    """The bar to draw: each side's chance, and whether they are this moment's (False:
    the last figure this seat saw, to be drawn dimmed until the new one is worked out)."""

    chances: tuple[float, ...]
    current: bool


class WinBars:
    """One table's win bars for the game's present moment, by view."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._moment: Hashable = None
        self._known: dict[View, Shown] = {}
        """This moment's bars worked out, by view, as drawn: one Shown kept rather than
        one built a frame (a known bar's look took 0.97 us, now 0.39: timeit)."""
        self._last: dict[int | None, tuple[float, ...]] = {}
        """The newest figure each seat has seen, shown dimmed while its next one waits."""
        self._waiting: dict[View, _Wait] = {}
        """Views of the present moment asked for and not worked out: when first asked,
        and by whom (told when it is; a moment left forgets them: they draw the new one)."""
        self.worked_out = 0
        """How many bars have been computed (for tests and benches)."""
        self.skipped = 0
        """Moments whose bar was asked for but never worked out: the game moved on first."""
        self._deal_kept = DealKept()
        """What this table's bars keep for its deal's later moments (only its own deal)."""

    def _follow(self, game: Game) -> None:
        moment = moment_of(game)
        if moment != self._moment:
            if self._waiting:
                self.skipped += 1
                TALLY.win_bar_skipped += 1
                self._waiting.clear()
            self._known.clear()
            self._moment = moment
            self._game = game

    def chances(self, game: Game, seat: int | None, thrown: tuple[Card, ...]) -> tuple[float, ...]:
        """Each side's chance as ``seat`` (None: a watcher) sees it, having thrown
        ``thrown`` to the crib, worked out now if it is not known. Raises CribbageError
        as ``engine.odds.winbar.win_bar`` does."""
        self._follow(game)
        view = (seat, thrown)
        known = self._known.get(view)
        return known.chances if known is not None else self._work_out(game, view)

    def shown(
        self,
        game: Game,
        seat: int | None,
        thrown: tuple[Card, ...],
        asker: Asker | None = None,
    ) -> Shown | None:
        """What to draw now: this moment's bar if known, or worked out now if bars of
        its phase are cheap (``BarQueue.affords``); else the seat's last one (not
        current; the new one is asked for, and ``asker`` told once it is worked out),
        else None. Outside a running event loop (a script, a test drawing one frame) the
        bar is worked out at once: there is no key to put first. Raises CribbageError
        when a bar worked out now is refused."""
        self._follow(game)
        view = (seat, thrown)
        known = self._known.get(view)
        if known is not None:
            return known
        try:
            queue = bar_queue()
        except RuntimeError:
            self._work_out(game, view)
            return self._known[view]
        if queue.affords(game):
            self._work_out(game, view, queue)
            return self._known[view]
        wait = self._waiting.get(view)
        if wait is None:
            wait = self._waiting[view] = _Wait(time.perf_counter())
            queue.add(self)
        if asker is not None and asker not in wait.askers:
            wait.askers.append(asker)
        last = self._last.get(seat)
        return Shown(last, current=False) if last is not None else None

    @property
    def waiting(self) -> bool:
        return bool(self._waiting)

    @property
    def asked_at(self) -> float:
        """When the oldest waiting view was asked for (``time.perf_counter``)."""
        oldest = next(iter(self._waiting.values()), None)
        return oldest.asked if oldest is not None else time.perf_counter()

    def work_out_one(self, queue: BarQueue | None = None) -> bool:
        """Work out the oldest waiting view of the present moment; whether more wait.
        A view the engine refuses is dropped (the person's frame shows no new bar)."""
        if not self._waiting or self._game is None:
            return False
        carried = moment_of(self._game) != self._moment
        if carried:
            # The live game moved on since these views were asked for and nobody has
            # drawn it yet: the bar worked out now is the new moment's, so it is kept as
            # the new moment's, and the askers' waits carried over to it (the moment they
            # asked about is skipped). Kept under the old moment, it was forgotten at the
            # next draw, which asked for it again.
            carried = dict(self._waiting)
            self._follow(self._game)
            self._waiting.update(carried)
        view = next(iter(self._waiting))
        wait = self._waiting.pop(view)
        try:
            self._work_out(self._game, view, queue)
        except CribbageError:
            if carried:
                # A view of a deal that has ended (the cards it threw are not in the new
                # deal's crib): its askers draw the new deal and ask for their view there.
                logger.debug("the win bar of %r left with its deal", view)
            else:
                logger.exception("no win bar for the view %r", view)
        else:
            TALLY.win_bar_lag_seconds += time.perf_counter() - wait.asked
            for asker in wait.askers:
                asker.bar_ready()
        return bool(self._waiting)

    def _work_out(self, game: Game, view: View, queue: BarQueue | None = None) -> tuple[float, ...]:
        """Work the bar out now; ``queue`` learns what it cost, when it asks to."""
        seat, thrown = view
        started = time.perf_counter()
        if queue is not None and queue.times(game):
            processor_started = time.thread_time()
            known = win_bar(game, seat, thrown=thrown, kept=self._deal_kept)
            queue.learn(game, time.thread_time() - processor_started)
        else:
            known = win_bar(game, seat, thrown=thrown, kept=self._deal_kept)
        self._known[view] = Shown(known, current=True)
        self._last[seat] = known
        TALLY.win_bar_seconds += time.perf_counter() - started
        TALLY.win_bar_updates += 1
        self.worked_out += 1
        return known


class BarQueue:
    """The tables with bars waiting, on one event loop, worked out oldest table first,
    one bar a turn of the loop and only when the loop has nothing more urgent: the queue
    looks once a turn (``call_soon``) and works a bar out when the turn since its last
    look was quiet (``QUIET_TURN_SECONDS``), or when the oldest bar is overdue."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # Weakly: ``_QUEUES`` keeps a queue as long as its loop lives, which it would not
        # if the queue held the loop (each test's loop would be kept alive).
        self._loop = weakref.ref(loop)
        self._tables: dict[WinBars, None] = {}  # an ordered set
        self._scheduled = False
        self._looked = 0.0
        self._next_forced = 0.0
        """When an overdue bar may be worked out on a busy turn (``time.perf_counter``)."""
        self._costs: dict[tuple[int, Phase], float] = {}
        """The expected processor time of a bar, by number of players and phase, as
        bars on this loop took (none yet: not known, worked out after the frame)."""
        self._untimed: dict[tuple[int, Phase], int] = {}
        """Bars of each kind worked out since the last one timed (``TIMED_EVERY``)."""

    def __len__(self) -> int:
        return len(self._tables)

    def affords(self, game: Game) -> bool:
        """Whether ``game``'s present bar may be worked out in the frame that shows it:
        bars of its phase cost less than a frame of their own. Even on a busy loop: there
        a bar put off costs the door a frame more, for the key it would have delayed
        less (at 240 callers on a loaded machine, putting cheap bars off while any bar
        had waited 50 ms made 1.46 frames a key and 0.85 ms of processor time a key,
        bars lagging 3.6 s at p99)."""
        expected = self._costs.get((game.players, game.phase))
        return expected is not None and expected < CHEAP_BAR_SECONDS

    def times(self, game: Game) -> bool:
        """Whether the bar of ``game``'s present moment about to be worked out is to be
        timed: every one until bars of its phase have a cost, then one in
        ``TIMED_EVERY``."""
        kind = (game.players, game.phase)
        if kind not in self._costs:
            return True
        untimed = self._untimed.get(kind, 0) + 1
        self._untimed[kind] = untimed % TIMED_EVERY
        return untimed == TIMED_EVERY

    def learn(self, game: Game, seconds: float) -> None:
        """A bar of ``game``'s phase took ``seconds`` of processor time."""
        kind = (game.players, game.phase)
        expected = self._costs.get(kind)
        self._costs[kind] = (
            seconds if expected is None else expected + LEARNING * (seconds - expected)
        )

    def add(self, bars: WinBars) -> None:
        self._tables[bars] = None
        if not self._scheduled:
            self._look_next_turn()

    def _look_next_turn(self) -> None:
        loop = self._loop()
        if loop is None:
            return
        self._scheduled = True
        self._looked = time.thread_time()
        loop.call_soon(self._run)

    def _run(self) -> None:
        self._scheduled = False
        if not self._tables:
            return
        now = time.perf_counter()
        bars = next(iter(self._tables))
        quiet = time.thread_time() - self._looked < QUIET_TURN_SECONDS
        overdue = now - bars.asked_at > OVERDUE_SECONDS
        if quiet or (overdue and now >= self._next_forced):
            started = time.thread_time()
            del self._tables[bars]
            if bars.work_out_one(self):
                self._tables[bars] = None  # its next view after the other tables'
            if not quiet:
                took = time.thread_time() - started
                self._next_forced = time.perf_counter() + took * (1 / OVERDUE_SHARE - 1)
        if self._tables:
            self._look_next_turn()


_QUEUES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, BarQueue] = (
    weakref.WeakKeyDictionary()
)


def bar_queue() -> BarQueue:
    """The running event loop's queue of waiting bars. Raises RuntimeError outside one."""
    loop = asyncio.get_running_loop()
    queue = _QUEUES.get(loop)
    if queue is None:
        queue = _QUEUES[loop] = BarQueue(loop)
    return queue
