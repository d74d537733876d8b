"""When a line drops, everything of that caller's session ends within a second and
nothing of it stays referenced: no task, no terminal, no member in the presence."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

from door.app.door import Door
from door.serve import Listening, run_server
from tests.door.netclients import SSHCaller, TelnetCaller, server_config


def test_a_dropped_line_leaves_nothing_behind(tmp_path: Path) -> None:
    config = server_config(tmp_path)

    async def scenario() -> tuple[list[bool], int, int, int]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.telnet and listening.ssh
        await asyncio.sleep(0.2)
        tasks_before = len(asyncio.all_tasks())
        telnet, ssh = TelnetCaller(), SSHCaller()
        await telnet.connect(listening.telnet[1])
        await ssh.connect(listening.ssh[1], username="guest")
        await telnet.come_as_guest("Tess")
        await ssh.give_name("Sam")
        await telnet.wait_for("Press a key from the menu")
        await ssh.wait_for("Press a key from the menu")
        await telnet.send("p")  # Tess is at a table, Sam in the lobby, when the lines drop
        await telnet.wait_for("Cut for")
        terminals = [weakref.ref(terminal) for terminal in door.terminals]
        assert len(terminals) == 2
        telnet.hang_up()
        ssh.hang_up()
        for _ in range(20):  # within a second
            await asyncio.sleep(0.05)
            if not door.terminals and not door.presence.members:
                break
        telnet.pump.cancel()
        ssh.pump.cancel()
        await asyncio.sleep(0.1)
        gc.collect()
        alive = [ref() is not None for ref in terminals]
        leftover_tasks = len(asyncio.all_tasks()) - tasks_before
        still_on = len(door.presence.members) + len(door.terminals)
        tables = len(door.presence.tables)
        stop.set()
        await asyncio.wait_for(server, 10)
        return alive, leftover_tasks, still_on, tables

    alive, leftover_tasks, still_on, tables = asyncio.run(scenario())
    assert still_on == 0 and tables == 0
    assert alive == [False, False], "a session's terminal is still referenced"
    assert leftover_tasks <= 0, f"{leftover_tasks} task(s) of the sessions are still running"
