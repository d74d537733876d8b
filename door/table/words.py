"""The table's words: its header, its key lines, whom it waits for, how a game ends.

Pure functions of the game's state, so the flow (door/table/flow.py) and the people at
the table (door/table/person.py) say the same things the same way, and a wording is
tested without a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from door.competition.match import Match
from door.screens.cards import card_face
from door.screens.game_over import PLAY_AGAIN
from door.screens.show import show_title
from door.table.options import GameOptions
from door.term.keys import Key
from engine.rules.cards import Card
from engine.rules.outcome import Outcome

EVERYWHERE: Final = "c chat  ? help  ^L redraw  q quit"
"""The keys that work at every step, ending each status line."""
WAITING_STATUS: Final = f"Waiting  {EVERYWHERE}"
CLAIM_STATUS: Final = f"g claim the game  {EVERYWHERE}"
"""While the game has waited long on another player's move (door/table/stalls.py)."""
BE_READY: Final = "be ready"
"""What the table waits on each caller for before the computer deals for several (they
say they are ready): no move of the game."""
CALL_BACK: Final = "call back"
"""What the table waits on a seat for while its caller's line is down."""
WATCHING_STATUS: Final = "Watching  c chat  ? help  ^L redraw  q stop watching"
EXHIBITION_STATUS: Final = "Watching  + faster  - slower  w win bar  c chat  ? help  q stop"
EXHIBITION_STATUS_NO_BAR: Final = EXHIBITION_STATUS.replace("  w win bar", "")
"""Where the sysop turned the win bar off (``[game] win_bar = "never"``)."""


def faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(card) for card in cards)


