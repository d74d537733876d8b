"""What a transport hands the caller's terminal (door/term/terminal.py): its input, a
``ByteSource`` that is read or a ``PushingSource`` that delivers, and its output, a
``ByteSink``."""

from __future__ import annotations

from typing import Protocol


class ByteSource(Protocol):
    """A transport's input. ``read`` returns what has arrived (bytes, or text from a
    transport that decodes), returns empty when the caller hangs up, and must tolerate
    being cancelled, because the ESC timeout cancels a pending read.

    A source that can hand its input over as it arrives (telnet's) also has
    ``deliver_to(receiver)`` and ``hold(seconds)``: see ``PushingSource``."""

    async def read(self) -> bytes | str: ...


class InputReceiver(Protocol):
    """Where a pushing source delivers: the caller's terminal."""

    def received(self, data: bytes | str) -> None:
        """Input has arrived (called from the transport's own callback)."""
        ...

    def ended(self) -> None:
        """The caller hung up or the line failed: nothing more will arrive."""
        ...


class PushingSource(Protocol):
    """A source that calls its receiver as input arrives, so a key reaches the key
    queue in the transport's callback and wakes the screen's task directly, with no
    reading task woken in between (issue #48: a task switch a key)."""

    def deliver_to(self, receiver: InputReceiver | None) -> None:
        """Hand everything that arrives to ``receiver`` from now on, beginning with
        what came before (and the end, if it came); None lets go of the receiver."""
        ...

    def hold(self, seconds: float) -> None:
        """Stop reading for ``seconds``: what the caller sends meanwhile waits in their
        own transport (TCP's window), not in the door."""
        ...


class ByteSink(Protocol):
    """A transport's output. A sink that can tell how many bytes wait in its transport
    also has ``buffered() -> int`` (a memory sink has nothing waiting); one that shows
    the keys on offer as buttons (the web page's) has ``offer_keys(offers)``."""

    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...
