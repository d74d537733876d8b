"""Recorded games: every self-played game, written down and replayed, matches step for step."""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from typing import Any

import pytest

import engine.rules.record
from engine.computer.selfplay import RandomPlayer, next_action, true_count
from engine.rules.cards import FULL_DECK, Card
from engine.rules.errors import IllegalActionError
from engine.rules.events import Event
from engine.rules.game import CountingMode, Game, Phase
from engine.rules.record import (
    Action,
    RecordedGame,
    Recording,
    RecordingError,
    replay,
    replay_steps,
)
from engine.rules.scoring import RunsRule


class CarelessCounter(RandomPlayer):
    """Claims the true count only some of the time, so muggins gets recorded too."""

    def claim(self, game: Game, seat: int) -> int:
        return max(0, min(29, true_count(game) + self.rng.choice((-2, 0, 0, 3))))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything about a game's state that a later action could depend on."""
    seats = range(game.players)
    return (
        game.phase,
        game.dealer,
        game.turn,
        tuple(game.scores),
        tuple(game.previous_scores),
        game.hand_number,
        game.winner_side,
        tuple(game.hand(seat) for seat in seats),
        tuple(game.kept(seat) for seat in seats),
        tuple(game.has_discarded(seat) for seat in seats),
        game.crib,
        game.starter,
        game._stock,
        tuple(game.count_cards),
        tuple(game.plays),
        tuple(game.shows),
        game.showing,
        game.rng.getstate(),
    )


def play_recorded(
    seed: int, players: int, runs: RunsRule, counting: CountingMode
) -> tuple[RecordedGame, list[list[Event]], list[tuple[Any, ...]]]:
    """A whole random game, with the events and the state after every action."""
    game = RecordedGame(players, seed=seed, runs=runs, counting=counting)
    seats = [CarelessCounter(random.Random(seed * 10 + seat)) for seat in range(players)]
    events, states = [], []
    while game.winner_side is None:
        events.append(next_action(game, seats))
        states.append(snapshot(game))
    return game, events, states


