"""The account screens drawn from their state: the log-in and sign-up forms, a caller's
statistics and the leaderboard. Pure: each function fills a Canvas; door/app/accounts.py runs
the screens.

::

    0       title bar
    2-      the form's box, or the table
    22      message line (red for a refusal)
    23      status line: the keys that work now
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.competition.rating import Rating, RatingChange
from door.screens import theme
from door.screens.cards import card_face
from door.screens.chat import Entry
from door.screens.frame import draw_message, draw_status
from door.screens.game_list import game_rows
from door.screens.layout import MESSAGE_ROW, SCREEN_COLS
from door.storage.ratings import RatedMember, RatingHistoryEntry
from door.storage.store import GameSummary, LeaderboardEntry, PlayerStats, StatLine
from door.term.canvas import Canvas
from engine.rules.cards import Card

FORM_TOP: Final = 3
FORM_LEFT: Final = 8
FORM_WIDTH: Final = 64
LABEL_WIDTH: Final = 20
TABLE_TOP: Final = 3
MASK: Final = "*"
FORM_KEYS: Final = "RETURN next  BS erase  Esc back"


class FormField(Entry):
    """A labelled field of a form, typed through the shared line editor (masked for
    passwords)."""

    def __init__(self, label: str, limit: int, *, secret: bool = False, initial: str = "") -> None:
        super().__init__(label, limit, masked=secret, initial=initial)
        self.selected = False
        """The text is offered as a whole (highlighted): RETURN keeps it, the first
        character typed replaces it, any other editing key edits it."""

    @property
    def label(self) -> str:
        return self.prompt


@dataclass
class FormView:
    """A titled box of lines of explanation and fields; ``active`` is the field being
    typed in (its end gets the cursor)."""

    title: str
    fields: list[FormField]
    notes: tuple[str, ...] = ()
    notes_said: str = ""
    """The notes as a screen reader should say them (its own words for symbols the
    notes show, which a reader would spell out); empty: the notes as they are."""
    active: int = 0
    message: str = ""
    error: bool = False
    status: str = FORM_KEYS


def draw_title(canvas: Canvas, text: str) -> None:
    canvas.fill(0, 0, SCREEN_COLS, " ", theme.STATUS)
    canvas.put(0, 1, text[: SCREEN_COLS - 2], theme.STATUS)


def draw_form(view: FormView) -> tuple[Canvas, tuple[int, int]]:
    """The form and where the cursor goes (the end of the active field's text)."""
    canvas = Canvas()
    draw_title(canvas, view.title)
    # Borders, a blank row, the notes and a blank row after them, a field every other row.
    height = 3 + len(view.notes) + (1 if view.notes else 0) + 2 * len(view.fields)
    canvas.box(
        FORM_TOP,
        FORM_LEFT,
        height,
        FORM_WIDTH,
        theme.LABEL,
        title=view.title,
        title_style=theme.TITLE,
        double=True,
    )
    row = FORM_TOP + 2
    for note in view.notes:
        canvas.put(row, FORM_LEFT + 3, note[: FORM_WIDTH - 6], theme.TEXT)
        row += 1
    if view.notes:
        row += 1
    cursor = (row, FORM_LEFT + 3 + LABEL_WIDTH)
    for number, entry in enumerate(view.fields):
        label_style = theme.BRIGHT if number == view.active else theme.LABEL
        canvas.put(row, FORM_LEFT + 3, entry.label, label_style)
        col = FORM_LEFT + 3 + LABEL_WIDTH
        shown, column = entry.editor.shown(FORM_LEFT + FORM_WIDTH - 3 - col)
        canvas.put(row, col, shown, theme.BAR if entry.selected else theme.BRIGHT)
        if number == view.active:
            cursor = (row, col + column)
        row += 2
    draw_message(canvas, view.message, error=view.error)
    draw_status(canvas, view.status)
    return canvas, cursor


# --- statistics -----------------------------------------------------------------------

_STAT_HEADINGS: Final = (
    ("Opponent, runs, count", 30, "<"),
    ("Games", 6, ">"),
    ("Won", 5, ">"),
    ("Lost", 5, ">"),
    ("Win%", 6, ">"),
    ("Skunks", 8, ">"),
    ("Peg", 6, ">"),
    ("Hand", 6, ">"),
    ("Crib", 6, ">"),
)
MAX_MODE_ROWS: Final = 10


def mode_name(line: StatLine) -> str:
    if line.opponent == "all":
        return "All modes"
    return f"{line.opponent} {line.runs} {line.counting}"


def stat_row(line: StatLine) -> str:
    """One row of the table: Peg is pegging points per hand dealt, Hand and Crib the
    average show, Skunks given/taken."""
    cells = (
        mode_name(line),
        str(line.games),
        str(line.wins),
        str(line.losses),
        f"{line.win_rate:.0%}",
        f"{line.skunks_given}/{line.skunks_taken}",
        f"{line.pegging_per_hand:.1f}",
        f"{line.average_hand:.1f}",
        f"{line.average_crib:.1f}",
    )
    return "".join(
        f"{cell[:width]:{align}{width}}"
        for cell, (_, width, align) in zip(cells, _STAT_HEADINGS, strict=True)
    )


def _card_faces(cards: str) -> list[str]:
    """Cards as kept in the store ("3C 4S") as every game shows them ("3♣ 4♠")."""
    try:
        return [card_face(Card.parse(card)) for card in cards.split()]
    except ValueError:  # not notation after all: shown as kept
        return cards.split()


def _draw_games(canvas: Canvas, top: int, games: Sequence[GameSummary], viewer: int) -> None:
    """The member's latest games with their numbers, in the rows left above the message."""
    rows = MESSAGE_ROW - 1 - top
    if not games or rows < 2:
        return
    canvas.put(top, 1, "Latest games (the number is the one the sysop replays)", theme.LABEL)
    row, bottom = top + 1, top + rows
    for game in games:
        lines = game_rows(game, viewer, SCREEN_COLS - 2)
        if row + len(lines) > bottom:
            break  # a game whole or not at all
        for line in lines:
            canvas.put(row, 1, line, theme.TEXT)
            row += 1


def draw_stats(
    stats: PlayerStats,
    message: str = "",
    rating_line: str = "",
    games: Sequence[GameSummary] = (),
) -> Canvas:
    canvas = Canvas()
    account = stats.account
    since = account.created_at.strftime("%Y-%m-%d")
    draw_title(canvas, f"Statistics for {account.handle}  (member since {since})")
    headings = "".join(f"{name:{align}{width}}" for name, width, align in _STAT_HEADINGS)
    canvas.put(TABLE_TOP - 1, 1, headings, theme.LABEL)
    row = TABLE_TOP
    if not stats.modes:
        canvas.put(row + 1, 1, "No finished games yet: play one and come back!", theme.TEXT)
        canvas.put(row + 3, 1, rating_line[: SCREEN_COLS - 2], theme.TEXT)
        row += 5
    shown = stats.modes[:MAX_MODE_ROWS]
    for line in shown:
        canvas.put(row, 1, stat_row(line), theme.TEXT)
        row += 1
    if len(stats.modes) > len(shown):
        canvas.put(row, 1, f"... and {len(stats.modes) - len(shown)} more modes", theme.DIM)
        row += 1
    total = stats.total
    if stats.modes:
        canvas.put(row, 1, "─" * (SCREEN_COLS - 2), theme.DIM)
        canvas.put(row + 1, 1, stat_row(total), theme.BRIGHT)
        row += 3
        best = "none yet"
        if total.best_hand_cards:
            *hand, starter = _card_faces(total.best_hand_cards)
            best = f"{total.best_hand_score} points, {' '.join(hand)} with {starter} cut"
        details = (
            f"Best hand: {best}",
            f"Points: {total.pegging_points} pegging, {total.hand_points} in hands, "
            f"{total.crib_points} in cribs, over {total.hands_dealt} hands",
            f"Muggins: took {total.muggins_taken} points from others, "
            f"gave away {total.muggins_given}",
            f"Double skunks: gave {total.double_skunks_given}, took {total.double_skunks_taken}",
        )
        if rating_line:
            details = (*details, rating_line)
        for offset, text in enumerate(details):
            canvas.put(row + offset, 1, text[: SCREEN_COLS - 2], theme.TEXT)
        row += len(details) + 1
    _draw_games(canvas, row, games, stats.account.id)
    draw_message(canvas, message)
    draw_status(canvas, "Skunks given/taken  Peg: pegging per hand  any key: back")
    return canvas


# --- leaderboard ----------------------------------------------------------------------


def leaderboard_title(order: str, min_games: int) -> str:
    if order == "wins":
        return "Leaderboard: most games won"
    return f"Leaderboard: best win rate (at least {min_games} games)"


def draw_leaderboard(
    entries: Sequence[LeaderboardEntry], order: str, min_games: int, message: str = ""
) -> Canvas:
    canvas = Canvas()
    draw_title(canvas, leaderboard_title(order, min_games))
    left = 12
    canvas.put(
        TABLE_TOP,
        left,
        f"{'#':>3}  {'Handle':<22}{'Games':>6}{'Won':>6}{'Lost':>6}{'Win%':>7}",
        theme.LABEL,
    )
    if not entries:
        empty = (
            "No games have been played yet."
            if order == "wins"
            else f"Nobody has played {min_games} games yet."
        )
        canvas.put(TABLE_TOP + 2, left, empty, theme.TEXT)
    for offset, entry in enumerate(entries):
        style = theme.TITLE if entry.place == 1 else theme.TEXT
        canvas.put(
            TABLE_TOP + 2 + offset,
            left,
            f"{entry.place:>3}  {entry.handle:<22}{entry.games:>6}{entry.wins:>6}"
            f"{entry.losses:>6}{entry.win_rate:>7.0%}",
            style,
        )
    draw_message(canvas, message)
    other = "R best win rate" if order == "wins" else "W most wins"
    draw_status(canvas, f"{other}  A by rating  any other key: back")
    return canvas


def draw_rating_board(entries: Sequence[RatedMember], message: str = "") -> Canvas:
    """The leaderboard by rating: Glicko-2, a provisional rating (few games) marked ?."""
    canvas = Canvas()
    draw_title(canvas, "Leaderboard: rating")
    left = 12
    canvas.put(TABLE_TOP, left, f"{'#':>3}  {'Handle':<22}{'Rating':>8}{'Games':>7}", theme.LABEL)
    if not entries:
        canvas.put(TABLE_TOP + 2, left, "Nobody has played a rated game yet.", theme.TEXT)
    for place, entry in enumerate(entries, start=1):
        style = theme.TITLE if place == 1 else theme.TEXT
        line = f"{place:>3}  {entry.handle:<22}{entry.rating!s:>8}{entry.games:>7}"
        canvas.put(TABLE_TOP + 2 + place - 1, left, line, style)
    canvas.put(
        TABLE_TOP + 14,
        left,
        "Games against the computer are rated (2 players); ? marks a provisional rating.",
        theme.DIM,
    )
    draw_message(canvas, message)
    draw_status(canvas, "W most wins  R best win rate  any other key: back")
    return canvas


def rating_line(rating: Rating, history: Sequence[RatingHistoryEntry]) -> str:
    """``Rating 1523 (newest first: +12 −7 +9)``, each change written as the game's end
    writes it (a minus sign, ±0); a newcomer's says so."""
    if not history:
        return f"Rating {rating} (no rated games yet: play the computer as a member)"
    changes = " ".join(RatingChange(entry.before, entry.after).label for entry in history[:6])
    return f"Rating {rating} (newest first: {changes})"
