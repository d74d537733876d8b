"""A screen reader's caller at a table with full-screen callers (issue #50): the reader
hears the others' plays, chat, counts (muggins too) and the end in sentences, and
answers in words; the full-screen callers' screens stay graphical. Two-handed, and
three-handed with the computer in the last seat and a screen reader watching (after the
lobby's help): every byte a screen reader is sent, from the lobby on, free of escapes,
box drawing and suit symbols."""

from __future__ import annotations

import re
from typing import Final

import pytest

from door.app import menu_choices
from door.table.flow import Table
from door.term.keys import Key
from tests.door.app.reader_callers import NOISE, ReaderPlayer, call_reader, play_mixed
from tests.door.app.test_lobby import Callers, in_lobby_after_game, log_text, screen, settled
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.reader_client import sent
from tests.door.waiting import until

THREE_OFFERED: Final = "3 players (+1 computer)"
"""What a screen reader hears of a game of three offered, the computer in the last seat."""


def lobby_ready(terminal_text: str) -> bool:
    return "Lobby: type a key or a word, then RETURN." in terminal_text


async def offered_to_a_reader(
    door: Callers, host: KeyboardTerminal, reader: KeyboardTerminal, players: int, offer: str
) -> tuple[Table, int]:
    """``host`` (full screen, in the lobby) offers a game of ``players`` with the computer
    in the empty seats and ``reader`` accepts it once their transcript says ``offer``:
    the table, and where the reader's transcript stood when the offer was said."""
    await settled(host)
    host.press(*["g"] * (players - 2))  # g: three players, then four (partners)
    await until(lambda: f"G players: {players}" in screen(host))
    host.press("w", "2", Key.ENTER)
    await until(lambda: offer in sent(reader), what=lambda: sent(reader)[-300:])
    mark = sent(reader).index(offer)
    reader.press("accept\r")
    await until(lambda: bool(door.presence.tables))
    return door.presence.tables[0], mark


@run_async
async def test_a_screen_reader_and_a_full_screen_caller_play_a_whole_game() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob = call_reader(door, "Bob")
    await until(lambda: "Press a key from the menu" in alice.status and lobby_ready(sent(bob)))
    await settled(alice)
    alice.press("a")  # manual counting: each hears the other's claim and the muggins
    await until(lambda: "A count: manual" in screen(alice))
    alice.press("w", "2")
    await until(lambda: "Alice challenges you" in sent(bob), what=lambda: sent(bob)[-300:])
    mark = sent(bob).index("Alice challenges you")
    alice_mark = len(alice.output)
    bob.press("accept\r")
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    await until(lambda: "You sit down at Alice vs Bob." in sent(bob)[mark:])
    # Chat both ways before the first deal.
    await until(lambda: "Chat: " in alice.display[21])
    await settled(alice)
    alice.press("good luck", Key.ENTER)
    await until(lambda: "Alice says: good luck" in sent(bob)[mark:])
    bob.press("say thanks, Alice\r")
    await until(lambda: "Bob: thanks, Alice" in log_text(alice))
    bob.press("repeat\r")  # the prompt again, after the chat
    await play_mixed([alice], [ReaderPlayer(bob, mark)], stop=lambda: table.over)
    await until(lambda: "Back to the lobby." in sent(bob)[mark:], what=lambda: sent(bob)[-500:])
    await in_lobby_after_game(alice)

    heard = sent(bob)[mark : sent(bob).index("Back to the lobby.", mark)]
    assert NOISE.search(heard) is None, NOISE.search(heard)
    assert re.search(r"Alice plays \w+ of \w+ \(count \d+\)", heard)
    assert re.search(r"Alice's (hand|crib): \w+ of \w+, .* starter \w+ of \w+\.", heard)
    assert re.search(r"Alice says 0(: right|, but it counts \d+)\.", heard)  # her claim
    assert "Alice deals. Wait for the cards, or type say and a line to chat." in heard
    if "Alice says 0, but it counts" in heard:
        assert "you take the" in heard and "missed (muggins)" in heard
    winner = table.names[table.game.winner_side or 0]
    said = "You win" if winner == "Bob" else "Alice wins"
    assert re.search(rf"{said}, 121 to \d+\.", heard), heard[-600:]
    # Back in the lobby, Bob hears how the game ended, as he heard that it began.
    back = sent(bob).index("Back to the lobby.", mark)
    ended = f"Alice vs Bob: {winner} won 121 to {min(table.game.scores)}"
    await until(lambda: ended in sent(bob)[back:], what=lambda: sent(bob)[back:][-600:])
    lobby = sent(bob)[back:]
    assert lobby.index("Alice vs Bob: a game begins.") < lobby.index(ended)
    # Alice's screens stayed the full-screen table, drawn with escapes and boxes.
    drawn = bytes(alice.output[alice_mark:]).decode("utf-8", errors="replace")
    assert "\x1b[" in drawn and re.search("[\u2500-\u257f]", drawn)
    await door.close()