@pytest.mark.parametrize(
    ("seed", "players", "runs", "counting"),
    [
        (1, 2, "free", "auto"),
        (2, 2, "exact", "manual"),
        (3, 3, "free", "manual"),
        (4, 4, "exact", "auto"),
        (5, 4, "free", "manual"),
    ],
)
def test_a_replayed_game_matches_state_and_events_at_every_step(
    seed: int, players: int, runs: RunsRule, counting: CountingMode
) -> None:
    game, events, states = play_recorded(seed, players, runs, counting)
    recording = Recording.from_json(game.recording.to_json())
    assert recording == game.recording
    assert len(recording.actions) == len(events) > 50

    replayed_steps = 0
    for number, (_, replayed_events, replayed_game) in enumerate(replay_steps(recording)):
        assert replayed_events == events[number], f"events differ at action {number + 1}"
        assert snapshot(replayed_game) == states[number], f"state differs at action {number + 1}"
        replayed_steps += 1
    assert replayed_steps == len(events)
    # A game rebuilt from only the first actions (a saved game) stands where the original did.
    for count in (1, 2, len(events) // 3, len(events) // 2, len(events)):
        assert snapshot(replay(_first(recording, count))) == states[count - 1]


def _first(recording: Recording, count: int) -> Recording:
    return Recording(
        recording.seed,
        recording.players,
        recording.runs,
        recording.counting,
        recording.dealer,
        recording.actions[:count],
    )


def test_a_replayed_game_goes_on_recording_where_the_original_stopped() -> None:
    original = RecordedGame(2, seed=42, dealer=1)
    players = [RandomPlayer(random.Random(seat)) for seat in range(2)]
    for _ in range(30):
        next_action(original, players)
    resumed = replay(original.recording)
    assert resumed.recording == original.recording
    for _ in range(30):
        # the same choices from the same states: both games must stay identical
        choice_rng = random.Random(len(original.recording.actions))
        next_action(original, [RandomPlayer(choice_rng)] * 2)
        choice_rng = random.Random(len(resumed.recording.actions))
        next_action(resumed, [RandomPlayer(choice_rng)] * 2)
        assert snapshot(resumed) == snapshot(original)
    assert resumed.recording == original.recording


def test_an_action_that_fails_records_nothing_and_reports_nothing() -> None:
    heard: list[Action] = []
    game = RecordedGame(2, seed=3, dealer=0, on_action=lambda _, action: heard.append(action))
    game.deal()
    not_held = next(card for card in FULL_DECK if card not in game.hand(1))
    with pytest.raises(IllegalActionError):
        game.discard(1, [game.hand(1)[0], not_held])
    with pytest.raises(IllegalActionError):
        game.cut(1)
    assert heard == [Action("deal")]
    assert game.recording.actions == (Action("deal"),)


def test_every_successful_action_reaches_the_listener_once_in_order() -> None:
    heard: list[Action] = []
    game = RecordedGame(3, seed=8, on_action=lambda _, action: heard.append(action))
    players = [RandomPlayer(random.Random(seat)) for seat in range(3)]
    for _ in range(40):
        next_action(game, players)
    assert tuple(heard) == game.recording.actions
    assert heard[0] == Action("cut_for_deal")


def test_a_discard_given_as_an_iterator_is_recorded_whole() -> None:
    game = RecordedGame(2, seed=9, dealer=0)
    game.deal()
    thrown = game.hand(0)[:2]
    game.discard(0, iter(thrown))
    assert game.recording.actions[-1] == Action("discard", (0, tuple(map(str, thrown))))
    assert replay(game.recording).kept(0) == game.kept(0)


def test_the_next_game_is_recorded_with_its_own_seed_and_the_loser_dealing() -> None:
    game, _, _ = play_recorded(6, 2, "free", "auto")
    following = game.next_game()
    assert isinstance(following, RecordedGame)
    assert following.recording.actions == ()
    assert following.seed != game.seed
    loser = 1 - game.winner_side  # type: ignore[operator]
    assert following.dealer == loser == following.recording.dealer
    following.deal()
    assert replay(following.recording).hand(0) == following.hand(0)


def test_actions_read_back_what_they_write() -> None:
    actions = [
        Action("cut_for_deal"),
        Action("deal"),
        Action("discard", (0, ("TD", "5H"))),
        Action("cut", (17,)),
        Action("play", (1, "QS")),
        Action("count_hand", (None,)),
        Action("count_hand", (12,)),
        Action("count_hand", ("7",)),
    ]
    for action in actions:
        assert Action.from_list(action.to_list()) == action
    assert str(actions[2]) == "discard 0 TD 5H"
    assert repr(actions[4]) == "Action('play', (1, 'QS'))"
    assert eval(repr(actions[2])) == actions[2]  # noqa: S307 - the repr is the call


BAD_RECORDINGS = [
    ("not json", "must be JSON"),
    ("[]", "not a recording"),
    ('{"format": 99}', "not a recording"),
    ('{"format":1,"seed":"x","players":2,"runs":"free","counting":"auto","actions":[]}', "seed"),
    ('{"format":1,"seed":1,"players":5,"runs":"free","counting":"auto","actions":[]}', "players"),
    ('{"format":1,"seed":1,"players":2,"runs":"odd","counting":"auto","actions":[]}', "rules"),
    (
        '{"format":1,"seed":1,"players":2,"runs":"free","counting":"auto","dealer":2,"actions":[]}',
        "seat 2",
    ),
    ('{"format":1,"seed":1,"players":2,"runs":"free","counting":"auto"}', "list of actions"),
    (
        '{"format":1,"seed":1,"players":2,"runs":"free","counting":"auto","actions":[["fly"]]}',
        "not a recorded action",
    ),
    (
        '{"format":1,"seed":1,"players":2,"runs":"free","counting":"auto","actions":[["cut",1.5]]}',
        "not a recorded action",
    ),
]


@pytest.mark.parametrize(("text", "complaint"), BAD_RECORDINGS)
def test_a_bad_recording_is_refused_with_a_reason(text: str, complaint: str) -> None:
    with pytest.raises(RecordingError, match=complaint):
        Recording.from_json(text)


@pytest.mark.parametrize(
    ("actions", "complaint"),
    [
        ((Action("play", (0, "5H")),), r"action 1 \(play 0 5H\) does not replay: .*cut for deal"),
        ((Action("cut_for_deal"), Action("deal"), Action("deal")), "action 3 .*discard"),
        ((Action("cut_for_deal"), Action("play", (0, "XX"))), "action 2 .*'XX' is not a card"),
        ((Action("cut", ("one",)),), "not an action a game knows"),
    ],
)
def test_a_recording_whose_actions_do_not_replay_names_the_action(
    actions: tuple[Action, ...], complaint: str
) -> None:
    with pytest.raises(RecordingError, match=complaint):
        replay(Recording(seed=1, actions=actions))


def test_an_empty_recording_replays_to_a_new_game() -> None:
    game = replay(Recording(seed=11, players=3, runs="exact", counting="manual", dealer=2))
    assert (game.players, game.runs, game.counting, game.dealer) == (3, "exact", "manual", 2)
    assert snapshot(game) == snapshot(
        RecordedGame(3, seed=11, runs="exact", counting="manual", dealer=2)
    )


def test_module_examples() -> None:
    assert doctest.testmod(engine.rules.record).failed == 0


def test_the_recorder_and_the_log_load_no_door_code() -> None:
    code = (
        "import sys, engine.rules.record, engine.rules.gamelog; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('door', 'asyncio')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cards_in_actions_are_the_engines_notation() -> None:
    game = RecordedGame(2, seed=12, dealer=0)
    game.deal()
    thrown = game.hand(0)[:2]
    game.discard(0, thrown)
    _, written = game.recording.actions[-1].args
    assert written == tuple(str(card) for card in thrown)
    assert tuple(Card.parse(text) for text in written) == tuple(thrown)  # type: ignore[union-attr]


def test_a_seat_s_throw_this_hand_is_kept_and_replayed() -> None:
    game = RecordedGame(seed=7, dealer=0)
    game.deal()
    assert game.thrown_by(1) == ()  # nothing thrown yet
    throw = tuple(game.hand(1)[:2])
    game.discard(1, throw)
    game.discard(0, game.hand(0)[2:4])
    assert game.thrown_by(1) == throw
    assert replay(game.recording).thrown_by(1) == throw  # as a resumed game has it
    while game.phase is not Phase.DEAL:
        next_action(game, [RandomPlayer(random.Random(seat)) for seat in range(2)])
    game.deal()
    assert game.thrown_by(1) == ()  # the last hand's throw is gone with its crib
    with pytest.raises(IllegalActionError):
        game.thrown_by(2)
