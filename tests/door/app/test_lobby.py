"""Callers together, without a network: several sessions share one Presence, each on a
fake terminal, and what each caller sees is read back through pyte."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.config import Config, config_from_mapping
from door.table.flow import Table
from door.term.keys import Key
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.waiting import until

# A chat line with everything a terminal would act on: a title-setting OSC, a clear
# screen, a colour, an 8-bit CSI, a bell, a backspace, a bidi override, and far too long.
HOSTILE = (
    "\x1b]0;owned\x07\x1b[2J\x1b[31mRED\x9b1mX\x07\x08\u202egnp.exe" + "A" * 200 + "\x1bc\x00tail"
)
SAFE_START = "REDXgnp.exeAAAA"


class Callers:
    """A door without sockets: sessions on keyboard terminals sharing one Presence."""

    def __init__(self, **game: Any) -> None:
        self.config: Config = config_from_mapping(
            {"game": {"computer_pause_seconds": 0, **game}, "sysop": {"name": "Sysop"}}
        )
        self.presence = Presence("Sysop", random.Random(1))
        self.tasks: list[asyncio.Task[None]] = []
        self.seed = 10

    def call(
        self, name: str, *, sysop: bool = False
    ) -> tuple[KeyboardTerminal, asyncio.Task[None]]:
        terminal = KeyboardTerminal()
        self.seed += 1
        caller = Caller(name, "test", sysop=sysop)
        session = run_session(
            terminal, self.config, caller, random.Random(self.seed), self.presence
        )
        task = asyncio.ensure_future(session)
        self.tasks.append(task)
        return terminal, task

    async def close(self) -> None:
        self.presence.close_tables()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def settled(*terminals: KeyboardTerminal) -> None:
    """Every key pressed has been read and each door side waits for the next."""
    await until(lambda: all(t.reading and t.read == t.pressed for t in terminals))
    await asyncio.sleep(0.01)
    await until(lambda: all(t.reading and t.read == t.pressed for t in terminals))


async def in_lobby(*terminals: KeyboardTerminal) -> None:
    await until(lambda: all("Press a key from the menu" in t.status for t in terminals))
    await settled(*terminals)


def screen(terminal: KeyboardTerminal) -> str:
    return "\n".join(terminal.display)


def flat(terminal: KeyboardTerminal) -> str:
    """The whole screen as one line, so a sentence wrapped over two rows reads whole."""
    return " ".join(line.strip() for line in terminal.display)


def log_text(terminal: KeyboardTerminal) -> str:
    return " ".join(line.strip() for line in terminal.display[17:21])


def own_name(terminal: KeyboardTerminal) -> str:
    """The name the lobby's list gives this caller ("Bob (you)")."""
    found = re.search(r"\d+\s+(\S+) \(you\)", screen(terminal))
    assert found, screen(terminal)
    return found.group(1)


def list_number(terminal: KeyboardTerminal, name: str) -> int | None:
    """The number ``name`` has in this caller's list of who is on, if listed."""
    found = re.search(rf"(\d+)\s+{re.escape(name)}\b(?! \(you\))", screen(terminal))
    return int(found.group(1)) if found else None


async def offer_challenge(challenger: KeyboardTerminal, opponent: KeyboardTerminal) -> None:
    """The challenger picks the opponent in the list by name (``w`` and their number).
    By name, not by place: callers are listed in the order they came in, and two
    sign-ins started together may finish either way round."""
    name = own_name(opponent)
    await until(lambda: list_number(challenger, name) is not None, what=f"{name} listed")
    challenger.press("w", str(list_number(challenger, name)))


async def challenge(challenger: KeyboardTerminal, opponent: KeyboardTerminal) -> None:
    """The challenger challenges the opponent (see ``offer_challenge``); they accept."""
    await offer_challenge(challenger, opponent)
    await until(lambda: "challenges you" in screen(opponent))
    opponent.press("y")


