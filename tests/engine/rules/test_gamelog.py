"""The text log of a recorded game: everything that happened, in order, from a replay."""

from __future__ import annotations

import dataclasses

from engine.odds.winbar import win_bar
from engine.rules.events import CardPlayed, GameOver, GoSaid, Pegged, ShowScored
from engine.rules.gamelog import game_log, recording_finished
from engine.rules.record import RecordedGame
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


def _chances(line: str) -> dict[str, int]:
    """``... [Ada 58%, Bob 42%]`` -> {"Ada": 58, "Bob": 42}."""
    inside = line[line.rindex("[") + 1 : line.rindex("]")]
    return {
        name: int(value.rstrip("%"))
        for name, value in (part.rsplit(" ", 1) for part in inside.split(", "))
    }


def every_play_is_followed_by_chances(lines: list[str]) -> bool:
    """Each card played is told with each side's chances, on its line or on the last line
    of what it led to (the points, a go), before the next card."""
    plays = [index for index, line in enumerate(lines) if " plays " in line]
    ends = [*plays[1:], len(lines)]
    return bool(plays) and all(
        any(line.endswith("%]") for line in lines[start:end])
        for start, end in zip(plays, ends, strict=True)
    )


def test_with_chances_every_move_ends_with_each_sides_chance_summing_to_a_whole() -> None:
    game = played_game(5)
    plain = game_log(game.recording, ("Ada", "Bob"))
    assert not any(line.endswith("%]") for line in plain)
    lines = game_log(game.recording, ("Ada", "Bob"), chances=win_bar)
    assert every_play_is_followed_by_chances(lines)
    for line in (line for line in lines if line.endswith("%]")):
        chances = _chances(line)
        assert set(chances) == {"Ada", "Bob"}
        assert 99 <= sum(chances.values()) <= 101  # rounding
    assert "won the game" in lines[-1] or "won the game" in lines[-2]


def test_with_chances_the_last_moves_favour_the_side_that_went_on_to_win() -> None:
    names = ("Ada", "Bob")
    favoured = 0
    seeds = range(20, 26)
    for seed in seeds:
        game = played_game(seed)
        lines = game_log(game.recording, names, chances=win_bar)
        last = [line for line in lines if line.endswith("%]")][-1]
        winner = names[game.game.winner_side]  # type: ignore[index]
        favoured += _chances(last)[winner] > 50
    assert favoured >= len(seeds) - 1


def test_partners_chances_are_told_per_side() -> None:
    game = played_game(7, players=4)
    lines = game_log(game.recording, ("Ada", "Bob", "Cy", "Di"), chances=win_bar)
    line = next(line for line in lines if " plays " in line)
    assert set(_chances(line)) == {"Ada and Cy", "Bob and Di"}


def test_a_claimed_game_is_told_as_claimed_not_left() -> None:
    # The stored log of a game claimed from a player who had not moved said that they
    # "left the game" (as the game-over box did before 804f569).
    for players, staller, claimant, winners in ((2, 1, 0, "Ada"), (4, 3, 2, "Ada and Cy")):
        game = RecordedGame(players, seed=11, dealer=0)
        game.deal()
        game.forfeit(staller, claimed_by=claimant)
        names = ("Ada", "Bob", "Cy", "Di")[:players]
        lines = game_log(game.recording, names)
        assert lines[-1] == (
            f"{names[claimant]} claimed the game from {names[staller]}, who kept it waiting: "
            f"{winners} won by forfeit. The score stood {winners} 0, "
            f"{' and '.join(names[1::2])} 0."
        )
        assert "left the game" not in " ".join(lines)
