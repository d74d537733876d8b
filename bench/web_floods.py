"""Floods against the web listener (issue #52), measured from outside the server.

Starts the door (default settings, web on a free port) from a source tree (``--tree``,
by default this one) and runs, from 127.0.0.2, one flood at a time against a fresh server:

  half-open   ``--connections`` requests sent up to ``Upgrade: websocket`` and no further
  refused     ``--connections`` whole WebSocket requests, none of them closed by the caller
              (past the per-address limits each is refused with 429)
  resize      one page WebSocket sending window sizes flat out for ``--storm-seconds``
  ghost       one telnet-tunnel WebSocket sending 4,000-byte frames of keys and window sizes
              for 2 s without reading, then a TCP reset: how long until the server lets
              go of its socket (up to ``--wait`` seconds)

For each it prints the server's descriptors before, 2 s in and at the end (``--wait``
seconds in), how many of the attacker's connections the server had closed by then, the
server's CPU seconds over the flood, and the lines it logged.

Run: python bench/web_floods.py [--tree DIR] [--floods half-open,refused,resize,ghost]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import cpu_seconds, free_port  # noqa: E402  (a sibling script)

ATTACKER = "127.0.0.2"
HOST = "127.0.0.1"


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class Server:
    def __init__(self, tree: Path, root: Path) -> None:
        self.web_port = free_port()
        self.data_dir = Path(tempfile.mkdtemp(dir=root))
        self.log_path = self.data_dir / "server.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "door.cli", "--web-port", str(self.web_port),
             "--telnet-port", str(free_port()), "--ssh-port", "0",
             "--data-dir", str(self.data_dir), "--host", HOST],
            stdout=subprocess.DEVNULL, stderr=self.log, cwd=self.data_dir, env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, self.web_port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server never listened")
        time.sleep(1.0)  # the connection just made is gone, the log settled

    def log_lines(self) -> int:
        return len(self.log_path.read_bytes().splitlines())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


async def connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(HOST, port, local_addr=(ATTACKER, 0))


def upgrade_request(port: int, whole: bool, protocol: str = "") -> bytes:
    head = f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
    if protocol:
        head += f"Sec-WebSocket-Protocol: {protocol}\r\n"
    if not whole:
        return head.encode()
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        head + f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def ws_text_frame(text: str) -> bytes:
    payload = text.encode()
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """Whether the server has closed this connection (reads what it sent meanwhile)."""
    try:
        while True:
            data = await asyncio.wait_for(reader.read(65536), 0.01)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


async def connection_flood(server: Server, count: int, whole: bool, wait: float) -> dict:
    pid = server.process.pid
    before_fds, before_cpu, before_lines = descriptors(pid), cpu_seconds(pid), server.log_lines()
    opened = []
    for _ in range(count):
        try:
            reader, writer = await connect(server.web_port)
        except OSError:
            continue
        writer.write(upgrade_request(server.web_port, whole))
        opened.append((reader, writer))
    started = time.monotonic()
    await asyncio.sleep(2.0)
    fds_2s = descriptors(pid)
    await asyncio.sleep(max(0.0, wait - (time.monotonic() - started)))
    closed = sum([await closed_by_server(reader) for reader, _ in opened])
    result = {
        "fds": f"{before_fds} -> {fds_2s} (2 s) -> {descriptors(pid)} ({wait:.0f} s)",
        "closed by server": f"{closed}/{len(opened)}",
        "cpu s": round(cpu_seconds(pid) - before_cpu, 2),
        "log lines": server.log_lines() - before_lines,
    }
    for _, writer in opened:
        writer.transport.abort()
    return result


async def resize_storm(server: Server, seconds: float) -> dict:
    pid = server.process.pid
    reader, writer = await connect(server.web_port)
    writer.write(upgrade_request(server.web_port, True))
    await reader.readuntil(b"\r\n\r\n")
    await asyncio.sleep(1.0)
    before_fds, before_cpu, before_lines = descriptors(pid), cpu_seconds(pid), server.log_lines()
    batch = b"".join(
        ws_text_frame(f'{{"cols": {80 + n % 50}, "rows": {24 + n % 20}}}') for n in range(500)
    )
    sent = 0
    deadline = time.monotonic() + seconds
    drain = asyncio.ensure_future(_discard(reader))
    while time.monotonic() < deadline:
        writer.write(batch)
        sent += 500
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(writer.drain(), max(0.0, deadline - time.monotonic()))
    cpu = cpu_seconds(pid) - before_cpu
    drain.cancel()
    writer.transport.abort()
    return {
        "frames sent": sent,
        "cpu s": round(cpu, 2),
        "fds": f"{before_fds} -> {descriptors(pid)}",
        "log lines": server.log_lines() - before_lines,
    }


NAWS_400X200 = bytes([255, 250, 31, 1, 144, 0, 200, 255, 240])


def ws_binary_frame(payload: bytes) -> bytes:
    return bytes([0x82, 0x80 | 126]) + struct.pack("!H", len(payload)) + b"\0\0\0\0" + payload


async def ghost(server: Server, wait: float) -> dict:
    pid = server.process.pid
    before_fds, before_cpu, before_lines = descriptors(pid), cpu_seconds(pid), server.log_lines()
    reader, writer = await connect(server.web_port)
    writer.write(upgrade_request(server.web_port, True, "telnet"))
    await reader.readuntil(b"\r\n\r\n")
    await asyncio.sleep(2.0)  # negotiated, at the arrival screen
    frame = ws_binary_frame((b"abcdefgh" * 500)[:3991] + NAWS_400X200)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        writer.write(frame * 64)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(writer.drain(), max(0.0, deadline - time.monotonic()))
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
    reset_at = time.monotonic()
    gone = None
    while gone is None and time.monotonic() - reset_at < wait:
        await asyncio.sleep(0.05)
        if b"web-telnet caller from" in server.log_path.read_bytes().split(b"ready in", 1)[-1]:
            gone = time.monotonic() - reset_at
    log = server.log_path.read_bytes()
    return {
        "session ended": f"{gone:.2f} s after the reset" if gone else f"not within {wait:.0f} s",
        "fds": f"{before_fds} -> {descriptors(pid)}",
        "cpu s": round(cpu_seconds(pid) - before_cpu, 2),
        "log lines": server.log_lines() - before_lines,
        "errors": log.count(b" ERROR "),
    }


async def _discard(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError):
        while await reader.read(65536):
            pass


async def run(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="web-floods-"))
    for flood in args.floods.split(","):
        server = Server(args.tree, root)
        try:
            if flood == "half-open":
                result = await connection_flood(server, args.connections, False, args.wait)
            elif flood == "refused":
                result = await connection_flood(server, args.connections, True, args.wait)
            elif flood == "resize":
                result = await resize_storm(server, args.storm_seconds)
            elif flood == "ghost":
                result = await ghost(server, args.wait)
            else:
                raise SystemExit(f"no flood called {flood!r}")
        finally:
            server.stop()
        print(f"{flood:10} " + "  ".join(f"{k}: {v}" for k, v in result.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--floods", default="half-open,refused,resize,ghost")
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--wait", type=float, default=30.0)
    parser.add_argument("--storm-seconds", type=float, default=15.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