@run_async
async def test_callers_see_each_other_and_chat_in_the_lobby() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    assert re.search(r"1\s+Alice\s+in the lobby\s+0:0\d", screen(bob))
    assert "Bob (you)" in screen(bob) and "Welcome, Bob!" in screen(bob)
    alice.press("c", "hello, Bob", Key.ENTER)
    await until(lambda: "Alice: hello, Bob" in screen(bob))
    await door.close()


@run_async
async def test_a_hostile_chat_line_reaches_the_other_caller_as_plain_text() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    sent_before = len(bob.output)
    member = door.presence.find("Alice")
    assert member is not None
    door.presence.say(member, HOSTILE)  # as if a client had slipped it past the keys
    await until(lambda: "Alice: " + SAFE_START in screen(bob))
    received = bob.output[sent_before:]
    for forbidden in (b"owned", b"\x1b]", b"\x1b[2J", b"\x07", b"\x08", b"\x1bc", b"\x00"):
        assert forbidden not in received
    assert "\u202e".encode() not in received and b"\x9b" not in received
    line = next(row for row in bob.display if "Alice: " in row)
    spoken = line.split("Alice: ", 1)[1].rstrip()
    assert spoken.startswith(SAFE_START) and len(spoken) <= 60  # cut to one chat line
    await door.close()


@run_async
async def test_hostile_bytes_typed_into_a_game_chat_show_as_plain_text() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    await challenge(alice, bob)
    await until(lambda: "Chat: " in alice.display[21] and "Chat: " in bob.display[21])
    sent_before = len(alice.output)
    # Raw bytes as a hostile client sends them: the key decoder keeps only printable
    # keys, and the table cleans what is left before anyone sees it.
    bob.push_bytes(b"hi\x07\x1b[2J there\x9b31m\x00\x08" + b"B" * 120 + b"\r")
    await until(lambda: "Bob: hi there" in log_text(alice))
    received = alice.output[sent_before:]
    for forbidden in (b"\x1b[2J", b"\x07", b"\x9b", b"\x00", b"\x08"):
        assert forbidden not in received
    line = next(row for row in alice.display[17:21] if "Bob: " in row)
    spoken = line.split("Bob: ", 1)[1].rstrip()
    assert spoken.startswith("hi there") and len(spoken) <= 60
    await door.close()


@run_async
async def test_a_declined_challenge_is_reported_to_the_challenger() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    await offer_challenge(alice, bob)
    await until(lambda: "Alice challenges you: 2 players, free runs, auto count" in screen(bob))
    assert "Waiting for Bob to answer your challenge" in screen(alice)
    bob.press("n")
    await until(lambda: "Bob declines the challenge." in screen(alice))
    assert "challenges you" not in screen(bob)
    alice.press("w", "1")  # oneself is no opponent
    await until(lambda: "That is you." in screen(alice))
    await door.close()


