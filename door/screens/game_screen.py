"""The whole game screen, composed from its parts, for one state of the table.

``TableView`` is everything one person at the table sees that is not in the ``Game``
itself (the bar, the marks, the log, the message, the open panel or overlay); ``draw_table``
renders it with the game into a fresh canvas. Each player has a view of their own, whose
``viewer`` is their seat: their own hand face up, everyone else's face down. A watcher's
view has no ``viewer`` and shows no hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from door.screens import theme
from door.screens.board import draw_board, draw_board_foot
from door.screens.chat import Entry, GameLog, draw_entry, draw_log
from door.screens.cut import CutForDealPanel, CutPanel, draw_cut, draw_cut_for_deal
from door.screens.dialog import Dialog, draw_dialog
from door.screens.frame import draw_header, draw_message, draw_status
from door.screens.game_over import GameOverPanel, draw_game_over
from door.screens.help import HelpOverlay, draw_help
from door.screens.layout import BOARD_TOP, ENTRY_ROW, SCREEN_COLS, SCREEN_ROWS
from door.screens.narration import side_names
from door.screens.play_area import HandState, draw_hand, draw_played, draw_side_panel
from door.screens.show import ShowPanel, draw_show
from door.screens.side_pane import canvas_for, draw_side_pane, has_pane
from door.screens.theme import CALLER_SEAT
from door.screens.win_bar import draw_win_bar
from door.term.canvas import Canvas
from engine.game import Game, Phase

Panel = CutForDealPanel | CutPanel | ShowPanel | GameOverPanel
Overlay = HelpOverlay | Dialog

_CARDS_OUT = (Phase.DISCARD, Phase.CUT, Phase.PLAY)


@dataclass
class TableView:
    names: tuple[str, ...]
    """Every seat's name, in seat order."""
    game: Game
    header: tuple[str, ...] = ()
    """Texts for the middle of the header, longest first: the first that fits is shown."""
    hand: HandState = field(default_factory=HandState)
    message: str = ""
    error: bool = False
    status: str = ""
    log: GameLog = field(default_factory=GameLog)
    entry: Entry | None = None
    panel: Panel | None = None
    overlay: Overlay | None = None
    win_chances: tuple[float, ...] | None = None
    clock: str = ""
    """A turn timer's time left ("0:42"), at the right end of the entry row."""
    """Each side's chance to win, when this person's win bar is on."""
    viewer: int | None = CALLER_SEAT
    """The seat whose hand this view shows, or None for a watcher."""
    size: tuple[int, int] = (SCREEN_COLS, SCREEN_ROWS)
    """The caller's terminal (cols, rows): a wide one has the log and chat beside."""


def draw_table(view: TableView) -> tuple[Canvas, tuple[int, int] | None]:
    """The frame for ``view``, and where the cursor belongs (None: hidden)."""
    canvas = canvas_for(view.size)
    game, names, panel, viewer = view.game, view.names, view.panel, view.viewer
    sides = side_names(names, game.sides)
    # Once the crib is counted the engine has already passed the deal on; while that
    # count is on screen, the hand's dealer is still the one who owns the crib.
    hand_dealer = panel.seat if isinstance(panel, ShowPanel) and panel.is_crib else game.dealer
    dealer = None if game.phase is Phase.CUT_FOR_DEAL else game.side_of(hand_dealer)
    draw_header(canvas, sides, game.scores, dealer, view.header)
    draw_board(canvas, BOARD_TOP, game.scores, game.previous_scores, sides)
    if game.sides == 3:
        draw_board_foot(canvas, BOARD_TOP)
    if isinstance(panel, ShowPanel):
        draw_show(canvas, panel, names, viewer)
    else:
        cards_out = game.phase in _CARDS_OUT
        if isinstance(panel, CutForDealPanel):
            draw_cut_for_deal(canvas, panel, names)
        elif isinstance(panel, CutPanel):
            draw_cut(canvas, panel)
        elif cards_out:
            draw_played(canvas, game.plays, game.count_cards, game.phase is Phase.PLAY, game.sides)
        if cards_out:
            crib_owner = "Yours" if game.dealer == viewer else f"{names[game.dealer]}'s"
            others = [
                (names[seat], len(game.hand(seat)))
                for seat in range(game.players)
                if seat != viewer
            ]
            draw_side_panel(
                canvas,
                starter=game.starter,
                dealt=True,
                crib_cards=len(game.crib),
                crib_owner=crib_owner,
                others=others,
            )
        draw_hand(canvas, view.hand)
        draw_log(canvas, view.log)
        if view.win_chances is not None:
            draw_win_bar(canvas, _bar_names(sides, game, viewer), view.win_chances)
        if isinstance(panel, GameOverPanel):
            draw_game_over(canvas, panel, sides, _side_of(game, viewer))
    cursor = None
    if view.entry is not None:
        cursor = draw_entry(canvas, view.entry)
    draw_message(canvas, view.message, error=view.error)
    if view.clock:
        clock = f" {view.clock} left "
        # On the entry row's right end, clear of the prompt on the message row.
        canvas.put(ENTRY_ROW, SCREEN_COLS - 1 - len(clock), clock, theme.STATUS)
    draw_status(canvas, view.status)
    if has_pane(canvas):
        draw_side_pane(canvas, "Game log and chat", view.log.lines)
    if isinstance(view.overlay, HelpOverlay):
        draw_help(canvas, view.overlay)
        cursor = None
    elif isinstance(view.overlay, Dialog):
        draw_dialog(canvas, view.overlay)
        cursor = None
    return canvas, cursor


def _side_of(game: Game, seat: int | None) -> int | None:
    return None if seat is None else game.side_of(seat)


def _bar_names(sides: Sequence[str], game: Game, viewer: int | None) -> list[str]:
    """The win bar's names: the viewer's own side is "You"; with partners, the other
    side is "Opponents" (two names and an ampersand do not fit beside the bar)."""
    own = None if viewer is None else game.side_of(viewer)
    if own is not None and game.players == 4:
        return ["You" if side == own else "Opponents" for side in range(len(sides))]
    return ["You" if side == own else _short(name) for side, name in enumerate(sides)]


def _short(name: str) -> str:
    """A side's name as the bar has room for: a partnership by its first partner."""
    if len(name) <= 14 or " & " not in name:
        return name
    return f"{name.split(' & ')[0][:9]} & co"
