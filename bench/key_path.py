"""The path of one key through the door: which of our modules run, in which order, from
the bytes of a telnet caller's RETURN (playing a card in the pegging) arriving on the
socket to the first bytes written back to it.

The door is started in this process on a free port; a guest calls over telnet, plays the
computer and presses what the status line offers until the pegging asks for a card. Then
a profile hook records every call into door/ and engine/ while RETURN plays the card,
until the socket's transport is first written to. The figures are what
docs/ARCHITECTURE.md gives: the modules on the path, the hops between modules, and the
hops that return to a module the key has already left (the path turning back on itself).

Run: python bench/key_path.py [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from door.config import config_from_mapping  # noqa: E402
from door.serve import Listening, run_server  # noqa: E402
from door.term.keys import Key, encode_key  # noqa: E402
from tests.door.caller import answer  # noqa: E402
from tests.door.netclients import TelnetCaller, free_port  # noqa: E402

OURS = (str(ROOT / "door") + "/", str(ROOT / "engine") + "/")


def module_of(filename: str) -> str | None:
    if not filename.startswith(OURS):
        return None
    return str(Path(filename).relative_to(ROOT))


def package_of(module: str) -> str:
    """door/term/keys.py -> door/term; door/serve.py -> door."""
    return str(Path(module).parent)


class PathRecorder:
    """The modules of ours entered, in order (each entry once per consecutive run)."""

    def __init__(self) -> None:
        self.hops: list[str] = []
        self.answered = False

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.answered or event != "call":
            return
        code = frame.f_code
        if code.co_name == "write" and "selector_events" in code.co_filename:
            self.answered = True  # the first bytes back to the caller's socket
            return
        module = module_of(code.co_filename)
        if module is not None and (not self.hops or self.hops[-1] != module):
            self.hops.append(module)


async def quiet(caller: TelnetCaller, seconds: float = 0.3) -> None:
    while True:
        before = caller.received
        await asyncio.sleep(seconds)
        if caller.received == before:
            return


async def measure(data_dir: Path) -> list[str]:
    config = config_from_mapping(
        {
            "server": {"telnet_port": free_port(), "ssh_port": 0, "data_dir": str(data_dir)},
            "game": {"computer_pause_seconds": 0, "level": "easy"},
        }
    )
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    listening = await asyncio.wait_for(ready, 30)
    assert listening.telnet is not None
    caller = TelnetCaller()
    await caller.connect(listening.telnet[1])
    await caller.come_as_guest("Tess")
    await caller.wait_for("Play the computer")
    await caller.send("p")
    for _ in range(200):
        await quiet(caller)
        status = caller.screen.display[23]
        if "RETURN play" in status:
            break
        for key in answer(status):
            await caller.send(key if isinstance(key, str) else encode_key(key))
    else:
        raise SystemExit("the pegging never asked for a card:\n" + caller.text)
    recorder = PathRecorder()
    # The caller's bytes leave now, before the hook is set: the caller's own write to
    # its socket is not the door's answer.
    caller.writer.write(encode_key(Key.ENTER))
    sys.setprofile(recorder)
    try:
        while not recorder.answered:
            await asyncio.sleep(0.01)
    finally:
        sys.setprofile(None)
    stop.set()
    await asyncio.wait_for(server, 30)
    return recorder.hops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every hop in order")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        hops = asyncio.run(measure(Path(folder)))
    modules = list(dict.fromkeys(hops))
    seen: set[str] = set()
    back = 0
    for hop in hops:
        back += hop in seen
        seen.add(hop)
    if args.show:
        for hop in hops:
            print(" ", hop)
    print(f"modules on the path: {len(modules)}")
    for module in modules:
        print(f"  {module}")
    print(f"hops between modules: {len(hops) - 1}")
    print(f"hops back to a module already left: {back}")
    packages = [package_of(hop) for hop in hops]
    steps = [name for n, name in enumerate(packages) if n == 0 or packages[n - 1] != name]
    print(f"packages in the order the key reaches them: {' > '.join(dict.fromkeys(steps))}")
    print(f"hops between packages: {len(steps) - 1}")


if __name__ == "__main__":
    main()
