"""What the lobby shows of the door's state, in the words the lobby uses: who is on, the
chat, the notice line (a challenge to answer, answers awaited, mail games waiting), and
who won a game.

>>> and_names(["Ada"]), and_names(["Ada", "Bob", "Cy"]), and_names([])
('Ada', 'Ada, Bob and Cy', 'nobody')
"""

from __future__ import annotations

from collections.abc import Sequence

from door.app.members import ChatLine, Member
from door.screens.lobby import WHO_ROWS, ChatText, WhoLine


def who_lines(online: Sequence[Member], member: Member, chosen: Sequence[Member]) -> list[WhoLine]:
    """The lines of the list of who is on that the lobby shows (a page of them: with a
    thousand callers on, a line for each was most of a lobby frame)."""
    return [
        WhoLine(
            other.name,
            other.place,
            other.idle,
            you=other is member,
            sysop=other.sysop,
            chosen=other in chosen,
        )
        for other in online[:WHO_ROWS]
    ]


def chat_texts(lines: Sequence[ChatLine]) -> list[ChatText]:
    return [ChatText(line.speaker, line.text, line.kind) for line in lines]


def notice(member: Member, mail_note: str) -> tuple[str, bool]:
    """The notice line, and whether it is urgent: a challenge to answer, answers awaited,
    mail games waiting for a move."""
    if member.invitation is not None:
        challenge = member.invitation
        sender = challenge.sender.name
        return f"{sender} challenges you: {challenge.describe()}. Y accept  N decline", True
    if member.challenge is not None:
        sent = member.challenge
        waiting = [m.name for m in sent.invitees if m.name not in sent.accepted]
        return f"Waiting for {and_names(waiting)} to answer your challenge. Esc withdraws.", False
    return mail_note, False


def and_names(names: Sequence[str]) -> str:
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
