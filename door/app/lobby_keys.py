"""The lobby's keys, declared once each (door/ui/bindings.py): the menu's first row and
the status line are made from them, and the lobby runs a key's action by its name.

``LOBBY_KEYS`` are the lobby's own (door/app/lobby.py's methods), ``OPTION_KEYS`` set
the game options a caller chooses (``OptionKeys``), and the sysop's are in
door/app/sysop_keys.py. A key whose condition does not hold (Y with no challenge to
answer, R with accounts off) does nothing, and the caller is told so.

>>> LOBBY_MENU.text
'P Play the computer  T Self-play  W Challenge  V Watch  C Chat  ? Help  Q Quit'
>>> LOBBY_STATUS.text
'Press a key from the menu  c chat  ? help  q quit'
"""

from __future__ import annotations

from typing import Final

from door.app.members import Member
from door.app.menu_choices import MenuChoices
from door.app.records import Records
from door.screens.layout import TEXT_WIDTH
from door.storage.errors import StoreError
from door.table.options import GameOptions
from door.term.charset import Charset
from door.term.keys import Key
from door.ui.bindings import Binding, Bindings
from door.ui.session import Session

LOBBY_KEYS: Final = Bindings(
    (
        Binding("p", "play_computer", "Play the computer"),
        Binding("t", "watch_computer", "Self-play"),
        Binding("w", "challenge", "Challenge"),
        Binding("v", "watch", "Watch"),
        Binding("c", "chat", "Chat", status=True),
        Binding("?", "help", "Help", also=(Key.F1,), status=True),
        Binding("q", "leave", "Quit", also=(Key.CTRL_C,), status=True),
        # Offered on the notice line while a challenge is out or waits for an answer:
        Binding("y", "accept", when="invited"),
        Binding("n", "decline", when="invited"),
        Binding("", "withdraw", also=(Key.ESCAPE,), when="challenging"),
        # Offered on the record's row, and the competitions' (lobby_keys_rows):
        Binding("r", "show_record", when="keeps_records"),
        Binding("l", "leaderboard", when="keeps_records"),
        Binding("f", "mail_games", when="has_mail"),
        Binding("u", "tournament_screen", when="has_tournaments"),
    )
)
LOBBY_MENU: Final = LOBBY_KEYS.menu_line()
LOBBY_STATUS: Final = LOBBY_KEYS.status_line("Press a key from the menu  ")
LOBBY_MOUSE_STATUS: Final = LOBBY_KEYS.status_line("Press a key from the menu or click one  ")
"""The lobby's status line for a caller whose clicks work."""
LOBBY_TAP_STATUS: Final = LOBBY_KEYS.status_line("Press a key from the menu or tap one  ")
"""The same on a touch screen."""

OPTION_KEYS: Final = Bindings(
    (
        # Offered on the options' row, which shows what each is set to (options_row):
        Binding("1", "free_runs"),
        Binding("2", "exact_runs"),
        Binding("a", "next_counting"),
        Binding("g", "next_players"),
        Binding("d", "next_level"),
        Binding("m", "next_match_length"),
        Binding("e", "toggle_rated"),
        Binding("i", "next_turn_timer"),
        Binding("s", "next_charset"),
        Binding("z", "toggle_mouse"),  # (O pages, for the sysop; M is the match)
        Binding("j", "toggle_screen_reader"),  # the last letter free in the lobby
    )
)

CHARSET_NAMES: Final = {
    Charset.UTF8: "UTF-8",
    Charset.CP437: "CP437 (BBS)",
    Charset.ASCII: "plain ASCII",
}
CHARSET_CYCLE: Final = (Charset.UTF8, Charset.CP437, Charset.ASCII)
SCREEN_READER_KEY: Final = "J screen reader"


def lobby_holds(condition: str, member: Member, records: Records) -> bool:
    """Whether a lobby key's condition (``Binding.when``) holds for ``member`` now."""
    match condition:
        case "invited":
            return member.invitation is not None
        case "challenging":
            return member.challenge is not None
        case "keeps_records":
            return records.store is not None
        case "has_mail":
            return records.mail is not None
        case "has_tournaments":
            return records.tournaments is not None
        case "sysop":
            return member.sysop
    raise ValueError(f"no lobby condition {condition!r}")


