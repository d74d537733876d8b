"""``cribbage-door serve``: load the configuration, listen, and shut down cleanly."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import math
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from door import gc_policy, version
from door.app.door import Door
from door.app.mail_games import MailGames
from door.app.member_watch import start_member_watch
from door.app.records import Records
from door.cluster.workers import (
    CONFIG_ERROR_EXIT,
    WORKER_STOP_SECONDS,
    WorkerPlace,
    check_cluster,
    leave_if_stuck,
    supervise,
    worker_count,
)
from door.config import Config, ConfigError, load_config, with_overrides
from door.data_lock import DataFolderBusy, door_at_work
from door.defence.bans import BansInForce
from door.defence.guard import AddressGuard
from door.file_limit import raise_open_file_limit
from door.logtext import escape_log_lines
from door.metrics.service import MetricsService, parent_metrics
from door.paths import DataDirError, ensure_writable_dir
from door.scheduled_backup import start_scheduled_backups
from door.storage.settings import database_url, redact_url
from door.table import computer as thinking
from door.texts import use_texts_dir

if TYPE_CHECKING:
    from door.cluster.link import ClusterLink

logger = logging.getLogger("door")


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--host", help="address to listen on")
    parser.add_argument("--telnet-port", type=int, metavar="N", help="0 disables telnet")
    parser.add_argument("--ssh-port", type=int, metavar="N", help="0 disables SSH")
    parser.add_argument("--data-dir", metavar="DIR", help="where host keys and data live")
    parser.add_argument("--web-port", type=int, metavar="N", help="the browser page (0: off)")
    parser.add_argument(
        "--metrics-port", type=int, metavar="N", help="metrics and health checks (0: off)"
    )


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers",
        type=_workers,
        metavar="N",
        help="processes sharing the ports, 'auto' for one per core (needs cluster.redis_url)",
    )


def _workers(text: str) -> int:
    if text == "auto":
        return 0
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number or 'auto', not {text!r}") from None
    if not 1 <= count <= 256:
        raise argparse.ArgumentTypeError(f"from 1 to 256, not {count}")
    return count


@dataclass
class Listening:
    """What the server is listening on, reported once it is ready."""

    telnet: tuple[str, int] | None = None
    ssh: tuple[str, int] | None = None
    rlogin: tuple[str, int] | None = None
    web: tuple[str, int] | None = None
    servers: list[Any] = field(default_factory=list)


def _bound(server: Any) -> tuple[str, int]:
    address = server.sockets[0].getsockname()
    return (str(address[0]), int(address[1]))


async def start_listeners(door: Door, config: Config) -> Listening:
    """Open the configured listeners; raises ConfigError naming the key for a port in use
    (closing whatever had opened)."""
    from door.transports.ssh import start_ssh
    from door.transports.telnet import start_telnet

    server, host = config.server, config.server.host
    # (the field of Listening, the config key, its port, how to open it)
    wanted: list[tuple[str, str, int, Callable[[], Awaitable[Any]]]] = [
        ("telnet", "server.telnet_port", server.telnet_port,
         lambda: start_telnet(door, host, server.telnet_port)),
        ("ssh", "server.ssh_port", server.ssh_port,
         lambda: start_ssh(door, host, server.ssh_port, server.data_path,
                           server.ssh_legacy_algorithms)),
        ("rlogin", "rlogin.port", config.rlogin.port, lambda: _start_rlogin(door, config)),
        ("web", "web.port", config.web.port, lambda: _start_web(door, config)),
    ]  # fmt: skip
    listening = Listening()
    for name, key, port, start in wanted:
        if not port:
            continue
        try:
            opened = await start()
        except OSError as error:
            for earlier in listening.servers:
                earlier.close()
            raise ConfigError(
                f"{key}: cannot listen on {host}:{port} ({error.strerror or error})"
            ) from None
        listening.servers.append(opened)
        setattr(listening, name, _bound(opened))
    return listening


async def _start_rlogin(door: Door, config: Config) -> Any:
    from door.transports.rlogin import start_rlogin

    rlogin = config.rlogin
    return await start_rlogin(
        door, config.server.host, rlogin.port, rlogin.system_by_address, door.bans
    )


async def _start_web(door: Door, config: Config) -> Any:
    from door.transports.web import (
        start_web,  # aiohttp is loaded only by a door that serves the web
    )

    web = config.web
    return await start_web(door, config.server.host, web.port, web.allowed_origins)


YOUNG_COLLECTION: Final = 5_000
"""Allocations between young garbage collections, should the policy's timer be late
(door/gc_policy.py; bench/load.py at 1,200 callers: 5,000 gave shorter young pauses
than 20,000 and no more GC time)."""

FORFEIT_CHECK_SECONDS = 3600.0
"""How often overdue play-by-mail games are forfeited while the door runs."""


async def forfeit_overdue_mail_games(mail: MailGames, every: float = FORFEIT_CHECK_SECONDS) -> None:
    """Every ``every`` seconds, forfeit the play-by-mail games whose player ran out of
    time, until cancelled (the server does it once itself when it starts)."""
    while True:
        await asyncio.sleep(every)
        await mail.forfeit_overdue()


def prepare_computer_player() -> None:
    """Load the computer's tables and the win bar's now rather than in the first
    caller's game (the win bar's take a few tenths of a second, which every caller
    would wait through, and so do the expert's throws the master draws the opponent's
    hand through), then put everything long-lived out of the garbage collector's sight:
    a full collection over those objects would otherwise land inside some decision."""
    from engine.computer.discard_draws import (
        expert_first_plays,
        expert_keeps,
        expert_second_plays,
    )
    from engine.odds.hand_tables import load_tables
    from engine.odds.position import shipped_position
    from engine.odds.winbar import prepare as prepare_win_bar

    load_tables()
    shipped_position()
    prepare_win_bar()
    expert_keeps()
    expert_first_plays()
    expert_second_plays()
    gc.collect()
    gc.freeze()
    # A young collection every 700 allocations (Python's default) runs thousands of
    # times a second under load, each walking what merely waits (a caller's next key, a
    # frame being sent). The door's own timer freezes the young (door/gc_policy.py);
    # this is the backstop for a burst of allocation between two ticks.
    gc.set_threshold(YOUNG_COLLECTION, 10, 10)


async def run_server(
    config: Config,
    *,
    stop: asyncio.Event | None = None,
    on_ready: Callable[[Listening], None] | None = None,
    on_door: Callable[[Door], None] | None = None,
    worker: WorkerPlace | None = None,
    stop_within: float | None = None,
) -> None:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM), then tell callers and close.

    The database is opened first; if it cannot be used the door serves guests only.
    ``on_door`` is given the door once it listens (the console runs the sysop's session
    in it). With ``stop_within``, a process of its own: once stopping has begun it ends
    within that many seconds, however stopping goes (door/cluster/workers.py)."""
    started = time.monotonic()
    log_start(config)
    try:
        with door_at_work(config.server.data_path):
            await _serve(config, started, stop, on_ready, on_door, worker, stop_within)
    except DataFolderBusy as error:
        raise ConfigError(str(error)) from None


