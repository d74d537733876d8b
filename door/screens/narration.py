"""Game events told in words for the log: "Computer plays 5♥ (count 15). Fifteen two:
Computer pegs 2.".

Every sentence is told to one ``viewer``: the seat reading it is "you", everyone else is
named. A watcher (``viewer=None``) sees every player named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from door.screens.cards import card_face
from door.screens.game_over import GameOverPanel, headline, skunk_text
from door.screens.show import result_text
from door.screens.theme import CALLER_SEAT
from engine.rules.events import (
    CardPlayed,
    CountReset,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoSaid,
    HandDealt,
    Pegged,
    ShowScored,
    StarterCut,
)


def subject(
    seat: int, names: Sequence[str], *, capital: bool = True, viewer: int | None = CALLER_SEAT
) -> str:
    """Who did it: "You" (or "you" mid-sentence) for the viewer, else the name."""
    if seat == viewer:
        return "You" if capital else "you"
    return names[seat]


def verb(seat: int, base: str, viewer: int | None = CALLER_SEAT) -> str:
    """``play`` for the viewer ("You play"), ``plays`` for anyone else."""
    return base if seat == viewer else base + "s"


def describe(event: Event, names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    """One event as a short sentence for ``viewer``; "" for events that need no words.

    ``names`` are the seats' names; scores belong to sides, which matters only in the
    four-handed game, where the game-over line names the partnership."""

    def named(seat: int, *, capital: bool = True) -> str:
        return subject(seat, names, capital=capital, viewer=viewer)

    def does(seat: int, base: str) -> str:
        return verb(seat, base, viewer)

    if isinstance(event, CardPlayed):
        who = named(event.seat)
        return f"{who} {does(event.seat, 'play')} {card_face(event.card)} (count {event.count})."
    if isinstance(event, Pegged):
        if event.reason in ("hand", "crib") or event.reason.startswith("muggins"):
            return ""  # the show's result sentence says it, muggins included
        reason = event.reason[0].upper() + event.reason[1:]
        who = named(event.seat, capital=False)
        return f"{reason}: {who} {does(event.seat, 'peg')} {event.points}."
    if isinstance(event, GoSaid):
        return f"{named(event.seat)} cannot play: go."
    if isinstance(event, CountReset):
        return "The count starts again at 0." if event.leader is not None else "All cards played."
    if isinstance(event, HandDealt):
        dealer = named(event.dealer, capital=False)
        return f"Hand {event.hand_number}: {dealer} {does(event.dealer, 'deal')}."
    if isinstance(event, Discarded):
        if event.seat == viewer:
            return ""  # the table says which cards the viewer threw
        cards = "a card" if event.count == 1 else f"{event.count} cards"
        return f"{names[event.seat]} throws {cards} to the crib."
    if isinstance(event, StarterCut):
        who = named(event.cutter)
        return (
            f"{who} {does(event.cutter, 'cut')} card {event.position}: "
            f"the starter is {card_face(event.card)}."
        )
    if isinstance(event, CutForDeal):
        cuts = ", ".join(
            f"{named(seat, capital=index == 0)} {does(seat, 'cut')} {card_face(card)}"
            for index, (seat, card) in enumerate(event.draws)
        )
        if event.dealer is None:
            return f"{cuts}: a tie, cut again."
        dealer = named(event.dealer, capital=False)
        return f"{cuts}: low card deals, {dealer} first."
    if isinstance(event, ShowScored):
        return result_text(event, names, viewer)
    if isinstance(event, GameOver):
        sides = side_names(names, len(event.scores))
        panel = GameOverPanel(event.outcome)
        mine = None if viewer is None else viewer % len(event.scores)
        parts = (headline(panel, sides, mine), skunk_text(panel, sides, mine))
        return " ".join(part for part in parts if part)
    return ""


def narrate(events: Iterable[Event], names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    """What one action did, as one line of sentences, told to ``viewer``."""
    described = (describe(event, names, viewer) for event in events)
    return " ".join(text for text in described if text)


def side_names(names: Sequence[str], sides: int) -> tuple[str, ...]:
    """What each side is called: the player, or in the four-handed game both partners."""
    if sides == len(names):
        return tuple(names)
    return tuple(
        " & ".join(names[seat] for seat in range(side, len(names), sides)) for side in range(sides)
    )
