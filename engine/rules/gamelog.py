"""A recorded game told as plain text, line by line: the deal, the throws, the cut, every
card played with what it pegged, the show with its breakdowns, and the result.

The lines come from replaying the recording, so the log can never disagree with the game.
Cards are written in the engine's notation (``5H``, ``TD``): the log is for a console,
a file or an e-mail, where suit symbols may not survive.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.rules.cards import format_cards
from engine.rules.events import (
    CardPlayed,
    CountReset,
    CutForDeal,
    Event,
    GameOver,
    GoSaid,
    HandDealt,
    Pegged,
    ShowScored,
    StarterCut,
)
from engine.rules.game import Phase
from engine.rules.record import Action, RecordedGame, Recording, replay_steps

INDENT = "  "


def default_names(players: int) -> tuple[str, ...]:
    return tuple(f"Player {seat + 1}" for seat in range(players))


Chances = Callable[[RecordedGame], Sequence[float]]
"""Each side's chance to win at a moment of a game (``engine.odds.winbar.win_bar``)."""


def game_log(
    recording: Recording, names: Sequence[str] | None = None, *, chances: Chances | None = None
) -> list[str]:
    """The whole game as text lines; ``names`` holds one name per seat.

    With ``chances`` (``engine.odds.winbar.win_bar``: the rules know no odds), every
    line that moves the game (a deal, a throw, the starter, a card played, points pegged)
    ends with each side's chance to win at that moment, as a spectator who sees every hand
    would reckon it: the win bar of a replay. Raises RecordingError if the recording does
    not replay.
    """
    names = tuple(names) if names else default_names(recording.players)
    if len(names) != recording.players:
        names = default_names(recording.players)
    counting = "by the players, with muggins" if recording.counting == "manual" else "by the door"
    lines = [
        f"Cribbage for {recording.players}: {', '.join(names)}.",
        f"Pegging runs {'in any order' if recording.runs == 'free' else 'in exact order'}; "
        f"the show is counted {counting}.",
    ]
    finished = False
    for action, events, game in replay_steps(recording):
        told = _action_lines(action, events, game, names)
        if chances is not None and told and game.phase is not Phase.OVER:
            told[-1] += f"  [{_chances_text(chances(game), game, names)}]"
        lines.extend(told)
        finished = finished or any(isinstance(event, GameOver) for event in events)
    if not finished:
        lines.extend(["", "The game was not played to its end."])
    return lines


def recording_finished(recording: Recording) -> bool:
    """Whether the recorded game reached its end (121, or a forfeit). Raises
    RecordingError if the recording does not replay."""
    return any(
        isinstance(event, GameOver) for _, events, _ in replay_steps(recording) for event in events
    )


def _action_lines(
    action: Action, events: Sequence[Event], game: RecordedGame, names: Sequence[str]
) -> list[str]:
    lines: list[str] = []
    if action.name == "discard":
        seat, thrown = action.args
        assert isinstance(seat, int) and isinstance(thrown, tuple)
        lines.append(f"{INDENT}{names[seat]} throws {' '.join(thrown)} to the crib.")
    for event in events:
        if isinstance(event, GameOver) and event.claimed_by is not None:
            staller = action.args[0]  # (the forfeit's seat: a game claimed names its staller)
            assert isinstance(staller, int)
            lines.extend(_claimed_lines(event, event.claimed_by, staller, game, names))
        else:
            lines.extend(_event_lines(event, game, names))
    return lines