async def _serve(
    config: Config,
    started: float,
    stop: asyncio.Event | None,
    on_ready: Callable[[Listening], None] | None,
    on_door: Callable[[Door], None] | None,
    worker: WorkerPlace | None,
    stop_within: float | None,
) -> None:
    raise_open_file_limit(config.server.max_sessions)
    metrics = MetricsService(config, worker)
    await metrics.open()  # /readyz says "starting" from here
    try:
        records = await Records.open(config)
    except BaseException:
        await metrics.close()
        raise
    prepare_computer_player()
    door = Door(config, records=records)
    door.shares_ports = worker is not None and worker.count > 1
    if worker is not None and worker.count > 1:
        door.guard = worker_guard(config, worker.count, door.bans)
    # The bans are in force before the first caller arrives, and kept up to date.
    await door.moderation.refresh()
    moderation = asyncio.get_running_loop().create_task(door.moderation.run(), name="bans")
    try:
        # A worker of several is started again while the door runs on (the parent has
        # checked Redis once): it must come up even while Redis is away.
        link = await join_cluster(door, config, must_reach=worker is None or worker.count == 1)
    except BaseException:
        await _cancelled(moderation)
        await records.close()
        await metrics.close()
        raise
    metrics.serving(door, records, link)
    forfeits: asyncio.Task[None] | None = None
    if records.mail is not None and (worker is None or worker.index == 0):
        # The first pass runs before any caller can open a game that ran out of time.
        await records.mail.forfeit_overdue()
        forfeits = asyncio.get_running_loop().create_task(
            forfeit_overdue_mail_games(records.mail, FORFEIT_CHECK_SECONDS), name="mail forfeits"
        )
    backups = start_scheduled_backups(config) if worker is None or worker.index == 0 else None
    member_watch = start_member_watch(records.store, door.presence)  # each worker its own
    try:
        listening = await start_listeners(door, config)
    except BaseException:
        await _cancelled(member_watch)
        await _cancelled(backups)
        await _cancelled(forfeits)
        await _cancelled(moderation)
        if link is not None:
            await link.close()
        await records.close()
        await metrics.close()
        raise
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    if listening.telnet:
        logger.info("telnet: listening on %s port %d", *listening.telnet)
    if listening.ssh:
        logger.info("ssh: listening on %s port %d", *listening.ssh)
    if listening.web:
        logger.info("web: the page is at http://%s:%d/", *listening.web)
    if listening.rlogin:
        logger.info(
            "rlogin: listening on %s port %d for %d listed system(s)",
            *listening.rlogin,
            len(config.rlogin.systems),
        )
    if not listening.servers:
        logger.warning("both listeners are disabled (port 0): only the console can come in")
    if metrics.port:
        logger.info("metrics: http://%s:%d/metrics", config.metrics.host, metrics.port)
    logger.info("ready in %.2f s", time.monotonic() - started)
    metrics.ready()
    if on_ready is not None:
        on_ready(listening)
    if on_door is not None:
        on_door(door)
    freezing = gc_policy.install(
        loop,
        connections_closed=lambda: door.guard.closed,
        callers=lambda: door.caller_count,
        connections_seen=lambda: door.guard.arrived + door.guard.closed,
    )
    try:
        await stop.wait()
    finally:
        metrics.stopping()
        if stop_within is not None:
            leave_if_stuck(stop_within)
        logger.info("shutting down: telling %d caller(s)", door.caller_count)
        await door.shut_down()
        await _cancelled(member_watch)
        await _cancelled(backups)
        await _cancelled(forfeits)
        await _cancelled(moderation)
        if link is not None:
            await link.close()
        for server in listening.servers:
            server.close()
        for server in listening.servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 3.0)
        await records.close()
        await metrics.close()
        thinking.shutdown()
        gc_policy.uninstall(freezing)
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)


