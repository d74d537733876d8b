"""Golden transcripts: what a caller in screen-reader mode is sent, as the lines a
screen reader reads out, kept under tests/door/golden/transcripts/. The first is a whole
hand against the computer, typed words and all; it was read through when made, and a
change of wording shows here as a diff to read.

Regenerate after a deliberate change, then read the diff before committing:

    CRIBBAGE_REGEN_GOLDEN=1 python -m pytest tests/door/golden
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.door.caller import run_async
from tests.door.table.reader_client import play_in_words, sent, speech_terminal, start_game

GOLDEN = Path(__file__).parent / "transcripts"
REGENERATE = os.environ.get("CRIBBAGE_REGEN_GOLDEN") == "1"
END_OF_HAND = "Press RETURN to go on to the next hand."


@run_async
async def test_a_hand_against_the_computer_reads_as_its_golden_transcript() -> None:
    terminal = speech_terminal()
    task = start_game(terminal, seed=5)
    await play_in_words(terminal, task, stop=END_OF_HAND)
    task.cancel()
    text = sent(terminal)
    transcript = text[: text.index(END_OF_HAND) + len(END_OF_HAND)] + "\r\n"
    golden = GOLDEN / "hand-against-the-computer.txt"
    if REGENERATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(transcript.encode("utf-8"))
    assert golden.exists(), f"no golden {golden.name}: run with CRIBBAGE_REGEN_GOLDEN=1 and read it"
    assert transcript == golden.read_bytes().decode("utf-8")
