"""What an SSH caller's packets are encrypted and signed with (issue #48): every key in
and every frame out is one packet, and asyncssh does AES in one call of the cryptography
library a packet (2.4-2.5 us for a frame's 450 bytes, with HMAC-SHA2) where its
chacha20-poly1305 builds ciphers in Python a packet (14 us). The door offers the AES
ciphers every SSH client has, and chacha20-poly1305 not at all; nor UMAC, which asyncssh
calls through ctypes (5 us with AES-CTR). A client that offers only CBC gets in when the
sysop opts in to the legacy algorithms."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from tests.door.netclients import SSHCaller, running_server, server_config, ssh_connection


async def negotiated(
    tmp_path: Path,
    encryption_algs: list[str] | None,
    mac_algs: list[str] | None = None,
    **server: object,
) -> tuple[str, str]:
    """The cipher and MAC a client offering ``encryption_algs`` and ``mac_algs`` (None:
    asyncssh's own lists, with chacha20-poly1305 and UMAC first, as OpenSSH's) gets."""
    options: dict[str, list[str]] = {}
    if encryption_algs is not None:
        options["encryption_algs"] = encryption_algs
    if mac_algs is not None:
        options["mac_algs"] = mac_algs
    async with running_server(server_config(tmp_path, **server)) as listening:
        assert listening.ssh is not None
        connection = await ssh_connection(listening.ssh[1], client_keys=None, **options)
        cipher = str(connection.get_extra_info("send_cipher"))
        mac = str(connection.get_extra_info("send_mac"))
        connection.close()
        await connection.wait_closed()
        return cipher, mac


def test_a_client_that_prefers_chacha20_gets_aes_gcm(tmp_path: Path) -> None:
    cipher, _ = asyncio.run(negotiated(tmp_path, None))
    assert cipher in ("aes256-gcm@openssh.com", "aes128-gcm@openssh.com")


def test_openssh_with_aes_ctr_gets_hmac_sha2_not_umac(tmp_path: Path) -> None:
    # OpenSSH's order: chacha20-poly1305, then AES-CTR before AES-GCM; UMAC first.
    openssh = ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes128-gcm@openssh.com"]
    macs = ["umac-64-etm@openssh.com", "umac-128-etm@openssh.com"]
    macs += ["hmac-sha2-256-etm@openssh.com", "hmac-sha1-etm@openssh.com"]
    assert asyncio.run(negotiated(tmp_path, openssh, macs)) == (
        "aes128-ctr",
        "hmac-sha2-256-etm@openssh.com",
    )


def test_cbc_only_with_the_legacy_algorithms(tmp_path: Path) -> None:
    cipher, _ = asyncio.run(negotiated(tmp_path, ["aes128-cbc"], ssh_legacy_algorithms=True))
    assert cipher == "aes128-cbc"
    with pytest.raises(asyncssh.Error):
        asyncio.run(negotiated(tmp_path / "plain", ["aes128-cbc"]))


def test_an_ssh_caller_still_plays(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(server_config(tmp_path)) as listening:
            assert listening.ssh is not None
            caller = SSHCaller()
            await caller.connect(listening.ssh[1])
            await caller.wait_for("Your name")
            caller.hang_up()

    asyncio.run(scenario())