@run_async
async def test_two_callers_chat_before_the_hand_and_play_a_whole_game() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    alice.press("a")  # manual counting, from the challenger's options
    await until(lambda: "A count: manual" in screen(alice))
    await challenge(alice, bob)
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    assert table.names == ("Alice", "Bob")  # the challenger is player 1
    await until(lambda: "Chat: " in alice.display[21] and "Chat: " in bob.display[21])
    await settled(alice, bob)
    dealer, other = (alice, bob) if table.game.dealer == 0 else (bob, alice)
    dealer_name, other_name = table.names[table.game.dealer], table.names[1 - table.game.dealer]
    assert "blank line: deal" in dealer.status and "blank line: deal" not in other.status
    # The other player chats; a blank line from them does not deal.
    other.press("good luck", Key.ENTER)
    await until(lambda: f"{other_name}: good luck" in log_text(dealer))
    other.press(Key.ENTER)
    await settled(other)
    assert f"{dealer_name} deals" in other.message and table.game.hand_number == 0
    # Each sees their own cards, and the other's only as backs.
    dealer.press(Key.ENTER)
    await until(lambda: "RETURN mark" in alice.status and "RETURN mark" in bob.status)
    for terminal, seat in ((alice, 0), (bob, 1)):
        hand = table.sorted_hand(seat)
        faces = [f"{'10' if c.rank == 10 else c.rank.letter}{c.suit.symbol}" for c in hand]
        assert all(face in terminal.display[14] for face in faces)
        assert f"{table.names[1 - seat]} holds 6" in terminal.display[13]
    # A chat in the middle of the discard, and back to the discard as it was.
    bob.press(Key.ENTER, "c", "nice", Key.ENTER)
    await until(lambda: "Bob: nice" in log_text(alice))
    await settled(bob)
    assert "RETURN mark" in bob.status and ">*1*<" in bob.display[12]
    # The rest of the game, both pressing what their screens ask; manual counting
    # claims 0, so each sees the other's claim and the muggins that follows.
    await play_together([alice, bob], stop=lambda: table.over)
    await in_lobby_after_game(alice, bob)
    scores = tuple(table.game.scores)
    assert max(scores) >= 121 and min(scores) < 121
    winner = table.names[table.game.winner_side or 0]
    loser = table.names[1 - (table.game.winner_side or 0)]
    notes = {alice: screen(alice), bob: screen(bob)}
    won = f"You won {max(scores)} to {min(scores)}"
    lost = f"{winner} won {max(scores)} to {min(scores)}"
    assert (won in notes[alice]) == (winner == "Alice") and (lost in notes[bob]) == (loser == "Bob")
    # The lobby's chat, which read that the game began, reads how it ended.
    ended = f"Alice vs Bob: {winner} won {max(scores)} to {min(scores)}"
    assert "Alice vs Bob: a game begins." in flat(alice)
    assert ended in flat(alice) and ended in flat(bob)
    await door.close()


async def in_lobby_after_game(*terminals: KeyboardTerminal) -> None:
    """Press RETURN at the game-over screen until everyone is back in the lobby."""
    for _ in range(200):
        for terminal in terminals:
            if "RETURN back to the lobby" in terminal.status and terminal.read == terminal.pressed:
                terminal.press(Key.ENTER)
        if all("Press a key from the menu" in t.status for t in terminals):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not back in the lobby")


@run_async
async def test_the_opponent_sees_the_claim_and_the_muggins_result() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    alice.press("a")
    await until(lambda: "A count: manual" in screen(alice))
    await challenge(alice, bob)
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    await play_together([alice, bob], stop=lambda: bool(table.game.shows))
    shown = table.game.shows[0]
    owner, watcher = (alice, bob) if shown.seat == 0 else (bob, alice)
    owner_name = table.names[shown.seat]
    true = shown.score.total
    if true == 0:
        expected = f"{owner_name} says 0: right."
    else:
        expected = f"{owner_name} says 0, but it counts {true}."
    await until(lambda: expected in flat(watcher))
    assert "You said 0" in flat(owner)
    if true:
        assert f"{owner_name} scores 0 and you take the {true} missed (muggins)" in flat(watcher)
    await door.close()


