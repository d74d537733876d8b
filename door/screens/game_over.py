"""The end of a game: who won, by how much, any skunk, and what happens next."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace

from door.screens import theme
from door.screens.layout import PLAY_NUMBERS_ROW
from door.screens.theme import CALLER_SEAT
from door.term.canvas import Canvas
from engine.rules.outcome import Outcome

TOP = PLAY_NUMBERS_ROW
LEFT, HEIGHT, WIDTH = 12, 8, 56
PLAY_AGAIN = "Play again? Press y or n."


@dataclass(frozen=True)
class GameOverPanel:
    """The game's ``Outcome`` (sides: a player, or a partnership) and what to ask next."""

    outcome: Outcome
    question: str = PLAY_AGAIN
    match_line: str = ""
    """How the match stands after this game ("Ada leads 2 to 1 in games, ..."), if one is on."""
    game_number: int | None = None
    """The game's number in the door's records, when it was kept (members' games)."""
    claimed: bool = False
    """The forfeit was claimed from a player who did not move (door/table/stalls.py),
    not a player leaving."""

    @property
    def winner(self) -> int:
        return self.outcome.winner_side

    @property
    def scores(self) -> tuple[int, ...]:
        return self.outcome.scores

    @property
    def skunks(self) -> tuple[tuple[int, str], ...]:
        return self.outcome.skunks


def _plural(name: str) -> bool:
    return " & " in name


def headline(panel: GameOverPanel, names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    """``You win, 121 to 97!`` or ``Computer wins, 121 to 97.``; ``viewer`` is a side."""
    if panel.outcome.forfeit:
        return _forfeit_headline(panel, names, viewer)
    won = panel.scores[panel.winner]
    lost = " and ".join(
        str(score) for side, score in enumerate(panel.scores) if side != panel.winner
    )
    if panel.winner == viewer:
        return f"You win, {won} to {lost}!"
    name = names[panel.winner]
    return f"{name} {'win' if _plural(name) else 'wins'}, {won} to {lost}."


def _forfeit_headline(panel: GameOverPanel, names: Sequence[str], viewer: int | None) -> str:
    leaver = panel.outcome.forfeited_by
    assert leaver is not None
    if panel.claimed:
        if leaver == viewer:
            return f"Claimed from you at {panel.scores[leaver]}: it counts as a loss."
        if panel.winner == viewer:
            return "You claimed the game: you win by forfeit."
        return f"{names[panel.winner]} claimed the game from {names[leaver]} by forfeit."
    if leaver == viewer:
        return f"You left the game at {panel.scores[leaver]}: it counts as a loss."
    who = "You win" if panel.winner == viewer else f"{names[panel.winner]} wins"
    return f"{names[leaver]} left the game: {who} by forfeit."


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
    if panel.game_number is not None:
        # On the bottom border: the number the record lists and the sysop replays.
        label = f" Game {panel.game_number} "
        canvas.put(TOP + HEIGHT - 1, LEFT + WIDTH - 2 - len(label), label, theme.TITLE)
    style = theme.PLAYER_STYLES[panel.winner]
    lines = [(headline(panel, names, viewer), style)]
    lines += [(text, theme.ERROR) for text in _wrapped_skunks(panel, names, viewer)]
    lines += [(text, theme.TITLE) for text in textwrap.wrap(panel.match_line, WIDTH - 4)]
    lines.append(("", theme.TEXT))
    lines.append((panel.question, theme.BRIGHT))
    row = TOP + 2
    for text, line_style in lines[: HEIGHT - 3]:
        if text:
            canvas.put(row, LEFT + max(1, (WIDTH - len(text)) // 2), text[: WIDTH - 2], line_style)
        row += 1


def _wrapped_skunks(panel: GameOverPanel, names: Sequence[str], viewer: int | None) -> list[str]:
    """One line a skunked side, so a three-handed game's two losers both fit."""
    return [
        skunk_text(replace(panel, outcome=replace(panel.outcome, skunks=(skunk,))), names, viewer)
        for skunk in panel.skunks
    ]
