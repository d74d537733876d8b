"""Keys a caller presses, and a pure decoder that turns a terminal's input bytes into them.

The decoder does no I/O and keeps no clock: the transport feeds it whatever arrived and,
when a lone ESC has been waiting for ``ESCAPE_TIMEOUT`` seconds with nothing after it,
calls ``flush()`` to declare it a real Escape key press.

>>> decoder = KeyDecoder()
>>> decoder.feed(b"\\x1b[A7\\r\\n")
[Key.UP, Key.printable('7'), Key.ENTER]
>>> decoder.feed(b"\\x1b")
[]
>>> decoder.flush()
[Key.ESCAPE]

Mouse reports (asked for with ``CSI ?1000h`` and ``?1006h``, see door/term/mouse.py) come
out as keys too, named ``MOUSE`` and carrying a ``Mouse`` value, so they travel the same
bounded queues as keys; a screen that has nothing to click ignores them:

>>> decoder.feed(b"\\x1b[<0;12;7M")
[Key.mouse(Mouse(MouseButton.LEFT, column=11, row=6))]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Final

ESCAPE_TIMEOUT: Final = 0.05
"""Seconds a lone ESC may wait for the rest of a sequence before it counts as Escape."""

MAX_SEQUENCE_LENGTH: Final = 32
"""Longest escape sequence kept; anything longer is garbage and is discarded as it streams."""


class KeyName(enum.Enum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    HOME = "home"
    END = "end"
    INSERT = "insert"
    DELETE = "delete"
    BACKSPACE = "backspace"
    PGUP = "pgup"
    PGDN = "pgdn"
    ENTER = "enter"
    ESCAPE = "escape"
    TAB = "tab"
    CTRL_L = "ctrl-l"
    CTRL_S = "ctrl-s"
    CTRL_Q = "ctrl-q"
    CTRL_C = "ctrl-c"
    CTRL_U = "ctrl-u"
    F1 = "f1"
    CHAR = "char"
    MOUSE = "mouse"


class MouseButton(enum.Enum):
    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"
    WHEEL_UP = "wheel up"
    WHEEL_DOWN = "wheel down"
    UNKNOWN = "unknown"  # an X10 release, which does not say which button went up


@dataclass(frozen=True, slots=True)
class Mouse:
    """One mouse report: which button, where (0-based, column and row of the screen) and
    whether it went down or up. The wheel only ever goes down."""

    button: MouseButton
    column: int
    row: int
    pressed: bool = True

    def __repr__(self) -> str:
        state = "" if self.pressed else ", pressed=False"
        return f"Mouse(MouseButton.{self.button.name}, column={self.column}, row={self.row}{state})"

    @property
    def is_click(self) -> bool:
        """A left or right button going down: what the door acts on (the release that
        follows is ignored, so a click acts once and at once)."""
        return self.pressed and self.button in (MouseButton.LEFT, MouseButton.RIGHT)


@dataclass(frozen=True, slots=True)
class Key:
    """One key press: a named key such as ``Key.UP``, or ``Key.printable("c")``.

    Screens compare with ``==`` (``key == Key.ENTER``) or read ``key.char``, which is the
    typed character for printable keys and ``""`` for every named key.
    """

    name: KeyName
    char: str = ""
    mouse: Mouse | None = None

    UP: ClassVar[Key]
    DOWN: ClassVar[Key]
    LEFT: ClassVar[Key]
    RIGHT: ClassVar[Key]
    HOME: ClassVar[Key]
    END: ClassVar[Key]
    INSERT: ClassVar[Key]
    DELETE: ClassVar[Key]
    BACKSPACE: ClassVar[Key]
    PGUP: ClassVar[Key]
    PGDN: ClassVar[Key]
    ENTER: ClassVar[Key]
    ESCAPE: ClassVar[Key]
    TAB: ClassVar[Key]
    CTRL_L: ClassVar[Key]
    CTRL_S: ClassVar[Key]
    CTRL_Q: ClassVar[Key]
    CTRL_C: ClassVar[Key]
    CTRL_U: ClassVar[Key]
    F1: ClassVar[Key]

    def __post_init__(self) -> None:
        if self.name is KeyName.CHAR:
            if len(self.char) != 1 or not self.char.isprintable():
                raise ValueError(
                    f"a printable key needs one printable character, not {self.char!r}"
                )
        elif self.char:
            raise ValueError(f"{self.name} carries no character, got {self.char!r}")
        if (self.name is KeyName.MOUSE) != (self.mouse is not None):
            raise ValueError("a mouse report, and only a mouse report, carries a Mouse")

    @classmethod
    def printable(cls, char: str) -> Key:
        """The key that types ``char``; raises ValueError unless it is one printable character."""
        return cls(KeyName.CHAR, char)

    @classmethod
    def mouse_report(cls, mouse: Mouse) -> Key:
        return cls(KeyName.MOUSE, mouse=mouse)

    @property
    def is_printable(self) -> bool:
        return self.name is KeyName.CHAR

    def __repr__(self) -> str:
        if self.is_printable:
            return f"Key.printable({self.char!r})"
        if self.mouse is not None:
            return f"Key.mouse({self.mouse!r})"
        return f"Key.{self.name.name}"


for _name in KeyName:
    if _name not in (KeyName.CHAR, KeyName.MOUSE):
        setattr(Key, _name.name, Key(_name))
del _name

DESELECT_KEYS: Final = frozenset({Key.BACKSPACE, Key.DELETE})
"""Keys that mean "de-select" / "delete" on every screen.

