"""The whole game screen, composed from its parts, for one state of the table.

``TableView`` is everything one person at the table sees that is not in the ``Game``
itself (the bar, the marks, the log, the message, the open panel or overlay); ``draw_table``
renders it with the game into a fresh canvas. Each player has a view of their own, whose
``viewer`` is their seat: their own hand face up, everyone else's face down. A watcher's
view has no ``viewer`` and shows no hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from door.screens import theme
from door.screens.board import draw_bare_board, draw_pegs
from door.screens.chat import (
    Entry,
    FlatLine,
    PaneLog,
    draw_entry,
    draw_kept_log,
    draw_log_rule,
    lines_of,
)
from door.screens.cut import CutForDealPanel, CutPanel, draw_cut, draw_cut_for_deal
from door.screens.dialog import Dialog, draw_dialog
from door.screens.frame import draw_header, draw_message, draw_status
from door.screens.game_over import GameOverPanel, draw_game_over
from door.screens.help import HelpOverlay, draw_help
from door.screens.layout import (
    BOARD_TOP,
    ENTRY_ROW,
    LOG_ROWS,
    LOG_TOP,
    SCREEN_COLS,
    SCREEN_ROWS,
)
from door.screens.narration import side_names
from door.screens.play_area import (
    HandState,
    draw_hand_cards,
    draw_hand_labels,
    draw_played,
    draw_side_panel,
)
from door.screens.show import ShowPanel, draw_show
from door.screens.side_pane import WIDE_COLS, canvas_size, draw_side_pane
from door.screens.theme import CALLER_SEAT
from door.screens.win_bar import draw_win_bar
from door.term.canvas import Canvas, Shifted, drawn_once, picture_top
from door.term.layers import ALWAYS, Layer, Layers
from engine.rules.cards import Card
from engine.rules.game import Game, Phase

Panel = CutForDealPanel | CutPanel | ShowPanel | GameOverPanel
Overlay = HelpOverlay | Dialog

_CARDS_OUT = (Phase.DISCARD, Phase.CUT, Phase.PLAY)


@dataclass(slots=True)  # read at every frame, cold among many sessions (#48)
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
    log: PaneLog = field(default_factory=PaneLog)
    entry: Entry | None = None
    panel: Panel | None = None
    overlay: Overlay | None = None
    win_chances: tuple[float, ...] | None = None
    win_bar_current: bool = True
    """False: ``win_chances`` are an earlier moment's, drawn dimmed until the new ones."""
    clock: str = ""
    """A turn timer's time left ("0:42"), at the right end of the entry row."""
    win_bar_asked: bool = False
    """A request for the win bar waits on this player's w: the key bar offers it
    (``key_bar``)."""
    """Each side's chance to win, when this person's win bar is on."""
    viewer: int | None = CALLER_SEAT
    """The seat whose hand this view shows, or None for a watcher."""
    size: tuple[int, int] = (SCREEN_COLS, SCREEN_ROWS)
    """The caller's terminal (cols, rows): a wide one has the log and chat beside."""


REDRAW_OFFER: Final = "^L redraw  q quit"
AGREE_OFFER: Final = "w win bar  q quit"
"""Offered in ``REDRAW_OFFER``'s place at the end of a table's key bar while a request
for the win bar waits on the player: as wide (the bar fits 80 columns as it did), and the
key bar is what a phone's row of keys shows (door/term/offers.py), which had no w. ^L
still redraws."""


def key_bar(view: TableView) -> str:
    """The status line ``view`` shows: its step's keys, with w while the win bar waits
    on this player."""
    if view.win_bar_asked and view.status.endswith(REDRAW_OFFER):
        return view.status[: -len(REDRAW_OFFER)] + AGREE_OFFER
    return view.status


