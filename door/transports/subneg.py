"""A telnet stream's subnegotiations (IAC SB ... IAC SE), measured before the telnet
library parses them: the library reads them a byte at a time in Python and keeps up to
a megabyte of each, so one caller's endless IAC SB costs seconds of everyone's CPU. The
scan here uses ``bytes.find``, which runs in C.

>>> limit = SubnegotiationLimit(8)
>>> limit.feed(bytes([255, 250, 24, 0]) + b"xterm" + bytes([255, 240]))
True
>>> limit.feed(bytes([255, 250, 24, 0]) + b"x" * 20)
False
"""

from __future__ import annotations

from typing import Final

IAC: Final = 0xFF
SB: Final = 0xFA
SE: Final = 0xF0
MAX_SUBNEGOTIATION: Final = 1024
"""Bytes a subnegotiation may carry: terminal types, window sizes and environment
variables need far fewer."""


class SubnegotiationLimit:
    """``feed`` each chunk as it arrives; False once a subnegotiation runs past ``limit``."""

    def __init__(self, limit: int = MAX_SUBNEGOTIATION) -> None:
        self.limit = limit
        self._inside = False
        self._length = 0
        self._after_iac = False

    def feed(self, data: bytes) -> bool:
        if not (self._inside or self._after_iac) and IAC not in data:
            return True  # keys alone, as most reads are: one scan, in C
        position, end = 0, len(data)
        while position < end:
            if self._after_iac:
                self._after_iac = False
                command = data[position]
                position += 1
                if self._inside:
                    if command == SE:
                        self._inside = False
                    else:
                        self._length += 1  # IAC IAC: an escaped 255 inside
                elif command == SB:
                    self._inside, self._length = True, 0
                continue
            found = data.find(IAC, position)
            stop = end if found < 0 else found
            if self._inside:
                self._length += stop - position
            if self._inside and self._length > self.limit:
                return False
            if found < 0:
                break
            self._after_iac = True
            position = found + 1
        return not (self._inside and self._length > self.limit)