@run_async
async def test_three_callers_a_three_handed_game_with_the_computer_and_a_watcher() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    carol, _ = door.call("Carol")
    await in_lobby(alice, bob, carol)
    alice.press("g")  # three players: the computer takes the empty seat
    await settled(alice)
    assert "G players: 3" in screen(alice)
    alice.press("w", "2", Key.ENTER)
    await until(lambda: "3 players (+1 computer)" in screen(bob))
    bob.press("y")
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    assert table.names == ("Alice", "Bob", "Computer")
    await until(lambda: "playing Bob and Computer" in screen(carol))
    carol.press("v", "1")  # Alice is first in the list
    await until(lambda: "You are watching Alice vs Bob vs Computer" in screen(carol))
    carol.press("c", "go Bob!", Key.ENTER)
    await until(lambda: "Carol: go Bob!" in log_text(alice) and "Carol: go Bob!" in log_text(bob))
    await play_together([alice, bob], stop=lambda: table.over)
    await in_lobby_after_game(alice, bob)
    assert len(table.game.scores) == 3 and max(table.game.scores) >= 121
    # The three-handed board: every side's pegs, and the header names all three.
    winner = table.names[table.game.winner_side or 0]
    assert "Game over" in screen(carol) or "Press a key from the menu" in carol.status
    told = "You won" if winner == "Alice" else f"{winner} won"
    # The lobby's note of it names the winner and says every score.
    scores = table.game.scores
    losers = [side for side in (0, 1, 2) if scores[side] < 121]
    note = flat(alice)
    assert f"{told} {max(scores)}; " in note
    assert all(
        f"{'you' if side == 0 else table.names[side]} {scores[side]}" in note for side in losers
    )
    await door.close()


async def game_with_a_drop(
    door: Callers, *, before_the_deal: bool = False
) -> tuple[KeyboardTerminal, KeyboardTerminal, Table]:
    """Alice and Bob play into the second hand (or to the chat before it), then Bob's
    line drops."""
    alice, _ = door.call("Alice")
    bob, bob_task = door.call("Bob")
    await in_lobby(alice, bob)
    await challenge(alice, bob)
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    if before_the_deal:
        await play_together(
            [alice, bob],
            stop=lambda: table.game.hand_number == 1 and "Chat: " in bob.display[21],
        )
    else:
        await play_together([alice, bob], stop=lambda: table.game.hand_number >= 2)
    bob.hang_up()
    await until(lambda: bob_task.done())
    await until(lambda: "Bob's line has dropped." in log_text(alice))
    return alice, bob, table


@pytest.mark.parametrize("before_the_deal", [False, True])
@run_async
async def test_a_dropped_caller_calls_back_and_the_game_goes_on_where_it_stood(
    before_the_deal: bool,
) -> None:
    door = Callers()
    alice, _, table = await game_with_a_drop(door, before_the_deal=before_the_deal)
    await play_together([alice], stop=lambda: "p computer plays for Bob" in alice.status)
    assert "Bob's line dropped" in alice.message
    scores, hand = tuple(table.game.scores), table.game.hand_number
    bob, _ = door.call("Bob")
    await until(lambda: "You are back at the table" in log_text(bob))
    await until(lambda: "Bob is back." in log_text(alice))
    assert tuple(table.game.scores) == scores and table.game.hand_number == hand
    await play_together([alice, bob], stop=lambda: table.over)
    assert max(table.game.scores) >= 121
    assert all(seat.human and not seat.computer_plays for seat in table.seats)
    await door.close()


@run_async
async def test_the_others_can_hand_a_dropped_seat_to_the_computer() -> None:
    door = Callers()
    alice, _, table = await game_with_a_drop(door)
    await play_together([alice], stop=lambda: "p computer plays for Bob" in alice.status)
    alice.press("p")
    await until(lambda: "The computer plays for Bob from here, as asked." in log_text(alice))
    await play_together([alice], stop=lambda: table.over)
    assert max(table.game.scores) >= 121 and table.seats[1].computer_plays
    await door.close()


@run_async
async def test_a_game_never_waits_forever_for_a_dropped_caller() -> None:
    door = Callers(reconnect_wait_seconds=1)
    alice, _, table = await game_with_a_drop(door)
    await play_together(
        [alice], stop=lambda: "as the wait is over" in log_text(alice) or table.over
    )
    assert table.seats[1].computer_plays
    await door.close()


