"""The table's chat: what the computer says back."""

from __future__ import annotations

import random

from door.screens.chat import canned_reply


def test_the_computer_never_gives_the_same_reply_twice_running() -> None:
    rng, last = random.Random(3), ""
    for _ in range(200):
        reply = canned_reply(rng, last)
        assert reply != last
        last = reply