@run_async
async def test_three_handed_with_the_computer_and_a_screen_reader_watching() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob = call_reader(door, "Bob")
    carol = call_reader(door, "Carol")
    await until(lambda: "Press a key from the menu" in alice.status)
    await until(lambda: lobby_ready(sent(bob)) and lobby_ready(sent(carol)))
    table, mark = await offered_to_a_reader(door, alice, bob, 3, THREE_OFFERED)
    assert table.names == ("Alice", "Bob", "Computer")
    await until(lambda: "playing Bob and Computer" in sent(carol))
    carol.press("help\r")  # the lobby's help, said: her page, not the keys' pages
    await until(lambda: "Playing with a screen reader. S at the arrival menu" in sent(carol))
    watch_mark = len(sent(carol))
    carol.press("watch\r", "1\r")  # Alice is first in the list
    await until(lambda: "Watching Alice vs Bob vs Computer" in sent(carol)[watch_mark:])
    carol.press("say go Bob!\r")
    await until(lambda: "Carol: go Bob!" in log_text(alice))
    await until(lambda: "Carol says: go Bob!" in sent(bob)[mark:])
    bob.press("repeat\r")
    await play_mixed([alice], [ReaderPlayer(bob, mark)], stop=lambda: table.over)
    await until(lambda: "Back to the lobby." in sent(bob)[mark:])
    await until(lambda: "Back to the lobby." in sent(carol)[watch_mark:])
    await in_lobby_after_game(alice)

    for terminal, since in ((bob, mark), (carol, watch_mark)):
        heard = sent(terminal)[since : sent(terminal).index("Back to the lobby.", since)]
        assert NOISE.search(heard) is None, NOISE.search(heard)
        assert re.search(r"Computer plays \w+ of \w+ \(count \d+\)", heard)
        assert re.search(r"Alice plays \w+ of \w+ \(count \d+\)", heard)
        winner = table.names[table.game.winner_side or 0]
        assert re.search(rf"({winner} wins|You win), 121 to \d+ and \d+\.", heard), heard[-400:]
    watched = sent(carol)[watch_mark:]
    assert "Bob plays" in watched and "Your hand" not in watched  # a watcher holds none
    # Every byte either screen reader was sent, lobby, help, game and watching, from the
    # first: no escape (no cursor movement, no clearing), no box drawing, no suit symbol.
    for terminal in (bob, carol):
        await until(lambda terminal=terminal: lobby_ready(sent(terminal)[-400:]))
        everything = sent(terminal)
        assert NOISE.search(everything) is None, NOISE.search(everything)
        assert "Help: page" not in everything and "Press a key" not in everything
    await door.close()


