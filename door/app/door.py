"""The door itself: every connected caller, whatever the transport, their sessions, and
what they share: who is online (``Presence``) and the database (``Records``)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import random
from collections import Counter
from typing import Any

from door.app.call import Caller, run_session
from door.app.moderation import Moderation
from door.app.presence import Presence
from door.app.records import Records
from door.app.table_service import TableService
from door.cluster.relay import RelayTerminal
from door.cluster.remote import RemoteMember
from door.config import Config
from door.defence.bans import BanList, BansInForce
from door.defence.chat_mask import WordMask
from door.defence.guard import AddressGuard
from door.logtext import escaped
from door.metrics.tally import TALLY
from door.storage.values import Account
from door.table.flow import Table
from door.term.ansi import last_words
from door.term.idle import IdleGuardTerminal
from door.term.terminal import Disconnected, Terminal

logger = logging.getLogger(__name__)

FULL_MESSAGE = "\r\nSorry, the door is full right now. Please call back later.\r\n"
SHUTDOWN_MESSAGE = last_words("*** The sysop is shutting the door down. Goodbye! ***")
"""The door's last words to a caller as it stops."""
SHUTDOWN_GAME_SAVED = last_words(
    "*** The sysop is shutting the door down. Your game is saved. Goodbye! ***"
)
"""The last words to a caller whose game is in the store as it stands (offered to them
when they call again): a caller hung up on mid-game wants to know it is not lost."""
_UNKNOWN_TIME = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
"""When a relayed caller's account was made: their own worker did not say."""
SESSION_END_WAIT_SECONDS = 5.0
"""How long shutting down waits for sessions to end (each saves its game on the way)."""
SAVE_WAIT_SECONDS = 2.0
"""How long a stopping worker waits for its games' last saves before handing them on."""


