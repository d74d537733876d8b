"""A tournament game between two members who are on the tournaments page (issue #43):
a challenge reaches the opponent there, and once it is accepted both are at the table,
wherever each of them was; a seat given to a caller whose line drops on the way to it
waits for them like any dropped seat, and the other may hand it to the computer.
Fake terminals against a real store (SQLite, and PostgreSQL when
CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import asyncio
import random

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.cluster.remote import RemoteMember
from door.storage.tournaments import TournamentStore
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.term.keys import Key
from door.ui.session import Session
from engine.rules.outcome import Outcome
from tests.door.app.test_lobby import in_lobby, in_lobby_after_game, offer_challenge
from tests.door.app.test_mail_games import START, MailDoor, mail_door, words
from tests.door.caller import KeyboardTerminal, answer_at_table, play_together, run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until

TABLE_KEYS = "P play"
AT_THE_TABLE = "Esc table keys"  # the chat line's status before a hand


async def running_cup(door: MailDoor, *entrants: int) -> int:
    """A one-game round robin of ``entrants``, started."""
    tournaments = door.records.tournaments
    assert tournaments is not None
    number = await tournaments.create("Friday Cup", "round robin", 1, START, 1)
    for entrant in entrants:
        await tournaments.toggle_entry(number, entrant)
    await tournaments.start_now(number)
    return number


async def ada_and_bob_in_a_running_cup(
    door: MailDoor,
) -> tuple[int, KeyboardTerminal, KeyboardTerminal]:
    """Members Ada and Bob, entered in a one-game round robin that has started, both
    called in and in the lobby: the cup's number and their terminals."""
    ada = await door.store.create_account("Ada", "correct horse")
    bob = await door.store.create_account("Bob", "correct horse")
    number = await running_cup(door, ada.id, bob.id)
    alice, _ = door.call(ada)
    bert, _ = door.call(bob)
    await in_lobby(alice, bert)
    return number, alice, bert


async def at_their_match(alice: KeyboardTerminal, bert: KeyboardTerminal) -> None:
    """From the lobby, Ada and Bob open the tournament's page, Ada plays their match (P),
    Bob accepts, and both are at the table."""
    await on_the_tournament_page(alice)
    await on_the_tournament_page(bert)
    alice.press("p")
    await until(lambda: "Ada challenges you" in words(bert))
    bert.press("y")
    await until(lambda: AT_THE_TABLE in alice.status and AT_THE_TABLE in bert.status)


async def the_sysop_forfeits_ada(
    sysop: KeyboardTerminal, alice: KeyboardTerminal, bert: KeyboardTerminal
) -> None:
    """From the lobby the sysop opens the first tournament and forfeits Ada's match to Bob
    (X), and both players are told at their table."""
    sysop.press("u")
    await until(lambda: "N new tournament" in sysop.status)
    sysop.press("1")
    await until(lambda: "X forfeit" in sysop.status)
    sysop.press("x", "Ada", Key.ENTER)
    await until(lambda: "Ada forfeits to Bob?" in words(sysop))
    sysop.press("y")
    told = "The sysop settled this match: Ada forfeits to Bob."
    for terminal in (alice, bert):
        await until(lambda t=terminal: told in words(t))


async def on_the_tournament_page(terminal: KeyboardTerminal) -> None:
    terminal.press("u")
    await until(lambda: "1-9 open" in terminal.status)
    terminal.press("1")
    await until(lambda: TABLE_KEYS in terminal.status)


