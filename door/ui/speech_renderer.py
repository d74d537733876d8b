"""The session's renderer for a screen said in words (``Display.SPEECH``), for a screen
that can say itself (a ``Said``, door/screens/speech.py: the lobby's comes from
door/screens/lobby_speech.py). A screen reader reads each line once, as it comes, so
nothing is drawn or redrawn: a frame says only its sentences that were not in the last
one (a new chat line, who is on when someone moves, a row of options when one is
changed), its message when it changed, and its prompt when it changed; both again
after each line the caller types. The line the caller is typing so far is typed out
again after them.

>>> from tests.door.fake_terminal import FakeTerminal
>>> terminal = FakeTerminal()
>>> speaker = SpeechRenderer(terminal)
>>> speaker.render(Said(("Who is on: 1 you.",), "", "Type a key."))
>>> speaker.render(Said(("Who is on: 1 you.", "Ada says: hi"), "", "Type a key."))
>>> bytes(terminal.output).decode()
'Who is on: 1 you.\\r\\nType a key.\\r\\nAda says: hi\\r\\n'
"""

from __future__ import annotations

import collections
from typing import Final

from door.screens.speech import Said
from door.term.terminal import Terminal

EOL: Final = "\r\n"


class SpeechRenderer:
    """Says frames to one terminal as new sentences (see the module's notes)."""

    def __init__(self, terminal: Terminal) -> None:
        self._terminal = terminal
        self._said: collections.Counter[str] = collections.Counter()
        """The sentences of the last frame (a sentence said twice is in it twice)."""
        self._message: str | None = None
        self._prompt: str | None = None

    def invalidate(self) -> None:
        """Say the next frame whole (Ctrl-L, ``keys``, or after something else spoke)."""
        self._said.clear()
        self.heard_line()

    def heard_line(self) -> None:
        """The caller typed a line: the message and the prompt are said again after it,
        even unchanged (a refusal said twice is two refusals)."""
        self._message = self._prompt = None

    def close(self) -> None:
        """Nothing to stop: speech never repeats by itself."""

    def render(self, said: Said) -> None:
        new = collections.Counter(said.sentences) - self._said
        lines = []
        for sentence in said.sentences:
            if new[sentence] > 0:
                new[sentence] -= 1
                lines.append(sentence)
        self._said = collections.Counter(said.sentences)
        if said.message and said.message != self._message:
            lines.append(said.message)
        self._message = said.message
        if said.prompt and said.prompt != self._prompt:
            lines.append(said.prompt)
        self._prompt = said.prompt
        if lines:
            start = EOL if said.typed else ""  # the caller's line so far ends first
            self._terminal.write(start + "".join(line + EOL for line in lines) + said.typed)
