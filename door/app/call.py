"""One caller's way through the door: welcome, log in (or sign up, or come as a guest),
a saved game to resume, the lobby, games, goodbye.

How a caller comes in depends on the line. Over SSH the server has already checked an
account's password or key (door/transports/ssh.py), SSH user ``new`` signs up and ``guest`` gives a
name. Over telnet the caller chooses: log in, a new account, or a guest. A guest may not
take an account's handle. When the database cannot be used, everyone is a guest and is
told so.

A caller whose line dropped in the middle of a game with other people, and who calls
back under the same name (the same account, if they had logged in), goes straight back
to their seat. Someone who logs in with a game against the computer still saved is
offered to resume it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass
from typing import Any, Final, Literal

from door.app import member_gate
from door.app.account_checks import PendingReset, name_is_an_account
from door.app.accounts import (
    choose_arrival,
    log_in,
    offer_resume,
    offer_ssh_key,
    show_notice,
    sign_up,
    yes_or_no,
)
from door.app.form_typing import typed_line
from door.app.lobby import Lobby
from door.app.members import IN_THE_LOBBY, HandedOver, Member, NameInUse
from door.app.menu_choices import MenuChoices
from door.app.new_password import choose_new_password
from door.app.presence import CLAIM_WAIT_SECONDS, MAX_NAME_LENGTH, Presence, clean_name
from door.app.records import Records
from door.app.table_service import TableService
from door.config import Config
from door.defence.guard import peer_address
from door.defence.logins import LoginAttempts, TooManyTries
from door.logtext import escaped
from door.screens import theme
from door.screens.form_speech import name_said
from door.screens.frame import draw_status
from door.screens.help import HelpOverlay, default_help, draw_help, with_mouse_help
from door.screens.layout import STATUS_ROW
from door.screens.speech import spoken_help
from door.storage.store import Account
from door.table.flow import Table
from door.table.options import GameOptions
from door.term.ansi import HIDE_CURSOR, last_words, sanitize
from door.term.canvas import Canvas
from door.term.clicks import HitMap, key_line_hits
from door.term.keys import Key
from door.term.mouse import offers_mouse
from door.term.terminal import Disconnected, Terminal
from door.texts import WELCOME_ART, load_text
from door.ui.line_editor import Edit, LineEditor
from door.ui.session import Frame, Session

logger = logging.getLogger(__name__)

__all__ = ["Caller", "MenuChoices", "clean_name", "run_session"]

ArrivingAs = Literal["choose", "new", "guest", "login"]
TAKE_OVER_MESSAGE: Final = last_words(
    "*** You have called in again on another line: this one is closed. ***"
)
LOGIN_TIMEOUT_MESSAGE: Final = last_words(
    "*** Logging in took too long: this line is closed. Goodbye! ***"
)
FULL_FOR_GUESTS: Final = (
    "Sorry, the door is full: the last places are kept for members. Please call back later."
)
TABLE_GONE: Final = last_words(
    "*** The door's process holding your game stopped. Call back to go on "
    "where your game was saved. ***"
)
TABLE_MOVED: Final = "The process holding your game stopped: it goes on here where it was saved."
GUEST_TABLE_GONE: Final = (
    "The process holding your game stopped: a guest's games are not kept, so it is over."
)
"""What a guest relayed to a worker that died reads back here: only members' games go on
from the store (``resume_game_between_callers``)."""
TAKE_OVER_WAIT_SECONDS: Final = 5.0
"""How long a caller who takes their account over from another line waits for that
line's session to leave before it is taken off the list regardless."""


