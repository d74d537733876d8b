"""The SSH transport: asyncssh runs the protocol; this turns a session into a Terminal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import asyncssh
from asyncssh.encryption import get_default_encryption_algs
from asyncssh.kex import get_default_kex_algs
from asyncssh.mac import get_default_mac_algs

from door.app.account_checks import (
    GUEST_USER,
    NEW_USER,
    PendingReset,
    ssh_key_login,
    ssh_needs_auth,
    ssh_password_login,
)
from door.app.call import Caller
from door.app.door import Door
from door.app.sysop import verify_password
from door.config import ConfigError, SysopConfig
from door.defence.guard import AddressGuard, address_of, peer_text
from door.defence.hash_pool import HashPoolFull, password_checks
from door.defence.logins import LoginAttempts, LoginGuard, TooManyTries
from door.defence.ratelimit import TokenBucket
from door.logtext import escaped
from door.storage.errors import LoginError, PasswordResetRequired
from door.storage.rules import handle_key
from door.storage.store import Account, Store
from door.term.terminal import StreamTerminal
from door.transports.proxy_header import ProxiedListener, parse_networks

logger = logging.getLogger(__name__)

READ_SIZE = 4096
HOST_KEY_FILES = (("ssh_host_ed25519_key", "ssh-ed25519"), ("ssh_host_rsa_key", "ssh-rsa"))
# What cryptlib-based BBS clients (SyncTERM) can speak; off unless the sysop opts in.
LEGACY_KEX = ("diffie-hellman-group14-sha1", "diffie-hellman-group1-sha1")
LEGACY_CIPHERS = ("aes128-cbc", "aes256-cbc", "3des-cbc")
# (asyncssh takes a list of algorithms as names, str: its lists of defaults are bytes.)
CIPHERS = tuple(
    alg.decode("ascii")
    for alg in get_default_encryption_algs()
    if alg != b"chacha20-poly1305@openssh.com"
)
"""asyncssh's ciphers but chacha20-poly1305, which OpenSSH's and asyncssh's clients choose
first when offered: asyncssh builds its ciphers in Python for every packet (14 us to
encrypt a frame of 450 bytes), where AES is one call of the cryptography library
(AES-GCM, asyncssh's client's next choice, 2.4 us; AES-CTR, OpenSSH's, with HMAC-SHA2
2.5 us), and a key in or a frame out is a packet each. Every client that has
chacha20-poly1305 has AES-GCM or AES-CTR."""
MACS = tuple(alg.decode("ascii") for alg in get_default_mac_algs() if not alg.startswith(b"umac-"))
"""asyncssh's MACs but UMAC, which OpenSSH chooses first with AES-CTR: asyncssh calls
nettle's UMAC through ctypes (5.0 us with AES-CTR a frame's packet), HMAC-SHA2-256 is
the standard library's (2.5 us). Every client has HMAC-SHA2 or HMAC-SHA1."""
INPUT_WINDOW = 64 * 1024
RESIZES_PER_SECOND = 20
RESIZE_BURST = 100
BANNED_LINGER_SECONDS = 10.0
"""How long a banned address's SSH connection may take to reach authentication, where
it is told why it is refused: not counted against the address's limits, so short."""
"""Window changes a caller dragging a window corner makes, with room to spare."""


class _SSHSource:
    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.process = process
        self.terminal: StreamTerminal | None = None
        self._resizes = TokenBucket(RESIZES_PER_SECOND, RESIZE_BURST)

    async def read(self) -> bytes:
        while True:
            try:
                return await self.process.stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                if not self._resizes.take():
                    # asyncssh parses every window change before the door sees it, and
                    # cannot be told to stop reading: a storm of them ends the call.
                    logger.info("SSH caller sent window changes too fast: line closed")
                    return b""
                if self.terminal is not None:
                    self.terminal.resize(change.width, change.height)
            except (asyncssh.ConnectionLost, asyncssh.BreakReceived, asyncssh.SignalReceived):
                return b""


class _SSHSink:
    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.process = process

    def write(self, data: bytes) -> None:
        try:
            self.process.stdout.write(data)
        except (asyncssh.ConnectionLost, asyncssh.ChannelOpenError) as error:
            raise EOFError("the SSH channel closed") from error

    async def drain(self) -> None:
        try:
            await self.process.stdout.drain()
        except (asyncssh.ConnectionLost, BrokenPipeError) as error:
            raise EOFError("the SSH channel closed") from error

    def buffered(self) -> int:
        return int(self.process.channel.get_write_buffer_size())

    def close(self) -> None:
        with contextlib.suppress(OSError, asyncssh.Error):
            self.process.exit(0)


AUTH_BANNER = (
    "Log in with your handle and password, or a key attached to your account.\r\n"
    'No account? Connect as user "new" to make one, or as "guest" to play as a guest.\r\n'
)