class OptionKeys:
    """The actions of ``OPTION_KEYS``: each sets the next game's options (kept in
    ``choices``) or the caller's character set; one that cannot be set says why."""

    def __init__(
        self, choices: MenuChoices, member: Member, session: Session, records: Records
    ) -> None:
        self.choices = choices
        self.member = member
        self.session = session
        self.records = records

    def _set(self, options: GameOptions) -> None:
        self.choices.options = options

    def free_runs(self) -> None:
        self._set(self.choices.options.with_(runs="free"))

    def exact_runs(self) -> None:
        self._set(self.choices.options.with_(runs="exact"))

    def next_counting(self) -> None:
        counting = "manual" if self.choices.options.counting == "auto" else "auto"
        self._set(self.choices.options.with_(counting=counting))

    def next_level(self) -> None:
        self._set(self.choices.options.with_next_level())

    def next_players(self) -> None:
        self._set(self.choices.options.with_next_players())

    def toggle_rated(self) -> None:
        options = self.choices.options
        if self.member.account is None:
            self.member.tell("Rated games are between members: log in next time to play one.")
        elif options.players != 2:
            self.member.tell("A rated game is between two players: press G for 2 players.")
        else:
            self._set(options.with_(rated=not options.rated))

    def next_turn_timer(self) -> None:
        self._set(self.choices.options.with_next_turn_timer())

    def next_match_length(self) -> None:
        if self.choices.options.players == 3:
            self.member.tell("Three players play single games: a match is between two sides.")
        else:
            self._set(self.choices.options.with_next_match_length())

    def toggle_mouse(self) -> None:
        session = self.session
        if not session.mouse_offered:
            self.member.tell("Your terminal is not asked for mouse clicks here: keys only.")
            return
        wanted = not session.mouse_wanted
        session.mouse = wanted
        self.records.keep_setting(self.member.account, "mouse", "on" if wanted else "off")
        if not wanted:
            self.member.tell("The mouse is off: keys only.")
        elif session.lines:
            # Plain lines never ask for clicks: the wish is kept for the screens.
            self.member.tell("Clicks will work on the screens, after J; here, type lines.")
        else:
            self.member.tell("Clicks work now.")

    def next_charset(self) -> None:
        position = CHARSET_CYCLE.index(self.session.charset)
        self.session.charset = CHARSET_CYCLE[(position + 1) % len(CHARSET_CYCLE)]

    async def toggle_screen_reader(self) -> None:
        """``j``: screen-reader mode on or off (door/table/reader.py), kept for a member's
        next call."""
        session = self.session
        on = not session.speech
        if on:
            session.use_speech()
        else:
            session.stop_speech()
        kept = ""
        account, store = self.member.account, self.records.store
        if account is not None and store is not None:
            try:
                await store.keep_member_setting(account.id, "screen_reader", "on" if on else "off")
                kept = ", kept for your next call"
            except StoreError:
                kept = " for this call: it could not be kept"
        if on:
            self.member.tell(f"Screen reader on{kept}. Plain sentences, one line at a time.")
        else:
            self.member.tell(f"Screen reader off{kept}.")


def options_row(options: GameOptions) -> str:
    """The lobby's second row of keys: each game option's key and what it is set to."""
    return (
        f"1/2 runs: {options.runs}  A count: {options.counting}  G players: "
        f"{options.players}  D level: {options.level}  M {options.match_text}"
    )


def account_row(
    records: Records, member: Member, options: GameOptions, charset: str, mouse: str = ""
) -> str:
    """The lobby's third row of keys: the record and leaderboard (when accounts are on),
    rated games (members), the turn timer, the character set and the mouse (``mouse``:
    "on" or "off" where the caller's terminal reports clicks, else "")."""
    shared = f"I {options.timer_text}  S {charset}"
    if mouse:
        shared += "  Z mouse" if mouse == "on" else "  Z no mouse"
    if records.store is None:
        return shared
    if member.sysop and member.account is None:
        return f"L Leaderboard  {shared}"  # the sysop at the console: no guest, no record
    if member.account is None:
        row = f"L Leaderboard  {shared}  (a guest's games are not kept)"
        return row if len(row) <= TEXT_WIDTH else f"L Leaderboard  {shared}  (guest: not kept)"
    rated = "rated" if options.rated else "unrated"
    return f"R Record  L Leaderboard  E {rated}  {shared}"


def competition_row(records: Records, member: Member) -> str:
    """Mail games are a member's own; tournaments are members' too, but the sysop makes
    them (U then N), account or not. The screen reader's key ends the row: anyone may
    turn it on."""
    if records.store is None:
        return SCREEN_READER_KEY
    keys = []
    if member.account is not None and records.mail is not None:
        keys.append("F Mail games")
    if records.tournaments is not None and (member.account is not None or member.sysop):
        keys.append("U Tournaments")
    return "  ".join([*keys, SCREEN_READER_KEY])
