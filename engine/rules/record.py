"""A game written down as its options, its seed and the actions taken: enough to rebuild it.

Every shuffle in a ``Game`` comes from its ``random.Random``, so a game started from
``random.Random(seed)`` and given the same actions in the same order reaches the same
state, card for card. A ``Recording`` is that list, JSON-able and immutable; a
``RecordedGame`` is a ``Game`` that writes one as it is played; ``replay`` plays a
recording back into a ``RecordedGame`` that can carry on from there.

>>> game = RecordedGame(seed=7, dealer=0)
>>> _ = game.deal()
>>> hand = game.hand(1)
>>> _ = game.discard(1, hand[:2])
>>> copy = replay(Recording.from_json(game.recording.to_json()))
>>> copy.hand(1) == game.hand(1) and copy.crib == game.crib
True
>>> game.recording.actions[-1]
Action('discard', (1, ('AS', '5C')))
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from engine.rules.cards import Card
from engine.rules.checks import whole_number
from engine.rules.errors import CribbageError, NotationError
from engine.rules.events import Event
from engine.rules.game import COUNTING_MODES, CountingMode, Game
from engine.rules.scoring import RUNS_RULES, RunsRule

RECORDING_FORMAT: Final = 1
"""Written into every JSON recording; bumped if the layout ever changes."""

# What an action's arguments may be once written down: cards become "TD" strings.
ActionArgument = int | str | None | tuple[str, ...]

_ACTION_NAMES: Final = (
    "cut_for_deal",
    "deal",
    "discard",
    "cut",
    "play",
    "count_hand",
    "forfeit",
)


class RecordingError(NotationError):
    """A recording that cannot be read, or whose actions do not replay."""


@dataclass(frozen=True)
class Action:
    """One successful call on a Game: the method's name and its arguments, written down.

    ``Action('play', (1, '5H'))`` is ``game.play(1, Card.parse('5H'))``.
    """

    name: str
    args: tuple[ActionArgument, ...] = ()

    def __repr__(self) -> str:
        return f"Action({self.name!r}, {self.args!r})"

    def __str__(self) -> str:
        """``play 1 5H``, ``discard 0 TD 5H``: how replay errors name the action."""
        words = [self.name]
        for arg in self.args:
            if isinstance(arg, tuple):
                words.extend(arg)
            else:
                words.append(str(arg))
        return " ".join(words)

    def apply(self, game: Game) -> list[Event]:
        """Call the action on ``game``; raises CribbageError if it is not legal there."""
        name, args = self.name, self.args
        if name == "cut_for_deal" and not args:
            return game.cut_for_deal()
        if name == "deal" and not args:
            return game.deal()
        if name == "discard" and len(args) == 2 and isinstance(args[1], tuple):
            return game.discard(_seat(args[0]), [Card.parse(text) for text in args[1]])
        if name == "cut" and len(args) == 1 and type(args[0]) is int:
            return game.cut(args[0])
        if name == "play" and len(args) == 2 and isinstance(args[1], str):
            return game.play(_seat(args[0]), Card.parse(args[1]))
        if name == "count_hand" and len(args) == 1 and not isinstance(args[0], tuple):
            return game.count_hand(args[0])
        if name == "forfeit" and len(args) == 1:
            return game.forfeit(_seat(args[0]))
        if name == "forfeit" and len(args) == 2:  # claimed by the second seat
            return game.forfeit(_seat(args[0]), claimed_by=_seat(args[1]))
        raise RecordingError(f"{self} is not an action a game knows")

    def to_list(self) -> list[Any]:
        return [self.name, *(list(arg) if isinstance(arg, tuple) else arg for arg in self.args)]

    @classmethod
    def from_list(cls, data: Any) -> Action:
        """The inverse of ``to_list``; raises RecordingError for anything else."""
        if not isinstance(data, list) or not data or data[0] not in _ACTION_NAMES:
            raise RecordingError(f"{data!r} is not a recorded action")
        args: list[ActionArgument] = []
        for arg in data[1:]:
            if isinstance(arg, list) and all(isinstance(item, str) for item in arg):
                args.append(tuple(arg))
            elif arg is None or isinstance(arg, str) or type(arg) is int:
                args.append(arg)
            else:
                raise RecordingError(f"{data!r} is not a recorded action")
        return cls(data[0], tuple(args))


def _seat(arg: ActionArgument) -> int:
    if type(arg) is not int:
        raise RecordingError(f"{arg!r} is not a seat")
    return arg


@dataclass(frozen=True)
class Recording:
    """A game's options, its seed and every action taken so far, in order."""

    seed: int
    players: int = 2
    runs: RunsRule = "free"
    counting: CountingMode = "auto"
    dealer: int | None = None
    actions: tuple[Action, ...] = field(default=())

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": RECORDING_FORMAT,
                "seed": self.seed,
                "players": self.players,
                "runs": self.runs,
                "counting": self.counting,
                "dealer": self.dealer,
                "actions": [action.to_list() for action in self.actions],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Recording:
        """Read what ``to_json`` wrote; raises RecordingError for anything else.

        The options are checked here; whether the actions replay is ``replay``'s to find.
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as error:
            raise RecordingError(f"a recording must be JSON: {error}") from None
        if not isinstance(data, dict) or data.get("format") != RECORDING_FORMAT:
            raise RecordingError(f"not a recording in format {RECORDING_FORMAT}")
        seed, players, dealer = data.get("seed"), data.get("players"), data.get("dealer")
        runs, counting, actions = data.get("runs"), data.get("counting"), data.get("actions")
        if type(seed) is not int:
            raise RecordingError(f"the seed must be a whole number, not {seed!r}")
        if players not in (2, 3, 4) or type(players) is not int:
            raise RecordingError(f"players must be 2, 3 or 4, not {players!r}")
        if runs not in RUNS_RULES or counting not in COUNTING_MODES:
            raise RecordingError(f"unknown rules: runs {runs!r}, counting {counting!r}")
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < players):
            raise RecordingError(f"there is no seat {dealer!r} to deal")
        if not isinstance(actions, list):
            raise RecordingError("a recording needs a list of actions")
        return cls(seed, players, runs, counting, dealer, tuple(map(Action.from_list, actions)))


ActionListener = Callable[["RecordedGame", Action], None]


class RecordedGame(Game):
    """A Game that writes down every action that succeeds, to save or replay.

    It is a Game in every other way, so anything that plays a Game plays this one.
    ``on_action``, if given, is called after each successful action with the game and
    the action (a caller saving the game after every action hangs its saver here; it
    must not raise). An action that raises records nothing, as it changes nothing.
    """

    def __init__(
        self,
        players: int = 2,
        *,
        seed: int,
        runs: RunsRule = "free",
        counting: CountingMode = "auto",
        dealer: int | None = None,
        on_action: ActionListener | None = None,
    ) -> None:
        whole_number(seed, "the seed")
        super().__init__(
            players, runs=runs, counting=counting, rng=random.Random(seed), dealer=dealer
        )
        self.seed: Final = seed
        self.first_dealer: Final = dealer
        self.on_action = on_action
        self._actions: list[Action] = []

    @classmethod
    def new(cls, recording: Recording, on_action: ActionListener | None = None) -> RecordedGame:
        """A fresh game with the recording's options and seed (its actions not applied)."""
        return cls(
            recording.players,
            seed=recording.seed,
            runs=recording.runs,
            counting=recording.counting,
            dealer=recording.dealer,
            on_action=on_action,
        )

    @property
    def recording(self) -> Recording:
        """Everything needed to rebuild this game as it stands."""
        return Recording(
            self.seed,
            self.players,
            self.runs,
            self.counting,
            self.first_dealer,
            tuple(self._actions),
        )

    @property
    def actions_taken(self) -> int:
        return len(self._actions)

    def cut_for_deal(self) -> list[Event]:
        return self._recorded(super().cut_for_deal(), Action("cut_for_deal"))

    def deal(self) -> list[Event]:
        return self._recorded(super().deal(), Action("deal"))

    def discard(self, seat: int, cards: Iterable[Card]) -> list[Event]:
        thrown = list(cards)  # an iterator would be used up by the game
        events = super().discard(seat, thrown)
        return self._recorded(events, Action("discard", (seat, tuple(map(str, thrown)))))

    def cut(self, position: int) -> list[Event]:
        return self._recorded(super().cut(position), Action("cut", (position,)))

    def play(self, seat: int, card: Card) -> list[Event]:
        return self._recorded(super().play(seat, card), Action("play", (seat, str(card))))

    def count_hand(self, claim: int | str | None = None) -> list[Event]:
        return self._recorded(super().count_hand(claim), Action("count_hand", (claim,)))

    def forfeit(self, seat: int, *, claimed_by: int | None = None) -> list[Event]:
        events = super().forfeit(seat, claimed_by=claimed_by)
        action = Action("forfeit", (seat,) if claimed_by is None else (seat, claimed_by))
        return self._recorded(events, action)

    def next_game(self, seed: int | None = None) -> RecordedGame:
        """The next game, recorded too, with its own seed (by default drawn from this
        game's random source) so that it can be replayed on its own."""
        dealer = super().next_game().dealer
        return RecordedGame(
            self.players,
            seed=self.rng.getrandbits(64) if seed is None else seed,
            runs=self.runs,
            counting=self.counting,
            dealer=dealer,
            on_action=self.on_action,
        )

    def _recorded(self, events: list[Event], action: Action) -> list[Event]:
        self._actions.append(action)
        if self.on_action is not None:
            self.on_action(self, action)
        return events


def replay_steps(recording: Recording) -> Iterator[tuple[Action, list[Event], RecordedGame]]:
    """Play the recording back one action at a time: each action, the events it caused,
    and the game just after it (the same object throughout, changing as it goes).

    Raises RecordingError when the options make no game or an action cannot be replayed.
    """
    game = _start(recording)
    for number, action in enumerate(recording.actions, start=1):
        yield action, _apply(game, number, action), game


def replay(recording: Recording) -> RecordedGame:
    """The game the recording describes, ready to go on being played (and recorded).

    Raises RecordingError when the options make no game or an action cannot be replayed.
    """
    game = _start(recording)
    for number, action in enumerate(recording.actions, start=1):
        _apply(game, number, action)
    return game


def _start(recording: Recording) -> RecordedGame:
    try:
        return RecordedGame.new(recording)
    except CribbageError as error:
        raise RecordingError(f"the recording's options make no game: {error}") from None


def _apply(game: RecordedGame, number: int, action: Action) -> list[Event]:
    try:
        return action.apply(game)
    except RecordingError:
        raise
    except CribbageError as error:
        raise RecordingError(f"action {number} ({action}) does not replay: {error}") from None