0x7f is Backspace on xterm-family terminals but DEL on ANSI-BBS ones (SyncTERM), so the
decoder cannot know which the caller meant: it reports 0x7f and 0x08 as BACKSPACE and
``ESC[3~`` as DELETE, and every screen treats the two alike.
"""

_ESC: Final = 0x1B
_CR: Final = 0x0D
_LF: Final = 0x0A
_NUL: Final = 0x00

_CONTROL_KEYS: Final[dict[int, Key]] = {
    _LF: Key.ENTER,
    0x08: Key.BACKSPACE,
    0x7F: Key.BACKSPACE,
    0x09: Key.TAB,
    0x0C: Key.CTRL_L,
    0x13: Key.CTRL_S,
    0x11: Key.CTRL_Q,
    0x03: Key.CTRL_C,
    0x15: Key.CTRL_U,
}

# Final bytes of parameterless sequences. K, @, V and U are SyncTERM's End, Insert,
# PgUp and PgDn; H and F are the xterm forms of Home and End.
_CSI_FINAL_KEYS: Final[dict[int, Key]] = {
    ord("A"): Key.UP,
    ord("B"): Key.DOWN,
    ord("C"): Key.RIGHT,
    ord("D"): Key.LEFT,
    ord("H"): Key.HOME,
    ord("F"): Key.END,
    ord("K"): Key.END,
    ord("@"): Key.INSERT,
    ord("V"): Key.PGUP,
    ord("U"): Key.PGDN,
}

# ESC [ <n> ~ : the VT220 editing keypad (1/7 Home and 4/8 End differ between rxvt and
# the Linux console) and F1 as ESC[11~.
_CSI_TILDE_KEYS: Final[dict[bytes, Key]] = {
    b"1": Key.HOME,
    b"2": Key.INSERT,
    b"3": Key.DELETE,
    b"4": Key.END,
    b"5": Key.PGUP,
    b"6": Key.PGDN,
    b"7": Key.HOME,
    b"8": Key.END,
    b"11": Key.F1,
}

_SS3_KEYS: Final[dict[int, Key]] = {
    ord("A"): Key.UP,
    ord("B"): Key.DOWN,
    ord("C"): Key.RIGHT,
    ord("D"): Key.LEFT,
    ord("H"): Key.HOME,
    ord("F"): Key.END,
    ord("P"): Key.F1,
}

_ENCODED_KEYS: Final[dict[Key, bytes]] = {
    Key.UP: b"\x1b[A",
    Key.DOWN: b"\x1b[B",
    Key.RIGHT: b"\x1b[C",
    Key.LEFT: b"\x1b[D",
    Key.HOME: b"\x1b[1~",
    Key.INSERT: b"\x1b[2~",
    Key.DELETE: b"\x1b[3~",
    Key.END: b"\x1b[4~",
    Key.PGUP: b"\x1b[5~",
    Key.PGDN: b"\x1b[6~",
    Key.F1: b"\x1bOP",
    Key.ENTER: b"\r",
    Key.ESCAPE: b"\x1b",
    Key.BACKSPACE: b"\x7f",
    Key.TAB: b"\t",
    Key.CTRL_L: b"\x0c",
    Key.CTRL_S: b"\x13",
    Key.CTRL_Q: b"\x11",
    Key.CTRL_C: b"\x03",
    Key.CTRL_U: b"\x15",
}


def encode_key(key: Key) -> bytes:
    """The bytes an xterm sends for ``key``; ``KeyDecoder`` turns them back into ``key``."""
    if key.is_printable:
        return key.char.encode("utf-8")
    return _ENCODED_KEYS[key]


def _utf8_sequence_length(lead: int) -> int:
    """Bytes in the UTF-8 sequence that ``lead`` starts, or 0 if it cannot start one."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


class _State(enum.Enum):
    GROUND = enum.auto()
    ESCAPE = enum.auto()  # ESC seen
    CSI = enum.auto()  # ESC [ seen, collecting parameter bytes
    SS3 = enum.auto()  # ESC O seen
    LINUX_FUNCTION_KEY = enum.auto()  # ESC [ [ seen (Linux console F1-F5)
    X10_MOUSE = enum.auto()  # ESC [ M seen: three raw report bytes follow
    DISCARD = enum.auto()  # an overlong sequence: drop bytes until its final byte
    UTF8 = enum.auto()  # inside a multi-byte character


_GROUND: Final = _State.GROUND

_WHOLE_KEYS: Final[dict[bytes, Key]] = {}
"""Reads that are one whole key from the ground state and leave the decoder there,
with the key each decodes to byte by byte (filled below, from the decoder itself)."""


class KeyDecoder:
    """Turns a stream of input bytes, split anywhere, into keys.

    Feeding the same bytes in one call or in many gives the same keys; the only state
    carried between calls is an unfinished escape sequence or character (at most
    ``MAX_SEQUENCE_LENGTH`` bytes) and whether the last byte was a carriage return.
    ``feed`` never raises: what cannot be understood is dropped.
    """

    def __init__(self) -> None:
        self._state = _State.GROUND
        self._sequence = bytearray()
        self._bytes_still_expected = 0
        self._after_carriage_return = False

    @property
    def pending_escape(self) -> bool:
        """A lone ESC is waiting: call ``flush()`` if nothing follows within ESCAPE_TIMEOUT."""
        return self._state is _State.ESCAPE

    @property
    def pending(self) -> bytes:
        """The unfinished sequence held between feeds (for diagnostics and tests)."""
        return bytes(self._sequence)

    def feed(self, data: bytes | str) -> list[Key]:
        """Decode ``data``, which may end in the middle of a sequence or character.

        A ``str`` (from a transport that decodes for us) is treated as its UTF-8 bytes.
        """
        if self._state is _GROUND and not self._after_carriage_return and type(data) is bytes:
            # Most reads are one whole key: looked up, where a byte at a time it was
            # most of a key's decoding (issue #48).
            whole = _WHOLE_KEYS.get(data)
            if whole is not None:
                return [whole]
        if isinstance(data, str):
            # surrogatepass turns lone surrogates into invalid UTF-8, which is then dropped.
            data = data.encode("utf-8", "surrogatepass")
        keys: list[Key] = []
        for byte in data:
            self._step(byte, keys)
        return keys

    def flush(self) -> list[Key]:
        """Declare a pending lone ESC to be the Escape key.

        A longer unfinished sequence (``ESC [``, ``ESC O``...) stays pending: no person
        types those bytes, so they are a sequence split by the network.
        """
        if self._state is _State.ESCAPE:
            self._reset()
            return [Key.ESCAPE]
        return []

    def _reset(self) -> None:
        self._state = _State.GROUND
        self._sequence.clear()
        self._bytes_still_expected = 0

    def _step(self, byte: int, keys: list[Key]) -> None:
        state = self._state
        if state is _State.GROUND:
            self._ground(byte, keys)
        elif state is _State.ESCAPE:
            self._escape(byte, keys)
        elif state is _State.CSI:
            self._csi(byte, keys)
        elif state is _State.SS3:
            self._ss3(byte, keys)
        elif state is _State.LINUX_FUNCTION_KEY:
            self._linux_function_key(byte, keys)
        elif state is _State.X10_MOUSE:
            self._x10_mouse(byte, keys)
        elif state is _State.DISCARD:
            self._discard(byte, keys)
        else:
            self._utf8(byte, keys)

    def _ground(self, byte: int, keys: list[Key]) -> None:
        if self._after_carriage_return:
            self._after_carriage_return = False
            # Telnet's end of line is CR LF or CR NUL: the second byte is not a key.
            if byte in (_LF, _NUL):
                return
        if byte == _ESC:
            self._state = _State.ESCAPE
            self._sequence[:] = b"\x1b"
        elif byte == _CR:
            keys.append(Key.ENTER)
            self._after_carriage_return = True
        elif byte in _CONTROL_KEYS:
            keys.append(_CONTROL_KEYS[byte])
        elif 0x20 <= byte < 0x7F:
            keys.append(Key.printable(chr(byte)))
        elif byte >= 0x80:
            length = _utf8_sequence_length(byte)
            if length:
                self._state = _State.UTF8
                self._sequence[:] = bytes([byte])
                self._bytes_still_expected = length - 1
        # Remaining C0 control bytes mean nothing to a screen and are dropped.

    def _escape(self, byte: int, keys: list[Key]) -> None:
        if byte == ord("["):
            self._state = _State.CSI
            self._sequence.append(byte)
        elif byte == ord("O"):
            self._state = _State.SS3
            self._sequence.append(byte)
        elif byte == _ESC:
            # ESC ESC: the first was a key press of its own; the second may start a sequence.
            keys.append(Key.ESCAPE)
        else:
            # Escape followed by an ordinary key (or Alt+key): two presses.
            keys.append(Key.ESCAPE)
            self._reset()
            self._ground(byte, keys)

    def _abandon_sequence(self, byte: int, keys: list[Key]) -> None:
        """A byte that cannot belong to the sequence ends it unseen and is read afresh."""
        self._reset()
        self._ground(byte, keys)

    def _collect_parameter(self, byte: int) -> None:
        if len(self._sequence) >= MAX_SEQUENCE_LENGTH:
            self._state = _State.DISCARD
            self._sequence.clear()
        else:
            self._sequence.append(byte)

    def _csi(self, byte: int, keys: list[Key]) -> None:
        parameters = bytes(self._sequence[2:])
        if not parameters and byte == ord("["):
            self._state = _State.LINUX_FUNCTION_KEY
        elif 0x20 <= byte <= 0x3F:
            self._collect_parameter(byte)
        elif 0x40 <= byte <= 0x7E:
            if not parameters and byte == ord("M"):
                # An X10 mouse report: ESC [ M then button, column and row as raw bytes.
                self._state = _State.X10_MOUSE
                self._bytes_still_expected = 3
                return
            key = _csi_key(parameters, byte) or _sgr_mouse(parameters, byte)
            if key is not None:
                keys.append(key)
            self._reset()
        else:
            self._abandon_sequence(byte, keys)

    def _ss3(self, byte: int, keys: list[Key]) -> None:
        parameters = bytes(self._sequence[2:])
        if 0x20 <= byte <= 0x3F:
            self._collect_parameter(byte)
        elif 0x40 <= byte <= 0x7E:
            key = None if parameters else _SS3_KEYS.get(byte)
            if key is not None:
                keys.append(key)
            self._reset()
        else:
            self._abandon_sequence(byte, keys)

    def _linux_function_key(self, byte: int, keys: list[Key]) -> None:
        if 0x40 <= byte <= 0x7E:
            if byte == ord("A"):
                keys.append(Key.F1)
            self._reset()
        else:
            self._abandon_sequence(byte, keys)

    def _x10_mouse(self, byte: int, keys: list[Key]) -> None:
        self._sequence.append(byte)
        self._bytes_still_expected -= 1
        if self._bytes_still_expected > 0:
            return
        report = bytes(self._sequence[-3:])
        self._reset()
        # Each byte is its value plus 32; columns and rows count from 1.
        mouse = _mouse(report[0] - 32, report[1] - 33, report[2] - 33, release=False)
        if mouse is not None:
            keys.append(Key.mouse_report(mouse))

    def _discard(self, byte: int, keys: list[Key]) -> None:
        if 0x40 <= byte <= 0x7E:
            self._reset()
        elif not 0x20 <= byte <= 0x3F:
            self._abandon_sequence(byte, keys)

    def _utf8(self, byte: int, keys: list[Key]) -> None:
        if not 0x80 <= byte <= 0xBF:
            self._abandon_sequence(byte, keys)
            return
        self._sequence.append(byte)
        self._bytes_still_expected -= 1
        if self._bytes_still_expected:
            return
        encoded = bytes(self._sequence)
        self._reset()
        try:
            char = encoded.decode("utf-8")
        except UnicodeDecodeError:  # overlong forms and surrogates
            return
        # U+FFFD is what an upstream decoder leaves for bytes it could not read.
        if char.isprintable() and char != "\ufffd":
            keys.append(Key.printable(char))


_MOTION: Final = 32
_WHEEL: Final = 64
_MODIFIERS: Final = 4 | 8 | 16  # shift, meta, control: a click is a click with any of them
_BUTTONS: Final = (MouseButton.LEFT, MouseButton.MIDDLE, MouseButton.RIGHT)


def _mouse(code: int, column: int, row: int, *, release: bool) -> Mouse | None:
    """The report with button ``code`` at 0-based ``column`` and ``row``, or None for what
    the door does not ask for (motion, extra buttons) and what no terminal sends."""
    if code < 0 or column < 0 or row < 0 or code & _MOTION:
        return None
    code &= ~_MODIFIERS
    if code & _WHEEL:
        wheel = code & ~_WHEEL
        if wheel > 1 or release:
            return None
        button = MouseButton.WHEEL_UP if wheel == 0 else MouseButton.WHEEL_DOWN
        return Mouse(button, column, row)
    if code > 3:
        return None
    if code == 3:  # the X10 way of saying "released", without saying which button
        return Mouse(MouseButton.UNKNOWN, column, row, pressed=False)
    return Mouse(_BUTTONS[code], column, row, pressed=not release)


def _sgr_mouse(parameters: bytes, final: int) -> Key | None:
    """An SGR report, ``ESC [ < code ; column ; row M`` (pressed) or ``m`` (released)."""
    if final not in (ord("M"), ord("m")) or not parameters.startswith(b"<"):
        return None
    fields = parameters[1:].split(b";")
    if len(fields) != 3 or not all(field.isdigit() and len(field) <= 5 for field in fields):
        return None
    code, column, row = (int(field) for field in fields)
    mouse = _mouse(code, column - 1, row - 1, release=final == ord("m"))
    return None if mouse is None else Key.mouse_report(mouse)


def _csi_key(parameters: bytes, final: int) -> Key | None:
    if not parameters:
        return _CSI_FINAL_KEYS.get(final)
    if final == ord("~"):
        return _CSI_TILDE_KEYS.get(parameters)
    # Modified keys (ESC[1;5A), urxvt mouse reports and anything else with parameters.
    return None


def _whole_keys() -> dict[bytes, Key]:
    """``_WHOLE_KEYS``: every printable ASCII character, control key and named key's
    sequence (and Enter as telnet sends it, CR NUL or CR LF), decoded the long way."""
    reads = [bytes([byte]) for byte in range(0x20, 0x7F)]
    reads += [bytes([byte]) for byte in _CONTROL_KEYS]
    reads += [b"\x1b[" + bytes([final]) for final in _CSI_FINAL_KEYS]
    reads += [b"\x1b[" + parameters + b"~" for parameters in _CSI_TILDE_KEYS]
    reads += [b"\x1bO" + bytes([final]) for final in _SS3_KEYS]
    reads += [*_ENCODED_KEYS.values(), b"\r\x00", b"\r\n"]
    whole: dict[bytes, Key] = {}
    for read in reads:
        decoder = KeyDecoder()
        keys = decoder.feed(read)
        settled = decoder._state is _GROUND and not decoder._after_carriage_return
        if len(keys) == 1 and settled:
            whole[read] = keys[0]
    return whole


_WHOLE_KEYS.update(_whole_keys())
