"""A member's record and the leaderboards in sentences, for a caller with a screen
reader: what door/screens/account.py draws as tables, said a line a person (a table's
columns read out cell by cell mean nothing). Pure: values in, a ``Said`` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens.account import leaderboard_title, mode_name
from door.screens.game_list import result_text, sides_text
from door.screens.speech import Said, cards_words, rating_in_words
from door.storage.ratings import RatedMember
from door.storage.values import GameSummary, LeaderboardEntry, PlayerStats, StatLine
from engine.rules.cards import Card

BOARD_PROMPT: Final = (
    "Type w for most wins, r for best win rate, a for rating, or RETURN to go back."
)
RECORD_PROMPT: Final = "Press RETURN to go back."


def games_said(count: int) -> str:
    """``1 game``, ``12 games``: a count read out is heard, "1 games" too."""
    return f"{count} game" if count == 1 else f"{count} games"


def leaderboard_said(entries: Sequence[LeaderboardEntry], order: str, min_games: int) -> Said:
    """``3: Ada, 12 games, won 8, lost 4, 67 percent.``"""
    sentences = [f"{leaderboard_title(order, min_games)}."]
    if not entries:
        sentences.append(
            "No games have been played yet."
            if order == "wins"
            else f"Nobody has played {games_said(min_games)} yet."
        )
    sentences.extend(
        f"{entry.place}: {entry.handle}, {games_said(entry.games)}, won {entry.wins},"
        f" lost {entry.losses}, {entry.win_rate:.0%} won.".replace("%", " percent")
        for entry in entries
    )
    return Said(tuple(sentences), prompt=BOARD_PROMPT)


def rating_board_said(entries: Sequence[RatedMember]) -> Said:
    sentences = ["Leaderboard: rating. A rating marked with a question mark is provisional."]
    if not entries:
        sentences.append("Nobody has played a rated game yet.")
    sentences.extend(
        f"{place}: {entry.handle}, rating {entry.rating}, {games_said(entry.games)}."
        for place, entry in enumerate(entries, 1)
    )
    return Said(tuple(sentences), prompt=BOARD_PROMPT)


def spoken_mode(line: StatLine) -> str:
    """A mode of the record as said, not as the store keys it (``computer-normal free
    auto``, read out "computer dash normal"): ``Against the computer at normal, free
    runs, auto count``; ``Against other callers, 3 players, ...``."""
    if line.opponent == "all":
        return mode_name(line)
    kind, _, players = line.opponent.partition("-")
    if kind == "computer":
        level, _, players = players.partition("-")
        whom = f"the computer at {level}"
    else:
        whom = "other callers" if kind == "people" else line.opponent
    size = f", {players.removesuffix('p')} players" if players.endswith("p") else ""
    return f"Against {whom}{size}, {line.runs} runs, {line.counting} count"


def stat_sentence(line: StatLine) -> str:
    return (
        f"{spoken_mode(line)}: {games_said(line.games)}, won {line.wins}, lost {line.losses},"
        f" skunks given {line.skunks_given}, taken {line.skunks_taken};"
        f" {line.pegging_per_hand:.1f} pegged a hand, hands {line.average_hand:.1f},"
        f" cribs {line.average_crib:.1f} on average."
    )


def stats_said(
    stats: PlayerStats, rating_line: str = "", games: Sequence[GameSummary] = ()
) -> Said:
    """A member's record: each mode they played, all modes, their best hand in words,
    then their latest games in the order the screen lists them, a sentence each."""
    account = stats.account
    since = account.created_at.strftime("%Y-%m-%d")
    sentences = [f"Statistics for {account.handle}, a member since {since}."]
    if not stats.modes:
        sentences.append("No finished games yet: play one and come back!")
    sentences.extend(stat_sentence(line) for line in stats.modes)
    total = stats.total
    if stats.modes:
        sentences.append(stat_sentence(total))
        if total.best_hand_cards:
            sentences.append(
                f"Best hand: {total.best_hand_score} points, {best_hand(total.best_hand_cards)}."
            )
        sentences.append(
            f"Muggins: took {total.muggins_taken} points from others,"
            f" gave away {total.muggins_given}."
        )
    if rating_line:
        sentences.append(rating_in_words(rating_line) + ".")
    if games:
        sentences.append("Latest games, newest first; the number is the one the sysop replays.")
        sentences.extend(game_sentence(game, account.id) for game in games)
    return Said(tuple(sentences), prompt=RECORD_PROMPT)


def game_sentence(game: GameSummary, viewer: int) -> str:
    """``Game 12, 2026-03-02 09:05, won, 121 to 98; Ada vs Computer.``: a row of the
    record's list of games without the padding that lines its columns up (read out as
    silence or "space space"), the names whole where the screen may carry them over to
    a second row; the result as ``viewer`` (the record's member) reads it."""
    when = game.when.strftime("%Y-%m-%d %H:%M")
    names = " vs ".join(sides_text(game))
    return f"Game {game.game_id}, {when}, {result_text(game, viewer)}; {names}."


def best_hand(cards: str) -> str:
    """``5C 5D 5H JS 5S`` (the starter last) as ``five of clubs, ... with five of spades
    cut``; text that is no notation as it is."""
    try:
        *hand, starter = [Card.parse(card) for card in cards.split()]
    except ValueError:
        return cards
    return f"{cards_words(hand)} with {cards_words([starter])} cut"
