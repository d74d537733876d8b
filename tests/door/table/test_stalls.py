"""A caller cannot stall a game between callers for ever (door/table/stalls.py): once the
game has waited ``claim_after`` seconds on one caller's move, the other may claim it,
whatever keys the staller presses meanwhile; the staller is warned first, and their move
withdraws the offer. Time is driven as the idle guard's tests drive it: a short setting
and the real loop."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from door.table.admission import person_or_reader
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.question import ClaimGame
from door.term.display import Display
from door.term.keys import Key
from door.ui.session import Session
from engine.rules.outcome import Outcome
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.reader_client import sent, speech_terminal
from tests.door.waiting import until

CLAIM_AFTER = 0.9
"""Seconds the game waits on a move before the claim is offered (the warning comes a
third of that before)."""


def flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(terminal.display).split())


class Two:
    """A started table of two callers, A and B, and who deals the first hand."""

    def __init__(
        self,
        options: GameOptions | None = None,
        names: Any = ("A", "B"),
        speech: tuple[int, ...] = (),
        plain: tuple[int, ...] = (),
        seed: int = 3,
        pause: float = 0,
    ) -> None:
        self.table: Table[Any] = Table(
            options or GameOptions(level="easy"),
            list(names),
            rng=random.Random(seed),
            admit=person_or_reader,
            pause=pause,
            claim_after=CLAIM_AFTER,
        )
        self.lines: dict[int, KeyboardTerminal] = {}
        self.attending: list[asyncio.Future[Any]] = []
        for seat in self.table.seats:
            if seat.human:
                line = speech_terminal() if seat.index in speech else KeyboardTerminal()
                if seat.index in plain:
                    line.display_mode = Display.LINES
                self.lines[seat.index] = line
                person = self.table.sit(seat.index, Session(line))
                self.attending.append(asyncio.ensure_future(person.attend()))
        self.table.start()

    async def dealer_waited_on(self) -> tuple[int, int]:
        """The dealer's seat (whom the game waits on) and the other's, once it waits."""
        await until(lambda: "deal" in self.table.waits.values(), what="a wait for the deal")
        dealer = self.table.game.dealer
        return dealer, 1 - dealer

    async def offered_the_claim(self) -> tuple[int, int]:
        """The dealer's seat (who sits on the deal) and the other's, once the other is
        offered the claim (and shown it, on a screen)."""
        staller, claimant = await self.dealer_waited_on()
        person = self.table.seats[claimant].person
        assert person is not None
        await until(lambda: offered(person), what="the offer")
        line = self.lines[claimant]
        if line.display_mode is Display.SCREEN:
            await until(lambda: "g claim the game" in line.status, what="the offer shown")
        return staller, claimant

    async def claimed(self, staller: int, claimant: int, *keys: str | Key) -> Outcome:
        """``claimant`` claims the game with ``keys`` (g): its outcome, ``staller``'s
        forfeit to the claimant's side."""
        self.lines[claimant].press(*(keys or ("g",)))
        await until(lambda: self.table.over, what="the game ended by the claim")
        outcome = self.table.game.outcome()
        assert outcome is not None
        assert outcome.forfeited_by == staller and outcome.winner_side == claimant
        return outcome

    async def drop_and_call_back(self, index: int) -> None:
        """Seat ``index``'s line drops; once the table waits for their call back, they
        call back on a new line and sit down again."""
        self.lines[index].hang_up()
        await until(lambda: self.table.waits.get(index) == "call back", what="the drop")
        line = self.lines[index] = KeyboardTerminal()
        person = self.table.sit(index, Session(line))
        self.attending.append(asyncio.ensure_future(person.attend()))

    async def close(self) -> None:
        self.table.close()
        for task in self.attending:
            task.cancel()
        await asyncio.gather(*self.attending, return_exceptions=True)


