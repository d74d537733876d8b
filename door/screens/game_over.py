"""The end of a game: who won, by how much, any skunk, and what happens next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from door.canvas import Canvas
from door.screens import theme
from door.screens.layout import PLAY_NUMBERS_ROW
from door.screens.theme import CALLER_SEAT

TOP = PLAY_NUMBERS_ROW
LEFT, HEIGHT, WIDTH = 12, 8, 56
PLAY_AGAIN = "Play again? Press y or n."


@dataclass(frozen=True)
class GameOverPanel:
    """``winner`` and the indexes of ``scores`` are sides (a player, or a partnership);
    ``skunks`` names each losing side left under 91 ("skunk") or 61 ("double skunk")."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[tuple[int, str], ...] = ()
    question: str = PLAY_AGAIN


def _plural(name: str) -> bool:
    return " & " in name


def headline(panel: GameOverPanel, names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    """``You win, 121 to 97!`` or ``Computer wins, 121 to 97.``; ``viewer`` is a side."""
    won = panel.scores[panel.winner]
    lost = " and ".join(
        str(score) for side, score in enumerate(panel.scores) if side != panel.winner
    )
    if panel.winner == viewer:
        return f"You win, {won} to {lost}!"
    name = names[panel.winner]
    return f"{name} {'win' if _plural(name) else 'wins'}, {won} to {lost}."


def skunk_text(panel: GameOverPanel, names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    sentences = []
    for side, kind in panel.skunks:
        if side == viewer:
            who = "You are"
        else:
            who = f"{names[side]} {'are' if _plural(names[side]) else 'is'}"
        line = "61" if kind == "double skunk" else "91"
        sentences.append(f"{who} {kind}ed: under {line} at the end.")
    return " ".join(sentences)


def draw_game_over(
    canvas: Canvas, panel: GameOverPanel, names: Sequence[str], viewer: int | None = CALLER_SEAT
) -> None:
    canvas.clear(TOP, LEFT, HEIGHT, WIDTH)
    canvas.box(TOP, LEFT, HEIGHT, WIDTH, theme.TITLE, title="Game over", double=True)
    style = theme.PLAYER_STYLES[panel.winner]
    lines = [(headline(panel, names, viewer), style)]
    lines += [(text, theme.ERROR) for text in _wrapped_skunks(panel, names, viewer)]
    lines.append(("", theme.TEXT))
    lines.append((panel.question, theme.BRIGHT))
    row = TOP + 2
    for text, line_style in lines[: HEIGHT - 3]:
        if text:
            canvas.put(row, LEFT + max(1, (WIDTH - len(text)) // 2), text[: WIDTH - 2], line_style)
        row += 1


def _wrapped_skunks(panel: GameOverPanel, names: Sequence[str], viewer: int | None) -> list[str]:
    """One line a skunked side, so a three-handed game's two losers both fit."""
    return [skunk_text(replace(panel, skunks=(skunk,)), names, viewer) for skunk in panel.skunks]