@dataclass(frozen=True)
class Caller:
    """Who is on the line, as far as the transport knows.

    ``name`` is a name already given (an SSH user name when accounts are off, the sysop's,
    a test's); ``account`` the account the caller proved on the way in (an SSH password
    or key); ``sysop`` whether they proved to be the sysop (SSH key or password, or the
    local console). A caller with neither name nor account is asked: ``arriving_as``
    "choose" offers log in, new account or guest (telnet), "new" goes straight to
    signing up and "guest" to the name prompt (the SSH users of those names).
    ``offered_keys`` are public keys (OpenSSH lines) the caller's SSH client offered
    that log nobody in: one may be attached to the account after a password log-in.
    "login" lets a caller only log in: the door is full but for members and the sysop.
    ``connected_at`` (the event loop's clock) is when the connection arrived: log-in
    must be done within ``[server] login_timeout_seconds`` of it."""

    name: str | None
    transport: str
    peer: str = ""
    sysop: bool = False
    account: Account | None = None
    arriving_as: ArrivingAs = "choose"
    offered_keys: tuple[str, ...] = ()
    connected_at: float | None = None
    watch: str = ""
    """A caller sent here by another worker to watch this caller's game."""
    paged_by: str = ""
    """A caller sent here by another worker because this sysop paged them."""
    pending_reset: PendingReset | None = None
    """A member in by the sysop's reset code (over SSH): a new password comes first."""
    touch: bool = False
    """The caller's web page is on a touch screen: the prompts say tap, not click."""

    @property
    def address(self) -> str:
        """The caller's address without the port ("" when there is none)."""
        return peer_address(self.peer)


async def run_session(
    terminal: Terminal,
    config: Config,
    caller: Caller,
    rng: random.Random | None = None,
    presence: Presence | None = None,
    records: Records | None = None,
    tables: TableService | None = None,
) -> None:
    """Serve one caller until they quit or the line drops; always closes the terminal.

    ``presence`` is the door's registry of who is online (a session alone gets its own);
    ``records`` its accounts and saved games (none given: accounts are off); ``tables``
    the door's table service (door/app/table_service.py; none given: one for this
    session, with ``presence`` and ``records``)."""
    rng = rng or random.Random()
    presence = presence or Presence(config.sysop.name)
    records = records or Records()
    tables = tables or TableService(config, presence, records)
    member: Member | None = None
    came_in = "caller"  # as the log names them once they are known: "caller Ada"
    session = Session(terminal)
    session.touch = caller.touch
    try:
        if not session.lines:
            terminal.write(HIDE_CURSOR)
        # Asked before the caller is known, so the arrival and its forms are clicked
        # too; a member who chose no mouse is told to stop once they have logged in.
        session.mouse_offered = offers_mouse(
            terminal.term_type, lines=session.lines, door_mode=caller.transport.startswith("door")
        )
        session.mouse = session.mouse_offered
        loop = asyncio.get_running_loop()
        started = caller.connected_at if caller.connected_at is not None else loop.time()
        try:
            async with asyncio.timeout_at(started + config.server.login_timeout_seconds):
                member = await sign_in(session, config, caller, presence, records)
        except TooManyTries:
            logger.info("%s caller from %s used up their passwords", caller.transport, caller.peer)
            return
        except TimeoutError:
            logger.info("%s caller from %s took too long to log in", caller.transport, caller.peer)
            terminal.write(LOGIN_TIMEOUT_MESSAGE)
            with contextlib.suppress(Disconnected):
                await asyncio.wait_for(terminal.flush(), 2.0)
            return
        if member is None:
            await session.say_goodbye("Goodbye!")
            return
        kept = await records.member_settings(member.account)
        if kept.get("screen_reader") == "on":
            session.use_speech()  # a member who chose it (J in the lobby) comes back in it
        session.mouse_offered = offers_mouse(
            terminal.term_type, lines=session.lines, door_mode=caller.transport.startswith("door")
        )
        session.mouse = session.mouse_offered and kept.get("mouse") != "off"
        who = "guest" if member.account is None and not member.sysop else "caller"
        came_in = f"{who} {escaped(member.name)}"
        logger.info("%s %s from %s", caller.transport, came_in, caller.peer)
        choices = MenuChoices(
            GameOptions(config.game.runs, config.game.counting, config.game.level)  # type: ignore[arg-type]
        )
        while True:
            lobby = Lobby(
                session,
                presence,
                member,
                config,
                choices,
                rng,
                lambda: show_help(session),
                records,
                tables,
            )
            try:
                if not await rejoin_game(presence, member, lobby):
                    await resume_game_between_callers(presence, records, member, lobby)
                if caller.watch:
                    await watch_game_of(presence, caller.watch, lobby)
                if caller.paged_by:
                    sysop = presence.members.get(caller.paged_by.casefold())
                    if sysop is not None and sysop.sysop:
                        presence.page(sysop, member)
                await offer_saved_game(records, member, lobby)
                await lobby.run()
            except HandedOver as handed:
                # A game with a caller of another worker, played there: this line is
                # relayed until the caller's session there ends...
                presence.leave(member, quietly=True)
                gone, member = member, None
                if await relay_to_table(presence, session, gone, caller, handed):
                    return
                # ... or that worker dies: the caller carries on here, their game set
                # again from the store.
                member = await back_from_a_dead_worker(session, presence, gone)
                if member is None:
                    return
                continue
            break
        await session.say_goodbye(f"Thanks for playing, {member.name}. Goodbye!")
    except Disconnected:
        logger.info("%s %s from %s disconnected", caller.transport, came_in, caller.peer)
    finally:
        if member is not None:
            presence.leave(member)
        session.close()


