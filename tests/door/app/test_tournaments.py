"""Tournaments in the door: the sysop's form (bad answers make nothing), members signing
up, the start, a tournament game challenged from the tournaments screen and played at a
table, its result in the standings; and, on the service, a Swiss tournament paired
round after round with a bye and no repeat. Fake terminals against a real store
(SQLite, and PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from door.app.call import Caller, run_session
from door.app.tournaments import TournamentRefusal, Tournaments, parse_start
from door.screens.tournaments import TournamentsView, draw_tournaments, state_of
from door.storage.tournaments import TournamentStore
from door.term.keys import Key
from engine.rules.outcome import Outcome
from tests.door.app.test_lobby import in_lobby, in_lobby_after_game
from tests.door.app.test_mail_games import START, mail_door, words
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until

PASSWORD = "correct horse"
LIST = "1-9 open"
TABLE = "S sign up/withdraw"


@run_async
async def test_a_swiss_tournament_pairs_round_after_round_with_a_bye_and_no_repeat(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        service = Tournaments(door.store, door.clock)
        ids = [(await door.store.create_account(n, PASSWORD)).id for n in ("Ada", "Bob", "Cy")]
        with pytest.raises(TournamentRefusal, match="1 to 7 games"):
            await service.create("Cup", "swiss", 9, START, 2)
        with pytest.raises(TournamentRefusal, match="rounds"):
            await service.create("Cup", "swiss", 1, START, 0)
        with pytest.raises(TournamentRefusal, match="not a time"):
            parse_start("next tuesday", START)
        assert await service.listing() == []  # nothing made by the refusals
        number = await service.create("Winter Cup", "swiss", 1, START + dt.timedelta(hours=1), 2)
        for entrant in ids:
            assert await service.toggle_entry(number, entrant)
        assert await service.start_due() == []  # not yet its time
        door.clock.advance(hours=1)
        (info,) = await service.listing()  # looking at the list starts it
        first_round = info.tournament.round(1)
        assert info.tournament.status == "running" and len(first_round) == 2
        (bye,) = [p for p in first_round if p.bye]
        (played,) = [p for p in first_round if not p.bye]
        # The game: the pairing's first entrant wins 121 to 100.
        after = await service.record(number, played.first, Outcome(0, (121, 100), ()))
        assert after is not None and after.current_round == 2
        second_round = after.round(2)
        met_before = {frozenset(played.entrants)}
        assert all(frozenset(p.entrants) not in met_before for p in second_round if not p.bye)
        (second_bye,) = [p for p in second_round if p.bye]
        assert second_bye.first != bye.first  # nobody has two byes
        standings = {s.entrant: s for s in after.standings()}
        assert standings[played.first].game_points == 2 and standings[played.first].spread == 21
        assert standings[bye.first].game_points == 2  # a bye counts as a won game
        loser = played.opponent_of(played.first)
        # Round 2's bye goes to the lowest placed who has had none: the loser.
        assert second_bye.first == loser
        assert (standings[loser].game_points, standings[loser].spread) == (2, -21)
        # A game for someone with a bye this round does not count.
        assert await service.record(number, loser, Outcome(0, (121, 90), ())) is None


@run_async
async def test_a_tournament_made_without_a_time_waits_for_the_sysop_to_start_it(
    database: Database,
) -> None:
    # By hand: made with the form's "now", it started as its second member signed up.
    async with mail_door(database) as door:
        service = Tournaments(door.store, door.clock)
        assert parse_start("", START) is None and parse_start(" NOW ", START) is None
        number = await service.create("Club night", "round robin", 1, None, 1)
        for handle in ("Ada", "Bob", "Cy"):
            door.clock.advance(days=1)
            account = await door.store.create_account(handle, PASSWORD)
            assert await service.toggle_entry(number, account.id)
            (info,) = await service.listing()  # looking at the list starts what is due
            assert info.tournament.status == "open"
        assert state_of(info.tournament) == "open: the sysop starts it"
        started = await service.start_now(number)
        assert started.status == "running" and len(started.entrants) == 3
        assert (await service.info(number)).tournament.starts_at == door.clock.now


@run_async
async def test_a_finished_tournament_names_a_member_deleted_since_as_a_deleted_member(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        service = Tournaments(door.store, door.clock)
        ids = [(await door.store.create_account(n, PASSWORD)).id for n in ("Ada", "Bob")]
        number = await service.create("Final", "round robin", 1, START, 1)
        for entrant in ids:
            assert await service.toggle_entry(number, entrant)
        (info,) = await service.listing()
        (pairing,) = info.tournament.round(1)
        after = await service.record(number, pairing.first, Outcome(0, (121, 100), ()))
        assert after is not None and after.status == "finished"
        await door.store.delete_member("Bob")
        (info,) = await service.listing()
        canvas, _ = draw_tournaments(TournamentsView("BBS · Tournaments", shown=info, you=ids[0]))
        text = "\n".join(canvas.text(row) for row in range(24))
        assert "Ada" in text and "(deleted member)" in text
        assert f"#{ids[1]}" not in text


def test_the_tournament_table_shows_standings_and_pairings_in_order() -> None:
    from door.app.tournaments import TournamentInfo
    from door.competition.tournament import Tournament

    tournament = Tournament("Spring Open", "round robin", 1, START, entrants=(7, 8, 9, 10))
    tournament = tournament.start(START)
    (first, second) = tournament.round(1)
    tournament = tournament.record(first.first, Outcome(0, (121, 80), ((1, "skunk"),)))
    tournament = tournament.record(second.first, Outcome(1, (110, 121), ()))
    names = {7: "Ada", 8: "Bob", 9: "Cy", 10: "Di"}
    info = TournamentInfo(1, tournament, names)
    canvas, _ = draw_tournaments(TournamentsView("BBS · Tournaments", shown=info, you=7))
    text = [canvas.text(row) for row in range(24)]
    places = [line.split()[1] for line in text[3:7]]
    # The skunk winner (3 points) first, then the other winner (2, +11 spread).
    assert places[0] == names[first.first]
    assert places[1] == names[second.second]  # type: ignore[index]
    assert "3" in text[3] and "+41" in text[3]
    assert any("Round 2 pairings" in line for line in text)


@pytest.mark.parametrize("name", ["Swiss Night", "The Long Winter Open of the Cribbage Club"[:40]])
def test_an_open_swiss_tournament_is_described_within_80_columns(name: str) -> None:
    # By hand: "Swiss Night", Swiss of 3 rounds, open, read "... 05:00 UTC · 0 si" in
    # the list and lost its "UTC" and the rule's end on its own page.
    from door.app.tournaments import TournamentInfo
    from door.competition.tournament import Tournament

    tournament = Tournament(name, "swiss", 7, START, 20, entrants=tuple(range(1, 13)))
    info = TournamentInfo(1, tournament, {})
    listing, _ = draw_tournaments(TournamentsView("BBS · Tournaments", listing=[info], you=1))
    listed = listing.text(2) + " " + listing.text(3)
    assert "12 signed up" in listed and "(you are in)" in listed
    assert "UTC" in listed and "Swiss, 20 rounds, 7 games a match" in listed
    page, _ = draw_tournaments(TournamentsView("BBS · Tournaments", shown=info))
    rule = page.text(1)
    assert name in rule and "starts" in rule and "UTC ─" in rule
    assert rule.rstrip().endswith("─")


def test_a_pairing_between_long_names_keeps_its_result_whole() -> None:
    # By hand: Swiss Night's page read "Table 1  (deleted member) v Ned: 0-2 in game
    # points (-121 spread), 1 of 1 play", cut at the 80th column.
    from door.app.tournaments import TournamentInfo
    from door.competition.tournament import Tournament

    for names in ({1: "(deleted member)", 2: "Ned"}, {1: "Bartholomew Smithers", 2: "Chris"}):
        cup = Tournament("Cup", "round robin", 1, START, entrants=(1, 2)).start(START)
        cup = cup.record(1, Outcome(1, (0, 121), (), forfeited_by=0))
        info = TournamentInfo(1, cup, names)
        canvas, _ = draw_tournaments(TournamentsView("BBS · Tournaments", shown=info))
        row = next(canvas.text(r) for r in range(24) if canvas.text(r).startswith(" Table 1"))
        assert row.rstrip().endswith(": 0-2 in game points (-121 spread), 1 of 1 played")
        assert " v " in row and "…" in row


def test_a_tournaments_page_offers_the_keys_that_work_as_it_stands() -> None:
    # By hand: a finished tournament's page still offered the sysop "S sign up  P play
    # G start now  X forfeit a match", each answered by a refusal.
    from door.app.tournament_screen import table_status

    assert table_status("open", sysop=False) == "S sign up/withdraw  Esc back  ^L redraw"
    assert table_status("open", sysop=True).startswith("S sign up/withdraw  G start now")
    assert table_status("running", sysop=False) == "P play your match  Esc back  ^L redraw"
    assert "X forfeit a match" in table_status("running", sysop=True)
    assert table_status("finished", sysop=True) == "Esc back  ^L redraw"


@run_async
async def test_the_sysop_makes_a_tournament_members_sign_up_and_play_their_game(
    database: Database,
) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", PASSWORD)
        bob = await door.store.create_account("Bob", PASSWORD)
        sysop_terminal = KeyboardTerminal()
        caller = Caller("Sysop", "test", sysop=True)
        session = run_session(
            sysop_terminal, door.config, caller, None, door.presence, door.records
        )
        door.tasks.append(asyncio.ensure_future(session))
        alice, _ = door.call(ada)
        bert, _ = door.call(bob)
        await in_lobby(sysop_terminal, alice, bert)
        assert "U Tournaments" in words(alice)

        # The sysop's form: a bad answer makes nothing; good answers make it.
        sysop_terminal.press("u")
        await until(lambda: LIST in sysop_terminal.status)
        sysop_terminal.press("n", "Winter Cup", Key.ENTER, "x", Key.ENTER)
        await until(lambda: "No tournament made" in words(sysop_terminal))
        assert await TournamentStore(door.store).tournaments() == []
        sysop_terminal.press("n", "Winter Cup", Key.ENTER, "r", Key.ENTER, "1", Key.ENTER)
        await until(lambda: "Start" in words(sysop_terminal))
        # A start next week, which the sysop brings forward.
        sysop_terminal.press("2026-03-09 20:00", Key.ENTER)
        await until(lambda: "open for sign-up" in words(sysop_terminal))
        ((number, made),) = await TournamentStore(door.store).tournaments()
        assert (made.name, made.kind, made.games_per_match) == ("Winter Cup", "round robin", 1)

        # Both members sign up from their tournaments screens.
        for terminal in (alice, bert):
            terminal.press("u")
            await until(lambda t=terminal: LIST in t.status)
            terminal.press("1")
            await until(lambda t=terminal: TABLE in t.status)
            terminal.press("s")
            await until(lambda t=terminal: "You are signed up for Winter Cup" in words(t))
        # The sysop starts it now, before its time.
        sysop_terminal.press("1", "g")
        await until(lambda: "has started" in words(sysop_terminal))
        assert (await TournamentStore(door.store).tournament(number)).status == "running"
        sysop_terminal.press(Key.ESCAPE, Key.ESCAPE)
        # Bob waits in the lobby; Ada challenges him to their game.
        bert.press(Key.ESCAPE, Key.ESCAPE)
        await in_lobby(bert)
        alice.press("p")
        await until(lambda: "challenge Bob to your tournament game" in words(alice))
        await until(lambda: "a tournament game" in words(bert))
        bert.press("y")  # Ada, on the tournaments page, is taken to the table
        await until(lambda: door.presence.find("Ada").table is not None)  # type: ignore[union-attr]
        table = door.presence.find("Ada").table  # type: ignore[union-attr]
        assert table is not None and table.options.tournament == number
        await play_together([alice, bert], stop=lambda: table.over)
        winner = table.names[table.game.winner_side or 0]

        async def recorded() -> bool:
            tournament = await TournamentStore(door.store).tournament(number)
            return bool(tournament.round(1)[0].games)

        await until(recorded, what="the round's game in the store")
        tournament = await TournamentStore(door.store).tournament(number)
        (pairing,) = tournament.round(1)
        assert len(pairing.games) == 1
        top = tournament.standings()[0]
        winner_id = ada.id if winner == "Ada" else bob.id
        assert top.entrant == winner_id and top.game_points in (2, 3)
        assert tournament.status == "finished"  # two players: one round, one game
        # Back in the lobby, each is told how the tournament stands.
        await in_lobby_after_game(alice, bert)
        for terminal in (alice, bert):
            await until(lambda t=terminal: "Tournament game recorded in Winter Cup" in words(t))