@run_async
async def test_the_sysop_hosts_a_game_and_the_caller_is_player_one() -> None:
    door = Callers()
    sysop, _ = door.call("Sysop", sysop=True)
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(sysop, alice, bob)
    assert "Sysop: O page into chat" in screen(sysop) and "Sysop: O page" not in screen(alice)
    assert re.search(r"1\s+Sysop +in the lobby", screen(alice))  # the name says it: no "(sysop)"
    sysop.press("h", "2")  # Alice
    await until(lambda: "Sysop challenges you" in screen(alice))
    alice.press("y")
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    assert table.names == ("Alice", "Sysop")
    await until(lambda: "Chat: " in alice.display[21] and "Chat: " in sysop.display[21])
    # A broadcast reaches the lobby and the game alike.
    door.presence.broadcast(door.presence.find("Sysop"), "The door closes at ten.")  # type: ignore[arg-type]
    await until(lambda: "*** Sysop: The door closes at ten." in screen(bob))
    await until(lambda: "*** Sysop: The door closes at ten." in log_text(alice))
    await door.close()


@run_async
async def test_the_sysop_pages_a_caller_into_chat_and_can_disconnect_them() -> None:
    door = Callers()
    sysop, _ = door.call("Sysop", sysop=True)
    alice, alice_task = door.call("Alice")
    await in_lobby(sysop, alice)
    sysop.press("o", "2")
    await until(lambda: "Private chat with Sysop" in screen(alice))
    assert "Private chat with Alice" in screen(sysop)
    alice.press("hello sysop", Key.ENTER)
    await until(lambda: "Alice: hello sysop" in screen(sysop))
    sysop.press(Key.ESCAPE)
    await until(lambda: "The chat with Sysop is over (Sysop left it)." in screen(alice))
    await in_lobby(sysop, alice)
    sysop.press("b", "Hello all", Key.ENTER)
    await until(lambda: "*** Sysop: Hello all" in screen(alice))
    sysop.press("k", "2")
    await until(lambda: "Disconnect Alice? Press Y to disconnect" in screen(sysop))
    assert not alice_task.done()  # nothing happens before the sysop says yes
    sysop.press("y")
    await until(lambda: alice_task.done())
    assert b"The sysop has disconnected you." in alice.output
    await until(lambda: "Sysop disconnected Alice." in screen(sysop))
    assert door.presence.find("Alice") is None
    await door.close()


@pytest.mark.parametrize("name", ["Sysop", "sysop", "Alice"])
@run_async
async def test_a_name_in_use_or_the_sysops_is_asked_again(name: str) -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    other, _ = door.call(name)
    await until(lambda: "Please choose another name." in screen(other))
    other.press("Dave", Key.ENTER)
    await until(lambda: "Welcome, Dave!" in screen(other))
    await door.close()


@run_async
async def test_q_in_the_lobby_asks_before_leaving() -> None:
    door = Callers()
    alice, task = door.call("Alice")
    await in_lobby(alice)
    alice.press("q")
    await until(lambda: "Leave the door? Press Y to leave, N to stay." in screen(alice))
    alice.press("n")
    await until(lambda: "Leave the door?" not in screen(alice))
    await settled(alice)  # the lobby took N and waits for the next key
    assert not task.done() and door.presence.find("Alice") is not None
    alice.press("q", "y")
    await until(lambda: task.done())
    assert door.presence.find("Alice") is None
    await door.close()


async def bar_against_the_computer(win_bar: str) -> bool:
    """Whether a caller who plays the computer from the lobby sees the win bar."""
    door = Callers(win_bar=win_bar)
    alice, task = door.call("Alice")
    await in_lobby(alice)
    alice.press("p")
    await until(lambda: "RETURN on a blank line: deal" in alice.status)
    await alice.until_waiting(task)  # with the bar the frame asked for drawn (#48)
    shown = "Win: You" in screen(alice)
    await door.close()
    return shown


@run_async
async def test_the_sysops_win_bar_setting_reaches_a_game_against_the_computer() -> None:
    assert await bar_against_the_computer("on")
    assert not await bar_against_the_computer("off")
    assert not await bar_against_the_computer("never")