async def sign_in(
    session: Session,
    config: Config,
    caller: Caller,
    presence: Presence,
    records: Records | None = None,
) -> Member | None:
    """Put the caller online: the sysop under the sysop's name, someone who logged in (or
    just signed up) under their handle, a guest under a name they give, asked again until
    it is free and nobody's handle. None if the caller chose to leave instead."""
    records = records or Records()
    account = caller.account or await arrive(session, config, caller, records)
    if account is None and caller.arriving_as == "login" and not caller.sysop:
        await show_notice(session, "The door is full", FULL_FOR_GUESTS)
        return None
    if account is not None:
        banned = _banned_name(presence, account.handle)
        if banned is not None:
            logger.info("%s caller from %s: a banned handle", caller.transport, caller.peer)
            await show_notice(session, "Banned", banned)
            return None
        locked = await member_gate.refusal(records.store, account, caller.address)
        if locked is not None:
            await show_notice(session, "Account locked", locked)
            return None
        if records.store is not None and caller.offered_keys:
            # An SSH log-in by password (only those leave keys on offer): next time the
            # key could do instead.
            await offer_ssh_key(session, records.store, account, caller.offered_keys[0])
        return await join_with_account(session, presence, account)
    name = config.sysop.name if caller.sysop else clean_name(caller.name or "")
    message = ""
    if not caller.sysop and _longer_than_a_name(caller.name or ""):
        # A name from the transport (an SSH or RLogin user name) that does not fit is
        # asked again, not cut short without a word.
        name = ""
        message = (
            f"Your name is longer than {MAX_NAME_LENGTH} characters: please type a shorter one."
        )
    while True:
        if name:
            banned = None if caller.sysop else _banned_name(presence, name)
            if banned is not None:
                message = f"{banned} Please choose another name."
            elif not caller.sysop and await name_is_an_account(records.store, name):
                message = f"{name} is a member's handle: please choose another name."
            else:
                try:
                    return await presence.enter(name, session, sysop=caller.sysop)
                except NameInUse as taken:
                    message = f"Sorry, {taken}. Please choose another name."
        name = await ask_name(session, config, message)


def _banned_name(presence: Presence, name: str) -> str | None:
    """What a caller is told if the sysop banned ``name`` (or one that looks the same)."""
    ban = presence.moderation.bans.naming(name) if presence.moderation is not None else None
    return ban.refusal() if ban is not None else None


