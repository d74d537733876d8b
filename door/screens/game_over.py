"""The end of a game: who won, by how much, any skunk, and the offer of another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from door.canvas import Canvas
from door.screens import theme
from door.screens.layout import PLAY_NUMBERS_ROW
from door.screens.theme import CALLER_SEAT

TOP = PLAY_NUMBERS_ROW
LEFT, HEIGHT, WIDTH = 12, 8, 56


@dataclass(frozen=True)
class GameOverPanel:
    winner: int
    scores: tuple[int, ...]
    skunk: str | None
    """``"skunk"`` or ``"double skunk"`` for the loser, or None."""


def headline(panel: GameOverPanel, names: Sequence[str]) -> str:
    loser = 1 - panel.winner
    won, lost = panel.scores[panel.winner], panel.scores[loser]
    if panel.winner == CALLER_SEAT:
        return f"You win, {won} to {lost}!"
    return f"{names[panel.winner]} wins, {won} to {lost}."


def skunk_text(panel: GameOverPanel, names: Sequence[str]) -> str:
    if panel.skunk is None:
        return ""
    loser = 1 - panel.winner
    who = "You are" if loser == CALLER_SEAT else f"{names[loser]} is"
    line = "61" if panel.skunk == "double skunk" else "91"
    return f"{who} {panel.skunk}ed: under {line} at the end."


def draw_game_over(canvas: Canvas, panel: GameOverPanel, names: Sequence[str]) -> None:
    canvas.clear(TOP, LEFT, HEIGHT, WIDTH)
    canvas.box(TOP, LEFT, HEIGHT, WIDTH, theme.TITLE, title="Game over", double=True)
    style = theme.PLAYER_STYLES[panel.winner]
    lines = [(headline(panel, names), style), (skunk_text(panel, names), theme.ERROR)]
    lines.append(("", theme.TEXT))
    lines.append(("Play again? Press y or n.", theme.BRIGHT))
    row = TOP + 2
    for text, line_style in lines:
        if text:
            canvas.put(row, LEFT + (WIDTH - len(text)) // 2, text, line_style)
        row += 1
