"""A table's listener for tests: keeps what the table told it."""

from __future__ import annotations

from door.competition.match import Match
from door.table.flow import Table
from door.table.listener import TableListener
from door.table.options import GameResult


class Heard(TableListener[Table]):
    """Every game's result, the match as it stood when each game of one ended, and how
    often the table was abandoned."""

    def __init__(self) -> None:
        self.results: list[GameResult] = []
        self.matches: list[Match] = []
        self.abandoned_count = 0

    def game_over(self, table: Table, result: GameResult) -> None:
        self.results.append(result)
        if table.match is not None:
            self.matches.append(table.match)

    def abandoned(self, table: Table) -> None:
        self.abandoned_count += 1
