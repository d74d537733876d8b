"""A process that plays a saved game as fast as it can, for test_crash to kill.

    python -m tests.door.storage.crash_child URL CONNECT_ARGS_JSON ACCOUNT_ID SEED

It prints the number of actions taken once each is saved, and after the game waits to
be killed.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

import argon2

from door.storage.saver import GameSaver
from door.storage.store import Seat, Store
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.game import Phase
from engine.rules.record import RecordedGame


def players(seed: int) -> list[RandomPlayer]:
    return [RandomPlayer(random.Random(seed * 3 + seat)) for seat in range(2)]


async def play(url: str, connect_args: dict[str, object], account_id: int, seed: int) -> None:
    hasher = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    store = await Store.open(url, hasher=hasher, connect_args=connect_args)
    saver = GameSaver(store, [Seat("Ada", account_id), Seat("Computer")], "computer-easy")
    game = RecordedGame(seed=seed, on_action=saver.action_taken)
    seats = players(seed)
    while game.phase is not Phase.OVER:
        next_action(game, seats)
        await saver.flush()
        print(game.actions_taken, flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    url, connect_args, account_id, seed = sys.argv[1:5]
    asyncio.run(play(url, json.loads(connect_args), int(account_id), int(seed)))
