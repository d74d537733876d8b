"""The words before each hand (door/table/before_deal.py)."""

from __future__ import annotations

import itertools

from door.screens.layout import SCREEN_COLS
from door.table.before_deal import before_deal


def test_both_key_lines_fit_80_columns_and_say_how_to_quit() -> None:
    # The chat line's status said no way to quit: "... ? help  ^L redraw" filled the row.
    for i_deal, computer_deals, alone, coach in itertools.product((True, False), repeat=4):
        words = before_deal(
            3,
            "A" * 20,  # the longest handle
            i_deal=i_deal,
            computer_deals=computer_deals,
            alone=alone,
            coach=coach,
        )
        for status in (words.status, words.keys_status):
            assert len(" " + status) <= SCREEN_COLS - 1, status  # the bar's width
            assert "quit" in status, status
