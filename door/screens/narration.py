"""Game events told in words for the log: "Computer plays 5♥ (count 15). Fifteen two:
Computer pegs 2."."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from door.screens.cards import card_face
from door.screens.game_over import GameOverPanel, headline, skunk_text
from door.screens.show import result_text
from door.screens.theme import CALLER_SEAT
from engine.events import (
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


def subject(seat: int, names: Sequence[str], *, capital: bool = True) -> str:
    """Who did it: "You" (or "you" mid-sentence) for the caller, else the name."""
    if seat == CALLER_SEAT:
        return "You" if capital else "you"
    return names[seat]


def verb(seat: int, base: str) -> str:
    """``play`` for the caller ("You play"), ``plays`` for the computer."""
    return base if seat == CALLER_SEAT else base + "s"


def describe(event: Event, names: Sequence[str]) -> str:
    """One event as a short sentence; "" for events that need no words."""
    if isinstance(event, CardPlayed):
        who = subject(event.seat, names)
        return f"{who} {verb(event.seat, 'play')} {card_face(event.card)} (count {event.count})."
    if isinstance(event, Pegged):
        if event.reason in ("hand", "crib") or event.reason.startswith("muggins"):
            return ""  # the show's result sentence says it, muggins included
        reason = event.reason[0].upper() + event.reason[1:]
        who = subject(event.seat, names, capital=False)
        return f"{reason}: {who} {verb(event.seat, 'peg')} {event.points}."
    if isinstance(event, GoSaid):
        return f"{subject(event.seat, names)} cannot play: go."
    if isinstance(event, CountReset):
        return "The count starts again at 0." if event.leader is not None else "All cards played."
    if isinstance(event, HandDealt):
        dealer = subject(event.dealer, names, capital=False)
        return f"Hand {event.hand_number}: {dealer} {verb(event.dealer, 'deal')}."
    if isinstance(event, Discarded):
        if event.seat == CALLER_SEAT:
            return ""  # the table says which cards the caller threw
        return f"{names[event.seat]} throws {event.count} cards to the crib."
    if isinstance(event, StarterCut):
        who = subject(event.cutter, names)
        return (
            f"{who} {verb(event.cutter, 'cut')} card {event.position}: "
            f"the starter is {card_face(event.card)}."
        )
    if isinstance(event, CutForDeal):
        cuts = ", ".join(
            f"{subject(seat, names)} {verb(seat, 'cut')} {card_face(card)}"
            for seat, card in event.draws
        )
        if event.dealer is None:
            return f"{cuts}: a tie, cut again."
        dealer = subject(event.dealer, names, capital=False)
        return f"{cuts}: low card deals, {dealer} first."
    if isinstance(event, ShowScored):
        return result_text(event, names)
    if isinstance(event, GameOver):
        skunk = event.skunks[0][1] if event.skunks else None
        panel = GameOverPanel(event.winner_seat, event.scores, skunk)
        return " ".join(part for part in (headline(panel, names), skunk_text(panel, names)) if part)
    return ""


def narrate(events: Iterable[Event], names: Sequence[str]) -> str:
    """What one action did, as one line of sentences."""
    return " ".join(text for text in (describe(event, names) for event in events) if text)