def worker_guard(config: Config, workers: int, bans: BansInForce | None = None) -> AddressGuard:
    """Per-address limits for one of ``workers`` workers. The kernel spreads one
    address's connections over the workers by their ports, so each worker allows its
    share of the limits (at least two at once): together they allow about the limit."""
    server = config.server
    return AddressGuard(
        max(2, math.ceil(server.max_connections_per_address / workers)),
        max(2, math.ceil(server.connections_per_minute_per_address / workers)),
        bans=bans,
    )


async def join_cluster(
    door: Door, config: Config, *, must_reach: bool = True
) -> ClusterLink | None:
    """With ``[cluster] redis_url``, link this process's presence to the other workers'
    (raises ConfigError if Redis cannot be used and it ``must_reach`` it); None without."""
    if not config.cluster.redis_url:
        return None
    from door.cluster import moderation as moderation_notices
    from door.cluster import relay, remote
    from door.cluster.link import ClusterLink, ClusterUnavailable

    link = ClusterLink(config.cluster.redis_url, door.presence)
    remote.install(link, door.presence)
    remote.share_logins(link, door.records.logins)
    relay.install(link, door.serve_relayed)
    moderation_notices.install(link, door.moderation)
    try:
        await link.start(must_reach=must_reach)
    except ClusterUnavailable as error:
        raise ConfigError(str(error)) from None
    door.presence.cluster = link
    return link


