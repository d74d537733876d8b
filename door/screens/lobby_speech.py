"""The lobby in sentences, for a caller with a screen reader (``Display.SPEECH``): what
door/screens/lobby.py draws, said as a screen reader reads best, one thing a line.

Pure: a ``LobbyView`` in, a ``Said`` (door/screens/speech.py) out.
door/ui/speech_renderer.py says the sentences that are new since the last frame, then
the prompt; the idle times are left out, so that the lobby's refresh every few seconds
says nothing new.

>>> from door.screens.lobby import LobbyView, WhoLine, ChatText
>>> view = LobbyView("Cribbage Door", "Bob", who=(WhoLine("Ada", "in the lobby", 3),
...     WhoLine("Bob", "in the lobby", 0, you=True)), who_count=2,
...     chat=(ChatText("Ada", "hello"),), status="Press a key from the menu  c chat")
>>> said = lobby_said(view)
>>> said.sentences[1]
'Who is on: 1 Ada, in the lobby; 2 you, in the lobby.'
>>> said.sentences[2]
'Ada says: hello'
"""

from __future__ import annotations

from typing import Final

from door.screens.lobby import ChatText, LobbyView, key_rows
from door.screens.speech import Said, keys_for_pointer, rating_in_words
from door.ui.confirm import STATUS as CONFIRM_STATUS

KEY_WORDS: Final = (
    ("Y accept  N decline", "Type y or accept to accept, n or decline to decline."),
    ("Esc withdraws.", "Type withdraw to withdraw it."),
    ("Esc withdraws it.", "Type withdraw to withdraw it."),
    ("Press Y to leave, N to stay. Press Y or N.", "Type yes to leave, no to stay."),
    (" Press Y or N.", " Type yes or no."),
)
"""The lobby's notices that name keys, and the words a screen reader's caller types."""
QUIET_MESSAGE: Final = "Choose from the menu above."
"""The lobby's message when it has nothing to say: the prompt says it in words."""
CONFIRM_PROMPT: Final = "Type yes or no, then RETURN."
PROMPT: Final = "Lobby: type a key or a word, then RETURN. keys says the menu again."
LEAVE_CHAT: Final = frozenset({"/quit", "/leave"})
"""Lines that leave a private chat (besides Esc), rather than being said in it."""
PRIVATE_PROMPT: Final = "Say: type a line, then RETURN; /quit leaves the chat."


def lobby_said(view: LobbyView, typed: str = "") -> Said:
    """The lobby of ``view`` in sentences: the welcome, who is on, the chat, the keys,
    a challenge; the message line; and what is awaited."""
    sentences = [f"{view.title}. Welcome, {view.name}!"]
    if view.private_with is not None:
        sentences.append(f"A private chat with {view.private_with}.")
        sentences.extend(chat_sentence(line) for line in view.private_lines)
    else:
        sentences.append(who_sentence(view))
        sentences.extend(chat_sentence(line) for line in view.chat)
        sentences.extend(keys_sentence(row) for row in key_rows(view) if row.strip())
    if view.notice:
        sentences.append(in_lobby_words(view.notice))
    message = "" if view.message == QUIET_MESSAGE else in_lobby_words(view.message)
    # A key that does nothing sends the caller to the menu: said, the menu's keys.
    message = keys_for_pointer(message, keys_sentence("  ".join(key_rows(view))))
    return Said(tuple(sentences), message, prompt_of(view), typed)


def who_sentence(view: LobbyView) -> str:
    """``Who is on: 1 Ada, in the lobby; 2 you, in the lobby.``: the numbers are what a
    challenge or a watch is chosen by."""
    people = [
        f"{number} {'you' if line.you else line.name}, {line.where}"
        for number, line in enumerate(view.who, 1)
    ]
    more = view.who_count - len(view.who)
    tail = f"; and {more} more" if more > 0 else ""
    return f"Who is on: {'; '.join(people)}{tail}."


def chat_sentence(line: ChatText) -> str:
    if line.kind == "notice" or not line.speaker:
        return line.text
    if line.kind == "broadcast":
        return f"{line.speaker} to everyone: {line.text}"
    return f"{line.speaker} says: {line.text}"


def keys_sentence(row: str) -> str:
    """A row of keys (``P Play the computer  T Self-play``) as a sentence: ``Keys: P Play
    the computer, T Self-play.``"""
    parts = [part.strip() for part in row.split("  ") if part.strip()]
    said = ", ".join(part for part in parts if not part.startswith("("))
    # A remark on the row ("(a guest's games are not kept)") is no key: said after them.
    remarks = "".join(f" {part}" for part in parts if part.startswith("("))
    return f"Keys: {(said + remarks).strip()}."


def prompt_of(view: LobbyView) -> str:
    """What the lobby waits for: a line being typed (its prompt), or a key or word."""
    if view.entry is not None and view.private_with is not None:
        return PRIVATE_PROMPT
    if view.entry is not None:
        return view.entry.prompt.strip()
    return CONFIRM_PROMPT if view.status == CONFIRM_STATUS else PROMPT


def in_lobby_words(text: str) -> str:
    """A notice or message of the lobby's in words: the keys it names as the words typed,
    a rating told after a game as it is read out."""
    for keys, words in KEY_WORDS:
        text = text.replace(keys, words)
    return rating_in_words(text)