def _longer_than_a_name(text: str) -> bool:
    """Whether ``text`` is more than a caller's name holds, once cleaned."""
    return len(" ".join(sanitize(text, 4 * MAX_NAME_LENGTH).split())) > MAX_NAME_LENGTH


async def arrive(
    session: Session, config: Config, caller: Caller, records: Records
) -> Account | None:
    """The account a caller with no proven one comes in with, if they log in or sign up
    now; None for a guest (and for a caller the transport already named)."""
    if caller.sysop or caller.name or caller.arriving_as == "guest":
        return None
    if caller.pending_reset is not None:
        if records.store is None:
            return None
        return await choose_new_password(session, records.store, caller.pending_reset)
    if caller.arriving_as == "new" and records.store is not None:
        return await sign_up(session, records.store)
    attempts = LoginAttempts(records.logins, caller.address)
    if caller.arriving_as == "login":
        if records.store is None:
            return None
        return await log_in(session, records.store, attempts=attempts)
    arrival = await choose_arrival(
        session,
        records.store,
        config.door.bbs_name,
        unavailable=records.unavailable,
        attempts=attempts,
    )
    return arrival.account


async def join_with_account(
    session: Session, presence: Presence, account: Account
) -> Member | None:
    """Online under the account's handle. If the account is online on another line
    already (a line that dropped without the door noticing, say), the caller may hang
    that one up and come in here; None if they would rather leave."""
    taking_over = False
    while True:
        try:
            # Taking over their own line, the member neither left nor came: no word.
            return await presence.enter(
                account.handle, session, account=account, quietly=taking_over
            )
        except NameInUse as refused:
            other = presence.find(account.handle)
            if other is None or other.account is None or other.account.id != account.id:
                # Someone else goes by that name (the sysop, if it became the sysop's).
                await show_notice(session, "Already online", f"Sorry, {refused}.")
                return None
        question = (
            f"{account.handle} is online on another line already. Hang that line up and "
            "carry on here? (A game going on there waits for you here.)"
        )
        if not await yes_or_no(session, "Already online", question):
            return None
        await other.take_over(TAKE_OVER_MESSAGE)
        taking_over = True
        await _until_gone(presence, other)


