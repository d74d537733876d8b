"""``db check``: whether the door's database holds together. The database's own check
(SQLite's integrity_check), the audit's guard against changes (its triggers), every
foreign key of the schema (door/storage/schema.py's metadata, so a new table's are
checked too) for rows that point at nothing, and every kept recording for one that no
longer replays.

Read only: the check changes nothing, and reports rather than repairs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Column, and_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from door.storage.audit import missing_guards
from door.storage.migrate import current_revision, head_revision
from door.storage.schema import (
    accounts,
    game_logs,
    games,
    metadata,
    pbm_games,
    tournament_pairings,
)
from door.storage.transfer import BATCH_ROWS, TransferError, connected
from engine.rules.record import Recording, replay

RECORDINGS: Final[tuple[tuple[Column[str], str], ...]] = (
    (games.c.recording, "game {id}'s saved recording"),
    (game_logs.c.recording, "game {id}'s log"),
    (pbm_games.c.recording, "mail game {id}'s recording"),
)
"""The columns holding engine.rules.record.Recording JSON, and how to name a row's."""

Reference = tuple[Column[Any], Column[Any]]

UNENFORCED_REFERENCES: Final[tuple[Reference, ...]] = (
    (tournament_pairings.c.first_account_id, accounts.c.id),
    (tournament_pairings.c.second_account_id, accounts.c.id),
)
"""Columns naming a row of another table with no foreign key to say so (a pairing
outlives nothing, but a hand-edited database might)."""

SHOWN_PER_PROBLEM: Final = 5
"""Row numbers listed for one kind of problem; the rest are counted."""


@dataclass
class CheckReport:
    """What the check found: ``lines`` to print, ``problems`` among them."""

    lines: list[str] = field(default_factory=list)
    problems: int = 0

    def ok(self, line: str) -> None:
        self.lines.append(f"ok       {line}")

    def problem(self, line: str) -> None:
        self.problems += 1
        self.lines.append(f"PROBLEM  {line}")


async def check_database(url: str, name: str) -> CheckReport:
    """Check the database at ``url``; raises TransferError when it cannot be read."""
    report = CheckReport()
    async with connected(url) as connection:
        revision = await connection.run_sync(current_revision)
        if revision != head_revision():
            raise TransferError(
                f"{name}: its schema is revision {revision}, not this door's "
                f"{head_revision()}; start the door once to bring it up to date"
            )
        report.ok(f"schema revision {revision}")
        if connection.dialect.name == "sqlite":
            result = await connection.exec_driver_sql("PRAGMA integrity_check")
            found = [str(row[0]) for row in result]
            if found == ["ok"]:
                report.ok("SQLite integrity_check")
            else:
                for line in found[:SHOWN_PER_PROBLEM]:
                    report.problem(f"SQLite integrity_check: {line}")
        missing = await missing_guards(connection)
        if missing:
            report.problem(
                f"the audit can be changed: its trigger(s) {', '.join(missing)} are missing "
                "or disabled (migration 0008 makes them)"
            )
        else:
            report.ok("the audit refuses changes (its triggers are in place)")
        for pairs in references():
            await _check_references(connection, pairs, report)
        # A finished game's row and its log hold the same recording: replaying (about
        # 5 ms a game) is the check's cost, so each text is replayed once.
        replayed: set[bytes] = set()
        for column, label in RECORDINGS:
            await _check_recordings(connection, column, label, report, replayed)
    return report


def references() -> list[list[Reference]]:
    """Every foreign key of the schema, and the references it keeps without one, each as
    its (child, parent) column pairs."""
    found = [[(child, parent)] for child, parent in UNENFORCED_REFERENCES]
    for table in metadata.sorted_tables:
        for constraint in table.foreign_key_constraints:
            found.append([(element.parent, element.column) for element in constraint.elements])
    return sorted(found, key=lambda pairs: [(child.table.name, child.name) for child, _ in pairs])


async def _check_references(
    connection: AsyncConnection, pairs: Sequence[Reference], report: CheckReport
) -> None:
    """Rows whose (child) columns are set but match no parent row."""
    table, parent = pairs[0][0].table, pairs[0][1].table
    orphans = (
        select(*table.primary_key.columns)
        .select_from(table.outerjoin(parent, and_(*(child == up for child, up in pairs))))
        .where(*(child.is_not(None) for child, _ in pairs))
        .where(*(up.is_(None) for _, up in pairs))
    )
    keys = [tuple(row) for row in await connection.execute(orphans)]
    columns = ", ".join(f"{table.name}.{child.name}" for child, _ in pairs)
    if not keys:
        report.ok(f"{columns} -> {parent.name}")
        return
    report.problem(
        f"{columns} -> {parent.name}: {len(keys)} row(s) point at nothing ({_listed(keys)})"
    )


async def _check_recordings(
    connection: AsyncConnection,
    column: Column[str],
    label: str,
    report: CheckReport,
    replayed: set[bytes],
) -> None:
    table = column.table
    (key,) = table.primary_key.columns
    checked, broken = 0, []
    result = await connection.stream(select(key, column).order_by(key))
    async for batch in result.partitions(BATCH_ROWS):
        for number, text in batch:
            checked += 1
            digest = hashlib.sha256(text.encode()).digest()
            if digest in replayed:
                continue
            try:
                replay(Recording.from_json(text))
            except ValueError as error:  # RecordingError, or JSON that is not one
                broken.append(f"{label.format(id=number)}: {error}")
            else:
                replayed.add(digest)
    if not broken:
        report.ok(f"{table.name}.{column.name}: {checked} recording(s) replay")
        return
    for line in broken[:SHOWN_PER_PROBLEM]:
        report.problem(f"{line} (does not replay)")
    if len(broken) > SHOWN_PER_PROBLEM:
        report.problem(f"{len(broken) - SHOWN_PER_PROBLEM} more in {table.name} do not replay")


def _listed(keys: Sequence[tuple[object, ...]]) -> str:
    shown = ", ".join("/".join(str(part) for part in key) for key in keys[:SHOWN_PER_PROBLEM])
    more = len(keys) - SHOWN_PER_PROBLEM
    return f"{shown} and {more} more" if more > 0 else shown
