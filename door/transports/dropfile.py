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
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from door.logtext import escaped
from door.term.ansi import sanitize

DOOR32_NAME: Final = "door32.sys"
DOOR_SYS_NAME: Final = "door.sys"
MAX_DROP_FILE_BYTES: Final = 64 * 1024
MAX_NAME_LENGTH: Final = 40
MAX_INT: Final = 2**31 - 1
"""The largest handle, user number or level taken: a C int, as BBSes write them (and as
``os.fstat`` takes a descriptor; a 20-digit handle overflowed it)."""
MAX_MINUTES_LEFT: Final = 7 * 24 * 60
"""A week: BBSes write their "unlimited" as 32767 or more, and the door caps it here
(a 400-digit minutes-left once overflowed the clock's float)."""
MAX_COM_PORT: Final = 255
MAX_SHOWN: Final = 24
"""How much of a bad value a message quotes (a 60,000-digit line was once quoted whole)."""


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


_LINE_END: Final = re.compile(r"\r\n|\r|\n")


def _split(text: str) -> list[str]:
    """Lines ended by CR LF, LF or CR only (``splitlines`` would also split on the
    control characters a name may carry, shifting every line after it)."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _shown(value: str) -> str:
    """A bad value as a message quotes it: escaped and cut."""
    return repr(escaped(value, MAX_SHOWN))


def _lines(text: str, where: str, needed: int) -> list[str]:
    lines = _split(text)
    if len(lines) < needed:
        raise DropFileError(f"{where}: {len(lines)} lines, a drop file of this kind has {needed}")
    return [line.strip() for line in lines]


def _digits(value: str, high: int) -> int | None:
    """``value`` as a number from 0 to ``high`` if it is ASCII digits only (``isdigit``
    alone takes ``²`` and other digits ``int`` refuses), else None."""
    if not value or len(value) > len(str(high)) or not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if number <= high else None


def _number(lines: list[str], line: int, where: str, what: str, high: int = MAX_INT) -> int:
    value = lines[line - 1]
    number = _digits(value, high)
    if number is None:
        raise DropFileError(
            f"{where}: line {line} ({what}) is {_shown(value)}, not a number from 0 to {high}"
        )
    return number


Choice = TypeVar("Choice", bound=enum.IntEnum)


def _choice(kind: type[Choice], lines: list[str], line: int, where: str, what: str) -> Choice:
    number = _number(lines, line, where, what)
    try:
        return kind(number)
    except ValueError:
        allowed = ", ".join(str(int(member)) for member in kind)
        raise DropFileError(f"{where}: line {line} ({what}) is {number}, not {allowed}") from None


def _minutes(lines: list[str], line: int, where: str) -> int:
    """The minutes left, up to ``MAX_MINUTES_LEFT`` (a larger number, as a BBS writes for a
    caller without a limit, is taken as that; one of more than nine digits is refused)."""
    return min(_number(lines, line, where, "minutes left", high=999_999_999), MAX_MINUTES_LEFT)


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
        minutes_left=_minutes(lines, 9, where),
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
    number = _digits(port[3:], MAX_COM_PORT) if port.startswith("COM") else None
    if number is None:
        raise DropFileError(
            f"{where}: line 1 (comm port) is {_shown(lines[0])}, not COM0: to COM{MAX_COM_PORT}:"
        )
    graphics = lines[19].upper()
    if graphics not in _GRAPHICS:
        raise DropFileError(
            f"{where}: line 20 (graphics mode) is {_shown(lines[19])}, not GR, NG, 7E or RIP"
        )
    drop = DropFile(
        # DOOR.SYS names a serial port; on Linux, BBSes that write it run the door on stdio.
        comm_type=CommType.LOCAL if number == 0 else CommType.SERIAL,
        handle=number,
        bbs_name="",
        user_number=_number(lines, 26, where, "user record number"),
        real_name=_clean(lines[9]),
        alias=_clean(lines[35]) if len(lines) >= 36 else "",
        security_level=_number(lines, 15, where, "security level"),
        minutes_left=_minutes(lines, 19, where),
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
    try:
        by_name = {child.name.lower(): child for child in path.iterdir()}
    except OSError as error:
        raise DropFileError(f"{_where(path)}: cannot list it ({error.strerror or error})") from None
    for name in (DOOR32_NAME, DOOR_SYS_NAME):
        if name in by_name:
            return by_name[name]
    raise DropFileError(f"{_where(path)}: no DOOR32.SYS or DOOR.SYS in this folder")


def _where(path: Path) -> str:
    """A path as a message names it: the BBS chose it, so it is escaped and bounded."""
    return escaped(str(path))


def _read_bounded(path: Path) -> bytes:
    """The file's bytes, if it is a regular file of at most ``MAX_DROP_FILE_BYTES``.

    A FIFO, a device or a socket is refused from its ``stat``, before any open; the open
    itself does not block (O_NONBLOCK: a FIFO swapped in after the stat is not waited
    on) and what was opened is checked again."""
    where = _where(path)
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise DropFileError(f"{where}: not a regular file")
        if before.st_size > MAX_DROP_FILE_BYTES:
            raise DropFileError(f"{where}: over {MAX_DROP_FILE_BYTES} bytes, not a drop file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise DropFileError(f"{where}: cannot read it ({error.strerror or error})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DropFileError(f"{where}: not a regular file")
        raw = b""
        while len(raw) <= MAX_DROP_FILE_BYTES:
            chunk = os.read(fd, MAX_DROP_FILE_BYTES + 1 - len(raw))
            if not chunk:
                break
            raw += chunk
    except OSError as error:
        raise DropFileError(f"{where}: cannot read it ({error.strerror or error})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_DROP_FILE_BYTES:
        raise DropFileError(f"{where}: over {MAX_DROP_FILE_BYTES} bytes, not a drop file")
    return raw


def read_drop_file(path: Path) -> DropFile:
    """Read and parse a drop file (or find one in a folder); raises DropFileError."""
    path = find_drop_file(path)
    raw = _read_bounded(path)
    # BBSes write drop files in their own code page; names outside ASCII come out as
    # CP437 most often. Decoding as CP437 never fails and keeps ASCII as it is.
    text = raw.decode("cp437")
    where = _where(path)
    if path.name.lower() == DOOR32_NAME:
        return parse_door32(text, where)
    if path.name.lower() == DOOR_SYS_NAME:
        return parse_door_sys(text, where)
    # Another name: tell the formats apart by length.
    if len(_split(text)) >= 31:
        return parse_door_sys(text, where)
    return parse_door32(text, where)