async def _cancelled(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def log_start(config: Config) -> None:
    """Make sure the data folder can be written (else ConfigError naming it), and say in
    the log where the door keeps its things: config file, data, database, texts."""
    try:
        data_path = ensure_writable_dir(config.server.data_path)
    except DataDirError as error:
        raise ConfigError(str(error)) from None
    logger.info("cribbage-door %s starting", version())
    logger.info("config: %s", config.location.describe())
    logger.info("data directory: %s", data_path)
    logger.info("database: %s", redact_url(database_url(config.database, data_path)))
    for name, source in use_texts_dir(config.texts_dir).items():
        logger.info("text %s: %s", name, source)


def prepare_once(config: Config) -> None:
    """What the workers would otherwise race to do: make the data folder and the SSH host
    keys, and bring the database's schema up to date; and make sure Redis answers (a
    worker started again later, while Redis is away, carries on without it)."""
    from door.cluster.link import ClusterUnavailable, check_redis
    from door.transports.ssh import load_host_keys

    log_start(config)
    if config.server.ssh_port:
        load_host_keys(config.server.data_path)

    async def migrate() -> None:
        if config.cluster.redis_url:
            try:
                await check_redis(config.cluster.redis_url)
            except ClusterUnavailable as error:
                raise ConfigError(str(error)) from None
        records = await Records.open(config)
        await records.close()

    asyncio.run(migrate())


def check_something_to_serve(config: Config) -> None:
    """A server with both ports 0 would sit there serving nobody: say so instead."""
    if not (config.server.telnet_port or config.server.ssh_port or config.web.port):
        raise ConfigError(
            "server.telnet_port, server.ssh_port and web.port are all 0: nothing to serve"
            " (set a port, or use --telnet-port/--ssh-port/--web-port)"
        )


def quiet_library_loggers() -> None:
    """asyncssh logs every channel and packet exchange at INFO, alembic each step of
    checking the schema, telnetlib3 every connection: too much for a door log."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # telnetlib3 logs every connection's coming and going: a banned or throttled address
    # calling a thousand times would be two thousand lines, where the door logs one
    # refusal per address and minute (door/defence/log_limit.py).
    logging.getLogger("telnetlib3").setLevel(logging.WARNING)


def config_from_args(args: argparse.Namespace) -> Config:
    """The config file named by ``--config`` (or the default), with the flags applied.

    Raises ConfigError, whose one-line message names the file and the key."""
    config = load_config(Path(args.config) if getattr(args, "config", None) else None)
    web_port = getattr(args, "web_port", None)
    if web_port is not None:
        config = dataclasses.replace(config, web=_checked_web_port(config, web_port))
    metrics_port = getattr(args, "metrics_port", None)
    if metrics_port is not None:
        config = dataclasses.replace(config, metrics=_checked_metrics_port(config, metrics_port))
    return with_overrides(
        config,
        host=getattr(args, "host", None),
        telnet_port=getattr(args, "telnet_port", None),
        ssh_port=getattr(args, "ssh_port", None),
        data_dir=getattr(args, "data_dir", None),
    )


def _checked_web_port(config: Config, port: int) -> Any:
    """The file's [web] with ``--web-port`` in place of its port: the port checked as
    the file's would be, every other key (trusted proxies, allowed origins) kept."""
    from door.config import config_from_mapping

    checked = config_from_mapping({"web": {"port": port}}, "command line").web.port
    return dataclasses.replace(config.web, port=checked)


def _checked_metrics_port(config: Config, port: int) -> Any:
    """The file's [metrics] with ``--metrics-port`` in place of its port."""
    from door.config import config_from_mapping

    checked = config_from_mapping({"metrics": {"port": port}}, "command line").metrics.port
    return dataclasses.replace(config.metrics, port=checked)


def run_worker(config: Config, place: WorkerPlace) -> int:
    """One worker of several (door/cluster/workers.py): its exit status."""
    for handler in logging.getLogger().handlers:
        handler.setFormatter(
            logging.Formatter(f"%(asctime)s %(levelname)s {place.name} %(message)s")
        )
    try:
        asyncio.run(run_server(config, worker=place, stop_within=WORKER_STOP_SECONDS))
    except ConfigError as error:
        logger.error("%s", error)
        return CONFIG_ERROR_EXIT
    except KeyboardInterrupt:
        pass
    return 0


def serve_command(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    escape_log_lines()
    quiet_library_loggers()
    try:
        config = config_from_args(args)
        check_something_to_serve(config)
        wanted = getattr(args, "workers", None)
        count = worker_count(config.cluster.workers if wanted is None else wanted)
        check_cluster(config, count)
        if count > 1:
            prepare_once(config)
    except ConfigError as error:
        print(f"cribbage-door: {error}", file=sys.stderr)
        return 2
    if count > 1:
        try:
            with door_at_work(config.server.data_path), parent_metrics(config, count):
                status = supervise(config, count, run_worker)
        except (ConfigError, DataFolderBusy) as error:
            print(f"cribbage-door: {error}", file=sys.stderr)
            return 2
        print("cribbage-door: stopped.", file=sys.stderr)
        return status

    from door.gc_watch import watch_if_asked

    watch_if_asked()  # the load bench's garbage-collection pauses, when it asks

    async def main() -> None:
        await run_server(config, stop_within=WORKER_STOP_SECONDS)

    try:
        asyncio.run(main())
    except ConfigError as error:
        print(f"cribbage-door: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    print("cribbage-door: stopped.", file=sys.stderr)
    return 0
