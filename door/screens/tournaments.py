"""The tournaments screen drawn from values: the list of tournaments, or one
tournament's standings (place, name, game points, spread, matches won and lost) and the
current round's pairings with their results. Pure: door/app/tournament_screen.py runs it.

::

    0       title bar
    1       a rule with what is shown
    2-20    the list, or the standings then the round's pairings
    21      the line being typed (the sysop's form)
    22      message line (red for a refusal)
    23      status line: the keys that work now
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.app.tournaments import TournamentInfo
from door.competition.match import game_points, spread
from door.competition.tournament import Pairing, Tournament
from door.screens import theme
from door.screens.account import draw_title
from door.screens.chat import Entry, draw_entry
from door.screens.fit import shortened
from door.screens.frame import draw_message, draw_status
from door.screens.layout import SCREEN_COLS
from door.term.canvas import Canvas

TOP: Final = 2
LAST_ROW: Final = 20
NAME_WIDTH: Final = 18
RULE_TITLE_ROOM: Final = SCREEN_COLS - 5
"""A rule's title fits between its first two dashes and a last one: "── title ─"."""


@dataclass
class TournamentsView:
    title: str
    listing: Sequence[TournamentInfo] = ()
    shown: TournamentInfo | None = None
    """The tournament whose table is shown (None: the list)."""
    you: int | None = None
    """The caller's account, marked in the lists."""
    entry: Entry | None = None
    message: str = ""
    error: bool = False
    status: str = ""


def describe(tournament: Tournament) -> str:
    """``Swiss, 3 rounds, 2 games a match`` / ``round robin, 1 game a match``."""
    games = f"{tournament.games_per_match} game{'s' if tournament.games_per_match != 1 else ''}"
    kind = "Swiss" if tournament.kind == "swiss" else "round robin"
    # Once started, the rounds it will play: no more than it takes everyone to meet.
    count = tournament.rounds if tournament.status == "open" else tournament.total_rounds
    rounds = f", {count} round{'s' if count != 1 else ''}" if tournament.kind == "swiss" else ""
    return f"{kind}{rounds}, {games} a match"


def state_of(tournament: Tournament, *, brief: bool = False) -> str:
    """``open: starts 2026-12-01 20:00 UTC`` (or ``open: the sysop starts it``),
    ``round 2 of 3``, ``finished``; ``brief`` leaves out the ``open:`` that a start to
    come implies."""
    if tournament.status == "open":
        opens = "" if brief else "open: "
        if tournament.starts_at is None:
            return f"{opens}the sysop starts it"
        return f"{opens}starts {tournament.starts_at:%Y-%m-%d %H:%M} UTC"
    if tournament.status == "running":
        return f"round {tournament.current_round} of {tournament.total_rounds}"
    return "finished"


def table_title(tournament: Tournament) -> str:
    """The title of a tournament's table on its rule: its name, what it is and where it
    stands, as fits (a 40-character name, Swiss of 20 rounds of 7 games, open, is 112
    characters): the ``open:`` is left out first, then what it is, then both."""
    name, what = tournament.name, describe(tournament)
    state, brief = state_of(tournament), state_of(tournament, brief=True)
    choices = (f"{name} · {what} · {state}", f"{name} · {what} · {brief}", f"{name} · {state}")
    return next((title for title in choices if len(title) <= RULE_TITLE_ROOM), f"{name} · {brief}")


def _rule(canvas: Canvas, row: int, title: str) -> None:
    canvas.fill(row, 0, SCREEN_COLS, "─", theme.DIM)
    canvas.put(row, 2, f" {title} ", theme.LABEL)