async def _until_gone(presence: Presence, member: Member) -> None:
    """Wait for a closed line's session to leave the list (it drops its seat and saves
    its game on the way out); after a while, take it off the list regardless."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TAKE_OVER_WAIT_SECONDS
    while presence.find(member.name) is member and loop.time() < deadline:
        await asyncio.sleep(0.05)
    presence.leave(member)


async def offer_saved_game(records: Records, member: Member, lobby: Lobby) -> None:
    """A caller who logged in with a game against the computer still saved: resume it
    now, abandon it (a loss) or leave it for later."""
    if member.account is None:
        return
    saved = await records.saved_game(member.account)
    if saved is None:
        return
    choice = await offer_resume(lobby.session, saved)
    if choice == "resume":
        await lobby.play_computer(saved)
    elif choice == "abandon":
        member.tell(await records.abandon(saved))
    else:
        member.tell("Your saved game waits for your next call.")


async def relay_to_table(
    presence: Presence, session: Session, member: Member, caller: Caller, handed: HandedOver
) -> bool:
    """Carry the caller's line to ``worker``, whose table has their seat, until it ends:
    True if the caller hung up or their session there ended, False if that worker went
    away first."""
    from door.cluster.link import ClusterLink
    from door.cluster.relay import relay_line

    cluster = presence.cluster
    if not isinstance(cluster, ClusterLink):  # relaying a line takes Redis's own link
        return True
    account = member.account
    hello = {
        "name": member.name,
        "account": None if account is None else [account.id, account.handle],
        "sysop": member.sysop,
        "transport": caller.transport,
        "peer": caller.peer,
        "watch": handed.watch,
        "paged_by": handed.paged_by,
        "touch": caller.touch,  # (the keys on offer come back: relay.py)
    }
    logger.info("%s goes on at worker %s", escaped(member.name), handed.worker)
    # The guard of their session there watches the line (the one here would count the
    # time the table there waits on the other player), but for while Redis is away.
    try:
        return await relay_line(cluster, session.terminal, handed.worker, hello)
    finally:
        session.forget_offers()  # the page was told the keys of the screens there


async def watch_game_of(presence: Presence, name: str, lobby: Lobby) -> None:
    """Watch the game of ``name`` (the caller came from another worker to watch it)."""
    other = presence.members.get(name.casefold())
    if other is None or other.table is None or other.table.over:
        lobby.member.tell(f"{name}'s game is over.")
        return
    await lobby.watch_table(other.table)
    presence.set_place(lobby.member, IN_THE_LOBBY)


async def back_from_a_dead_worker(
    session: Session, presence: Presence, gone: Member
) -> Member | None:
    """The worker whose table a caller's line was relayed to has died: the caller is
    online here again, under the same name and account (None if that cannot be)."""
    logger.info("%s is back from a worker that stopped", escaped(gone.name))
    session.redraw_all()
    try:
        member = await presence.enter(gone.name, session, sysop=gone.sysop, account=gone.account)
    except NameInUse:
        session.write_text(TABLE_GONE)
        with contextlib.suppress(Disconnected):
            await asyncio.wait_for(session.terminal.flush(), 2.0)
        return None
    member.tell(TABLE_MOVED if member.account is not None else GUEST_TABLE_GONE)
    return member


async def rejoin_game(presence: Presence, member: Member, lobby: Lobby) -> bool:
    """Back to the seat a game kept for this caller when their line dropped; False if
    no game here waits for them."""
    account_id = member.account.id if member.account is not None else None
    table = presence.table_waiting_for(member.name, account_id)
    if table is None:
        return False
    seat = table.waits_for(member.name, account_id)
    returning = seat is not None and seat.sat_down  # not a first arrival from another worker
    person = table.rejoin(member.name, lobby.session, account_id)
    if person is None:
        return False
    if returning:
        presence.notice(f"{member.name} is back at {table.title}.")
    member.seat = person
    await lobby.go_where_called()
    presence.set_place(member, IN_THE_LOBBY)
    return True


async def resume_game_between_callers(
    presence: Presence, records: Records, member: Member, lobby: Lobby
) -> None:
    """A game between callers that a stopped door or worker left unfinished: the first
    of its callers to come back sets the table again where the game stood, and waits
    there for the others; one who calls another worker is sent to that table."""
    if member.account is None:
        return
    saved = await records.game_between_callers_to_resume(member.account)
    if saved is None or any(table.saved_as() == saved.game_id for table in presence.tables):
        return  # none, or it is being played here (the caller left its table)
    cluster = presence.cluster
    if cluster is not None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLAIM_WAIT_SECONDS
        holder = await cluster.claim_game(saved.game_id)
        contested = holder != cluster.worker
        while holder != cluster.worker and holder not in cluster.alive:
            if loop.time() > deadline:
                return
            # Its worker has just died, or is stopping: the claim expires soon, or is
            # let go of once that worker has saved the game as it stands.
            await asyncio.sleep(0.25)
            holder = await cluster.claim_game(saved.game_id)
        if holder != cluster.worker:
            member.handover = holder
            await lobby.go_where_called()  # raises HandedOver
        if contested:
            # The game as the worker that let go of it saved it last.
            saved = await records.game_between_callers_to_resume(member.account)
            if saved is None:
                return
    table = lobby.tables.resumed(saved, rng=lobby.rng)
    await lobby.tables.count_only_if_match_open(table)
    presence.add_table(table)
    table.start()
    logger.info("game %d of %s resumed from the store", saved.game_id, table.title)
    _seat_those_waiting_in_the_lobby(presence, table, member)
    await rejoin_game(presence, member, lobby)


def _seat_those_waiting_in_the_lobby(presence: Presence, table: Table[Any], setter: Member) -> None:
    """The game's other callers already in this worker's lobby sit down at once, as an
    accepted challenge seats its callers: their own arrival came before the table did (the
    console's sysop is in before anyone calls), so nothing else would take them there."""
    for other in list(presence.members.values()):
        if other is setter or not other.in_lobby or other.called or presence.worker_of(other):
            continue
        account_id = other.account.id if other.account is not None else None
        person = table.rejoin(other.name, other.line, account_id)  # type: ignore[arg-type]
        if person is not None:
            other.seat = person
            other.summon()


def draw_welcome(config: Config) -> Canvas:
    """The welcome screen: the sysop's art and the board's name."""
    canvas = Canvas()
    art = load_text(WELCOME_ART, "   CRIBBAGE DOOR\n")
    for row, line in enumerate(art.splitlines()[:8], start=1):
        canvas.put(row, 0, line[: canvas.cols - 1], theme.ART)
    canvas.put(6, 3, f"Welcome to {config.door.bbs_name}!"[: canvas.cols - 4], theme.HEADING)
    return canvas


async def ask_name(session: Session, config: Config, message: str = "") -> str:
    """A guest's name, asked on the welcome screen until one is given."""
    editor = LineEditor(MAX_NAME_LENGTH)
    with session.showing(Frame()) as frame:
        while True:
            canvas = draw_welcome(config)
            canvas.put(8, 3, "Who is calling? Type the name you will play under.", theme.TEXT)
            prompt = "Your name: "
            shown, column = editor.shown(MAX_NAME_LENGTH)
            canvas.put(10, 3, prompt, theme.TEXT)
            canvas.put(10, 3 + len(prompt), shown, theme.ENTRY)
            if message:
                canvas.put(12, 3, message[:76], theme.ERROR)
            said = name_said(message, editor.text) if session.speech else None
            frame.show(canvas, (10, 3 + len(prompt) + column), said=said)
            await session.paint()
            if session.speech:
                # A line typed whole, echoed as typed: the name it cleans up to.
                line = await typed_line(session) or ""
                name = clean_name(line)
                if name and len(" ".join(line.split())) <= MAX_NAME_LENGTH:
                    return name
                message = (
                    f"A name is 1 to {MAX_NAME_LENGTH} letters, digits and spaces: type one, "
                    "then RETURN."
                )
                continue
            edit = editor.feed(await session.read_key())
            if edit is Edit.DONE:
                name = clean_name(editor.text)
                if name:
                    return name
                editor.clear()
                message = "Please type a name (letters, digits, spaces), then press RETURN."
            elif edit is Edit.CANCELLED:
                editor.clear()
            elif edit is Edit.REFUSED:
                message = editor.refusal
            elif edit is Edit.NOT_EDITING:
                message = "Type your name and press RETURN."
            else:
                message = ""


async def show_help(session: Session) -> None:
    """The same help pages as in a game, over a blank screen; to a screen reader's
    caller, their page said as sentences (door/screens/speech.py)."""
    if session.speech:
        await session.send_lines(spoken_help(default_help()) + "\r\n")
        session.speaker.heard_line()  # the prompt again, after it
        return
    overlay = HelpOverlay.from_text(with_mouse_help(default_help(), session.mouse))
    with session.showing(Frame()) as frame:
        while True:
            canvas = Canvas()
            draw_help(canvas, overlay)
            status = overlay.status("the menu")
            draw_status(canvas, status)
            hits = HitMap(key_line_hits(status, STATUS_ROW)).scrolled_by(Key.PGUP, Key.PGDN)
            frame.show(canvas, hits=hits)
            await session.paint()
            turned = overlay.after(await session.read_key())
            if turned is None:
                return
            overlay = turned
