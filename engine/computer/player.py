"""The computer player: what to throw to the crib and which card to play.

Three levels:

``easy``
    Legal and simple: a random discard and a random card that fits.
``normal``
    Keeps the four cards with the best expected show (over every starter),
    paying no attention to the crib beyond breaking ties; plays the card that
    pegs most now.
``expert``
    Discards by the exact expected value of the kept hand plus (own crib) or
    minus (the opponent's) the exact expected crib, the opponent's crib cards
    weighted by how often players really throw them; pegs by an expectimax
    search over the cards the opponent may hold. Near 121 both choices
    maximise the chance to win instead of expected points.

``master``
    The expert's search and tables, playing to win the game rather than for points:
    with two players every discard is valued by the chance to win it gives (the hand's
    and the crib's distributions run through the board position, plus what the kept
    cards are measured to peg), and the play is searched for the chance to win from
    the middle of the game on, the last seven cards to the end over hands the opponent
    may hold (``engine.computer.sampled_play``). With three or four
    players it does the same at the table (``engine.computer.table_discard``,
    ``engine.computer.table_play``): each throw through the rest of the deal for the
    side's chance, the crib counted for whoever owns it, and the play searched over
    every seat in turn, a partner's cards for the partnership, each point at what it is
    worth to the side that pegs it where the board stands; the last cards of that play
    are searched to the end over hands drawn for every other seat
    (``engine.computer.table_sampled``).

The level policy is ``engine.computer.levels``; what to throw is
``engine.computer.discard``, which card to lay ``engine.computer.play`` (with the
search in ``engine.computer.pegging``), and what the opponent's play tells of their cards
``engine.computer.opponent``. Both choices are pure functions of their arguments and the
``rng`` given; ``ComputerPlayer`` adapts them to ``engine.computer.selfplay.Player`` for a
``Game``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.computer.discard import choose_discard
from engine.computer.levels import MASTER_SAMPLED_FROM, check_level
from engine.computer.opponent import declined_ranks, least_pips_left
from engine.computer.play import choose_play, winning_play
from engine.computer.table_discard import table_discard
from engine.computer.table_play import table_play
from engine.rules.cards import Card
from engine.rules.errors import IllegalActionError
from engine.rules.scoring import score_show

if TYPE_CHECKING:
    from engine.rules.game import Game


class ComputerPlayer:
    """A computer seat for ``engine.rules.game.Game``
    (the ``engine.computer.selfplay.Player`` protocol).

    It sees only what its seat may see: its own cards, the cards played, the
    starter, the scores and how many cards each player holds.
    """

    def __init__(
        self,
        level: str = "expert",
        rng: random.Random | None = None,
        *,
        sampled_from: int = MASTER_SAMPLED_FROM,
    ) -> None:
        """``sampled_from``: the master searches the play to its end over sampled hands
        once the two hands hold at most that many cards (two players; 0: never; see
        ``engine.computer.play.choose_play``)."""
        check_level(level)
        self.level = level
        self.sampled_from = sampled_from
        self.rng = rng if rng is not None else random.Random()
        self._thrown: dict[tuple[int, int, int], tuple[Card, ...]] = {}

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.level!r})"

    def _scores(self, game: Game, seat: int) -> tuple[int, int]:
        mine = game.score_of(seat)
        theirs = max(score for side, score in enumerate(game.scores) if side != game.side_of(seat))
        return mine, theirs

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        if self.level == "master" and game.players > 2:
            thrown = table_discard(game, seat)
            self._thrown = {(id(game), game.hand_number, seat): thrown}
            return thrown
        my_score, opp_score = self._scores(game, seat)
        thrown = choose_discard(
            game.hand(seat),
            dealer=game.dealer == seat,
            players=game.players,
            level=self.level,
            my_score=my_score,
            opp_score=opp_score,
            rng=self.rng,
            crib_is_ours=game.side_of(game.dealer) == game.side_of(seat),
        )
        self._thrown = {(id(game), game.hand_number, seat): thrown}
        return thrown

    def cut(self, game: Game, seat: int) -> int:
        return self.rng.randint(1, game.stock_size)

    def play(self, game: Game, seat: int) -> Card:
        winning = winning_play(game, seat)
        if winning is not None:
            return winning  # a certain win beats any plan for points, at every level
        if self.level == "master" and game.players > 2:
            return table_play(game, seat, self._thrown.get((id(game), game.hand_number, seat), ()))
        my_score, opp_score = self._scores(game, seat)
        current = game.plays[-len(game.count_cards) :] if game.count_cards else []
        # We are to play again on a count we played last: everyone else has said go.
        opp_said_go = bool(current) and current[-1].seat == seat
        card = choose_play(
            game.hand(seat),
            game.count_cards,
            played=[play.card for play in game.plays],
            starter=game.starter,
            runs=game.runs,
            level=self.level,
            my_score=my_score,
            opp_score=opp_score,
            opp_cards_left=len(game.hand(game.seat_after(seat))),
            dealer=game.side_of(game.dealer) == game.side_of(seat),
            rng=self.rng,
            opp_said_go=opp_said_go,
            discards=self._thrown.get((id(game), game.hand_number, seat), ()),
            kept=game.kept(seat) or None,
            opp_min_pips=least_pips_left(game, seat) if game.players == 2 else 1,
            opp_played=[play.card for play in game.plays if play.seat != seat]
            if game.players == 2
            else None,
            opp_declined=declined_ranks(game, seat)
            if game.players == 2 and self.level == "master"
            else (),
            sampled_from=self.sampled_from if game.players == 2 else 0,
        )
        if card is None:  # the game only asks a seat that can play
            raise IllegalActionError("no card of this hand fits on the count")
        return card

    def claim(self, game: Game, seat: int) -> int:
        """The true count of the hand being shown: the computer never miscounts."""
        showing = game.showing
        if showing is None or game.starter is None:
            raise IllegalActionError("there is no hand to count now")
        shown_seat, is_crib = showing
        cards = game.crib if is_crib else game.kept(shown_seat)
        return score_show(cards, game.starter, crib=is_crib).total