def draw_table(
    view: TableView, layers: Layers | None = None
) -> tuple[Canvas, tuple[int, int] | None]:
    """The frame for ``view``, and where the cursor belongs (None: hidden). With
    ``layers`` (the person's own, kept between frames) only the parts of the screen
    whose inputs changed since the last frame are drawn again."""
    cols, rows = canvas_size(view.size)
    top = picture_top(rows)
    drawn = table_layers(view, cols)
    if top:  # a tall wide window: the picture in its middle, the side pane full height
        drawn = [layer if layer[0] == PANE else _moved_down(layer, top) for layer in drawn]
    canvas, results = (layers or Layers()).frame(cols, rows, drawn)
    return _finished(canvas, results, view, top)


def _finished(
    canvas: Canvas, results: dict[str, Any], view: TableView, top: int
) -> tuple[Canvas, tuple[int, int] | None]:
    """``canvas`` as laid by ``Layers``, told where its log and pane are (for a renderer
    of lines), and where the cursor belongs (None: hidden)."""
    # (Set at every frame: the layers hand back the same canvas when nothing changed.)
    has_log = not isinstance(view.panel, ShowPanel)  # a show is drawn where the log was
    canvas.log_rows = range(LOG_TOP + top, LOG_TOP + top + LOG_ROWS) if has_log else range(0)
    canvas.pane_cols = range(SCREEN_COLS, canvas.cols) if canvas.cols >= WIDE_COLS else range(0)
    cursor = results.get("entry")
    if view.overlay is not None or cursor is None:
        return canvas, None
    return canvas, (cursor[0] + top, cursor[1])


def redraw_win_bar(view: TableView, layers: Layers) -> tuple[Canvas, tuple[int, int] | None] | None:
    """The frame ``layers`` drew last for ``view`` with only its win bar drawn again,
    from ``view.win_chances`` (worked out after that frame was sent): one row laid, the
    rest of the frame as it was, the cursor where it was. None when the last frame
    showed no win bar (draw the whole table with ``draw_table``)."""
    if view.win_chances is None:
        return None
    layer = _win_bar_layer(view, view.win_chances, tuple(side_names(view.names, view.game.sides)))
    top = picture_top(canvas_size(view.size)[1])
    redrawn = layers.redraw(_moved_down(layer, top) if top else layer)
    if redrawn is None:
        return None
    return _finished(*redrawn, view, top)


def redraw_step(view: TableView, layers: Layers) -> tuple[Canvas, tuple[int, int] | None] | None:
    """The frame ``layers`` drew last for ``view`` with only the layers a step's keys
    change drawn again where their keys changed: the hand (its bar, its marks), the cut's
    panel, the log and the side pane (scrolled), the line being typed, the message, the
    clock and the key bar. A move of the highlight bar draws the hand's labels and lays
    their row, where ``draw_table`` builds every layer's key and compares them all.

    Only for a view whose every other input is the last frame's: the same game, names,
    header, panel (or a cut's panel in place of one), win bar, size and overlay
    (door/table/step_frame.py makes sure). None when the last frame had other step
    layers (a line being typed, a clock, come or gone) or a show's panel, which has no
    hand: draw the whole table with ``draw_table``. The layers are written out as in
    ``table_layers`` (tests/door/table/test_step_frame.py holds them to it)."""
    panel, hand = view.panel, view.hand
    if isinstance(panel, ShowPanel) or view.overlay is not None:
        return None
    step: list[Layer] = [
        ("hand labels", (draw_hand_labels, hand.cards, hand.bar, hand.marked), None),
        ("hand", (draw_hand_cards, hand.cards, hand.marked, hand.unplayable), None),
        ("log", (draw_kept_log, view.log.kept(LOG_ROWS), view.log.back), None),
        ("message", (_draw_message, view.message, view.error), None),
        ("status", (_draw_status, key_bar(view)), None),
    ]
    if isinstance(panel, CutPanel):
        step.append(("cut", (_draw_cut, panel), None))
    if view.entry is not None:
        step.append(("entry", ALWAYS, partial(draw_entry, entry=view.entry)))
    elif layers.last_key("entry") is not None:
        return None
    if view.clock:
        step.append(("clock", (_draw_clock, view.clock), None))
    elif layers.last_key("clock") is not None:
        return None
    cols, rows = canvas_size(view.size)
    top = picture_top(rows)
    if top:
        step = [_moved_down(layer, top) for layer in step]
    if cols >= WIDE_COLS:  # the pane shows the log scrolled as the picture's log does
        step.append((PANE, (_draw_log_pane, view.log.kept()), None))
    redrawn = layers.redraw(*step)
    if redrawn is None:
        return None
    return _finished(*redrawn, view, top)


