"""The door's metrics, made at scrape time from ``TALLY`` and the door's own state.

Nothing is updated as callers come and go: who is on and where, and the games, are read
from the door's sessions and presence when Prometheus asks, and the counts the key path
bumps (door/metrics/tally.py) are copied out then. A metric that only makes sense per
process (the event loop's lag, the stores' health) carries a ``worker`` label, so that
the parent of several workers can sum every sample by name and labels
(door/metrics/endpoint.py) and get the door's totals and each worker's own figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from door import version
from door.metrics.tally import KEY_SECONDS_BUCKETS, TALLY, Tally
from door.metrics.watch import Health, KeySnapshot

if TYPE_CHECKING:
    from door.app.door import Door

TRANSPORTS: Final = ("telnet", "ssh", "web", "rlogin", "door")
"""Always listed, at 0 when nobody is on them, so a graph has its lines from the start."""
PLACES: Final = ("lobby", "playing", "watching")
GAME_KINDS: Final = ("computer", "callers", "mail", "tournament")
_TRANSPORT_NAMES: Final = {"web-telnet": "web"}
"""Transports reported under another's name (the browser's telnet gateway is the web)."""


def transport_label(transport: str) -> str | None:
    """The ``transport`` label for a session's transport; None for a relayed line (its
    caller is counted by the worker they called, door/cluster/relay.py)."""
    if transport.endswith(" relayed"):
        return None
    return _TRANSPORT_NAMES.get(transport, transport)


def place_label(place: str) -> str:
    """``playing``, ``watching`` or ``lobby`` (the lobby's own pages: mail, tournaments)."""
    if place.startswith("playing"):
        return "playing"
    if place.startswith("watching"):
        return "watching"
    return "lobby"


class DoorCollector(Collector):
    """This process's metrics: ``door`` is read at each scrape, ``health`` says whether it
    is ready, ``worker`` names it ("main" for a door of one process)."""

    def __init__(
        self, door: Door | None, health: Health, worker: str, tally: Tally = TALLY
    ) -> None:
        self.door = door
        self.health = health
        self.worker = worker
        self.tally = tally

    def collect(self) -> Iterator[Metric]:
        if self.door is not None:  # None while it starts
            yield from self._callers(self.door)
            yield from self._games(self.door)
        yield from counted(self.tally)
        yield from self._last_minute()
        yield from self._health()

    def _callers(self, door: Door) -> Iterator[Metric]:
        by_transport = dict.fromkeys(TRANSPORTS, 0)
        relayed = 0
        for transport, count in list(door.transports.items()):
            label = transport_label(transport)
            if label is None:
                relayed += count
            elif count:
                by_transport[label] = by_transport.get(label, 0) + count
        callers = GaugeMetricFamily(
            "cribbage_door_callers", "Callers connected, by transport", labels=["transport"]
        )
        for transport, count in by_transport.items():
            callers.add_metric([transport], count)
        yield callers
        yield GaugeMetricFamily(
            "cribbage_door_relayed_lines",
            "Lines relayed here from another worker, whose table this worker holds",
            value=relayed,
        )
        by_place = dict.fromkeys(PLACES, 0)
        for member in list(door.presence.members.values()):
            by_place[place_label(member.place)] += 1
        places = GaugeMetricFamily(
            "cribbage_door_callers_by_place",
            "Callers who have given a name, by where they are (lobby, playing, watching)",
            labels=["place"],
        )
        for place, count in by_place.items():
            places.add_metric([place], count)
        yield places

    def _games(self, door: Door) -> Iterator[Metric]:
        kinds = dict.fromkeys(GAME_KINDS, 0)
        for table in list(door.presence.tables):
            if table.over or table.exhibition:
                continue
            if getattr(table.options, "tournament", None):
                kinds["tournament"] += 1
            elif all(seat.human for seat in table.seats):
                kinds["callers"] += 1
            else:
                kinds["computer"] += 1
        for member in list(door.presence.members.values()):
            if member.place.startswith("playing") and member.place.endswith("by mail"):
                kinds["mail"] += 1  # a move being made now: the game itself waits in the store
        games = GaugeMetricFamily(
            "cribbage_door_games",
            "Games being played now, by kind (computer, callers, mail: a caller on a move, "
            "tournament)",
            labels=["kind"],
        )
        for kind, count in kinds.items():
            games.add_metric([kind], count)
        yield games

    def _last_minute(self) -> Iterator[Metric]:
        """The keys since the oldest snapshot (a minute ago, once the door has run that
        long): summable across workers, unlike a percentile, so ``status`` works out
        the door's p99 from the sum."""
        history = self.health.key_history
        now = KeySnapshot.of(self.tally)
        then = history[0] if history else KeySnapshot(0, (0,) * len(now.buckets), 0.0)
        yield GaugeMetricFamily(
            "cribbage_door_last_minute_keys",
            "Keys callers sent over the last minute (for cribbage-door status; graph "
            "rate(cribbage_door_keys_total[1m]) instead)",
            value=now.keys - then.keys,
        )
        within = GaugeMetricFamily(
            "cribbage_door_last_minute_keys_answered_within",
            "Keys of the last minute answered within le seconds (cumulative, as histogram "
            "buckets are; for cribbage-door status)",
            labels=["le"],
        )
        running = 0
        bounds = (*KEY_SECONDS_BUCKETS, float("inf"))
        for bound, count, before in zip(bounds, now.buckets, then.buckets, strict=True):
            running += count - before
            within.add_metric([_bound_text(bound)], running)
        yield within

    def _health(self) -> Iterator[Metric]:
        health, worker = self.health, [self.worker]
        ready = GaugeMetricFamily(
            "cribbage_door_ready",
            "1 when this worker takes callers (started, not stopping, its stores reachable)",
            labels=["worker"],
        )
        ready.add_metric(worker, 1 if health.ready else 0)
        yield ready
        for name, up, what in (
            ("database", health.database_up, "the database answers"),
            ("redis", health.redis_up, "the link to Redis (several workers) answers"),
        ):
            if up is None:
                continue
            family = GaugeMetricFamily(
                f"cribbage_door_{name}_up", f"1 while {what}", labels=["worker"]
            )
            family.add_metric(worker, 1 if up else 0)
            yield family
        if health.database_up is not None:
            answer = GaugeMetricFamily(
                "cribbage_door_database_answer_seconds",
                "How long the database took to answer its last health question, waiting "
                "for a pooled connection included",
                labels=["worker"],
            )
            answer.add_metric(worker, health.database_seconds)
            yield answer
        lag = GaugeMetricFamily(
            "cribbage_door_event_loop_lag_seconds",
            "Longest the event loop was late for a timer over the last few seconds "
            "(a stall every caller of this worker felt)",
            labels=["worker"],
        )
        lag.add_metric(worker, health.loop_lag)
        yield lag
        gc_pauses = CounterMetricFamily(
            "cribbage_door_gc_pauses",
            "Garbage collections (each pauses this worker)",
            labels=["worker"],
        )
        gc_pauses.add_metric(worker, self.tally.gc_pauses)
        yield gc_pauses
        gc_seconds = CounterMetricFamily(
            "cribbage_door_gc_seconds", "Time spent paused in garbage collection", labels=["worker"]
        )
        gc_seconds.add_metric(worker, self.tally.gc_seconds)
        yield gc_seconds
        info = GaugeMetricFamily(
            "cribbage_door_info", "The door's version", labels=["worker", "version"]
        )
        info.add_metric([self.worker, version()], 1)
        yield info


def counted(tally: Tally) -> Iterator[Metric]:
    """The counts since this process started, summable across workers."""
    yield CounterMetricFamily(
        "cribbage_door_keys", "Keys callers have sent (after the rate limit)", value=tally.keys
    )
    buckets: list[tuple[str, float]] = []
    running = 0
    for bound, count in zip((*KEY_SECONDS_BUCKETS, float("inf")), tally.key_buckets, strict=True):
        running += count
        buckets.append((_bound_text(bound), running))
    yield HistogramMetricFamily(
        "cribbage_door_key_seconds",
        "From a key coming in to the frame answering it handed to the caller's line",
        buckets=buckets,
        sum_value=tally.key_seconds_sum,
    )
    yield CounterMetricFamily(
        "cribbage_door_frames", "Frames (screen updates) sent to callers", value=tally.frames
    )
    yield CounterMetricFamily(
        "cribbage_door_sent_bytes", "Bytes sent to callers' lines", value=tally.bytes_sent
    )
    signins = CounterMetricFamily(
        "cribbage_door_signins",
        "Sign-ins with a password or key, by result (ok, failed)",
        labels=["result"],
    )
    for result, count in tally.signins.items():
        signins.add_metric([result], count)
    yield signins
    refused = CounterMetricFamily(
        "cribbage_door_refused_connections",
        "Connections or sign-ins turned away, by reason (limits: too many from one "
        "address; bans: an address refused after failed sign-ins; load: the door is full)",
        labels=["reason"],
    )
    for reason, count in tally.refused.items():
        refused.add_metric([reason], count)
    yield refused
    yield CounterMetricFamily(
        "cribbage_door_save_failures",
        "Saves of a game in progress the database refused (each is retried)",
        value=tally.save_failures,
    )
    yield CounterMetricFamily(
        "cribbage_door_database_waits",
        "Database transactions begun (each waits for a pooled connection)",
        value=tally.database_waits,
    )
    yield CounterMetricFamily(
        "cribbage_door_database_wait_seconds",
        "Time transactions waited for a database connection and its BEGIN",
        value=tally.database_wait_seconds,
    )
    yield CounterMetricFamily(
        "cribbage_door_computer_decisions",
        "Decisions the computer made",
        value=tally.computer_decisions,
    )
    yield CounterMetricFamily(
        "cribbage_door_computer_seconds",
        "Time callers waited for the computer's decisions (its thread pool's queue included)",
        value=tally.computer_seconds,
    )
    yield CounterMetricFamily(
        "cribbage_door_win_bar_updates", "Win bars worked out", value=tally.win_bar_updates
    )
    yield CounterMetricFamily(
        "cribbage_door_win_bar_seconds",
        "Time spent working out win bars (on the event loop)",
        value=tally.win_bar_seconds,
    )


def _bound_text(bound: float) -> str:
    return "+Inf" if bound == float("inf") else repr(bound)
