"""What a table tells whoever keeps it, through one listener given when it is built.

A ``Table`` knows nothing of saving, ratings or tournaments: the door's table service
(door/app/table_service.py) hangs those on it as a ``TableListener``, whose hooks the
table calls as its game goes. Every hook does nothing here, so a keeper overrides only
the ones it needs, as an asyncssh ``SSHServer`` does (shared/STYLE.md): a lower layer
talks up through a protocol it defines, never through callables assigned onto it.

The listener is generic in the table it hears from, so this module need not import the
table's (door/table/flow.py imports it): ``TableListener[Table]``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from door.table.options import GameResult

TableT = TypeVar("TableT", contravariant=True)


class TableListener(Generic[TableT]):
    """The hooks of a table's keeper; this one hears everything and does nothing."""

    def game_over(self, table: TableT, result: GameResult) -> None:
        """A game at ``table`` ended: played out, or forfeited by a caller who left a
        game that counts (rated, a tournament's). ``table.game`` is the game."""

    def match_forfeited(self, table: TableT, seat: int) -> None:
        """The caller of ``seat`` forfeited the match at ``table`` between two of its
        games (left it, or it was claimed from them: ``table.claimed``): no game was in
        play, so ``game_over`` is not called. ``table.match`` is the match as it stood."""

    def abandoned(self, table: TableT) -> None:
        """The game at ``table`` ended with nobody left to play it."""

    def chat_refusal(self, table: TableT, speaker: str) -> str | None:
        """Why ``speaker`` may not chat at ``table`` now (the sysop muted them), or None:
        the sentence they are told, and their line goes to nobody."""
        return None

    def chat_heard(self, table: TableT, speaker: str, line: str) -> str:
        """``speaker``'s chat ``line`` (already cleaned) going out at ``table``: the line
        everyone reads (the door stars out the words the sysop masks)."""
        return line

    def changed(self, table: TableT) -> None:
        """Something at ``table`` changed (everyone at it has been woken to redraw)."""

    def saved_as(self) -> int | None:
        """The game's number in the store once it has been saved (None: not saved), so
        the workers of a cluster know which of them holds it (door/cluster/link.py)."""
        return None

    def saved_whole(self) -> bool:
        """Whether the game as it stands is in the store, to go on from when its callers
        call again: a caller the door hangs up on may be told it is saved."""
        return False

    async def until_saved(self) -> None:
        """Return once everything the game has done so far is in the store (or a write
        has failed): a stopping worker hands its games on only then."""
