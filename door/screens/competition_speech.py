"""The mail games and the tournaments in sentences, for a caller with a screen reader:
what door/screens/mail_games.py and door/screens/tournaments.py draw, said a thing a
line (door/ui/speech_renderer.py says what is new). Pure: a view in, a ``Said`` out.

The key line becomes a sentence of keys, and Esc the word ``back``, as a screen
reader's caller types lines (door/app/lobby_words.py).
"""

from __future__ import annotations

from typing import Final

from door.screens.mail_games import MailView
from door.screens.speech import SEE_THE_KEYS as SEE_THE_KEYS  # (the pages' pointer)
from door.screens.speech import Said, keys_for_pointer
from door.screens.tournaments import TournamentsView, describe, pairing_line, state_of

MAIL_PROMPT: Final = "Mail games: type a key or a number, then RETURN."
TOURNAMENTS_PROMPT: Final = "Tournaments: type a key or a number, then RETURN."


def keys_sentence(status: str) -> str:
    """``1-9 open a game  N new game  Esc back to the lobby  ^L redraw`` said: ``Keys: 1-9
    open a game, N new game, back: back to the lobby.``"""
    parts = [part.strip() for part in status.split("  ") if part.strip()]
    said = [
        part.replace("Esc back", "back: back", 1) if part.startswith("Esc ") else part
        for part in parts
        if not part.startswith("^L")
    ]
    return "Keys: " + ", ".join(said) + "."


def spoken_message(message: str, status: str) -> str:
    """A page's message as said: one that sends the caller to the key line, which a
    screen reader's caller has not got, says the keys in words instead.

    >>> spoken_message("The 'z' key does nothing here: see the keys below.",
    ...                "S sign up  Esc back to the list")
    "The 'z' key does nothing here. Keys: S sign up, back: back to the list."
    """
    return keys_for_pointer(message, keys_sentence(status))


def spoken_title(title: str) -> str:
    """A page's title as said: "Cribbage Door · Mail games" was read out with its middle
    dot ("Cribbage Door middle dot Mail games"); a colon is a pause.

    >>> spoken_title("Cribbage Door · Mail games")
    'Cribbage Door: Mail games'
    """
    return title.replace(" · ", ": ")


def mail_said(view: MailView, typed: str = "") -> Said:
    title = spoken_title(view.title)
    sentences = [f"{title}. Your mail games, {len(view.going)} of {view.most}."]
    if not view.going:
        sentences.append("None going: type n to start one against another member.")
    sentences.extend(
        f"{number}: against {line.opponent}, {line.status}."
        for number, line in enumerate(view.going, 1)
    )
    if view.finished:
        finished = "; ".join(f"{line.opponent}, {line.status}" for line in view.finished[:5])
        sentences.append(f"Finished lately: {finished}.")
    sentences.extend(view.rules)
    sentences.append(keys_sentence(view.status))
    prompt = view.entry.prompt.strip() if view.entry is not None else MAIL_PROMPT
    message = spoken_message(view.message, view.status)
    return Said(tuple(sentences), message, prompt, typed)


def tournaments_said(view: TournamentsView, typed: str = "") -> Said:
    sentences = [f"{spoken_title(view.title)}."]
    shown = view.shown
    if shown is None:
        if not view.listing:
            sentences.append("No tournaments yet: the sysop makes them.")
        for number, info in enumerate(view.listing, 1):
            tournament = info.tournament
            entered = view.you is not None and view.you in tournament.entrants
            sentences.append(
                f"{number}: {tournament.name}{', you are in' if entered else ''}."
                f" {describe(tournament)}, {state_of(tournament)},"
                f" {len(tournament.entrants)} signed up."
            )
    else:
        tournament = shown.tournament
        sentences.append(f"{tournament.name}: {describe(tournament)}, {state_of(tournament)}.")
        places = [
            f"{place} {shown.name_of(standing.entrant)}"
            f"{' (you)' if standing.entrant == view.you else ''},"
            f" {standing.game_points} points, spread {standing.spread:+},"
            f" won {standing.wins}, lost {standing.losses}"
            for place, standing in enumerate(tournament.standings(), 1)
        ]
        if places:
            sentences.append("Standings: " + "; ".join(places) + ".")
        pairings = shown.round_pairings
        if pairings:
            said = "; ".join(" ".join(pairing_line(shown, p).split()) for p in pairings)
            sentences.append(f"Round {tournament.current_round} pairings: {said}.")
        elif tournament.status == "open":
            sentences.append("Pairings are made when the tournament starts.")
    sentences.append(keys_sentence(view.status))
    prompt = view.entry.prompt.strip() if view.entry is not None else TOURNAMENTS_PROMPT
    message = spoken_message(view.message, view.status)
    return Said(tuple(sentences), message, prompt, typed)
