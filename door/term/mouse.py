"""Mouse reports: which callers' terminals are asked for them, and the bytes that ask.

The door asks for xterm's "normal tracking" (``?1000``: a report when a button goes down
and up, and for the wheel; never for motion, which would send a report for every cell the
pointer crosses) in SGR form (``?1006``: decimal fields, any column, press and release
told apart). Terminals that do not know the modes ignore them, but a caller whose terminal
only half-knows them (an old telnet client passing them to a console) could be left with
a screen full of report bytes, so only terminal types known to handle them are asked.
"""

from __future__ import annotations

from typing import Final

ASK_FOR_REPORTS: Final = "\x1b[?1000h\x1b[?1006h"
STOP_REPORTS: Final = "\x1b[?1006l\x1b[?1000l"

_REPORTING_TERMINAL_TYPES: Final = (
    "xterm",  # xterm, xterm-256color, the web page's xterm.js, Windows Terminal, iTerm2
    "putty",
    "screen",  # GNU screen and tmux pass the reports through
    "tmux",
    "rxvt",  # rxvt-unicode knows ?1006 since 9.10
    "alacritty",
    "kitty",
    "foot",
    "wezterm",
    "syncterm",  # SyncTERM 1.1 and later
    "vte",
    "gnome",
    "konsole",
)


def offers_mouse(term_type: str | None, *, lines: bool, door_mode: bool) -> bool:
    """Whether a caller is asked for mouse reports when they arrive: a terminal that
    reports them (``reports_mouse``) showing a screen, not lines. In door mode the BBS
    owns the caller's terminal and its drop file says only ANSI or not, so none is asked
    (a caller's BBS client that does not know the modes would print the reports)."""
    return not lines and not door_mode and reports_mouse(term_type)


def reports_mouse(term_type: str | None) -> bool:
    """Whether a terminal of this type (as the caller's client named it) is asked for
    mouse reports."""
    if not term_type:
        return False
    name = term_type.strip().lower()
    return name.startswith(_REPORTING_TERMINAL_TYPES)
