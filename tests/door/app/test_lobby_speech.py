"""The lobby in words for a screen reader's caller (issue #50): who is on, the chat, the
keys and a challenge said as sentences with a prompt saying what is awaited; typed
lines answered (a key, a word, say TEXT); a wrong line one sentence; nothing said again
that did not change."""

from __future__ import annotations

import asyncio
import re

from door.app.lobby_words import NOT_A_WORD, LobbyWords
from door.competition.rating import Rating, RatingChange
from door.screens.lobby import ChatText, LobbyView, WhoLine
from door.screens.lobby_speech import CONFIRM_PROMPT, PROMPT, keys_sentence, lobby_said
from door.screens.speech import Said
from door.term.keys import Key
from door.ui.speech_renderer import SpeechRenderer
from tests.door.app.reader_callers import NOISE, call_reader
from tests.door.app.test_lobby import Callers, in_lobby, screen, settled
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.reader_client import sent
from tests.door.waiting import until


def test_the_lobby_is_said_without_idle_times_and_its_keys_as_sentences() -> None:
    view = LobbyView(
        "Cribbage Door",
        "Bob",
        who=(WhoLine("Ada", "playing Cy", 75.0), WhoLine("Bob", "in the lobby", 0, you=True)),
        who_count=9,
        chat=(ChatText("Ada", "hi"), ChatText("", "Cy has come in.", "notice")),
        menu_keys="P Play the computer  W Challenge",
        notice="Ada challenges you: 2 players, free runs, auto count. Y accept  N decline",
        message="Choose from the menu above.",
    )
    said = lobby_said(view, typed="ac")
    assert said.sentences == (
        "Cribbage Door. Welcome, Bob!",
        "Who is on: 1 Ada, playing Cy; 2 you, in the lobby; and 7 more.",
        "Ada says: hi",
        "Cy has come in.",
        "Keys: P Play the computer, W Challenge.",
        "Ada challenges you: 2 players, free runs, auto count. Type y or accept to accept,"
        " n or decline to decline.",
    )
    assert said.message == "" and said.prompt == PROMPT and said.typed == "ac"
    assert "1:15" not in " ".join(said.sentences)  # the idle time changes every second


def test_a_rating_line_in_the_lobby_is_said_in_words() -> None:
    # Told after a game was quit, it was said as written: "Rating 1268? (−232)", a
    # question (the mark of a provisional rating) and a minus sign, unlike the record's.
    fell = RatingChange(Rating(1500.0), Rating(1268.0, 300.0)).line()
    rose = RatingChange(Rating(1500.0, 50.0), Rating(1512.0, 50.0)).line()
    same = RatingChange(Rating(1500.0, 50.0), Rating(1500.2, 50.0)).line()
    said = [
        lobby_said(LobbyView("Cribbage Door", "Bob", message=f"Game abandoned. {line}.")).message
        for line in (fell, rose, same)
    ]
    assert said == [
        "Game abandoned. Rating 1268, provisional (minus 232).",
        "Game abandoned. Rating 1512 (+12).",
        "Game abandoned. Rating 1500 (no change).",
    ]


def test_a_remark_on_a_row_of_keys_is_said_after_it_not_as_a_key() -> None:
    # A guest's row was said "..., S plain ASCII, (a guest's games are not kept)."
    row = "L Leaderboard  I no timer  S plain ASCII  (a guest's games are not kept)"
    assert keys_sentence(row) == (
        "Keys: L Leaderboard, I no timer, S plain ASCII (a guest's games are not kept)."
    )


def test_a_frame_says_only_what_is_new_and_a_typed_line_hears_the_prompt_again() -> None:
    terminal = FakeTerminal()
    speaker = SpeechRenderer(terminal)
    first = Said(("Who is on: 1 you.", "Ada says: hi"), "", "Type a key.")
    speaker.render(first)
    speaker.render(first)  # a refresh: nothing new
    speaker.render(Said(("Ada says: hi", "Ada says: hi"), "", "Type a key.", "pl"))
    speaker.heard_line()
    speaker.render(Said(("Ada says: hi", "Ada says: hi"), "No such key.", "Type a key."))
    assert bytes(terminal.output).decode() == (
        "Who is on: 1 you.\r\nAda says: hi\r\nType a key.\r\n"
        "\r\nAda says: hi\r\npl"  # said again by Ada: said again; the line typed after
        "No such key.\r\nType a key.\r\n"
    )