@run_async
async def test_both_on_the_tournaments_page_challenge_accept_and_are_seated(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        number, alice, bert = await ada_and_bob_in_a_running_cup(door)
        await on_the_tournament_page(alice)
        await on_the_tournament_page(bert)

        alice.press("p")
        # The challenge reaches Bob where he is, with the keys to answer it.
        await until(lambda: "Ada challenges you" in words(bert))
        assert "Y accept" in bert.status
        bert.press("y")
        # Both go to the table with no key pressed: neither is left on the page.
        await until(lambda: AT_THE_TABLE in alice.status and AT_THE_TABLE in bert.status)
        table = door.presence.find("Ada").table  # type: ignore[union-attr]
        assert table is not None and table.options.tournament == number
        await play_together([alice, bert], stop=lambda: table.over)
        await in_lobby_after_game(alice, bert)
        await until(lambda: "Tournament game recorded in Friday Cup" in words(alice))
        tournament = await TournamentStore(door.store).tournament(number)
        assert tournament.status == "finished"


@run_async
async def test_a_challenge_sent_from_the_tournaments_page_takes_the_sender_to_the_table(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        _, alice, bert = await ada_and_bob_in_a_running_cup(door)
        await on_the_tournament_page(alice)
        alice.press("p")
        await until(lambda: "Ada challenges you" in words(bert))
        bert.press("y")  # in the lobby
        # Ada, still on the tournaments page, is taken to her seat: Bob does not sit
        # at "Ada gets ready to deal" while she sees nothing of it.
        await until(lambda: AT_THE_TABLE in alice.status and AT_THE_TABLE in bert.status)
        assert door.presence.find("Ada").place.startswith("playing")  # type: ignore[union-attr]


@run_async
async def test_the_records_screen_gives_way_when_a_challenge_is_accepted(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        alice, _ = door.call(ada)
        bert, _ = door.call(bob)
        await in_lobby(alice, bert)
        await offer_challenge(alice, bert)
        await until(lambda: "challenges you" in words(bert))
        alice.press("p")  # not while the challenge is out
        await until(lambda: "Your challenge is still out" in words(alice))
        alice.press("l")  # the leaderboard, while she waits
        await until(lambda: "Press a key from the menu" not in alice.status)
        bert.press("y")
        await until(lambda: AT_THE_TABLE in alice.status and AT_THE_TABLE in bert.status)


@run_async
async def test_a_seat_its_caller_never_reached_waits_and_can_go_to_the_computer() -> None:
    presence = Presence("Sysop", random.Random(1))
    ada_terminal, bob_terminal = KeyboardTerminal(), KeyboardTerminal()
    ada = presence.join("Ada", Session(ada_terminal))
    bob = presence.join("Bob", Session(bob_terminal))

    def make_table(options: GameOptions, names: list[str | None]) -> Table:
        return Table(options, names, rng=random.Random(5), admit=Person, pause=0, reconnect_wait=60)

    options = GameOptions(players=2, tournament=1)
    challenge = presence.challenge(ada, [ada, bob], options, make_table)
    presence.accept(challenge, bob, make_table)
    assert ada.seat is not None and bob.seat is not None
    table = ada.seat.table
    bob_person, bob.seat = bob.seat, None
    bob_task = asyncio.ensure_future(bob_person.attend())
    # Ada's line drops before her session takes her seat.
    presence.leave(ada)
    # Her seat is away: a call back finds it, and Bob may hand it to the computer.
    assert presence.table_waiting_for("Ada") is table
    for _ in range(200):
        await until(lambda: bob_terminal.reading and bob_terminal.read == bob_terminal.pressed)
        status = bob_terminal.status
        if "p computer plays for Ada" in status:
            break
        keys = answer_at_table(status)
        if keys:
            bob_terminal.press(*keys)
        else:
            await asyncio.sleep(0.01)
    assert "p computer plays for Ada" in bob_terminal.status
    bob_terminal.press("p")
    await until(lambda: "The computer plays for Ada" in words(bob_terminal))
    table.close()
    await asyncio.wait({bob_task}, timeout=5)


@run_async
async def test_quitting_a_tournament_game_forfeits_it_in_the_standings(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        number, alice, bert = await ada_and_bob_in_a_running_cup(door)
        await at_their_match(alice, bert)
        bert.press(Key.CTRL_C)
        await until(lambda: "forfeit the game to Ada" in words(bert))
        bert.press("y")
        await until(lambda: "Bob left and forfeits the game to Ada" in words(alice))
        # The pairing no longer reads "to play": the game is in, a win for Ada.
        await until(lambda: "Tournament game recorded in Friday Cup" in words(bert))
        tournament = await TournamentStore(door.store).tournament(number)
        (pairing,) = tournament.round(1)
        assert len(pairing.games) == 1
        ada = await door.store.account("Ada")
        assert ada is not None and tournament.standings()[0].entrant == ada.id


def test_a_caller_of_another_worker_answering_a_challenge_is_not_challenged_again() -> None:
    record = {"name": "Cy", "place": "at the tournaments", "busy": False}
    free = RemoteMember(None, "w2", record)  # type: ignore[arg-type]
    busy = RemoteMember(None, "w2", {**record, "busy": True})  # type: ignore[arg-type]
    assert free.answers_challenges and not busy.answers_challenges


@run_async
async def test_a_game_that_starts_while_the_sender_is_asked_to_leave_takes_them_there(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        alice, alice_task = door.call(ada)
        bert, _ = door.call(bob)
        await in_lobby(alice, bert)
        await offer_challenge(alice, bert)
        await until(lambda: "challenges you" in words(bert))
        alice.press("q")  # "Leave the door?" is up when Bob accepts
        await until(lambda: "Leave the door?" in words(alice))
        bert.press("y")
        await until(lambda: AT_THE_TABLE in alice.status and AT_THE_TABLE in bert.status)
        assert not alice_task.done()


@run_async
async def test_a_game_whose_match_the_sysop_settled_does_not_count_in_the_next_match(
    database: Database,
) -> None:
    # By hand: Ada and Bob at their table, the sysop forfeited Ada's match (X) and the
    # round moved on; the game went on, and its result was to land in whatever match
    # Ada had next, against someone who never played it.
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        cy = await door.store.create_account("Cy", "correct horse")
        dee = await door.store.create_account("Dee", "correct horse")
        # Signed up in this order, round 1 is Ada v Bob and Cy v Dee, round 2 Ada v Dee.
        number = await running_cup(door, ada.id, cy.id, dee.id, bob.id)
        alice, _ = door.call(ada)
        bert, _ = door.call(bob)
        await in_lobby(alice, bert)
        await at_their_match(alice, bert)
        tournaments = door.records.tournaments
        assert tournaments is not None
        await tournaments.forfeit(number, ada.id)
        store = TournamentStore(door.store)
        await store.record_tournament_game(number, cy.id, Outcome(0, (121, 100), ()))
        assert (await store.tournament(number)).current_round == 2
        # The game Ada and Bob still play ends: Bob quits, forfeiting it to Ada.
        bert.press(Key.CTRL_C)
        await until(lambda: "forfeit the game to Ada" in words(bert))
        bert.press("y")
        await until(lambda: "forfeits the game to Ada" in words(alice))
        told = ("does not count in the tournament", "Tournament game recorded")
        await until(lambda: any(line in words(bert) for line in told))
        round_two = (await store.tournament(number)).round(2)
        assert [len(pairing.games) for pairing in round_two] == [0, 0]
        # Bob, back in the lobby, is told why no result comes of it.
        assert "does not count in the tournament" in words(bert)


@run_async
async def test_the_sysop_forfeiting_a_match_being_played_tells_its_table(
    database: Database,
) -> None:
    # By hand: the sysop forfeited Ada's match (X) while Ada and Bob played it; at the
    # table nothing was said, and they played on for a result that no longer counted.
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        await running_cup(door, ada.id, bob.id)
        alice, _ = door.call(ada)
        bert, _ = door.call(bob)
        sysop = KeyboardTerminal()
        caller = Caller("Sysop", "test", sysop=True)
        session = run_session(sysop, door.config, caller, None, door.presence, door.records)
        door.tasks.append(asyncio.ensure_future(session))
        await in_lobby(alice, bert, sysop)
        await at_their_match(alice, bert)
        await the_sysop_forfeits_ada(sysop, alice, bert)
        # The game goes on between friends: leaving it forfeits nothing in the tournament
        # (by hand, the quit dialog still said "a loss in your record and your tournament
        # match").
        bert.press(Key.CTRL_C)
        await until(lambda: "Leave now and the computer plays your seat" in words(bert))
        assert "tournament match" not in words(bert)
