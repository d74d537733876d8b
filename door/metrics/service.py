"""The metrics of one serving process, from start to stop (door/serve.py drives it).

Opened first, so that ``/healthz`` answers and ``/readyz`` says "starting" while the
database is opened and the computer's tables load; shown the door once there is one;
ready once the door listens; "stopping" from the moment it begins to shut down.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client.registry import CollectorRegistry

from door.metrics.collect import DoorCollector
from door.metrics.endpoint import (
    WORKER_SOCKETS_VARIABLE,
    ParentEndpoint,
    health_app,
    listen_tcp,
    serve_socket,
    serve_unix,
    worker_socket,
)
from door.metrics.watch import Health, Watch

logger = logging.getLogger("door")

if TYPE_CHECKING:
    from door.app.door import Door
    from door.app.records import Records
    from door.cluster.link import ClusterLink
    from door.cluster.workers import WorkerPlace
    from door.config import Config


class MetricsService:
    """Off (does nothing) unless ``[metrics] port`` is set."""

    def __init__(self, config: Config, worker: WorkerPlace | None = None) -> None:
        self.config = config
        self.worker = worker
        self.health = Health()
        self.collector = DoorCollector(None, self.health, worker.name if worker else "main")
        self.port = 0
        """The port listened on (one process), once open."""
        self._runner: web.AppRunner | None = None
        self._watch: Watch | None = None

    @property
    def on(self) -> bool:
        return bool(self.config.metrics.port) and self._socket_folder() is not False

    def _socket_folder(self) -> Path | None | bool:
        """A worker's folder for its socket; None for a process on its own; False for a
        worker whose parent serves no metrics."""
        if self.worker is None or self.worker.count <= 1:
            return None
        folder = os.environ.get(WORKER_SOCKETS_VARIABLE)
        return Path(folder) if folder else False

    async def open(self) -> None:
        """Start answering (raises ConfigError for a port in use)."""
        if not self.on:
            return
        registry = CollectorRegistry(auto_describe=False)
        registry.register(self.collector)
        app = health_app(registry, self.health)
        folder = self._socket_folder()
        if isinstance(folder, Path) and self.worker is not None:
            self._runner = await serve_unix(app, worker_socket(folder, self.worker.index))
            return
        metrics = self.config.metrics
        sock = listen_tcp(metrics.host, metrics.port)
        self.port = int(sock.getsockname()[1])
        self._runner = await serve_socket(app, sock)

    def serving(self, door: Door, records: Records, link: ClusterLink | None) -> None:
        """The door is made and linked: count it, and watch its stores and loop."""
        if not self.on:
            return
        self.collector.door = door
        self._watch = Watch(self.health, records, link)
        self._watch.start()

    def ready(self) -> None:
        self.health.starting = False

    def stopping(self) -> None:
        self.health.stopping = True

    async def close(self) -> None:
        if self._watch is not None:
            await self._watch.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


@contextlib.contextmanager
def parent_metrics(config: Config, count: int) -> Iterator[None]:
    """While the parent of ``count`` workers supervises them: its ``[metrics]`` port,
    summing the workers' own (each on a socket in a folder made here, named to them by
    ``WORKER_SOCKETS_VARIABLE``). Raises ConfigError for a port in use."""
    if not config.metrics.port:
        yield
        return
    folder = Path(tempfile.mkdtemp(prefix="cribbage-door-metrics-"))
    endpoint = ParentEndpoint(config, count, folder)
    try:
        endpoint.start()
        os.environ[WORKER_SOCKETS_VARIABLE] = str(folder)
        logger.info("metrics: http://%s:%d/metrics", config.metrics.host, endpoint.port)
        yield
    finally:
        os.environ.pop(WORKER_SOCKETS_VARIABLE, None)
        endpoint.stop()
        shutil.rmtree(folder, ignore_errors=True)
