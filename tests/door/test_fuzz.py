"""Random and adversarial bytes: into the key decoder, and into live telnet and SSH
sessions on loopback. Nothing a caller sends may crash the decoder or the server, and
the server must still serve a well-behaved caller afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from door.term.keys import Key, KeyDecoder
from tests.door.netclients import TelnetCaller, running_server, server_config, ssh_connection

ADVERSARIAL = [
    b"\x1b",
    b"\x1b[",
    b"\x1b[" + b"9" * 200,
    b"\x1bO",
    b"\xff",
    b"\xff\xfa\x18" + b"A" * 3000,  # an unterminated telnet subnegotiation
    b"\xff\xfa\x1f\xff\xff\x00\xff\xff\x00\xff\xf0",  # a 65535x65535 window
    b"\r\0",
    b"\xc3",
    b"\xf4\x90\x80\x80",
    b"\x00" * 50,
    b"\x1b]0;title\x07",
    b"\x1b[200~paste\x1b[201~",
]
chunks = st.one_of(st.binary(max_size=64), st.sampled_from(ADVERSARIAL))


@given(st.lists(chunks, max_size=40))
@settings(max_examples=300, deadline=None)
def test_the_decoder_takes_any_bytes_split_anyhow(parts: list[bytes]) -> None:
    decoder = KeyDecoder()
    keys: list[Key] = []
    for part in parts:
        keys += decoder.feed(part)
    keys += decoder.flush()
    assert all(isinstance(key, Key) for key in keys)
    assert all(len(key.char) <= 1 for key in keys)
    # Whatever came before, the decoder reads the next key right.
    assert decoder.feed(b"\x1b[A") == [Key.UP]
    # A flood yields at most a key a byte: nothing is multiplied.
    assert len(keys) <= sum(map(len, parts))


@given(st.lists(chunks, min_size=1, max_size=12))
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_live_sessions_survive_random_bytes(tmp_path_factory: object, parts: list[bytes]) -> None:
    data_dir = Path(tmp_path_factory.mktemp("fuzz"))  # type: ignore[attr-defined]
    config = server_config(data_dir, login_timeout_seconds=10)

    async def scenario() -> str:
        async with running_server(config, ready_seconds=20, stop_seconds=15) as listening:
            assert listening.telnet and listening.ssh
            # Raw telnet: no negotiation, just the bytes.
            reader, writer = await asyncio.open_connection("127.0.0.1", listening.telnet[1])
            for part in parts:
                writer.write(part)
            await writer.drain()
            # SSH as a guest, the same bytes as keys.
            connection = await ssh_connection(listening.ssh[1], client_keys=None)
            process = await connection.create_process(
                term_type="xterm", term_size=(80, 24), encoding=None
            )
            for part in parts:
                process.stdin.write(part)
            await asyncio.sleep(0.3)  # the point: the door chews on the garbage meanwhile
            writer.close()
            connection.close()
            # A well-behaved caller is still served.
            witness = TelnetCaller()
            await witness.connect(listening.telnet[1])
            await witness.come_as_guest("Witness")
            await witness.wait_for("Play the computer")
            witness.hang_up()
        return witness.text

    assert "Play the computer" in asyncio.run(asyncio.wait_for(scenario(), 60))
