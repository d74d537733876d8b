"""The mail games, the tournaments, the leaderboards and a member's record in words for
a screen reader's caller (issue #50): their lists said as sentences, a mail game
started and a move made in words, and back to the lobby with the word back or RETURN;
no escape, box drawing or suit symbol sent."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import re

from door.app.call import Caller, run_session
from door.competition.rating import Rating
from door.screens.account_speech import (
    BOARD_PROMPT,
    RECORD_PROMPT,
    best_hand,
    leaderboard_said,
    rating_board_said,
)
from door.screens.competition_speech import (
    MAIL_PROMPT,
    TOURNAMENTS_PROMPT,
    keys_sentence,
    mail_said,
    tournaments_said,
)
from door.screens.lobby_speech import PROMPT
from door.screens.mail_games import MailView
from door.screens.sysop_tools import MembersView
from door.screens.tool_speech import members_said
from door.screens.tournaments import TournamentsView
from door.storage.members import MemberLine
from door.storage.pbm_games import PbmGameStore
from door.storage.ratings import RatedMember
from door.storage.store import Account
from door.storage.values import LeaderboardEntry
from door.term.display import Display
from tests.door.app.reader_callers import NOISE, ReaderPlayer, play_mixed
from tests.door.app.test_mail_games import MailDoor, mail_door
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import Database
from tests.door.table.reader_client import sent
from tests.door.waiting import until


def test_a_key_line_is_said_as_a_sentence_with_esc_as_back() -> None:
    status = "1-9 open a game  N new game  Esc back to the lobby  ^L redraw"
    assert keys_sentence(status) == "Keys: 1-9 open a game, N new game, back: back to the lobby."
    said = mail_said(MailView("Door · Mail games", rules=("Move within 3 days.",), status=status))
    assert said.sentences[:2] == (
        "Door: Mail games. Your mail games, 0 of 20.",  # not "Door · Mail games"
        "None going: type n to start one against another member.",
    )
    assert said.prompt == MAIL_PROMPT


def test_the_pages_titles_are_said_without_the_middle_dot() -> None:
    import doctest

    import door.screens.competition_speech

    said = tournaments_said(TournamentsView("Cribbage Door · Tournaments"))
    assert said.sentences[0] == "Cribbage Door: Tournaments."  # not "... · Tournaments."
    assert doctest.testmod(door.screens.competition_speech).failed == 0


BACK = "Back to your mail games."


def call_reader(door: MailDoor, account: Account) -> KeyboardTerminal:
    """``account``'s member calls with a screen reader."""
    terminal = KeyboardTerminal(term_type="xterm-256color")
    terminal.display_mode = Display.SPEECH
    caller = Caller(account.handle, "test", account=account)
    rng = random.Random(len(door.tasks) + 5)
    session = run_session(terminal, door.config, caller, rng, door.presence, door.records)
    door.tasks.append(asyncio.ensure_future(session))
    return terminal