class DoorSSHServer(asyncssh.SSHServer):
    """How an SSH caller gets in; one per connection.

    The sysop's name needs the sysop's password or one of the sysop's keys. With
    accounts on (a ``store``), every other user name is a handle that needs its password
    or a key attached to the account, except ``new`` (who signs up) and ``guest`` (who
    gives a name), who come in without either. With accounts off, anyone comes in under
    their user name.

    ``caller`` says who came in. It trusts an account only for the user name the
    connection finally authenticated as: SSH lets a client change user names between
    attempts, and a key is looked up (and an account found) before the client proves it
    holds the key, so an account found for another user name proves nothing."""

    def __init__(
        self,
        sysop: SysopConfig,
        sysop_keys: frozenset[bytes],
        store: Store | None = None,
        guard: AddressGuard | None = None,
        logins: LoginGuard | None = None,
    ) -> None:
        self.guard = guard
        self.logins = logins or LoginGuard()
        self.attempts: LoginAttempts | None = None
        self.address = ""
        self.banned = ""
        """What a banned caller is told (door/defence/bans.py); "" for everyone else."""
        self.admitted = False
        self.connected_at: float | None = None
        self.sysop = sysop
        self.sysop_keys = sysop_keys
        self.store = store
        self.account: Account | None = None
        """The account the last password or key checked belongs to."""
        self.by_password = False
        self.pending_reset: PendingReset | None = None
        self.offered_keys: list[tuple[str, str]] = []
        """(user name, OpenSSH public key line) for each key the client offered that
        logs nobody in."""
        self._connection: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        self.connected_at = asyncio.get_running_loop().time()
        self.address = address_of(conn.get_extra_info("peername"))
        banned = self.guard.bans.refusal(self.address) if self.guard is not None else None
        if banned is not None and self.guard is not None:
            # Told at the first moment SSH lets a server say something: the banner
            # before authentication (``begin_auth``); counted meanwhile against the
            # address's connections at once, and cut off soon.
            self.guard.refusals.info(self.address, "SSH connection refused: %s", banned)
            if not self.guard.hold(self.address):
                conn.abort()
                return
            self.admitted, self.banned = True, banned
            asyncio.get_running_loop().call_later(BANNED_LINGER_SECONDS, conn.abort)
            return
        refusal = self.guard.admit(self.address) if self.guard is not None else None
        if refusal is not None:
            self.guard.refusals.info(self.address, "SSH connection refused: %s", refusal)
            conn.abort()
            return
        self.admitted = True
        self.attempts = LoginAttempts(self.logins, self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted and self.guard is not None:
            self.admitted = False
            self.guard.release(self.address)

    def _is_sysop(self, username: str) -> bool:
        return username.casefold() == self.sysop.name.casefold()

    def begin_auth(self, username: str) -> bool:
        if self.banned and self._connection is not None:
            self._connection.send_auth_banner(f"{self.banned}\r\n")
            self._connection.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, self.banned)
            return True
        if self._is_sysop(username):
            return True
        if self.store is None or not ssh_needs_auth(username):
            return False
        if self._connection is not None:
            # Said before the password prompt: how to get in without an account.
            self._connection.send_auth_banner(AUTH_BANNER)
        return True

    def password_auth_supported(self) -> bool:
        return bool(self.sysop.password_hash) or self.store is not None

    async def validate_password(self, username: str, password: str) -> bool:
        attempts = self.attempts or LoginAttempts(self.logins, self.address)
        self.attempts = attempts
        try:
            if self._is_sysop(username):
                return await attempts.verify(username, lambda: self._sysop_password(password))
            self.account = await ssh_password_login(self.store, username, password, attempts)
        except PasswordResetRequired as reset:
            # The sysop's reset code: in, to choose a new password before anything else.
            self.pending_reset = PendingReset(reset.account_id, reset.handle, password)
            return True
        except LoginError:
            self.account = None
        except TooManyTries:
            self.account = None
        self.by_password = self.account is not None
        if not self.by_password and attempts.exhausted and self._connection is not None:
            # The third wrong password ends the call, before the client asks a fourth.
            logger.info("SSH caller from %s used up their passwords", escaped(self.address))
            self._connection.close()
        return self.by_password

    async def _sysop_password(self, password: str) -> bool:
        # scrypt and argon2 are meant to be slow and big: off the event loop, a few at once.
        if not self.sysop.password_hash:
            raise LoginError("wrong password")
        try:
            matches = await password_checks().run(
                verify_password, self.sysop.password_hash, password
            )
        except HashPoolFull as busy:
            raise LoginError(str(busy)) from None
        if matches:
            return True
        raise LoginError("wrong password")

    def public_key_auth_supported(self) -> bool:
        return bool(self.sysop_keys) or self.store is not None

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._is_sysop(username):
            return key.public_data in self.sysop_keys
        line = key.export_public_key().decode("ascii").strip()
        account = await ssh_key_login(self.store, username, line)
        if account is None:
            if (handle_key(username), line) not in self.offered_keys:
                self.offered_keys.append((handle_key(username), line))
            return False
        self.account, self.by_password = account, False
        return True

    def caller(self, username: str, peer: str) -> Caller:
        """Who came in, for the session; ``username`` is the one the connection
        authenticated as."""
        if self._is_sysop(username):
            # Only the sysop's password or key gets a connection in under this name.
            return Caller(
                name=self.sysop.name,
                transport="ssh",
                peer=peer,
                sysop=True,
                connected_at=self.connected_at,
            )
        key = handle_key(username)
        when = self.connected_at
        if key == NEW_USER:
            return Caller(None, "ssh", peer, arriving_as="new", connected_at=when)
        if key == GUEST_USER:
            return Caller(None, "ssh", peer, arriving_as="guest", connected_at=when)
        if self.store is None:
            # Accounts are off: the user name is the name.
            return Caller(username, "ssh", peer, connected_at=when)
        reset = self.pending_reset
        if reset is not None and handle_key(reset.handle) == key:
            return Caller(None, "ssh", peer, pending_reset=reset, connected_at=when)
        account = self.account
        if account is None or handle_key(account.handle) != key:
            # Cannot happen (asyncssh let in a handle only with its password or key), but
            # if it did, the caller has proven nothing: they choose how to come in.
            return Caller(None, "ssh", peer, connected_at=when)
        offered = tuple(line for user, line in self.offered_keys if user == key)
        return Caller(
            None,
            "ssh",
            peer,
            account=account,
            offered_keys=offered if self.by_password else (),
            connected_at=when,
        )


