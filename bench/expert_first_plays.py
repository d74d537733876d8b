"""Which card the expert lays first from every four-card hand of ranks: the table by which the
master reads the opponent's first card (``engine.computer.discard_draws``).

    nice -n 19 python bench/expert_first_plays.py [--contexts 8] [--jobs 2] [--write]

For every multiset of four ranks kept (1,820 of them) the expert lays its first card of the
hand: as pone the lead (nothing on the count), as dealer its answer to each rank the pone may
lead. What it lays turns on more than its four cards (the starter and its two crib cards
change the cards it cannot see, and so the search's odds), so each is played in
``--contexts`` deals drawn at random: the two it threw drawn from the throws the expert
makes when it keeps these four in that role (``engine/data/expert_throws.bin``), the starter
from the cards left; and the table counts, for each rank it holds, in how many of those deals
it laid that rank. The game at 0 to 0: the expert plays for points until a side reaches
``ENDGAME_FROM``.

``--write`` saves ``engine/data/expert_first_plays.bin``: for the hands in the order of
``engine.computer.discard_draws.four_rank_hands``, fourteen little-endian 16-bit words each
(the lead, then the answer to an ace, a two, ... a king), each four counts of four bits, the
lowest for the lowest rank held (a rank held twice counted at its first place); a word is
0 where that lead cannot be (a fifth card of a rank).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.discard_draws import (  # noqa: E402
    expert_keeps,
    four_rank_hands,
    six_rank_hands,
    three_rank_hands,
)
from engine.computer.play import choose_play  # noqa: E402
from engine.rules.cards import Card, Rank, Suit  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "engine" / "data"
OUT = DATA / "expert_first_plays.bin"
OUT_SECOND = DATA / "expert_second_plays.bin"
LEADS = 14  # the lead (0), then the answer to a lead of each rank 1..13


@cache  # once a process, not once a task
def throws_by_keep(role: str) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """For each four ranks the expert keeps in ``role``, the two ranks it throws with them."""
    found: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for six, kept in expert_keeps()[role].items():
        rest = list(six)
        for rank in kept:
            rest.remove(rank)
        found.setdefault(kept, []).append(tuple(rest))
    return found


def take_rank(deck: list[Card], rank: int) -> Card:
    """Takes a card of ``rank`` out of ``deck``."""
    card = next(card for card in deck if card.rank == rank)
    deck.remove(card)
    return card


def deal_around(
    rng: random.Random,
    held: Sequence[int],
    count: Sequence[int],
    throws: Sequence[tuple[int, ...]],
) -> tuple[list[Card], list[Card], list[Card], Card]:
    """A deal drawn at random around the ranks ``held`` and those on the ``count``: the
    hand's cards, the count's, the two thrown (one of ``throws`` that the deck left still
    holds, else any two) and the starter."""
    deck = [Card(Rank(rank), suit) for rank in range(1, 14) for suit in Suit]
    rng.shuffle(deck)
    hand = [take_rank(deck, rank) for rank in held]
    count_cards = [take_rank(deck, rank) for rank in count]
    fitting = [
        pair
        for pair in throws
        if all(sum(1 for card in deck if card.rank == rank) >= pair.count(rank) for rank in pair)
    ]
    if fitting:
        thrown = [take_rank(deck, rank) for rank in rng.choice(fitting)]
    else:
        thrown = [deck.pop(), deck.pop()]
    return hand, count_cards, thrown, deck.pop()


def packed(held: tuple[int, ...], counts: Counter[int]) -> int:
    """``counts`` (by rank) as a table's word: four bits a place of ``held``, a rank held
    twice counted at its first place."""
    word = 0
    for index, rank in enumerate(held):
        if held.index(rank) == index:
            word |= counts[rank] << (4 * index)
    return word


def first_play_counts(task: tuple[int, int, int]) -> list[int]:
    """The packed words of the hands ``four_rank_hands()[start:end]`` (see the module
    docstring), from ``contexts`` deals each, seeded by the hand's place."""
    start, end, contexts = task
    hands = four_rank_hands()
    throws = {role: throws_by_keep(role) for role in ("pone", "dealer")}
    words: list[int] = []
    for place in range(start, end):
        kept = hands[place]
        rng = random.Random(place)
        for lead in range(LEADS):
            role = "pone" if lead == 0 else "dealer"
            if lead and kept.count(lead) == 4:
                words.append(0)
                continue
            counts = Counter[int]()
            for _ in range(contexts):
                keep_cards, count_cards, thrown, starter = deal_around(
                    rng, kept, [lead] if lead else [], throws[role].get(kept, [])
                )
                card = choose_play(
                    keep_cards,
                    count_cards,
                    played=count_cards,
                    starter=starter,
                    discards=thrown,
                    kept=keep_cards,
                    dealer=role == "dealer",
                    level="expert",
                    opp_cards_left=3 if lead else 4,
                )
                assert card is not None
                counts[int(card.rank)] += 1
            words.append(packed(kept, counts))
    return words