def _win_bar_layer(view: TableView, chances: tuple[float, ...], sides: tuple[str, ...]) -> Layer:
    game, viewer = view.game, view.viewer
    own = None if viewer is None else game.side_of(viewer)
    names = _bar_names(sides, game.players, own)
    return "win bar", (draw_win_bar, names, chances, view.win_bar_current), None


PANE: Final = "side pane"


def _moved_down(layer: Layer, top: int) -> Layer:
    """``layer`` drawn ``top`` rows lower (its key says so, so a move redraws it)."""
    name, key, draw = layer
    if draw is None:
        return name, (_draw_lower, top, *key), None  # type: ignore[misc]
    return name, key, lambda canvas: draw(Shifted(canvas, top))


def _draw_lower(canvas: Canvas, top: int, draw: Callable[..., object], *args: Hashable) -> object:
    return draw(Shifted(canvas, top), *args)


def shows_win_bar(panel: Panel | None) -> bool:
    """Whether the table screen has room for the win bar with ``panel`` up: the show's
    panel takes the rows where it stands."""
    return not isinstance(panel, ShowPanel)


def table_layers(view: TableView, cols: int) -> list[Layer]:
    """The game screen for ``view``, bottom layer first. Each layer but the entry is
    ``(name, (draw, *args), None)``, drawing ``draw(canvas, *args)``: the function and
    the arguments are its key, so it is drawn again exactly when one of them changes
    (they must be values, never changed in place). Written out, not made by a helper a
    layer: this runs for every frame."""
    game, names, panel, viewer = view.game, view.names, view.panel, view.viewer
    sides = side_names(names, game.sides)
    # Once the crib is counted the engine has already passed the deal on; while that
    # count is on screen, the hand's dealer is still the one who owns the crib.
    hand_dealer = panel.seat if isinstance(panel, ShowPanel) and panel.is_crib else game.dealer
    dealer = None if game.phase is Phase.CUT_FOR_DEAL else game.side_of(hand_dealer)
    scores = tuple(game.scores)
    layers: list[Layer] = [
        ("header", (draw_header, sides, scores, dealer, tuple(view.header)), None),
        ("board", (draw_bare_board, BOARD_TOP, len(sides)), None),
        ("pegs", (draw_pegs, BOARD_TOP, scores, tuple(game.previous_scores), sides), None),
    ]
    append = layers.append
    if isinstance(panel, ShowPanel):  # (no win bar: see shows_win_bar)
        append(("show", (draw_show, panel, tuple(names), viewer), None))
    else:
        cards_out = game.phase in _CARDS_OUT
        if isinstance(panel, CutForDealPanel):
            append(("cut for deal", (draw_cut_for_deal, panel, tuple(names)), None))
        elif isinstance(panel, CutPanel):
            append(("cut", (_draw_cut, panel), None))
        elif cards_out:
            plays = tuple(game.plays)
            count_cards = tuple(game.count_cards)
            played = (draw_played, plays, count_cards, game.phase is Phase.PLAY, game.sides)
            append(("played", played, None))
        if cards_out:
            append(("side panel", (_draw_side_panel, *_side_panel(game, names, viewer)), None))
        hand = view.hand
        append(("hand labels", (draw_hand_labels, hand.cards, hand.bar, hand.marked), None))
        append(("hand", (draw_hand_cards, hand.cards, hand.marked, hand.unplayable), None))
        append(("log rule", _LOG_RULE, None))
        append(("log", (draw_kept_log, view.log.kept(LOG_ROWS), view.log.back), None))
        if view.win_chances is not None:
            append(_win_bar_layer(view, view.win_chances, sides))
        if isinstance(panel, GameOverPanel):
            over = (draw_game_over, panel, sides, _side_of(game, viewer))
            append(("game over", over, None))
    if view.entry is not None:
        # The line being typed changes with every key: drawn each frame (one row).
        append(("entry", ALWAYS, partial(draw_entry, entry=view.entry)))
    append(("message", (_draw_message, view.message, view.error), None))
    if view.clock:
        append(("clock", (_draw_clock, view.clock), None))
    append(("status", (_draw_status, key_bar(view)), None))
    if cols >= WIDE_COLS:
        append((PANE, (_draw_log_pane, view.log.kept()), None))
    if isinstance(view.overlay, HelpOverlay):
        append(("help", (draw_help, view.overlay), None))
    elif isinstance(view.overlay, Dialog):
        append(("dialog", (draw_dialog, view.overlay), None))
    return layers