def draw_tournaments(view: TournamentsView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    if view.shown is None:
        _draw_listing(canvas, view)
    else:
        _draw_table(canvas, view.shown, view.you)
    cursor = draw_entry(canvas, view.entry) if view.entry is not None else None
    draw_message(canvas, view.message, error=view.error)
    draw_status(canvas, view.status)
    return canvas, cursor


def _draw_listing(canvas: Canvas, view: TournamentsView) -> None:
    _rule(canvas, TOP - 1, "Tournaments")
    if not view.listing:
        canvas.put(TOP, 3, "No tournaments yet: the sysop makes them.", theme.DIM)
        return
    row = TOP
    for number, info in enumerate(view.listing[: (LAST_ROW - TOP) // 2], start=1):
        tournament = info.tournament
        entered = view.you is not None and view.you in tournament.entrants
        canvas.put(row, 1, f"{number:>2}", theme.LABEL)
        canvas.put(row, 5, tournament.name, theme.BRIGHT)
        # The count beside the name: under it, after what the tournament is and where it
        # stands, it ran past the 80th column ("Swiss, 3 rounds, ... UTC · 0 si").
        people = f" · {len(tournament.entrants)} signed up"
        canvas.put(row, 5 + len(tournament.name), people, theme.TEXT)
        mark = "  (you are in)" if entered else ""
        canvas.put(row, 5 + len(tournament.name) + len(people), mark, theme.TITLE)
        line = f"{describe(tournament)} · {state_of(tournament)}"
        style = theme.DIM if tournament.status == "finished" else theme.TEXT
        canvas.put(row + 1, 5, line[: SCREEN_COLS - 5], style)
        row += 2


def _draw_table(canvas: Canvas, info: TournamentInfo, you: int | None) -> None:
    tournament = info.tournament
    _rule(canvas, TOP - 1, table_title(tournament))
    canvas.put(TOP, 1, "Pl  Name", theme.LABEL)
    canvas.put(TOP, 6 + NAME_WIDTH, "Points  Spread  Games won  lost", theme.LABEL)
    standings = tournament.standings()
    pairings = info.round_pairings
    room = LAST_ROW - TOP - 1 - (len(pairings) + 2 if pairings else 0)
    shown = standings[: max(room, 3)]
    row = TOP + 1
    for place, standing in enumerate(shown, start=1):
        style = theme.TITLE if standing.entrant == you else theme.TEXT
        name = info.name_of(standing.entrant)[: NAME_WIDTH - 1]
        canvas.put(row, 1, f"{place:>2}  {name}", style)
        figures = (
            f"{standing.game_points:>6}  {standing.spread:>+6}  {standing.wins:>9}"
            f"  {standing.losses:>4}"
        )
        canvas.put(row, 6 + NAME_WIDTH, figures, style)
        row += 1
    if len(standings) > len(shown):
        canvas.put(row, 5, f"... and {len(standings) - len(shown)} more", theme.DIM)
        row += 1
    if not pairings:
        if tournament.status == "open":
            canvas.put(row + 1, 3, "Pairings are made when the tournament starts.", theme.DIM)
        return
    row += 1
    _rule(canvas, row, f"Round {tournament.current_round} pairings")
    row += 1
    for pairing in pairings:
        if row > LAST_ROW:
            break
        mine = you is not None and you in pairing.entrants
        style = theme.TITLE if mine else theme.TEXT
        canvas.put(row, 1, pairing_line(info, pairing, width=SCREEN_COLS - 2), style)
        row += 1


def pairing_line(info: TournamentInfo, pairing: Pairing, width: int | None = None) -> str:
    """``Table 1  Ada v Bob: 2-0 in game points (+31 spread), 1 of 1 played``; within
    ``width`` (when given) the names give way, never the result: cut at the end, a
    settled match between two long names read "... 1 of 1 play"."""
    tournament = info.tournament
    first = info.name_of(pairing.first)
    if pairing.second is None:
        return f"Table {pairing.table:<2} {first} has a bye"
    second = info.name_of(pairing.second)
    played = len(pairing.games)
    if not played:
        result = "to play"
    else:
        points = [0, 0]
        for outcome in pairing.games:
            for side in (0, 1):
                points[side] += game_points(outcome, side, tournament.rules)
        margin = sum(spread(outcome, 0) for outcome in pairing.games)
        result = f"{points[0]}-{points[1]} in game points ({margin:+} spread)"
        result += f", {played} of {tournament.games_per_match} played"
    fixed = len(f"Table {pairing.table:<2}  v : {result}")
    if width is not None:
        first, second = _names_within(first, second, width - fixed)
    return f"Table {pairing.table:<2} {first} v {second}: {result}"[:width]


def _names_within(first: str, second: str, room: int) -> tuple[str, str]:
    """Two names shortened (a "…" at the end) to take ``room`` columns at most between
    them: the longer gives way first."""
    if len(first) + len(second) <= room:
        return first, second
    half = room // 2
    if len(first) <= half:
        return first, shortened(second, room - len(first))
    if len(second) <= room - half:
        return shortened(first, room - len(second)), second
    return shortened(first, half), shortened(second, room - half)
