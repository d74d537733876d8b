"""Reading a line of text from a caller, one key at a time, echoing as it goes."""

from __future__ import annotations

from door.term.ansi import sanitize
from door.term.keys import DESELECT_KEYS, Key
from door.term.terminal import Terminal


class Cancelled(Exception):
    """The caller pressed ESC at a prompt."""


async def read_line(terminal: Terminal, max_len: int, *, initial: str = "") -> str:
    """Read printable characters until RETURN; Backspace/DEL erase, ESC cancels.

    The cursor is wherever the prompt left it. Only printable characters are
    kept, and never more than ``max_len`` of them, so what comes back is safe
    to show to anyone.
    """
    text = sanitize(initial, max_len)
    terminal.write(text)
    await terminal.flush()
    while True:
        key = await terminal.read_key()
        if key == Key.ENTER:
            return text
        if key == Key.ESCAPE:
            raise Cancelled
        if key in DESELECT_KEYS:
            if text:
                text = text[:-1]
                terminal.write("\b \b")
        elif key.is_printable and len(text) < max_len:
            char = sanitize(key.char, 1)
            if char:
                text += char
                terminal.write(char)
        else:
            terminal.write("\a")
        await terminal.flush()