@run_async
async def test_a_screen_reader_starts_a_mail_game_moves_in_words_and_reads_tournaments(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        terminal = call_reader(door, ada)
        await until(lambda: PROMPT in sent(terminal))
        terminal.press("f\r")
        await until(lambda: MAIL_PROMPT in sent(terminal))
        assert "None going: type n to start one against another member." in sent(terminal)
        terminal.press("n\r")
        await until(lambda: "Play whom" in sent(terminal))
        terminal.press("bob\r")
        await until(lambda: "1: against Bob, " in sent(terminal))
        (game,) = await PbmGameStore(door.store).pbm_games_for(ada.id)
        # Whoever cut low deals: a screen reader makes that first move in words.
        mover = terminal if game.waiting_on()[0] == 0 else call_reader(door, bob)
        if mover is not terminal:
            await until(lambda: PROMPT in sent(mover))
            mover.press("f\r")
            await until(lambda: "1: against Ada, your move" in sent(mover))
        mark = len(sent(mover))
        mover.press("1\r")
        await until(lambda: "Press RETURN to deal." in sent(mover)[mark:])
        # Their move: the deal, then their throw, in words; then the other's move.
        await play_mixed([], [ReaderPlayer(mover, mark)], stop=lambda: BACK in sent(mover)[mark:])
        await until(lambda: "s move (3 days left)." in sent(mover)[sent(mover).index(BACK) :])
        assert NOISE.search(sent(mover)) is None, NOISE.search(sent(mover))
        terminal.press("back\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))
        terminal.press("u\r")
        await until(lambda: TOURNAMENTS_PROMPT in sent(terminal))
        assert "No tournaments yet: the sysop makes them." in sent(terminal)
        terminal.press("back\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))
        assert NOISE.search(sent(terminal)) is None, NOISE.search(sent(terminal))
        assert "1-9 open" not in sent(terminal).replace("Keys: 1-9 open", "")  # no key line


@run_async
async def test_a_key_that_does_nothing_on_the_tournaments_is_answered_with_the_keys_in_words(
    database: Database,
) -> None:
    # By hand (callers): a screen reader's caller heard "see the keys below", and has
    # no key line below to see.
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal = call_reader(door, ada)
        await until(lambda: PROMPT in sent(terminal))
        terminal.press("u\r")
        await until(lambda: TOURNAMENTS_PROMPT in sent(terminal))
        mark = len(sent(terminal))
        terminal.press("z\r")
        await until(lambda: "does nothing here" in sent(terminal)[mark:])
        heard = " ".join(sent(terminal)[mark:].split())
        assert "see the keys" not in heard, heard
        assert "The 'z' key does nothing here. Keys: 1-9 open a tournament, back:" in heard
        terminal.press("back\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))


def test_a_leaderboard_says_a_sentence_a_member() -> None:
    said = leaderboard_said([LeaderboardEntry(1, "Ada", 12, 8, 4)], "wins", 5)
    assert said.sentences == (
        "Leaderboard: most games won.",
        "1: Ada, 12 games, won 8, lost 4, 67 percent won.",
    )
    assert said.prompt == BOARD_PROMPT
    assert best_hand("5C 5D 5H JS 5S") == (
        "five of clubs, five of diamonds, five of hearts and jack of spades with five of spades cut"
    )


def test_one_game_is_said_one_game_on_the_boards_and_the_sysops_member_list() -> None:
    # By hand (qa4): "1: Ada, 1 games, won 1, ...".
    said = leaderboard_said([LeaderboardEntry(1, "Ada", 1, 1, 0)], "wins", 5)
    assert said.sentences[1] == "1: Ada, 1 game, won 1, lost 0, 100 percent won."
    rated = rating_board_said([RatedMember(1, "Ada", Rating(), 1)])
    assert rated.sentences[1].endswith(", 1 game.")
    day = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
    listed = members_said(
        MembersView("Members", members=[MemberLine("Ada", day, day, 1, None, "active")])
    )
    ada = next(sentence for sentence in listed.sentences if sentence.startswith("1: Ada"))
    assert ada.startswith("1: Ada, 1 game, no rating, active;")


@run_async
async def test_a_screen_reader_hears_the_leaderboards_and_their_record(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal = call_reader(door, ada)
        await until(lambda: PROMPT in sent(terminal))
        mark = len(sent(terminal))
        terminal.press("l\r")
        await until(lambda: BOARD_PROMPT in sent(terminal)[mark:])
        assert "Leaderboard: most games won.\r\nNo games have been played yet." in sent(terminal)
        terminal.press("r\r")
        await until(lambda: "Leaderboard: best win rate (at least" in sent(terminal)[mark:])
        terminal.press("a\r")
        await until(lambda: "Nobody has played a rated game yet." in sent(terminal)[mark:])
        terminal.press("\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))
        mark = len(sent(terminal))
        terminal.press("r\r")
        await until(lambda: RECORD_PROMPT in sent(terminal)[mark:])
        assert "Statistics for Ada, a member since " in sent(terminal)[mark:]
        assert "No finished games yet: play one and come back!" in sent(terminal)[mark:]
        terminal.press("\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))
        assert NOISE.search(sent(terminal)) is None, NOISE.search(sent(terminal))
        assert "Handle" not in sent(terminal)  # no table's headings read out


@run_async
async def test_a_screen_reader_hears_their_latest_games_with_their_record(
    database: Database,
) -> None:
    # The record screen's list of games was not said at all.
    from door.storage.store import Seat
    from tests.door.storage.games import played_game

    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        numbers = [
            await door.store.record_game_result(played_game(seed).recording, seats, "people")
            for seed, seats in (
                (201, [Seat("Ada", ada.id), Seat("Computer")]),
                (203, [Seat("Maximiliana Feathers"), Seat("Ada", ada.id)]),
            )
        ]
        terminal = call_reader(door, ada)
        await until(lambda: PROMPT in sent(terminal))
        mark = len(sent(terminal))
        terminal.press("r\r")
        await until(lambda: RECORD_PROMPT in sent(terminal)[mark:])
        heard = sent(terminal)[mark:].split("\r\n")
        listed = [line for line in heard if line.startswith("Game ")]
        result = r"\d{4}-\d\d-\d\d \d\d:\d\d, (won|lost), \d+ to \d+"
        assert len(listed) == 2, heard
        assert re.fullmatch(
            rf"Game {numbers[1]}, {result}; Maximiliana Feathers vs Ada\.", listed[0]
        )
        assert re.fullmatch(rf"Game {numbers[0]}, {result}; Ada vs Computer\.", listed[1])
        assert NOISE.search(sent(terminal)) is None, NOISE.search(sent(terminal))
        terminal.press("\r")
        await until(lambda: sent(terminal).rstrip().endswith(PROMPT))
