"""The words of the chat before each hand, from one player's seat.

Before a hand every player has a chat line open (door/table/person.py): letters are
text there, so the table's keys (``h`` coach, ``w`` win bar, ``q`` quit) would be
words. Esc on a blank line closes the line and the keys work; RETURN still deals (or
says ready), ``c`` chats, and Esc again asks to quit. Both key lines say so, the chat
line's within 80 columns: it said "Type to chat" (the prompt above it says "Chat") and
"^L redraw" (which works everywhere) and had no room left for how to quit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BeforeDeal:
    """What one player reads before hand ``hand``: with the chat line open (``prompt``,
    ``status``) and with it closed (``keys_prompt``, ``keys_status``)."""

    prompt: str
    status: str
    keys_prompt: str
    keys_status: str
    deals: bool
    """RETURN deals (this player deals, or is the computer's only caller) or says ready."""
    blank_line: str
    """Why a blank line (or a key that is no text) did nothing, the chat line open."""
    keys_hint: str
    """What to press instead of a key that does nothing, the chat line closed."""


def before_deal(
    hand: int, dealer: str, *, i_deal: bool, computer_deals: bool, alone: bool, coach: bool
) -> BeforeDeal:
    """``dealer``'s name; ``alone``: the only caller at a table the computer deals at;
    ``coach``: h works (against the computer)."""
    h = "  h coach" if coach else ""
    if i_deal or (computer_deals and alone):
        who = "you deal" if i_deal else f"{dealer} deals"
        return BeforeDeal(
            f"Hand {hand}: {who}. Chat, or RETURN on a blank line to deal.",
            "RETURN on a blank line: deal  Esc table keys  ? help  Esc Esc quit",
            f"Hand {hand}: {who}. Press RETURN to deal, or a key below.",
            f"RETURN deal  c chat  w win bar{h}  ? help  q quit",
            True,
            "Type a line to chat, or press RETURN on a blank line to deal.",
            "press RETURN to deal, or a key below",
        )
    if computer_deals:
        return BeforeDeal(
            f"Hand {hand}: {dealer} deals. Chat; RETURN on a blank line: ready.",
            "RETURN on a blank line: ready  Esc table keys  ? help  Esc Esc quit",
            f"Hand {hand}: {dealer} deals. Press RETURN when ready, or a key below.",
            f"RETURN ready  c chat  w win bar{h}  ? help  q quit",
            True,
            "Type a line to chat, or press RETURN on a blank line when ready.",
            "press RETURN when ready, or a key below",
        )
    return BeforeDeal(
        f"Hand {hand}: {dealer} deals. Chat while {dealer} gets ready to deal.",
        "Type to chat  RETURN send  Esc table keys  ? help  Esc Esc quit",
        f"Hand {hand}: {dealer} deals. The keys below work while you wait.",
        f"{dealer} to deal  c chat  w win bar{h}  ? help  q quit",  # (a handle of 20 fits)
        False,
        f"{dealer} deals: type a line to chat while you wait.",
        f"{dealer} deals: c chats while you wait",
    )
