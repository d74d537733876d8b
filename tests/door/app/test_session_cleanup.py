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
from tests.door.waiting import until


def test_a_dropped_line_leaves_nothing_behind(tmp_path: Path) -> None:
    config = server_config(tmp_path)

    async def scenario() -> tuple[list[bool], int, int]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.telnet and listening.ssh
        tasks_before = asyncio.all_tasks()  # the door's own, and any still starting
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
        await until(
            lambda: not door.terminals and not door.presence.members,
            1.0,
            what=lambda: f"terminals {door.terminals}, members {door.presence.members} gone",
        )
        telnet.pump.cancel()
        ssh.pump.cancel()
        await asyncio.gather(telnet.pump, ssh.pump, return_exceptions=True)
        sessions = asyncio.all_tasks() - tasks_before
        await until(
            lambda: all(task.done() for task in sessions),
            1.0,
            what=lambda: f"the sessions' tasks ended: {[t for t in sessions if not t.done()]}",
        )
        gc.collect()
        alive = [ref() is not None for ref in terminals]
        still_on = len(door.presence.members) + len(door.terminals)
        tables = len(door.presence.tables)
        stop.set()
        await asyncio.wait_for(server, 10)
        return alive, still_on, tables

    alive, still_on, tables = asyncio.run(scenario())
    assert still_on == 0 and tables == 0
    assert alive == [False, False], "a session's terminal is still referenced"
