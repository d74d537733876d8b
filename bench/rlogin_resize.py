"""RLogin window-size storm: what one linked system sending window-size messages as fast
as it can costs the server, and a witness caller beside it.

Starts the real server (one process) with RLogin on, its ``systems`` listing 127.0.0.2.
A witness logs in over telnet from 127.0.0.1 and toggles a lobby option every 100 ms,
timing each key to the screen change it brings (bench/attacks.py's witness). The
attacker connects over RLogin from 127.0.0.2, gives a name, then for ``--seconds`` sends
``FF FF 's' 's'`` window sizes (changing every time) and never reads. Prints the bytes
sent, the server's CPU seconds over the storm, and the witness's p50/p95/max.

Run: python bench/rlogin_resize.py [--seconds 20] [--calm]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attacks import SERVER_HOST, Witness, percentile, telnet_guest  # noqa: E402
from load import cpu_seconds, free_port  # noqa: E402

ATTACKER_ADDRESS = "127.0.0.2"
WITNESS_ADDRESS = "127.0.0.1"


def window_size(cols: int, rows: int) -> bytes:
    return b"\xff\xffss" + rows.to_bytes(2, "big") + cols.to_bytes(2, "big") + bytes(4)


async def storm(port: int, seconds: float, calm: bool = False) -> int:
    reader, writer = await asyncio.open_connection(
        SERVER_HOST, port, local_addr=(ATTACKER_ADDRESS, 0)
    )
    writer.write(b"\0bbs\0Stormer\0ansi/38400\0")
    await writer.drain()
    await reader.readexactly(1)
    await asyncio.sleep(2.0)  # in the lobby: the door now draws for every size
    writer.transport.pause_reading()  # never read again
    burst = b"".join(window_size(60 + n % 60, 20 + n % 30) for n in range(4096))
    sent = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if calm:  # the baseline: connected, silent
            await asyncio.sleep(0.1)
            continue
        writer.write(burst)
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(writer.drain(), 0.5)
        sent += len(burst)
        await asyncio.sleep(0)
    writer.transport.abort()
    return sent


async def main(seconds: float, calm: bool) -> None:
    with tempfile.TemporaryDirectory() as root:
        telnet_port, ssh_port, rlogin_port = free_port(), free_port(), free_port()
        config = Path(root) / "door.toml"
        config.write_text(
            f'[rlogin]\nport = {rlogin_port}\nsystems = {{ "{ATTACKER_ADDRESS}" = "BENCH" }}\n'
        )
        log = open(Path(root) / "server.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "door.cli",
                "--config",
                str(config),
                "--telnet-port",
                str(telnet_port),
                "--ssh-port",
                str(ssh_port),
                "--data-dir",
                root,
                "--host",
                SERVER_HOST,
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection((SERVER_HOST, rlogin_port), 0.2).close()
                    socket.create_connection((SERVER_HOST, telnet_port), 0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)
            witness = Witness(await telnet_guest(telnet_port, WITNESS_ADDRESS, "Witness"))
            for _ in range(10):
                await witness.press()
            witness.latencies.clear()
            cpu_start = cpu_seconds(server.pid)
            started = time.monotonic()
            attack = asyncio.create_task(storm(rlogin_port, seconds, calm))
            await witness.keep_pressing(attack.done)
            sent = await attack
            elapsed = time.monotonic() - started
            cpu = cpu_seconds(server.pid) - cpu_start
            print(
                f"written {sent / 1e6:.1f} MB of window sizes in {elapsed:.1f} s"
                " (what the door does not read waits on the attacker's side);"
                f" server CPU {cpu:.1f} s;"
                f" witness {len(witness.latencies)} keys,"
                f" p50 {percentile(witness.latencies, 0.5):.1f} ms,"
                f" p95 {percentile(witness.latencies, 0.95):.1f} ms,"
                f" max {max(witness.latencies, default=0) * 1000:.1f} ms,"
                f" unanswered {witness.unanswered}"
            )
            witness.line.close()
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--calm", action="store_true", help="send nothing: the baseline")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.seconds, arguments.calm))