def sysop_keys(sysop: SysopConfig) -> frozenset[bytes]:
    """The sysop's authorized keys; a ConfigError names the key line that does not read."""
    keys = set()
    for number, line in enumerate(sysop.authorized_keys, start=1):
        try:
            keys.add(asyncssh.import_public_key(line).public_data)
        except (asyncssh.KeyImportError, ValueError) as error:
            raise ConfigError(
                f"sysop.authorized_keys: key {number} is not an OpenSSH public key ({error})"
            ) from None
    return frozenset(keys)


def load_host_keys(data_dir: Path) -> list[asyncssh.SSHKey]:
    """The server's host keys, created in the data directory on first start."""
    data_dir.mkdir(parents=True, exist_ok=True)
    keys = []
    for file_name, algorithm in HOST_KEY_FILES:
        path = data_dir / file_name
        if path.exists():
            keys.append(asyncssh.read_private_key(str(path)))
            continue
        key = asyncssh.generate_private_key(algorithm)
        key.write_private_key(str(path))
        path.chmod(0o600)
        logger.info("created SSH host key %s", path)
        keys.append(key)
    return keys


async def start_ssh(
    door: Door, host: str, port: int, data_dir: Path, legacy_algorithms: bool = False
) -> asyncssh.SSHAcceptor:
    """Listen for SSH callers; returns the acceptor (``.sockets``, ``.close()``)."""

    async def handle(process: asyncssh.SSHServerProcess[bytes]) -> None:
        width, height, _, _ = process.get_terminal_size()
        term_type = process.get_terminal_type()
        source = _SSHSource(process)
        terminal = StreamTerminal(
            source,
            _SSHSink(process),
            term_type=term_type.lower() if term_type else None,
            size=(width, height),
            **door.terminal_limits(),
        )
        source.terminal = terminal
        terminal.start()
        peer = process.get_extra_info("peername")
        username = process.get_extra_info("username") or ""
        connection = process.get_extra_info("connection")
        server = connection.get_owner() if connection is not None else None
        assert isinstance(server, DoorSSHServer)
        caller = server.caller(username, peer_text(peer))
        try:
            await door.serve_caller(terminal, caller)
        finally:
            # The terminal holds its source: let go of the terminal, or the pair is a
            # cycle that outlives the call (door.gc_policy).
            source.terminal = None

    sysop = door.config.sysop
    keys = sysop_keys(sysop)
    store = door.records.store
    options: dict[str, Any] = {}
    settings = door.config.server
    if settings.proxy_protocol:
        # asyncssh lets a "tunnel" make the listening server: one whose connections
        # begin with a PROXY header (door/transports/proxy_header.py).
        options["tunnel"] = ProxiedListener(
            parse_networks(settings.proxy_addresses), reuse_port=door.shares_ports
        )
    elif door.shares_ports:
        options["reuse_port"] = True
    options["encryption_algs"] = list(CIPHERS)
    options["mac_algs"] = list(MACS)
    if legacy_algorithms:
        options["kex_algs"] = [alg.decode("ascii") for alg in get_default_kex_algs()]
        options["kex_algs"] += LEGACY_KEX
        options["encryption_algs"] += LEGACY_CIPHERS
    return await asyncssh.create_server(
        lambda: DoorSSHServer(sysop, keys, store, door.guard, door.records.logins),
        host,
        port,
        server_host_keys=load_host_keys(data_dir),
        process_factory=handle,
        encoding=None,
        line_editor=False,
        login_timeout=door.config.server.login_timeout_seconds,
        # A caller sends keys: a small window bounds what a flooder can make asyncssh
        # buffer (it grants a whole window each time the door reads, paused or not).
        window=INPUT_WINDOW,
        **options,
    )