def second_play_counts(task: tuple[int, int, int]) -> list[int]:
    """The packed words of the pone's second card for the hands
    ``three_rank_hands()[start:end]`` (see the module docstring), from ``contexts`` deals
    each, seeded by the hand's place."""
    start, end, contexts = task
    hands = three_rank_hands()
    throws = throws_by_keep("pone")
    words: list[int] = []
    for place in range(start, end):
        held = hands[place]
        rng = random.Random(1_000_000 + place)
        for lead in range(1, 14):
            kept = tuple(sorted((*held, lead)))
            for answer in range(1, 14):
                if kept.count(lead) > 4 or (*kept, answer).count(answer) > 4:
                    words.append(0)
                    continue
                counts = Counter[int]()
                for _ in range(contexts):
                    hand, count_cards, thrown, starter = deal_around(
                        rng, held, [lead, answer], throws.get(kept, [])
                    )
                    card = choose_play(
                        hand,
                        count_cards,
                        played=count_cards,
                        starter=starter,
                        discards=thrown,
                        kept=[*hand, count_cards[0]],
                        dealer=False,
                        level="expert",
                        opp_cards_left=3,
                        opp_played=count_cards[1:],
                    )
                    assert card is not None  # a count of two cards is at most 20
                    counts[int(card.rank)] += 1
                words.append(packed(held, counts))
    return words


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=8, help="deals a hand is played in")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--second", action="store_true", help=f"the pone's second card ({OUT_SECOND.name})"
    )
    parser.add_argument("--write", action="store_true", help="save the table")
    args = parser.parse_args()
    if not 1 <= args.contexts <= 15:
        parser.error("--contexts is 1 to 15 (four bits a count)")
    started = time.time()
    if args.second:
        hands, step, counter, out = three_rank_hands(), 5, second_play_counts, OUT_SECOND
        what = "the pone's second card after each lead and answer"
    else:
        hands, step, counter, out = four_rank_hands(), 20, first_play_counts, OUT
        what = f"{LEADS} first plays each"
    tasks = [(at, min(at + step, len(hands)), args.contexts) for at in range(0, len(hands), step)]
    words: list[int] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(counter, tasks):
            words.extend(part)
    seconds = time.time() - started
    print(f"{len(hands):,} hands of {len(hands[0])} ranks, {what}, {seconds:.0f} s")
    sure = sum(
        1
        for word in words
        if word and max((word >> s) & 15 for s in (0, 4, 8, 12)) == args.contexts
    )
    possible = sum(1 for word in words if word)
    print(f"the same card in every deal: {sure / possible:.3f} of {possible:,}")
    six = len(six_rank_hands())
    print(f"(the throws read from {six:,} hands of six)")
    if args.write:
        out.write_bytes(b"".join(word.to_bytes(2, "little") for word in words))
        print(f"wrote {out} ({2 * len(words):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
