"""One worker's link to the others, through Redis (``[cluster] redis_url``).

What the workers share, and how:
- **Who is on.** Each worker keeps a Redis hash of its members (name, where they are,
  idle, sysop, account), written again every ``HEARTBEAT_SECONDS`` with a time to live
  of ``MEMBER_TTL_SECONDS``, and a key saying it is alive with the same expiry. A worker
  that dies stops writing: its callers vanish from every lobby within seconds. Arrivals,
  departures and moves are also published at once.
- **Names.** ``cribbage:name:<name>`` is claimed (SET NX, with expiry, renewed by the
  heartbeat) before a caller goes online, so two workers never let in the same name.
- **Chat.** Lobby lines, notices and the sysop's broadcasts are published to every
  worker; the last ``KEPT_CHAT_LINES`` are kept in a list for workers that start later.
- **Messages to one worker** (challenges, answers, notes, hang-ups, relayed screens and
  keys) go to that worker's channel.

Events are JSON published on Redis pub/sub (redis-py's asyncio client). Presence calls
this synchronously; what it sends waits in an outbox that one task empties in order.

**Redis stopping and coming back** (empty, after a restart) changes nothing between the
workers: each carries on with its own callers meanwhile, and when Redis answers again
each writes everything it holds into it again at its next heartbeat (its members, their
names, the games it holds; the kept chat, if nobody has yet). A worker whose heartbeat is
missing then is not taken for dead until Redis has been back for ``RETURN_GRACE_SECONDS``:
the others may not have written theirs yet. Once a worker's subscriptions are back it
says so (``back``), and the relays between it and the others repaint what was lost
(door/cluster/relay.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

if TYPE_CHECKING:
    from door.app.members import ChatLine, Member
    from door.app.presence import Presence

logger = logging.getLogger(__name__)

PREFIX: Final = "cribbage:"
ALL_CHANNEL: Final = PREFIX + "all"
CHAT_KEY: Final = PREFIX + "chat"
HEARTBEAT_SECONDS: Final = 1.0
MEMBER_TTL_SECONDS: Final = 5
"""A dead worker's callers are gone from every lobby within this and one sync."""
SYNC_SECONDS: Final = 1.0
MAX_OUTBOX: Final = 100_000
"""Events waiting for Redis beyond this are dropped (logged): Redis is down or slow, and
the door must not grow without bound waiting for it."""
KEPT_CHAT_LINES: Final = 100
RETURN_GRACE_SECONDS: Final = MEMBER_TTL_SECONDS
"""After Redis comes back, how long a worker it has no heartbeat from still counts as
alive: every live worker writes one within a heartbeat or two of Redis answering again."""
CONNECT_TIMEOUT_SECONDS: Final = 2.0
ANSWER_TIMEOUT_SECONDS: Final = 3.0
RETRIES: Final = 1
"""One retry, on a fresh connection (a restarted Redis closed the pooled ones): each task
here retries on its own schedule, so a call to a Redis that is down fails within a few
seconds rather than after redis-py's ten tries, and stopping is never held up by it."""
TASKS_END_SECONDS: Final = 1.0
"""How long stopping waits for this link's tasks to end once they are cancelled."""
CLOSE_WAIT_SECONDS: Final = 3.0
"""How long a stopping worker spends telling Redis it is gone, at most (Redis may be
down or unreachable; its keys expire anyway)."""

Handler = Callable[[dict[str, Any]], None]

_RESTORE_CHAT: Final = """
if redis.call('exists', KEYS[1]) == 0 and #ARGV > 0 then
    redis.call('rpush', KEYS[1], unpack(ARGV))
end
"""
"""The kept chat (newest first) as this worker has it, if no worker has put it back."""

_RELEASE_MINE: Final = """
for _, key in ipairs(KEYS) do
    if redis.call('get', key) == ARGV[1] then redis.call('del', key) end
end
"""
"""Delete the keys given that still hold this worker's id (a Lua script: atomic)."""


class ClusterUnavailable(Exception):
    """Redis cannot be reached at start; the message says where and why."""


def redis_client(url: str) -> redis.Redis:
    return redis.from_url(
        url,
        socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
        socket_timeout=ANSWER_TIMEOUT_SECONDS,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), RETRIES),
    )


