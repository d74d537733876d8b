"""The sysop's keys at the lobby, declared once each (door/ui/bindings.py), with the
actions they run: page a caller into a private chat, host a game with one (the caller
is player 1), disconnect one, broadcast to everyone, open the sysop's tools. Their row on
the lobby's menu is made from the declarations.

>>> SYSOP_MENU.text
'Sysop: O page into chat  H host a game  K disconnect  B broadcast  X tools'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from door.app.members import Member
from door.app.presence import Presence
from door.term.ansi import last_words
from door.ui.bindings import Binding, Bindings

SYSOP_KEYS: Final = Bindings(
    (
        Binding("o", "page", "page into chat", when="sysop"),
        Binding("h", "host", "host a game", when="sysop"),
        Binding("k", "disconnect", "disconnect", when="sysop"),
        Binding("b", "broadcast", "broadcast", when="sysop"),
        Binding("x", "tools", "tools", when="sysop"),
    )
)
SYSOP_MENU: Final = SYSOP_KEYS.menu_line("Sysop: ", "  ")
KICK_MESSAGE: Final = last_words("*** The sysop has disconnected you. Goodbye! ***")


class SysopsLobby(Protocol):
    """What the sysop's keys use of the lobby they are pressed in."""

    member: Member
    presence: Presence

    async def read_line(self, prompt: str) -> str | None: ...

    async def pick(
        self, prompt: str, most: int, allowed: Callable[[Member], bool]
    ) -> list[Member] | None: ...

    async def confirm(self, question: str) -> bool: ...

    def send_challenge(self, seating: list[Member]) -> None: ...

    async def sysop_tools(self) -> None: ...


class SysopKeys:
    """The actions of ``SYSOP_KEYS``, for the sysop at ``lobby``."""

    def __init__(self, lobby: SysopsLobby) -> None:
        self.lobby = lobby

    async def tools(self) -> None:
        await self.lobby.sysop_tools()

    async def broadcast(self) -> None:
        lobby = self.lobby
        text = await lobby.read_line("Broadcast: ")
        if text:
            lobby.presence.broadcast(lobby.member, text)

    async def page(self) -> None:
        target = await self._whom("Page whom into chat? ")
        if target is not None:
            self.lobby.presence.page(self.lobby.member, target)

    async def host(self) -> None:
        target = await self._whom("Host a game with whom? ")
        if target is not None:
            # The caller is player 1 and the sysop player 2, as the door has always had it.
            self.lobby.send_challenge([target, self.lobby.member])

    async def disconnect(self) -> None:
        lobby = self.lobby
        target = await self._whom("Disconnect whom? ")
        if target is None:
            return
        if await lobby.confirm(f"Disconnect {target.name}? Press Y to disconnect, N not to."):
            await disconnect(target)
            lobby.presence.notice(f"{lobby.member.name} disconnected {target.name}.")

    async def _whom(self, prompt: str) -> Member | None:
        """Someone else online, chosen by their number; None if the sysop cancelled."""
        me = self.lobby.member
        chosen = await self.lobby.pick(prompt, 1, lambda other: other is not me)
        return chosen[0] if chosen else None


async def disconnect(member: Member) -> None:
    """Tell a caller the sysop is hanging up on them, and do it."""
    await member.line.hang_up(KICK_MESSAGE)