def _event_lines(event: Event, game: RecordedGame, names: Sequence[str]) -> list[str]:
    if isinstance(event, CutForDeal):
        cuts = ", ".join(f"{names[seat]} cuts {card}" for seat, card in event.draws)
        outcome = "a tie, cut again" if event.dealer is None else f"{names[event.dealer]} deals"
        return [f"Cut for deal: {cuts}: {outcome}."]
    if isinstance(event, HandDealt):
        lines = ["", f"Hand {event.hand_number}: {names[event.dealer]} deals."]
        for seat in range(game.players):
            lines.append(f"{INDENT}{names[seat]} is dealt {format_cards(game.hand(seat))}.")
        if game.players == 3:
            lines.append(f"{INDENT}One card goes to the crib from the deck: {game.crib[0]}.")
        return lines
    if isinstance(event, StarterCut):
        return [
            f"{INDENT}{names[event.cutter]} cuts card {event.position}: "
            f"the starter is {event.card}."
        ]
    if isinstance(event, CardPlayed):
        return [f"{INDENT}{names[event.seat]} plays {event.card}, count {event.count}."]
    if isinstance(event, GoSaid):
        return [f"{INDENT}{names[event.seat]} cannot play: go."]
    if isinstance(event, CountReset):
        if event.leader is None:
            return ["", f"{INDENT}The show (starter {game.starter}):"]
        return [f"{INDENT}The count starts again at 0."]
    if isinstance(event, Pegged):
        score = _score_line(game, names, event)
        if event.reason in ("hand", "crib"):
            return [f"{INDENT}{INDENT}{names[event.seat]} pegs {event.points} ({score})."]
        if event.reason.startswith("muggins"):
            return [f"{INDENT}{INDENT}Muggins! {names[event.seat]} takes {event.points} ({score})."]
        return [
            f"{INDENT}{INDENT}{event.reason[0].upper()}{event.reason[1:]}: "
            f"{names[event.seat]} pegs {event.points} ({_score_line(game, names, event)})."
        ]
    if isinstance(event, ShowScored):
        return _show_lines(event, names)
    if isinstance(event, GameOver):
        return _game_over_lines(event, game, names)
    return []


def _chances_text(chances: Sequence[float], game: RecordedGame, names: Sequence[str]) -> str:
    """``Ada 58%, Bob 42%``: each side's chance to win now, whole per cents."""
    return ", ".join(
        f"{_side_name(game, names, side)} {round(chance * 100)}%"
        for side, chance in enumerate(chances)
    )


def _side_name(game: RecordedGame, names: Sequence[str], side: int) -> str:
    seats = [seat for seat in range(game.players) if game.side_of(seat) == side]
    return " and ".join(names[seat] for seat in seats)


def _score_line(game: RecordedGame, names: Sequence[str], event: Pegged) -> str:
    """The pegging side's score after these points: ``Alice 17``."""
    return f"{_side_name(game, names, event.side)} {event.score}"


def _show_lines(event: ShowScored, names: Sequence[str]) -> list[str]:
    whose = f"{names[event.seat]}'s {'crib' if event.is_crib else 'hand'}"
    score = event.score
    head = f"{INDENT}{whose} {format_cards(score.hand)}: {score.total}."
    lines = [head]
    lines.extend(f"{INDENT}{INDENT}{item}" for item in score.items)
    lines.append(f"{INDENT}{INDENT}{score.announcement}")
    if event.claim is not None:
        if event.claim > score.total:
            verdict = "too many, so nothing scores"
        elif event.claim < score.total:
            verdict = f"{score.total - event.claim} missed"
        else:
            verdict = "right"
        lines.append(f"{INDENT}{INDENT}{names[event.seat]} claims {event.claim}: {verdict}.")
        if event.remark:
            lines.append(f"{INDENT}{INDENT}{event.remark}")
    return lines  # the points follow as Pegged events


def _final_scores(event: GameOver, game: RecordedGame, names: Sequence[str]) -> str:
    return ", ".join(
        f"{_side_name(game, names, side)} {score}" for side, score in enumerate(event.scores)
    )


def _claimed_lines(
    event: GameOver, claimant: int, staller: int, game: RecordedGame, names: Sequence[str]
) -> list[str]:
    """A game one seat claimed from another who kept it waiting, on a move or on their
    word that they were ready (``Game.forfeit``): the log does not know which."""
    winner = _side_name(game, names, event.winner_side)
    return [
        "",
        f"{names[claimant]} claimed the game from {names[staller]}, who kept it waiting: "
        f"{winner} won by forfeit. The score stood {_final_scores(event, game, names)}.",
    ]


def _game_over_lines(event: GameOver, game: RecordedGame, names: Sequence[str]) -> list[str]:
    scores = _final_scores(event, game, names)
    winner = _side_name(game, names, event.winner_side)
    if event.forfeited_by is not None:
        leaver = _side_name(game, names, event.forfeited_by)
        return ["", f"{leaver} left the game: {winner} won by forfeit. The score stood {scores}."]
    lines = ["", f"{winner} won the game: {scores}."]
    for side, kind in event.skunks:
        lines.append(f"{_side_name(game, names, side)} took a {kind}.")
    return lines
