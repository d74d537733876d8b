"""How a caller takes a seat (or watches) at any table: as a ``Reader`` when their
session is a screen reader's (door/table/reader.py), else as a full-screen ``Person``
(door/table/person.py). Tables are given this as their ``admit``
(door/table/seats.py's ``Admit``), so a screen reader's caller and a full-screen one
sit at the same table, each seeing it their own way."""

from __future__ import annotations

from typing import Any

from door.table.person import Person
from door.table.reader import Reader
from door.table.seats import Seat
from door.ui.session import Session


def person_or_reader(table: Any, name: str, session: Session, seat: Seat | None) -> Person | Reader:
    """The participant ``session``'s caller is at ``table``: a ``Reader`` for a screen
    reader's session, a ``Person`` for every other."""
    if session.speech:
        return Reader(table, name, session, seat)
    return Person(table, name, session, seat)
