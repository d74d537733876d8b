"""The text log of a recorded game: everything that happened, in order, from a replay."""

from __future__ import annotations

import dataclasses

from engine.events import CardPlayed, GameOver, GoSaid, Pegged, ShowScored
from engine.gamelog import game_log, recording_finished
from tests.door.storage.games import played_game


def test_the_log_tells_every_play_and_peg_in_order_and_the_result() -> None:
    game = played_game(5, counting="manual")
    names = ("Ada", "Bob")
    text = "\n".join(game_log(game.recording, names))
    position = 0
    for event in game.events:
        if isinstance(event, CardPlayed):
            expected = f"{names[event.seat]} plays {event.card}, count {event.count}."
        elif isinstance(event, GoSaid):
            expected = f"{names[event.seat]} cannot play: go."
        elif isinstance(event, Pegged):
            expected = f"{names[event.seat]} {'takes' if 'muggins' in event.reason else 'pegs'}"
            expected += f" {event.points} ("
        elif isinstance(event, ShowScored):
            expected = event.score.announcement
        else:
            continue
        position = text.find(expected, position)
        assert position >= 0, expected
    over = next(event for event in game.events if isinstance(event, GameOver))
    assert f"{names[over.winner_side]} won the game" in text


def test_a_three_handed_log_shows_the_card_dealt_to_the_crib() -> None:
    game = played_game(6, players=3, actions=8)
    lines = game_log(game.recording, ("Ada", "Bob", "Cy"))
    assert any(
        line.strip().startswith("One card goes to the crib from the deck:") for line in lines
    )
    assert lines[-1] == "The game was not played to its end."


def test_partners_win_together() -> None:
    game = played_game(7, players=4)
    winner = game.game.winner_side
    names = ("Ada", "Bob", "Cy", "Di")
    text = "\n".join(game_log(game.recording, names))
    assert f"{names[winner]} and {names[winner + 2]} won the game" in text  # type: ignore[operator, index]


def test_without_names_the_seats_are_numbered() -> None:
    recording = dataclasses.replace(played_game(8).recording, actions=())
    assert game_log(recording)[0] == "Cribbage for 2: Player 1, Player 2."


def test_a_recording_knows_whether_its_game_reached_the_end() -> None:
    assert recording_finished(played_game(5).recording)
    assert not recording_finished(played_game(6, players=3, actions=8).recording)
