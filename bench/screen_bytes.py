"""Bytes the door sends a caller: per highlight-bar move, per full repaint, per game.

Each charset is measured with the terminal type that selects it (xterm-256color: UTF-8
with colour; ansi: CP437 with colour, as SyncTERM; dumb: ASCII without colour). A game is
played to 121 by a scripted caller who presses what the status line offers, against the
"easy" computer, with no pauses.

Run: python bench/screen_bytes.py [--games N] [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from door.table.options import GameOptions  # noqa: E402
from door.table.solo import play_against_computer  # noqa: E402
from door.term.keys import Key  # noqa: E402
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal, play_through  # noqa: E402

TERMINAL_TYPES = {"UTF-8": "xterm-256color", "CP437": "ansi", "ASCII": "dumb"}
OPTIONS = GameOptions(level="easy")


def start(terminal: KeyboardTerminal, seed: int) -> asyncio.Task[object]:
    game = play_against_computer(
        Session(terminal), OPTIONS, "Bench", rng=random.Random(seed), pause=0
    )
    return asyncio.ensure_future(game)


async def bar_moves(term_type: str, moves: int) -> tuple[list[int], int]:
    """Bytes for each of ``moves`` bar moves in the discard, and for one Ctrl-L repaint."""
    terminal = KeyboardTerminal(term_type=term_type)
    task = start(terminal, seed=1)
    await terminal.until_waiting(task)
    terminal.press(Key.ENTER)  # a blank chat line deals
    await terminal.until_waiting(task)
    sizes = []
    for move in range(moves):
        sent = len(terminal.output)
        terminal.press(Key.RIGHT if move % 7 else Key.LEFT)
        await terminal.until_waiting(task)
        sizes.append(len(terminal.output) - sent)
    sent = len(terminal.output)
    terminal.press(Key.CTRL_L)
    await terminal.until_waiting(task)
    repaint = len(terminal.output) - sent
    task.cancel()
    terminal.close()
    return sizes, repaint


async def game_bytes(term_type: str, seed: int) -> tuple[int, int]:
    """Bytes sent over one whole game, and the keys the caller pressed."""
    terminal = KeyboardTerminal(term_type=term_type)
    task = start(terminal, seed)
    await play_through(terminal, task)
    await task
    terminal.close()
    return len(terminal.output), terminal.pressed


async def main(games: int, moves: int) -> None:
    print(
        f"{'charset':<8}{'bar move':>10}{'(min-max)':>12}{'repaint':>10}"
        f"{'per game':>12}{'keys':>7}{'per key':>9}"
    )
    for charset, term_type in TERMINAL_TYPES.items():
        sizes, repaint = await bar_moves(term_type, moves)
        per_game = [await game_bytes(term_type, seed) for seed in range(1, games + 1)]
        total = statistics.mean(size for size, _ in per_game)
        keys = statistics.mean(pressed for _, pressed in per_game)
        print(
            f"{charset:<8}{statistics.mean(sizes):>10.0f}{f'({min(sizes)}-{max(sizes)})':>12}"
            f"{repaint:>10}{total:>12,.0f}{keys:>7.0f}{total / keys:>9.0f}"
        )
    print(f"\nbar move: mean of {moves} moves in the discard; per game: mean of {games} games")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves))