_LOG_RULE: Final = (draw_log_rule,)


def _side_panel(
    game: Game, names: tuple[str, ...], viewer: int | None
) -> tuple[Card | None, int, str, tuple[tuple[str, int], ...]]:
    """What the side panel draws: the starter, the crib's cards and owner, and how many
    cards each other player holds. (At most frames: a list, not a generator, and the
    partner's name looked up only where there is one.)"""
    players, dealer = game.players, game.dealer
    called = names if players != 4 else _panel_names(tuple(names), players, viewer)
    crib_owner = "Yours" if dealer == viewer else f"{called[dealer]}'s"
    hand = game.hand
    others = [(called[seat], len(hand(seat))) for seat in range(players) if seat != viewer]
    return game.starter, len(game.crib), crib_owner, tuple(others)


@functools.lru_cache(maxsize=1024)
def _panel_names(names: tuple[str, ...], players: int, viewer: int | None) -> tuple[str, ...]:
    """The side panel's names: in the four-handed game the viewer's partner (across the
    table) is "Partner", so that "Computer 2" is not taken for an opponent. (Cached:
    a table's names are the same at every frame.)"""
    if players != 4 or viewer is None:
        return names
    called = list(names)
    called[(viewer + 2) % 4] = "Partner"
    return tuple(called)


def _draw_log_pane(canvas: Canvas, kept: Sequence[FlatLine]) -> None:
    draw_side_pane(canvas, "Game log and chat", lines_of(kept))


@drawn_once
def _draw_side_panel(
    canvas: Canvas,
    starter: Card | None,
    crib_cards: int,
    crib_owner: str,
    others: Sequence[tuple[str, int]],
) -> None:
    draw_side_panel(
        canvas,
        starter=starter,
        dealt=True,
        crib_cards=crib_cards,
        crib_owner=crib_owner,
        others=others,
    )


@drawn_once
def _draw_message(canvas: Canvas, text: str, error: bool) -> None:
    draw_message(canvas, text, error=error)


_draw_status: Final = drawn_once(draw_status)
_draw_cut: Final = drawn_once(draw_cut)
"""The status line, the message, the cut and the side panel are kept as drawn, by their
arguments: the same texts and panels come back at every turn, for every caller."""


def _draw_clock(canvas: Canvas, clock: str) -> None:
    text = f" {clock} left "
    # On the entry row's right end, clear of the prompt on the message row.
    canvas.put(ENTRY_ROW, SCREEN_COLS - 1 - len(text), text, theme.STATUS)


def _side_of(game: Game, seat: int | None) -> int | None:
    return None if seat is None else game.side_of(seat)


@functools.lru_cache(maxsize=1024)
def _bar_names(sides: tuple[str, ...], players: int, own: int | None) -> tuple[str, ...]:
    """The win bar's names, ``own`` being the viewer's side (None: a watcher): the
    viewer's own side is "You"; with partners, the other side is "Opponents" (two names
    and an ampersand do not fit beside the bar). (Cached: the same at every frame.)"""
    if own is not None and players == 4:
        return tuple("You" if side == own else "Opponents" for side in range(len(sides)))
    return tuple("You" if side == own else _short(name) for side, name in enumerate(sides))


def _short(name: str) -> str:
    """A side's name as the bar has room for: a partnership by its first partner."""
    if len(name) <= 14 or " & " not in name:
        return name
    return f"{name.split(' & ')[0][:9]} & co"
