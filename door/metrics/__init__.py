"""What a running door shows of itself: Prometheus metrics, health checks, ``status``.

``tally`` holds the plain counts the key path bumps (no locks, no prometheus_client on
that path); ``collect`` turns them, and the door's own state read at scrape time, into
metric families; ``endpoint`` serves ``/metrics``, ``/healthz`` and ``/readyz`` (one
process, a worker's private socket, or the parent summing its workers); ``watch`` measures
the event loop's lag and whether the stores can be reached; ``status`` is the command.
"""
