"""``cribbage-door user list|show|reset-password|lock|unlock|rename|delete|note`` and
``cribbage-door audit``: the sysop's tools for members from the shell, on the database
``serve`` would use (same ``--config`` and ``--data-dir``), whether the door runs or not.

Every change is written to the audit with the actor ``shell:<unix user>``. Each command
prints what it did, or one line saying why it could not, and exits 0 when done, 1 when
the database or the member said no (an unknown handle, a handle taken), 2 for a bad
command line or config (a bad date, a bad number of hours).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final

from door.shell_store import (
    BAD_USAGE_EXIT,
    PROGRAM,
    CommandFailed,
    command_config,
    exit_status,
    shell_actor,
    with_store,
)

if TYPE_CHECKING:  # the store is loaded only when a command runs, not for every --help
    from door.storage.audit import AuditEntry
    from door.storage.members import MemberDetail, MemberLine
    from door.storage.store import Store

MAX_LISTED: Final = 500
"""The most members ``user list`` prints (the store's bound)."""
MAX_LOCK_HOURS: Final = 24 * 366 * 10
"""Ten years: anything longer is a lock until unlocked (leave out --hours)."""

AddPlace = Callable[[argparse.ArgumentParser], None]


# --- the command line ---------------------------------------------------------------------


def add_member_actions(actions: argparse._SubParsersAction, add_place: AddPlace) -> None:  # type: ignore[type-arg]
    """The ``user`` command's actions for the sysop's tools, under ``actions``;
    ``add_place`` gives each ``--config`` and ``--data-dir``."""
    listing = actions.add_parser("list", help="list members, or those whose handle holds TEXT")
    listing.add_argument("--search", metavar="TEXT", help="part of a handle, in any case")
    listing.add_argument("--limit", type=int, default=100, metavar="N", help="at most N (100)")
    add_place(listing)

    def on_a_member(name: str, help: str, handle: str = "HANDLE") -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = actions.add_parser(name, help=help)
        parser.add_argument("handle", metavar=handle, help="the member's handle, in any case")
        add_place(parser)
        return parser

    on_a_member("show", "a member's record, addresses, lock and note")
    reset = on_a_member("reset-password", "print a one-time code (24 h) to log in with once")
    lock = on_a_member("lock", "lock a member out, for a time or until unlocked")
    lock.add_argument("--reason", required=True, metavar="TEXT", help="told to the member")
    lock.add_argument("--hours", type=float, metavar="N", help="the lock ends after N hours")
    unlock = on_a_member("unlock", "lift a lock (and any wrong-password lock-out)")
    rename = on_a_member("rename", "give a member a new handle", handle="OLD")
    rename.add_argument("new_handle", metavar="NEW", help="the new handle")
    remove = on_a_member("delete", "remove a member; their games stay in opponents' records")
    remove.add_argument("--yes", action="store_true", help="do not ask first")
    note = on_a_member("note", "set the sysop's note on a member ('' removes it)")
    note.add_argument("text", metavar="TEXT", help="the note")
    for parser in (reset, unlock, rename, remove):
        parser.add_argument("--reason", metavar="TEXT", help="kept in the audit")


MEMBER_ACTIONS: Final = frozenset(
    {"list", "show", "reset-password", "lock", "unlock", "rename", "delete", "note"}
)


def add_audit_command(
    new_command: Callable[..., argparse.ArgumentParser], add_place: AddPlace
) -> None:
    audit = new_command("audit", help="what the sysop did, newest first")
    audit.add_argument(
        "--since", metavar="DATE", help="from DATE on (2026-11-27, or 2026-11-27T22:00; UTC)"
    )
    audit.add_argument("--limit", type=int, default=200, metavar="N", help="at most N (200)")
    add_place(audit)


def member_command(args: argparse.Namespace) -> int:
    """Run ``user ACTION`` (one of MEMBER_ACTIONS) or ``audit``; the exit status."""
    logging.basicConfig(level=logging.WARNING, format=f"{PROGRAM}: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from door.storage.store import LoginPolicy

    name = "audit" if args.command == "audit" else f"user {args.user_command}"

    def work() -> None:
        run = _ACTIONS[name]
        config = command_config(args)
        policy = LoginPolicy.from_settings(config.database)
        asyncio.run(with_store(config, lambda store: _in_one_line(run(args, store)), policy))

    return exit_status(name, work)


async def _in_one_line(work: Awaitable[None]) -> None:
    """``work``, whose refusals by the store or by the values it checks end the command
    as one line."""
    from door.storage.errors import StorageUnavailableError, StoreError

    try:
        await work
    except StorageUnavailableError:
        raise  # with_store says what the database is and why it cannot be used
    except (StoreError, ValueError) as error:
        raise CommandFailed(_sentence(str(error))) from None


def _sentence(text: str) -> str:
    """A store's message (written for a caller) as the command's one line."""
    return text.rstrip(".")


# --- the actions --------------------------------------------------------------------------


def moment(when: dt.datetime | None) -> str:
    return when.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M") if when else "-"


def member_lines(members: list[MemberLine]) -> list[str]:
    """The list as ``user list`` prints it, one member a line under a heading."""
    lines = [
        f"{'handle':<20}  {'first call':<16}  {'last call':<16}  {'games':>5}  "
        f"{'rating':>6}  status"
    ]
    for member in members:
        rating = f"{member.rating:6.0f}" if member.rating is not None else f"{'-':>6}"
        lines.append(
            f"{member.handle:<20}  {moment(member.first_call):<16}  "
            f"{moment(member.last_call):<16}  {member.games:>5}  {rating}  {member.status}"
        )
    return lines


def detail_lines(detail: MemberDetail) -> list[str]:
    """One member as ``user show`` prints them."""
    line = detail.line
    rating = f"{line.rating:.0f}" if line.rating is not None else "none yet"
    lines = [
        f"handle       {line.handle}",
        f"status       {line.status}",
        f"first call   {moment(line.first_call)} UTC",
        f"last call    {moment(line.last_call)}{' UTC' if line.last_call else ''}",
        f"games        {line.games} ({detail.wins} won, {detail.losses} lost)",
        f"rating       {rating}",
    ]
    if detail.lock is not None:
        ends = f"until {moment(detail.lock.ends)} UTC" if detail.lock.ends else "until unlocked"
        lines.append(f"locked       since {moment(detail.lock.since)} UTC, {ends}")
        lines.append(f"  reason     {detail.lock.reason}")
    if detail.locked_out_until is not None:
        lines.append(f"locked out   by wrong passwords until {moment(detail.locked_out_until)} UTC")
    if detail.reset_code_until is not None:
        lines.append(f"reset code   given, valid until {moment(detail.reset_code_until)} UTC")
    lines.append(f"note         {detail.note or '-'}")
    lines.append("addresses    -" if not detail.addresses else "addresses")
    for seen in detail.addresses:
        calls = f"{seen.calls} call{'s' if seen.calls != 1 else ''}"
        lines.append(f"  {seen.address:<40}  last {moment(seen.last_seen)}  {calls}")
    return lines


async def _list(args: argparse.Namespace, store: Store) -> None:
    if not 1 <= args.limit <= MAX_LISTED:
        raise CommandFailed(f"--limit must be 1 to {MAX_LISTED}", BAD_USAGE_EXIT)
    members = await store.members(args.search, limit=args.limit + 1)
    if not members:
        print("no member's handle holds that" if args.search else "no members yet")
        return
    print("\n".join(member_lines(members[: args.limit])))
    if len(members) > args.limit:
        print(f"... and more: --limit N lists more, --search TEXT fewer (at most {MAX_LISTED})")


async def _show(args: argparse.Namespace, store: Store) -> None:
    detail = await store.member(args.handle)
    if detail is None:
        raise CommandFailed(f"No member has the handle {args.handle!r}")
    print("\n".join(detail_lines(detail)))


async def _reset_password(args: argparse.Namespace, store: Store) -> None:
    account, code, expires = await store.make_reset_code(args.handle)
    await store.record_action(
        shell_actor(),
        "user.reset-password",
        account.handle,
        args.reason,
        f"code valid until {moment(expires)} UTC",
    )
    print(f"reset code for {account.handle}: {code}")
    print(
        f"valid once, until {moment(expires)} UTC. {account.handle} logs in with it as the "
        "password and then chooses a new one; the old password still works until then."
    )


async def _lock(args: argparse.Namespace, store: Store) -> None:
    ends = None
    if args.hours is not None:
        if not 0 < args.hours <= MAX_LOCK_HOURS:
            raise CommandFailed(
                f"--hours must be more than 0 and at most {MAX_LOCK_HOURS} "
                "(leave it out to lock until unlocked)",
                2,
            )
        ends = dt.datetime.now(dt.UTC) + dt.timedelta(hours=args.hours)
    account = await store.lock_member(args.handle, args.reason, ends)
    until = f"until {moment(ends)} UTC" if ends else "until unlocked"
    await store.record_action(shell_actor(), "user.lock", account.handle, args.reason, until)
    print(f"{account.handle} is locked {until}")


async def _unlock(args: argparse.Namespace, store: Store) -> None:
    account = await store.unlock_member(args.handle)
    await store.record_action(shell_actor(), "user.unlock", account.handle, args.reason)
    print(f"{account.handle} is unlocked")


async def _rename(args: argparse.Namespace, store: Store) -> None:
    old, new = await store.rename_member(args.handle, args.new_handle)
    await store.record_action(shell_actor(), "user.rename", new, args.reason, f"was {old}")
    print(f"{old} is now {new}; {old} is held from others for 30 days")


def _games(count: int) -> str:
    return f"{count} game{'s' if count != 1 else ''}"


async def _delete(args: argparse.Namespace, store: Store) -> None:
    detail = await store.member(args.handle)
    if detail is None:
        raise CommandFailed(f"No member has the handle {args.handle!r}")
    handle = detail.line.handle
    if not args.yes:
        if not sys.stdin.isatty():
            raise CommandFailed(f"deleting {handle} cannot be undone: add --yes", BAD_USAGE_EXIT)
        answer = input(f"Delete {handle} ({_games(detail.line.games)}) for good? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            raise CommandFailed("nothing deleted", 1)
    deleted = await store.delete_member(handle)
    await store.record_action(
        shell_actor(), "user.delete", deleted.handle, args.reason, deleted.kept()
    )
    print(f"{deleted.handle} is deleted; their games show as '(deleted member)'")


async def _note(args: argparse.Namespace, store: Store) -> None:
    account = await store.set_member_note(args.handle, args.text)
    detail = await store.member(account.handle)
    kept = detail.note if detail is not None else None
    await store.record_action(shell_actor(), "user.note", account.handle, None, kept)
    print(f"note on {account.handle}: {kept}" if kept else f"note on {account.handle} removed")


def parse_since(text: str) -> dt.datetime:
    """``--since``: an ISO date or date and time, UTC unless it names its zone."""
    try:
        when = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise CommandFailed(
            f"--since {text!r} is not a date: write 2026-11-27 or 2026-11-27T22:00", 2
        ) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


def audit_lines(entries: list[AuditEntry]) -> list[str]:
    """The audit as ``audit`` prints it: one entry a line, newest first."""
    lines = []
    for entry in entries:
        parts = [moment(entry.at), entry.actor, entry.action, entry.target or "-"]
        if entry.reason:
            parts.append(f"reason: {entry.reason}")
        if entry.detail:
            parts.append(entry.detail)
        lines.append("  ".join(parts))
    return lines


async def _audit(args: argparse.Namespace, store: Store) -> None:
    since = parse_since(args.since) if args.since else None
    if args.limit < 1:
        raise CommandFailed("--limit must be 1 or more", BAD_USAGE_EXIT)
    entries = await store.recorded_actions(since, args.limit)
    if not entries:
        print("nothing in the audit" + (" since then" if since else " yet"))
        return
    print("\n".join(audit_lines(entries)))


_ACTIONS: Final[dict[str, Callable[[argparse.Namespace, Store], Awaitable[None]]]] = {
    "user list": _list,
    "user show": _show,
    "user reset-password": _reset_password,
    "user lock": _lock,
    "user unlock": _unlock,
    "user rename": _rename,
    "user delete": _delete,
    "user note": _note,
    "audit": _audit,
}
