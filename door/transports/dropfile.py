"""Drop files: what a BBS tells a door about the caller it hands over.

Two formats are read, with one meaning (``DropFile``):

- DOOR32.SYS (11 lines): comm type (0 local, 1 serial, 2 telnet), comm or socket handle,
  baud, BBS name and version, user record number, real name, alias, security level,
  minutes left, emulation (0 ASCII, 1 ANSI, 2 AVATAR, 3 RIP, 4 MAX), node number.
- DOOR.SYS (the 52-line format, or the older 31): line 1 the comm port (``COM0:`` is
  local), 4 the node, 10 the real name, 15 the security level, 19 the minutes left, 20
  the graphics mode (``GR`` graphics, ``NG`` none, ``7E`` seven-bit, ``RIP``), 26 the
  user record number, 36 the alias (52-line files only).

Parsing is pure: ``parse_door32`` and ``parse_door_sys`` take the file's text; ``read_drop_file``
reads a path (a folder is searched, case-insensitively, for either name).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from door.term.ansi import sanitize

DOOR32_NAME: Final = "door32.sys"
DOOR_SYS_NAME: Final = "door.sys"
MAX_DROP_FILE_BYTES: Final = 64 * 1024
MAX_NAME_LENGTH: Final = 40


class DropFileError(Exception):
    """A drop file that cannot be used; the message is one line naming the file and line."""


class CommType(enum.IntEnum):
    LOCAL = 0
    SERIAL = 1
    TELNET = 2


class Emulation(enum.IntEnum):
    ASCII = 0
    ANSI = 1
    AVATAR = 2
    RIP = 3
    MAX = 4

    @property
    def has_ansi(self) -> bool:
        """AVATAR, RIP and MAX terminals all understand ANSI as well."""
        return self is not Emulation.ASCII


@dataclass(frozen=True)
class DropFile:
    comm_type: CommType
    handle: int
    """The socket (or serial port) handle; meaningful for TELNET."""
    bbs_name: str
    user_number: int
    real_name: str
    alias: str
    security_level: int
    minutes_left: int
    emulation: Emulation
    node: int

    @property
    def caller_name(self) -> str:
        """What the door calls the caller: their alias, else their real name."""
        return self.alias or self.real_name


def _clean(text: str) -> str:
    """A name as it may be shown and logged: no control sequences, no padding, bounded."""
    return sanitize(text, MAX_NAME_LENGTH * 2).strip()[:MAX_NAME_LENGTH]


def _lines(text: str, where: str, needed: int) -> list[str]:
    lines = text.splitlines()
    if len(lines) < needed:
        raise DropFileError(f"{where}: {len(lines)} lines, a drop file of this kind has {needed}")
    return [line.strip() for line in lines]


def _number(lines: list[str], line: int, where: str, what: str, low: int = 0) -> int:
    value = lines[line - 1]
    try:
        number = int(value)
    except ValueError:
        raise DropFileError(f"{where}: line {line} ({what}) is {value!r}, not a number") from None
    if number < low:
        raise DropFileError(f"{where}: line {line} ({what}) is {number}, below {low}")
    return number


Choice = TypeVar("Choice", bound=enum.IntEnum)


def _choice(kind: type[Choice], lines: list[str], line: int, where: str, what: str) -> Choice:
    number = _number(lines, line, where, what)
    try:
        return kind(number)
    except ValueError:
        allowed = ", ".join(str(int(member)) for member in kind)
        raise DropFileError(f"{where}: line {line} ({what}) is {number}, not {allowed}") from None


def parse_door32(text: str, where: str = DOOR32_NAME) -> DropFile:
    lines = _lines(text, where, 11)
    drop = DropFile(
        comm_type=_choice(CommType, lines, 1, where, "comm type"),
        handle=_number(lines, 2, where, "comm handle"),
        bbs_name=_clean(lines[3]),
        user_number=_number(lines, 5, where, "user record number"),
        real_name=_clean(lines[5]),
        alias=_clean(lines[6]),
        security_level=_number(lines, 8, where, "security level"),
        minutes_left=_number(lines, 9, where, "minutes left"),
        emulation=_choice(Emulation, lines, 10, where, "emulation"),
        node=_number(lines, 11, where, "node number"),
    )
    if not drop.caller_name:
        raise DropFileError(f"{where}: lines 6 and 7 give the caller no name")
    return drop


_GRAPHICS: Final = {
    "GR": Emulation.ANSI,
    "NG": Emulation.ASCII,
    "7E": Emulation.ASCII,
    "RIP": Emulation.RIP,
}


def parse_door_sys(text: str, where: str = DOOR_SYS_NAME) -> DropFile:
    lines = _lines(text, where, 31)
    port = lines[0].upper().rstrip(":")
    if not port.startswith("COM") or not port[3:].isdigit():
        raise DropFileError(f"{where}: line 1 (comm port) is {lines[0]!r}, not COM0: to COMn:")
    graphics = lines[19].upper()
    if graphics not in _GRAPHICS:
        raise DropFileError(
            f"{where}: line 20 (graphics mode) is {lines[19]!r}, not GR, NG, 7E or RIP"
        )
    drop = DropFile(
        # DOOR.SYS names a serial port; on Linux, BBSes that write it run the door on stdio.
        comm_type=CommType.LOCAL if int(port[3:]) == 0 else CommType.SERIAL,
        handle=int(port[3:]),
        bbs_name="",
        user_number=_number(lines, 26, where, "user record number"),
        real_name=_clean(lines[9]),
        alias=_clean(lines[35]) if len(lines) >= 36 else "",
        security_level=_number(lines, 15, where, "security level"),
        minutes_left=_number(lines, 19, where, "minutes left"),
        emulation=_GRAPHICS[graphics],
        node=_number(lines, 4, where, "node number"),
    )
    if not drop.caller_name:
        raise DropFileError(f"{where}: lines 10 and 36 give the caller no name")
    return drop


def find_drop_file(path: Path) -> Path:
    """``path`` itself, or in a folder the DOOR32.SYS (else DOOR.SYS) whatever its case."""
    if not path.is_dir():
        return path
    by_name = {child.name.lower(): child for child in path.iterdir()}
    for name in (DOOR32_NAME, DOOR_SYS_NAME):
        if name in by_name:
            return by_name[name]
    raise DropFileError(f"{path}: no DOOR32.SYS or DOOR.SYS in this folder")


def read_drop_file(path: Path) -> DropFile:
    """Read and parse a drop file (or find one in a folder); raises DropFileError."""
    path = find_drop_file(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_DROP_FILE_BYTES + 1)
    except OSError as error:
        raise DropFileError(f"{path}: cannot read it ({error.strerror or error})") from None
    if len(raw) > MAX_DROP_FILE_BYTES:
        raise DropFileError(f"{path}: over {MAX_DROP_FILE_BYTES} bytes, not a drop file")
    # BBSes write drop files in their own code page; names outside ASCII come out as
    # CP437 most often. Decoding as CP437 never fails and keeps ASCII as it is.
    text = raw.decode("cp437")
    if path.name.lower() == DOOR32_NAME:
        return parse_door32(text, str(path))
    if path.name.lower() == DOOR_SYS_NAME:
        return parse_door_sys(text, str(path))
    # Another name: tell the formats apart by length.
    lines = text.splitlines()
    if len(lines) >= 31:
        return parse_door_sys(text, str(path))
    return parse_door32(text, str(path))
