"""The table in words for a screen reader: cards named ("ten of diamonds"), a hand read
out numbered, the score and the board as sentences.

Pure functions of cards and scores, so the reader at a table (door/table/reader.py) says
the same things the same way and a wording is tested without a table.

>>> from engine.rules.cards import Card
>>> card_words(Card.parse("TD"))
'ten of diamonds'
>>> spoken("Computer plays 5♥ (count 15). The starter is 10♠.")
'Computer plays five of hearts (count 15). The starter is ten of spades.'
>>> spoken("You throw 5♥ 10♦ K♣ to your crib.")
'You throw five of hearts, ten of diamonds and king of clubs to your crib.'
>>> numbered([Card.parse("5H"), Card.parse("JC")])
'1 five of hearts, 2 jack of clubs'
>>> score_line(("You", "Computer"), (45, 52), dealer="You")
'You 45, Computer 52, you deal.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.rules.cards import Card, Rank, Suit

WINNING_SCORE: Final = 121


@dataclass(frozen=True)
class Said:
    """A screen in words, as door/ui/speech_renderer.py says it: ``sentences`` (each said
    once, when new), then ``message`` (said when it changes, and after every line the
    caller types) and ``prompt`` (what is awaited), then the line the caller has
    ``typed`` so far."""

    sentences: tuple[str, ...]
    message: str = ""
    prompt: str = ""
    typed: str = ""


SEE_THE_KEYS: Final = "see the keys below"
"""Where a screen's message sends the caller for the keys that work (a key that does
nothing): the key line under it. Said, it is the keys themselves (``keys_for_pointer``)."""
SEE_THE_KEYS_ABOVE: Final = "see the keys above"
"""The same in the lobby, whose menu of keys is above its message."""


def keys_for_pointer(message: str, keys: str) -> str:
    """``message`` as said: one that sends the caller to the keys on the screen, which a
    screen reader's caller has not got, says ``keys`` (the keys in words) instead.

    >>> keys_for_pointer("The 'z' key does nothing here: see the keys below.",
    ...                  "Keys: l lock, back to go back.")
    "The 'z' key does nothing here. Keys: l lock, back to go back."
    >>> keys_for_pointer("Ada is locked.", "Keys: l lock.")
    'Ada is locked.'
    """
    for pointer in (SEE_THE_KEYS, SEE_THE_KEYS_ABOVE):
        ending = f": {pointer}."
        if message.endswith(ending):
            return f"{message[: -len(ending)]}. {keys}"
    return message


_RANK_WORDS: Final = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_WORDS: Final = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
_RANK_BY_FACE: Final = {("10" if rank is Rank.TEN else rank.letter): rank for rank in Rank}
_SUIT_BY_SYMBOL: Final = {suit.symbol: suit for suit in Suit}
_FACE: Final = re.compile(
    "(?<![0-9A-Za-z])(10|[2-9AJQK])([" + "".join(_SUIT_BY_SYMBOL) + "])",
)
"""A card as the screens write it (door/screens/cards.py's ``card_face``: ``5♥``,
``10♠``): the suit symbols are used for nothing else, so a face in a sentence is a card."""
_FACES: Final = re.compile(f"{_FACE.pattern}(?: {_FACE.pattern})*")
"""One face, or several side by side (a throw: ``5♥ 6♦``)."""


def card_words(card: Card) -> str:
    """``ten of diamonds``."""
    return f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"


def cards_words(cards: Sequence[Card]) -> str:
    """``five of hearts, jack of clubs and ace of spades``: cards read out."""
    return _listed([card_words(card) for card in cards])


def numbered(cards: Sequence[Card]) -> str:
    """``1 five of hearts, 2 jack of clubs``: the numbers typed to throw or play them."""
    return ", ".join(f"{number} {card_words(card)}" for number, card in enumerate(cards, 1))


def spoken(text: str) -> str:
    """A sentence of the table's with every card face in it named in words; faces
    written side by side ("5♥ 6♦") are read as a list ("five of hearts and six of
    diamonds")."""

    def named(match: re.Match[str]) -> str:
        faces = _FACE.findall(match.group(0))
        return _listed([_face_words(rank, suit) for rank, suit in faces])

    return _FACES.sub(named, text)


KEY_HINTS: Final = (
    ("Press c to chat.", "Type say and a line to chat."),
    ("press w to agree", "type chances to agree"),
    ("w asks for it again", "chances asks for it again"),
    ("here it is (w: off).", "type chances to hear it."),
    ("; r shows them.", "; type review to hear them."),
    ("(h: off)", "(coach again: off)"),
    ("(+ faster, - slower)", "(type faster or slower)"),
)
"""The table's sentences that name a full-screen key, and the words a screen reader's
caller types instead."""


def in_words(text: str) -> str:
    """A sentence of the table's as a screen reader's caller hears it: cards in words
    (``spoken``) and the keys it names as the words they type.

    >>> in_words("Bob asks for the win bar: press w to agree.")
    'Bob asks for the win bar: type chances to agree.'
    >>> in_words("Every player asked for the win bar: here it is (w: off).")
    'Every player asked for the win bar: type chances to hear it.'
    """
    text = spoken(text)
    for key_hint, word_hint in KEY_HINTS:
        text = text.replace(key_hint, word_hint)
    return text


_RATING: Final = re.compile(r"\bRating (\d+)(\??) \(([^)]*)\)")
"""A rating as door/competition/rating.py writes it, with its changes: ``Rating 1268?
(−232)``, ``Rating 1523 (newest first: +12 −7 ±0)``."""


def rating_in_words(text: str) -> str:
    """Ratings in ``text`` as a screen reader's caller hears them: the question mark of
    a provisional rating read out made a question of the line, and the minus sign and
    ``±`` are read as symbols, or not at all.

    >>> rating_in_words("Game abandoned. Rating 1268? (−232).")
    'Game abandoned. Rating 1268, provisional (minus 232).'
    >>> rating_in_words("Rating 1523 (newest first: +12 −7 ±0)")
    'Rating 1523 (newest first: +12 minus 7 no change)'
    """

    def said(match: re.Match[str]) -> str:
        rating, provisional, changes = match.groups()
        changes = changes.replace("\N{MINUS SIGN}", "minus ").replace(
            "\N{PLUS-MINUS SIGN}0", "no change"
        )
        return f"Rating {rating}{', provisional' if provisional else ''} ({changes})"

    return _RATING.sub(said, text)


def _face_words(rank: str, suit: str) -> str:
    return f"{_RANK_WORDS[_RANK_BY_FACE[rank]]} of {_SUIT_WORDS[_SUIT_BY_SYMBOL[suit]]}"


def _listed(named: list[str]) -> str:
    if not named:
        return "no cards"
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + " and " + named[-1]


SCREEN_READER_PAGE: Final = "Playing with a screen reader"
"""The title of help.txt's page for a screen reader's caller."""


def spoken_help(text: str) -> str:
    """The help a screen reader's caller hears: help.txt's page for them (the others
    are about keys and screens they do not use), its lines joined into sentences, then
    where the rest is. ``text`` is help.txt, pages between lines of ``---``.

    >>> spoken_help("Keys\\n---\\nPlaying with a screen reader\\nType words\\nand RETURN.\\n")
    'Playing with a screen reader. Type words and RETURN.'
    """
    pages = [page.strip() for page in text.split("\n---\n")]
    page = next((page for page in pages if page.startswith(SCREEN_READER_PAGE)), "")
    if not page:
        return "Type a word and press RETURN; keys says the menu again."
    title, _, body = page.partition("\n")
    return f"{title}. {' '.join(body.split())}"


def score_line(names: Sequence[str], scores: Sequence[int], dealer: str | None) -> str:
    """``You 45, Computer 52, you deal.``: each side's score, and who deals. ``names``
    are the sides as the listener reads them ("You" for their own, "You and Carol"
    with a partner); ``dealer`` is the dealer's name ("You": the listener)."""
    parts = [f"{name} {score}" for name, score in zip(names, scores, strict=True)]
    line = ", ".join(parts)
    if dealer is not None:
        line += ", you deal" if dealer == "You" else f", {dealer} deals"
    return line + "."


def board_line(names: Sequence[str], scores: Sequence[int]) -> str:
    """``You are on hole 45, 76 to go. Computer is on hole 52, 69 to go.``"""
    sentences = []
    for name, score in zip(names, scores, strict=True):
        verb = "are" if name.startswith("You") or " and " in name else "is"
        left = WINNING_SCORE - score
        where = f"on hole {score}" if score else "not yet on the board"
        togo = "the game is won" if left <= 0 else f"{left} to go"
        sentences.append(f"{name} {verb} {where}, {togo}.")
    return " ".join(sentences)
