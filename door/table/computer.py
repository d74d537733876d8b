"""The computer at the table: its answers to the table's questions, its slow decisions
made off the event loop and its quick ones on it.

A decision is pure CPU work over a snapshot of the game, so a small thread pool is
enough to keep other callers' keys flowing while an expert weighs a discard; the pool
is bounded so a crowd of games cannot start a crowd of threads. Handing work to a
thread costs more than a quick decision (a cut, a claim, anything at the easy and
normal levels: under half a millisecond, bench/load.py's profile), so those are made
at once. The master's C searches of the play let the GIL go while they search
(engine/computer/_peg.c, _table_peg.c): the loop runs on meanwhile, where it stood
still for up to 28 ms at three players.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from door.metrics.tally import TALLY
from door.table.question import Count, Cut, Discard, Play, PlayAgain, Question
from engine.computer.player import ComputerPlayer
from engine.rules.cards import Card
from engine.rules.game import Game

logger = logging.getLogger(__name__)

Result = TypeVar("Result")

QUICK_LEVELS: Final = frozenset({"easy", "normal"})
"""Levels whose every decision takes well under a millisecond (median 0.04-0.1 ms)."""
QUICK_DECISIONS: Final = frozenset({"cut", "claim"})
"""Decisions quick at any level."""

_pool: concurrent.futures.ThreadPoolExecutor | None = None


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="think")
    return _pool


def is_quick(decide: Callable[..., object]) -> bool:
    """Whether ``decide`` (a bound ComputerPlayer method) is quicker than a thread hop."""
    player = getattr(decide, "__self__", None)
    if not isinstance(player, ComputerPlayer):
        return False
    return player.level in QUICK_LEVELS or getattr(decide, "__name__", "") in QUICK_DECISIONS


async def think(decide: Callable[..., Result], *args: object, **kwargs: object) -> Result:
    """Await ``decide(*args, **kwargs)``: on a worker thread, or at once if it is quick."""
    started = time.perf_counter()
    try:
        if is_quick(decide):
            return decide(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_executor(), functools.partial(decide, *args, **kwargs))
    finally:
        TALLY.computer_decisions += 1
        TALLY.computer_seconds += time.perf_counter() - started


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


class Thoughts:
    """The computer's decisions one table waits for, so that closing it stops them."""

    def __init__(self) -> None:
        self._pending: list[asyncio.Future[Any]] = []

    async def decide(self, decide: Callable[..., Result], *args: object) -> Result | None:
        """The computer's decision: a quick one at once, on the live game (nothing can
        move it meanwhile), a slow one off the event loop on a snapshot; None if it
        failed.

        A failure is a bug in the computer player; it is logged, and the game goes on
        with a legal stand-in move rather than ending."""
        # A quick decision is made before anything else runs: no snapshot (copying the
        # shuffler's state cost more than most decisions) and no task. A worker decides
        # on a snapshot: the live game may move on meanwhile (a person's discard), and
        # nothing the computer does can reach it.
        quick = is_quick(decide)
        if not quick:
            args = tuple(arg.snapshot() if isinstance(arg, Game) else arg for arg in args)
        try:
            if quick:
                started = time.perf_counter()
                try:
                    return decide(*args)
                finally:
                    TALLY.computer_decisions += 1
                    TALLY.computer_seconds += time.perf_counter() - started
            future = asyncio.ensure_future(think(decide, *args))
            self._pending.append(future)
            try:
                return await future
            finally:
                self._pending.remove(future)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("the computer player failed in %r", decide)
            return None

    def cancel(self) -> None:
        for future in list(self._pending):
            future.cancel()


def checked_throw(thrown: Sequence[Card] | None, game: Game, seat: int) -> Sequence[Card]:
    """The computer's throw, or a legal stand-in if its answer is not one (a bug there
    must not stop the caller's game)."""
    hand = game.hand(seat)
    if (
        thrown is not None
        and len(set(thrown)) == len(thrown) == game.discard_count
        and all(card in hand for card in thrown)
    ):
        return thrown
    logger.error("the computer threw %r from %r; throwing the first cards instead", thrown, hand)
    return hand[: game.discard_count]


class ComputerSeat:
    """The computer answering the table's questions (door/table/question.py) for the seat
    at ``index``, as a caller answers them with keys (door/table/steps.py): a computer's
    seat, or a caller's seat it took over. ``rng`` stands in for a cut it failed at."""

    def __init__(
        self, player: ComputerPlayer, index: int, thoughts: Thoughts, rng: random.Random
    ) -> None:
        self.player = player
        self.index = index
        self.thoughts = thoughts
        self.rng = rng

    async def answer(self, question: Question[Any], game: Game) -> Any:
        """The computer's answer, or a legal stand-in where it failed or is wrong."""
        player, index, decide = self.player, self.index, self.thoughts.decide
        if isinstance(question, Discard):
            return list(checked_throw(await decide(player.discard, game, index), game, index))
        if isinstance(question, Cut):
            chosen = await decide(player.cut, game, index)
            valid = isinstance(chosen, int) and 1 <= chosen <= question.size
            return chosen if chosen is not None and valid else self.rng.randint(1, question.size)
        if isinstance(question, Play):
            card = await decide(player.play, game, index)
            return (
                card
                if card is not None and card in game.playable(index)
                else game.playable(index)[0]
            )
        if isinstance(question, Count):
            claim = await decide(player.claim, game, index)
            return claim if isinstance(claim, int) else 0
        if isinstance(question, PlayAgain):
            return False  # the caller is gone
        raise ValueError(f"the computer is not asked {question!r}")