def and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def duration(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    if round(seconds) == 60:
        return "1 minute"
    return "1 second" if round(seconds) == 1 else f"{seconds:.0f} seconds"


def wrong_key(key: Key, hint: str) -> str:
    name = repr(key.char) if key.is_printable else key.name.value
    return f"The {name} key does nothing here: {hint}."


def title(names: Sequence[str]) -> str:
    """``Alice vs Bob`` (``Alice & Carol vs Bob & Computer`` for partners)."""
    if len(names) == 4:
        return f"{names[0]} & {names[2]} vs {names[1]} & {names[3]}"
    return " vs ".join(names)


def watching_status(*, exhibition: bool, win_bar_never: bool) -> str:
    """A watcher's key line: the exhibition's offers + and - (and w, where the bar may
    show)."""
    if not exhibition:
        return WATCHING_STATUS
    return EXHIBITION_STATUS_NO_BAR if win_bar_never else EXHIBITION_STATUS


def header(
    options: GameOptions, hand: int, *, computer_plays: bool, match_game: int | None
) -> tuple[str, ...]:
    """The header of hand ``hand``, longest first (the screen shows the longest that
    fits); ``match_game`` is the game's number in a match, if one is played."""
    runs = "exact runs" if options.runs == "exact" else "free runs"
    counting = f"{options.counting} count"
    # The computer's level says something only where the computer plays.
    level = f" · {options.level}" if computer_plays else ""
    match = f"Game {match_game} of {options.best_of} · " if match_game is not None else ""
    return (
        f"{match}Hand {hand} · {runs} · {counting}{level}",
        f"{match}Hand {hand} · {runs} · {counting}",
        f"{match}Hand {hand} · {runs}",  # the rule that changes the play most
        f"{match}Hand {hand}",
        f"Hand {hand}",
    )


def waiting_text(waits: Mapping[int, str], names: Sequence[str]) -> str:
    """``Waiting for Ada and Bob to go on.``: the first thing the game waits for and who
    for; "" when it waits for nobody."""
    if not waits:
        return ""
    by_action: dict[str, list[str]] = {}
    for index, action in waits.items():
        by_action.setdefault(action, []).append(names[index])
    action, waited = next(iter(by_action.items()))
    return f"Waiting for {and_list(waited)} to {action}."


def crib_owner(dealer: int, seat: int, names: Sequence[str]) -> str:
    """``your crib`` or ``Bob's crib``, for the caller at ``seat``."""
    return "your crib" if dealer == seat else f"{names[dealer]}'s crib"


def next_question(match: Match | None, match_game: int) -> str:
    """What a caller playing the computer is asked at a game's end."""
    if match is not None and not match.decided:
        return f"On to game {match_game} of the match? Press y or n."
    if match is not None:
        return "A new match? Press y or n."
    return PLAY_AGAIN


def go_on_prompt(next_step: str) -> str:
    return f"RETURN: on to {next_step}."


def next_show(showing: tuple[int, bool], names: Sequence[str], viewer: int | None) -> str:
    """The hand shown next, as ``viewer`` reads it: ``your crib``, ``Bob's hand``."""
    shown = show_title(*showing, names, viewer)
    return "your" + shown[4:] if shown.startswith("Your") else shown


DOOR_CLOSING: Final = "The door is closing: the game stops here."
"""What the players of a table the door closed as it stopped read (its goodbye, under
it, says whether the game is saved)."""


def end_text(*, abandoned: bool, stopped: bool = False) -> str:
    """What the players read once the game is over for them (``stopped``: the door
    closed the table as it stopped). A forfeit is not said again here: its line (who
    left, or who claimed the game) was told as it happened, and stands in the log just
    above this one (on the message line, and a screen reader's last sentence)."""
    if stopped:
        return DOOR_CLOSING
    if abandoned:
        return "Nobody is left to play: the game is over."
    return "The game is over."


def ended_notice(title: str, sides: Sequence[str], outcome: Outcome, match: Match | None) -> str:
    """The lobby's line when a table's game ends, as ``a game begins`` was its line when
    it began: ``Ada vs Bob: Ada won 121 to 98 (a skunk).``, ``Ada vs Bob: Ada won by a
    claim at 12 to 30 (Bob kept it waiting).``, ``... by forfeit ... (Bob left).``; a
    match's game, how the match stands. ``sides`` names each side (partners together).
    Kept short: the lobby's chat row is 78 cells at 80 columns."""
    if outcome.forfeited_by is not None:
        won = outcome.winner_side
        how, why = _forfeit_words(claimed=outcome.claimed)
        stood = f"{outcome.scores[won]} to {outcome.best_other(won)}"
        line = (
            f"{title}: {sides[won]} won by {how} at {stood} ({sides[outcome.forfeited_by]} {why})."
        )
    else:
        line = f"{title}: {outcome.describe(sides)}."
    if match is not None and match.best_of > 1 and match.games:
        line += f" {match.line()}."
    return line


def match_forfeited_notice(title: str, match: Match, leaver: int, *, claimed: bool) -> str:
    """The lobby's line when side ``leaver`` forfeits a match between two of its games
    (no game in play to end): ``Ada vs Bob: Ada won the match by forfeit at 1 to 1 in
    games (Bob left).``, ``... by a claim ... (Bob kept it waiting).``"""
    won = 1 - leaver
    how, why = _forfeit_words(claimed=claimed)
    stood = f"{match.wins[won]} to {match.wins[leaver]}"
    names = match.names
    return (
        f"{title}: {names[won]} won the match by {how} at {stood} in games ({names[leaver]} {why})."
    )


def game_or_match(options: GameOptions) -> str:
    """``the match`` or ``the game``: what a table's options play."""
    return "the match" if options.best_of > 1 else "the game"


def abandoned_notice(title: str, options: GameOptions) -> str:
    """The lobby's line when everyone left a table's game (or match) unfinished:
    ``Ada vs Bob: the game was abandoned (everyone left).``"""
    return f"{title}: {game_or_match(options)} was abandoned (everyone left)."


def won_while_away_notice(title: str, options: GameOptions, dropper: str) -> str:
    """The lobby's line when the computer won a game that counts for ``dropper`` before
    the reconnect wait was over: ``Ada vs Bob: the game ends, counted for neither (Bob's
    line was down).``"""
    what = game_or_match(options)
    return f"{title}: {what} ends, counted for neither ({dropper}'s line was down)."


def _forfeit_words(*, claimed: bool) -> tuple[str, str]:
    """How a forfeit was won and why it was lost: claimed from a caller who kept the
    table waiting, or left."""
    return ("a claim", "kept it waiting") if claimed else ("forfeit", "left")
