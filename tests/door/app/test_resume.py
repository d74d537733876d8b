"""A table picks up a saved game wherever it stopped: before a deal, with a discard half
made, at the cut, mid-count in the play, mid-way through the show. The caller sees the
game as it stood and plays it on to the end, and the game goes on being the same one."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable

import pytest

from door.screens.cards import card_face
from door.screens.win_bar import percent
from door.table.options import GameOptions, GameResult
from door.table.solo import play_against_computer
from door.ui.session import Session
from engine.computer.selfplay import RandomPlayer, next_action
from engine.odds.winbar import win_bar
from engine.rules.cards import Card
from engine.rules.game import CountingMode, Game, Phase
from engine.rules.record import RecordedGame, replay
from tests.door.caller import KeyboardTerminal, play_through, run_async

HAND_CARDS_ROW = 14  # the middle row of the caller's cards (door/screens/layout.py + 1)
PLAY_CARDS_ROW = 10

Position = Callable[[Game], bool]

# Each position, and which seat throws to the crib first on the way there.
POSITIONS: dict[str, tuple[Position, int]] = {
    "before a deal": (lambda game: game.phase is Phase.DEAL and game.hand_number >= 1, 0),
    "the computer has thrown, the caller not": (
        lambda game: game.phase is Phase.DISCARD and game.has_discarded(1),
        1,
    ),
    "the caller has thrown, the computer not": (
        lambda game: game.phase is Phase.DISCARD and game.has_discarded(0),
        0,
    ),
    "the cut": (lambda game: game.phase is Phase.CUT, 0),
    "mid-count in the play": (
        lambda game: game.phase is Phase.PLAY and game.count > 0 and game.turn == 0,
        0,
    ),
    "mid-way through the show, the caller to count": (
        lambda game: bool(game.shows) and game.showing is not None and game.showing[0] == 0,
        0,
    ),
}


def saved_at(
    position: Position, first_to_throw: int, counting: CountingMode, seed: int
) -> RecordedGame:
    """A game played by random players until ``position`` holds (in a later hand than
    the first, so the scores are not all zero), then replayed from its recording as a
    resumed game would be."""
    for attempt in range(50):
        game = RecordedGame(seed=seed + attempt, counting=counting)
        players = [RandomPlayer(random.Random(seed + attempt + seat)) for seat in range(2)]
        while game.phase is not Phase.OVER:
            if game.hand_number >= 2 and position(game):
                return replay(game.recording)
            if game.phase is Phase.DISCARD and not game.has_discarded(first_to_throw):
                game.discard(first_to_throw, players[first_to_throw].discard(game, first_to_throw))
            else:
                next_action(game, players)
    raise AssertionError("no game reached that position")


@pytest.mark.parametrize("name", list(POSITIONS))
@pytest.mark.parametrize("counting", ["auto", "manual"])
@run_async
async def test_a_saved_game_resumes_where_it_stopped_and_plays_to_the_end(
    name: str, counting: CountingMode
) -> None:
    game = saved_at(*POSITIONS[name], counting, seed=len(name))
    saved_actions = game.recording.actions
    hand, count_cards = game.hand(0), tuple(game.count_cards)
    expected = replay(game.recording)
    if counting == "auto" and expected.phase is Phase.SHOW:
        expected.count_hand()  # the door counts the next hand before it waits for RETURN
    scores = tuple(expected.scores)
    terminal = KeyboardTerminal()
    options = GameOptions(counting=counting, level="easy")
    task = play_against_computer_task(terminal, options, game)

    await terminal.until_waiting(task)
    # The board, the caller's cards and the count are as they were saved.
    assert (terminal.score("Alice"), terminal.score("Computer")) == scores
    if game.phase in (Phase.DISCARD, Phase.CUT, Phase.PLAY) and hand:
        assert all(card_face(card) in terminal.display[HAND_CARDS_ROW] for card in hand)
    if count_cards:
        assert all(card_face(card) in terminal.display[PLAY_CARDS_ROW] for card in count_cards)
        assert f"the count is {sum(card.pips for card in count_cards)}" in terminal.message

    await play_through(terminal, task)
    result = task.result()
    assert not result.quit and max(result.caller_score, result.computer_score) >= 121
    # The same game went on: its recording starts with everything saved.
    assert game.phase is Phase.OVER
    assert game.recording.actions[: len(saved_actions)] == saved_actions


@run_async
async def test_a_resumed_caller_still_knows_what_they_threw_to_the_crib() -> None:
    # The caller threw two cards before the line dropped: their win bar, worked out
    # with those cards in the crib, is the one the resumed screen shows. Before, the
    # resumed table forgot them and showed the bar of someone who never saw the crib.
    for seed in range(40):
        game = saved_at(*POSITIONS["mid-count in the play"], "auto", seed=seed)
        discards = [a for a in game.recording.actions if a.name == "discard" and a.args[0] == 0]
        thrown = tuple(Card.parse(str(text)) for text in discards[-1].args[1])
        knowing = percent(win_bar(game, 0, thrown=thrown)[0])
        if knowing != percent(win_bar(game, 0)[0]):
            break
    else:
        raise AssertionError("no position where knowing the throw moves the bar")
    assert len(thrown) == 2 and set(thrown) <= set(game.crib)
    terminal = KeyboardTerminal()
    task = play_against_computer_task(terminal, GameOptions(level="easy"), game)
    await terminal.until_waiting(task)
    shown = [re.search(r"Win: You (\d+%)", row) for row in terminal.display]
    assert [found.group(1) for found in shown if found] == [knowing]
    task.cancel()


def play_against_computer_task(
    terminal: KeyboardTerminal, options: GameOptions, game: Game
) -> asyncio.Task[GameResult]:
    return asyncio.ensure_future(
        play_against_computer(
            Session(terminal), options, "Alice", rng=random.Random(5), pause=0, game=game
        )
    )


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (5, "just now"),
        (60, "1 minute ago"),
        (150, "2 minutes ago"),
        (7200, "2 hours ago"),
        (86_400 * 3 + 5, "3 days ago"),
        (-30, "just now"),
    ],
)
def test_a_resume_offer_says_how_old_the_position_is(seconds: int, said: str) -> None:
    import datetime as dt

    from door.app.accounts import how_long_ago

    now = dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.UTC)
    assert how_long_ago(now - dt.timedelta(seconds=seconds), now) == said
