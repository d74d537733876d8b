"""``cribbage-door serve --workers N``: N processes, one door.

The parent does what must happen once (door/serve.py's ``prepare_once``: the data folder,
the SSH host keys, the database's schema), then forks the workers. Each runs the whole
server on the same ports, opened with SO_REUSEPORT, so the kernel spreads connections
between them; they share who is online, the lobby and games across workers through Redis
(door/cluster/link.py) and keep accounts and games in one database. The parent only
watches: a worker that dies (``kill -9``, a crash) is started again, its callers call back
to whichever worker the kernel picks and find their games where the store has them.
SIGTERM or SIGINT stops every worker cleanly.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from door.config import Config, ConfigError

logger = logging.getLogger("door")

STOP_WAIT_SECONDS: Final = 15.0
"""How long stopping waits for workers to tell their callers and save, before killing."""
STOP_CHECK_SECONDS: Final = 0.1
"""How often the parent looks whether it should stop, while it waits."""
WORKER_STOP_SECONDS: Final = 12.0
"""A worker still stopping after this long leaves at once, saying so (within the parent's
STOP_WAIT_SECONDS, and when it was sent SIGTERM by hand, which the parent does not watch)."""
QUICK_DEATH_SECONDS: Final = 10.0
"""A worker that dies sooner than this after starting waits before it is started again,
longer each time, so a worker that cannot start does not spin."""
MAX_RESTART_WAIT_SECONDS: Final = 30.0
CONFIG_ERROR_EXIT: Final = 2
STUCK_EXIT: Final = 3
"""The exit status of a process that did not stop cleanly in time (``leave_if_stuck``)."""


@dataclass(frozen=True)
class WorkerPlace:
    """Which worker this process is (``index`` from 0) of how many."""

    index: int
    count: int

    @property
    def name(self) -> str:
        return f"worker-{self.index + 1}"


def worker_count(wanted: int) -> int:
    """``wanted`` workers, 0 meaning one for each core this process may run on."""
    if wanted > 0:
        return wanted
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def check_cluster(config: Config, count: int) -> None:
    """More than one worker needs Redis, or each would have a lobby of its own."""
    if count > 1 and not config.cluster.redis_url:
        raise ConfigError(
            f"{count} workers need cluster.redis_url: without Redis each worker would have "
            "a lobby of its own"
        )


RunWorker = Callable[[Config, WorkerPlace], int]


def supervise(config: Config, count: int, run_worker: RunWorker) -> int:
    """Run ``count`` workers until SIGTERM or SIGINT; returns the exit status."""
    context = multiprocessing.get_context("fork")
    stopping = False
    hurry = False

    def stop(signum: int, frame: object) -> None:
        """The first SIGTERM or SIGINT stops the workers cleanly; a second, at once."""
        nonlocal stopping, hurry
        hurry = stopping
        stopping = True

    def is_stopping() -> bool:
        return stopping

    def in_a_hurry() -> bool:
        return hurry

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    running: dict[int, tuple[multiprocessing.process.BaseProcess, float]] = {}
    quick_deaths = [0] * count

    def start(index: int) -> None:
        place = WorkerPlace(index, count)
        process = context.Process(
            target=_worker_main, args=(run_worker, config, place), name=place.name
        )
        process.start()
        running[index] = (process, time.monotonic())
        logger.info("%s started (pid %d)", place.name, process.pid)

    try:
        for index in range(count):
            start(index)
        while not stopping:
            sentinels = {process.sentinel: index for index, (process, _) in running.items()}
            ready = multiprocessing.connection.wait(list(sentinels), timeout=1.0)
            for sentinel in ready:
                index = sentinels[int(sentinel)]  # type: ignore[arg-type]
                process, started = running.pop(index)
                process.join()
                if stopping:
                    break
                code = process.exitcode
                if code == CONFIG_ERROR_EXIT:
                    logger.error("worker-%d could not start: stopping the door", index + 1)
                    stopping = True
                    _stop_all(running, in_a_hurry)
                    return CONFIG_ERROR_EXIT
                lived = time.monotonic() - started
                quick_deaths[index] = quick_deaths[index] + 1 if lived < QUICK_DEATH_SECONDS else 0
                wait = min(MAX_RESTART_WAIT_SECONDS, float(2 ** quick_deaths[index]) - 1)
                logger.warning(
                    "worker-%d (pid %d) ended with %s after %.0f s: starting it again%s",
                    index + 1,
                    process.pid,
                    _exit_text(code),
                    lived,
                    f" in {wait:.0f} s" if wait else "",
                )
                if wait:
                    _sleep_unless(is_stopping, wait)
                if not stopping:
                    start(index)
        _stop_all(running, in_a_hurry)
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _sleep_unless(stopping: Callable[[], bool], seconds: float) -> None:
    """Sleep ``seconds``, or less if the door is stopping meanwhile (a signal does not
    cut ``time.sleep`` short): a SIGTERM while a worker waits to be started again stops
    the door at once."""
    deadline = time.monotonic() + seconds
    while not stopping() and time.monotonic() < deadline:
        time.sleep(min(STOP_CHECK_SECONDS, max(0.0, deadline - time.monotonic())))


def _stop_all(
    running: dict[int, tuple[multiprocessing.process.BaseProcess, float]],
    hurry: Callable[[], bool] = lambda: False,
) -> None:
    """SIGTERM each worker (each tells its callers goodbye and saves), then wait; a
    worker still there after STOP_WAIT_SECONDS, or once ``hurry`` says so (a second
    signal), is killed."""
    for process, _ in running.values():
        if process.is_alive() and process.pid is not None:
            os.kill(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT_SECONDS
    for process, _ in running.values():
        while process.is_alive() and not hurry() and time.monotonic() < deadline:
            process.join(STOP_CHECK_SECONDS)
        if process.is_alive():
            logger.warning("%s did not stop: killing it", process.name)
            process.kill()
            process.join()
    running.clear()


def leave_if_stuck(seconds: float) -> threading.Timer:
    """Once this process has begun stopping: end it after ``seconds`` if it has not ended
    by then. Something may hold up a clean stop (a call that never returns, a task that
    will not end); the sysop's SIGTERM must stop the process all the same. The timer's
    thread runs even while the event loop is stuck."""

    def leave() -> None:
        with contextlib.suppress(Exception):
            logger.error("still stopping after %.0f s: leaving at once", seconds)
            logging.shutdown()
        os._exit(STUCK_EXIT)

    timer = threading.Timer(seconds, leave)
    timer.daemon = True
    timer.start()
    return timer


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        return f"signal {signal.Signals(-code).name}"
    return f"exit status {code}"


def _worker_main(run_worker: RunWorker, config: Config, place: WorkerPlace) -> None:
    # The parent's handlers only set its flag; a worker stops through its event loop.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    status = run_worker(config, place)
    logging.shutdown()
    os._exit(status)