@run_async
async def test_a_screen_reader_watches_the_computer_play_itself_and_leaves() -> None:
    door = Callers()
    carol = call_reader(door, "Carol")
    await until(lambda: lobby_ready(sent(carol)))
    mark = len(sent(carol))
    carol.press("t\r")
    await until(lambda: "Watching Computer vs Computer 2" in sent(carol)[mark:])
    await until(lambda: "You are watching" in sent(carol)[mark:])
    played = re.compile(r"Computer( 2)? plays \w+ of \w+")
    await until(lambda: played.search(sent(carol)[mark:]) is not None)
    carol.press("faster\r")
    await until(lambda: "seconds a move (type faster or slower)." in sent(carol)[mark:])
    carol.press("hand\r")
    await until(lambda: "You are watching: you hold no cards." in sent(carol)[mark:])
    carol.press("quit\r")
    await until(lambda: "You stop watching." in sent(carol)[mark:])
    left = sent(carol).index("You stop watching.", mark)
    await until(lambda: lobby_ready(sent(carol)[left:]))
    watched = sent(carol)[mark:left]
    assert NOISE.search(watched) is None, NOISE.search(watched)
    assert "Type say and a line to chat." in watched and "Press c" not in watched
    assert not door.presence.tables  # nobody watches: the computer stops
    await door.close()


@run_async
async def test_four_handed_a_screen_reader_partners_the_computer() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob = call_reader(door, "Bob")
    await until(lambda: "Press a key from the menu" in alice.status and lobby_ready(sent(bob)))
    # Four players: partners, the computer in the two empty seats.
    table, mark = await offered_to_a_reader(door, alice, bob, 4, "Alice challenges you")
    assert len(table.names) == 4 and table.names[:2] == ("Alice", "Bob")
    partner = table.names[3]  # Bob's partner sits across: seat 3
    await play_mixed([alice], [ReaderPlayer(bob, mark)], stop=lambda: table.over)
    await until(lambda: "Back to the lobby." in sent(bob)[mark:])
    await in_lobby_after_game(alice)
    heard = sent(bob)[mark : sent(bob).index("Back to the lobby.", mark)]
    assert NOISE.search(heard) is None, NOISE.search(heard)
    # The score is said side by side, Bob's side as "You and" his partner.
    assert re.search(rf"Score: Alice and \S+ \d+, You and {partner} \d+, ", heard), heard[:900]
    assert re.search(r"(wins|win), 121 to \d+", heard)


@run_async
async def test_a_screen_reader_hears_the_lobbys_result_note_with_every_name_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The note was shortened to fit the lobby's row ("Alexand… won 121; you 73, ..."),
    # and the same words were said. The row is made narrow here (20 cells, where it
    # is a default too) so that any game's note would be shortened on a screen.
    monkeypatch.setattr(menu_choices, "RESULT_WIDTH", 20)
    monkeypatch.setattr(menu_choices.result_line, "__defaults__", (20,))
    door = Callers()
    alexandrina, _ = door.call("Alexandrina")
    bob = call_reader(door, "Bob")
    await until(
        lambda: "Press a key from the menu" in alexandrina.status and lobby_ready(sent(bob))
    )
    table, mark = await offered_to_a_reader(door, alexandrina, bob, 3, THREE_OFFERED)
    await play_mixed([alexandrina], [ReaderPlayer(bob, mark)], stop=lambda: table.over)
    await until(lambda: "Back to the lobby." in sent(bob)[mark:])
    back = sent(bob).index("Back to the lobby.", mark)
    await until(lambda: lobby_ready(sent(bob)[back:]), what=lambda: sent(bob)[back:][-400:])
    said = " ".join(sent(bob)[back:].split())
    note = re.search(r"(You|Alexandrina|Computer) won 121; [^.]*\.", said)
    assert note is not None, said[-600:]
    assert "…" not in note[0] and "Alexandrina" in note[0], note[0]
    assert re.fullmatch(
        r"(You won 121; (Alexandrina|Computer) \d+.*, (Alexandrina|Computer) \d+.*"
        r"|(Alexandrina|Computer) won 121; you \d+.*, (Alexandrina|Computer) \d+.*)\.",
        note[0],
    ), note[0]
    await in_lobby_after_game(alexandrina)
    await door.close()