async def check_redis(url: str) -> None:
    """Raise ClusterUnavailable unless Redis at ``url`` answers."""
    client = redis_client(url)
    try:
        await client.ping()
    except (RedisError, OSError) as error:
        raise ClusterUnavailable(f"cluster.redis_url: cannot use Redis ({error})") from None
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()


def worker_channel(worker: str) -> str:
    return f"{PREFIX}worker:{worker}"


def _members_key(worker: str) -> str:
    return f"{PREFIX}members:{worker}"


def _alive_key(worker: str) -> str:
    return f"{PREFIX}alive:{worker}"


def _game_key(game_id: int) -> str:
    return f"{PREFIX}game:{game_id}"


def _name_key(name: str) -> str:
    return f"{PREFIX}name:{name.casefold()}"


def new_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class ClusterLink:
    """This worker's end of the cluster; see the module docstring."""

    def __init__(self, url: str, presence: Presence, worker: str | None = None) -> None:
        self.url = url
        self.worker = worker or new_worker_id()
        self.presence = presence
        self.redis = redis_client(url)
        self.alive: set[str] = set()
        """The workers that were alive at the last sync (this one included)."""
        self.handlers: dict[str, Handler] = {}
        """Handlers of messages addressed to this worker, by type (challenges, relays)."""
        self.held_games: set[int] = set()
        """Saved games whose tables this worker holds (claimed at each heartbeat)."""
        self.relays: dict[str, Any] = {}
        """Lines relayed to or from other workers, by id (door/cluster/relay.py)."""
        self.on_sync: list[Callable[[], None]] = []
        """Called after every sync (relays check their far end is alive)."""
        self.on_back: list[Callable[[str | None], None]] = []
        """Called when a worker's subscriptions are back after Redis was lost: with its
        id, or None for this one (relays repaint what may have been lost)."""
        self.on_reachable: list[Callable[[bool], None]] = []
        """Called with False when Redis stops answering this worker, and with True when
        it answers again (a relayed caller's own idle guard counts meanwhile)."""
        self._back_at: float | None = None
        """When Redis last answered again after it was lost (time.monotonic())."""
        self._records: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}
        """The members of each live worker at the last sync, by worker."""
        self._subscribed = 0
        """How many times this worker's channel has been subscribed to (1: since start)."""
        self._written = False
        """This worker's keys have been written to Redis at least once."""
        self._said_joined = False
        self._closing = False
        self._outbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._dropped = 0
        self._redis_down = False
        self.started = asyncio.Event()

    # --- starting and stopping ----------------------------------------------------------

    async def start(self, *, must_reach: bool = True) -> None:
        """Connect, subscribe and load the chat; raises ClusterUnavailable if Redis
        cannot be used. Unless it ``must_reach`` Redis (a worker started again while the
        door runs on, say after a crash while Redis is down): then it carries on with its
        own callers and joins the others once Redis answers, as after an outage."""
        # Subscriptions are confirmed as messages: the first after a reconnection says
        # this worker hears the others again (``_listen``).
        self._pubsub = self.redis.pubsub()
        raw_lines: list[bytes | str] = []
        try:
            await self.redis.ping()
            await self._pubsub.subscribe(ALL_CHANNEL, worker_channel(self.worker))
            raw_lines = await self.redis.lrange(CHAT_KEY, 0, KEPT_CHAT_LINES - 1)
            await self._beat()
            await self.sync()
        except (RedisError, OSError) as error:
            if must_reach:
                await self._close_quietly()
                message = f"cluster.redis_url: cannot use Redis ({error})"
                raise ClusterUnavailable(message) from None
            self._trouble(error, "this worker serves its own callers until it answers")
        from door.app.members import ChatLine

        kept: list[ChatLine] = []
        for raw in reversed(raw_lines):
            with contextlib.suppress(ValueError, TypeError, KeyError):
                item = json.loads(raw)
                kept.append(ChatLine(item["s"], item["x"], item["k"]))
        self.presence.restore_chat(kept)
        loop = asyncio.get_running_loop()
        for work, name in (
            (self._listen(), "cluster listen"),
            (self._send(), "cluster send"),
            (self._heartbeat(), "cluster heartbeat"),
        ):
            self._tasks.append(loop.create_task(work, name=name))
        self.started.set()
        if not self._redis_down:
            self._joined()

    async def close(self) -> None:
        """Send what waits, say this worker's callers are gone, disconnect: within a few
        seconds, whether Redis answers or not (not waiting at all for what cannot be sent
        while it is known to be away)."""
        if not self._redis_down:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drained(), 2.0)
        # A task may take its cancellation for trouble with Redis (a library turning it
        # into an error on the way) and go round again: the loops end on ``_closing``,
        # and stopping waits for them boundedly, never taking their end for its own.
        self._closing = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=TASKS_END_SECONDS)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(0.5 if self._redis_down else CLOSE_WAIT_SECONDS):
                await self.redis.delete(_members_key(self.worker), _alive_key(self.worker))
                await self.release_games(self.held_games)
                gone = json.dumps({"t": "gone", "w": self.worker})
                await self.redis.publish(ALL_CHANNEL, gone)
        await self._close_quietly()

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _drained(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    # --- what presence tells the others ---------------------------------------------

    async def claim_name(self, name: str) -> bool:
        """Reserve ``name`` for a caller of this worker; False if another worker's caller
        has it. While Redis cannot answer, callers still come in (logged): a door that
        stopped letting anyone in would be worse than a name shown twice."""
        key = _name_key(name)
        try:
            if await self.redis.set(key, self.worker, nx=True, ex=MEMBER_TTL_SECONDS):
                return True
            holder = await self.redis.get(key)
        except (RedisError, OSError) as error:
            self._trouble(error, "names are not checked against the other workers")
            return True
        return holder is not None and _text(holder) == self.worker

    async def claim_game(self, game_id: int) -> str:
        """Become the worker holding saved game ``game_id`` unless a live one holds it
        already; returns the holder (this worker, if the claim succeeded). While Redis
        cannot answer, this worker holds it."""
        key = _game_key(game_id)
        try:
            if await self.redis.set(key, self.worker, nx=True, ex=MEMBER_TTL_SECONDS):
                return self.worker
            holder = await self.redis.get(key)
        except (RedisError, OSError) as error:
            self._trouble(error, "games are set again here without asking the others")
            return self.worker
        return _text(holder) if holder is not None else self.worker

    async def release_games(self, game_ids: Iterable[int]) -> None:
        """Games held here are free for another worker to set again at once (only the
        claims still this worker's): their tables here have closed."""
        game_ids = set(game_ids)
        self.held_games -= game_ids
        keys = [_game_key(game_id) for game_id in game_ids]
        if keys:
            try:
                async with asyncio.timeout(CLOSE_WAIT_SECONDS):
                    await self.redis.eval(_RELEASE_MINE, len(keys), *keys, self.worker)
            except (RedisError, OSError, TimeoutError) as error:
                # They expire by themselves within MEMBER_TTL_SECONDS.
                self._trouble(error, f"{len(keys)} game(s) are let go of when their claims expire")

    def release_name(self, name: str) -> None:
        self._queue(("release", name))

    def member_changed(self, member: Member) -> None:
        self.publish_all({"t": "member", "w": self.worker, "m": member_record(member)})

    def member_left(self, member: Member) -> None:
        self.publish_all({"t": "left", "w": self.worker, "n": member.name})
        self._queue(("hdel", member.name.casefold()))
        self.release_name(member.name)

    def chat(self, line: ChatLine) -> None:
        item = {"s": line.speaker, "x": line.text, "k": line.kind}
        self.publish_all({"t": "chat", "w": self.worker, "l": item})
        self._queue(("chat", json.dumps(item)))

    def publish_all(self, event: dict[str, Any]) -> None:
        self._queue(("publish", (ALL_CHANNEL, json.dumps(event))))

    def send(self, worker: str, event: dict[str, Any]) -> None:
        """A message to one worker (its handler is ``handlers[event["t"]]`` there)."""
        event = {**event, "from": self.worker}
        self._queue(("publish", (worker_channel(worker), json.dumps(event))))

    def _queue(self, item: tuple[str, Any]) -> None:
        if self._outbox.qsize() >= MAX_OUTBOX:
            self._dropped += 1
            if self._dropped == 1:
                logger.error("cluster: Redis is not keeping up: events are being dropped")
            return
        self._outbox.put_nowait(item)

    # --- the tasks ------------------------------------------------------------------------

    async def _send(self) -> None:
        """Empty the outbox in order, in pipelines of what has gathered."""
        while not self._closing:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for kind, value in batch:
                        if kind == "publish":
                            pipe.publish(*value)
                        elif kind == "chat":
                            pipe.lpush(CHAT_KEY, value)
                            pipe.ltrim(CHAT_KEY, 0, KEPT_CHAT_LINES - 1)
                        elif kind == "hdel":
                            pipe.hdel(_members_key(self.worker), value)
                        elif kind == "release":
                            pipe.delete(_name_key(value))
                    await pipe.execute()
                self._dropped = 0
                self._fine()
            except (RedisError, OSError) as error:
                self._trouble(error, f"{len(batch)} event(s) lost")
                await asyncio.sleep(0.5)

    async def _heartbeat(self) -> None:
        while not self._closing:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self._beat()
                await self.sync()
                self._fine()
            except (RedisError, OSError) as error:
                self._trouble(error, "callers of other workers are shown as last seen")

    async def _beat(self) -> None:
        """Say this worker and its members are still here, and keep their names and its
        games. Redis without this worker's own key has lost everything (restarted empty,
        or cut off for longer than the keys live): what was written is written again
        here, and the others are given time to do the same (``RETURN_GRACE_SECONDS``)."""
        members = list(self.presence.members.values())
        key = _members_key(self.worker)
        # One transaction: another worker's sync never sees the hash half rewritten.
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.exists(_alive_key(self.worker))
            pipe.set(_alive_key(self.worker), str(time.time()), ex=MEMBER_TTL_SECONDS)
            pipe.delete(key)
            if members:
                pipe.hset(
                    key,
                    mapping={m.name.casefold(): json.dumps(member_record(m)) for m in members},
                )
                pipe.expire(key, MEMBER_TTL_SECONDS)
                for member in members:
                    pipe.set(_name_key(member.name), self.worker, ex=MEMBER_TTL_SECONDS)
            held_games = set()
            for table in self.presence.tables:
                game_id = table.saved_as()
                if game_id is not None and not table.over:
                    held_games.add(game_id)
                    pipe.set(_game_key(game_id), self.worker, ex=MEMBER_TTL_SECONDS)
            self.held_games = held_games
            had_key, *_ = await pipe.execute()
        written_before, self._written = self._written, True
        if not had_key and written_before:
            self._back_at = time.monotonic()
            logger.info(
                "cluster: Redis had lost this worker's keys (restarted empty?): "
                "its %d caller(s) and %d game(s) are in it again",
                len(members),
                len(held_games),
            )
            await self._restore_chat()

    async def _restore_chat(self) -> None:
        """The kept chat, for workers that start later, as this worker has it (unless
        another worker back before it has put it back already)."""
        lines = [
            json.dumps({"s": line.speaker, "x": line.text, "k": line.kind})
            for line in reversed(self.presence.chat)
        ][:KEPT_CHAT_LINES]
        if lines:
            await self.redis.eval(_RESTORE_CHAT, 1, CHAT_KEY, *lines)

    async def sync(self) -> None:
        """Read every other worker's members afresh (those of a dead worker have expired).

        Shortly after Redis came back, a worker alive before whose heartbeat is not there
        yet still counts as alive, its members as they were: only one that has written
        none for ``RETURN_GRACE_SECONDS`` since is gone."""
        found = set()
        async for key in self.redis.scan_iter(match=_alive_key("*"), count=1000):
            found.add(key.decode()[len(_alive_key("")) :])
        if self.worker not in found:
            # Not even this worker's heartbeat: Redis has just come back empty, and the
            # others are as late as this one.
            self._back_at = time.monotonic()
            found.add(self.worker)
        records: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}
        for worker in found - {self.worker}:
            members = records[worker] = {}
            for raw in (await self.redis.hgetall(_members_key(worker))).values():
                with contextlib.suppress(ValueError, TypeError, KeyError):
                    record = json.loads(raw)
                    members[str(record["name"]).casefold()] = (worker, record)
        if self._back_at is not None and time.monotonic() - self._back_at < RETURN_GRACE_SECONDS:
            # Those alive at the last sync, and those at the far end of a relay (one
            # may have begun since).
            expected = self.alive | {end.far_worker for end in self.relays.values()}
            for worker in expected - found:
                records[worker] = self._records.get(worker, {})
        self._records = records
        self.alive = found | set(records)
        self.presence.remote_sync(
            {name: entry for members in records.values() for name, entry in members.items()}
        )
        for listener in list(self.on_sync):
            listener()

    async def _listen(self) -> None:
        while not self._closing:
            try:
                if not self._pubsub.subscribed:  # Redis could not be reached at start
                    await self._pubsub.subscribe(ALL_CHANNEL, worker_channel(self.worker))
                message = await self._pubsub.get_message(timeout=None)
            except (RedisError, OSError) as error:
                self._trouble(error, "nothing comes from the other workers")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            if message.get("type") == "subscribe":
                self._subscription_confirmed(message.get("channel"))
                continue
            if message.get("type") != "message":
                continue
            try:
                event = json.loads(message["data"])
                self._dispatch(event)
            except Exception:
                logger.exception("cluster: could not handle a message")

    def _subscription_confirmed(self, channel: Any) -> None:
        """redis-py subscribes again on every new connection: after the first time,
        this worker hears the others again, and says so (what it missed meanwhile is
        asked for again: ``on_back``)."""
        if _text(channel) != worker_channel(self.worker):
            return
        self._subscribed += 1
        if self._subscribed == 1:
            self._joined()
        else:
            logger.debug("cluster: this worker hears the others again")
            self.publish_all({"t": "back", "w": self.worker})
            self._back(None)

    def _joined(self) -> None:
        if not self._said_joined:
            self._said_joined = True
            logger.info("cluster: worker %s joined through Redis", self.worker)

    def _back(self, worker: str | None) -> None:
        for listener in list(self.on_back):
            listener(worker)

    def _trouble(self, error: BaseException, consequence: str) -> None:
        """Log once that Redis cannot be reached (every task retries on its own)."""
        if not self._redis_down:
            self._redis_down = True
            logger.warning(
                "cluster: Redis cannot be reached (%s): %s; retrying", error, consequence
            )
            self._tell_reachable(False)

    def _fine(self) -> None:
        if self._redis_down:
            self._redis_down = False
            self._back_at = time.monotonic()
            logger.info("cluster: Redis can be reached again")
            self._tell_reachable(True)

    @property
    def reachable(self) -> bool:
        """Whether Redis answered this worker's last question."""
        return not self._redis_down

    def _tell_reachable(self, reachable: bool) -> None:
        for listener in list(self.on_reachable):
            listener(reachable)

    def _dispatch(self, event: dict[str, Any]) -> None:
        kind = event.get("t")
        if event.get("w") == self.worker:
            return  # our own broadcast, already applied here
        if kind == "member":
            self.presence.remote_member(event["w"], event["m"])
        elif kind == "left":
            self.presence.remote_left(event["w"], event["n"])
        elif kind == "gone":
            self.alive.discard(event["w"])
            self.presence.remote_worker_gone(event["w"])
            for listener in list(self.on_sync):
                listener()
        elif kind == "back":
            self._back(str(event["w"]))
        elif kind == "chat":
            from door.app.members import ChatLine

            item = event["l"]
            self.presence.remote_chat(ChatLine(item["s"], item["x"], item["k"]))
        else:
            handler = self.handlers.get(str(kind))
            if handler is not None:
                handler(event)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def member_record(member: Member) -> dict[str, Any]:
    """What the other workers know of a member of this one."""
    account = member.account
    return {
        "name": member.name,
        "place": member.place,
        "idle": round(member.idle, 1),
        "sysop": member.sysop,
        "joined": time.time() - (time.monotonic() - member.joined),
        "busy": member.invitation is not None or member.challenge is not None,
        "account": None if account is None else [account.id, account.handle],
    }