def test_a_typed_line_stands_for_keys() -> None:
    words = LobbyWords()
    assert words.stands_for("accept", reading_line=False) == ""
    assert words.stands_for("P", reading_line=False) == ""
    assert words.stands_for("say hi all", reading_line=False) == ""
    assert [key for key, _ in words.keys] == [
        Key.printable("y"),
        Key.printable("P"),
        Key.printable("c"),
        *(Key.printable(char) for char in "hi all"),
        Key.ENTER,
    ]
    words.keys.clear()
    assert words.stands_for("help me", reading_line=False) == NOT_A_WORD
    assert words.stands_for("play", reading_line=True) == ""  # the lobby's own line
    assert [key.char for key, _ in words.keys][:4] == list("play")
    assert words.keys[-1] == (Key.ENTER, True)


def test_a_line_too_long_rings_once_a_line() -> None:
    words = LobbyWords()
    echoes = [words.feed(Key.printable("x"))[0] for _ in range(300)]  # a pasted paragraph
    typed = words.typed
    assert echoes.count("\a") == 1 and echoes.count("x") == len(typed) < 100
    assert words.feed(Key.ENTER) == ("\r\n", typed)
    again = [words.feed(Key.printable("y"))[0] for _ in range(300)]
    assert again.count("\a") == 1  # the next line too long rings again, once


def test_arrows_do_not_move_an_unseen_cursor_in_the_line() -> None:
    words = LobbyWords()
    echoed = [words.feed(key)[0] for key in (Key.printable("a"), Key.LEFT, Key.printable("b"))]
    assert words.typed == "ab" and echoed == ["a", "", "b"]


class LineSession:
    """The parts of a Session that LobbyWords uses: keys typed, then none ever again."""

    def __init__(self, *keys: Key) -> None:
        self.keys = list(keys)
        self.sent: list[str] = []
        self.speaker = SpeechRenderer(FakeTerminal())

    async def next_key(self, timeout: float | None = None) -> Key | None:
        if self.keys:
            return self.keys.pop(0)
        await asyncio.sleep(3600)
        return None

    async def send_lines(self, text: str) -> None:
        self.sent.append(text)

    def redraw_all(self) -> None:
        pass


@run_async
async def test_a_line_the_screen_took_whole_is_followed_by_a_repaint_not_a_wait() -> None:
    words, reading = LobbyWords(), [True]
    session = LineSession(Key.printable("2"), Key.ENTER)  # "2" typed for whom to challenge
    first = await words.next_key(session, lambda: reading[0], 1.0)  # type: ignore[arg-type]
    assert first == Key.printable("2") and session.sent == ["2", "\r\n"]
    reading[0] = False  # the picker took the number at once: the challenge is made
    after = words.next_key(session, lambda: reading[0], 1.0)  # type: ignore[arg-type]
    assert await asyncio.wait_for(after, 1.0) is None  # the lobby says what it did


@run_async
async def test_a_screen_reader_in_the_lobby_chats_challenges_and_is_told_no_noise() -> None:
    door = Callers()
    bob = call_reader(door, "Bob")
    await until(lambda: PROMPT in sent(bob))
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    await until(lambda: "Who is on: 1 you, in the lobby; 2 Alice, in the lobby." in sent(bob))
    alice.press("c", "hello Bob", Key.ENTER)
    await until(lambda: "Alice says: hello Bob" in sent(bob))
    await settled(bob)
    mark = len(sent(bob))
    # A redraw (as every few seconds, for the idle times) says nothing new.
    member = door.presence.find("Bob")
    assert member is not None
    read = bob.read
    member.line.wake()
    await until(lambda: bob.reading and bob.read == read)
    await settled(bob)
    assert sent(bob)[mark:] == ""
    # A line of chat; a word that is no key; "help" is not h, e, l and p.
    bob.press("say hi Alice\r")
    await until(lambda: "Bob: hi Alice" in screen(alice))
    bob.press("dance\r")
    await until(lambda: NOT_A_WORD in sent(bob)[mark:])
    assert sent(bob)[mark:].count(NOT_A_WORD) == 1
    # A question asked first: said with the words to answer it.
    bob.press("quit\r")
    await until(lambda: CONFIRM_PROMPT in sent(bob)[mark:])
    assert "Leave the door? Type yes to leave, no to stay.\r\n" in sent(bob)[mark:]
    bob.press("no\r")
    await until(lambda: sent(bob).rstrip().endswith(PROMPT))
    # An option changed is said as its row again.
    bob.press("a\r")
    await until(lambda: "A count: manual" in sent(bob)[mark:])
    # Bob challenges Alice by her number; she declines; he hears it.
    bob.press("challenge\r")
    await until(lambda: "Challenge whom (up to 1)?" in sent(bob)[mark:])
    bob.press("2\r")
    await until(lambda: "Bob challenges you" in screen(alice))
    assert "Type withdraw to withdraw it." in sent(bob)[mark:]
    await settled(alice)
    alice.press("n")
    await until(lambda: "Alice declines the challenge." in sent(bob)[mark:])
    # Alice challenges Bob; he accepts with a word and sits down.
    await settled(alice)
    alice.press("w", "1")
    await until(lambda: "Type y or accept to accept, n or decline to decline." in sent(bob))
    bob.press("accept\r")
    await until(lambda: "You sit down at Alice vs Bob." in sent(bob))
    assert not re.search("Press a key|RETURN back", sent(bob)), "the lobby drawn as lines"
    assert NOISE.search(sent(bob)) is None, NOISE.search(sent(bob))
    await door.close()


