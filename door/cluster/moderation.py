"""Bans and mutes across the workers: a worker whose sysop made or lifted one says so
to all the others, which read the bans and mutes again from the store at once (the
store holds them; the message carries nothing but the news). A worker that missed the
message catches up by itself within door/app/moderation.py's REFRESH_SECONDS."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from door.app.moderation import Moderation
    from door.cluster.link import ClusterLink

MESSAGE: Final = "moderation"


class ModerationNotices:
    """Moderation's way to the other workers (``door.app.moderation.Notices``)."""

    def __init__(self, link: ClusterLink) -> None:
        self.link = link

    def changed(self) -> None:
        self.link.publish_all({"t": MESSAGE, "w": self.link.worker})


def install(link: ClusterLink, moderation: Moderation) -> None:
    """Tell the other workers of changes made here, and read again on theirs."""
    reading: set[asyncio.Task[Any]] = set()

    def changed_elsewhere(event: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # no loop: the worker is stopping
            task = asyncio.get_running_loop().create_task(moderation.refresh())
            reading.add(task)
            task.add_done_callback(reading.discard)

    moderation.notices = ModerationNotices(link)
    link.handlers[MESSAGE] = changed_elsewhere
