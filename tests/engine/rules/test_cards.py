import pickle
import random

import pytest

import engine
from engine import FULL_DECK, Card, Deck, NotationError, Rank, Suit, format_cards, parse_cards


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_every_card_round_trips_through_its_notation(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("ah", Rank.ACE, Suit.HEARTS),
        ("5\u2660", Rank.FIVE, Suit.SPADES),
        ("Q\u2665", Rank.QUEEN, Suit.HEARTS),
        ("J\u2666", Rank.JACK, Suit.DIAMONDS),
        ("K\u2663", Rank.KING, Suit.CLUBS),
        (" 9c ", Rank.NINE, Suit.CLUBS),
    ],
)
def test_parse_accepts_letters_ten_and_suit_symbols(text: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("bad", ["", "5", "1H", "11S", "ZH", "5X", "5HH", "QQ", "\x1b[2J"])
def test_bad_card_notation_names_the_token(bad: str) -> None:
    with pytest.raises(NotationError) as error:
        Card.parse(bad)
    assert repr(bad) in str(error.value)
    assert isinstance(error.value, ValueError)


def test_parse_cards_reads_a_hand_and_names_the_bad_token() -> None:
    assert format_cards(parse_cards("5H 5D 5S JC")) == "5H 5D 5S JC"
    assert format_cards(parse_cards("10h,  qs,3c")) == "TH QS 3C"
    with pytest.raises(NotationError, match="'5Z'"):
        parse_cards("5H 5Z JC")
    with pytest.raises(NotationError, match="twice"):
        parse_cards("5H 5H")


def test_cards_are_ordered_by_rank_then_suit_and_immutable() -> None:
    assert sorted(parse_cards("KS AH 5D 5S")) == parse_cards("AH 5S 5D KS")
    card = Card.parse("5H")
    with pytest.raises(AttributeError):
        card.rank = Rank.SIX  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card
    assert len(set(FULL_DECK)) == 52


def test_pips() -> None:
    assert [Card.parse(t).pips for t in "AS 2S 9S TS JS QS KS".split()] == [1, 2, 9, 10, 10, 10, 10]


def test_the_same_seed_gives_the_same_deck() -> None:
    first = Deck(random.Random(42)).deal(52)
    second = Deck(random.Random(42)).deal(52)
    assert first == second
    assert sorted(first) == sorted(FULL_DECK)
    assert first != Deck(random.Random(43)).deal(52)


def test_deal_past_the_end_of_the_deck_is_refused() -> None:
    deck = Deck(random.Random(1))
    deck.deal(50)
    with pytest.raises(engine.IllegalActionError):
        deck.deal(3)
    assert len(deck) == 2