@run_async
async def test_a_key_that_does_nothing_in_the_lobby_is_answered_with_the_keys_in_words() -> None:
    # By hand (callers): a screen reader's caller heard "see the keys above", and has no
    # menu above to see. (K is the sysop's: it does nothing for Bob.)
    door = Callers()
    bob = call_reader(door, "Bob")
    await until(lambda: PROMPT in sent(bob))
    mark = len(sent(bob))
    bob.press("k\r")
    await until(lambda: "does nothing here" in sent(bob)[mark:])
    await until(lambda: sent(bob).rstrip().endswith(PROMPT))
    heard = " ".join(sent(bob)[mark:].split())
    assert "see the keys" not in heard, heard
    assert "The 'k' key does nothing here. Keys: P Play the computer, T Self-play," in heard
    assert "Q Quit, 1/2 runs: free, A count: auto," in heard  # the options' row too
    await door.close()


@run_async
async def test_the_sysops_private_chat_is_said_to_a_screen_reader() -> None:
    door = Callers()
    sysop, _ = door.call("Sysop", sysop=True)
    await in_lobby(sysop)
    bob = call_reader(door, "Bob")
    await until(lambda: PROMPT in sent(bob))
    await until(lambda: "Bob" in screen(sysop))
    await settled(sysop)
    sysop.press("o", "2")
    await until(lambda: "A private chat with Sysop." in sent(bob))
    mark = len(sent(bob))
    assert "You are talking with Sysop." in sent(bob)
    sysop.press("hello Bob", Key.ENTER)
    await until(lambda: "Sysop says: hello Bob" in sent(bob)[mark:])
    bob.press("hi, and bye\r")  # a line typed in the chat is said there, words and all
    await until(lambda: "Bob: hi, and bye" in screen(sysop))
    bob.press("\x1b")  # Esc on a blank line leaves the chat
    await until(lambda: "The chat with Sysop is over (you left it)." in sent(bob)[mark:])
    await until(lambda: sent(bob).rstrip().endswith(PROMPT))
    assert NOISE.search(sent(bob)) is None, NOISE.search(sent(bob))
    await door.close()


@run_async
async def test_a_screen_reader_leaves_the_private_chat_by_a_line_said_in_its_prompt() -> None:
    door = Callers()
    sysop, _ = door.call("Sysop", sysop=True)
    await in_lobby(sysop)
    bob = call_reader(door, "Bob")
    await until(lambda: PROMPT in sent(bob))
    await until(lambda: "Bob" in screen(sysop))
    await settled(sysop)
    sysop.press("o", "2")
    await until(lambda: "A private chat with Sysop." in sent(bob))
    mark = len(sent(bob))
    assert "/quit leaves the chat." in sent(bob).splitlines()[-1]
    bob.press("/quit\r")
    await until(lambda: "The chat with Sysop is over (you left it)." in sent(bob)[mark:])
    await until(lambda: sent(bob).rstrip().endswith(PROMPT))
    assert "Bob: /quit" not in screen(sysop)  # left, not said in the chat
    await door.close()


@run_async
async def test_z_in_plain_lines_keeps_clicks_for_the_screens_and_says_so() -> None:
    door = Callers()
    alice, _ = door.call("Alice")  # her terminal reports clicks: asked for on the screen
    await in_lobby(alice)
    assert alice.mouse_reporting
    alice.press("j")  # screen-reader mode: clicks stop
    await until(lambda: PROMPT in sent(alice) and not alice.mouse_reporting)
    alice.press("z\r")  # off, as she had them on
    await until(lambda: "The mouse is off: keys only." in sent(alice))
    alice.press("z\r")  # on again, for the screens
    await until(
        lambda: "Clicks will work on the screens, after J; here, type lines." in sent(alice)
    )
    assert "Clicks work now." not in sent(alice)
    assert not alice.mouse_reporting  # never asked for in plain lines
    alice.press("z\r", "z\r")  # off, then on once more: each said as it is
    await until(lambda: sent(alice).count("The mouse is off: keys only.") == 2)
    await until(lambda: sent(alice).count("after J; here, type lines.") == 2)
    alice.press("j\r")  # back to the screen: clicks asked for now
    await until(lambda: alice.mouse_reporting)
    await door.close()
