"""The SSH transport: asyncssh runs the protocol; this turns a session into a Terminal."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import asyncssh
from asyncssh.encryption import get_default_encryption_algs
from asyncssh.kex import get_default_kex_algs

from door.config import ConfigError, SysopConfig
from door.server import Door
from door.session import Caller
from door.sysop import verify_password
from door.terminal import StreamTerminal

logger = logging.getLogger(__name__)

READ_SIZE = 4096
HOST_KEY_FILES = (("ssh_host_ed25519_key", "ssh-ed25519"), ("ssh_host_rsa_key", "ssh-rsa"))
# What cryptlib-based BBS clients (SyncTERM) can speak; off unless the sysop opts in.
LEGACY_KEX = (b"diffie-hellman-group14-sha1", b"diffie-hellman-group1-sha1")
LEGACY_CIPHERS = (b"aes128-cbc", b"aes256-cbc", b"3des-cbc")


class _SSHSource:
    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.process = process
        self.terminal: StreamTerminal | None = None

    async def read(self) -> bytes:
        while True:
            try:
                return await self.process.stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                if self.terminal is not None:
                    self.terminal.resize(change.width, change.height)
            except (asyncssh.ConnectionLost, asyncssh.BreakReceived, asyncssh.SignalReceived):
                return b""


class _SSHSink:
    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.process = process

    def write(self, data: bytes) -> None:
        self.process.stdout.write(data)

    async def drain(self) -> None:
        try:
            await self.process.stdout.drain()
        except (asyncssh.ConnectionLost, BrokenPipeError) as error:
            raise EOFError("the SSH channel closed") from error

    def close(self) -> None:
        self.process.exit(0)


class DoorSSHServer(asyncssh.SSHServer):
    """Callers log in under any user name, which becomes their name, with no password;
    the sysop's name alone needs the sysop's password or one of the sysop's keys."""

    def __init__(self, sysop: SysopConfig, sysop_keys: frozenset[bytes]) -> None:
        self.sysop = sysop
        self.sysop_keys = sysop_keys

    def _is_sysop(self, username: str) -> bool:
        return username.casefold() == self.sysop.name.casefold()

    def begin_auth(self, username: str) -> bool:
        return self._is_sysop(username)

    def password_auth_supported(self) -> bool:
        return bool(self.sysop.password_hash)

    async def validate_password(self, username: str, password: str) -> bool:
        if not self._is_sysop(username) or not self.sysop.password_hash:
            return False
        # scrypt and argon2 are meant to be slow: keep them off the event loop.
        return await asyncio.to_thread(verify_password, self.sysop.password_hash, password)

    def public_key_auth_supported(self) -> bool:
        return bool(self.sysop_keys)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return self._is_sysop(username) and key.public_data in self.sysop_keys


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
        )
        source.terminal = terminal
        terminal.start()
        peer = process.get_extra_info("peername")
        name = process.get_extra_info("username") or ""
        # Only the sysop's password or key gets a connection in under the sysop's name.
        is_sysop = name.casefold() == sysop.name.casefold()
        caller = Caller(
            name=name,
            transport="ssh",
            peer=f"{peer[0]}:{peer[1]}" if peer else "",
            sysop=is_sysop,
        )
        await door.serve_caller(terminal, caller)

    sysop = door.config.sysop
    keys = sysop_keys(sysop)
    options: dict[str, Any] = {}
    if legacy_algorithms:
        options["kex_algs"] = [*get_default_kex_algs(), *LEGACY_KEX]
        options["encryption_algs"] = [*get_default_encryption_algs(), *LEGACY_CIPHERS]
    return await asyncssh.create_server(
        lambda: DoorSSHServer(sysop, keys),
        host,
        port,
        server_host_keys=load_host_keys(data_dir),
        process_factory=handle,
        encoding=None,
        line_editor=False,
        **options,
    )
