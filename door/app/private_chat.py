"""The private chat the sysop pages a caller into (``O`` in the sysop's lobby): the two
of them alone, on the lobby's screen, until one leaves it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from door.app.lobby_view import chat_texts
from door.app.members import IN_THE_LOBBY, Member
from door.app.presence import Presence
from door.screens.chat import MAX_CHAT_LENGTH, Entry
from door.screens.lobby import LobbyView
from door.screens.lobby_speech import LEAVE_CHAT
from door.term.keys import Key
from door.ui.line_editor import Edit


async def private_chat(
    member: Member,
    presence: Presence,
    view: LobbyView,
    next_key: Callable[[], Awaitable[Key | None]],
) -> None:
    """Until the chat is over: either of them leaves it (Esc, or a line saying so), or a
    game the caller agreed to takes them to its table first. Drawn on the lobby's
    ``view``; ``next_key`` is the lobby's, not interrupted by being called away."""
    room = member.private_chat
    assert room is not None
    other = next(m for m in room.members if m is not member)
    presence.set_place(member, f"in chat with {other.name}")
    view.private_with = other.name
    entry = view.entry = Entry("Say: ", MAX_CHAT_LENGTH)
    error = ""
    try:
        while member.private_chat is room:
            view.private_lines = chat_texts(room.lines)
            view.message = error or f"You are talking with {other.name}."
            view.error = bool(error)
            view.status = "Type and RETURN to send  Esc leave the chat  ^L redraw"
            key = await next_key()
            error = ""
            if member.seat is not None:
                room.close(member)  # their challenge was accepted: the table first
                break
            if key is None:
                continue
            edit = entry.editor.feed(key)
            leaves = edit is Edit.DONE and entry.text.strip().lower() in LEAVE_CHAT
            if edit is Edit.CANCELLED or leaves:
                room.close(member)
            elif edit is Edit.DONE:
                room.say(member, entry.text)
                entry.editor.clear()
            elif edit is Edit.REFUSED:
                error = entry.editor.refusal
            elif edit is Edit.NOT_EDITING:
                error = "Type a line and press RETURN, or Esc to leave the chat."
    finally:
        view.private_with = None
        view.entry = None
        if member.private_chat is room:
            member.private_chat = None
        presence.set_place(member, IN_THE_LOBBY)
    who = "you" if room.closed_by == member.name else room.closed_by
    member.tell(f"The chat with {other.name} is over ({who} left it).")