class Door:
    """Holds the sessions in progress, so they can be counted, told and closed, the
    ``Presence`` they share (who is online, the lobby, the tables), the ``Records``
    (accounts and saved games; without any given, accounts are off) and the
    ``TableService`` that makes the tables and keeps their games."""

    def __init__(
        self, config: Config, rng: random.Random | None = None, records: Records | None = None
    ) -> None:
        self.config = config
        self.rng = rng or random.Random()
        self.records = records or Records()
        self.terminals: set[Terminal] = set()
        self.transports: Counter[str] = Counter()
        """Sessions in progress by their caller's transport (door/metrics reads it)."""
        self.presence = Presence(config.sysop.name, random.Random(self.rng.getrandbits(64)))
        self.tables = TableService(config, self.presence, self.records)
        """Makes the door's tables and keeps their games (saved, rated, recorded)."""
        self.closing = False
        self.shares_ports = False
        """A worker of several (door/cluster/workers.py): its listeners share their ports
        with the other workers' (SO_REUSEPORT)."""
        server = config.server
        self.bans = BansInForce()
        """The sysop's bans, checked before anything else as each connection arrives."""
        self.guard = AddressGuard(
            server.max_connections_per_address,
            server.connections_per_minute_per_address,
            bans=self.bans,
        )
        """Per-address limits, which the transports check as each connection arrives."""
        self.moderation = Moderation(
            self.records.store,
            self.bans,
            WordMask(config.chat.masked_words),
            lines=self,
            linked=config.rlogin.system_by_address,
        )
        self.presence.moderation = self.moderation
        self._turning_away: set[asyncio.Task[None]] = set()
        self._callers: dict[Terminal, Caller] = {}
        """Each caller's terminal and who they are, for turning away the newly banned."""
        self._callers_by_line: dict[Terminal, Caller] = {}
        """The same by the terminal their session draws on (behind the idle guard)."""
        self._relayed: set[asyncio.Task[None]] = set()
        self._sessions: set[asyncio.Future[None]] = set()
        """One future per session in progress, done when it has ended."""

    def terminal_limits(self) -> dict[str, Any]:
        """What a transport passes to each StreamTerminal it makes: the input rate and
        how long a caller may leave output unread."""
        server = self.config.server
        return {
            "key_rate": server.key_rate,
            "key_burst": server.key_burst,
            "output_stall_seconds": server.output_stall_seconds,
        }

    @property
    def caller_count(self) -> int:
        return len(self.terminals)

    async def serve_caller(
        self, terminal: Terminal, caller: Caller, *, idle_guard: bool = True
    ) -> None:
        """Run one caller's session to its end; never lets an error escape to the transport.

        ``idle_guard`` hangs up on a caller who presses nothing for too long (not on the
        sysop at the local console).

        The last ``reserved_sessions`` places are kept for members and the sysop: there a
        caller who has proven nothing yet may only log in, and a guest is turned away."""
        places = self.config.server.max_sessions
        unreserved = places - self.config.server.reserved_sessions
        proven = caller.sysop or caller.account is not None
        if not proven and len(self.terminals) >= unreserved:
            if caller.arriving_as == "choose":
                caller = dataclasses.replace(caller, arriving_as="login")
            else:
                places = unreserved  # an SSH guest or newcomer: no place is kept for them
        if self.closing or len(self.terminals) >= places:
            TALLY.refused["load"] += 1
            terminal.write(FULL_MESSAGE)
            with contextlib.suppress(Disconnected):
                await terminal.flush()
            terminal.close()
            return
        server = self.config.server
        session_terminal: Terminal = terminal
        if idle_guard:
            session_terminal = IdleGuardTerminal(
                terminal, server.idle_warning_seconds, server.idle_timeout_seconds
            )
        self.terminals.add(terminal)
        self._callers[terminal] = caller
        self._callers_by_line[session_terminal] = caller
        if caller.sysop and caller.address:
            self.moderation.sysop_came_from(caller.address)
        self.transports[caller.transport] += 1
        ended = asyncio.get_running_loop().create_future()
        self._sessions.add(ended)
        try:
            rng = random.Random(self.rng.getrandbits(64))
            await run_session(
                session_terminal, self.config, caller, rng, self.presence, self.records, self.tables
            )
        except Exception:
            logger.exception("session for %s caller from %s failed", caller.transport, caller.peer)
        finally:
            self.terminals.discard(terminal)
            self._callers.pop(terminal, None)
            self._callers_by_line.pop(session_terminal, None)
            self.transports[caller.transport] -= 1
            session_terminal.close()  # the guard's timer too, not left to run out
            self._sessions.discard(ended)
            ended.set_result(None)

    def serve_relayed(self, terminal: Terminal, hello: dict[str, Any]) -> None:
        """A caller of another worker whose table is here: their session, on the line
        that worker relays (door/cluster/relay.py). ``hello`` says who they are."""
        account = hello.get("account")
        caller = Caller(
            name=None if account else str(hello.get("name", "")),
            transport=f"{hello.get('transport', '')} relayed",
            peer=str(hello.get("peer", "")),
            sysop=bool(hello.get("sysop")),
            account=Account(int(account[0]), str(account[1]), _UNKNOWN_TIME) if account else None,
            watch=str(hello.get("watch") or ""),
            paged_by=str(hello.get("paged_by") or ""),
            touch=hello.get("touch") is True,
        )
        task = asyncio.get_running_loop().create_task(self.serve_caller(terminal, caller))
        self._relayed.add(task)
        task.add_done_callback(self._relayed.discard)

    def turn_away(self, bans: BanList) -> None:
        """Tell every caller here whom ``bans`` cover (by their address, or the name
        they are online under) why, and disconnect them. A relayed caller's own worker
        does that for them."""
        for terminal, caller in list(self._callers.items()):
            if isinstance(terminal, RelayTerminal):
                continue
            ban = bans.covering(caller.address)
            if ban is not None:
                logger.info(
                    "%s caller from %s turned away: ban #%d", caller.transport, caller.peer, ban.id
                )
                self._hang_up(terminal, last_words(ban.refusal()))
        for member in list(self.presence.members.values()):
            if member.sysop or isinstance(member, RemoteMember):
                continue  # the sysop is never turned away; a remote one by their worker
            ban = bans.naming(member.name)
            if ban is not None:
                logger.info("%s turned away: ban #%d", escaped(member.name), ban.id)
                self._spawn(member.line.hang_up(last_words(ban.refusal())))

    def tell(self, name: str, note: str) -> None:
        member = self.presence.members.get(name.casefold())
        if member is not None:
            member.tell(note)

    def peer_of(self, name: str) -> str:
        member = self.presence.members.get(name.casefold())
        line_terminal = getattr(member.line, "terminal", None) if member is not None else None
        caller = self._callers_by_line.get(line_terminal) if line_terminal is not None else None
        return caller.peer if caller is not None else ""

    def _hang_up(self, terminal: Terminal, message: str) -> None:
        say_last = getattr(terminal, "write_last", terminal.write)
        say_last(message)

        async def flush_and_close() -> None:
            await self._flush_quietly(terminal)
            terminal.close()

        self._spawn(flush_and_close())

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._turning_away.add(task)
        task.add_done_callback(self._turning_away.discard)

    async def shut_down(self) -> None:
        """Tell every caller the door is closing, hang up on them, and wait (boundedly)
        for their sessions to end, so that games in progress are saved as they stand."""
        self.closing = True
        # A caller of another worker (door/cluster/relay.py) goes on there: only this
        # worker is stopping, and their game is set again from the store, once it is
        # saved as it stands and let go of here (``_hand_on``). Until then they see
        # nothing more from here.
        relayed = [terminal for terminal in self.terminals if isinstance(terminal, RelayTerminal)]
        for terminal in relayed:
            terminal.hold()
        playing = self._players_here()
        closed = self.presence.close_tables()
        # Told it is saved only once it is: the writes take milliseconds, a store that
        # fails is not waited for long.
        with contextlib.suppress(TimeoutError):
            saves = (table.until_saved() for table in set(playing.values()))
            await asyncio.wait_for(
                asyncio.gather(*saves, return_exceptions=True), SAVE_WAIT_SECONDS
            )
        for terminal in list(self.terminals):
            # The tables just closed, and their screens are about to be redrawn: the
            # goodbye must stay on top of them.
            say_last = getattr(terminal, "write_last", terminal.write)
            table = playing.get(terminal)
            saved = table is not None and table.saved_whole()
            say_last(SHUTDOWN_GAME_SAVED if saved else SHUTDOWN_MESSAGE)
        await asyncio.gather(
            self._hand_on(closed, relayed),
            *(self._flush_quietly(terminal) for terminal in list(self.terminals)),
        )
        for terminal in list(self.terminals):
            terminal.close()
        if self._sessions:
            await asyncio.wait(set(self._sessions), timeout=SESSION_END_WAIT_SECONDS)

    def _players_here(self) -> dict[Terminal, Table]:
        """The table each caller of this process plays at, by their line (watchers are
        not players)."""
        line_of = {id(self._callers[terminal]): terminal for terminal in self.terminals}
        playing: dict[Terminal, Table] = {}
        for table in self.presence.tables:
            for person in table.players_present():
                session = getattr(person, "session", None)
                caller = self._callers_by_line.get(session.terminal) if session else None
                if caller is not None and id(caller) in line_of:
                    playing[line_of[id(caller)]] = table
        return playing

    async def _hand_on(self, tables: list[Table], relayed: list[RelayTerminal]) -> None:
        """Once the closed tables' games are in the store as they stand, let another
        worker set them again, then hand the relayed callers back to their own workers,
        which do so at once (rather than after this worker's claims expired, or passing
        the caller back to this worker, which still holds them)."""
        cluster = self.presence.cluster
        if cluster is not None:
            with contextlib.suppress(TimeoutError):
                saves = (table.until_saved() for table in tables)
                await asyncio.wait_for(
                    asyncio.gather(*saves, return_exceptions=True), SAVE_WAIT_SECONDS
                )
            held = (table.saved_as() for table in tables)
            await cluster.release_games(game_id for game_id in held if game_id is not None)
        for terminal in relayed:
            terminal.hand_back()

    @staticmethod
    async def _flush_quietly(terminal: Terminal) -> None:
        with contextlib.suppress(Disconnected, OSError):
            await asyncio.wait_for(terminal.flush(), 2.0)
