"""``cribbage-door status``: the running door's state, read from its ``/readyz`` and
``/metrics`` (so ``[metrics] port`` must be on), in a few lines for the sysop.

Exit status: 0 ready, 1 not running (nothing answers), 3 running but not ready,
2 a configuration that cannot be used (metrics off, a bad file).
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request
from collections.abc import Iterable
from typing import Final

from prometheus_client.parser import text_string_to_metric_families

from door.config import Config, ConfigError

NOT_RUNNING: Final = 1
BAD_CONFIG: Final = 2
NOT_READY: Final = 3
ASK_SECONDS: Final = 5.0
MAX_ANSWER: Final = 16 * 1024 * 1024
_ANY_ADDRESS: Final = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}

Samples = dict[str, list[tuple[dict[str, str], float]]]


def add_status_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument(
        "--metrics-port", type=int, metavar="N", help="the door's metrics port (else the config's)"
    )


def status_command(args: argparse.Namespace) -> int:
    from door.serve import config_from_args

    try:
        config = config_from_args(args)
    except ConfigError as error:
        print(f"cribbage-door status: {error}", file=sys.stderr)
        return BAD_CONFIG
    if not config.metrics.port:
        print(
            "cribbage-door status: metrics are off ([metrics] port = 0): status reads the "
            "running door's /metrics, so set a port (and restart the door)",
            file=sys.stderr,
        )
        return BAD_CONFIG
    base = base_url(config)
    try:
        ready_status, ready_text = ask(f"{base}/readyz")
        _, metrics_text = ask(f"{base}/metrics")
    except OSError as error:
        reason = getattr(error, "reason", error)
        print(f"cribbage-door is not running: nothing answers at {base} ({reason})")
        return NOT_RUNNING
    samples = parse(metrics_text)
    ready = ready_status == 200
    state = "ready" if ready else ready_text.strip() or f"not ready (HTTP {ready_status})"
    print(f"cribbage-door at {base}: {state}")
    for line in describe(samples):
        print(line)
    return 0 if ready else NOT_READY


def base_url(config: Config) -> str:
    host = _ANY_ADDRESS.get(config.metrics.host, config.metrics.host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{config.metrics.port}"


def ask(url: str) -> tuple[int, str]:
    """The status and body of ``url``; a 503 is an answer, not an error. Raises OSError
    when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=ASK_SECONDS) as response:
            return int(response.status), response.read(MAX_ANSWER).decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return int(error.code), error.read(MAX_ANSWER).decode("utf-8", "replace")


def parse(text: str) -> Samples:
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    return {labels.get(label, ""): value for labels, value in samples.get(name, [])}


def one(samples: Samples, name: str) -> float:
    return sum(value for _, value in samples.get(name, []))


def describe(samples: Samples) -> list[str]:
    """The lines ``status`` prints after the first."""
    transports = by_label(samples, "cribbage_door_callers", "transport")
    places = by_label(samples, "cribbage_door_callers_by_place", "place")
    games = by_label(samples, "cribbage_door_games", "kind")
    lines = [
        f"callers: {_total(transports.values())} ({_each(transports)}); {_each(places)}",
        f"games: {_total(games.values())} ({_each(games)})",
    ]
    keys = one(samples, "cribbage_door_last_minute_keys")
    within = by_label(samples, "cribbage_door_last_minute_keys_answered_within", "le")
    p99 = percentile(within, 0.99)
    latency = "no keys" if p99 is None else f"p99 key to screen {_seconds(p99)}"
    lines.append(f"keys: {keys / 60:.1f}/s over the last minute; {latency}")
    ready = by_label(samples, "cribbage_door_ready", "worker")
    workers = by_label(samples, "cribbage_door_workers", "of")
    if workers:
        each = ", ".join(
            f"{name} {'ready' if up else 'not ready'}" for name, up in sorted(ready.items())
        )
        answering, configured = int(workers.get("answering", 0)), int(workers.get("configured", 0))
        lines.append(f"workers: {answering} of {configured} answering ({each})")
    else:
        lines.append("workers: one process")
    for store, name in (
        ("database", "cribbage_door_database_up"),
        ("Redis", "cribbage_door_redis_up"),
    ):
        up = by_label(samples, name, "worker")
        if up:
            lines.append(f"{store.replace('redis', 'Redis')}: {_health(up)}")
    lag = by_label(samples, "cribbage_door_event_loop_lag_seconds", "worker")
    if lag:
        lines.append(f"event loop lag: longest {_seconds(max(lag.values()))} over 5 s")
    return lines


def percentile(within: dict[str, float], fraction: float) -> float | None:
    """The bound of the first bucket holding ``fraction`` of the keys (None: no keys);
    past the last finite bound, that bound (the p99 is at least that)."""
    bounds = sorted((float(le), count) for le, count in within.items())
    total = bounds[-1][1] if bounds else 0
    if total <= 0:
        return None
    finite = [bound for bound, _ in bounds if bound != float("inf")]
    for bound, count in bounds:
        if count >= fraction * total:
            return bound if bound != float("inf") else (finite[-1] if finite else None)
    return None


def _each(counts: dict[str, float]) -> str:
    return ", ".join(f"{name} {int(count)}" for name, count in counts.items())


def _total(values: Iterable[float]) -> int:
    return int(sum(values))


def _seconds(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _health(up: dict[str, float]) -> str:
    if len(up) == 1:
        return "up" if next(iter(up.values())) else "DOWN"
    down = [worker for worker, value in sorted(up.items()) if not value]
    return "up" if not down else f"DOWN at {', '.join(down)}"