@run_async
async def test_a_caller_who_sits_on_the_deal_pressing_keys_loses_the_game_to_a_claim() -> None:
    two = Two()
    try:
        staller, claimant = await two.dealer_waited_on()
        staller_line, claimant_line = two.lines[staller], two.lines[claimant]
        names = two.table.names
        loop = asyncio.get_running_loop()
        began = loop.time()
        # The staller keeps their line busy: a chat line, redraws, the win bar.
        staller_line.press("hello", Key.ENTER)
        while loop.time() - began < CLAIM_AFTER * 0.75:
            staller_line.press(Key.CTRL_L)
            await asyncio.sleep(0.05)
        await until(lambda: f"{names[claimant]} may claim the game in" in flat(staller_line))
        assert "g claim the game" not in claimant_line.status  # not yet
        await until(lambda: "g claim the game" in claimant_line.status, what="the offer")
        assert loop.time() - began >= CLAIM_AFTER * 0.9
        assert f"{names[staller]} has not moved for" in claimant_line.message
        assert "may now claim the game" in flat(staller_line)

        await two.claimed(staller, claimant)
        said = f"{names[claimant]} claimed the game: {names[staller]} had not moved for"
        for line in (staller_line, claimant_line):
            await until(lambda line=line: said in flat(line), what=f"{said} on both screens")
            await until(lambda line=line: "RETURN back to the lobby" in line.status)
    finally:
        await two.close()


@run_async
async def test_the_stallers_move_withdraws_the_offer_and_g_then_claims_nothing() -> None:
    two = Two()
    try:
        staller, claimant = await two.offered_the_claim()
        staller_line, claimant_line = two.lines[staller], two.lines[claimant]
        staller_line.press(Key.ENTER)  # deals, at last
        await until(lambda: "throw to the crib" in " ".join(two.table.waits.values()))
        claimant_person = two.table.seats[claimant].person
        assert claimant_person is not None
        assert not any(isinstance(r.question, ClaimGame) for r in claimant_person.requests)
        claimant_line.press("g")
        await until(lambda: "The 'g' key does nothing" in flat(claimant_line))
        assert not two.table.over
        assert two.table.game.outcome() is None
    finally:
        await two.close()


@run_async
async def test_a_claim_in_a_match_forfeits_the_whole_match_to_the_claimant() -> None:
    two = Two(GameOptions(level="easy", best_of=3))
    try:
        staller, claimant = await two.offered_the_claim()
        await two.claimed(staller, claimant)
        assert two.table.match is not None
        assert two.table.match.wins[claimant] == 1 and two.table.match.wins[staller] == 0
        assert two.table.forfeit_text.startswith(f"{two.table.names[claimant]} claimed the match")
    finally:
        await two.close()


@run_async
async def test_a_game_of_three_sides_offers_no_claim() -> None:
    # A forfeit there goes to the best placed of the other two, not to the claimant.
    two = Two(GameOptions(level="easy", players=3), names=("A", "B", "C"))
    try:
        await until(lambda: "deal" in two.table.waits.values())
        await asyncio.sleep(CLAIM_AFTER * 1.5)
        for seat in two.table.seats:
            assert seat.person is not None
            assert not any(isinstance(r.question, ClaimGame) for r in seat.person.requests)
        assert not two.table.over
    finally:
        await two.close()


@run_async
async def test_a_caller_with_a_screen_reader_hears_the_offer_and_claims_in_a_word() -> None:
    two = Two(speech=(1,))  # B listens; A (seed 3) deals, and sits on the deal
    try:
        staller, claimant = await two.dealer_waited_on()
        assert (staller, claimant) == (0, 1)
        b_line = two.lines[1]
        offer = "A has not moved for 1 second. Type claim to claim the game, which A then"
        await until(lambda: offer in " ".join(sent(b_line).split()), what="the offer said")
        await two.claimed(0, 1, "claim", Key.ENTER)
        said = "B claimed the game: A had not moved for 1 second, and forfeits it."
        await until(lambda: said in " ".join(sent(b_line).split()))
    finally:
        await two.close()


