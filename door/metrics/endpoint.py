"""``/metrics``, ``/healthz`` and ``/readyz`` over HTTP (aiohttp, which the door has).

A door of one process serves them on ``[metrics] host:port`` from its event loop. With
several workers the parent serves that port, from a thread of its own, and each worker
serves the same three on a Unix socket in a folder only the parent made
(``WORKER_SOCKETS_VARIABLE``): the parent's ``/metrics`` asks every worker and sums
their samples by name and labels (a per-worker metric carries a ``worker`` label, so it
stays apart), and its ``/readyz`` is ready when every worker is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Final

from aiohttp import ClientSession, ClientTimeout, UnixConnector, web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector, CollectorRegistry

from door.config import Config, ConfigError
from door.metrics.watch import Health

logger = logging.getLogger(__name__)

WORKER_SOCKETS_VARIABLE: Final = "CRIBBAGE_DOOR_METRICS_DIR"
"""Set by the parent of several workers: the folder of their metrics sockets."""
WORKER_ANSWER_SECONDS: Final = 2.0
"""How long the parent waits for a worker's metrics: a worker that cannot answer in this
time is not ready (its event loop is stuck)."""
MAX_WORKER_ANSWER: Final = 16 * 1024 * 1024


_Handler = Callable[[web.Request], Awaitable[web.Response]]


def worker_socket(folder: Path, index: int) -> Path:
    return folder / f"worker-{index + 1}.sock"


def health_app(registry: CollectorRegistry, health: Health) -> web.Application:
    """The three pages for one process."""

    async def metrics(request: web.Request) -> web.Response:
        return _exposition(generate_latest(registry))

    async def readyz(request: web.Request) -> web.Response:
        if health.ready:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {health.why_not_ready()}\n")

    return _app(metrics, readyz)


def _app(metrics: _Handler, readyz: _Handler) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    app = web.Application(client_max_size=1024)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    return app


def _exposition(body: bytes) -> web.Response:
    response = web.Response(body=body)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return response


def listen_tcp(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; raises ConfigError naming the key when the
    port cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as error:
        raise ConfigError(
            f"metrics.port: cannot listen on {host}:{port} ({error.strerror or error})"
        ) from None


async def serve_socket(app: web.Application, sock: socket.socket) -> web.AppRunner:
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    return runner


async def serve_unix(app: web.Application, path: Path) -> web.AppRunner:
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # the socket of this worker's predecessor, which died
    await web.UnixSite(runner, str(path)).start()
    return runner


# --- the parent of several workers -----------------------------------------------------


class WorkerSum(Collector):
    """The workers' samples, summed by name and labels, as read by ``gather``."""

    def __init__(self, answers: list[str], expected: int) -> None:
        self.answers = answers
        self.expected = expected

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        sums: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
        for text in self.answers:
            for family in text_string_to_metric_families(text):
                if family.name not in families:
                    families[family.name] = Metric(family.name, family.documentation, family.type)
                    sums[family.name] = {}
                samples = sums[family.name]
                for sample in family.samples:
                    key = (sample.name, tuple(sorted(sample.labels.items())))
                    samples[key] = samples.get(key, 0.0) + sample.value
        for name, family in families.items():
            for (sample_name, labels), value in sums[name].items():
                family.add_sample(sample_name, dict(labels), value)
            yield family
        workers = GaugeMetricFamily(
            "cribbage_door_workers", "Workers answering, and how many the door runs", labels=["of"]
        )
        workers.add_metric(["answering"], len(self.answers))
        workers.add_metric(["configured"], self.expected)
        yield workers


class ParentEndpoint:
    """The parent's ``[metrics]`` port, served from a thread with an event loop of its own
    while the parent supervises its workers (door/cluster/workers.py)."""

    def __init__(self, config: Config, count: int, folder: Path) -> None:
        self.config = config
        self.count = count
        self.folder = folder
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="metrics", daemon=True)
        self._listening: list[int] = []

    def start(self) -> None:
        """Listen (raises ConfigError for a port in use); the workers forked later close
        their copy of the listening socket."""
        metrics = self.config.metrics
        sock = listen_tcp(metrics.host, metrics.port)
        self.port = int(sock.getsockname()[1])
        self._listening = [sock.fileno()]
        os.register_at_fork(after_in_child=self._close_in_child)
        self._thread.start()
        app = _app(self._metrics, self._readyz)
        future = asyncio.run_coroutine_threadsafe(serve_socket(app, sock), self._loop)
        self._runner = future.result(10)

    def _close_in_child(self) -> None:
        for fileno in self._listening:
            with contextlib.suppress(OSError):
                os.close(fileno)
        self._listening = []

    def stop(self) -> None:
        if self._runner is not None:
            future = asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop)
            with contextlib.suppress(Exception):
                future.result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._listening = []

    async def _metrics(self, request: web.Request) -> web.Response:
        answers = [text for _, (status, text) in await self._ask_all("/metrics") if status == 200]
        registry = CollectorRegistry(auto_describe=False)
        registry.register(WorkerSum(answers, self.count))
        return _exposition(generate_latest(registry))

    async def _readyz(self, request: web.Request) -> web.Response:
        reasons = []
        for name, (status, text) in await self._ask_all("/readyz"):
            if status == 0:
                reasons.append(f"{name} does not answer")
            elif status != 200:
                reasons.append(f"{name} {text.strip().removeprefix('not ready: ')[:200]}")
        if reasons:
            return web.Response(status=503, text=f"not ready: {'; '.join(reasons)}\n")
        return web.Response(text="ready\n")

    async def _ask_all(self, page: str) -> list[tuple[str, tuple[int, str]]]:
        """Each worker's name and its answer to ``page``: status (0: no answer) and body."""
        asked = [self._ask(worker_socket(self.folder, index), page) for index in range(self.count)]
        answers = await asyncio.gather(*asked)
        return [(f"worker-{index + 1}", answer) for index, answer in enumerate(answers)]

    async def _ask(self, path: Path, page: str) -> tuple[int, str]:
        try:
            async with (
                ClientSession(
                    connector=UnixConnector(path=str(path)),
                    timeout=ClientTimeout(total=WORKER_ANSWER_SECONDS),
                ) as session,
                session.get(f"http://worker{page}") as response,
            ):
                body = await response.content.read(MAX_WORKER_ANSWER)
                return response.status, body.decode("utf-8", "replace")
        except Exception as error:  # a worker not (yet) there, or stuck: no answer
            logger.debug("metrics: %s did not answer: %r", path.name, error)
            return 0, ""
