"""The lobby's keys as typed lines, for a caller with a screen reader (and the keys of
the screens reached from it: the mail games, the tournaments).

A full-screen lobby acts on each key at once: typed by a screen reader's caller as a
word ("help"), that would be four keys, the last of them ``p`` (a game against the
computer). So a screen reader's caller types a line and presses RETURN, as at a table
(door/table/reader.py): the line is echoed as it is typed and then stands for keys.
A key alone is that key (``p``, ``?``, ``2``); a word of the lobby's is the key it names
(``accept`` is ``y``, ``challenge`` is ``w``); ``say TEXT`` chats. While the lobby reads
a line of its own (a chat line, the numbers of whom to challenge) the line typed is
that line. ``keys`` says the whole lobby again.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping
from typing import Final

from door.screens.chat import MAX_CHAT_LENGTH
from door.table.reader import CURSOR_KEYS
from door.term.keys import Key
from door.ui.line_editor import Edit, LineEditor
from door.ui.session import Session

WORDS: Final = {
    "accept": Key.printable("y"),
    "decline": Key.printable("n"),
    "yes": Key.printable("y"),
    "no": Key.printable("n"),
    "play": Key.printable("p"),
    "challenge": Key.printable("w"),
    "watch": Key.printable("v"),
    "chat": Key.printable("c"),
    "help": Key.printable("?"),
    "quit": Key.printable("q"),
    "leaderboard": Key.printable("l"),
    "record": Key.printable("r"),
    "withdraw": Key.ESCAPE,
    "cancel": Key.ESCAPE,
    "back": Key.ESCAPE,
}
"""Words that stand for a key of the lobby's (door/app/lobby_keys.py)."""
AGAIN: Final = frozenset({"keys", "repeat", "who", "menu"})
"""Words that have the whole lobby said again."""
EOL: Final = "\r\n"
RUB_OUT: Final = "\b \b"
NOT_A_WORD: Final = "That is no key or word here: type keys to hear them."


class LobbyWords:
    """One screen reader's typing in the lobby: the line so far, and the keys a line
    typed stands for, not yet taken by the lobby."""

    def __init__(self, words: Mapping[str, Key] = WORDS) -> None:
        self.words = words
        """The words that stand for a key (the lobby's, or a screen's own)."""
        self.editor = LineEditor(MAX_CHAT_LENGTH + 8)
        self.keys: collections.deque[tuple[Key, bool]] = collections.deque()
        """Keys a line stood for, each with whether it is the RETURN that ends a line
        the lobby reads (dropped if the lobby stopped reading one first)."""
        self.rang = False
        """The bell rang for a key refused on the line being typed."""

    @property
    def typed(self) -> str:
        return self.editor.text

    async def next_key(
        self, session: Session, reading_line: Callable[[], bool], timeout: float
    ) -> Key | None:
        """The next key a typed line stands for; None when something changed (the
        lobby speaks again) or a line was answered here."""
        while True:
            if self.keys:
                key, ends_line = self.keys.popleft()
                if ends_line and not reading_line():
                    # The screen took the line without it (a number picked): what that
                    # did is said now, not at the next change.
                    return None
                return key
            key = await session.next_key(timeout)
            if key is None:
                return None
            if key == Key.CTRL_L:
                session.redraw_all()
                return None
            line = await self.take(session, key)
            if line is None:
                continue
            reply = self.stands_for(line, reading_line())
            if reply:
                await session.send_lines(reply + EOL)
            if reply or not self.keys:
                if line.strip().lower() in AGAIN:
                    session.redraw_all()
                return None

    def feed(self, key: Key) -> tuple[str, str | None]:
        """What typing ``key`` echoes, and the line when it ends one. The line is edited
        at its end only (arrows and Home would move a cursor the caller cannot see)."""
        editor = self.editor
        if key in CURSOR_KEYS:
            return "", None
        before = len(editor.text)
        edit = editor.feed(key)
        if edit is Edit.CHANGED:
            if len(editor.text) > before:
                return editor.text[before:], None
            return RUB_OUT * (before - len(editor.text)), None
        if edit is Edit.CANCELLED:
            # Esc clears a line typed so far; on a blank one it is the key (it withdraws
            # a challenge, cancels a chat line).
            if before:
                editor.clear()
                return EOL + "Line cleared." + EOL, None
            self.keys.append((Key.ESCAPE, False))
            return "", None
        if edit is Edit.REFUSED:
            # One bell a line: a reader says each, and a pasted paragraph rang dozens.
            rang, self.rang = self.rang, True
            return ("" if rang else "\a"), None
        if edit is not Edit.DONE:
            return "", None
        line = editor.text
        editor.clear()
        self.rang = False
        return EOL, line

    async def take(self, session: Session, key: Key) -> str | None:
        """``key`` typed: its echo sent, and the line once RETURN ends one (the caller
        is then heard, so the prompt is said again after it)."""
        echo, line = self.feed(key)
        if echo:
            await session.send_lines(echo)
        if line is not None:
            session.speaker.heard_line()
        return line

    def stands_for(self, line: str, reading_line: bool) -> str:
        """Queue the keys ``line`` stands for; returns a sentence when it stands for
        none ("" when it does, or asks for the lobby again)."""
        if reading_line or not line.strip():
            # The lobby's own line (chat, numbers): typed as it is, then RETURN.
            self.keys.extend((Key.printable(char), False) for char in line)
            self.keys.append((Key.ENTER, True))
            return ""
        word, _, rest = line.strip().partition(" ")
        lowered = word.lower()
        if lowered == "say" and rest.strip():
            self.keys.append((Key.printable("c"), False))
            self.keys.extend((Key.printable(char), False) for char in rest.strip())
            self.keys.append((Key.ENTER, True))
            return ""
        if lowered in AGAIN and not rest:
            return ""
        if len(word) == 1 and not rest:
            self.keys.append((Key.printable(word), False))
            return ""
        if line.strip().lower() in self.words:
            self.keys.append((self.words[line.strip().lower()], False))
            return ""
        return NOT_A_WORD


async def screen_key(
    session: Session, words: LobbyWords, reading_line: Callable[[], bool], timeout: float
) -> Key | None:
    """A lobby screen's next key, drawn (or said) first: for a screen reader's caller the
    next key a line they typed stands for (``words``; ``reading_line`` says whether the
    screen reads a line of its own now); else the next key pressed. None: ``timeout``
    passed, something changed, or Ctrl-L asked for it all again."""
    if not words.keys:  # (a line's keys are taken as one: said once, after them)
        await session.paint()
    if session.speech:
        return await words.next_key(session, reading_line, timeout)
    key = await session.next_key(timeout=timeout)
    if key == Key.CTRL_L:
        session.redraw_all()  # the next paint sends everything
        return None
    return key


async def typed_key(session: Session) -> Key:
    """The key for a screen that acts on one (the leaderboard, a record): for a screen
    reader's caller, what a line they type stands for (a key alone, a word of the
    lobby's, RETURN alone for RETURN); else the key pressed."""
    if not session.speech:
        return await session.read_key()
    words = LobbyWords()
    while True:
        if words.keys:
            return words.keys.popleft()[0]  # Esc on a blank line
        key = await session.next_key()
        if key is None:
            continue
        if key == Key.CTRL_L:
            return key
        line = await words.take(session, key)
        if line is None:
            continue
        word = line.strip()
        if not word:
            return Key.ENTER
        if word.lower() in WORDS:
            return WORDS[word.lower()]
        if len(word) == 1:
            return Key.printable(word)
        await session.send_lines(NOT_A_WORD + EOL)