@run_async
async def test_a_wait_is_timed_from_its_own_start_and_a_claim_due_waits_for_a_claimant() -> None:
    # The seat's timer outlives the wait it was set for: the next wait is warned and
    # offered on its own time. A claim that comes due while the other side still
    # decides too is offered once they have decided.
    two = Two()
    try:
        staller, claimant = await two.dealer_waited_on()
        staller_line, claimant_line = two.lines[staller], two.lines[claimant]
        names = two.table.names
        loop = asyncio.get_running_loop()
        await asyncio.sleep(CLAIM_AFTER * 0.5)
        staller_line.press(Key.ENTER)  # deals half way to the claim
        await until(lambda: "throw to the crib" in " ".join(two.table.waits.values()))
        throws_began = loop.time()
        warning = f"{names[claimant]} may claim the game in"
        await until(lambda: warning in flat(staller_line), what="the staller warned")
        assert loop.time() - throws_began >= CLAIM_AFTER * 2 / 3 * 0.9
        await asyncio.sleep(throws_began + CLAIM_AFTER * 1.3 - loop.time())
        assert "g claim the game" not in claimant_line.status  # still throwing, too
        claimant_line.press(Key.ENTER, "2", Key.ENTER, Key.ENTER)  # throws at last
        await until(lambda: "g claim the game" in claimant_line.status, what="the offer")
        await two.claimed(staller, claimant)
    finally:
        await two.close()


def told(line: KeyboardTerminal, sentence: str) -> int:
    """How many times ``sentence`` reached ``line``: on a screen, what it shows now (the
    game-over box wraps it, so only the log and the message line can hold it whole); in
    plain lines or speech, the whole transcript (the box's rows printed, wrapped too)."""
    if line.display_mode is Display.SCREEN:
        return flat(line).count(sentence)
    return " ".join(sent(line).split()).count(sentence)


def offered(person: Any) -> bool:
    return any(isinstance(request.question, ClaimGame) for request in person.requests)


def at_the_end(line: KeyboardTerminal) -> bool:
    if line.display_mode is Display.SCREEN:
        return "RETURN back to the lobby" in line.status
    return "back to the lobby" in sent(line).lower().split("claimed the game")[-1]


@run_async
async def test_the_claim_is_told_once_on_a_screen_in_plain_lines_and_in_speech() -> None:
    # It stood in the log and again on the message line just under it, and a screen
    # reader heard it twice, the second time with "Back to the lobby."
    for speech, plain in (((), ()), ((), (0, 1)), ((0, 1), ())):
        two = Two(speech=speech, plain=plain)
        try:
            staller, claimant = await two.offered_the_claim()
            names = two.table.names
            claimed = (
                f"{names[claimant]} claimed the game: {names[staller]} had not moved for"
                " 1 second, and forfeits it."
            )
            await two.claimed(staller, claimant, *(("claim", Key.ENTER) if speech else ("g",)))
            for line in two.lines.values():
                await until(lambda line=line: at_the_end(line), what="the end, said")
                assert told(line, claimed) == 1, (speech, plain, sent(line)[-600:])
        finally:
            await two.close()


async def four_and_the_computer_deals(
    speech: tuple[int, ...] = (), plain: tuple[int, ...] = ()
) -> Two:
    """A table of four, A and B with two computers, whose first deal is a computer's
    (seat 2 or 3): the deal waits on A and B to say they are ready."""
    four = GameOptions(level="easy", players=4)
    for seed in range(40):
        two = Two(four, names=("A", "B", None, None), seed=seed, speech=speech, plain=plain)
        await until(lambda two=two: bool(two.table.waits), what="a wait before the deal")
        if two.table.seats[two.table.game.dealer].computer_plays:
            return two
        await two.close()
    raise AssertionError("no seed of 40 lets the computer deal first")


@run_async
async def test_at_four_a_caller_never_ready_for_the_computers_deal_loses_to_a_claim() -> None:
    # The computer deals once every caller has said they are ready. The table waited on
    # every caller until all had, so whoever was ready could never claim: the other
    # could chat there for ever.
    two = await four_and_the_computer_deals()
    try:
        assert set(two.table.waits.values()) == {"be ready"}
        a_line, b_line = two.lines[0], two.lines[1]
        await until(lambda: "blank line: ready" in a_line.status, what="A asked")
        a_line.press(Key.ENTER)  # A is ready; B chats on and on
        b_line.press("still here", Key.ENTER)
        await until(lambda: 0 not in two.table.waits, what="A no longer waited on")
        await until(lambda: "g claim the game" in a_line.status, what="A's offer")
        await two.claimed(1, 0)
        assert two.table.forfeit_text.startswith("A claimed the game: B had not said they were")
        assert two.table.game.hand_number == 0  # never dealt
    finally:
        await two.close()


def heard(line: KeyboardTerminal) -> str:
    """What ``line`` shows now (a screen), or all it was sent (plain lines, speech)."""
    if line.display_mode is Display.SCREEN:
        return flat(line)
    return " ".join(sent(line).split())


NOT_READY_OFFER = "B has not said they are ready for 1 second"
NOT_READY_TOLD = "may now claim the game: it has waited 1 second for you to say you are ready"
NOT_READY_CLAIM = (
    "A claimed the game: B had not said they were ready for 1 second, and forfeits it."
)


@run_async
async def test_a_claim_before_the_computers_deal_says_who_is_not_ready() -> None:
    # The offer read "B has not moved for ..." in the wait to be ready, where nobody moves
    # a card; B was told the game waited for his move.
    for speech, plain in (((), ()), ((), (0, 1)), ((0, 1), ())):
        two = await four_and_the_computer_deals(speech=speech, plain=plain)
        try:
            a_line, b_line = two.lines[0], two.lines[1]
            a_person = two.table.seats[0].person
            assert a_person is not None
            await until(lambda a_person=a_person: bool(a_person.requests), what="A asked")
            a_line.press(Key.ENTER)  # ready
            await until(lambda two=two: 0 not in two.table.waits, what="A ready")
            await until(
                lambda b_line=b_line: "it waits for you to say you are ready" in heard(b_line)
            )
            await until(lambda a_person=a_person: offered(a_person), what="A's offer")
            await until(lambda a_line=a_line: NOT_READY_OFFER in heard(a_line), what="the offer")
            await until(lambda b_line=b_line: NOT_READY_TOLD in heard(b_line), what="B told")
            await two.claimed(1, 0, *(("claim", Key.ENTER) if speech else ("g",)))
            for line in (a_line, b_line):
                await until(lambda line=line: NOT_READY_CLAIM in heard(line), what="the claim")
                assert "not moved" not in heard(line), (speech, plain)
                assert "your move" not in heard(line), (speech, plain)
        finally:
            await two.close()


@run_async
async def test_dropping_the_line_and_calling_back_does_not_start_the_claims_clock_again() -> None:
    # Each call back started the staller's clock again: dropping the line and calling
    # back within the reconnect wait, again and again, stalled the game for ever (the
    # other's only way out the computer in the staller's seat).
    two = Two()
    try:
        staller, claimant = await two.dealer_waited_on()
        loop = asyncio.get_running_loop()
        began = loop.time()
        claimant_person = two.table.seats[claimant].person
        assert claimant_person is not None
        while not offered(claimant_person) and loop.time() - began < CLAIM_AFTER * 3:
            await asyncio.sleep(CLAIM_AFTER / 4)
            if not offered(claimant_person):
                await two.drop_and_call_back(staller)
                await asyncio.sleep(0.02)
        assert offered(claimant_person), "no claim while the staller drops and calls back"
        assert loop.time() - began < CLAIM_AFTER * 2
        staller_said = " ".join(two.lines[staller].display)
        assert "may now claim the game" in " ".join(staller_said.split())
        await two.claimed(staller, claimant)
    finally:
        await two.close()


async def staller_warned_and_dropped_at_the_first_card(two: Two) -> tuple[int, int]:
    """The pone sits on the first card of the play till warned, and their line drops; the
    dealer is asked whether the computer plays the seat: the staller's seat, the other's."""
    dealer, pone = await two.dealer_waited_on()
    two.lines[dealer].press(Key.ENTER)  # deals
    for line in two.lines.values():
        await until(lambda line=line: "RETURN mark" in line.status, what="the throw")
        line.press(Key.ENTER, "2", Key.ENTER, Key.ENTER)
    await until(lambda: two.table.waits.get(pone) == "cut the deck", what="the cut")
    two.lines[pone].press("5", Key.ENTER)
    await until(lambda: two.table.waits.get(pone) == "play", what="the pone's first card")
    staller, claimant = pone, dealer
    await until(lambda: "may claim the game in" in flat(two.lines[staller]), what="warned")
    two.lines[staller].hang_up()
    await until(lambda: "p computer plays for" in two.lines[claimant].status)
    return staller, claimant


def call_back(two: Two, staller: int) -> None:
    """The staller calls back on a new line and takes their seat again."""
    back = two.table.rejoin(two.table.names[staller], Session(KeyboardTerminal()))
    assert back is not None
    two.lines[staller] = back.session.terminal  # type: ignore[attr-defined]
    two.attending.append(asyncio.ensure_future(back.attend()))


async def no_claim_on_the_next_card(two: Two, staller: int, claimant: int) -> None:
    """The claimant plays their card; the staller's next card starts a clock of its own:
    no warning, no offer for a third of the wait (the warning comes at two thirds)."""
    await until(lambda: "RETURN play" in two.lines[claimant].status, what="the other's card")
    two.lines[claimant].press(Key.ENTER)
    await until(lambda: two.table.waits.get(staller) == "play", what="the staller's card")
    await asyncio.sleep(CLAIM_AFTER / 3)
    claimant_person = two.table.seats[claimant].person
    assert claimant_person is not None and not offered(claimant_person)
    assert "may claim the game" not in flat(two.lines[staller]), flat(two.lines[staller])


@run_async
async def test_a_clock_held_over_a_drop_is_forgotten_once_the_computer_moves_for_the_seat() -> None:
    # A held clock is taken up again by the same wait after the call back; but once the
    # other asked the computer to play the seat, the computer's card ended that stall,
    # and the next card's wait starts a clock of its own.
    two = Two()
    try:
        staller, claimant = await staller_warned_and_dropped_at_the_first_card(two)
        two.lines[claimant].press("p")
        await until(lambda: "RETURN play" in two.lines[claimant].status, what="the other's card")
        call_back(two, staller)
        await no_claim_on_the_next_card(two, staller, claimant)
    finally:
        await two.close()


@run_async
async def test_a_caller_back_while_the_computer_moves_for_them_starts_a_fresh_clock() -> None:
    # Back while the computer was still on its move for them (its thinking, its pause),
    # before the table next waited on anyone, the caller found the clock held at the
    # drop, and was offered against at once on their next card.
    two = Two(pause=CLAIM_AFTER / 3)  # the computer's pause after its card
    try:
        staller, claimant = await staller_warned_and_dropped_at_the_first_card(two)
        seat = two.table.seats[staller]
        two.lines[claimant].press("p")
        await until(lambda: seat.computer_plays, what="the computer taking the seat")
        call_back(two, staller)  # before its card is down, or during the pause after it
        assert not two.table.waits, two.table.waits  # nobody waited on yet
        await no_claim_on_the_next_card(two, staller, claimant)
    finally:
        await two.close()
